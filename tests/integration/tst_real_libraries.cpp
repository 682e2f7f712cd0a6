// The real node-pg-migrate and pg-boss, from the npm registry, run against the test cluster: while
// node-pg-migrate's migration runs under its own advisory lock, and while pg-boss's own lock
// statement (plans.locked(), after pg-boss installed its schema) holds its lock, the console names
// those locks. Node and npm are not build
// dependencies: where they are missing (apt-get install nodejs npm) or the registry cannot be
// reached, the test says so and skips; the closing note of a session says whether it ran.
#include "Programs.h"
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
// 10.x: sha224 keys (src/plans.ts advisoryLock()); it runs on Node 18 (npm warns about engines).
const char* kPgBoss = "pg-boss@10.4.2";

QString npmDir() // below the build tree: one install per build, kept between runs
{
    return qEnvironmentVariable("LW_BINARY_DIR") + QStringLiteral("/real-libs");
}

// Installs `spec` into npmDir() unless `probe` (a path below it) is there; empty, or why not.
QString npmInstall(const QString& npm, const char* spec, const QString& probe)
{
    if (QFile::exists(npmDir() + probe))
        return {};
    QDir().mkpath(npmDir());
    const auto r = lw::test::runProcess(
        npm, {"install", "--no-audit", "--no-fund", "--prefix", npmDir(), QString::fromLatin1(spec), "pg@8"}, false,
        300000);
    if (r.code != 0 || !QFile::exists(npmDir() + probe))
        return QStringLiteral("npm could not install %1 (registry unreachable?): %2")
            .arg(QString::fromLatin1(spec), r.err.right(300));
    return {};
}

// node-postgres reads libpq's environment: the suite's cluster is on a Unix socket.
QProcessEnvironment pgEnvironment(const QString& dsn)
{
    auto field = [&](const QString& key) {
        for (const QString& part : dsn.split(QLatin1Char(' ')))
            if (part.startsWith(key + QLatin1Char('=')))
                return part.mid(key.size() + 1);
        return QString();
    };
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PGHOST"), field(QStringLiteral("host")));
    env.insert(QStringLiteral("PGPORT"), field(QStringLiteral("port")));
    env.insert(QStringLiteral("PGUSER"), field(QStringLiteral("user")));
    env.insert(QStringLiteral("PGDATABASE"), field(QStringLiteral("dbname")));
    env.insert(QStringLiteral("NODE_PATH"), npmDir() + QStringLiteral("/node_modules"));
    return env;
}
// node's path once `spec` is installed (`probe` below npmDir()); else `skip` says why the real
// library cannot run here.
struct Node
{
    QString path;
    QString skip;
};
Node nodeWith(const char* spec, const QString& probe)
{
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    const QString npm = QStandardPaths::findExecutable(QStringLiteral("npm"));
    if (node.isEmpty() || npm.isEmpty())
        return {{}, QStringLiteral("node and npm are not installed (apt-get install nodejs npm): the real library "
                                   "was not run")};
    return {node, npmInstall(npm, spec, probe)};
}

// Runs `script` under node against the database `dsn`, its output merged.
bool startNode(QProcess& p, const QString& node, const QString& script, const QString& dsn)
{
    p.setProcessEnvironment(pgEnvironment(dsn));
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(node, {script});
    return p.waitForStarted();
}

// What `p` said until it said `word`, ended, or a minute passed.
QString outputUntil(QProcess& p, const char* word)
{
    QString said;
    QElapsedTimer t;
    t.start();
    while (!said.contains(QLatin1String(word)) && t.elapsed() < 60000 && p.state() == QProcess::Running) {
        p.waitForReadyRead(500);
        said += QString::fromUtf8(p.readAll());
    }
    return said;
}
} // namespace

class TestRealLibraries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nodePgMigrateLockIsNamed()
    {
        const Node nodeJs = nodeWith(kNodePgMigrate, QStringLiteral("/node_modules/node-pg-migrate/bin/node-pg-migrate.js"));
        if (!nodeJs.skip.isEmpty())
            QSKIP(qPrintable(nodeJs.skip));
        const QString node = nodeJs.path;
        const QString bin = npmDir() + QStringLiteral("/node_modules/node-pg-migrate/bin/node-pg-migrate.js");

        lw::test::TestDatabase db("real_npm");
        // A migration that takes a while, so that its lock can be seen.
        QTemporaryDir migrations;
        QFile m(migrations.path() + QStringLiteral("/1700000000000_slow.js"));
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write("exports.up = (pgm) => { pgm.sql('SELECT pg_sleep(6)'); };\n");
        m.close();

        const QString dsn = db.dsn();
        QProcess migrate;
        migrate.setProcessEnvironment(pgEnvironment(dsn));
        migrate.setProcessChannelMode(QProcess::MergedChannels);
        migrate.start(node, {bin, "up", "-m", migrations.path(), "--no-check-order"});
        QVERIFY(migrate.waitForStarted());

        // While it runs, its session holds node-pg-migrate's lock (PG_MIGRATE_LOCK_ID, src/runner.ts).
        QString name, out;
        QElapsedTimer t;
        t.start();
        while (name.isEmpty() && t.elapsed() < 20000 && migrate.state() == QProcess::Running) {
            const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", dsn, "--json"});
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

    // pg-boss installs its schema itself (boss.start()); then its own lock statement, plans.locked()
    // (pg_advisory_xact_lock of the sha224 key, in a transaction left open here for a few seconds),
    // holds the lock its maintenance and migrations take. The console names it from the schema.
    void pgBossLockIsNamed()
    {
        const Node node = nodeWith(kPgBoss, QStringLiteral("/node_modules/pg-boss/src/plans.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));

        lw::test::TestDatabase db("real_pgboss");
        QTemporaryDir dir;
        QFile script(dir.path() + QStringLiteral("/boss.js"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("const PgBoss = require('pg-boss');\n"
                     "const plans = require('pg-boss/src/plans');\n"
                     "const { Client } = require('pg');\n"
                     "(async () => {\n"
                     "  const boss = new PgBoss({});\n" // PGHOST, PGPORT, PGUSER, PGDATABASE
                     "  boss.on('error', e => console.error(e));\n"
                     "  await boss.start();\n"
                     "  await boss.stop({ graceful: false, wait: true });\n"
                     "  const c = new Client({ application_name: 'pgboss' });\n"
                     "  await c.connect();\n"
                     "  await c.query(plans.locked('pgboss', 'SELECT 1').replace(/COMMIT;?\\s*$/, ''));\n"
                     "  console.log('held');\n"
                     "  await new Promise(r => setTimeout(r, 8000));\n"
                     "  await c.query('COMMIT');\n"
                     "  await c.end();\n"
                     "  process.exit(0);\n" // pg-boss 10 leaves a timer behind after stop()
                     "})().catch(e => { console.error(e); process.exit(1); });\n");
        script.close();
        QProcess boss;
        QVERIFY(startNode(boss, node.path, script.fileName(), db.dsn()));
        const QString said = outputUntil(boss, "held");
        QVERIFY2(said.contains(QLatin1String("held")), qPrintable(said));

        const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        QStringList names;
        for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8())["advisory_locks"].toArray())
            names << v.toObject()["name"].toString();
        QVERIFY(boss.waitForFinished(30000));
        QVERIFY2(names.contains(QStringLiteral("pg-boss maintenance lock (schema pgboss)")),
                 qPrintable(names.join(QLatin1String(", ")) + QLatin1Char('\n') + r.out.left(2000)));
        QCOMPARE(boss.exitCode(), 0);
    }

    // The first pg-boss instance installs its schema under its advisory key (the install statement,
    // plans.create() through Contractor.constructionPlans(), its transaction left open here: no
    // table of it exists for anyone else yet); a second real instance starting meanwhile waits on
    // that key. The console names the key although no schema holds pg-boss's tables, and shows who
    // waits behind whom.
    void pgBossKeyIsNamedBeforeItsSchemaExists()
    {
        const Node node = nodeWith(kPgBoss, QStringLiteral("/node_modules/pg-boss/src/plans.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));

        lw::test::TestDatabase db("real_pgboss_first");
        QTemporaryDir dir;
        QFile first(dir.path() + QStringLiteral("/first.js"));
        QVERIFY(first.open(QIODevice::WriteOnly));
        first.write("const Contractor = require('pg-boss/src/contractor');\n"
                    "const { Client } = require('pg');\n"
                    "(async () => {\n"
                    "  const c = new Client({ application_name: 'pgboss-first' });\n"
                    "  await c.connect();\n"
                    "  await c.query(Contractor.constructionPlans('pgboss').replace(/COMMIT;?\\s*$/, ''));\n"
                    "  console.log('installing');\n"
                    "  await new Promise(r => setTimeout(r, 20000));\n"
                    "  await c.query('ROLLBACK');\n"
                    "  await c.end();\n"
                    "})().catch(e => { console.error(e); process.exit(1); });\n");
        first.close();
        QFile second(dir.path() + QStringLiteral("/second.js"));
        QVERIFY(second.open(QIODevice::WriteOnly));
        second.write("const PgBoss = require('pg-boss');\n"
                     "(async () => {\n"
                     "  const boss = new PgBoss({ application_name: 'pgboss-second' });\n"
                     "  boss.on('error', e => console.error(e));\n"
                     "  await boss.start();\n"
                     "  console.log('started');\n"
                     "})().catch(e => { console.error(e); process.exit(1); });\n");
        second.close();
        QProcess installing;
        QVERIFY(startNode(installing, node.path, first.fileName(), db.dsn()));
        const QString said = outputUntil(installing, "installing");
        QVERIFY2(said.contains(QLatin1String("installing")), qPrintable(said));
        QCOMPARE(db.value("SELECT count(*) FROM pg_namespace WHERE nspname = 'pgboss'"), QStringLiteral("0"));

        QProcess starting;
        QVERIFY(startNode(starting, node.path, second.fileName(), db.dsn()));
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                           "'pgboss-second' AND wait_event_type = 'Lock'"),
                                  QStringLiteral("1"), 30000);

        const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        const QString name = QStringLiteral("pg-boss maintenance lock (schema pgboss)");
        const QJsonDocument got = QJsonDocument::fromJson(r.out.toUtf8());
        QStringList held, waiting;
        int holderPid = 0, waiterPid = 0;
        for (const auto& v : got["advisory_locks"].toArray()) {
            const QJsonObject o = v.toObject();
            if (o["name"].toString() != name)
                continue;
            const QString app = o["session"].toObject()["application_name"].toString();
            if (o["granted"].toBool()) {
                held << app;
                holderPid = o["pid"].toInt();
            } else {
                waiting << app;
                waiterPid = o["pid"].toInt();
            }
        }
        starting.kill();
        starting.waitForFinished(10000);
        installing.kill();
        installing.waitForFinished(10000);
        QCOMPARE(held, QStringList{QStringLiteral("pgboss-first")});
        QCOMPARE(waiting, QStringList{QStringLiteral("pgboss-second")});
        // Who waits behind whom: the starting instance behind the installing one.
        bool behind = false;
        for (const auto& root : got["blocking_tree"].toArray())
            if (root.toObject()["pid"].toInt() == holderPid)
                for (const auto& kid : root.toObject()["waiting_behind"].toArray())
                    behind = behind || kid.toObject()["pid"].toInt() == waiterPid;
        QVERIFY2(behind, qPrintable(r.out.left(3000)));
    }
};

QTEST_GUILESS_MAIN(TestRealLibraries)
#include "tst_real_libraries.moc"
