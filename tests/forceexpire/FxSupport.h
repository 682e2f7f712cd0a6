#pragma once
// Test-side lease writer and helpers for the force-expire tests: the documented lease statements,
// run through libpq exactly as an application instance would, and "what the console showed"
// taken from a real monitoring refresh.
#include "ForceExpire.h"
#include "Poller.h"
#include "TestCluster.h"

#include <QTest>

#include <stdexcept>

namespace lw::fxtest {

// ShedLock's own DDL (its README, section "Postgres").
inline const char* kShedlockDdl =
    "CREATE TABLE shedlock(name varchar(64) PRIMARY KEY, lock_until timestamp, locked_at timestamp, "
    "locked_by varchar(255))";

inline const char* kLeasesDdl =
    "CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
    "expires_at timestamptz)";

// One application instance: take (only an expired row is replaced), renew (guarded by the holder).
class LeaseWriter
{
public:
    LeaseWriter(const QString& dsn, QString holder) : holder_(std::move(holder))
    {
        pg::ConnectOptions o;
        o.dsn = dsn;
        o.readOnly = false;
        o.applicationName = QStringLiteral("fx-writer");
        const DbError e = conn_.connect(o);
        if (e.isError())
            throw std::runtime_error(e.toDisplayString().toStdString());
    }
    const QString& holder() const { return holder_; }

    bool take(const QString& name, double ttlS)
    {
        return run("INSERT INTO leases (name, holder, taken_at, expires_at) VALUES ($1, $2, now(), now() + "
                   "make_interval(secs => $3::float8)) ON CONFLICT (name) DO UPDATE SET holder = "
                   "EXCLUDED.holder, taken_at = EXCLUDED.taken_at, expires_at = EXCLUDED.expires_at WHERE "
                   "leases.expires_at < now() RETURNING true",
                   name, ttlS);
    }
    bool renew(const QString& name, double ttlS)
    {
        return run("UPDATE leases SET expires_at = now() + make_interval(secs => $3::float8) WHERE name = $1 "
                   "AND holder = $2 RETURNING true",
                   name, ttlS);
    }

private:
    bool run(const QByteArray& sql, const QString& name, double ttlS)
    {
        pg::ResultPtr r;
        const DbError e = conn_.exec({sql, {name.toUtf8(), holder_.toUtf8(), QByteArray::number(ttlS)}},
                                         r, pg::Clock::now() + std::chrono::seconds(10));
        if (e.isError())
            throw std::runtime_error(e.toDisplayString().toStdString());
        return PQntuples(r.get()) == 1;
    }

    QString holder_;
    pg::Connection conn_;
};

inline PollerConfig monitorConfig(const QString& dsn, bool operatorMode = true)
{
    PollerConfig c;
    c.connect.dsn = dsn;
    c.intervalMs = 200;
    c.operatorMode = operatorMode;
    return c;
}

// What the console shows: one real monitoring refresh, the row named `name` as a target.
inline ForceExpireTarget shownTarget(const PollerConfig& cfg, const QString& name, bool acknowledgedAlive = false)
{
    Poller p(cfg);
    const Snapshot s = p.refreshOnce();
    if (!s.ok || s.leasesError)
        throw std::runtime_error(
            "refresh failed: " +
            (s.ok ? s.leasesError->toDisplayString() : s.error.toDisplayString()).toStdString());
    for (const LeaseRow& r : s.leases) {
        if (r.name != name)
            continue;
        ForceExpireTarget t;
        t.name = r.name;
        t.holder = r.holder;
        t.takenAt = r.takenAt;
        t.expiresAt = r.expiresAt;
        t.acknowledgedAlive = acknowledgedAlive;
        return t;
    }
    throw std::runtime_error("lease not shown: " + name.toStdString());
}

inline ForceExpireRequest requestFor(const PollerConfig& cfg)
{
    ForceExpireRequest r = forceExpireRequestFor(cfg);
    r.lockTimeoutMs = 500;
    r.statementTimeoutMs = 3000;
    return r;
}

} // namespace lw::fxtest
