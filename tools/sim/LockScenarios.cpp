// Scenarios 3–5 and 7: the pinned pool, lock-wait chains, deadlocks and lock-table pressure.
#include "sim/Scenarios.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <memory>

namespace lw::sim::detail {

namespace {

using SessionList = std::vector<std::unique_ptr<Session>>;

bool connectAll(Runtime& rt, SessionList& sessions, const QString& scenario)
{
    for (auto& s : sessions)
        if (!ensureConnected(rt, *s, scenario))
            return false;
    return true;
}

void closeAll(SessionList& sessions)
{
    for (auto& s : sessions)
        s->close();
}

// Reports a failure unless it is just the stop; closes the sessions so the next round starts clean.
void failRound(const ScenarioEnv& env, SessionList& sessions, const Session& who, const Res& r)
{
    if (!r.stopped && !env.rt->stopping()) {
        env.error(who.who(), QStringLiteral("%1: %2").arg(who.who(), r.describe()));
        closeAll(sessions);
        env.rt->sleepFor(1.0);
    }
}

// Keys of the simulator's own advisory locks: "LW" in the high bits keeps them apart from others'.
qint64 advisoryKey(int instance, qint64 offset)
{
    return (qint64(0x4C57) << 48) + (qint64(instance) << 32) + offset;
}

} // namespace

std::vector<ThreadBody> makePinnedPool(const ScenarioEnv& env, const ScenarioParams& p)
{
    const int poolSize = p.integer(QStringLiteral("pool"));
    const int waiters = p.integer(QStringLiteral("waiters"));
    const double hold = p.num(QStringLiteral("hold"));
    const double pause = p.num(QStringLiteral("pause"));
    const QString prefix = p.str(QStringLiteral("prefix"));
    const QString app = p.str(QStringLiteral("app"));
    Runtime* rt = env.rt;
    return {[=] {
        // The application's pool: P connections, all with the application's name.
        SessionList pool;
        for (int i = 0; i < poolSize; ++i)
            pool.push_back(std::make_unique<Session>(*rt, app));
        while (!rt->stopping()) {
            if (!connectAll(*rt, pool, env.scenario))
                continue;
            // P jobs each check out a connection and take their job's session-level lock on it; the
            // connection goes back to idle still holding the lock, and each job now needs a second
            // connection for its actual work: the pool has none left, and the server sees no wait.
            QStringList jobs;
            bool failed = false;
            for (int i = 0; i < poolSize && !failed; ++i) {
                const QString job = QStringLiteral("%1-%2").arg(prefix).arg(i + 1);
                Res r = pool[size_t(i)]->exec("SELECT pg_try_advisory_lock(hashtext($1))", {job.toUtf8()});
                if (!r.ok) {
                    failRound(env, pool, *pool[size_t(i)], r);
                    failed = true;
                    break;
                }
                if (r.text(0, 0) == QLatin1String("t")) {
                    jobs << job;
                    env.emitEvent(QStringLiteral("took"), job, pool[size_t(i)]->who(),
                                  QStringLiteral("%1 took session advisory lock hashtext('%2') and went idle "
                                                 "holding it")
                                      .arg(pool[size_t(i)]->who(), job));
                } else {
                    env.error(pool[size_t(i)]->who(),
                              QStringLiteral("%1: advisory lock for %2 is held elsewhere").arg(app, job));
                }
            }
            if (failed)
                continue;
            env.emitEvent(
                QStringLiteral("pinned"), prefix, app,
                QStringLiteral("pool of %1 connections of %2 pinned: every connection is idle holding a "
                               "session advisory lock (%3)")
                    .arg(poolSize)
                    .arg(app, jobs.join(QStringLiteral(", "))));
            const auto pinnedAt = Clock::now();
            const auto until = hold > 0 ? pinnedAt + std::chrono::milliseconds(qint64(hold * 1000))
                                        : Clock::time_point::max();
            while (!rt->stopping() && Clock::now() < until) {
                const double waited = std::chrono::duration<double>(Clock::now() - pinnedAt).count();
                env.emitEvent(
                    QStringLiteral("waiting"), prefix, app,
                    QStringLiteral("%1 jobs of %2 wait for a pool connection (0 of %3 free) for %4: "
                                   "a deadlock through the application the server cannot detect")
                        .arg(poolSize + waiters)
                        .arg(app)
                        .arg(poolSize)
                        .arg(seconds(std::round(waited))));
                rt->sleepUntil(std::min(until, Clock::now() + std::chrono::seconds(10)));
            }
            if (rt->stopping())
                break;
            // The pool's checkout timeout fires: the jobs fail and unlock, and the pool recovers.
            for (int i = 0; i < poolSize; ++i) {
                const QString job = QStringLiteral("%1-%2").arg(prefix).arg(i + 1);
                Res r =
                    pool[size_t(i)]->exec("SELECT pg_advisory_unlock(hashtext($1))", {job.toUtf8()}, false);
                if (r.ok && r.text(0, 0) == QLatin1String("t"))
                    env.emitEvent(QStringLiteral("released"), job, pool[size_t(i)]->who(),
                                  QStringLiteral("%1 gave up after the pool timeout and unlocked %2")
                                      .arg(pool[size_t(i)]->who(), job));
            }
            rt->sleepFor(pause);
        }
        closeAll(pool); // closing the sessions releases their session-level locks
    }};
}

std::vector<ThreadBody> makeLockWaits(const ScenarioEnv& env, const ScenarioParams& p)
{
    const int depth = p.integer(QStringLiteral("depth"));
    const QString kind = p.str(QStringLiteral("kind"));
    const double hold = p.num(QStringLiteral("hold"));
    const double pause = p.num(QStringLiteral("pause"));
    Runtime* rt = env.rt;
    const int instance = rt->nextInstance();
    const int ordinal = rt->nextOrdinal(QStringLiteral("lock-waits"));
    QStringList kinds;
    if (kind != QLatin1String("row"))
        kinds << QStringLiteral("advisory");
    if (kind != QLatin1String("advisory"))
        kinds << QStringLiteral("row");

    std::vector<ThreadBody> out;
    for (const QString& k : kinds) {
        out.push_back([=] {
            const bool advisory = k == QLatin1String("advisory");
            SessionList chain;
            for (int i = 0; i < depth; ++i)
                chain.push_back(std::make_unique<Session>(*rt, QStringLiteral("sim-lockwait-%1-%2-%3")
                                                                   .arg(advisory ? "adv" : "row")
                                                                   .arg(ordinal)
                                                                   .arg(i)));
            // Each link i holds its own lock, then asks for link i-1's: i waits for i-1, which waits
            // for i-2 … down to the head, which holds its lock and sleeps in its transaction.
            const char* lockSql = advisory ? "SELECT pg_advisory_xact_lock($1::bigint)"
                                           : "UPDATE public.sim_rows SET touched_at = now(), touched_by = $2 "
                                             "WHERE id = $1::int";
            auto param = [&](int i) -> Params {
                if (advisory)
                    return {QByteArray::number(advisoryKey(instance, i))};
                return {QByteArray::number(instance * 100 + i), chain[size_t(i)]->appName().toUtf8()};
            };
            auto lockName = [&](int i) {
                return advisory ? QStringLiteral("advisory key %1").arg(advisoryKey(instance, i))
                                : QStringLiteral("sim_rows id %1").arg(instance * 100 + i);
            };
            while (!rt->stopping()) {
                if (!connectAll(*rt, chain, env.scenario))
                    continue;
                if (!advisory) {
                    Res r = chain[0]->exec(
                        "INSERT INTO public.sim_rows(id) SELECT generate_series($1::int, $2::int) "
                        "ON CONFLICT (id) DO NOTHING",
                        {QByteArray::number(instance * 100), QByteArray::number(instance * 100 + depth)});
                    if (!r.ok) {
                        failRound(env, chain, *chain[0], r);
                        continue;
                    }
                }
                bool failed = false;
                for (int i = 0; i < depth && !failed; ++i) {
                    Session& s = *chain[size_t(i)];
                    Res r = s.exec("BEGIN");
                    if (r.ok)
                        r = s.exec(lockSql, param(i));
                    if (!r.ok) {
                        failRound(env, chain, s, r);
                        failed = true;
                    } else if (i > 0 && !s.send(lockSql, param(i - 1))) {
                        Res notSent;
                        notSent.message = QStringLiteral("cannot send the lock request");
                        failRound(env, chain, s, notSent);
                        failed = true;
                    }
                }
                if (failed) {
                    closeAll(chain);
                    continue;
                }
                QStringList links;
                for (int i = depth - 1; i >= 0; --i)
                    links << QStringLiteral("pid %1").arg(chain[size_t(i)]->pid());
                for (int i = 1; i < depth; ++i)
                    env.emitEvent(
                        QStringLiteral("waiting"), lockName(i - 1), chain[size_t(i)]->who(),
                        QStringLiteral("%1 waits for %2 held by %3")
                            .arg(chain[size_t(i)]->who(), lockName(i - 1), chain[size_t(i - 1)]->who()));
                env.emitEvent(QStringLiteral("waiting"), {}, {},
                              QStringLiteral("blocking chain of %1 on %2 locks: %3")
                                  .arg(depth)
                                  .arg(k, links.join(QStringLiteral(" → "))));
                if (!rt->sleepFor(hold))
                    break;
                // Unwind from the head: each commit grants the next link its lock.
                for (int i = 0; i < depth && !failed; ++i) {
                    Session& s = *chain[size_t(i)];
                    Res r = i > 0 ? s.wait() : Res{};
                    if (i > 0 && !r.ok) {
                        failRound(env, chain, s, r);
                        failed = true;
                        break;
                    }
                    r = s.exec("COMMIT", {}, false);
                    if (!r.ok) {
                        failRound(env, chain, s, r);
                        failed = true;
                    }
                }
                if (failed) {
                    closeAll(chain);
                    continue;
                }
                env.emitEvent(QStringLiteral("released"), {}, {},
                              QStringLiteral("blocking chain on %1 locks released from its head").arg(k));
                rt->sleepFor(pause);
            }
            closeAll(chain); // cancels the waits still pending, then closes
        });
    }
    return out;
}

std::vector<ThreadBody> makeDeadlocks(const ScenarioEnv& env, const ScenarioParams& p)
{
    const int pairs = p.integer(QStringLiteral("pairs"));
    const double every = p.num(QStringLiteral("every"));
    Runtime* rt = env.rt;
    std::vector<ThreadBody> out;
    for (int pair = 1; pair <= pairs; ++pair) {
        const int instance = rt->nextInstance();
        const int ordinal = rt->nextOrdinal(QStringLiteral("deadlock"));
        out.push_back([=] {
            SessionList s;
            s.push_back(std::make_unique<Session>(*rt, QStringLiteral("sim-deadlock-%1a").arg(ordinal)));
            s.push_back(std::make_unique<Session>(*rt, QStringLiteral("sim-deadlock-%1b").arg(ordinal)));
            Session& a = *s[0];
            Session& b = *s[1];
            const QByteArray idA = QByteArray::number(instance * 100 + 1);
            const QByteArray idB = QByteArray::number(instance * 100 + 2);
            const char* update =
                "UPDATE public.sim_accounts SET balance = balance + $2::bigint WHERE id = $1::int";
            while (!rt->stopping()) {
                if (!connectAll(*rt, s, env.scenario))
                    continue;
                Res r =
                    a.exec("INSERT INTO public.sim_accounts(id, balance) VALUES ($1::int, 0), ($2::int, 0) "
                           "ON CONFLICT (id) DO NOTHING",
                           {idA, idB});
                // A transfer A→B and a transfer B→A, each locking its source row first.
                if (r.ok)
                    r = a.exec("BEGIN");
                if (r.ok)
                    r = a.exec(update, {idA, "-1"});
                if (r.ok)
                    r = b.exec("BEGIN");
                if (r.ok)
                    r = b.exec(update, {idB, "-1"});
                if (!r.ok) {
                    failRound(env, s, a, r);
                    closeAll(s);
                    continue;
                }
                if (!a.send(update, {idB, "1"})) {
                    closeAll(s);
                    continue;
                }
                Res rb = b.exec(update, {idA, "1"}); // closes the cycle; one of the two is aborted
                Res ra = a.wait();
                const bool aDied = ra.sqlstate == QLatin1String("40P01");
                const bool bDied = rb.sqlstate == QLatin1String("40P01");
                // A deadlock the server detected counts even when the stop cancelled the other side.
                if (rt->stopping() && !aDied && !bDied)
                    break;
                if (aDied || bDied) {
                    Session& victim = aDied ? a : b;
                    Session& survivor = aDied ? b : a;
                    env.emitEvent(
                        QStringLiteral("deadlock"), {}, victim.who(),
                        QStringLiteral("deadlock detected between %1 and %2 updating sim_accounts rows %3 "
                                       "and %4 in opposite order: PostgreSQL aborted %1")
                            .arg(victim.who(), survivor.who(), QString::fromLatin1(idA),
                                 QString::fromLatin1(idB)));
                } else {
                    env.error(a.who(),
                              QStringLiteral("expected a deadlock between %1 and %2: %3 / %4")
                                  .arg(a.who(), b.who(), ra.ok ? QStringLiteral("ok") : ra.describe(),
                                       rb.ok ? QStringLiteral("ok") : rb.describe()));
                }
                if (rt->stopping())
                    break;
                Res ea = a.exec(ra.ok ? "COMMIT" : "ROLLBACK", {}, false);
                Res eb = b.exec(rb.ok ? "COMMIT" : "ROLLBACK", {}, false);
                if (!ea.ok || !eb.ok)
                    closeAll(s);
                rt->sleepFor(every);
            }
            closeAll(s);
        });
    }
    return out;
}

std::vector<ThreadBody> makeLockPressure(const ScenarioEnv& env, const ScenarioParams& p)
{
    const double fraction = p.num(QStringLiteral("fraction"));
    const double hold = p.num(QStringLiteral("hold"));
    const double every = p.num(QStringLiteral("every"));
    const double cap = p.num(QStringLiteral("cap"));
    Runtime* rt = env.rt;
    const int instance = rt->nextInstance();
    return {[=] {
        Session s(*rt, QStringLiteral("sim-lock-pressure"));
        while (!rt->stopping()) {
            if (!ensureConnected(*rt, s, env.scenario))
                continue;
            Res set = s.exec("SELECT current_setting('max_locks_per_transaction')::int8, "
                             "current_setting('max_connections')::int8, "
                             "current_setting('max_prepared_transactions')::int8");
            if (!set.ok) {
                SessionList none;
                failRound(env, none, s, set);
                s.close();
                continue;
            }
            const qint64 perTx = set.text(0, 0).toLongLong();
            const qint64 conns = set.text(0, 1).toLongLong();
            const qint64 prepared = set.text(0, 2).toLongLong();
            const qint64 capacity = perTx * (conns + prepared);
            const qint64 target = qint64(std::ceil(fraction * double(capacity)));
            // Above 1 the nominal capacity is only a floor: keep going until 53200 or the hard cap.
            const qint64 limit =
                fraction > 1 ? std::max(target, qint64(std::ceil(cap * double(capacity)))) : target;
            const qint64 chunk = std::clamp<qint64>(capacity / 50, 1, 1000);
            const QString nominal =
                QStringLiteral("nominal lock-table capacity %1 = max_locks_per_transaction %2 × "
                               "(max_connections %3 + max_prepared_transactions %4)")
                    .arg(capacity)
                    .arg(perTx)
                    .arg(conns)
                    .arg(prepared);
            Res r = s.exec("BEGIN");
            qint64 taken = 0;
            while (r.ok && taken < limit) {
                const qint64 n = std::min(chunk, limit - taken);
                r = s.exec(
                    "SELECT count(pg_advisory_xact_lock(k)) FROM generate_series($1::int8, $2::int8) AS k",
                    {QByteArray::number(advisoryKey(instance, taken)),
                     QByteArray::number(advisoryKey(instance, taken + n - 1))});
                if (r.ok)
                    taken += n;
            }
            const double ratio = capacity > 0 ? double(taken) / double(capacity) : 0;
            if (!r.ok && r.sqlstate == QLatin1String("53200")) {
                env.emitEvent(
                    QStringLiteral("53200"), {}, s.who(),
                    QStringLiteral("out of shared memory (SQLSTATE 53200) after %1 advisory locks in one "
                                   "transaction (%2× the %3); rolled back")
                        .arg(taken)
                        .arg(ratio, 0, 'f', 2)
                        .arg(nominal));
            } else if (!r.ok) {
                if (r.stopped || rt->stopping())
                    break;
                SessionList none;
                failRound(env, none, s, r);
                s.close();
                continue;
            } else {
                QString text =
                    QStringLiteral("holding %1 advisory locks in one transaction for %2 (%3× the %4)")
                        .arg(taken)
                        .arg(seconds(hold))
                        .arg(ratio, 0, 'f', 2)
                        .arg(nominal);
                if (fraction > 1)
                    text += QStringLiteral("; no 53200 up to the cap of %1×: the nominal capacity is a floor")
                                .arg(cap);
                env.emitEvent(QStringLiteral("pressure"), {}, s.who(), text);
                rt->sleepFor(hold);
            }
            if (!s.exec("ROLLBACK", {}, false).ok)
                s.close();
            if (every <= 0) {
                while (rt->sleepFor(3600)) {
                }
                break;
            }
            rt->sleepFor(every);
        }
    }};
}

} // namespace lw::sim::detail
