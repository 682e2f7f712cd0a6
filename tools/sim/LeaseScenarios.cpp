// Scenarios 1 and 2: lease workers, and the crashed / disconnected holders with a standby that takes
// their leases over once they expire.
#include "sim/LeaseClient.h"
#include "sim/Scenarios.h"

#include <algorithm>

namespace lw::sim::detail {

namespace {

Clock::time_point after(double s)
{
    return Clock::now() + std::chrono::microseconds(qint64(s * 1e6));
}

// Reports a failed statement. Returns false when the loop should end (stopping).
bool reportFailure(const ScenarioEnv& env, Session& s, const Res& f)
{
    if (f.stopped || env.rt->stopping())
        return false;
    env.error(s.who(), QStringLiteral("%1: %2").arg(s.who(), f.describe()));
    if (f.lost)
        s.close(); // ensureConnected reconnects on the next round
    else
        env.rt->sleepFor(1.0);
    return true;
}

struct WorkerConfig
{
    QString app;
    qint64 pidLike = 0;
    QStringList leases;
    double ttl = 6;
    double work = 4;
    double interval = 1;
    double clockSkew = 0; // seconds this instance's clock runs ahead of the server's (taken_at)
    bool standby = false; // only takes over existing (expired) rows; never starts a lease itself
    quint64 stream = 0;
};

// An application instance running jobs under leases: tries each free lease every interval, renews
// every TTL/4 while working, releases when the work is done, and releases everything when stopped.
void runLeaseWorker(const ScenarioEnv& env, const WorkerConfig& c)
{
    Runtime& rt = *env.rt;
    Session s(rt, c.app);
    LeaseClient lc(s, c.ttl, c.clockSkew);
    std::mt19937_64 jitterRng = rt.rng(c.stream);
    std::uniform_real_distribution<double> jitter(0.75, 1.25);
    struct Slot
    {
        QString name;
        std::mt19937_64 tokens; // own stream per lease: the holder sequence does not depend on timing
        QString nextHolder;
        QString holder;
        bool held = false;
        Clock::time_point takenAt, nextTry, nextRenew, workEnd;
    };
    std::vector<Slot> jobSlots;
    for (qsizetype k = 0; k < c.leases.size(); ++k) {
        Slot sl;
        sl.name = c.leases[k];
        sl.tokens = rt.rng(c.stream ^ (quint64(k + 1) << 20));
        sl.nextHolder = makeHolder(rt, c.pidLike, sl.tokens);
        sl.nextTry = after(c.interval * jitter(jitterRng) * 0.5); // staggered start
        jobSlots.push_back(std::move(sl));
    }

    while (!rt.stopping()) {
        if (!ensureConnected(rt, s, env.scenario))
            continue;
        bool failed = false;
        for (Slot& sl : jobSlots) {
            const auto now = Clock::now();
            if (sl.held && now >= sl.workEnd) {
                Res f;
                const Outcome o = lc.release(sl.name, sl.holder, &f);
                if (o == Outcome::Failed) {
                    reportFailure(env, s, f);
                    failed = true;
                    break;
                }
                sl.held = false;
                sl.nextTry = after(c.interval * jitter(jitterRng));
                const double worked = std::chrono::duration<double>(now - sl.takenAt).count();
                if (o == Outcome::Done)
                    env.emitEvent(QStringLiteral("released"), sl.name, sl.holder,
                                  QStringLiteral("%1 released %2 after %3 of work")
                                      .arg(s.who(), sl.name, seconds(worked)));
                else
                    env.emitEvent(
                        QStringLiteral("lost"), sl.name, sl.holder,
                        lostText(sl.name, lc.currentHolder(sl.name), QStringLiteral("before releasing")));
            } else if (sl.held && now >= sl.nextRenew) {
                Res f;
                const Outcome o = lc.renew(sl.name, sl.holder, &f);
                if (o == Outcome::Failed) {
                    reportFailure(env, s, f);
                    failed = true;
                    break;
                }
                if (o == Outcome::Done) {
                    sl.nextRenew = after(c.ttl / 4);
                    env.emitEvent(
                        QStringLiteral("renewed"), sl.name, sl.holder,
                        QStringLiteral("%1 renewed %2 for %3").arg(s.who(), sl.name, seconds(c.ttl)));
                } else {
                    sl.held = false;
                    sl.nextTry = after(c.interval * jitter(jitterRng));
                    env.emitEvent(QStringLiteral("lost"), sl.name, sl.holder,
                                  lostText(sl.name, lc.currentHolder(sl.name), QStringLiteral("on renewal")));
                }
            } else if (!sl.held && now >= sl.nextTry) {
                const TakeResult t = lc.take(sl.name, sl.nextHolder, c.standby);
                if (!t.ok) {
                    reportFailure(env, s, t.failure);
                    failed = true;
                    break;
                }
                if (t.took) {
                    sl.held = true;
                    sl.holder = sl.nextHolder;
                    sl.nextHolder = makeHolder(rt, c.pidLike, sl.tokens);
                    sl.takenAt = Clock::now();
                    sl.nextRenew = after(c.ttl / 4);
                    sl.workEnd = after(c.work * jitter(jitterRng));
                    if (t.tookOver)
                        env.emitEvent(QStringLiteral("took-over"), sl.name, sl.holder,
                                      QStringLiteral("%1 took over %2 from %3 (expired %4 ago)")
                                          .arg(s.who(), sl.name, t.previousHolder, seconds(t.expiredForS)));
                    else
                        env.emitEvent(
                            QStringLiteral("took"), sl.name, sl.holder,
                            QStringLiteral("%1 took %2 for %3").arg(s.who(), sl.name, seconds(c.ttl)));
                } else {
                    sl.nextTry = after(c.interval * jitter(jitterRng));
                }
            }
        }
        if (failed)
            continue;
        Clock::time_point next = Clock::now() + std::chrono::seconds(1);
        for (const Slot& sl : jobSlots)
            next = std::min(next, sl.held ? std::min(sl.workEnd, sl.nextRenew) : sl.nextTry);
        rt.sleepUntil(next);
    }

    // Stopping: release what we hold, reconnecting once if the session was lost.
    const bool holdsAny =
        std::any_of(jobSlots.begin(), jobSlots.end(), [](const Slot& sl) { return sl.held; });
    if (holdsAny && !s.isOpen())
        s.connect();
    for (Slot& sl : jobSlots) {
        if (!sl.held || !s.isOpen())
            continue;
        if (lc.release(sl.name, sl.holder) == Outcome::Done)
            env.emitEvent(QStringLiteral("released"), sl.name, sl.holder,
                          QStringLiteral("%1 released %2 on shutdown").arg(s.who(), sl.name));
    }
}

// Takes `lease` (waiting every interval until it is free), then keeps renewing until `until`.
// Returns false if it never got the lease (stopping) or lost it.
bool takeAndHold(const ScenarioEnv& env, Session& s, LeaseClient& lc, const QString& lease,
                 const QString& holder, double ttl, double interval, double holdFor,
                 Clock::time_point* lastRenew)
{
    Runtime& rt = *env.rt;
    for (;;) {
        if (rt.stopping())
            return false;
        if (!ensureConnected(rt, s, env.scenario))
            continue;
        const TakeResult t = lc.take(lease, holder, false);
        if (!t.ok) {
            if (!reportFailure(env, s, t.failure))
                return false;
            continue;
        }
        if (t.took) {
            if (t.tookOver)
                env.emitEvent(QStringLiteral("took-over"), lease, holder,
                              QStringLiteral("%1 took over %2 from %3 (expired %4 ago)")
                                  .arg(s.who(), lease, t.previousHolder, seconds(t.expiredForS)));
            else
                env.emitEvent(QStringLiteral("took"), lease, holder,
                              QStringLiteral("%1 took %2 for %3").arg(s.who(), lease, seconds(ttl)));
            break;
        }
        rt.sleepFor(interval);
    }
    *lastRenew = Clock::now();
    const auto until = after(holdFor);
    while (Clock::now() < until) {
        const auto nextRenew = *lastRenew + std::chrono::microseconds(qint64(ttl / 4 * 1e6));
        if (!rt.sleepUntil(std::min(nextRenew, until)))
            return true; // stopping while holding: the caller decides about releasing
        if (Clock::now() < nextRenew)
            continue;
        Res f;
        const Outcome o = lc.renew(lease, holder, &f);
        if (o == Outcome::Failed) {
            // Unknown outcome (cancelled or connection lost): the holder still believes it holds.
            reportFailure(env, s, f);
            return true;
        }
        if (o == Outcome::NotHolder) {
            env.emitEvent(QStringLiteral("lost"), lease, holder,
                          lostText(lease, lc.currentHolder(lease), QStringLiteral("on renewal")));
            return false;
        }
        *lastRenew = Clock::now();
        env.emitEvent(QStringLiteral("renewed"), lease, holder,
                      QStringLiteral("%1 renewed %2 for %3").arg(s.who(), lease, seconds(ttl)));
    }
    return true;
}

} // namespace

std::vector<ThreadBody> makeLeaseWorkers(const ScenarioEnv& env, const ScenarioParams& p)
{
    std::vector<ThreadBody> out;
    QStringList leases;
    for (int k = 1; k <= p.integer(QStringLiteral("kinds")); ++k)
        leases << QStringLiteral("%1-%2").arg(p.str(QStringLiteral("prefix"))).arg(k);
    for (int i = 1; i <= p.integer(QStringLiteral("instances")); ++i) {
        WorkerConfig c;
        const int instance = env.rt->nextInstance();
        c.app =
            QStringLiteral("sim-lease-worker-%1").arg(env.rt->nextOrdinal(QStringLiteral("lease-worker")));
        c.pidLike = env.rt->pid() + instance;
        c.leases = leases;
        c.ttl = p.num(QStringLiteral("ttl"));
        c.work = p.num(QStringLiteral("work"));
        c.interval = p.num(QStringLiteral("interval"));
        // Only the last instance's clock is off: one skewed writer among healthy ones, as it happens.
        if (i == p.integer(QStringLiteral("instances")))
            c.clockSkew = p.num(QStringLiteral("skew"));
        c.stream = env.stream(quint64(i));
        out.push_back([env, c] { runLeaseWorker(env, c); });
    }
    return out;
}

std::vector<ThreadBody> makeCrashedHolder(const ScenarioEnv& env, const ScenarioParams& p)
{
    const double ttl = p.num(QStringLiteral("ttl"));
    const double interval = p.num(QStringLiteral("interval"));
    const double crashAfter = p.num(QStringLiteral("crash_after"));
    const double every = p.num(QStringLiteral("every"));
    const double outage = p.num(QStringLiteral("outage")) * ttl;
    const QString lease = p.str(QStringLiteral("lease"));
    const QString flakyLease = p.str(QStringLiteral("flaky_lease"));
    const bool flaky = p.integer(QStringLiteral("flaky")) != 0;
    Runtime* rt = env.rt;
    std::vector<ThreadBody> out;

    // The holder that crashes: takes the lease, renews for a while, then stops renewing without
    // releasing (its connection closes as a dead process's would). A restarted "process" (new pid,
    // new holder) comes back after `every` seconds.
    const int crashInstance = rt->nextInstance();
    out.push_back([=] {
        int cycle = 0;
        while (!rt->stopping()) {
            // Each cycle is a restarted process: another pid-like number, another holder.
            const qint64 pidLike = rt->pid() + crashInstance + 1000 * cycle;
            Session s(*rt, QStringLiteral("sim-crashed-holder"));
            LeaseClient lc(s, ttl);
            std::mt19937_64 tokens = rt->rng(env.stream(0x100 + quint64(cycle++)));
            const QString holder = makeHolder(*rt, pidLike, tokens);
            Clock::time_point lastRenew;
            const bool held = takeAndHold(env, s, lc, lease, holder, ttl, interval, crashAfter, &lastRenew);
            if (rt->stopping()) {
                // Stopped before the crash: a live holder releases like any other.
                if (held && lc.release(lease, holder) == Outcome::Done)
                    env.emitEvent(QStringLiteral("released"), lease, holder,
                                  QStringLiteral("%1 released %2 on shutdown").arg(s.who(), lease));
                return;
            }
            if (held) {
                const double left = ttl - std::chrono::duration<double>(Clock::now() - lastRenew).count();
                env.emitEvent(
                    QStringLiteral("crashed"), lease, holder,
                    QStringLiteral("%1 crashed holding %2: no renewal, no release; it expires in %3")
                        .arg(s.who(), lease, seconds(std::max(0.0, left))));
                s.close();
            }
            rt->sleepFor(every);
        }
    });

    // The holder that loses the database for longer than the TTL and comes back to find its lease
    // gone or someone else's.
    if (flaky) {
        const int instance = rt->nextInstance();
        out.push_back([=] {
            Session s(*rt, QStringLiteral("sim-flaky-holder"));
            LeaseClient lc(s, ttl);
            std::mt19937_64 tokens = rt->rng(env.stream(0x200));
            while (!rt->stopping()) {
                const QString holder = makeHolder(*rt, rt->pid() + instance, tokens);
                Clock::time_point lastRenew;
                if (!takeAndHold(env, s, lc, flakyLease, holder, ttl, interval, ttl / 2, &lastRenew)) {
                    rt->sleepFor(interval);
                    continue;
                }
                bool holds = true;
                if (!rt->stopping()) {
                    env.emitEvent(QStringLiteral("disconnected"), flakyLease, holder,
                                  QStringLiteral("%1 lost its database connection holding %2; away for %3, "
                                                 "longer than the TTL of %4")
                                      .arg(s.who(), flakyLease, seconds(outage), seconds(ttl)));
                    s.close();
                    rt->sleepFor(outage);
                    while (!rt->stopping() && !ensureConnected(*rt, s, env.scenario)) {
                    }
                    if (!rt->stopping()) {
                        Res f;
                        const Outcome o = lc.renew(flakyLease, holder, &f);
                        if (o == Outcome::NotHolder) {
                            holds = false;
                            env.emitEvent(
                                QStringLiteral("lost"), flakyLease, holder,
                                lostText(flakyLease, lc.currentHolder(flakyLease),
                                         QStringLiteral("while disconnected (renewal after %1 found it)")
                                             .arg(seconds(outage))));
                        } else if (o == Outcome::Done) {
                            env.emitEvent(
                                QStringLiteral("renewed"), flakyLease, holder,
                                QStringLiteral("%1 came back and still held %2").arg(s.who(), flakyLease));
                        } else {
                            reportFailure(env, s, f);
                        }
                    }
                }
                if (holds) {
                    if (!s.isOpen())
                        s.connect();
                    if (s.isOpen() && lc.release(flakyLease, holder) == Outcome::Done)
                        env.emitEvent(QStringLiteral("released"), flakyLease, holder,
                                      QStringLiteral("%1 released %2").arg(s.who(), flakyLease));
                }
                rt->sleepFor(every);
            }
        });
    }

    // The standby: takes over the leases above once they have expired, works, releases.
    {
        WorkerConfig c;
        const int instance = rt->nextInstance();
        c.app = QStringLiteral("sim-standby");
        c.pidLike = rt->pid() + instance;
        c.leases = flaky ? QStringList{lease, flakyLease} : QStringList{lease};
        c.ttl = ttl;
        c.work = p.num(QStringLiteral("work"));
        c.interval = interval;
        c.standby = true;
        c.stream = env.stream(0x300);
        out.push_back([env, c] { runLeaseWorker(env, c); });
    }
    return out;
}

} // namespace lw::sim::detail
