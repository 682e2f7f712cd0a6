// The inference behind a lease's state: TTL, last renewal, overdue, stale, takeover.
#include "domain/LeaseChanges.h"
#include "domain/LeaseState.h"
#include "../support/DomainRows.h"

#include <QTest>

using namespace lw;

namespace {
Snapshot refreshAt(double now, std::vector<LeaseRow> rows)
{
    Snapshot s;
    s.ok = true;
    s.serverNow = now;
    s.receivedMonotonicMs = qint64(now * 1000);
    s.leases = std::move(rows);
    return s;
}
// What a reader was handed, as "key change state" words, in the order given.
QStringList said(const LeaseChanges& c)
{
    QStringList out;
    for (const LeaseChanges::Lease& l : c.leases)
        out << QStringLiteral("%1 %2 %3").arg(l.key).arg(int(l.change)).arg(leaseStateKey(l.state));
    return out;
}
} // namespace

class TestLeaseState : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Libraries whose rows have no taken-at (Quartz's check-ins, db-scheduler's heartbeats): a
    // later expiry by the same holder is a renewal, as with a taken-at that stays the same; none
    // is equal to none (issue 48: an 8-byte time type compared with std::optional said otherwise).
    void renewalWithoutTakenAt()
    {
        LeaseRow now;
        now.name = QStringLiteral("QuartzScheduler / node1");
        now.holder = QStringLiteral("node1");
        now.expiresAt = 110.0;
        QCOMPARE(leaseChange(QStringLiteral("node1"), 100.0, std::nullopt, now), LeaseChange::Renew);
        QCOMPARE(leaseChange(QStringLiteral("node1"), 110.0, std::nullopt, now), LeaseChange::None);
        QCOMPARE(leaseChange(QStringLiteral("node1"), 120.0, std::nullopt, now), LeaseChange::Modify);
        QCOMPARE(leaseChange(QStringLiteral("node2"), 100.0, std::nullopt, now), LeaseChange::TakeOver);
        LeaseTrack t;
        QCOMPARE(observeLease(t, now, 100, 0, Sighting::FirstRefresh), LeaseChange::Seen);
        now.expiresAt = 111.0;
        QCOMPARE(observeLease(t, now, 101, 100, Sighting::Existing), LeaseChange::Renew);
        QCOMPARE(t.renewalsSeen, 1);
    }
    void splitHolder_data()
    {
        QTest::addColumn<QString>("holder");
        QTest::addColumn<bool>("structured");
        QTest::addColumn<QString>("host");
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<QString>("token");
        QTest::newRow("canonical") << "app-1:4242:9f86d081884c7d65" << true << "app-1" << qint64(4242)
                                   << "9f86d081884c7d65";
        QTest::newRow("ipv6 host") << "fe80::1:77:abcdef" << true << "fe80::1" << qint64(77) << "abcdef";
        QTest::newRow("hostname only") << "app-1" << false << "" << qint64(0) << "";
        QTest::newRow("non-numeric pid") << "app-1:x:tok" << false << "" << qint64(0) << "";
        QTest::newRow("empty") << "" << false << "" << qint64(0) << "";
    }
    void splitHolder()
    {
        QFETCH(QString, holder);
        QFETCH(bool, structured);
        const HolderParts p = lw::splitHolder(holder);
        QCOMPARE(p.structured, structured);
        if (structured) {
            QTEST(p.host, "host");
            QTEST(p.pid, "pid");
            QTEST(p.token, "token");
        }
    }

    // Each library's own holder string, split by its catalogue format.
    void librarySplitHolder_data()
    {
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<QString>("holder");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("token");
        QTest::newRow("shedlock host name") << "shedlock" << "web-1.example.com" << "web-1.example.com" << "";
        QTest::newRow("river client id")
            << "river" << "worker-3_example_com_2026_12_01T08_52_38_123456" << "worker-3_example_com"
            << "2026_12_01T08_52_38_123456";
        QTest::newRow("river custom id") << "river" << "my-client" << "my-client" << "";
        QTest::newRow("quartz auto id") << "quartz" << "batch-11764577958000" << "batch-1" << "1764577958000";
        QTest::newRow("quartz host id") << "quartz" << "batch-1" << "batch-1" << "";
        QTest::newRow("liquibase") << "liquibase" << "buildbox#ci (10.0.0.5)" << "buildbox#ci" << "10.0.0.5";
        QTest::newRow("graphile pool") << "graphile-worker" << "pool-0123456789abcdef01" << ""
                                       << "pool-0123456789abcdef01";
    }
    void librarySplitHolder()
    {
        QFETCH(QString, scheme);
        QFETCH(QString, holder);
        const auto table = LeaseTableConfig::preset(scheme);
        QVERIFY(table);
        const HolderParts p = lw::splitHolder(holder, table->holderFormat);
        QVERIFY(p.structured);
        QTEST(p.host, "host");
        QTEST(p.token, "token");
        QCOMPARE(p.pid, qint64(0));
    }

    // Oban renews its 30 s lease every 15 s: not overdue at 16 s with the mission's TTL/4 rule
    // applied to it, overdue once a renewal is really missed.
    void renewalCadenceIsTheSchemes()
    {
        LeasePolicy base;
        const LeasePolicy oban = policyForTable(base, *LeaseTableConfig::preset("oban"));
        LeaseTrack t;
        t.ttl = 30;
        t.ttlExact = true;
        t.lastRenewal = 1000;
        t.row.expiresAt = 1030;
        t.row.holder = QStringLiteral("web-1");
        QCOMPARE(classifyLease(t, 1016, oban), LeaseState::Held);
        QCOMPARE(classifyLease(t, 1016, base), LeaseState::RenewalOverdue);
        QCOMPARE(classifyLease(t, 1024, oban), LeaseState::RenewalOverdue);
    }

    // A holder renews every TTL/4 and then crashes: held → renewal overdue → stale, in that order.
    // A writer on the application's clock: a take seen between two refreshes happened between their
    // server times, so its taken-at bounds the writer's offset; renewals after an observed take too.
    void writerClockOffsetInBothDirections()
    {
        // Behind by 30 s: taken at (server) 1000.5, written as 970.5.
        LeaseTrack behind;
        observeLease(behind, {QStringLiteral("a"), QStringLiteral("h:1:aa"), 970.5, 990.5}, 1001, 1000, Sighting::NewRow);
        QVERIFY(writerClockSkew(behind) < -29);
        QVERIFY(writerClockSkew(behind) >= -30.5);
        // Its renewal at (server) 1005.5 writes 975.5 + 20: still behind, the estimate narrows.
        LeaseRow renewed{QStringLiteral("a"), QStringLiteral("h:1:aa"), 970.5, 995.5};
        observeLease(behind, renewed, 1006, 1005, Sighting::Existing);
        QVERIFY(writerClockSkew(behind) < -29);

        // Ahead by 10 s.
        LeaseTrack ahead;
        observeLease(ahead, {QStringLiteral("b"), QStringLiteral("h:2:bb"), 1010.5, 1030.5}, 1001, 1000, Sighting::NewRow);
        QVERIFY(writerClockSkew(ahead) > 9);

        // In step (the database's clock, or NTP): nothing to say.
        LeaseTrack inStep;
        observeLease(inStep, {QStringLiteral("c"), QStringLiteral("h:3:cc"), 1000.4, 1020.4}, 1001, 1000, Sighting::NewRow);
        QCOMPARE(writerClockSkew(inStep), 0.0);

        // Seen on the console's first refresh: when it was taken is unknown, so is the offset.
        LeaseTrack first;
        observeLease(first, {QStringLiteral("d"), QStringLiteral("h:4:dd"), 900, 920}, 1001, 0, Sighting::FirstRefresh);
        QCOMPARE(writerClockSkew(first), 0.0);
    }

    void crashedHolderGoesOverdueThenStale()
    {
        const double ttl = 8;
        LeasePolicy pol;
        pol.refreshIntervalS = 1;
        LeaseTrack t;
        double taken = 1000;
        LeaseRow row{QStringLiteral("sweep"), QStringLiteral("h:1:aa"), taken, taken + ttl};
        observeLease(t, row, 1000.5, 999.5, Sighting::NewRow);
        QVERIFY(t.ttlExact);
        QCOMPARE(*t.ttl, ttl);
        QList<LeaseState> seen;
        for (double now = 1001; now < 1030; now += 1) {
            // Renewals at 1002, 1004, 1006; then the holder dies.
            if (now <= 1006 && int(now) % 2 == 0)
                row.expiresAt = now + ttl;
            observeLease(t, row, now, now - 1, Sighting::Existing);
            const LeaseState s = classifyLease(t, now, pol);
            if (seen.isEmpty() || seen.last() != s)
                seen << s;
        }
        const QList<LeaseState> expected = {LeaseState::Held, LeaseState::RenewalOverdue, LeaseState::Stale};
        QCOMPARE(seen, expected);
    }

    void overdueNotBeforeWindow()
    {
        LeasePolicy pol;
        LeaseTrack t;
        LeaseRow row{QStringLiteral("a"), QStringLiteral("h:1:aa"), 100.0, 140.0}; // TTL 40 s
        observeLease(t, row, 101, 99, Sighting::NewRow);
        // Renewal due every 10 s; overdue only after 10 + 10 s without one.
        QCOMPARE(classifyLease(t, 119, pol), LeaseState::Held);
        QCOMPARE(classifyLease(t, 121, pol), LeaseState::RenewalOverdue);
    }

    void ttlInferredFromRenewalsWhenFirstSeenLate()
    {
        LeasePolicy pol;
        LeaseTrack t;
        // Taken an hour ago, renewed ever since: expires - taken says nothing about the TTL.
        LeaseRow row{QStringLiteral("a"), QStringLiteral("h:1:aa"), 0.0, 3608.0};
        observeLease(t, row, 3601, 0, Sighting::FirstRefresh);
        QVERIFY(!t.ttl);
        QCOMPARE(classifyLease(t, 3601, pol), LeaseState::Held);
        row.expiresAt = 3610.0; // renewed at 3602 with TTL 8
        observeLease(t, row, 3602, 3601, Sighting::Existing);
        QVERIFY(t.ttl);
        QVERIFY(qAbs(*t.ttl - 8.0) <= 1.0);
        QCOMPARE(classifyLease(t, 3603, pol), LeaseState::Held);
    }

    void takeoverIsReportedWithPreviousHolder()
    {
        LeasePolicy pol;
        LeaseTrack t;
        LeaseRow row{QStringLiteral("a"), QStringLiteral("old:1:aa"), 0.0, 8.0};
        observeLease(t, row, 1, 0, Sighting::NewRow);
        QCOMPARE(classifyLease(t, 9, pol), LeaseState::Stale);
        row = {QStringLiteral("a"), QStringLiteral("new:2:bb"), 10.0, 40.0};
        observeLease(t, row, 10.5, 9.5, Sighting::Existing);
        QCOMPARE(classifyLease(t, 10.5, pol), LeaseState::TakenOver);
        QCOMPARE(t.previousHolder, QStringLiteral("old:1:aa"));
        QVERIFY(t.ttlExact); // a fresh take: the span is the TTL
        QCOMPARE(classifyLease(t, 10.5 + pol.takenOverLingerS + 0.1, pol), LeaseState::Held);
    }

    // Released and taken again by someone else between two refreshes: a new take, not a takeover.
    void releaseAndRetakeIsNotATakeover()
    {
        LeasePolicy pol;
        LeaseTrack t;
        observeLease(t, {QStringLiteral("a"), QStringLiteral("old:1:aa"), 0.0, 8.0}, 1, 0, Sighting::NewRow);
        observeLease(t, {QStringLiteral("a"), QStringLiteral("new:2:bb"), 1.5, 9.5}, 2, 1,
                     Sighting::Existing);
        QCOMPARE(classifyLease(t, 2, pol), LeaseState::Held);
        QVERIFY(t.previousHolder.isEmpty());
        QVERIFY(t.ttlExact);
    }

    void releasedAndNullExpiry()
    {
        LeasePolicy pol;
        LeaseTrack t;
        observeLease(t, {QStringLiteral("a"), std::nullopt, std::nullopt, std::nullopt}, 1, 0,
                     Sighting::NewRow);
        QCOMPARE(classifyLease(t, 1, pol), LeaseState::Unknown);
        observeMissing(t, 2);
        QCOMPARE(classifyLease(t, 2, pol), LeaseState::Released);
    }

    void expiringSoonUsesShareOfTtl()
    {
        LeasePolicy pol;
        pol.expiringSoonShare = 0.25;
        pol.ttlOverride = 100; // set per profile: a lease that is not renewed on purpose
        LeaseTrack t;
        LeaseRow row{QStringLiteral("a"), QStringLiteral("h:1:aa"), 0.0, 100.0};
        observeLease(t, row, 1, -1, Sighting::NewRow);
        pol.ttlOverride.reset();
        pol.expiringSoonShare = 0.5;
        // TTL 100 exact; overdue window is 50 s, so check expiring soon before it.
        t.lastRenewal = 45; // pretend a renewal at 45 (overdue not reached at 60)
        QCOMPARE(classifyLease(t, 40, pol), LeaseState::Held);
        QCOMPARE(classifyLease(t, 60, pol), LeaseState::ExpiringSoon);
    }

    // What the history is handed (issue 24, point 4): the tracker's changes of the refresh, the
    // leases the clock moved to another state, and every lease when the reader cannot vouch for
    // the difference.
    void changeReaderHandsWhatChanged()
    {
        LeaseTracker t([] { return qint64(0); });
        LeaseChangeReader reader;
        const double t0 = 1000;
        const LeaseRow a = test::lease(QStringLiteral("a"), QStringLiteral("h:1:aa"), t0 - 5, t0 + 20);
        const LeaseRow b = test::lease(QStringLiteral("b"), QStringLiteral("h:2:bb"), t0 - 5, t0 + 2.5);
        QCOMPARE(reader.read(t).applied, false); // nothing applied yet

        t.apply(refreshAt(t0, {a, b}));
        LeaseChanges c = reader.read(t);
        QVERIFY(c.applied && c.all); // a first read: every lease
        QCOMPARE(c.leases.size(), size_t(2));
        QCOMPARE(reader.read(t).applied, false); // read once

        // a renewed: its change; b untouched and still held: not listed.
        LeaseRow a2 = a;
        a2.expiresAt = t0 + 21;
        t.apply(refreshAt(t0 + 1, {a2, b}));
        c = reader.read(t);
        QVERIFY(c.applied && !c.all);
        QCOMPARE(said(c), QStringList{QStringLiteral("a %1 held").arg(int(LeaseChange::Renew))});

        // b's expiry passes with no renewal: the clock alone makes it stale, and it is listed.
        t.apply(refreshAt(t0 + 4, {a2, b}));
        c = reader.read(t);
        QVERIFY(!c.all);
        QCOMPARE(said(c), QStringList{QStringLiteral("b %1 stale").arg(int(LeaseChange::None))});

        // b released (gone from the table).
        t.apply(refreshAt(t0 + 5, {a2}));
        c = reader.read(t);
        QCOMPARE(c.leases.size(), size_t(1));
        QVERIFY(c.leases[0].key == QLatin1String("b") && c.leases[0].released() &&
                c.leases[0].change == LeaseChange::Release);

        // A refresh the reader did not see: the next read hands every lease.
        t.apply(refreshAt(t0 + 6, {a2}));
        t.apply(refreshAt(t0 + 7, {a2}));
        c = reader.read(t);
        QVERIFY(c.all);
        QCOMPARE(c.leases.size(), size_t(t.size()));

        // New rules retime every row: every lease again. And a consumer that asks gets every lease.
        LeasePolicy p = t.policy();
        p.ttlOverride = 60;
        t.setPolicy(p);
        t.apply(refreshAt(t0 + 8, {a2}));
        QVERIFY(reader.read(t).all);
        t.apply(refreshAt(t0 + 9, {a2}));
        QVERIFY(reader.read(t, true).all);
        t.apply(refreshAt(t0 + 10, {a2}));
        QVERIFY(!reader.read(t).all);

        // A failed refresh reaches no lease.
        Snapshot failed;
        failed.ok = false;
        t.apply(failed);
        QCOMPARE(reader.read(t).applied, false);
    }
};

QTEST_APPLESS_MAIN(TestLeaseState)
#include "tst_leasestate.moc"
