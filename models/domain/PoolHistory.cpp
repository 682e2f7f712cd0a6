#include "PoolHistory.h"

#include <QSet>

namespace lw {

namespace {
constexpr std::array<GroupBy, 4> kGroupings = {GroupBy::ClientInstance, GroupBy::ApplicationName,
                                               GroupBy::User, GroupBy::Database};

GroupSample sampleOf(double t, const PoolGroup& g)
{
    GroupSample s;
    s.t = t;
    s.active = g.active;
    s.idle = g.idle;
    s.idleInTransaction = g.idleInTransaction;
    s.waitingOnLock = g.waitingOnLock;
    s.idleHoldingAdvisory = g.idleHoldingAdvisory;
    return s;
}
} // namespace

PoolHistory::PoolHistory(QObject* parent, int fineCapacity, int coarseCapacity)
    : QObject(parent), fineCapacity_(fineCapacity), coarseCapacity_(coarseCapacity),
      cluster_(fineCapacity, coarseCapacity)
{
}

void PoolHistory::setAnalysisConfig(const AnalysisConfig& cfg)
{
    cfg_ = cfg;
}

void PoolHistory::setGroupBy(GroupBy by)
{
    if (by == groupBy_)
        return;
    groupBy_ = by;
    Q_EMIT groupByChanged();
}

const PoolHistory::GroupTrack* PoolHistory::group(GroupBy by, const QString& key) const
{
    return index_[size_t(by)].value(key, nullptr);
}

const PoolHistory::GroupTrack* PoolHistory::group(const QString& key) const
{
    return group(groupBy_, key);
}

std::vector<QString> PoolHistory::groupKeys() const
{
    std::vector<const GroupTrack*> ts;
    for (const auto& t : tracks_[size_t(groupBy_)])
        ts.push_back(t.get());
    // Present groups by size, then the ones that left, most recently seen first.
    std::sort(ts.begin(), ts.end(), [](const GroupTrack* a, const GroupTrack* b) {
        if (a->current.total != b->current.total)
            return a->current.total > b->current.total;
        if (a->lastSeen != b->lastSeen)
            return a->lastSeen > b->lastSeen;
        return a->current.key < b->current.key;
    });
    std::vector<QString> keys;
    keys.reserve(ts.size());
    for (const GroupTrack* t : ts)
        keys.push_back(t->current.key);
    return keys;
}

std::optional<ClusterSample> PoolHistory::lastCluster() const
{
    if (cluster_.fine().empty())
        return std::nullopt;
    return cluster_.fine().back();
}

void PoolHistory::addGroups(GroupBy by, double t, const std::vector<PoolGroup>& groups)
{
    auto& tracks = tracks_[size_t(by)];
    auto& index = index_[size_t(by)];
    for (const PoolGroup& g : groups) {
        GroupTrack* tr = index.value(g.key, nullptr);
        if (!tr) {
            tracks.push_back(std::make_unique<GroupTrack>(fineCapacity_, coarseCapacity_));
            tr = tracks.back().get();
            index.insert(g.key, tr);
        }
        tr->series.add(sampleOf(t, g));
        tr->current = g;
        tr->lastSeen = t; // fed this refresh (times only grow, see add())
    }
    // Groups without a session now get a zero sample: every track stays aligned with the cluster's.
    for (const auto& tr : tracks) {
        if (tr->lastSeen == t)
            continue;
        GroupSample z;
        z.t = t;
        tr->series.add(z);
        PoolGroup& c = tr->current;
        c.total = c.active = c.idle = c.idleInTransaction = c.waitingOnLock = c.idleHoldingAdvisory = 0;
        c.pinned = false;
        c.pinnedLockNames.clear();
        c.pinnedLocks = 0;
        c.pinnedForS = 0;
    }
    // Forget groups gone for longer than the fine tier reaches (nothing left to draw in the last
    // hour), and the longest-gone beyond maxGroups (a storm of one-off client addresses).
    auto gone = [&](const std::unique_ptr<GroupTrack>& tr) {
        return tr->current.total == 0 && tr->lastSeen < tr->series.fine().front().t;
    };
    const size_t before = tracks.size();
    if (int(tracks.size()) > maxGroups_) {
        std::vector<GroupTrack*> absent;
        for (const auto& tr : tracks)
            if (tr->current.total == 0)
                absent.push_back(tr.get());
        std::sort(absent.begin(), absent.end(),
                  [](const GroupTrack* a, const GroupTrack* b) { return a->lastSeen < b->lastSeen; });
        const size_t excess = std::min(absent.size(), tracks.size() - size_t(maxGroups_));
        const QSet<GroupTrack*> drop(absent.begin(), absent.begin() + qsizetype(excess));
        std::erase_if(tracks, [&](const std::unique_ptr<GroupTrack>& tr) { return drop.contains(tr.get()); });
    }
    std::erase_if(tracks, gone);
    if (tracks.size() != before) { // new tracks are in the index already
        index.clear();
        for (const auto& tr : tracks)
            index.insert(tr->current.key, tr.get());
    }
}

void PoolHistory::add(const Snapshot& s)
{
    // A failed refresh is a gap, not zero connections; a clock stepping back would break the
    // time order the ring buffers are searched in.
    if (!s.ok || (haveSamples_ && s.serverNow <= lastTime_))
        return;
    const double t = s.serverNow;
    if (!haveSamples_)
        startedAt_ = t;
    haveSamples_ = true;
    lastTime_ = t;
    // The analysis grouped the sessions every way already (when its configuration, the grouping
    // aside, is ours); otherwise one pass over the sessions does.
    bool reuse = false;
    if (s.analysis) {
        AnalysisConfig mine = cfg_;
        mine.groupBy = s.analysis->config.groupBy; // it has every grouping, whichever its findings use
        reuse = s.analysis->config == mine;
    }
    std::array<std::vector<PoolGroup>, 4> own;
    if (!reuse)
        own = groupSessionsEveryWay(s, cfg_, s.analysis ? s.analysis->heldByPid : QHash<int, HeldLocks>());
    const auto& everyWay = reuse ? s.analysis->groupsBy : own;
    for (GroupBy by : kGroupings)
        addGroups(by, t, everyWay[size_t(by)]);

    ClusterSample c;
    c.t = t;
    c.connections = int(s.sessions.size()) + 1; // + the console's own backend
    c.connectionBudget = s.cluster.connectionBudget();
    c.lockTableEntries = s.cluster.lockTableEntries;
    c.lockTableCapacity = s.cluster.lockTableCapacity();
    c.advisoryLocks = int(s.advisoryLocks.size());
    for (const SessionRow& r : s.sessions)
        if (r.waitEventType == QLatin1String("Lock"))
            ++c.waitingOnLock;
    // Deadlocks: growth of the cumulative counter. A drop or a new stats_reset is a reset of the
    // statistics (crash, pg_stat_reset), counted as no growth rather than negative deadlocks.
    const qint64 d = s.cluster.deadlocks;
    const bool resetSeen =
        (lastStatsReset_ && s.cluster.statsReset && *lastStatsReset_ != *s.cluster.statsReset);
    c.counterReset = lastDeadlocks_ >= 0 && d >= 0 && (d < lastDeadlocks_ || resetSeen);
    qint64 delta = 0;
    if (lastDeadlocks_ >= 0 && d >= 0 && !c.counterReset)
        delta = d - lastDeadlocks_;
    if (d >= 0)
        lastDeadlocks_ = d;
    if (s.cluster.statsReset)
        lastStatsReset_ = s.cluster.statsReset;
    deadlockDeltas_.emplace_back(t, delta);
    std::erase_if(deadlockDeltas_, [t](const auto& p) { return p.first <= t - 60.0; });
    for (const auto& p : deadlockDeltas_)
        c.deadlocksLastMinute += int(p.second);
    cluster_.add(c);
    Q_EMIT updated();
}

} // namespace lw
