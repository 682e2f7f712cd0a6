// Lease tables as real applications lay them out, and the rule that only the server's clock counts:
// presets (ShedLock naive UTC, River), a named zone's wall time, the writer-clock-skew flag, and
// identical countdowns when the desktop's clock is hours off.
#include "Programs.h"
#include "TestCluster.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTest>

namespace {
QJsonObject firstRow(const lw::test::ProcessResult& r)
{
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
    return doc.object()["leases"].toObject()["rows"].toArray().first().toObject();
}
lw::test::ProcessResult snapshot(QStringList args, const QStringList& wrapper = {})
{
    args.prepend(QStringLiteral("snapshot"));
    args << QStringLiteral("--json");
    if (wrapper.isEmpty())
        return lw::test::runProcess(lw::test::leasewatchBin(), args);
    return lw::test::runProcess(wrapper.first(), wrapper.mid(1) + QStringList{lw::test::leasewatchBin()} + args);
}
} // namespace

class TestLeasePresets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // ShedLock stores naive UTC. The session's TimeZone is New York: comparing the naive value with
    // now() directly would be five hours off.
    void shedlockNaiveUtcAndWriterSkew()
    {
        lw::test::TestDatabase db("shedlock");
        db.exec(QStringLiteral("ALTER DATABASE %1 SET timezone = 'America/New_York'").arg(db.name()));
        db.exec("CREATE TABLE shedlock(name varchar(64) primary key, lock_until timestamp not null, "
                "locked_at timestamp not null, locked_by varchar(255) not null)");
        db.exec(
            "INSERT INTO shedlock VALUES ('report', (now() AT TIME ZONE 'UTC') + interval '30 s', "
            "(now() AT TIME ZONE 'UTC') - interval '10 s', 'web-1'), ('skewed', (now() AT TIME ZONE 'UTC') "
            "+ interval '2 h', (now() AT TIME ZONE 'UTC') + interval '1 h', 'web-2')");
        const auto r = snapshot({db.dsn(), "--preset", "shedlock"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonArray rows = QJsonDocument::fromJson(r.out.toUtf8())["leases"]["rows"].toArray();
        QCOMPARE(rows.size(), 2);
        for (const auto& v : rows) {
            const QJsonObject o = v.toObject();
            if (o["name"].toString() == "report") {
                QVERIFY2(qAbs(o["seconds_left"].toDouble() - 30.0) < 2.0, qPrintable(r.out));
                QCOMPARE(o["holder"].toString(), QStringLiteral("web-1"));
                // ShedLock's locked_by is the host name (InetAddress.getLocalHost().getHostName())
                QCOMPARE(o["holder_host"].toString(), QStringLiteral("web-1"));
                QVERIFY(!o.contains("writer_clock_ahead"));
            } else {
                QVERIFY(o["writer_clock_ahead"].toBool()); // taken-at an hour in the server's future
            }
        }
    }

    // ShedLock's own table after ten jobs that ran and released normally, found without --preset
    // or --table (issue 25): ten rows, all free, no finding, exit 0. The statements are ShedLock's
    // usingDbTime() ones (lukas-krecan/ShedLock, providers/sql/shedlock-sql-support/src/main/java/
    // net/javacrumbs/shedlock/provider/sql/PostgresSqlServerTimeStatementsSource.java), its DDL the
    // README's "Postgres" section.
    void shedlockAtRestIsFreeAndSaysNothing()
    {
        lw::test::TestDatabase db("shedlock_rest");
        db.exec("CREATE TABLE shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL, "
                "locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
        const QString take =
            "INSERT INTO shedlock(name, lock_until, locked_at, locked_by) VALUES('%1', timezone('utc', "
            "CURRENT_TIMESTAMP) + make_interval(secs => 600), timezone('utc', CURRENT_TIMESTAMP), '%2') ON "
            "CONFLICT (name) DO UPDATE SET lock_until = timezone('utc', CURRENT_TIMESTAMP) + make_interval(secs "
            "=> 600), locked_at = timezone('utc', CURRENT_TIMESTAMP), locked_by = '%2' WHERE shedlock.name = "
            "'%1' AND shedlock.lock_until <= timezone('utc', CURRENT_TIMESTAMP)";
        const QString release =
            "UPDATE shedlock SET lock_until = CASE WHEN locked_at + make_interval(secs => 0) > timezone('utc', "
            "CURRENT_TIMESTAMP) THEN locked_at + make_interval(secs => 0) ELSE timezone('utc', "
            "CURRENT_TIMESTAMP) END WHERE name = '%1' AND locked_by = '%2'";
        for (int i = 0; i < 10; ++i) {
            const QString job = QStringLiteral("job-%1").arg(i);
            db.exec(take.arg(job, "worker-host"));
            db.exec(release.arg(job, "worker-host"));
        }
        const auto r = snapshot({db.dsn()});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray rows = doc["leases"]["rows"].toArray();
        QCOMPARE(rows.size(), 10);
        for (const auto& v : rows)
            QCOMPARE(v.toObject()["state"].toString(), QStringLiteral("free"));
        QCOMPARE(doc["leases"]["summary"]["free"].toInt(), 10);
        QCOMPARE(doc["leases"]["summary"]["stale"].toInt(), 0);
        for (const auto& f : doc["findings"].toArray()) // lease findings; the shared cluster may have others
            QVERIFY2(!QStringList({"stale_lease", "leases_unreadable", "writer_clock_skew"})
                          .contains(f.toObject()["kind"].toString()),
                     qPrintable(f.toObject()["title"].toString()));

        // A job that is running now: held, and not "renewal overdue" (ShedLock does not renew).
        db.exec(take.arg("job-0", "worker-host"));
        const auto held = snapshot({db.dsn()});
        QVERIFY2(held.code == 0, qPrintable(held.err));
        for (const auto& v : QJsonDocument::fromJson(held.out.toUtf8())["leases"]["rows"].toArray())
            if (v.toObject()["name"].toString() == "job-0")
                QCOMPARE(v.toObject()["state"].toString(), QStringLiteral("held"));
    }

    // A database whose application only uses advisory locks: no lease table is information, not a
    // problem (issue 25). snapshot exits 0 and no card says "leases unreadable".
    void noLeaseTableIsNotAProblem()
    {
        lw::test::TestDatabase db("no_lease_table");
        const auto r = snapshot({db.dsn()});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        for (const auto& f : doc["findings"].toArray())
            QVERIFY2(f.toObject()["kind"].toString() != "leases_unreadable", qPrintable(r.out));
        QVERIFY2(!doc["leases"].toObject().contains("error"), qPrintable(r.out));
        QVERIFY2(doc["leases"]["absent"].toString().contains("shedlock"), qPrintable(r.out));
        // The text form says so in words, not "ALL CLEAR" about leases it never saw.
        const auto text = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn()});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("No lease table found"), qPrintable(text.out));
        // A table named by hand is still checked: missing, it is the problem it was before.
        const auto named = snapshot({db.dsn(), "--table", "public.leases"});
        QCOMPARE(named.code, 3);
    }

    void riverPreset()
    {
        lw::test::TestDatabase db("river");
        db.exec(
            "CREATE UNLOGGED TABLE river_leader(name text primary key, leader_id text not null, elected_at "
            "timestamptz not null, expires_at timestamptz not null)");
        // River's client id: the host name with '.' as '_', then the client's start time.
        db.exec("INSERT INTO river_leader VALUES ('default', 'worker-a_example_com_2026_12_01T08_52_38_123456', "
                "now(), now() + interval '10 s')");
        const auto r = snapshot({db.dsn(), "--preset", "river"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = firstRow(r);
        QCOMPARE(o["holder_host"].toString(), QStringLiteral("worker-a_example_com"));
        QVERIFY(qAbs(o["seconds_left"].toDouble() - 10.0) < 2.0);
    }

    void namedZoneWallTimeAndCustomColumns()
    {
        lw::test::TestDatabase db("zone");
        db.exec("CREATE SCHEMA ops; CREATE TABLE ops.\"Job Locks\"(job text, owner text, since timestamp, "
                "until timestamp)");
        db.exec("INSERT INTO ops.\"Job Locks\" VALUES ('sync', 'a:1:ff', (now() AT TIME ZONE 'Asia/Tokyo') - "
                "interval '1 min', (now() AT TIME ZONE 'Asia/Tokyo') + interval '45 s')");
        auto r = snapshot({db.dsn(), "--table", "ops.Job Locks", "--columns", "job,owner,since,until",
                           "--time-kind", "Asia/Tokyo"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(qAbs(firstRow(r)["seconds_left"].toDouble() - 45.0) < 2.0);
        QVERIFY(qAbs(firstRow(r)["held_for_seconds"].toDouble() - 60.0) < 2.0);
        // The same table read as timestamptz is refused with the reason, not misread.
        r = snapshot({db.dsn(), "--table", "ops.Job Locks", "--columns", "job,owner,since,until"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("is timestamp without time zone, expected timestamp with time zone"),
                 qPrintable(r.err));
    }

    // The console's countdowns come from the server's now() plus monotonic time: a desktop clock
    // that is hours off changes nothing.
    void desktopClockSkewChangesNothing()
    {
        const QString faketime = QStandardPaths::findExecutable("faketime");
        if (faketime.isEmpty())
            QFAIL("faketime is not installed (scripts/install-deps.sh installs it)");
        lw::test::TestDatabase db("skew");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        db.exec("INSERT INTO leases VALUES ('sweep', 'app-1:1:aa', now() - interval '20 s', now() + interval "
                "'100 s')");
        const auto normal = snapshot({db.dsn()});
        const auto behind = snapshot({db.dsn()}, {faketime, "-f", "-5h"});
        const auto ahead = snapshot({db.dsn()}, {faketime, "-f", "+3d"});
        for (const auto* r : {&normal, &behind, &ahead})
            QVERIFY2(r->code == 0, qPrintable(r->err));
        const double left = firstRow(normal)["seconds_left"].toDouble();
        QVERIFY(left > 90 && left <= 100);
        // Each run is a separate process a moment later: allow for the time between the runs.
        QVERIFY2(qAbs(firstRow(behind)["seconds_left"].toDouble() - left) < 3.0, qPrintable(behind.out));
        QVERIFY2(qAbs(firstRow(ahead)["seconds_left"].toDouble() - left) < 3.0, qPrintable(ahead.out));
        QCOMPARE(firstRow(ahead)["state"].toString(), QStringLiteral("held"));
    }
};

QTEST_GUILESS_MAIN(TestLeasePresets)
#include "tst_lease_presets.moc"
