// `leasewatch snapshot|watch --pgbouncer ADMIN_DSN` over SSH: the PgBouncer slot findings of the
// window's PgBouncer page, in the terminal's text and JSON. A PgBouncer that cannot be read is said
// on stderr, and the cluster's output still comes (exit code as without PgBouncer).
#include "Programs.h"
#include "BouncerSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {
using Run = lw::test::ProcessResult;
Run leasewatch(const QStringList& args)
{
    return lw::test::runProcess(lw::test::leasewatchBin(), args, false, 60000);
}
} // namespace

class TestPgBouncerHeadless : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void slotFindingsInSnapshotAndWatch()
    {
        lw::test::TestDatabase db("pgb_headless");
        lw::test::BouncerOptions o;
        o.databases = {QStringLiteral("txdb = dbname=%1 pool_mode=transaction").arg(db.name())};
        lw::test::BouncerProcess bouncer(o);
        lw::test::BouncerClient tx(bouncer.dsn(QStringLiteral("txdb")));
        tx.exec(QStringLiteral("SELECT pg_advisory_lock(42)")); // session-level, transaction pooling
        const QString pid = db.value(QStringLiteral("SELECT pid FROM pg_locks WHERE locktype = 'advisory' "
                                                    "AND objid = 42 AND granted"));
        QVERIFY(pid.toInt() > 0);

        Run r = leasewatch({"snapshot", db.dsn(), "--pgbouncer", bouncer.adminDsn(), "--json"});
        QVERIFY2(r.code == 0 || r.code == 3, qPrintable(r.err)); // no leases table here: 3
        const QJsonArray findings = QJsonDocument::fromJson(r.out.toUtf8())["findings"].toArray();
        QJsonObject slot;
        for (const QJsonValue& f : findings)
            if (f["kind"].toString() == QLatin1String("bouncer_slot_holds_lock"))
                slot = f.toObject();
        QVERIFY2(!slot.isEmpty(), qPrintable(r.out));
        QCOMPARE(slot["severity"].toInt(), 3);
        QCOMPARE(findings.first()["severity"].toInt(), 3); // worst first
        QVERIFY2(slot["title"].toString().contains("txdb") && slot["title"].toString().contains(pid) &&
                     slot["title"].toString().contains("application bug"),
                 qPrintable(slot["title"].toString()));
        QVERIFY2(!r.err.contains("PgBouncer"), qPrintable(r.err));

        // Without --pgbouncer there is no such finding: it comes from the join, not the cluster.
        Run plain = leasewatch({"snapshot", db.dsn(), "--json"});
        QVERIFY2(!plain.out.contains("bouncer_slot_holds_lock"), qPrintable(plain.out));

        // The terminal's text, at each refresh of `watch`.
        Run w = leasewatch({"watch", db.dsn(), "--pgbouncer", bouncer.adminDsn(), "--count", "2"});
        QCOMPARE(w.code, 0);
        QCOMPARE(w.out.count(QStringLiteral("=== refresh ")), 2);
        QCOMPARE(w.out.count(QStringLiteral("an application bug")), 2);

        // Unlocked: the finding is gone.
        tx.exec(QStringLiteral("SELECT pg_advisory_unlock_all()"));
        Run after = leasewatch({"snapshot", db.dsn(), "--pgbouncer", bouncer.adminDsn(), "--json"});
        QVERIFY2(!after.out.contains("bouncer_slot_holds_lock"), qPrintable(after.out));
    }

    void unreachableBouncerIsSaidAndTheClusterStillShown()
    {
        lw::test::TestDatabase db("pgb_headless_gone");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
        const QString nowhere = QStringLiteral("host=/nonexistent-leasewatch-dir port=6432 dbname=pgbouncer");
        Run r = leasewatch({"snapshot", db.dsn(), "--pgbouncer", nowhere, "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("leasewatch: PgBouncer: "), qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8())["server"]["database"].toString(), db.name());

        // watch says it once, not at every refresh.
        Run w = leasewatch({"watch", db.dsn(), "--pgbouncer", nowhere, "--count", "3"});
        QCOMPARE(w.code, 0);
        QCOMPARE(w.err.count(QStringLiteral("leasewatch: PgBouncer: ")), 1);
        QCOMPARE(w.out.count(QStringLiteral("=== refresh ")), 3);
    }
};

QTEST_GUILESS_MAIN(TestPgBouncerHeadless)
#include "tst_pgbouncer_headless.moc"
