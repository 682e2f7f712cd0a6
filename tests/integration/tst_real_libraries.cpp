// The real node-pg-migrate, from the npm registry, run against the test cluster: while its migration
// runs under its own advisory lock, the console names that lock. Node and npm are not build
// dependencies: where they are missing (apt-get install nodejs npm) or the registry cannot be
// reached, the test says so and skips; the closing note of a session says whether it ran.
#include "TestCluster.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

namespace {
// 7.x runs on Debian 12's Node 18.19 (engines: node >= 18.19.0).
const char* kNodePgMigrate = "node-pg-migrate@7.9.1";

QString npmDir()
{
    return QStringLiteral(LW_NPM_DIR);
}
} // namespace

class TestRealLibraries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nodePgMigrateLockIsNamed()
    {
        const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
        const QString npm = QStandardPaths::findExecutable(QStringLiteral("npm"));
        if (node.isEmpty() || npm.isEmpty())
            QSKIP("node and npm are not installed (apt-get install nodejs npm): the real library was not run");
        const QString bin = npmDir() + QStringLiteral("/node_modules/node-pg-migrate/bin/node-pg-migrate.js");
        if (!QFile::exists(bin)) {
            QDir().mkpath(npmDir());
            const auto r = lw::test::runProcess(npm,
                                                {"install", "--no-audit", "--no-fund", "--prefix", npmDir(),
                                                 QString::fromLatin1(kNodePgMigrate), "pg@8"},
                                                false, 300000);
            if (r.code != 0 || !QFile::exists(bin))
                QSKIP(qPrintable(QStringLiteral("npm could not install %1 (registry unreachable?): %2")
                                     .arg(QString::fromLatin1(kNodePgMigrate), r.err.right(300))));
        }

        lw::test::TestDatabase db("real_npm");
        // A migration that takes a while, so that its lock can be seen.
        QTemporaryDir migrations;
        QFile m(migrations.path() + QStringLiteral("/1700000000000_slow.js"));
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write("exports.up = (pgm) => { pgm.sql('SELECT pg_sleep(6)'); };\n");
        m.close();

        // The suite cluster listens on a Unix socket: libpq's environment names it for node-postgres.
        const QString dsn = db.dsn();
        auto field = [&](const QString& key) {
            for (const QString& part : dsn.split(QLatin1Char(' ')))
                if (part.startsWith(key + QLatin1Char('=')))
                    return part.mid(key.size() + 1);
            return QString();
        };
        QProcess migrate;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PGHOST"), field(QStringLiteral("host")));
        env.insert(QStringLiteral("PGPORT"), field(QStringLiteral("port")));
        env.insert(QStringLiteral("PGUSER"), field(QStringLiteral("user")));
        env.insert(QStringLiteral("PGDATABASE"), field(QStringLiteral("dbname")));
        migrate.setProcessEnvironment(env);
        migrate.setProcessChannelMode(QProcess::MergedChannels);
        migrate.start(node, {bin, "up", "-m", migrations.path(), "--no-check-order"});
        QVERIFY(migrate.waitForStarted());

        // While it runs, its session holds node-pg-migrate's lock (PG_MIGRATE_LOCK_ID, src/runner.ts).
        QString name, out;
        QElapsedTimer t;
        t.start();
        while (name.isEmpty() && t.elapsed() < 20000 && migrate.state() == QProcess::Running) {
            const auto r = lw::test::runProcess(QStringLiteral(LEASEWATCH_BIN), {"snapshot", dsn, "--json"});
            out = r.out;
            for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8())["advisory_locks"].toArray()) {
                const QJsonObject l = v.toObject();
                if (l["key"].toString() == QLatin1String("7241865325823964"))
                    name = l["name"].toString();
            }
            if (name.isEmpty())
                QThread::msleep(200);
        }
        migrate.waitForFinished(30000);
        QVERIFY2(!name.isEmpty(), qPrintable(out + QString::fromUtf8(migrate.readAll())));
        QVERIFY2(name.contains(QLatin1String("node-pg-migrate")), qPrintable(name));
        QCOMPARE(migrate.exitCode(), 0);
        QCOMPARE(db.value("SELECT count(*) FROM pgmigrations"), QStringLiteral("1"));
    }
};

QTEST_GUILESS_MAIN(TestRealLibraries)
#include "tst_real_libraries.moc"
