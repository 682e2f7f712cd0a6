#include "RefreshQueries.h"

#include "Cells.h"
#include "LeaseQueries.h"

#include <cstring>

namespace lw {

namespace {
using pg::cellDouble;
using pg::cellOptDouble;
using pg::cellText;
using pg::cellTrue;

// Clock, identity, limits and counters: one row. reserved_connections came in 16 (NULL before),
// with the role pg_use_reserved_connections (no row before: false).
constexpr char kMetaColumns[] =
    "SELECT date_part('epoch', now()), split_part(current_setting('server_version'), ' ', 1), "
    "current_setting('server_version_num')::int, current_database(), current_user::text, pg_backend_pid(), "
    "current_setting('max_connections')::int, current_setting('superuser_reserved_connections')::int, "
    "current_setting('max_locks_per_transaction')::int, current_setting('max_prepared_transactions')::int, "
    "current_setting('is_superuser') = 'on' OR pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER'), "
    "coalesce(current_setting('reserved_connections', true)::int, 0), "
    "current_setting('is_superuser') = 'on' OR coalesce((SELECT pg_has_role(current_user, r.oid, 'MEMBER') "
    "FROM pg_roles r WHERE r.rolname = 'pg_use_reserved_connections'), false), ";
constexpr char kMetaStats[] = "d.deadlocks, date_part('epoch', d.stats_reset) "
                              "FROM pg_stat_database d WHERE d.datname = current_database()";
constexpr char kMetaNoStats[] = "NULL::int8, NULL::float8";

// Last in the pipeline: the pipeline is one implicit transaction (one Sync), so now() is when its
// first statement started and this is the server's own time for the refresh, without the network.
constexpr char kServerTimeSql[] = "SELECT 1000 * extract(epoch FROM clock_timestamp() - now())::float8";

// Client backends of the whole server, our own excluded. pg_blocking_pids() takes the lock
// manager's partition locks: call it only for sessions that wait on a Lock.
constexpr char kActivitySql[] =
    "SELECT pid, datname::text, usename::text, application_name, host(client_addr), client_port, "
    "date_part('epoch', backend_start), date_part('epoch', xact_start), "
    "date_part('epoch', query_start), date_part('epoch', state_change), state, "
    "wait_event_type, wait_event, left(query, 1000), "
    "CASE WHEN wait_event_type = 'Lock' THEN pg_blocking_pids(pid) END "
    "FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()";

std::vector<int> parseIntArray(const char* text)
{
    // "{12,34}" from pg_blocking_pids()
    std::vector<int> out;
    for (const char* p = text; *p; ++p) {
        if (*p >= '0' && *p <= '9') {
            char* end = nullptr;
            out.push_back(int(std::strtol(p, &end, 10)));
            p = end - 1;
        }
    }
    return out;
}

// A column with few distinct values (a database name, a lock mode) over thousands of rows: one
// shared QString per value instead of one allocation per row.
class Interned
{
public:
    const QString& at(const PGresult* r, int row, int col)
    {
        const char* v = PQgetvalue(r, row, col);
        const int len = PQgetlength(r, row, col);
        if (!valid_ || len != bytes_.size() || std::memcmp(v, bytes_.constData(), size_t(len)) != 0) {
            bytes_ = QByteArray(v, len);
            value_ = QString::fromUtf8(bytes_);
            valid_ = true;
        }
        return value_;
    }

private:
    bool valid_ = false;
    QByteArray bytes_;
    QString value_;
};

SessionRow sessionRowAt(const PGresult* r, int i)
{
    SessionRow row;
    row.pid = int(cellDouble(r, i, 0));
    row.database = cellText(r, i, 1);
    row.user = cellText(r, i, 2);
    row.applicationName = cellText(r, i, 3);
    row.clientAddr = cellText(r, i, 4);
    row.clientPort = PQgetisnull(r, i, 5) ? -1 : int(cellDouble(r, i, 5));
    row.backendStart = cellOptDouble(r, i, 6);
    row.xactStart = cellOptDouble(r, i, 7);
    row.queryStart = cellOptDouble(r, i, 8);
    row.stateChange = cellOptDouble(r, i, 9);
    row.state = cellText(r, i, 10);
    row.waitEventType = cellText(r, i, 11);
    row.waitEvent = cellText(r, i, 12);
    row.query = cellText(r, i, 13);
    if (!PQgetisnull(r, i, 14))
        row.blockedBy = parseIntArray(PQgetvalue(r, i, 14));
    return row;
}
} // namespace

namespace sql {
QByteArray meta(bool withStats)
{
    return QByteArray(kMetaColumns) + (withStats ? kMetaStats : kMetaNoStats);
}
QByteArray activity()
{
    return kActivitySql;
}
// One plain pass over pg_locks (it copies every lock of the server while holding all partition
// locks, ~1 µs a row): only the shared lock table's entries (advisory locks never take the fast
// path), so the row count is the lock-table gauge and the advisory rows come from the same copy.
QByteArray locks(int serverVersion)
{
    const QByteArray waitStart =
        serverVersion >= 140000 ? "date_part('epoch', l.waitstart)" : "NULL::float8"; // waitstart came in 14
    return "SELECT l.locktype = 'advisory', l.pid, d.datname::text, l.classid::int8, l.objid::int8, "
           "l.objsubid, "
           "l.mode, l.granted, " +
           waitStart +
           ", l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
           "FROM pg_locks l LEFT JOIN pg_database d ON d.oid = l.database WHERE NOT l.fastpath";
}
QByteArray serverTime()
{
    return kServerTimeSql;
}
QByteArray catalogLocks()
{
    // pg_lock_status() and pg_stat_get_activity() are what the views pg_locks and pg_stat_activity
    // read; regclass output comes from the syscache. Relations below FirstNormalObjectId (16384)
    // are the system's. pg_stat_get_activity(NULL) would list every backend: joined on the pid.
    return QByteArray("SELECT l.relation::regclass::text, ") + kLockHolderColumns +
           " FROM pg_lock_status() l LEFT JOIN LATERAL pg_stat_get_activity(l.pid) a ON a.pid = l.pid "
           "WHERE l.locktype = 'relation' AND l.mode = 'AccessExclusiveLock' AND l.pid <> pg_backend_pid() "
           "AND l.relation < 16384 AND (l.database = 0 OR l.database = "
           "(SELECT datid FROM pg_stat_get_activity(pg_backend_pid()))) ORDER BY 2 DESC, 3, 1";
}
} // namespace sql

namespace {
// The backends whose locks the console shows: all but its own and the server's processes that
// take none of them (a walsender is "active" all the time it streams). An autovacuum worker's
// relation locks count in the lock-table gauge only (read at least every maxAgeMs); a session
// that waits for one is itself a client backend whose statement opens the gate.
constexpr char kGateSessions[] =
    " FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type NOT IN ('autovacuum worker', 'walsender', "
    "'walreceiver', 'checkpointer', 'background writer', 'walwriter', 'archiver', 'startup', "
    "'autovacuum launcher', 'logical replication launcher', 'walsummarizer', 'io worker', 'slotsync worker')";
constexpr char kGateLatest[] =
    "max(date_part('epoch', greatest(backend_start, xact_start, query_start, state_change)))";
constexpr char kGateRunning[] =
    "coalesce(bool_or((state = 'active' AND wait_event_type IS DISTINCT FROM 'Lock') OR "
    "(backend_type = 'client backend' AND backend_start IS NULL)), false)";
} // namespace

pg::Statement LocksGate::sessions()
{
    return {QByteArray("SELECT count(*), ") + kGateLatest + ", " + kGateRunning + kGateSessions, {}};
}

pg::Statement LocksGate::locks(int serverVersion, qint64 nowMs)
{
    pg::Statement st{sql::locks(serverVersion), {}};
    gatedSent_ = last_ && nowMs - lastReadMs_ < maxAgeMs_;
    if (gatedSent_) {
        st.sql += QByteArray(" AND (SELECT count(*) <> $1::int8 OR ") + kGateLatest + " IS DISTINCT FROM $2::float8 OR " +
                  kGateRunning + kGateSessions + ")";
        st.params = {QByteArray::number(last_->count),
                     last_->latest.isEmpty() ? std::nullopt : std::optional<QByteArray>(last_->latest)};
    }
    return st;
}

bool LocksGate::read(const PGresult* sessions, qint64 nowMs)
{
    if (!sessions || PQresultStatus(sessions) != PGRES_TUPLES_OK || PQntuples(sessions) != 1) {
        // Unknown whether the gate let it through: the last read stands, the next is not gated.
        const bool wasRead = !gatedSent_;
        last_.reset();
        return wasRead;
    }
    Seen now;
    now.count = pg::cellInt64(sessions, 0, 0);
    if (!PQgetisnull(sessions, 0, 1))
        now.latest = QByteArray(PQgetvalue(sessions, 0, 1), PQgetlength(sessions, 0, 1));
    const bool running = cellTrue(sessions, 0, 2);
    // The same test as the statement's, on the same snapshot of the sessions.
    const bool wasRead = !gatedSent_ || running || !(now == *last_);
    if (wasRead) {
        last_ = now;
        lastReadMs_ = nowMs;
    }
    return wasRead;
}

std::vector<TableLock> readCatalogLocks(const PGresult* r)
{
    std::vector<TableLock> out;
    for (int i = 0; r && i < PQntuples(r); ++i) {
        QString name = cellText(r, i, 0);
        if (!name.contains(QLatin1Char('.')))
            name.prepend(QStringLiteral("pg_catalog."));
        out.push_back(lockHolderAt(r, i, std::move(name)));
    }
    return out;
}

bool readMeta(const PGresult* r, Snapshot& s)
{
    if (!r || PQntuples(r) != 1)
        return false;
    s.serverNow = cellDouble(r, 0, 0);
    s.server.version = cellText(r, 0, 1);
    s.server.versionNum = int(cellDouble(r, 0, 2));
    s.server.database = cellText(r, 0, 3);
    s.server.user = cellText(r, 0, 4);
    s.server.backendPid = int(cellDouble(r, 0, 5));
    s.cluster.maxConnections = int(cellDouble(r, 0, 6));
    s.cluster.superuserReservedConnections = int(cellDouble(r, 0, 7));
    s.cluster.maxLocksPerTransaction = int(cellDouble(r, 0, 8));
    s.cluster.maxPreparedTransactions = int(cellDouble(r, 0, 9));
    s.cluster.hasMonitorPrivilege = cellTrue(r, 0, 10);
    s.cluster.reservedConnections = int(cellDouble(r, 0, 11));
    s.cluster.mayUseReserved = cellTrue(r, 0, 12);
    s.cluster.deadlocks = PQgetisnull(r, 0, 13) ? -1 : qint64(cellDouble(r, 0, 13));
    s.cluster.statsReset = cellOptDouble(r, 0, 14);
    return true;
}

bool CollectorStats::due(int serverVersion, qint64 nowMs) const
{
    constexpr qint64 kEveryMs = 60000, kAfterNewWaitMs = 10000;
    return serverVersion >= 150000 || lastReadMs_ < 0 || (newWaitMs_ >= 0 && nowMs - newWaitMs_ <= kAfterNewWaitMs) ||
           nowMs - lastReadMs_ >= kEveryMs;
}

void CollectorStats::read(bool wasDue, Snapshot& s)
{
    if (wasDue) {
        lastReadMs_ = s.receivedMonotonicMs;
        deadlocks_ = s.cluster.deadlocks;
        statsReset_ = s.cluster.statsReset;
    } else {
        s.cluster.deadlocks = deadlocks_;
        s.cluster.statsReset = statsReset_;
    }
    if (s.server.versionNum >= 150000)
        return; // no collector: nothing to time
    QSet<QPair<int, double>> waits;
    for (const SessionRow& r : s.sessions)
        if (r.waitEventType == QLatin1String("Lock"))
            waits.insert({r.pid, r.queryStart.value_or(0)});
    if (!waits_.contains(waits))
        newWaitMs_ = s.receivedMonotonicMs;
    waits_ = std::move(waits);
}

void waitStartsFromStatements(std::vector<AdvisoryLockRow>& locks, const std::vector<SessionRow>& sessions)
{
    QHash<int, std::optional<double>> started;
    for (const SessionRow& r : sessions)
        if (r.waitEventType == QLatin1String("Lock"))
            started.insert(r.pid, r.queryStart);
    for (AdvisoryLockRow& l : locks)
        if (!l.granted && !l.waitStart)
            l.waitStart = started.value(l.pid);
}

std::vector<SessionRow> readSessions(const PGresult* r)
{
    std::vector<SessionRow> sessions;
    sessions.reserve(size_t(PQntuples(r)));
    for (int i = 0; i < PQntuples(r); ++i)
        sessions.push_back(sessionRowAt(r, i));
    return sessions;
}

std::vector<AdvisoryLockRow> readAdvisoryLocks(const PGresult* r, ClusterInfo& cluster)
{
    const int n = PQntuples(r);
    cluster.lockTableEntries = n;
    cluster.totalLocks = n;
    std::vector<AdvisoryLockRow> locks;
    Interned database, mode;
    for (int i = 0; i < n; ++i) {
        if (!cellTrue(r, i, 0))
            continue; // another lock type: counted, not shown
        AdvisoryLockRow l;
        l.pid = int(cellDouble(r, i, 1));
        l.database = database.at(r, i, 2);
        const qint64 classid = pg::cellInt64(r, i, 3);
        const qint64 objid = pg::cellInt64(r, i, 4);
        l.twoKeys = cellDouble(r, i, 5) == 2;
        if (l.twoKeys) {
            l.key1 = qint32(quint32(classid));
            l.key2 = qint32(quint32(objid));
        } else {
            l.key = qint64((quint64(classid) << 32) | quint64(quint32(objid)));
        }
        l.mode = mode.at(r, i, 6);
        l.granted = cellTrue(r, i, 7);
        l.waitStart = cellOptDouble(r, i, 8);
        l.inMonitoredDb = cellTrue(r, i, 9);
        locks.push_back(std::move(l));
    }
    return locks;
}

std::optional<double> readServerTimeMs(const PGresult* r)
{
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
        return std::nullopt;
    return cellDouble(r, 0, 0);
}

} // namespace lw
