#pragma once
// The polling worker: one libpq connection per monitored database, one round trip per refresh
// (a second when lease rows went: which ones), the lease tables read by row version (issue 49),
// refreshes never overlap (the next is scheduled when the previous finished). Lives on a worker
// thread (see Monitor); the headless commands call refreshOnce() directly.
#include "domain/Analysis.h"
#include "domain/LeaseTable.h"
#include "domain/LibraryKeys.h"
#include "domain/Snapshot.h"
#include "pg/KeyNaming.h"
#include "pg/LeaseQueries.h"
#include "pg/PollerConfig.h"
#include "pg/PgConnection.h"
#include "pg/RefreshQueries.h"

#include <QDateTime>
#include <QSet>
#include <QObject>

#include <atomic>
#include <functional>

class QTimer;

namespace lw {

// The footprint budget rule: the interval between refresh starts that keeps `serverMs` per refresh
// within `budget` of wall time, never shorter than the configured interval, at most a minute
// (beyond that the console would look dead; the status bar shows the figures).
int stretchedIntervalMs(int intervalMs, double serverMs, double budget);
// How often to read pg_locks: 1 (every refresh) unless the last read returned at least `manyRows`
// rows and its estimated cost (rows × 3 µs) is more than the rest of the refresh; then the ratio
// of the two, rounded up, at most `maxN`.
int locksEveryN(int lastLockRows, double refreshServerMs, int manyRows, int maxN);

struct ConnectionStatus
{
    enum class State { Connecting, Connected, Disconnected };
    State state = State::Connecting;
    DbError error; // why we are disconnected
    QDateTime since;   // when this state began (local wall time, display only)
    int retryInMs = 0; // next attempt (Disconnected), from `since`
    // When the current outage began: kept across the Connecting/Disconnected rounds of reconnecting
    // (`since` restarts with each attempt); null while connected. Local wall time, display only.
    QDateTime outageSince;
    ServerInfo server;
};

class Poller : public QObject
{
    Q_OBJECT
public:
    explicit Poller(PollerConfig cfg, quint64 generation = 1, QObject* parent = nullptr);
    ~Poller() override;

    // Connects if needed and takes one refresh, synchronously, on the calling thread.
    Snapshot refreshOnce();
    // refreshOnce(), then, in a second round trip, the hashtext() of the lease names it read: a
    // refresh names those keys from the next one on, and a one-shot `snapshot` has no next one.
    // For the terminal commands' first look; the window keeps its one round trip a refresh.
    Snapshot refreshOnceNamed();
    // Names whose hashtext() this poller keeps (bounded: see KeyNaming::trim()).
    int hashedNames() const { return names_.hashedNames(); }
    // The lease statement of the last refresh, as sent (the benchmark runs it again).
    const pg::Statement& lastLeaseRead() const { return lastLeaseRead_; }
    const ConnectionStatus& status() const { return status_; }
    // Thread-safe, one-way: the connect or refresh in progress gives up within ~50 ms and no other
    // starts. Call it from the owning thread before quitting and joining the worker thread, so that
    // joining never waits out a deadline against a hung server.
    void requestStop() { stopRequested_.store(true); }

public Q_SLOTS:
    void start();
    void stop();
    void setPaused(bool paused);
    void setIntervalMs(int ms);

Q_SIGNALS:
    void snapshotReady(const lw::Snapshot& snapshot);
    void statusChanged(const lw::ConnectionStatus& status);

private:
    void loop();
    bool ensureConnected(DbError& err);
    void setStatus(ConnectionStatus::State st, const DbError& err = {}, int retryInMs = 0);
    int nextBackoffMs();
    // A leaseSync() answer into s.leases (rows tagged with their table's index), with a LeaseDelta
    // against the previous read, matched by (table, name). `since` as the statement was sent: a
    // table read with one keeps its other rows as held, less those a listing of its names (one
    // more round trip, when its count of unchanged rows says some went) no longer has.
    // The rows of tables in `kept` (not read this time) stay as last read.
    // The rows each table has now, for decodeLeases(): its answer's for a table read whole; for a
    // table read by row version the held ones with those written since, less those gone.
    // `nextSince`: where each table read goes on from.
    // Nullopt: every table read was read by row version, and s.leases and its delta are made
    // in place from the held rows (applyInPlace()).
    std::optional<std::vector<LeaseRow>> currentLeaseRows(LeaseSyncAnswer& a, const std::vector<QByteArray>& since,
                                                          const std::vector<int>& kept, pg::Clock::time_point deadline,
                                                          Snapshot& s, std::vector<QByteArray>& nextSince);
    // The held rows with the sent ones (sentFor[k]: the sent row of held row k, or -1) in their
    // place, the gone ones out and the fresh ones (sent rows of new keys) added.
    void applyInPlace(LeaseSyncAnswer& a, const std::vector<int>& sentFor, const std::vector<int>& fresh,
                      const std::function<bool(const LeaseRow&, size_t)>& isGone, Snapshot& s);
    void decodeLeases(LeaseSyncAnswer a, const std::vector<QByteArray>& since, pg::Clock::time_point deadline,
                      Snapshot& s, const std::vector<int>& kept = {});
    // The lease statement's answer (null: every table skipped) into s; a table found locked
    // (tableLocks' answer, or asked after a lock timeout) is named and skipped from the next refresh.
    void takeLeases(const pg::StatementResult* leases, const std::vector<QByteArray>& since,
                    const pg::StatementResult* tableLocks, const std::vector<int>& skipped,
                    pg::Clock::time_point deadline, Snapshot& s);
    // One more statement in a round trip of its own (only after a lock timeout): its rows, or null.
    pg::ResultPtr askOnce(pg::Statement st, pg::Clock::time_point deadline);
    // The system catalogs and views locked ACCESS EXCLUSIVE now, and by whom (sql::catalogLocks()).
    std::vector<TableLock> catalogLocksNow(pg::Clock::time_point deadline);
    // After a refresh gave up on a catalog lock: true, with s.error naming it, while one of those
    // catalogs is still locked (the refresh is not run); false once they are free.
    bool catalogStillLocked(pg::Clock::time_point deadline, Snapshot& s);
    // Finds the lease tables (or checks the named one); false, with s.error, if the round trip failed.
    bool checkLeaseTables(bool detecting, pg::Clock::time_point deadline, Snapshot& s);

    PollerConfig cfg_;
    quint64 generation_;
    quint64 seq_ = 0;
    pg::Connection conn_;
    ConnectionStatus status_;
    std::optional<DbError> leaseTableError_; // from the check at connect
    // The lease tables read (the configured one, or every one detected), as in Snapshot::leaseTables.
    std::shared_ptr<const std::vector<LeaseTableConfig>> tables_;
    QString leasesAbsent_;    // none configured, none found
    QStringList leasesFound_; // what detection found
    // Lease tables (indexes into tables_) another session keeps under ACCESS EXCLUSIVE, held or
    // queued for: not read until free, so the console never queues behind it (checked each refresh).
    std::vector<int> lockedTables_;
    // System catalogs and views a refresh gave up on (55P03), "pg_catalog.pg_locks": while one is
    // still locked ACCESS EXCLUSIVE, refreshes are not run (a cheap check of pg_lock_status() instead).
    QSet<QString> lockedCatalogs_;
    KeyNaming names_{cfg_}; // after cfg_, which it reads
    struct LeaseCache;
    std::unique_ptr<LeaseCache> leaseCache_;
    // The lease tables cannot be read by row version (a view has no xmin): read whole each time.
    bool leaseSyncOff_ = false;
    pg::Statement lastLeaseRead_;
    quint64 lastLeaseSeq_ = 0;
    std::shared_ptr<const Analysis> lastAnalysis_; // its lock views may serve the next refresh
    // pg_locks read less often when it dominates (see locksEveryN()); its last read, handed on
    // as it is while unchanged.
    SharedRows<AdvisoryLockRow> lastLocks_;
    int lastLockTableEntries_ = 0;
    int lastLockRows_ = 0;
    qint64 lastLocksReadMs_ = 0;
    int refreshesSinceLocks_ = 0;
    bool haveLocks_ = false;
    LocksGate locksGate_;
    CollectorStats stats_; // when pg_stat_database is read (every refresh from 15 on)
    double serverMsEstimate_ = 0; // smoothed, for the footprint budget
    int effectiveIntervalMs_ = 0;
    double lastServerNow_ = 0;
    bool leaseTableChecked_ = false;
    int refreshesSinceCheck_ = 0;
    int failures_ = 0;
    bool paused_ = false;
    bool running_ = false;
    QTimer* timer_ = nullptr;
    quint64 jitterState_;
    std::atomic<bool> stopRequested_{false};
};

} // namespace lw

Q_DECLARE_METATYPE(lw::ConnectionStatus)
