#pragma once
// Plain values handed from the polling worker to the GUI thread: one Snapshot per refresh.
#include "pg/PgError.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <QHash>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace lw {

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
    bool operator==(const LeaseRow&) const = default;
};

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
    std::optional<double> waitStart; // PostgreSQL 14+
    bool operator==(const AdvisoryLockRow&) const = default;
};

// Cluster limits and counters read with every refresh.
struct ClusterInfo
{
    int maxConnections = 0;
    int superuserReservedConnections = 0;
    int maxLocksPerTransaction = 0;
    int maxPreparedTransactions = 0;
    int lockTableEntries = 0; // rows of pg_locks that are not fast-path (shared lock table)
    int totalLocks = 0;       // rows of pg_locks read (fast-path locks are not read)
    qint64 deadlocks = -1;    // pg_stat_database.deadlocks of the monitored database
    std::optional<double> statsReset;
    bool hasMonitorPrivilege = true; // pg_monitor / pg_read_all_stats (else other roles' sessions are hidden)
    // Nominal capacity of the shared lock table (a floor in practice, see FIELD-NOTES).
    int lockTableCapacity() const
    {
        return maxLocksPerTransaction * (maxConnections + maxPreparedTransactions);
    }
    bool operator==(const ClusterInfo&) const = default;
};

struct Snapshot
{
    quint64 generation = 0; // bumped when the configuration changes: older results are dropped
    quint64 seq = 0;        // refresh counter within a generation
    bool ok = false;
    pg::PgError error; // why this refresh failed (ok == false)

    double serverNow = 0;           // the server's now() for this refresh, epoch seconds
    qint64 receivedMonotonicMs = 0; // monotonicMs() when the result arrived
    QDateTime receivedWall;         // for display only ("last refresh at …")

    ServerInfo server;
    ClusterInfo cluster;
    std::vector<SessionRow> sessions;           // client backends of the whole server
    std::vector<AdvisoryLockRow> advisoryLocks; // of the whole server (inMonitoredDb marks ours)
    std::vector<LeaseRow> leases;
    // Advisory key -> candidate names (hashtext() on this server); shared, immutable, cached.
    std::shared_ptr<const QHash<qint64, QStringList>> keyNames;
    // What the refresh means (resolved locks, pools, blocking forest, findings), computed on the
    // polling thread from this snapshot.
    std::shared_ptr<const Analysis> analysis;
    std::optional<pg::PgError> leasesError; // table missing / wrong columns / no privilege

    // Cost of this refresh, for the status bar and the benchmark.
    int roundTrips = 0;
    qint64 bytesReceived = 0;
    double clientWaitMs = 0; // send → last byte received
    double decodeMs = 0;     // libpq result → values
};

} // namespace lw

Q_DECLARE_METATYPE(lw::Snapshot)
