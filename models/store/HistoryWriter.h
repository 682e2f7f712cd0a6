#pragma once
// Records every refresh of one profile into its local SQLite history (issue 9, point 1).
//
// HistoryWriter does the work synchronously on the thread that created it (it owns one QSqlDatabase
// connection); HistoryRecorder runs one on a thread of its own and takes refreshes from the GUI
// thread (on Monitor::refreshed, HistoryRecorder::record with the Monitor's tracker and findings).
// One transaction per refresh; then
// at most one small retention batch (age and size bounds), so the writer never stalls for long.
//
// It judges nothing itself: it is handed what the window's lease tracker saw change
// (LeaseChanges) and the window's findings, so the record says what the operator saw, and a
// refresh costs what changed in it, not the number of leases.
#include "domain/Findings.h"
#include "domain/LeaseChanges.h"
#include "domain/PoolHistory.h"
#include "domain/Analysis.h"
#include "SqliteConnection.h"
#include "domain/Snapshot.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QThread>

#include <atomic>
#include <deque>
#include <unordered_map>
#include <functional>
#include <memory>

class QLockFile;
class QSqlQuery;

namespace lw {

struct PollerConfig;

struct HistoryOptions
{
    QString profile = QStringLiteral("default");
    QString path;      // empty: defaultPath(profile)
    QString sourceDsn; // stored without its password
    // The operator audit (AuditLog) whose rows are copied into the history; empty: none.
    QString auditPath;
    LeasePolicy leasePolicy;
    bool writerUsesAppClock = false;
    AnalysisConfig analysis;
    qint64 maxAgeMs = 7LL * 24 * 3600 * 1000;
    qint64 maxBytes = 200LL * 1024 * 1024;
    int retentionBatchRows = 500; // rows per table per retention step
    // A renewal on schedule (same holder, later expiry, the state unchanged) is not a row: renewals
    // are counted per lease and written as one row per lease and this interval (and before any
    // other change of the lease, and when the writer closes).
    double renewalIntervalS = 3600;
    // Pool and cluster samples older than this (server time behind the newest refresh) are thinned
    // to about one per minute: the first refresh of each minute plus the refreshes with the
    // minute's most connections, lock-table entries and lock waits; failed refreshes all stay.
    double fullResolutionS = 3600;
    int maxQueued = 120;          // snapshots waiting for the writer; beyond that refreshes are skipped
    // Local wall clock (ms since the epoch) for retention by age; tests inject their own.
    std::function<qint64()> wallClockMs;

    // QStandardPaths::AppDataLocation + "/history/<profile>.sqlite" (the name made file-safe).
    static QString defaultPath(const QString& profile);
    // Policy, analysis configuration and DSN of a connection profile; audit: AuditLog::defaultPath().
    static HistoryOptions forProfile(const QString& profile, const PollerConfig& cfg);
};

class HistoryWriter
{
public:
    explicit HistoryWriter(HistoryOptions o);
    ~HistoryWriter();
    HistoryWriter(const HistoryWriter&) = delete;
    HistoryWriter& operator=(const HistoryWriter&) = delete;

    bool isOpen() const { return open_; }
    QString errorString() const { return error_; }
    QString path() const { return opts_.path; }
    // A damaged store found at open was moved here (never deleted) and a new one started.
    QString keptAside() const { return keptAside_; }
    QString notice() const { return notice_; } // what to tell the operator about that, once
    // Another process writes this store (its pid): not opened.
    qint64 takenBy() const { return takenBy_; }

    // Records one refresh in one transaction, then runs one retention step. False on a write error
    // (the refresh is then missing from the history; the next one is recorded normally). `leases`
    // is what the lease tracker saw in this refresh, `findings` its collectFindings().
    bool write(const Snapshot& s, const LeaseChanges& leases, const std::vector<Finding>& findings);
    // The lease records are to be compared with every lease (after opening the store, or a write
    // that was rolled back): until a LeaseChanges with `all` comes, the leases are not recorded.
    bool wantsAllLeases() const { return leasesFullPass_; }
    // One bounded retention batch; true while more is left to delete.
    bool retentionStep();
    // Pages in use × page size (free pages excluded), the measure of the size bound.
    qint64 usedBytes() const;

    struct Stats
    {
        qint64 refreshes = 0;
        qint64 leaseRows = 0;
        qint64 groupRows = 0;
        qint64 stateBlobs = 0;
        qint64 deletedRows = 0; // by retention
        qint64 renewalsCounted = 0; // renewals on schedule, counted instead of written
        qint64 thinnedRefreshes = 0; // refreshes dropped by downsampling
        qint64 thinnedRows = 0;      // rows of every table dropped by downsampling
        qint64 writeErrors = 0;
    };
    const Stats& stats() const { return stats_; }

private:
    struct LastLease // one per lease in the table (the map's key is the lease's): kept small
    {
        qint64 leaseId = 0;
        std::optional<QString> holder;
        std::optional<double> takenAt, expiresAt;
        int state = 0;
        // Renewals counted since the lease's last row (its values above are the last renewal's).
        int renewals = 0;
        double firstRenewalAt = 0, lastRenewalAt = 0;
        // The lease's last row is a renewal: it is renewing since (a replay extrapolates from it).
        // The first renewal after any other row is written at once, the next ones are counted.
        bool renewing = false;
        quint32 seen = 0; // the refresh generation that last saw it in the table
    };
    struct LastGroup
    {
        qint64 groupId = 0;
        std::array<int, 5> counts{};
    };

    bool writeRefresh(const Snapshot& s, const LeaseChanges& leases, const std::vector<Finding>& findings);
    bool recordLeases(const Snapshot& s, const LeaseChanges& leases, qint64 refreshId);
    bool recordPool(const Snapshot& s, qint64 refreshId);
    bool recordFindings(const Snapshot& s, const std::vector<Finding>& findings, qint64 refreshId);
    bool copyAudit();
    bool insertChange(qint64 refreshId, double at, int kind, const LastLease& v);
    bool flushRenewals(qint64 refreshId, double at, LastLease& l);
    bool recordLease(qint64 refreshId, double at, const LeaseChanges::Lease& l, LeaseChange seenAs);
    bool recordRelease(qint64 refreshId, double at, const QString& key);
    bool checkpointRenewals(qint64 refreshId, double at, bool all);
    bool downsampleStep();
    void loadState();
    qint64 leaseId(const QString& key, const QString& name);
    qint64 groupId(GroupBy by, const PoolGroup& g);
    qint64 nowMs() const;
    bool fail(const QString& what);

    HistoryOptions opts_;
    std::shared_ptr<const std::vector<LeaseTableConfig>> recordedTables_; // meta "lease_tables" holds these
    std::unique_ptr<SqliteConnection> conn_;
    std::unique_ptr<SqliteConnection> audit_;
    bool open_ = false;
    QString error_;
    QString keptAside_;
    QString notice_;
    std::unique_ptr<QLockFile> lock_;
    qint64 takenBy_ = 0;
    Stats stats_;

    // What the store says now, so unchanged things cost nothing.
    bool leasesFullPass_ = true; // the next refresh compares every row with the store's records
    PoolHistory pool_;
    QHash<QString, qint64> leaseIds_;
    std::unordered_map<QString, LastLease> lastLeases_;
    QHash<QString, LastGroup> lastGroups_; // "<grouping>\x1f<key>"
    QHash<QString, qint64> openFindings_;  // finding id → row id
    QByteArray lastStateBytes_;
    struct StateParts // what encodeState() writes, compared before it is encoded
    {
        ServerInfo server;
        ClusterInfo cluster;
        SessionRows sessions;
        SharedRows<AdvisoryLockRow> locks;
        std::optional<DbError> leasesError;
        bool operator==(const StateParts&) const = default;
    };
    std::optional<StateParts> lastState_;
    qint64 lastStateBlob_ = 0;
    std::shared_ptr<const KeyNames> lastKeyNamesPtr_;
    KeyNames lastKeyNames_;
    qint64 keyNamesBlob_ = 0;
    qint64 lastRefreshId_ = 0;
    double lastServerNow_ = 0;
    // Leases whose counted renewals started at this server time, oldest first (checkpoint order).
    std::deque<std::pair<QString, double>> renewalQueue_;
    std::unique_ptr<QSqlQuery> changeInsert_;
    quint32 leaseGeneration_ = 0; // 136 years of refreshes at one a second
    int sinceUpkeep_ = 1 << 20; // the first refresh runs the upkeep steps
    bool upkeepPending_ = false;
    qint64 downsampledTo_ = -1; // refreshes up to this id are thinned already (-1: not read yet)
    qint64 auditMaxId_ = 0;
    QSet<qint64> auditPending_;
    int sinceSizeCheck_ = 1 << 20;
    bool sizeOver_ = false;
    bool retentionPending_ = false; // the last cut is not fully applied yet
    qint64 sizeCut_ = 0;            // refreshes before this go for the size bound
};

// Runs a HistoryWriter on a thread of its own. Snapshots are copied into the writer's queue; when
// the writer falls more than maxQueued behind (a slow disk) refreshes are skipped and counted.
class HistoryRecorder : public QObject
{
    Q_OBJECT
public:
    explicit HistoryRecorder(HistoryOptions o, QObject* parent = nullptr);
    ~HistoryRecorder() override; // writes what is queued, then closes the store

    bool isOpen() const { return open_; }
    QString errorString() const { return error_; }
    QString path() const { return path_; }
    QString notice() const { return notice_; } // e.g. a damaged store kept aside and replaced
    qint64 takenBy() const { return takenBy_; } // another process writes the store (not opened)
    int skipped() const { return skipped_.load(); }
    // Records one refresh: the snapshot, what the lease tracker that applied it saw change (read
    // here, on the caller's thread, before the tracker moves on) and its findings. Connect it to
    // Monitor::refreshed with the Monitor's tracker and findings.
    void record(const lw::Snapshot& s, const LeaseTracker& leases, const std::vector<Finding>& findings);
    // Blocks until every snapshot handed over so far is written (tests, export of the last minute).
    void flush();
    HistoryWriter::Stats stats();

Q_SIGNALS:
    // Writing stopped (a full disk, a store gone read-only: `why`) or works again. While stopped,
    // each refresh is tried again, so recording resumes by itself once space returns; monitoring
    // never waits for it. Emitted from the writer's thread.
    void recordingChanged(bool recording, const QString& why);

private:
    QThread thread_;
    QObject* worker_ = nullptr; // lives on thread_
    std::unique_ptr<HistoryWriter> writer_;
    QString path_;
    QString error_;
    QString notice_;
    qint64 takenBy_ = 0;
    bool open_ = false;
    int maxQueued_;
    std::atomic<int> queued_{0};
    std::atomic<int> skipped_{0};
    LeaseChangeReader changes_;         // caller's thread
    std::atomic<bool> wantsAll_{false}; // a refresh was skipped or the writer rolled back
    bool writing_ = true; // the last write succeeded (writer thread only)
};

} // namespace lw
