// Lease tables as real applications lay them out, and the rule that only the server's clock counts:
// presets (ShedLock naive UTC, River), a named zone's wall time, the writer-clock-skew flag, and
// identical countdowns when the desktop's clock is hours off.
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
        return lw::test::runProcess(QStringLiteral(LEASEWATCH_BIN), args);
    return lw::test::runProcess(wrapper.first(), wrapper.mid(1) + QStringList{LEASEWATCH_BIN} + args);
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
                QVERIFY(o["holder_host"].isNull()); // hostname-only holder: shown raw
                QVERIFY(!o.contains("writer_clock_ahead"));
            } else {
                QVERIFY(o["writer_clock_ahead"].toBool()); // taken-at an hour in the server's future
            }
        }
    }

    void riverPreset()
    {
        lw::test::TestDatabase db("river");
        db.exec(
            "CREATE UNLOGGED TABLE river_leader(name text primary key, leader_id text not null, elected_at "
            "timestamptz not null, expires_at timestamptz not null)");
        db.exec("INSERT INTO river_leader VALUES ('default', 'worker-a:88:0123456789abcdef', now(), now() + "
                "interval '10 s')");
        const auto r = snapshot({db.dsn(), "--preset", "river"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = firstRow(r);
        QCOMPARE(o["holder_host"].toString(), QStringLiteral("worker-a"));
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
