// The installed-style binary, driven as an on-call engineer would over SSH: `leasewatch snapshot`,
// and the one-line refusal to open a window without a display.
#include "Programs.h"
#include "TestCluster.h"
#include "pg/PgConnection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

namespace {
using Run = lw::test::ProcessResult;
Run runLeasewatch(const QStringList& args)
{
    return lw::test::runProcess(lw::test::leasewatchBin(), args);
}
} // namespace

class TestCliSnapshot : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void jsonListsTheLeasesTable()
    {
        lw::test::TestDatabase db("cli_json");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        db.exec("INSERT INTO leases VALUES ('sweep', 'app-1:4242:00ff00ff00ff00ff', now(), now() + interval "
                "'30 s'),"
                " ('alerts', 'app-2:99:abcdef', now() - interval '2 min', now() - interval '1 min')");
        const Run r = runLeasewatch({"snapshot", db.dsn(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
        QVERIFY(doc.isObject());
        const QJsonArray rows = doc["leases"]["rows"].toArray();
        QCOMPARE(rows.size(), 2);
        QMap<QString, QJsonObject> byName;
        for (const auto& v : rows)
            byName[v.toObject()["name"].toString()] = v.toObject();
        QCOMPARE(byName["sweep"]["holder_host"].toString(), QStringLiteral("app-1"));
        QCOMPARE(byName["sweep"]["holder_pid"].toInt(), 4242);
        QCOMPARE(byName["sweep"]["holder_token"].toString(), QStringLiteral("00ff00ff00ff00ff"));
        QVERIFY(qAbs(byName["sweep"]["seconds_left"].toDouble() - 30.0) < 2.0);
        QCOMPARE(byName["alerts"]["state"].toString(), QStringLiteral("stale"));
        QCOMPARE(doc["server"]["database"].toString(), db.name());
    }

    // The on-call engineer's one command (issue 57 point 5): its one look names a key held under a
    // lease's name (the hashtext() of the names it read), in JSON and in text, the number beside.
    void oneLookNamesItsKeys()
    {
        lw::test::TestDatabase db("cli_named");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        db.exec("INSERT INTO leases VALUES ('sweep', 'app-1:4242:00ff00ff00ff00ff', now(), now() + interval "
                "'30 s')");
        lw::pg::Connection app = lw::test::openAppSession(db.dsn(), QStringLiteral("sweeper"));
        lw::test::runOn(app, "SELECT pg_advisory_lock(hashtext('sweep'))");
        const QString key = db.value(QStringLiteral("SELECT hashtext('sweep')"));

        Run r = runLeasewatch({"snapshot", db.dsn(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
        QJsonObject held;
        for (const auto& v : doc["advisory_locks"].toArray())
            if (v.toObject()["key"].toString() == key)
                held = v.toObject();
        QVERIFY2(!held.isEmpty(), qPrintable(r.out));
        QCOMPARE(held["name"].toString(), QStringLiteral("hashtext('sweep')"));
        QCOMPARE(held["key_text"].toString(), key);

        r = runLeasewatch({"snapshot", db.dsn()});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("hashtext('sweep') [%1]  pid").arg(key)), qPrintable(r.out));
    }

    // PostgreSQL 16+: whether the console's role may use the reserved_connections slots (a member
    // of pg_use_reserved_connections), so that it gets in when the application has used every
    // other slot. Before 16 there is no such role: never. (test-servers runs this on 17 and 18.)
    void reservedSlotsForTheConsolesRole()
    {
        lw::test::TestDatabase db("cli_reserved");
        const int version = db.value("SELECT current_setting('server_version_num')::int").toInt();
        db.exec("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lw_reserved') THEN "
                "CREATE ROLE lw_reserved LOGIN; END IF; END $$");
        QString dsn = db.dsn();
        dsn.replace(QRegularExpression(QStringLiteral("user=\\S+")), QStringLiteral("user=lw_reserved"));
        const auto mayUse = [&] {
            const Run r = runLeasewatch({"snapshot", dsn, "--json"});
            const QJsonDocument d = QJsonDocument::fromJson(r.out.toUtf8());
            if (!d.isObject())
                qWarning("%s", qPrintable(r.err + r.out));
            return d["cluster"].toObject()["may_use_reserved_connections"].toBool();
        };
        if (version >= 160000)
            db.exec("REVOKE pg_use_reserved_connections FROM lw_reserved");
        QVERIFY(!mayUse());
        if (version < 160000)
            return;
        db.exec("GRANT pg_use_reserved_connections TO lw_reserved");
        QVERIFY(mayUse());
        db.exec("REVOKE pg_use_reserved_connections FROM lw_reserved");
    }

    void textTableAndErrors()
    {
        lw::test::TestDatabase db("cli_text");
        Run r = runLeasewatch({"snapshot", db.dsn(), "--table", "public.leases"});
        QCOMPARE(r.code, 3); // connected, but the leases table named is missing
        QVERIFY2(r.err.contains("leases table public.leases does not exist"), qPrintable(r.err));
        // The advice names this command's options, not only the profile dialog.
        QVERIFY2(r.err.contains("or with --table") && r.err.contains("--preset"), qPrintable(r.err));
        QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable(r.err)); // one line
        // Blind to leases is a problem, not "all clear" (other tests' cluster-wide findings may
        // stand beside it: not "1 PROBLEM").
        QVERIFY2(!r.out.contains("ALL CLEAR"), qPrintable(r.out));
        QVERIFY2(r.out.contains(
                     "[WARN] leases not shown: leases table public.leases does not exist (SQLSTATE 42P01)"),
                 qPrintable(r.out));

        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        db.exec(
            "INSERT INTO leases VALUES ('nightly-report', 'batch-7:12:beef', now(), now() + interval '1 h')");
        r = runLeasewatch({"snapshot", db.dsn()});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("LEASES (1)"));
        QVERIFY(r.out.contains("nightly-report"));
        QVERIFY(r.out.contains("batch-7"));

        r = runLeasewatch({"snapshot", "host='unterminated"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.startsWith("leasewatch: invalid connection string"));
        r = runLeasewatch({"snapshot", lw::test::suiteDsn("no_such_database")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("3D000"), qPrintable(r.err));
    }

    void noDisplayIsOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("dsn") << QStringList{"host=/tmp dbname=x"};
        QTest::newRow("demo") << QStringList{"--demo"};
    }
    void noDisplayIsOneLine()
    {
        QFETCH(QStringList, args);
        const Run r = runLeasewatch(args);
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.startsWith("leasewatch: no display"), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
    }

    void helpAndVersion()
    {
        Run r = runLeasewatch({"--version"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.trimmed(), QStringLiteral("leasewatch " LEASEWATCH_VERSION));
        r = runLeasewatch({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("Usage: leasewatch "), qPrintable(r.out)); // the program, by name
        for (const char* sub : {"snapshot PROFILE|DSN", "watch PROFILE|DSN", "record PROFILE|DSN",
                                "bundle PROFILE|DSN", "expire PROFILE|DSN", "--demo", "--fleet"})
            QVERIFY2(r.out.contains(QLatin1String(sub)), sub);
    }
};

QTEST_GUILESS_MAIN(TestCliSnapshot)
#include "tst_cli_snapshot.moc"
