#pragma once
// Reading a recorded history (issue 9, points 2 and 3): a profile's store or an incident bundle,
// opened read-only the same way. Reconstructs the full Snapshot of any recorded refresh (leases from
// the change log, the rest from the refresh's blob, the analysis recomputed with the recorded
// configuration), replays a range in order, gives one lease's timeline, loads the pool charts, and
// exports a range as a bundle. Use from one thread (it owns one QSqlDatabase connection).
#include "AuditLog.h"
#include "SqliteConnection.h"
#include "domain/Analysis.h"
#include "domain/LeasePolicy.h"
#include "domain/LeaseStateKind.h"
#include "domain/PoolHistory.h"
#include "domain/Snapshot.h"
#include "store/HistoryFormat.h"

#include <QMap>
#include <QString>

#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace lw {

struct PollerConfig;

struct LeaseChangeRow
{
    qint64 id = 0;
    qint64 refreshId = 0;
    double at = 0; // server time of the refresh that saw it
    QString key;   // the console's row key
    QString name;
    history::ChangeKind kind = history::ChangeKind::Seen;
    std::optional<QString> holder;
    std::optional<double> takenAt, expiresAt;
    LeaseState state = LeaseState::Unknown;
    // Renew rows: how many renewals on schedule this row stands for, and when the first and the
    // last of them were seen (server time); the row's values are the last one's.
    int renewals = 0;
    double firstRenewalAt = 0, lastRenewalAt = 0;
};

// What the store holds for a range of refreshes, for its replay (LeaseReplay): each lease's latest
// row at the range's first refresh, the change rows after it, in order, and the first row after
// the range of each lease still held at its end (whose counted renewals say how it went on).
struct RecordedLeases
{
    QMap<QString, LeaseChangeRow> base;
    std::vector<LeaseChangeRow> changes;
    std::deque<LeaseChangeRow> after;
};

// One line of a lease's history. Renewals by one holder are collapsed into one event.
struct LeaseTimelineEvent
{
    enum class Kind {
        Seen,         // first recorded sighting (held before recording began)
        Take,         // taken (the row appeared, or a holder replaced another before expiry)
        TakeOver,     // taken over after the previous holder's lease had expired
        Renewals,     // `renewals` renewals by the holder, first…last
        Overdue,      // the holder missed its renewal window
        Expired,      // expired and not taken over (stale)
        ForcedExpiry, // an operator force-expired it (operator from the audit)
        Changed,      // another change of taken_at/expires_at by the same holder
        Released,     // the row disappeared
    };
    Kind kind = Kind::Seen;
    double at = 0; // server time, epoch seconds
    QString key;
    std::optional<QString> holder;
    QString previousHolder;
    std::optional<double> takenAt, expiresAt;
    int renewals = 0;
    double firstRenewal = 0, lastRenewal = 0;
    QString operatorName; // "alice@desk-7 (role monitor_ops)" for forced expiries
    qint64 auditId = 0;
    QString detail;
};
QString timelineKindText(LeaseTimelineEvent::Kind k); // "taken over"

struct RecordedFinding
{
    QString findingId;
    QString kind;
    int severity = 0;
    QString title;
    QString subject;
    double appearedAt = 0;
    std::optional<double> goneAt;
};

// Recorded pool samples as stored (cluster per refresh; groups whenever their counts changed,
// carried forward here to one sample per refresh within the range).
struct RecordedPoolSamples
{
    std::vector<double> t;
    std::vector<ClusterSample> cluster;
    struct Group
    {
        GroupBy by = GroupBy::ClientInstance;
        QString key;
        std::vector<GroupSample> samples; // aligned with t
    };
    std::vector<Group> groups;
};

struct BundleInfo
{
    QString profile;   // default: the store's
    QString sourceDsn; // default: the store's (stored without password either way)
};

class HistoryReader
{
public:
    explicit HistoryReader(const QString& path);
    ~HistoryReader();
    HistoryReader(const HistoryReader&) = delete;
    HistoryReader& operator=(const HistoryReader&) = delete;

    bool isOpen() const { return open_; }
    QString errorString() const { return error_; }
    QString path() const { return path_; }
    QMap<QString, QString> metadata() const;
    bool isBundle() const;
    QString integrityCheck() const; // "ok" when sound

    struct Range
    {
        double from = 0, to = 0; // server time of the first and last recorded refresh
        qint64 refreshes = 0;
        bool isEmpty() const { return refreshes == 0; }
    };
    Range range() const;
    // The last refresh recorded: server time, local wall clock when it arrived, whether it answered.
    struct LastRefresh
    {
        double at = 0;
        qint64 wallMs = 0;
        bool ok = false;
        QString error;
    };
    std::optional<LastRefresh> lastRefresh() const;
    // Server times of the refreshes in [t0, t1], oldest first.
    std::vector<double> refreshTimes(double t0 = -std::numeric_limits<double>::infinity(),
                                     double t1 = std::numeric_limits<double>::infinity()) const;

    // The configuration the refreshes were recorded with (analysis thresholds and pool sizes, lease
    // policy, the DSN without password): a recorded Monitor judges as the live one did.
    PollerConfig recordedConfig() const;
    AnalysisConfig analysisConfig() const;

    // The last refresh at or before t (server time), reconstructed in full; nullopt before the
    // first. Failed refreshes come back with ok == false and their error.
    std::optional<Snapshot> snapshotAt(double t) const;
    // Every refresh in [t0, t1], oldest first, leases built incrementally (one pass over the change
    // log). fn returns false to stop.
    // Renewals on schedule are not rows (HistoryFormat.h): between two rows of a lease they are
    // replayed evenly over the time they were counted in; after a lease's last row, a lease still
    // held then keeps the time it had left. Every recorded change is replayed exactly.
    // LeaseDetail::None leaves the leases out (pool charts need none).
    enum class LeaseDetail { Full, None };
    void forEachSnapshot(double t0, double t1, const std::function<bool(const Snapshot&)>& fn,
                         LeaseDetail detail = LeaseDetail::Full) const;

    QStringList leaseNames() const;
    std::vector<LeaseChangeRow> leaseChanges(const QString& name = QString(),
                                             double t0 = -std::numeric_limits<double>::infinity(),
                                             double t1 = std::numeric_limits<double>::infinity()) const;
    // Holders one after another: takes, collapsed renewals, expiries, takeovers, releases, forced
    // expiries with the operator from the audit.
    std::vector<LeaseTimelineEvent> timeline(const QString& name) const;
    std::vector<RecordedFinding> findings(double t0 = -std::numeric_limits<double>::infinity(),
                                          double t1 = std::numeric_limits<double>::infinity()) const;
    std::vector<AuditRecord> audit() const; // oldest first
    RecordedPoolSamples poolSamples(double t0, double t1) const;

    // Writes [t0, t1] to one self-contained SQLite file (same schema, plus what is needed to
    // reconstruct the range's first refresh, plus metadata). Written beside and renamed into place.
    bool exportBundle(const QString& file, double t0, double t1, const BundleInfo& info = {},
                      QString* error = nullptr) const;

private:
    struct Refresh
    {
        qint64 id = 0;
        double at = 0;
        qint64 wallMs = 0;
        bool ok = false;
        qint64 stateBlob = 0, keyNamesBlob = 0;
        QString error;
    };
    std::vector<Refresh> refreshes(double t0, double t1) const;
    QMap<QString, LeaseChangeRow> leasesAt(qint64 refreshId) const; // key → its latest row
    RecordedLeases recordedLeases(qint64 firstRefresh, qint64 lastRefresh) const;
    bool fillSnapshot(const Refresh& r, Snapshot& s, qint64& cachedState, Snapshot& stateCache,
                      qint64& cachedNames, std::shared_ptr<const KeyNames>& namesCache) const;

    QString path_;
    QString error_;
    std::shared_ptr<const std::vector<LeaseTableConfig>> leaseTables_; // meta "lease_tables"
    QString changeColumns_; // the lease_change columns as changeFromQuery() reads them
    LeasePolicy recordedPolicy_; // meta "lease_policy": how often the recorded leases renew
    bool tailRenewing_ = false; // meta renewals_flushed = 0: a writer counts (or counted) unwritten renewals
    bool open_ = false;
    std::unique_ptr<SqliteConnection> conn_;
    AnalysisConfig analysis_;
};

// Loads the recorded refreshes of [t0, t1] into a pool page's history by replaying them through
// PoolHistory::add(), the live code path (groupings, peaks, deadlock rates as live). Meant for an
// empty PoolHistory (a recorded window's); samples not after the last one held are skipped, as live.
// Returns the number of refreshes replayed.
int loadPoolHistory(const HistoryReader& reader, PoolHistory& into, double t0, double t1);

} // namespace lw
