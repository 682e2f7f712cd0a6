// The evidence shown before a force-expire (pure function over the lease's track and the sessions),
// the target the dialog builds from it, and the outcome sentences.
#include "ForceExpire.h"

#include <QTest>

using namespace lw;
using Kind = ForceExpireOutcome::Kind;

namespace {
constexpr double kNow = 1'700'000'000.0;

LeaseTracker::Entry entry(const QString& holder, double expiresIn, std::optional<double> lastRenewalAgo,
                        double ttl = 40)
{
    LeaseTracker::Entry e;
    e.key = QStringLiteral("job");
    e.track.row.name = QStringLiteral("job");
    e.track.row.holder = holder;
    e.track.row.takenAt = kNow - 600;
    e.track.row.expiresAt = kNow + expiresIn;
    e.track.ttl = ttl;
    e.track.ttlExact = true;
    e.track.watchSince = kNow - 300;
    if (lastRenewalAgo)
        e.track.lastRenewal = kNow - *lastRenewalAgo;
    e.holder = splitHolder(holder);
    return e;
}

SessionRow session(int pid, const QString& app, const QString& addr = QString())
{
    SessionRow s;
    s.pid = pid;
    s.applicationName = app;
    s.clientAddr = addr;
    s.state = QStringLiteral("idle");
    return s;
}

const LeasePolicy kPolicy{};
} // namespace

class TestFxEvidence : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void staleWithoutSessionsLooksDead()
    {
        const auto e = entry("app-1:4242:abcd", -30, 70);
        const auto ev =
            assessHolder(e, {session(1, "billing@app-2"), session(2, "app-12")}, true, kNow, kPolicy);
        QCOMPARE(ev.state, LeaseState::Stale);
        QVERIFY(!ev.looksAlive);
        QCOMPARE(ev.holderHost, QStringLiteral("app-1"));
        QVERIFY(ev.hostSessions.empty()); // "app-12" is another host
        QVERIFY2(ev.forDead.join("|").contains("no session from host app-1 is connected"),
                 qPrintable(ev.forDead.join("|")));
        QVERIFY2(ev.forDead.join("|").contains("last renewal seen 1 min 10 s ago"),
                 qPrintable(ev.forDead.join("|")));
        QVERIFY(ev.summary().startsWith("looks dead"));
        const ForceExpireTarget t = targetFor(e, ev);
        QVERIFY(!t.acknowledgedAlive);
        QCOMPARE(t.holder, e.track.row.holder);
        QCOMPARE(t.expiresAt, e.track.row.expiresAt);
    }

    // Stale, yet its host still has a session (the pool stays connected): it looks alive, asks for
    // the second confirmation, and is still forceable — no "still unexpired" condition.
    void staleWithSessionFromHostStaysForceable()
    {
        const auto e = entry("app-1:4242:abcd", -30, 70);
        const auto ev = assessHolder(e, {session(1, "billing@app-1")}, true, kNow, kPolicy);
        QCOMPARE(ev.state, LeaseState::Stale);
        QVERIFY(ev.looksAlive);
        QVERIFY(!targetFor(e, ev).acknowledgedAlive);
    }

    void overdueWithSessionFromHostLooksAlive()
    {
        // Not expired yet, but no renewal for 60 s with a 40 s TTL: renewal overdue.
        const auto e = entry("worker-7.example.com:99:ff", 5, 60);
        QCOMPARE(classifyLease(e.track, kNow, kPolicy), LeaseState::RenewalOverdue);
        const auto ev = assessHolder(e, {session(11, "Worker-7.example.com/cron")}, true, kNow, kPolicy);
        QVERIFY(ev.looksAlive);
        QCOMPARE(int(ev.hostSessions.size()), 1);
        QVERIFY2(ev.forAlive.join("|").contains(
                     "1 session(s) from host worker-7.example.com still connected (pid 11)"),
                 qPrintable(ev.forAlive.join("|")));
        QVERIFY(ev.summary().startsWith("looks alive"));
        QVERIFY(targetFor(e, ev).acknowledgedAlive); // a session speaks for alive: the second confirmation
    }

    void heldLooksAliveAndStillComparesTheExpiry()
    {
        const auto e = entry("app-1:1:aa", 35, 5);
        const auto ev = assessHolder(e, {}, true, kNow, kPolicy);
        QCOMPARE(ev.state, LeaseState::Held);
        QVERIFY(ev.renewedInWindow);
        QVERIFY(ev.looksAlive);
        QVERIFY(ev.forAlive.join("|").contains("last renewal seen 5 s ago, within its renewal window"));
        QVERIFY(targetFor(e, ev).acknowledgedAlive);
        QCOMPARE(targetFor(e, ev).expiresAt, e.track.row.expiresAt); // compared even when alive
    }

    void unknownSessionsAreSaidSo()
    {
        const auto e = entry("app-1:1:aa", -10, 60);
        const auto ev = assessHolder(e, {}, false, kNow, kPolicy);
        QVERIFY(!ev.looksAlive); // the lease itself says dead; the unknown is shown, not guessed
        QVERIFY(ev.unknowns.join("|").contains("session list is not available"));
        QVERIFY(ev.summary().contains("session list is not available"));
    }

    // ShedLock holds no session while a job runs and names the holder by host name: a held lock
    // with no matching session is "cannot tell", never evidence of death; the evidence says when
    // the lock frees itself.
    void shedlockHeldWithoutASessionCannotBeTold()
    {
        const LeaseTableConfig shedlock = *LeaseTableConfig::preset("shedlock");
        const LeasePolicy policy = policyForTable(kPolicy, shedlock);
        auto e = entry("web-1", 300, std::nullopt);
        e.holder = splitHolder("web-1", shedlock.holderFormat);
        const auto ev = assessHolder(e, {session(3, "PostgreSQL JDBC Driver", "10.0.0.7")}, true, kNow, policy, &shedlock);
        QCOMPARE(ev.state, LeaseState::Held);
        QVERIFY(ev.looksAlive);
        QVERIFY(ev.forDead.isEmpty());
        QVERIFY(ev.unknowns.join("|").contains("in 5 min"));
        // Without the table's limits the same lease would read as "no session from host web-1".
        const auto generic = assessHolder(e, {session(3, "PostgreSQL JDBC Driver", "10.0.0.7")}, true, kNow, policy);
        QVERIFY(!generic.forDead.isEmpty());
    }

    void noExpiryCannotBeJudgedAndCountsAsAlive()
    {
        auto e = entry("app-1:1:aa", 0, std::nullopt);
        e.track.row.expiresAt.reset();
        const auto ev = assessHolder(e, {}, true, kNow, kPolicy);
        QCOMPARE(ev.state, LeaseState::Unknown);
        QVERIFY(ev.looksAlive);
    }

    void hostMatching_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("app");
        QTest::addColumn<QString>("addr");
        QTest::addColumn<bool>("match");
        QTest::newRow("client_addr") << "10.1.2.3"
                                     << ""
                                     << "10.1.2.3" << true;
        QTest::newRow("client_addr with prefix") << "10.1.2.3"
                                                 << ""
                                                 << "10.1.2.3/32" << true;
        QTest::newRow("other addr") << "10.1.2.3"
                                    << ""
                                    << "10.1.2.30" << false;
        QTest::newRow("app name word") << "app-1"
                                       << "worker@app-1"
                                       << "" << true;
        QTest::newRow("app name fqdn") << "app-1"
                                       << "app-1.example.com"
                                       << "" << true;
        QTest::newRow("app name longer host") << "app-1"
                                              << "app-12"
                                              << "" << false;
        QTest::newRow("app name prefix") << "app-1"
                                         << "myapp-1"
                                         << "" << false;
        QTest::newRow("case") << "APP-1"
                              << "app-1 sweeper"
                              << "" << true;
        QTest::newRow("empty host") << ""
                                    << "anything"
                                    << "" << false;
        QTest::newRow("regex chars") << "a.b"
                                     << "axb"
                                     << "" << false;
    }
    void hostMatching()
    {
        QFETCH(QString, host);
        QFETCH(QString, app);
        QFETCH(QString, addr);
        QFETCH(bool, match);
        QCOMPARE(sessionFromHost(session(1, app, addr), host), match);
    }

    void outcomeSentences()
    {
        ForceExpireOutcome o;
        o.target.name = "job";
        o.serverNow = kNow;
        o.kind = Kind::Expired;
        o.currentExpiresAt = kNow;
        QVERIFY(o.text().startsWith(
            "expired: its expiry is now the server's now() (2023-11-14 22:13:20.000 UTC)"));
        QVERIFY(o.text().contains("another instance may take it at its next attempt"));
        o.kind = Kind::ChangedHands;
        o.currentHolder = "app-2:5:bb";
        o.currentExpiresAt = kNow + 25;
        QVERIFY2(o.text().contains(
                     "changed hands since it was shown — now held by \"app-2:5:bb\", expires in 25 s"),
                 qPrintable(o.text()));
        o.kind = Kind::Renewed;
        QVERIFY(o.text().contains("renewed it since it was shown (so it is alive) — new expiry in 25 s"));
        o.kind = Kind::Gone;
        QCOMPARE(o.text(), QStringLiteral("not changed: the lease no longer exists or is no longer held"));
        o.kind = Kind::NoPrivilege;
        o.dbRole = "monitor";
        o.privilegeNeeded = "UPDATE on public.leases";
        o.error.kind = DbError::Kind::Query;
        o.error.sqlstate = "42501";
        o.error.message = "permission denied for table leases";
        QVERIFY(
            o.text().startsWith("refused for lack of privilege: role monitor needs UPDATE on public.leases"));
        QVERIFY(o.text().contains("SQLSTATE 42501"));
        o.kind = Kind::LockTimeout;
        QVERIFY(o.text().startsWith("timed out waiting for the row lock"));
        o.kind = Kind::NotAllowed;
        QVERIFY(o.text().contains("operator mode is off"));
        QCOMPARE(o.key(), QStringLiteral("not_allowed"));
        // The audit's after-values are JSON.
        o.kind = Kind::ChangedHands;
        QVERIFY(o.auditAfter().contains("\"holder\":\"app-2:5:bb\""));
        QVERIFY(o.target.auditBefore().startsWith("{"));
    }
};

QTEST_GUILESS_MAIN(TestFxEvidence)
#include "tst_fx_evidence.moc"
