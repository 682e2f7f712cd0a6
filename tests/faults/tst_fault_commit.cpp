// Issue 26, point 2: a force-expire whose COMMIT gets no answer. A private server that waits for a
// synchronous standby that does not exist (synchronous_standby_names = 'ghost') holds every COMMIT;
// the console gives up at its deadline. The change is then committed locally all the same, so the
// outcome must say "unknown", never "nothing was changed" — and the row shows why.
#include "FaultSupport.h"
#include "ForceExpire.h"
#include "Poller.h"
#include "TestCluster.h"

#include <QTest>

using namespace lw;
using Kind = ForceExpireOutcome::Kind;

class TstFaultCommit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unansweredCommitIsUnknownNotUnchanged()
    {
        auto opts = test::privateClusterOptions(QStringLiteral("commit-wait"));
        opts.extraSettings << QStringLiteral("synchronous_standby_names = 'ghost'")
                           << QStringLiteral("synchronous_commit = on"); // the throwaway default is off
        fault::PrivateServer srv(opts);
        const auto started = srv.start();
        QVERIFY2(!started, qPrintable(started.value_or(QString())));
        // Set-up writes commit locally (they would wait for the ghost too).
        QVERIFY(fault::exec(srv.dsn(), "SET synchronous_commit = local; CREATE TABLE leases(name text primary key, "
                                       "holder text, taken_at timestamptz, expires_at timestamptz); INSERT INTO "
                                       "leases VALUES ('sweep', 'app-1:1:aa', now() - interval '2 min', now() + "
                                       "interval '10 min')"));
        PollerConfig cfg = test::pollerConfig(srv.dsn(), 200);
        cfg.operatorMode = true;
        Poller p(cfg);
        const Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok && s.leases.size() == 1, qPrintable(s.error.toDisplayString()));
        ForceExpireTarget t;
        t.name = s.leases.front().name;
        t.holder = s.leases.front().holder;
        t.takenAt = s.leases.front().takenAt;
        t.expiresAt = s.leases.front().expiresAt;
        ForceExpireRequest req = forceExpireRequestFor(cfg);
        req.statementTimeoutMs = 1500;
        const ForceExpireOutcome o = forceExpire(req, {t}).front();
        QVERIFY2(o.kind == Kind::CommitUnknown, qPrintable(o.text()));
        QCOMPARE(o.key(), QStringLiteral("commit_unknown"));
        QVERIFY(!o.changed());
        // It was committed locally: the expiry is now in the past. "Nothing changed" would have lied.
        // The server makes it visible once it has processed the cancel of the wait.
        QTRY_COMPARE_WITH_TIMEOUT(fault::query(srv.dsn(), "SELECT (expires_at <= now())::text FROM leases"),
                                  std::optional<QString>(QStringLiteral("true")), 10000);
    }
};

QTEST_GUILESS_MAIN(TstFaultCommit)
#include "tst_fault_commit.moc"
