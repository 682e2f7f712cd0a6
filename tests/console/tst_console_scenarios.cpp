// What the console's models show while the simulator produces the incidents the product exists for:
// a crashed lease holder, a pinned pool, lock-wait chains; plus advisory keys as applications write
// them and a hashtext() collision among known lock names.
#include "BackendSignal.h"
#include "ConsoleSupport.h"
#include "CycleScene.h"
#include "itemmodels/LeaseModel.h"
#include "itemmodels/LocksModels.h"
#include "Monitor.h"
#include "Poller.h"
#include "TestCluster.h"
#include "sim/Simulator.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lw;
using lw::test::fastConfig;
using lw::test::startSim;

namespace {

// A plain session that takes advisory locks the way an application would.
struct Session
{
    pg::Connection c;
    explicit Session(const QString& dsn, const QString& app = QStringLiteral("key-test"))
    {
        pg::ConnectOptions o;
        o.dsn = dsn;
        o.readOnly = false;
        o.applicationName = app;
        if (c.connect(o).isError())
            qFatal("connect failed");
    }
    void exec(const QByteArray& sql)
    {
        pg::ResultPtr r;
        const auto e = c.exec({sql, {}}, r, pg::Clock::now() + std::chrono::seconds(10));
        if (e.isError())
            qFatal("%s: %s", sql.constData(), qPrintable(e.toDisplayString()));
    }
};
} // namespace

class TestConsoleScenarios : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // held → renewal overdue → stale → taken over, in that order, on the console's model.
    void crashedHolderLifecycleOnTheModel()
    {
        test::TestDatabase db("crashed_lifecycle");
        auto simulator =
            startSim(db.dsn(), {"crashed-holder:ttl=4,crash_after=2,interval=3,work=2,every=60,flaky=0"});
        Monitor m(fastConfig(db.dsn()));
        new QAbstractItemModelTester(m.leases(), QAbstractItemModelTester::FailureReportingMode::QtTest, &m);
        QList<LeaseState> seen;
        QString firstHolder;
        bool holderChanged = false;
        connect(&m, &Monitor::refreshed, this, [&] {
            const int row = m.leases()->rowOfKey(QStringLiteral("crashed-job"));
            if (row < 0)
                return;
            const auto& e = m.leases()->entry(row);
            if (firstHolder.isEmpty())
                firstHolder = e.track.row.holder.value_or(QString());
            holderChanged = holderChanged || e.track.row.holder.value_or(QString()) != firstHolder;
            const LeaseState st = m.leases()->stateAt(row);
            if (seen.isEmpty() || seen.last() != st)
                seen << st;
        });
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(seen.contains(LeaseState::TakenOver), 30000);
        QVERIFY(holderChanged);
        // The order of first appearance must be exactly the lifecycle.
        QList<LeaseState> firsts;
        for (LeaseState s : seen)
            if (!firsts.contains(s))
                firsts << s;
        const QList<LeaseState> expected = {LeaseState::Held, LeaseState::RenewalOverdue, LeaseState::Stale,
                                            LeaseState::TakenOver};
        QCOMPARE(firsts.mid(0, 4), expected);
    }

    // Incident 4's double run: web-1 holds "sweep" and stalls past its TTL while its session keeps
    // working (a long statement); web-2 takes the lease over after its expiry. While web-1's
    // session stays busy, a warning says it may still be running it; once that session is idle
    // (still connected) the warning goes.
    void doubleRunIsSaidUntilTheOldHolderStops()
    {
        test::TestDatabase db("double_run");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at timestamptz)");
        const QByteArray take = "INSERT INTO leases VALUES ('sweep', '%1', now(), now() + interval '%2 s') ON CONFLICT "
                                "(name) DO UPDATE SET holder = excluded.holder, taken_at = excluded.taken_at, "
                                "expires_at = excluded.expires_at WHERE leases.expires_at < now()";
        Session web1(db.dsn(), QStringLiteral("sweeper@web-1"));
        web1.exec(QByteArray(take).replace("%1", "web-1:4242:aa").replace("%2", "2"));
        Monitor m(fastConfig(db.dsn()));
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(m.leases()->rowOfKey(QStringLiteral("sweep")) >= 0, 10000);
        // web-1 stalls in its work: its renewer stops, its session stays busy.
        QVERIFY(PQsendQuery(web1.c.raw(), "SELECT pg_sleep(15)") == 1);
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT expires_at < now() FROM leases"), QStringLiteral("t"), 10000);
        Session web2(db.dsn(), QStringLiteral("sweeper@web-2"));
        web2.exec(QByteArray(take).replace("%1", "web-2:77:bb").replace("%2", "30"));
        QCOMPARE(db.value("SELECT holder FROM leases"), QStringLiteral("web-2:77:bb"));
        const auto doubleRun = [&]() -> QString {
            for (int i = 0; i < m.findings()->rowCount(); ++i)
                if (m.findings()->finding(i).kind == FindingKind::DoubleRun)
                    return m.findings()->finding(i).title;
            return {};
        };
        QTRY_VERIFY_WITH_TIMEOUT(!doubleRun().isEmpty(), 10000);
        QVERIFY2(doubleRun().startsWith(QLatin1String("sweep: web-1 may still be running it")), qPrintable(doubleRun()));
        // web-1's statement ends; its session stays, idle: it has stopped.
        while (PGresult* r = PQgetResult(web1.c.raw()))
            PQclear(r);
        QTRY_VERIFY_WITH_TIMEOUT(doubleRun().isEmpty(), 10000);
        QCOMPARE(db.value("SELECT state FROM pg_stat_activity WHERE application_name = 'sweeper@web-1'"),
                 QStringLiteral("idle"));
    }

    // Incident 1: a pool of four, four idle backends each holding one session-level advisory lock.
    void pinnedPoolIsFlaggedWithNames()
    {
        test::TestDatabase db("pinned_pool");
        auto simulator = startSim(db.dsn(), {"pinned-pool:pool=4,waiters=2,hold=0,app=billing-api-c"});
        PollerConfig cfg = fastConfig(db.dsn());
        cfg.lockNames = {"billing-job-1", "billing-job-2", "billing-job-3", "billing-job-4",
                         "nightly-report"};
        cfg.analysis.poolSizes.insert(QStringLiteral("billing-api-c"), 4);
        Monitor m(cfg);
        new QAbstractItemModelTester(m.locks(), QAbstractItemModelTester::FailureReportingMode::QtTest, &m);
        new QAbstractItemModelTester(m.findings(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                     &m);
        m.start();
        auto pinnedGroup = [&]() -> const PoolGroup* {
            const auto& a = m.lastSnapshot().analysis;
            if (!a)
                return nullptr;
            for (const PoolGroup& g : a->groups())
                if (g.applicationName == "billing-api-c" && g.pinned)
                    return &g;
            return nullptr;
        };
        QTRY_VERIFY_WITH_TIMEOUT(pinnedGroup() && pinnedGroup()->pinnedLockNames.size() == 4 &&
                                     pinnedGroup()->pinnedLockNames.first().startsWith("hashtext("),
                                 20000);
        const PoolGroup* g = pinnedGroup();
        QCOMPARE(g->idleHoldingAdvisory, 4);
        QCOMPARE(g->poolSize.value_or(0), 4);
        QCOMPARE(g->pinnedLockNames, QStringList({"hashtext('billing-job-1')", "hashtext('billing-job-2')",
                                                  "hashtext('billing-job-3')", "hashtext('billing-job-4')"}));
        // The finding names the instance and 4 of 4, on the findings model the window shows. (The
        // cluster is shared: other tests' pinned pools may have findings of their own.)
        bool found = false;
        for (int r = 0; r < m.findings()->rowCount(); ++r) {
            const auto& f = m.findings()->finding(r);
            if (f.kind == FindingKind::PoolPinned && f.subject == g->key) {
                found = true;
                QVERIFY2(f.title.contains("billing-api-c") && f.title.contains("4 of 4"),
                         qPrintable(f.title));
            }
        }
        QVERIFY(found);
        // Each of the four locks on the locks model: resolved, held by an idle session, session-level.
        int resolved = 0;
        for (int r = 0; r < m.locks()->rowCount(); ++r) {
            const auto& row = m.locks()->row(r);
            if (row.session().applicationName != "billing-api-c" || !row.view.lock.granted)
                continue;
            QVERIFY(row.view.name.startsWith("hashtext('billing-job-"));
            QCOMPARE(row.session().state, QStringLiteral("idle"));
            QVERIFY(row.view.sessionLevel);
            ++resolved;
        }
        QCOMPARE(resolved, 4);
    }

    void waitChainIsATreeWithTheRightRoot()
    {
        test::TestDatabase db("wait_chain");
        auto simulator = startSim(db.dsn(), {"lock-waits:depth=3,kind=advisory,hold=30,pause=1"});
        Monitor m(fastConfig(db.dsn()));
        new QAbstractItemModelTester(m.blocking(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                     &m);
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(m.blocking()->firstChain().size() == 3, 20000);
        const std::vector<int> chain = m.blocking()->firstChain();
        // The root blocks but does not wait; each next one waits on the previous.
        const QString dsn = db.dsn();
        QCOMPARE(
            test::queryValue(dsn, QStringLiteral("SELECT cardinality(pg_blocking_pids(%1))").arg(chain[0])),
            QStringLiteral("0"));
        QVERIFY(
            test::queryValue(
                dsn, QStringLiteral("SELECT %1 = ANY(pg_blocking_pids(%2))").arg(chain[0]).arg(chain[1])) ==
            "t");
        QVERIFY(
            test::queryValue(
                dsn, QStringLiteral("SELECT %1 = ANY(pg_blocking_pids(%2))").arg(chain[1]).arg(chain[2])) ==
            "t");
        const QModelIndex root = m.blocking()->index(0, 0);
        QVERIFY(!root.parent().isValid()); // a root of the tree: the first chain's first pid
        QCOMPARE(root.data().toString().section(QLatin1Char(' '), 0, 0).toInt(), chain[0]);
        QCOMPARE(m.blocking()->rowCount(root), 1); // the next in the chain waits behind it
        // And the tree says so in words.
        QVERIFY(root.data().toString().contains("root blocker"));
    }

    // Issue 52: deploy 1 holds its migration lock on one connection and builds an index
    // concurrently on another; deploy 2's migrator, in a transaction that read the table, waits for
    // the lock. The build waits for deploy 2's snapshot: PostgreSQL sees a chain, not a cycle, and
    // never breaks it. The console says so, names deploy 2 to cancel (not the root blocker), and
    // that cancel frees the build.
    void buildWaitingForAMigratorsSnapshotIsACycle()
    {
        test::TestDatabase db("hidden_cycle");
        test::CycleScene scene(db);
        QString why;
        QVERIFY2(scene.start(&why), qPrintable(why));
        const int lockPid = scene.lockPid, migratorPid = scene.migratorPid;

        Monitor m(fastConfig(db.dsn()));
        new QAbstractItemModelTester(m.blocking(), QAbstractItemModelTester::FailureReportingMode::QtTest, &m);
        m.start();
        auto cycleCard = [&]() -> std::optional<Finding> {
            for (int i = 0; i < m.findings()->rowCount(); ++i)
                if (m.findings()->finding(i).kind == FindingKind::HiddenDeadlock)
                    return m.findings()->finding(i);
            return std::nullopt;
        };
        QTRY_VERIFY_WITH_TIMEOUT(cycleCard().has_value(), 20000);
        const Finding card = *cycleCard();
        QCOMPARE(card.severity, 3);
        QCOMPARE(card.subject, QString::number(migratorPid));
        QVERIFY2(card.title.contains(QStringLiteral("held by pid %1").arg(lockPid)) &&
                     card.title.contains("CREATE INDEX CONCURRENTLY") && card.title.contains("neither can finish"),
                 qPrintable(card.title));
        QVERIFY2(card.fix.contains(QStringLiteral("pg_cancel_backend(%1)").arg(migratorPid)), qPrintable(card.fix));
        for (int i = 0; i < m.findings()->rowCount(); ++i) // not also "end the root blocker"
            QVERIFY(m.findings()->finding(i).kind != FindingKind::BlockingChain ||
                    m.findings()->finding(i).subject != QString::number(lockPid));

        // The tree: the idle lock session is the root, and says it is not the one to end.
        QModelIndex root;
        for (int r = 0; r < m.blocking()->rowCount(); ++r)
            if (m.blocking()->index(r, 0).data(Qt::UserRole).toInt() == lockPid)
                root = m.blocking()->index(r, 0);
        QVERIFY(root.isValid());
        QCOMPARE(root.data().toString(),
                 QStringLiteral("%1 (root blocker: cancel %2 instead)").arg(lockPid).arg(migratorPid));
        QCOMPARE(m.blocking()->rowCount(root), 1);
        const QModelIndex waiter = m.blocking()->index(0, 0, root);
        QCOMPARE(waiter.data().toString(), QStringLiteral("%1 (cancel this one: frees the cycle)").arg(migratorPid));

        // The cancel it names: the build finishes, with a valid index, and the card goes.
        pg::ConnectOptions opts;
        opts.dsn = db.dsn();
        QCOMPARE(signalBackend(opts, true, BackendSignal::Cancel, migratorPid).key, QStringLiteral("cancelled"));
        const QString built = scene.buildFinished();
        QVERIFY2(built.isEmpty(), qPrintable(built));
        QTRY_VERIFY_WITH_TIMEOUT(!cycleCard().has_value(), 10000);
    }

    // Keys as the application wrote them: one bigint (incl. negative and extreme) or two int4.
    void keysDecodeToTheValuesUsed()
    {
        test::TestDatabase db("keys");
        Session app(db.dsn());
        app.exec("SELECT pg_advisory_lock(-2), pg_advisory_lock(9223372036854775807), pg_advisory_lock(42), "
                 "pg_advisory_lock(1, -2), pg_advisory_lock(-2147483648, 2147483647)");
        Poller p(fastConfig(db.dsn()));
        const Snapshot s = p.refreshOnce();
        QVERIFY(s.ok && s.analysis);
        QStringList keys;
        for (const LockView& v : s.analysis->locks)
            if (v.lock.inMonitoredDb)
                keys << advisoryKeyText(v.lock);
        keys.sort();
        QCOMPARE(keys,
                 QStringList({"(-2147483648, 2147483647)", "(1, -2)", "-2", "42", "9223372036854775807"}));
    }

    // Two known names that collide under hashtext() on this server: reported as a key collision.
    void collisionAmongKnownNames()
    {
        test::TestDatabase db("collision");
        const QString pair =
            db.value("SELECT string_agg(n, ',') FROM (SELECT array_agg(n ORDER BY n) a FROM (SELECT "
                     "'job-' || i AS n FROM generate_series(1, 400000) i) s GROUP BY hashtext(n) "
                     "HAVING count(*) > 1 LIMIT 1) c, unnest(c.a) n");
        const QStringList names = pair.split(',');
        QCOMPARE(names.size(), 2);
        Session app(db.dsn());
        app.exec(QStringLiteral("SELECT pg_advisory_lock(hashtext('%1'))").arg(names[0]).toUtf8());
        PollerConfig cfg = fastConfig(db.dsn());
        cfg.lockNames = names;
        Poller p(cfg);
        p.refreshOnce(); // names are hashed on the first refresh and used from the next
        const Snapshot s = p.refreshOnce();
        QVERIFY(s.ok && s.analysis);
        // The finding about that key (by kind and subject), naming both names.
        const QString key = db.value(QStringLiteral("SELECT hashtext('%1')").arg(names[0]));
        QCOMPARE(db.value(QStringLiteral("SELECT hashtext('%1')").arg(names[1])), key);
        int finding = 0;
        for (const Finding& f : s.analysis->findings)
            if (f.kind == FindingKind::KeyCollision && f.subject == key) {
                ++finding;
                QCOMPARE(f.severity, 2);
                QVERIFY2(f.title.contains(names[0]) && f.title.contains(names[1]), qPrintable(f.title));
            }
        QCOMPARE(finding, 1);
        const auto lock = std::find_if(s.analysis->locks.begin(), s.analysis->locks.end(),
                                       [](const LockView& v) { return v.lock.inMonitoredDb; });
        QVERIFY(lock != s.analysis->locks.end());
        QCOMPARE(lock->collision, names);
        QVERIFY(lock->name.contains(" or "));
    }

    // Operator actions of the locks page: terminate frees the pinned connection and its lock;
    // without operator mode nothing is sent; a role without the right is refused with the reason.
    void terminateCancelAndPermissions()
    {
        test::TestDatabase db("signal");
        Session victim(db.dsn());
        victim.exec("SELECT pg_advisory_lock(hashtext('sweep'))");
        const int pid = victim.c.backendPid();
        pg::ConnectOptions opts;
        opts.dsn = db.dsn();

        BackendSignalOutcome off = signalBackend(opts, false, BackendSignal::Terminate, pid);
        QCOMPARE(off.key, QStringLiteral("refused"));
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE pid = %1").arg(pid)),
                 QStringLiteral("1"));

        const QString consequences =
            backendSignalConsequences(BackendSignal::Terminate, pid, {"hashtext('sweep')"}, "billing-api-c");
        QVERIFY(consequences.contains("hashtext('sweep')") && consequences.contains("57P01"));

        // A role without pg_signal_backend cannot terminate a superuser's backend.
        const QString role = "lw_nosignal_" + db.name();
        test::execSql(test::suiteDsn(), QStringLiteral("CREATE ROLE %1 LOGIN").arg(role));
        pg::ConnectOptions weak = opts;
        weak.dsn = db.dsn() + " user=" + role;
        const BackendSignalOutcome denied = signalBackend(weak, true, BackendSignal::Terminate, pid);
        QCOMPARE(denied.key, QStringLiteral("permission_denied"));
        QVERIFY2(denied.text.contains("pg_signal_backend"), qPrintable(denied.text));

        // Without pg_monitor the console says what is hidden and which grant fixes it.
        PollerConfig wc = fastConfig(weak.dsn);
        Poller wp(wc);
        const Snapshot ws = wp.refreshOnce();
        QVERIFY(ws.ok && ws.analysis);
        QVERIFY(!ws.cluster.hasMonitorPrivilege);
        bool hidden = false;
        for (const Finding& f : ws.analysis->findings)
            hidden = hidden || (f.kind == FindingKind::HiddenByPrivileges &&
                                f.fix.contains("GRANT pg_monitor TO " + role));
        QVERIFY(hidden);

        const BackendSignalOutcome cancelled = signalBackend(opts, true, BackendSignal::Cancel, pid);
        QCOMPARE(cancelled.key, QStringLiteral("cancelled"));
        const BackendSignalOutcome done = signalBackend(opts, true, BackendSignal::Terminate, pid);
        QCOMPARE(done.key, QStringLiteral("terminated"));
        QTRY_COMPARE_WITH_TIMEOUT(db.value(QStringLiteral("SELECT count(*) FROM pg_locks WHERE locktype = "
                                                          "'advisory' AND pid = %1")
                                               .arg(pid)),
                                  QStringLiteral("0"), 5000);
        const BackendSignalOutcome gone = signalBackend(opts, true, BackendSignal::Terminate, pid);
        QCOMPARE(gone.key, QStringLiteral("no_such_backend"));
        test::execSql(test::suiteDsn(), QStringLiteral("DROP OWNED BY %1").arg(role));
    }
};

QTEST_GUILESS_MAIN(TestConsoleScenarios)
#include "tst_console_scenarios.moc"
