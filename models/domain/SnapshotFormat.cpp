#include "SnapshotFormat.h"

#include "domain/LeaseTracker.h"
#include "domain/SqlText.h"
#include "domain/UtcTime.h"
#include "domain/Words.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSet>

#include <functional>

#include <algorithm>
#include <cmath>

namespace lw {

namespace {
QJsonValue isoOrNull(const std::optional<double>& epoch)
{
    if (!epoch || !std::isfinite(*epoch) || std::abs(*epoch) > 1e13)
        return QJsonValue::Null;
    return utcFromMSecs(qint64(*epoch * 1000.0)).toString(Qt::ISODateWithMs);
}

QJsonObject errorJson(const DbError& e)
{
    QJsonObject o;
    o[QStringLiteral("message")] = e.message;
    o[QStringLiteral("sqlstate")] = e.sqlstate.isEmpty() ? QJsonValue::Null : QJsonValue(e.sqlstate);
    o[QStringLiteral("text")] = e.toDisplayString();
    return o;
}
} // namespace

namespace {
QJsonArray findingsJson(const std::vector<Finding>& findings)
{
    QJsonArray out;
    for (const Finding& f : findings) {
        QJsonObject o;
        o[QStringLiteral("kind")] = findingKindKey(f.kind);
        o[QStringLiteral("severity")] = f.severity;
        o[QStringLiteral("subject")] = f.subject;
        o[QStringLiteral("title")] = f.title;
        o[QStringLiteral("explanation")] = f.explanation;
        o[QStringLiteral("fix")] = f.fix;
        out.append(o);
    }
    return out;
}

QJsonObject locksJson(const Snapshot& s)
{
    QJsonObject root;
    QJsonArray locks;
    QJsonArray groups;
    QJsonArray roots;
    if (s.analysis) {
        for (const LockView& v : s.analysis->locks) {
            QJsonObject o;
            const AdvisoryLockRow& l = v.lock;
            o[QStringLiteral("pid")] = l.pid;
            o[QStringLiteral("database")] = l.database;
            o[QStringLiteral("in_monitored_database")] = l.inMonitoredDb;
            if (l.twoKeys)
                o[QStringLiteral("keys")] = QJsonArray{l.key1, l.key2};
            else
                o[QStringLiteral("key")] =
                    QString::number(l.key); // string: JSON numbers lose int64 precision
            o[QStringLiteral("key_text")] = advisoryKeyText(l);
            o[QStringLiteral("name")] = v.name.isEmpty() ? QJsonValue::Null : QJsonValue(v.name);
            if (!v.collision.isEmpty())
                o[QStringLiteral("collision")] = QJsonArray::fromStringList(v.collision);
            o[QStringLiteral("mode")] = l.mode;
            o[QStringLiteral("granted")] = l.granted;
            o[QStringLiteral("wait_seconds")] =
                l.waitStart ? QJsonValue(s.serverNow - *l.waitStart) : QJsonValue::Null;
            o[QStringLiteral("session_level")] = v.sessionLevel;
            const QString finding = v.finding(s.serverNow, s.analysis->config.thresholds);
            o[QStringLiteral("finding")] = finding.isEmpty() ? QJsonValue::Null : QJsonValue(finding);
            if (v.session >= 0) {
                const SessionRow& ss = s.sessions[size_t(v.session)];
                QJsonObject so;
                so[QStringLiteral("user")] = ss.user;
                so[QStringLiteral("application_name")] = ss.applicationName;
                so[QStringLiteral("client_addr")] =
                    ss.clientAddr.isEmpty() ? QJsonValue::Null : QJsonValue(ss.clientAddr);
                so[QStringLiteral("client_port")] = ss.clientPort;
                so[QStringLiteral("state")] = ss.state;
                so[QStringLiteral("idle_seconds")] =
                    v.idleForS(s.serverNow) >= 0 ? QJsonValue(v.idleForS(s.serverNow)) : QJsonValue::Null;
                so[QStringLiteral("backend_start")] = isoOrNull(ss.backendStart);
                so[QStringLiteral("xact_start")] = isoOrNull(ss.xactStart);
                so[QStringLiteral("wait_event_type")] = ss.waitEventType;
                so[QStringLiteral("wait_event")] = ss.waitEvent;
                so[QStringLiteral("query")] = ss.query;
                o[QStringLiteral("session")] = so;
            }
            locks.append(o);
        }
        for (const PoolGroup& g : s.analysis->groups()) {
            QJsonObject o;
            o[QStringLiteral("group")] = g.key;
            o[QStringLiteral("application_name")] = g.applicationName;
            o[QStringLiteral("client_addr")] =
                g.clientAddr.isEmpty() ? QJsonValue::Null : QJsonValue(g.clientAddr);
            o[QStringLiteral("total")] = g.total;
            o[QStringLiteral("active")] = g.active;
            o[QStringLiteral("idle")] = g.idle;
            o[QStringLiteral("idle_in_transaction")] = g.idleInTransaction;
            o[QStringLiteral("waiting_on_lock")] = g.waitingOnLock;
            o[QStringLiteral("idle_holding_advisory_lock")] = g.idleHoldingAdvisory;
            o[QStringLiteral("pool_size")] = g.poolSize ? QJsonValue(*g.poolSize) : QJsonValue::Null;
            o[QStringLiteral("pinned")] = g.pinned;
            o[QStringLiteral("pinned_by")] = QJsonArray::fromStringList(g.pinnedLockNames);
            o[QStringLiteral("pinned_locks")] = g.pinnedLocks; // pinned_by names the first few of each
            groups.append(o);
        }
        const BlockingForest& f = s.analysis->blocking;
        std::function<QJsonObject(int, QSet<int>&)> node = [&](int pid, QSet<int>& seen) {
            QJsonObject o;
            seen.insert(pid);
            o[QStringLiteral("pid")] = pid;
            const auto it = f.nodes.constFind(pid);
            o[QStringLiteral("waiting_seconds")] =
                it != f.nodes.constEnd() && it->waitingS >= 0 ? QJsonValue(it->waitingS) : QJsonValue::Null;
            QJsonArray kids;
            if (it != f.nodes.constEnd())
                for (int c : it->children)
                    if (!seen.contains(c))
                        kids.append(node(c, seen));
            o[QStringLiteral("waiting_behind")] = kids;
            return o;
        };
        for (int r : f.roots) {
            QSet<int> seen;
            roots.append(node(r, seen));
        }
        QJsonArray cycles;
        for (const auto& c : f.cycles) {
            QJsonArray a;
            for (int p : c)
                a.append(p);
            cycles.append(a);
        }
        root[QStringLiteral("deadlock_cycles")] = cycles;
        QJsonArray hidden;
        for (const HiddenCycle& c : f.hiddenCycles) {
            QJsonArray pids;
            for (int p : c.pids)
                pids.append(p);
            hidden.append(QJsonObject{{QStringLiteral("pids"), pids},
                                      {QStringLiteral("snapshot_waiter"), c.snapshotWaiter},
                                      {QStringLiteral("free_by"), c.terminate ? QStringLiteral("terminate")
                                                                              : QStringLiteral("cancel")},
                                      {QStringLiteral("pid"), c.cancel}});
        }
        root[QStringLiteral("hidden_deadlock_cycles")] = hidden;
    }
    root[QStringLiteral("advisory_locks")] = locks;
    if (s.locksNotRead) // pg_locks locked: the locks above are an earlier read's
        root[QStringLiteral("advisory_locks_not_read")] = errorJson(*s.locksNotRead);
    root[QStringLiteral("pools")] = groups;
    root[QStringLiteral("blocking_tree")] = roots;
    return root;
}
} // namespace

QJsonObject snapshotToJson(const Snapshot& s, const LeaseTracker& leases, const std::vector<Finding>& findings)
{
    QJsonObject root;
    QJsonObject server;
    server[QStringLiteral("version")] = s.server.version;
    server[QStringLiteral("version_num")] = s.server.versionNum;
    server[QStringLiteral("database")] = s.server.database;
    server[QStringLiteral("user")] = s.server.user;
    server[QStringLiteral("now")] = isoOrNull(s.serverNow);
    root[QStringLiteral("server")] = server;
    root[QStringLiteral("ok")] = s.ok;
    if (!s.ok)
        root[QStringLiteral("error")] = errorJson(s.error);

    const double now = leases.serverNowEstimate();
    QJsonArray rows;
    for (int i = 0; i < leases.size(); ++i) {
        const auto& e = leases.entry(i);
        const LeaseRow& r = e.track.row;
        const LeaseState st = leases.stateAt(i, now);
        QJsonObject o;
        o[QStringLiteral("name")] = r.name;
        o[QStringLiteral("holder")] = r.holder ? QJsonValue(*r.holder) : QJsonValue::Null;
        // The parts the scheme's holder format carries; null where it has none (a host name has no pid).
        auto part = [&](const QString& v) { return e.holder.structured && !v.isEmpty() ? QJsonValue(v) : QJsonValue::Null; };
        o[QStringLiteral("holder_host")] = part(e.holder.host);
        o[QStringLiteral("holder_pid")] =
            e.holder.structured && e.holder.pid > 0 ? QJsonValue(e.holder.pid) : QJsonValue::Null;
        o[QStringLiteral("holder_token")] = part(e.holder.token);
        o[QStringLiteral("taken_at")] = isoOrNull(r.takenAt);
        o[QStringLiteral("expires_at")] = isoOrNull(r.expiresAt);
        o[QStringLiteral("seconds_left")] =
            r.expiresAt && std::isfinite(*r.expiresAt) ? QJsonValue(*r.expiresAt - now) : QJsonValue::Null;
        o[QStringLiteral("held_for_seconds")] = r.takenAt ? QJsonValue(now - *r.takenAt) : QJsonValue::Null;
        o[QStringLiteral("state")] = leaseStateKey(st);
        o[QStringLiteral("state_text")] = leaseStateText(st);
        if (leases.writerSkewAt(i) != 0)
            o[QStringLiteral("writer_clock_ahead")] = true;
        if (const LeaseTableConfig* t = leases.tableAt(i)) {
            o[QStringLiteral("scheme")] = t->scheme;
            o[QStringLiteral("table")] = t->qualifiedName();
        }
        rows.append(o);
    }
    QJsonObject leasesObj;
    leasesObj[QStringLiteral("rows")] = rows;
    if (s.leasesError)
        leasesObj[QStringLiteral("error")] = errorJson(*s.leasesError);
    if (s.leasesPartial)
        leasesObj[QStringLiteral("not_read")] = errorJson(*s.leasesPartial);
    if (s.leaseTables && !s.leaseTables->empty()) {
        // Every table read; "table"/"scheme" name the first (the only one, usually).
        QJsonArray tables;
        for (const LeaseTableConfig& t : *s.leaseTables)
            tables.append(QJsonObject{{QStringLiteral("table"), t.qualifiedName()},
                                      {QStringLiteral("scheme"), t.scheme},
                                      {QStringLiteral("library"), t.label()}});
        leasesObj[QStringLiteral("tables")] = tables;
        leasesObj[QStringLiteral("table")] = s.leaseTables->front().qualifiedName();
        leasesObj[QStringLiteral("scheme")] = s.leaseTables->front().scheme;
    }
    if (!s.leasesFound.isEmpty())
        leasesObj[QStringLiteral("found")] = QJsonArray::fromStringList(s.leasesFound);
    if (!s.leasesAbsent.isEmpty())
        leasesObj[QStringLiteral("absent")] = s.leasesAbsent;
    const auto counts = leases.stateCounts(leases.serverNowEstimate());
    QJsonObject summary;
    for (int i = 0; i < kLeaseStateCount; ++i)
        summary[leaseStateKey(LeaseState(i))] = counts[size_t(i)];
    leasesObj[QStringLiteral("summary")] = summary;
    root[QStringLiteral("leases")] = leasesObj;

    const QJsonObject lk = locksJson(s);
    for (auto it = lk.begin(); it != lk.end(); ++it)
        root[it.key()] = it.value();
    root[QStringLiteral("findings")] = findingsJson(findings);
    const ClusterInfo& c = s.cluster;
    QJsonObject cluster;
    cluster[QStringLiteral("max_connections")] = c.maxConnections;
    cluster[QStringLiteral("superuser_reserved_connections")] = c.superuserReservedConnections;
    cluster[QStringLiteral("reserved_connections")] = c.reservedConnections;
    cluster[QStringLiteral("may_use_reserved_connections")] = c.mayUseReserved;
    cluster[QStringLiteral("connections_used")] = s.analysis ? s.analysis->connectionsUsed : 0;
    cluster[QStringLiteral("connection_budget")] = s.analysis ? s.analysis->connectionBudget : 0;
    cluster[QStringLiteral("max_locks_per_transaction")] = c.maxLocksPerTransaction;
    cluster[QStringLiteral("max_prepared_transactions")] = c.maxPreparedTransactions;
    cluster[QStringLiteral("lock_table_entries")] = c.lockTableEntries;
    cluster[QStringLiteral("lock_table_capacity_approx")] = c.lockTableCapacity();
    cluster[QStringLiteral("lock_table_share")] =
        c.lockTableCapacity() > 0 ? QJsonValue(double(c.lockTableEntries) / c.lockTableCapacity())
                                  : QJsonValue::Null;
    cluster[QStringLiteral("total_locks")] = c.totalLocks;
    cluster[QStringLiteral("advisory_locks")] = int(s.advisoryLocks.size());
    cluster[QStringLiteral("deadlocks_total")] =
        c.deadlocks >= 0 ? QJsonValue(double(c.deadlocks)) : QJsonValue::Null;
    cluster[QStringLiteral("stats_reset")] = isoOrNull(c.statsReset);
    cluster[QStringLiteral("monitor_privilege")] = c.hasMonitorPrivilege;
    root[QStringLiteral("cluster")] = cluster;

    QJsonObject cost;
    cost[QStringLiteral("round_trips")] = s.roundTrips;
    cost[QStringLiteral("bytes_received")] = double(s.bytesReceived);
    cost[QStringLiteral("bytes_received_exact")] = s.bytesExact; // false: results' memory (Unix socket)
    cost[QStringLiteral("wait_ms")] = s.clientWaitMs;
    root[QStringLiteral("refresh")] = cost;
    return root;
}

QString snapshotToText(const Snapshot& s, const LeaseTracker& leases, const std::vector<Finding>& findings)
{
    QString out;
    if (!s.ok) {
        out += TerminalWords::tr("error: %1\n").arg(s.error.toDisplayString());
        return out;
    }
    out += TerminalWords::tr("server %1 · database %2 · user %3 · server time %4\n")
               .arg(s.server.version, s.server.database, s.server.user,
                    utcFromMSecs(qint64(s.serverNow * 1000))
                        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")));
    // Worst first: what is wrong, in words, before any table.
    if (findings.empty()) {
        out += TerminalWords::tr("\nALL CLEAR: no finding\n");
    } else {
        // English and German both say one and many apart, and the English needs no "(s)".
        out += findings.size() == 1 ? TerminalWords::tr("\n1 PROBLEM\n")
                                    : TerminalWords::tr("\n%1 PROBLEMS\n").arg(findings.size());
        for (const Finding& f : findings) {
            const QString tag = f.severity >= 3 ? TerminalWords::tr("CRIT") : f.severity == 2 ? TerminalWords::tr("WARN") : TerminalWords::tr("NOTE");
            out += TerminalWords::tr("  [%1] %2\n         %3 Fix: %4\n")
                       .arg(tag, f.title, f.explanation, f.fix);
        }
    }
    if (s.analysis) {
        const ClusterInfo& c = s.cluster;
        out += TerminalWords::tr(
                   "\nCLUSTER connections %1/%2 · lock table %3/~%4 (%5 advisory) · deadlocks total %6\n")
                   .arg(s.analysis->connectionsUsed)
                   .arg(s.analysis->connectionBudget)
                   .arg(c.lockTableEntries)
                   .arg(c.lockTableCapacity())
                   .arg(s.advisoryLocks.size())
                   .arg(c.deadlocks);
        if (const QString reserved = reservedConnectionsText(c, s.server.user); !reserved.isEmpty())
            out += QStringLiteral("        ") + reserved + QLatin1Char('\n');
        out += TerminalWords::tr("\nADVISORY LOCKS (%1)\n").arg(s.analysis->locks.size());
        if (s.locksNotRead)
            out += TerminalWords::tr("  not read, these are %1 s old: %2\n")
                       .arg(s.locksAgeMs / 1000.0, 0, 'f', 0)
                       .arg(s.locksNotRead->toDisplayString());
        for (const LockView& v : s.analysis->locks) {
            const SessionRow* ss = v.session >= 0 ? &s.sessions[size_t(v.session)] : nullptr;
            const QString finding = v.finding(s.serverNow, s.analysis->config.thresholds);
            out +=
                TerminalWords::tr("  %1  pid %2  %3  %4%5%6\n")
                    // The number beside the name: what pg_locks and the application's logs show.
                    .arg(v.name.isEmpty() ? advisoryKeyText(v.lock)
                                          : QStringLiteral("%1 [%2]").arg(v.name, advisoryKeyText(v.lock)))
                    .arg(v.lock.pid)
                    .arg(v.lock.granted ? TerminalWords::tr("held") : TerminalWords::tr("WAITING"),
                         ss ? ss->applicationName + QLatin1Char(' ') + ss->state : QString(),
                         v.lock.inMonitoredDb ? QString()
                                              : TerminalWords::tr(" [db %1]").arg(v.lock.database),
                         finding.isEmpty() ? QString() : QStringLiteral(" — ") + finding);
        }
        out += TerminalWords::tr("\nPOOLS (active/idle/idle-in-tx/waiting/pinned of total)\n");
        for (const PoolGroup& g : s.analysis->groups())
            out += TerminalWords::tr("  %1: %2/%3/%4/%5/%6 of %7%8%9\n")
                       .arg(g.key)
                       .arg(g.active)
                       .arg(g.idle)
                       .arg(g.idleInTransaction)
                       .arg(g.waitingOnLock)
                       .arg(g.idleHoldingAdvisory)
                       .arg(g.total)
                       .arg(g.poolSize ? TerminalWords::tr(" (pool %1)").arg(*g.poolSize) : QString(),
                            g.pinned ? TerminalWords::tr("  PINNED") : QString());
    }
    out += TerminalWords::tr("\nLEASES");
    const int tableCount = s.leaseTables ? int(s.leaseTables->size()) : 0;
    if (s.leasesError && leases.size() == 0 && tableCount == 0) {
        out += QStringLiteral(": %1\n").arg(s.leasesError->toDisplayString());
        return out;
    }
    if (!s.leasesAbsent.isEmpty()) {
        out += QStringLiteral(": %1\n").arg(s.leasesAbsent);
        return out;
    }

    const auto counts = leases.stateCounts(leases.serverNowEstimate());
    QStringList parts;
    for (int i = 0; i < kLeaseStateCount; ++i)
        if (counts[size_t(i)])
            parts << TerminalWords::tr("%1 %2").arg(counts[size_t(i)]).arg(leaseStateText(LeaseState(i)));
    // Which tables, when it is not the default one alone (found by detection, or named).
    const bool onlyDefault = tableCount == 1 && s.leaseTables->front().scheme == QLatin1String("default") &&
                             s.leaseTables->front().qualifiedName() == QLatin1String("public.leases");
    const QString where = tableCount > 0 && !onlyDefault ? TerminalWords::tr(" in %1").arg(leases.tableName()) : QString();
    out += QStringLiteral(" (%1)%2%3\n")
               .arg(leases.size())
               .arg(where, parts.isEmpty() ? QString() : QStringLiteral(": ") + parts.join(QStringLiteral(", ")));
    if (s.leasesPartial)
        out += TerminalWords::tr("  not read: %1\n").arg(s.leasesPartial->toDisplayString());
    // Column widths from the content, capped so one long name cannot push the table off screen.
    // The scheme's column only when several tables are read.
    using C = LeaseColumns;
    std::vector<int> cols = {C::Name, C::Host, C::Pid, C::HeldFor, C::ExpiresIn, C::State};
    if (tableCount > 1)
        cols.insert(cols.begin() + 1, C::Scheme);
    std::vector<int> width;
    for (int c : cols)
        width.push_back(int(leaseColumnTitle(c).size()));
    std::vector<QStringList> cells;
    const double now = leases.serverNowEstimate();
    const bool live = s.ok && !s.leasesError;
    for (int r = 0; r < leases.size(); ++r) {
        QStringList row;
        for (size_t k = 0; k < std::size(cols); ++k) {
            QString v = leases.cellText(r, cols[k], now, live);
            if (v.size() > 40)
                v = v.left(39) + QStringLiteral("…");
            width[k] = std::max(width[k], int(v.size()));
            row << v;
        }
        cells.push_back(row);
    }
    auto line = [&](const QStringList& row) {
        QString l;
        for (size_t k = 0; k < std::size(cols); ++k)
            l += row[qsizetype(k)].leftJustified(width[k] + 2);
        return l.trimmed() + QLatin1Char('\n');
    };
    QStringList header;
    for (int c : cols)
        header << leaseColumnTitle(c).toUpper();
    out += line(header);
    for (const auto& row : cells)
        out += line(row);
    return out;
}

QString reservedConnectionsText(const ClusterInfo& c, const QString& user)
{
    if (c.reservedConnections <= 0)
        return {};
    return c.mayUseReserved ? TerminalWords::tr("%1 reserved connection(s): %2 may use them, so the console gets in "
                                             "when the application has used every other slot")
                                  .arg(c.reservedConnections)
                                  .arg(user)
                            : TerminalWords::tr("%1 reserved connection(s), which %2 may not use (GRANT "
                                             "pg_use_reserved_connections TO %3;)")
                                  .arg(c.reservedConnections)
                                  .arg(user, sqlIdentifier(user));
}

} // namespace lw
