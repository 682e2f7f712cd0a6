#pragma once
// The polling worker: one libpq connection per monitored database, one round trip per refresh,
// refreshes never overlap (the next is scheduled when the previous finished). Lives on a worker
// thread (see Monitor); the headless commands call refreshOnce() directly.
#include "domain/Analysis.h"
#include "domain/LeaseState.h"
#include "domain/LeaseTable.h"
#include "domain/LibraryKeys.h"
#include "domain/Snapshot.h"
#include "pg/LeaseQueries.h"
#include "pg/PollerConfig.h"
#include "pg/PgConnection.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>

#include <atomic>

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

// Candidates for key resolution: lease names, configured names/patterns, prefixed variants.
QStringList lockNameCandidates(const PollerConfig& cfg, const QStringList& leaseNames, double serverNow);

// The statements of a refresh (besides the leases SELECT, see leaseSelect()), for the benchmark's
// floor comparison and raw decode: one definition, no copies.
namespace sql {
QByteArray meta();
QByteArray activity();
QByteArray locks(int serverVersion);
} // namespace sql

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
    // Names whose hashtext() this poller keeps (bounded: see trimHashCache()).
    int hashedNames() const { return int(hashCache_.size()); }
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
    static pg::Statement hashStatement(const QStringList& names);
    void addHashes(const PGresult* r, const QStringList& names); // the hashes of `names`, in order
    // Leases into s.leases (one table, or several tagged with their index), with a LeaseDelta
    // against the previous read: every row decoded, then matched by (table, name).
    void decodeLeases(const PGresult* r, Snapshot& s);
    void decodeLocks(const PGresult* r, Snapshot& s);

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
    std::shared_ptr<const QHash<qint64, QString>> libraryKeys_; // see LibraryKeys.h: the two below
    LibraryKeyNames libraryKeysFound_; // computed on the server at the lease-table check
    // GoodJob's keys (goodJobLockSql): its schemas, the names of the keys it holds now (dropped once
    // released: bounded by what is held), and whether the next refresh looks (a key held in this
    // database that nothing names yet).
    std::vector<GoodJobSchema> goodJobSchemas_;
    LibraryKeyNames goodJobNames_;
    QSet<qint64> goodJobMissed_; // nameless when last looked for
    int refreshesSinceGoodJob_ = 0;
    bool goodJobLookup_ = true;
    void publishLibraryKeys();
    // keyNames_ and keyCollisions_ as hashCache_ gained and lost these names.
    void updateKeyNames(const std::vector<std::pair<QString, qint64>>& added,
                        const std::vector<std::pair<QString, qint64>>& dropped);
    void trimHashCache(const Snapshot& s);   // bounds hashCache_ by what is read and held now
    int refreshesSinceTrim_ = 0;
    void updateGoodJobNames(const PGresult* r, const Snapshot& s);
    QHash<QString, qint64> hashCache_;           // name -> hashtext(name), computed on this server
    // key -> names (sorted), as the cache changes; and its keys with several names. Never null.
    std::shared_ptr<const KeyNames> keyNames_ = std::make_shared<const KeyNames>();
    std::shared_ptr<const KeyNames> keyCollisions_ = std::make_shared<const KeyNames>();
    QStringList namesToHash_; // lease names not yet considered for hashing (new since the last read)
    struct LeaseCache;
    std::unique_ptr<LeaseCache> leaseCache_;
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
