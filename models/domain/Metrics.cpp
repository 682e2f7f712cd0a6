#include "Metrics.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace lw {

DatabaseMetrics measureRefresh(const Snapshot& s, const Analysis& a)
{
    DatabaseMetrics m;
    m.everAnswered = true;
    m.up = s.ok;
    m.serverNow = s.serverNow;
    m.refreshS = s.clientWaitMs / 1000.0;
    m.refreshServerS = s.serverMs / 1000.0;

    // Bounded label set: every pool that matters to the findings (a configured size, advisory
    // locks held idle) by name, the biggest others up to kMetricsPools, the rest summed as "other"
    // (ad-hoc sessions and pods that come and go would otherwise grow the series without end).
    std::vector<const PoolGroup*> named, others;
    for (const PoolGroup& g : a.groups())
        (g.poolSize || g.pinned || g.idleHoldingAdvisory > 0 ? named : others).push_back(&g);
    std::stable_sort(others.begin(), others.end(), [](const PoolGroup* x, const PoolGroup* y) { return x->total > y->total; });
    const size_t room = named.size() < size_t(kMetricsPools) ? size_t(kMetricsPools) - named.size() : 0;
    PoolGroup rest;
    rest.key = QStringLiteral("other");
    for (size_t i = 0; i < others.size(); ++i) {
        if (i < room) {
            named.push_back(others[i]);
            continue;
        }
        const PoolGroup& g = *others[i];
        rest.total += g.total;
        rest.waitingOnLock += g.waitingOnLock;
        rest.active += g.active;
        rest.idle += g.idle;
        rest.idleInTransaction += g.idleInTransaction;
    }
    if (rest.total > 0)
        named.push_back(&rest);
    for (const PoolGroup* gp : named) {
        const PoolGroup& g = *gp;
        PoolMetrics p;
        p.pool = g.key;
        p.total = g.total;
        p.waitingOnLock = g.waitingOnLock;
        p.active = g.active;
        p.idle = g.idle;
        p.idleInTransaction = g.idleInTransaction;
        p.pinnedConnections = g.idleHoldingAdvisory;
        p.size = g.poolSize;
        p.pinned = g.pinned;
        m.pools.push_back(std::move(p));
    }

    // The sessions the idle-holder cards are about: every holder of a granted advisory lock that is idle.
    const SessionRows& sessions = s.sessions;
    for (const HolderSide& side : a.sides) {
        if (!a.heldByPid.contains(side.pid) || side.session < 0 || size_t(side.session) >= sessions.size())
            continue;
        const SessionRow& r = sessions[size_t(side.session)];
        if (!isIdle(r) || !r.stateChange)
            continue;
        ++m.idleAdvisoryHolders;
        m.longestIdleHoldS = std::max(m.longestIdleHoldS, s.serverNow - *r.stateChange);
    }
    for (const BlockNode& n : a.blocking.nodes) {
        if (n.waitingS < 0)
            continue;
        ++m.lockWaiters;
        m.longestLockWaitS = std::max(m.longestLockWaitS, n.waitingS);
    }
    m.lockTableEntries = s.cluster.lockTableEntries;
    m.lockTableCapacity = s.cluster.lockTableCapacity();
    m.connections = a.connectionsUsed;
    m.connectionLimit = a.connectionBudget;
    m.deadlocks = s.cluster.deadlocks;
    return m;
}

void countFindings(DatabaseMetrics& m, const std::vector<Finding>& findings)
{
    m.findings.clear();
    for (const Finding& f : findings)
        ++m.findings[{findingKindKey(f.kind), std::clamp(f.severity, 1, 3)}];
}

namespace {

QByteArray number(double v)
{
    if (std::isnan(v))
        return QByteArrayLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return QByteArray::number(qint64(v));
    return QByteArray::number(v, 'g', 15);
}

// Label values may hold anything (a profile name, a DSN without its password): the format's escapes.
QByteArray escaped(const QString& v)
{
    QByteArray out;
    const QByteArray u = v.toUtf8();
    out.reserve(u.size());
    for (char c : u) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

using Labels = std::vector<std::pair<const char*, QString>>;

class Writer
{
public:
    // One family: its samples for every database, written by `each`.
    void family(const char* name, const char* type, const char* help,
                const std::vector<DatabaseMetrics>& dbs,
                const std::function<void(const DatabaseMetrics&)>& each)
    {
        name_ = name;
        const qsizetype mark = out_.size();
        out_ += "# HELP ";
        out_ += name;
        out_ += ' ';
        out_ += help;
        out_ += "\n# TYPE ";
        out_ += name;
        out_ += ' ';
        out_ += type;
        out_ += '\n';
        const qsizetype header = out_.size();
        for (const DatabaseMetrics& d : dbs)
            each(d);
        if (out_.size() == header)
            out_.truncate(mark); // a family without samples is left out
    }
    void sample(const DatabaseMetrics& d, const Labels& labels, double v)
    {
        out_ += name_;
        out_ += "{database=\"";
        out_ += escaped(d.database);
        out_ += '"';
        for (const auto& [k, lv] : labels) {
            out_ += ',';
            out_ += k;
            out_ += "=\"";
            out_ += escaped(lv);
            out_ += '"';
        }
        out_ += "} ";
        out_ += number(v);
        out_ += '\n';
    }
    QByteArray take() { return std::move(out_); }

private:
    QByteArray out_;
    const char* name_ = "";
};

QString severityLabel(int severity)
{
    return severity >= 3 ? QStringLiteral("critical") : severity == 2 ? QStringLiteral("warning") : QStringLiteral("notice");
}

} // namespace

QByteArray prometheusText(const std::vector<DatabaseMetrics>& dbs)
{
    Writer w;
    const auto measured = [&](const std::function<void(const DatabaseMetrics&)>& f) {
        return [f](const DatabaseMetrics& d) {
            if (d.everAnswered)
                f(d);
        };
    };
    w.family("leasewatch_up", "gauge",
             "1 when the database answered its last refresh and is answering; 0 when it is not (the "
             "other series then hold the last answer's values).",
             dbs, [&](const DatabaseMetrics& d) { w.sample(d, {}, d.up ? 1 : 0); });
    w.family("leasewatch_last_answer_age_seconds", "gauge",
             "Seconds since the last good refresh, whose values the other series hold.", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.lastAnswerAgeS); }));
    w.family("leasewatch_server_now_timestamp_seconds", "gauge",
             "The database server's clock at the last good refresh (the clock leases are judged by).", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.serverNow); }));
    w.family("leasewatch_refresh_duration_seconds", "gauge",
             "The last good refresh, from sending its statements to the last byte of their results.", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.refreshS); }));
    w.family("leasewatch_refresh_server_seconds", "gauge",
             "Upper bound of the server's time spent on the last good refresh.", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.refreshServerS); }));

    w.family("leasewatch_leases", "gauge",
             "Leases by state, per lease table and the scheme (library) whose rules judge it.", dbs,
             measured([&](const DatabaseMetrics& d) {
                 for (const LeaseTableMetrics& t : d.leases)
                     for (int i = 0; i < kLeaseStateCount; ++i)
                         w.sample(d, {{"scheme", t.scheme}, {"table", t.table}, {"state", leaseStateKey(LeaseState(i))}},
                                  t.byState[size_t(i)]);
             }));
    w.family("leasewatch_lease_stale_oldest_seconds", "gauge",
             "How long ago the longest-stale lease of the table expired; 0 when none is stale.", dbs,
             measured([&](const DatabaseMetrics& d) {
                 for (const LeaseTableMetrics& t : d.leases)
                     w.sample(d, {{"scheme", t.scheme}, {"table", t.table}}, t.oldestStaleS);
             }));

    w.family("leasewatch_pool_connections", "gauge",
             "Connections of each client instance (client address and application_name), by state; "
             "idle_holding_advisory_lock ones are pinned out of the pool.",
             dbs, measured([&](const DatabaseMetrics& d) {
                 for (const PoolMetrics& p : d.pools) {
                     const std::pair<const char*, int> states[] = {
                         {"waiting_on_lock", p.waitingOnLock},
                         {"active", p.active},
                         {"idle_holding_advisory_lock", p.pinnedConnections},
                         {"idle", p.idle},
                         {"idle_in_transaction", p.idleInTransaction},
                         {"other", std::max(0, p.total - p.waitingOnLock - p.active - p.pinnedConnections - p.idle -
                                                   p.idleInTransaction)},
                     };
                     for (const auto& [state, n] : states)
                         w.sample(d, {{"pool", p.pool}, {"state", QString::fromLatin1(state)}}, n);
                 }
             }));
    w.family("leasewatch_pool_size", "gauge", "The instance's pool size, as configured in the profile.", dbs,
             measured([&](const DatabaseMetrics& d) {
                 for (const PoolMetrics& p : d.pools)
                     if (p.size)
                         w.sample(d, {{"pool", p.pool}}, *p.size);
             }));
    w.family("leasewatch_pool_pinned", "gauge",
             "1 when the instance's pool is pinned: its connections are idle holding advisory locks "
             "(the Overview's critical card).",
             dbs, measured([&](const DatabaseMetrics& d) {
                 for (const PoolMetrics& p : d.pools)
                     w.sample(d, {{"pool", p.pool}}, p.pinned ? 1 : 0);
             }));

    w.family("leasewatch_advisory_idle_holders", "gauge",
             "Sessions idle (or idle in transaction) while holding advisory locks.", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.idleAdvisoryHolders); }));
    w.family("leasewatch_advisory_idle_hold_longest_seconds", "gauge",
             "The longest idle time among sessions holding advisory locks; 0 when none.", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.longestIdleHoldS); }));
    w.family("leasewatch_lock_waiting_sessions", "gauge", "Sessions waiting on a lock held by another session.",
             dbs, measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.lockWaiters); }));
    w.family("leasewatch_lock_wait_longest_seconds", "gauge", "The longest current lock wait; 0 when none.", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.longestLockWaitS); }));
    w.family("leasewatch_lock_table_entries", "gauge",
             "Entries of the shared lock table in use (pg_locks rows that are not fast-path).", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.lockTableEntries); }));
    w.family("leasewatch_lock_table_capacity_entries", "gauge",
             "Approximate capacity of the shared lock table: max_locks_per_transaction × (max_connections "
             "+ max_prepared_transactions); past it, SQLSTATE 53200.",
             dbs, measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.lockTableCapacity); }));
    w.family("leasewatch_connections", "gauge", "Client connections to the server.", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.connections); }));
    w.family("leasewatch_connections_limit", "gauge",
             "Connections ordinary roles may open: max_connections − superuser_reserved_connections − reserved_connections (16+).", dbs,
             measured([&](const DatabaseMetrics& d) { w.sample(d, {}, d.connectionLimit); }));
    w.family("leasewatch_deadlocks_total", "counter",
             "Deadlocks detected in the database (pg_stat_database.deadlocks).", dbs,
             measured([&](const DatabaseMetrics& d) {
                 if (d.deadlocks >= 0)
                     w.sample(d, {}, double(d.deadlocks));
             }));
    w.family("leasewatch_findings", "gauge", "The Overview's current findings, by kind and severity.", dbs,
             [&](const DatabaseMetrics& d) {
                 for (const auto& [key, n] : d.findings)
                     w.sample(d, {{"kind", key.first}, {"severity", severityLabel(key.second)}}, n);
             });
    return w.take();
}

} // namespace lw
