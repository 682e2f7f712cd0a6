#pragma once
// Plain values handed from the polling worker to the GUI thread: one Snapshot per refresh.
#include "domain/LeaseTable.h"
#include "domain/DbError.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <QHash>
#include <QStringList>

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <vector>

namespace lw {

// The rows of one refresh, immutable once handed out: every copy of the snapshot (the queued
// signal, Monitor::last_, the history thread) shares them, and so does the next refresh when they
// did not change (the same pg_locks read: the lock views and rows are then reused as they are).
// Read-only by design: a new read is a new vector, never a change to a shared one.
template <typename T>
class SharedRows
{
public:
    using value_type = T;
    using const_iterator = typename std::vector<T>::const_iterator;

    SharedRows() = default;
    SharedRows(std::vector<T> rows) // NOLINT: a vector of rows is what a refresh reads
        : rows_(std::make_shared<const std::vector<T>>(std::move(rows)))
    {
    }
    SharedRows(std::initializer_list<T> rows) : SharedRows(std::vector<T>(rows)) {}

    const std::vector<T>& vec() const { return rows_ ? *rows_ : none(); }
    size_t size() const { return vec().size(); }
    bool empty() const { return vec().empty(); }
    const T& operator[](size_t i) const { return vec()[i]; }
    const T& at(size_t i) const { return vec().at(i); }
    const T& front() const { return vec().front(); }
    const T& back() const { return vec().back(); }
    const_iterator begin() const { return vec().begin(); }
    const_iterator end() const { return vec().end(); }
    // The same read (or both empty): equal without comparing a row.
    bool sharesStorageWith(const SharedRows& o) const { return rows_ == o.rows_ || (empty() && o.empty()); }
    bool operator==(const SharedRows& o) const { return sharesStorageWith(o) || vec() == o.vec(); }

private:
    static const std::vector<T>& none()
    {
        static const std::vector<T> empty;
        return empty;
    }
    std::shared_ptr<const std::vector<T>> rows_;
};

struct Analysis;

// Monotonic milliseconds (steady clock). Countdowns advance on this between refreshes, never on the
// desktop's wall clock, which may be skewed or jump.
qint64 monotonicMs();

struct ServerInfo
{
    QString version;    // e.g. "15.18"
    int versionNum = 0; // server_version_num
    QString database;
    QString user;
    int backendPid = 0; // the console's own backend
    bool operator==(const ServerInfo&) const = default;
};

struct LeaseRow
{
    QString name;
    std::optional<QString> holder;
    std::optional<double> takenAt;   // epoch seconds (UTC), as the server reads the column
    std::optional<double> expiresAt; // epoch seconds (UTC); compare with Snapshot::serverNow only
    int source = 0; // the table it was read from: an index into Snapshot::leaseTables
    bool operator==(const LeaseRow&) const = default;
};

using LeaseRows = SharedRows<LeaseRow>;

// One client backend from pg_stat_activity (the console's own backend excluded).
struct SessionRow
{
    int pid = 0;
    QString database;
    QString user;
    QString applicationName;
    QString clientAddr; // empty for Unix-socket clients
    int clientPort = -1;
    std::optional<double> backendStart, xactStart, queryStart, stateChange; // epoch seconds
    QString state;         // active, idle, idle in transaction, … ("" when hidden by privileges)
    QString waitEventType; // "Lock" for lock waits
    QString waitEvent;
    QString query;              // last query text (truncated), or "<insufficient privilege>"
    std::vector<int> blockedBy; // pg_blocking_pids(), read only for sessions waiting on a Lock
    bool operator==(const SessionRow&) const = default;
};

using SessionRows = SharedRows<SessionRow>;

// One advisory lock from pg_locks.
struct AdvisoryLockRow
{
    int pid = 0;
    QString database; // database name of the lock
    bool inMonitoredDb = false;
    bool twoKeys = false;      // pg_advisory_lock(int4, int4) (objsubid = 2)
    qint64 key = 0;            // pg_advisory_lock(bigint): (classid << 32) | objid, signed
    qint32 key1 = 0, key2 = 0; // the two int4 keys, signed
    QString mode;              // ExclusiveLock / ShareLock
    bool granted = false;
    // pg_locks.waitstart (PostgreSQL 14+). On 13, which has none, the waiting statement's start
    // (pg_stat_activity.query_start): the same instant for the usual `SELECT pg_advisory_lock(…)`,
    // never later than the wait's real start.
    std::optional<double> waitStart;
    bool operator==(const AdvisoryLockRow&) const = default;
};

// Cluster limits and counters read with every refresh.
struct ClusterInfo
{
    int maxConnections = 0;
    int superuserReservedConnections = 0;
    int reservedConnections = 0; // PostgreSQL 16+: slots for pg_use_reserved_connections' members
    bool mayUseReserved = false;  // … and the console's role is one (or a superuser): it gets in when all else are taken
    int maxLocksPerTransaction = 0;
    int maxPreparedTransactions = 0;
    int lockTableEntries = 0; // rows of pg_locks that are not fast-path (shared lock table)
    int totalLocks = 0;       // rows of pg_locks read (fast-path locks are not read)
    qint64 deadlocks = -1;    // pg_stat_database.deadlocks of the monitored database
    std::optional<double> statsReset;
    bool hasMonitorPrivilege = true; // pg_monitor / pg_read_all_stats (else other roles' sessions are hidden)
    // Connections an ordinary role may open.
    int connectionBudget() const
    {
        return std::max(0, maxConnections - superuserReservedConnections - reservedConnections);
    }
    // Nominal capacity of the shared lock table (a floor in practice, see FIELD-NOTES).
    int lockTableCapacity() const
    {
        return maxLocksPerTransaction * (maxConnections + maxPreparedTransactions);
    }
    bool operator==(const ClusterInfo&) const = default;
};

// What changed in Snapshot::leases since the previous read of the same source (the poller's, or a
// replay's), by key — a row's table and name, unique per table — so that the tracker touches only
// those rows (100 000 leases, 1 % renewed per refresh). Only when every key is unique; else none,
// and every row is compared.
struct LeaseDelta
{
    quint64 source = 0;  // the poller instance: deltas of different pollers never mix
    quint64 baseSeq = 0; // Snapshot::seq of the read this delta is relative to
    std::vector<int> added;     // rows of Snapshot::leases whose key the base read did not have
    std::vector<int> changed;   // rows of Snapshot::leases whose values differ from the base read's
    std::vector<LeaseRow> gone; // rows of the base read whose key is no longer there
};

struct Snapshot
{
    quint64 generation = 0; // bumped when the configuration changes: older results are dropped
    quint64 seq = 0;        // refresh counter within a generation
    bool ok = false;
    DbError error; // why this refresh failed (ok == false)

    double serverNow = 0;           // the server's now() for this refresh, epoch seconds
    qint64 receivedMonotonicMs = 0; // monotonicMs() when the result arrived
    QDateTime receivedWall;         // for display only ("last refresh at …"); UTC from the poller

    ServerInfo server;
    ClusterInfo cluster;
    SessionRows sessions;                       // client backends of the whole server
    SharedRows<AdvisoryLockRow> advisoryLocks; // of the whole server (inMonitoredDb marks ours)
    LeaseRows leases;                         // in no particular order
    std::shared_ptr<const LeaseDelta> leaseDelta; // null: compare every row
    // Advisory key -> candidate names (hashtext() on this server); shared, immutable, cached.
    std::shared_ptr<const QHash<qint64, QStringList>> keyNames;
    // The keys of keyNames with more than one name, kept with it (null: analyze() finds them).
    std::shared_ptr<const QHash<qint64, QStringList>> keyCollisions;
    // Keys of coordination libraries computed on this server (pg-boss, Flyway's tables): key → name.
    // Keys derived in the console (node-pg-migrate, Rails) need none (see LibraryKeys.h).
    std::shared_ptr<const QHash<qint64, QString>> libraryKeys;
    // What the refresh means (resolved locks, pools, blocking forest, findings), computed on the
    // polling thread from this snapshot.
    std::shared_ptr<const Analysis> analysis;
    std::optional<DbError> leasesError; // table missing / wrong columns / no privilege
    // Several tables found and one of them could not be read (no SELECT, other columns): the rows
    // of the others are current, this says what is missing.
    std::optional<DbError> leasesPartial;
    // The lease tables this refresh read (configured, or every one detection found), each with its
    // scheme's rules; LeaseRow::source indexes it. Null when none was read. leasesAbsent: nothing
    // configured and none found, in words for the Leases page (information, not a problem);
    // leasesFound: what detection found ("public.shedlock (ShedLock)", or why one is not read).
    std::shared_ptr<const std::vector<LeaseTableConfig>> leaseTables;
    QString leasesAbsent;
    QStringList leasesFound;

    // Cost of this refresh, for the status bar and the benchmark.
    int roundTrips = 0;
    // Lease rows the server sent: all of a table read whole, else only the rows written since the
    // previous read (a second round trip lists the names when rows went: issue 49).
    int leaseRowsSent = 0;
    qint64 bytesReceived = 0;
    bool bytesExact = false; // counted on the TCP socket; false: the results' memory (Unix socket)
    double clientWaitMs = 0; // send → last byte received
    double decodeMs = 0;     // libpq result → values
    // Upper bound of the server time of this refresh (pipeline sent → last result; the client
    // cannot read pg_stat_statements in general), and the interval the footprint budget allows.
    double serverMs = 0;
    int effectiveIntervalMs = 0;
    // pg_locks may be read less often than the rest when it dominates (about 1 µs a lock row):
    // advisoryLocks and the lock-table counts are then those of a read `locksAgeMs` old.
    int locksEveryN = 1;
    bool locksReused = false;
    double locksAgeMs = 0;
    // pg_locks itself is locked ACCESS EXCLUSIVE by another session: not read (the console does not
    // queue behind it); the locks are the last read's, locksAgeMs old, and this says whose lock.
    std::optional<DbError> locksNotRead;
};

} // namespace lw

Q_DECLARE_METATYPE(lw::Snapshot)
