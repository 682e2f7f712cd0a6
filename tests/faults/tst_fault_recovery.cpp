// Connections that survive: a Monitor polls a private server every 200 ms while the test breaks the
// server the ways PostgreSQL's own recovery tests do (immediate shutdown, terminated session, a
// crashed backend resetting the server, SIGSTOP). Each time the console must say it is disconnected,
// retry within its backoff cap, come back with fresh data, keep the GUI thread responsive, and leave
// no backend or thread behind.
#include "FaultSupport.h"
#include "Monitor.h"
#include "TestCluster.h"
#include "itemmodels/LeaseModel.h"

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <signal.h>

using namespace lw;
using State = ConnectionStatus::State;

namespace {
constexpr int kIntervalMs = 200;
constexpr int kDeadlineMs = 1000;
constexpr int kBackoffMaxMs = 1000;
// The GUI thread may be late by scheduling noise, never by a refresh: a frame budget, generously.
constexpr qint64 kFrameBudgetMs = 250;

struct StatusEvent
{
    State state;
    DbError error;
    int retryInMs;
    QDateTime outageSince;
    qint64 t;
};
struct ShotEvent
{
    bool ok;
    double serverNow;
    int backendPid;
    DbError error;
    qint64 t;
    int effectiveIntervalMs; // the footprint budget may stretch the interval (Snapshot::effectiveIntervalMs)
};

// Everything the Monitor reported, on the GUI thread, stamped with the time it arrived.
class Recorder
{
public:
    explicit Recorder(Monitor& m)
    {
        clock_.start();
        QObject::connect(&m, &Monitor::statusChanged, &ctx_, [this](const ConnectionStatus& st) {
            status.push_back({st.state, st.error, st.retryInMs, st.outageSince, clock_.elapsed()});
        });
        QObject::connect(&m, &Monitor::refreshed, &ctx_, [this](const Snapshot& s) {
            shots.push_back({s.ok, s.serverNow, s.server.backendPid, s.error, clock_.elapsed(), s.effectiveIntervalMs});
        });
    }
    qint64 now() const { return clock_.elapsed(); }
    // First good refresh at or after `fromT` whose server clock is later than `after` (fresh data),
    // from a backend other than `notPid` if given (a new session).
    const ShotEvent* freshAfter(qint64 fromT, double after, int notPid = 0) const
    {
        for (const auto& s : shots)
            if (s.t >= fromT && s.ok && s.serverNow > after && (notPid == 0 || s.backendPid != notPid))
                return &s;
        return nullptr;
    }
    const ShotEvent* failedAfter(qint64 fromT) const
    {
        for (const auto& s : shots)
            if (s.t >= fromT && !s.ok)
                return &s;
        return nullptr;
    }
    const ShotEvent* lastOk() const
    {
        for (auto it = shots.rbegin(); it != shots.rend(); ++it)
            if (it->ok)
                return &*it;
        return nullptr;
    }
    int statusCount(State st, qint64 fromT = 0) const
    {
        return int(std::count_if(status.begin(), status.end(),
                                 [&](const StatusEvent& e) { return e.t >= fromT && e.state == st; }));
    }
    std::vector<StatusEvent> status;
    std::vector<ShotEvent> shots;

private:
    QObject ctx_; // the connections die with the recorder
    QElapsedTimer clock_;
};

QString describe(const Recorder& r)
{
    QStringList out;
    for (const auto& e : r.status)
        out << QStringLiteral("%1ms state=%2 retry=%3 %4")
                   .arg(e.t)
                   .arg(int(e.state))
                   .arg(e.retryInMs)
                   .arg(e.error.toDisplayString());
    return out.join(QLatin1Char('\n'));
}
// The distinct messages the operator saw since `fromT`, for the test log.
void logErrors(const Recorder& r, qint64 fromT, const char* what)
{
    QStringList seen;
    for (const auto& e : r.status)
        if (e.t >= fromT && e.error.isError() && !seen.contains(e.error.toDisplayString()))
            seen << e.error.toDisplayString();
    qInfo("%s: %s", what, qPrintable(seen.join(QStringLiteral(" | "))));
}
} // namespace

class TestFaultRecovery : public QObject
{
    Q_OBJECT

    std::unique_ptr<fault::PrivateServer> srv_;
    fault::LoopLatencyProbe probe_;

    PollerConfig config() const
    {
        PollerConfig c;
        c.connect.dsn = srv_->dsn();
        c.connect.connectTimeoutS = 2; // a frozen server is caught by our own deadline
        c.intervalMs = kIntervalMs;
        c.refreshDeadlineMs = kDeadlineMs;
        c.backoffInitialMs = 100;
        c.backoffMaxMs = kBackoffMaxMs;
        return c;
    }

    // Starts a Monitor and waits for its first good refresh.
    static bool waitConnected(Monitor& m, Recorder& rec)
    {
        return fault::waitFor([&] { return m.status().state == State::Connected && rec.lastOk(); }, 15000);
    }

    // Stops the probe; the GUI thread's event loop never stalled longer than a frame budget.
    bool guiThreadWasResponsive()
    {
        probe_.stop();
        qInfo("event loop: longest gap %lld ms over %d ticks", probe_.maxGapMs(), probe_.ticks());
        if (probe_.maxGapMs() < kFrameBudgetMs)
            return true;
        qWarning("the GUI thread was blocked for %lld ms", probe_.maxGapMs());
        return false;
    }

    // Point 6: once the Monitor is gone, so is its backend.
    void verifyNoConsoleBackendLeft()
    {
        QVERIFY2(fault::waitFor([&] { return fault::consoleBackends(srv_->dsn()) == 0; }, 5000),
                 "a backend of the console outlived its Monitor");
    }

private Q_SLOTS:
    void initTestCase()
    {
        srv_ =
            std::make_unique<fault::PrivateServer>(test::privateClusterOptions(QStringLiteral("recovery")));
        const auto err = srv_->start();
        QVERIFY2(!err, qPrintable(err.value_or(QString())));
        // CHECKPOINT: the cluster runs with synchronous_commit=off, and an immediate shutdown would
        // otherwise lose the table.
        QVERIFY(fault::exec(srv_->dsn(), "CREATE TABLE leases(name text primary key, holder text, taken_at "
                                         "timestamptz, expires_at timestamptz)"));
        QVERIFY(fault::exec(srv_->dsn(), "CHECKPOINT"));
    }
    void init()
    {
        // A failed earlier test may have left the server stopped or frozen.
        srv_->thawAll();
        if (!srv_->isUp()) {
            const auto err = srv_->start();
            QVERIFY2(!err, qPrintable(err.value_or(QString())));
        }
    }
    void cleanup()
    {
        probe_.stop();
        srv_->thawAll();
    }
    void cleanupTestCase() { srv_.reset(); }

    void immediateShutdownThenStart()
    {
        {
            Monitor m(config());
            Recorder rec(m);
            m.start();
            QVERIFY(waitConnected(m, rec));
            const double before = rec.lastOk()->serverNow;

            QVERIFY(!srv_->stopImmediate());
            const qint64 stoppedAt = rec.now();
            probe_.start();
            QVERIFY2(
                fault::waitFor([&] { return rec.statusCount(State::Disconnected, stoppedAt) > 0; }, 5000),
                qPrintable(describe(rec)));
            // Let the backoff climb to its cap: several attempts against a server that is not there.
            QVERIFY(
                fault::waitFor([&] { return rec.statusCount(State::Disconnected, stoppedAt) >= 6; }, 10000));
            QVERIFY(guiThreadWasResponsive());

            // Every retry is announced, bounded by the cap, and the outage keeps its start time
            // across attempts (the status bar says "disconnected since …").
            QDateTime outage;
            for (const auto& e : rec.status) {
                if (e.t < stoppedAt || e.state != State::Disconnected)
                    continue;
                QVERIFY2(e.error.needsReconnect(), qPrintable(e.error.toDisplayString()));
                // Says what happened and what to do (here: nothing, it reconnects by itself).
                QVERIFY2(e.error.toDisplayString().contains(QStringLiteral(" — ")),
                         qPrintable(e.error.toDisplayString()));
                QVERIFY2(e.retryInMs > 0 && e.retryInMs <= kBackoffMaxMs, qPrintable(describe(rec)));
                QVERIFY(e.outageSince.isValid());
                if (!outage.isValid())
                    outage = e.outageSince;
                QCOMPARE(e.outageSince, outage);
            }

            const auto startErr = srv_->start();
            QVERIFY2(!startErr, qPrintable(startErr.value_or(QString())));
            const qint64 restartedAt = rec.now();
            probe_.start();
            QVERIFY2(fault::waitFor([&] { return rec.freshAfter(restartedAt, before) != nullptr; }, 10000),
                     qPrintable(describe(rec)));
            // Disconnected → Connected, and no later than one capped backoff after the server is
            // back (plus a connect and a refresh on a noisy machine).
            const qint64 recoveredMs = rec.freshAfter(restartedAt, before)->t - restartedAt;
            logErrors(rec, stoppedAt, "immediate shutdown");
            qInfo("fresh data %lld ms after the restart", recoveredMs);
            QVERIFY2(recoveredMs <= kBackoffMaxMs + 1500, qPrintable(QString::number(recoveredMs)));
            QVERIFY(fault::waitFor([&] { return m.status().state == State::Connected; }, 2000));
            QVERIFY(!m.status().outageSince.isValid());
            QVERIFY(guiThreadWasResponsive());

            // Fresh data, not a cached picture: a lease written after the restart shows up.
            QVERIFY(fault::exec(srv_->dsn(), "INSERT INTO leases VALUES ('after-restart', 'h:1:aa', now(), "
                                             "now() + interval '1 min') ON CONFLICT DO NOTHING"));
            QVERIFY(fault::waitFor([&] { return m.leases()->rowCount() >= 1; }, 5000));
        }
        verifyNoConsoleBackendLeft();
    }

    // The FATAL 57P01 arrives on a connection whose PQstatus still says OK: the console must
    // classify it as a lost connection by itself.
    void terminatedSessionIsConnectionLoss()
    {
        pg::Connection c;
        pg::ConnectOptions o;
        o.dsn = srv_->dsn();
        QVERIFY(!c.connect(o).isError());
        const int pid = c.backendPid();
        QVERIFY(fault::exec(srv_->dsn(), QStringLiteral("SELECT pg_terminate_backend(%1)").arg(pid)));
        QVERIFY(fault::waitFor([&] { return !fault::processExists(pid); }, 5000));
        QVERIFY(c.isOpen()); // libpq has not noticed: nothing was read since
        std::vector<pg::StatementResult> out;
        const DbError e =
            c.runPipeline({{"SELECT 1", {}}}, out, pg::Clock::now() + std::chrono::milliseconds(kDeadlineMs));
        QCOMPARE(e.kind, DbError::Kind::ConnectionLost);
        QVERIFY(e.needsReconnect());
        QVERIFY2(e.sqlstate == QLatin1String("57P01") ||
                     e.message.contains(QLatin1String("closed the connection")),
                 qPrintable(e.toDisplayString()));
        QVERIFY(!c.isOpen());
    }

    void terminateConsoleBackend()
    {
        {
            Monitor m(config());
            Recorder rec(m);
            m.start();
            QVERIFY(waitConnected(m, rec));
            const ShotEvent first = *rec.lastOk();
            const qint64 t0 = rec.now();
            QVERIFY(fault::exec(srv_->dsn(),
                                QStringLiteral("SELECT pg_terminate_backend(%1)").arg(first.backendPid)));
            probe_.start();
            QVERIFY2(fault::waitFor([&] { return rec.statusCount(State::Disconnected, t0) > 0; }, 5000),
                     qPrintable(describe(rec)));
            const ShotEvent* failed = rec.failedAfter(t0);
            QVERIFY(failed);
            QCOMPARE(failed->error.kind, DbError::Kind::ConnectionLost);
            QVERIFY(fault::waitFor(
                [&] { return rec.freshAfter(t0, first.serverNow, first.backendPid) != nullptr; }, 5000));
            QVERIFY(fault::waitFor([&] { return m.status().state == State::Connected; }, 2000));
            QVERIFY(guiThreadWasResponsive());
            logErrors(rec, t0, "terminated session");
        }
        verifyNoConsoleBackendLeft();
    }

    // SIGKILL of any backend makes the postmaster reset every session and replay WAL: the console
    // loses its session too (57P02), may see 57P03 while the server recovers, and must come back.
    void killedBackendResetsServer()
    {
        {
            Monitor m(config());
            Recorder rec(m);
            m.start();
            QVERIFY(waitConnected(m, rec));
            const ShotEvent first = *rec.lastOk();
            pg::Connection victim = fault::openSession(srv_->dsn(), QStringLiteral("leasewatch-victim"));
            QVERIFY(victim.isOpen());
            const qint64 t0 = rec.now();
            QCOMPARE(::kill(victim.backendPid(), SIGKILL), 0);
            probe_.start();
            QVERIFY2(fault::waitFor([&] { return rec.statusCount(State::Disconnected, t0) > 0; }, 10000),
                     qPrintable(describe(rec)));
            QVERIFY2(
                fault::waitFor(
                    [&] { return rec.freshAfter(t0, first.serverNow, first.backendPid) != nullptr; }, 15000),
                qPrintable(describe(rec)));
            QVERIFY(guiThreadWasResponsive());
            for (const auto& e : rec.status)
                if (e.t >= t0 && e.state == State::Disconnected)
                    QVERIFY2(e.error.needsReconnect(), qPrintable(e.error.toDisplayString()));
            logErrors(rec, t0, "killed backend");
        }
        verifyNoConsoleBackendLeft();
    }

    // The whole server frozen: only our own deadlines notice. The GUI thread must not notice at all,
    // and the thread that sends the cancel (it blocks while the postmaster is stopped) must end
    // after SIGCONT.
    void frozenServer()
    {
        {
            Monitor m(config());
            Recorder rec(m);
            m.start();
            QVERIFY(waitConnected(m, rec));
            const ShotEvent first = *rec.lastOk();
            const int baselineThreads = fault::threadCount();

            const pid_t pm = srv_->postmasterPid();
            const std::vector<pid_t> children = srv_->childPids();
            QVERIFY(pm > 0 && !children.empty());
            probe_.start();
            // The next refresh comes one interval after the last: the configured one, or longer when
            // the footprint budget stretched it (a loaded machine makes refreshes cost more).
            const int interval = std::max(kIntervalMs, rec.lastOk()->effectiveIntervalMs);
            const qint64 t0 = rec.now();
            srv_->freeze({pm});
            srv_->freeze(children);

            QVERIFY2(fault::waitFor([&] { return rec.failedAfter(t0) != nullptr; }, interval + kDeadlineMs + 5000),
                     qPrintable(describe(rec)));
            const ShotEvent timedOut = *rec.failedAfter(t0);
            QCOMPARE(timedOut.error.kind, DbError::Kind::Timeout);
            QVERIFY2(timedOut.t - t0 <= interval + kDeadlineMs + 2500, // slack: a loaded host, ASan
                     qPrintable(QStringLiteral("%1 ms (interval %2 ms)").arg(timedOut.t - t0).arg(interval)));
            QVERIFY(fault::waitFor([&] { return m.status().state != State::Connected; }, 2000));
            // Stay frozen through at least one reconnect attempt: it begins, and times out (connectTimeoutS).
            const auto attemptFailed = [&] {
                bool connecting = false;
                for (const auto& e : rec.status)
                    if (e.t >= t0 && e.state == State::Connecting)
                        connecting = true;
                    else if (connecting && e.t >= t0 && e.state == State::Disconnected)
                        return true;
                return false;
            };
            QVERIFY2(fault::waitFor(attemptFailed, 20000), qPrintable(describe(rec)));
            QVERIFY(guiThreadWasResponsive());
            qInfo("threads while frozen: %d (baseline %d; the cancel request waits for the postmaster)",
                  fault::threadCount(), baselineThreads);

            probe_.start();
            const qint64 t1 = rec.now();
            srv_->thawAll();
            QVERIFY2(fault::waitFor([&] { return rec.freshAfter(t1, first.serverNow) != nullptr; }, 15000),
                     qPrintable(describe(rec)));
            QVERIFY(fault::waitFor([&] { return m.status().state == State::Connected; }, 2000));
            QVERIFY(guiThreadWasResponsive());
            // The detached cancel thread finished once the postmaster answered.
            QVERIFY2(fault::waitFor([&] { return fault::threadCount() <= baselineThreads; }, 10000),
                     qPrintable(QStringLiteral("%1 threads, baseline %2")
                                    .arg(fault::threadCount())
                                    .arg(baselineThreads)));
            QVERIFY(fault::waitFor([&] { return fault::consoleBackends(srv_->dsn()) <= 1; }, 10000));
            logErrors(rec, t0, "frozen server");
        }
        verifyNoConsoleBackendLeft();
    }

    // Only the console's backend frozen: the deadline fires, the console abandons that session and
    // reconnects to a fresh backend while the old one is still stopped.
    void frozenConsoleBackend()
    {
        {
            Monitor m(config());
            Recorder rec(m);
            m.start();
            QVERIFY(waitConnected(m, rec));
            const ShotEvent first = *rec.lastOk();
            const int baselineThreads = fault::threadCount();
            probe_.start();
            const qint64 t0 = rec.now();
            srv_->freeze({pid_t(first.backendPid)});
            QVERIFY2(fault::waitFor([&] { return rec.failedAfter(t0) != nullptr; }, kDeadlineMs + 5000),
                     qPrintable(describe(rec)));
            QCOMPARE(rec.failedAfter(t0)->error.kind, DbError::Kind::Timeout);
            QVERIFY2(
                fault::waitFor(
                    [&] { return rec.freshAfter(t0, first.serverNow, first.backendPid) != nullptr; }, 10000),
                qPrintable(describe(rec)));
            QVERIFY(guiThreadWasResponsive());

            srv_->thawAll();
            // The abandoned backend sees the closed socket and exits: one console backend remains.
            QVERIFY(fault::waitFor([&] { return !fault::processExists(first.backendPid); }, 10000));
            QVERIFY(fault::waitFor([&] { return fault::consoleBackends(srv_->dsn()) == 1; }, 5000));
            QVERIFY(fault::waitFor([&] { return fault::threadCount() <= baselineThreads; }, 10000));
            logErrors(rec, t0, "frozen console backend");
        }
        verifyNoConsoleBackendLeft();
    }

    // Closing the window (or switching profile) while the server hangs: the GUI thread joins the
    // polling thread, which must not sit out its connect or refresh deadline first. Monitor's
    // stopWorker() is expected to call Poller::requestStop() before joining; this drives a Poller
    // on a thread of its own exactly that way, with the default (long) deadlines.
    void stoppingDuringHangIsImmediate()
    {
        PollerConfig cfg = config();
        cfg.connect.connectTimeoutS = 10;
        cfg.refreshDeadlineMs = 5000;
        QThread th;
        auto* p = new Poller(cfg);
        p->moveToThread(&th);
        connect(&th, &QThread::finished, p, &QObject::deleteLater);
        QObject ctx;
        int oks = 0;
        QElapsedTimer sinceAnswer;
        connect(p, &Poller::snapshotReady, &ctx, [&](const Snapshot& s) {
            oks += s.ok ? 1 : 0;
            sinceAnswer.start();
        });
        th.start();
        QMetaObject::invokeMethod(p, &Poller::start, Qt::QueuedConnection);
        auto joinGuard = qScopeGuard([&] {
            if (th.isRunning()) { // then the Poller is alive: it is deleted when the thread finishes
                p->requestStop();
                th.quit();
                th.wait();
            }
        });
        QVERIFY(fault::waitFor([&] { return oks > 0; }, 10000));
        const int baselineThreads = fault::threadCount();

        srv_->freeze({srv_->postmasterPid()});
        srv_->freeze(srv_->childPids());
        // A refresh is due and waits for the frozen server: no answer for longer than the interval.
        QVERIFY(fault::waitFor([&] { return sinceAnswer.elapsed() > kIntervalMs + 100; }, 10000));
        QElapsedTimer joined;
        joined.start();
        p->requestStop();
        QMetaObject::invokeMethod(p, &Poller::stop, Qt::QueuedConnection);
        th.quit();
        QVERIFY(th.wait(10000));
        qInfo("joined the polling thread %lld ms after requestStop()", joined.elapsed());
        QVERIFY2(joined.elapsed() < kFrameBudgetMs, qPrintable(QString::number(joined.elapsed())));
        srv_->thawAll();
        QVERIFY(fault::waitFor([&] { return fault::threadCount() <= baselineThreads; }, 10000));
        verifyNoConsoleBackendLeft();
    }

    // Point 6: many reconnect cycles leak neither sessions nor threads.
    void repeatedTerminationsDoNotLeak()
    {
        {
            Monitor m(config());
            Recorder rec(m);
            m.start();
            QVERIFY(waitConnected(m, rec));
            const int baselineThreads = fault::threadCount();
            int maxBackends = 0;
            for (int round = 0; round < 20; ++round) {
                const ShotEvent cur = *rec.lastOk();
                const qint64 t0 = rec.now();
                QVERIFY(fault::exec(srv_->dsn(),
                                    QStringLiteral("SELECT pg_terminate_backend(%1)").arg(cur.backendPid)));
                QVERIFY2(
                    fault::waitFor(
                        [&] { return rec.freshAfter(t0, cur.serverNow, cur.backendPid) != nullptr; }, 10000),
                    qPrintable(QStringLiteral("round %1\n%2").arg(round).arg(describe(rec))));
                // Once the terminated backend has exited, ours is the only session left.
                QVERIFY(fault::waitFor([&] { return !fault::processExists(cur.backendPid); }, 5000));
                maxBackends = std::max(maxBackends, fault::consoleBackends(srv_->dsn()));
            }
            QVERIFY2(maxBackends <= 1, qPrintable(QString::number(maxBackends)));
            QVERIFY(fault::waitFor([&] { return fault::threadCount() <= baselineThreads; }, 5000));
        }
        verifyNoConsoleBackendLeft();
    }
};

QTEST_GUILESS_MAIN(TestFaultRecovery)
#include "tst_fault_recovery.moc"
