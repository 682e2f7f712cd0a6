#pragma once
// Pool occupancy and cluster capacity over time, sampled once per refresh into fixed-size ring
// buffers: per client group (for every grouping at once, so switching the grouping keeps history)
// and for the cluster (connections against the budget, shared lock table against its nominal
// capacity, lock waits, deadlocks). A fine tier keeps every refresh for about an hour; a coarse tier
// keeps one peak sample per minute so "since the console started" stays bounded in memory.
#include "domain/Analysis.h"
#include "domain/Snapshot.h"

#include <QHash>
#include <QObject>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace lw {

// Fixed-capacity FIFO: push_back overwrites the oldest element once full; never reallocates.
template <typename T> class RingBuffer
{
public:
    explicit RingBuffer(int capacity = 0) : buf_(size_t(std::max(capacity, 1))) {}
    int capacity() const { return int(buf_.size()); }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    void clear()
    {
        head_ = 0;
        size_ = 0;
    }
    void push_back(const T& v)
    {
        buf_[(head_ + size_t(size_)) % buf_.size()] = v;
        if (size_ < capacity())
            ++size_;
        else
            head_ = (head_ + 1) % buf_.size();
    }
    const T& operator[](int i) const { return buf_[(head_ + size_t(i)) % buf_.size()]; }
    const T& front() const { return (*this)[0]; }
    const T& back() const { return (*this)[size_ - 1]; }

private:
    std::vector<T> buf_;
    size_t head_ = 0;
    int size_ = 0;
};

// One group at one refresh. The five states are disjoint and add up to `total`.
struct GroupSample
{
    double t = 0; // server time, epoch seconds
    int active = 0;
    int idle = 0;
    int idleInTransaction = 0;
    int waitingOnLock = 0;
    int idleHoldingAdvisory = 0; // pinned connections
    int total() const { return active + idle + idleInTransaction + waitingOnLock + idleHoldingAdvisory; }
};

struct ClusterSample
{
    double t = 0;
    int connections = 0;         // client backends + the console
    int connectionBudget = 0;    // ClusterInfo::connectionBudget()
    int lockTableEntries = 0;    // non-fast-path rows of pg_locks
    int lockTableCapacity = 0;   // nominal, a floor
    int advisoryLocks = 0;       // advisory rows of pg_locks (never fast-path: all in the shared table)
    int waitingOnLock = 0;       // sessions with wait_event_type = 'Lock'
    int deadlocksLastMinute = 0; // growth of pg_stat_database.deadlocks over the last 60 s
    bool counterReset = false;   // pg_stat_database was reset at this sample (not negative deadlocks)
    int total() const { return connections; }
};

// Fine ring (every refresh) + coarse ring (the peak sample of each minute).
template <typename Sample> class TieredSeries
{
public:
    TieredSeries(int fineCapacity, int coarseCapacity) : fine_(fineCapacity), coarse_(coarseCapacity) {}
    void add(const Sample& s)
    {
        fine_.push_back(s);
        const qint64 bucket = qint64(s.t / kCoarseBucketS);
        if (pending_ && bucket != pendingBucket_) {
            coarse_.push_back(*pending_);
            pending_.reset();
        }
        if (!pending_ || s.total() >= pending_->total())
            pending_ = s;
        pendingBucket_ = bucket;
    }
    const RingBuffer<Sample>& fine() const { return fine_; }
    const RingBuffer<Sample>& coarse() const { return coarse_; }
    const std::optional<Sample>& pendingCoarse() const { return pending_; }
    // Samples with t in [t0, t1], oldest first: the fine tier when it reaches back to t0, else the
    // coarse tier (one peak per minute) followed by the fine samples after it.
    std::vector<Sample> range(double t0, double t1) const;

    static constexpr double kCoarseBucketS = 60;

private:
    RingBuffer<Sample> fine_;
    RingBuffer<Sample> coarse_;
    std::optional<Sample> pending_;
    qint64 pendingBucket_ = 0;
};

class PoolHistory : public QObject
{
    Q_OBJECT
public:
    // 3600 fine samples = an hour at the default 1 s interval; 7 days of per-minute peaks.
    explicit PoolHistory(QObject* parent = nullptr, int fineCapacity = 3660, int coarseCapacity = 7 * 1440);

    // Pool sizes by group key or application_name (PollerConfig::analysis.poolSizes).
    void setAnalysisConfig(const AnalysisConfig& cfg);
    const AnalysisConfig& analysisConfig() const { return cfg_; }
    // Which grouping current()/groupKeys() describe; history is kept for every grouping.
    void setGroupBy(GroupBy by);
    GroupBy groupBy() const { return groupBy_; }

    // Takes one refresh (failed refreshes are skipped: a gap, not zeros).
    void add(const Snapshot& s);

    struct GroupTrack
    {
        explicit GroupTrack(int fine, int coarse) : series(fine, coarse) {}
        TieredSeries<GroupSample> series;
        PoolGroup current; // as of the last refresh (counts 0 when the group has no session now)
        double lastSeen = 0;
    };
    // Groups of the current grouping, biggest first (present now, then recently gone).
    std::vector<QString> groupKeys() const;
    const GroupTrack* group(const QString& key) const;
    const GroupTrack* group(GroupBy by, const QString& key) const;
    const TieredSeries<ClusterSample>& cluster() const { return cluster_; }
    std::optional<ClusterSample> lastCluster() const;
    bool hasSamples() const { return haveSamples_; }
    double startedAt() const { return startedAt_; } // the first sample's time
    double lastTime() const { return lastTime_; }
    int fineCapacity() const { return fineCapacity_; }
    int maxGroups() const { return maxGroups_; }
    void setMaxGroups(int n) { maxGroups_ = n; }

Q_SIGNALS:
    void updated();
    void groupByChanged();

private:
    void addGroups(GroupBy by, double t, const std::vector<PoolGroup>& groups);

    AnalysisConfig cfg_;
    GroupBy groupBy_ = GroupBy::ClientInstance;
    int fineCapacity_;
    int coarseCapacity_;
    int maxGroups_ = 500;
    std::array<std::vector<std::unique_ptr<GroupTrack>>, 4> tracks_;
    std::array<QHash<QString, GroupTrack*>, 4> index_;
    TieredSeries<ClusterSample> cluster_;
    // Deadlock counter deltas within the last minute, for deadlocks per minute across resets.
    std::vector<std::pair<double, qint64>> deadlockDeltas_;
    qint64 lastDeadlocks_ = -1;
    std::optional<double> lastStatsReset_;
    bool haveSamples_ = false;
    double startedAt_ = 0;
    double lastTime_ = 0;
};

template <typename Sample> std::vector<Sample> TieredSeries<Sample>::range(double t0, double t1) const
{
    std::vector<Sample> out;
    int first = 0;
    const bool fineCovers =
        fine_.empty() || fine_.front().t <= t0 || (coarse_.empty() && !pending_); // nothing older exists
    if (!fineCovers) {
        const double fineStart = fine_.front().t;
        for (int i = 0; i < coarse_.size(); ++i) {
            const Sample& c = coarse_[i];
            if (c.t >= t0 && c.t < fineStart && c.t <= t1)
                out.push_back(c);
        }
    }
    // Binary search for the first fine sample at or after t0.
    int lo = 0, hi = fine_.size();
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (fine_[mid].t < t0)
            lo = mid + 1;
        else
            hi = mid;
    }
    first = lo;
    for (int i = first; i < fine_.size() && fine_[i].t <= t1; ++i)
        out.push_back(fine_[i]);
    return out;
}

} // namespace lw
