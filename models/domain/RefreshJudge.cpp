#include "RefreshJudge.h"

namespace lw {

RefreshJudge::RefreshJudge(LeaseTracker::MonotonicClock clock) : leases_(std::move(clock)) {}

RefreshJudge::RefreshJudge(const LeasePolicy& policy, bool writerUsesAppClock)
{
    leases_.setPolicy(policy);
    leases_.setWriterUsesAppClock(writerUsesAppClock);
}

const std::vector<Finding>& RefreshJudge::apply(const Snapshot& s)
{
    if (intake_ && loading_) {
        intake_->finishLoading();
        loading_ = false;
    }
    const LeaseTracker::Begun b = leases_.begin(s);
    if (intake_)
        loading_ = !intake_->takeRows(s, b);
    else if (b.outcome == LeaseTracker::Outcome::Rows)
        leases_.applyRows(s, b);
    if (!s.ok)
        return findings_;
    deadlocks_.add(s.serverNow, s.cluster.deadlocks, s.cluster.statsReset);
    judge(s);
    return findings_;
}

void RefreshJudge::rowsLoaded(const Snapshot& s)
{
    loading_ = false;
    if (s.ok)
        judge(s);
}

void RefreshJudge::judge(const Snapshot& s)
{
    if (!loading_) { // the holders are matched with every row, so only once all are in
        presence_.observe(s, leases_);
        flags_.observe(s, leases_);
        overlaps_.observe(s, leases_);
    }
    findings_ = collectFindings(s, leases_, &deadlocks_, &presence_, &flags_, &overlaps_);
}

void RefreshJudge::restart()
{
    // The tracker has no reset: its rows are retired through its own release path (gone, then past
    // the linger), far beyond any recorded time, so the next snapshot's rows are first sightings
    // whose take cannot look fresh (taken_at before the previous refresh).
    Snapshot empty;
    empty.ok = true;
    empty.receivedMonotonicMs = 1;
    empty.serverNow = 1e15;
    apply(empty);
    empty.serverNow = 2e15;
    apply(empty);
    deadlocks_ = DeadlockWindow(deadlocks_.windowSeconds());
    presence_ = HolderPresence();
    flags_ = FlagLockWatch();
    overlaps_ = TakeoverOverlap();
    findings_.clear();
}

} // namespace lw
