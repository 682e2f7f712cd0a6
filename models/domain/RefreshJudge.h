#pragma once
// One refresh judged once, the same way wherever it is shown or kept: the window (Monitor), the
// recorder, `watch`/`snapshot` and the history writer all take this class's verdicts. It owns the
// lease tracker (takes, renewals, take-overs, states), the deadlock window, the holders seen over
// refreshes, and the findings of the last refresh that answered.
#include "domain/Findings.h"
#include "domain/Holders.h"
#include "domain/LeaseTracker.h"

#include <vector>

namespace lw {

class RefreshJudge
{
public:
    // How a refresh's lease rows go into the tracker when a view mirrors each step (the Leases item
    // model's signals) and may take a large first read in slices. Without one they go in at once.
    class RowIntake
    {
    public:
        virtual ~RowIntake() = default;
        // The tracker has begun `s` (`b`: failed, unreadable, or rows to apply); the intake applies
        // them to the tracker attach() gave it. False while the rows are still loading: the
        // intake's owner then calls rowsLoaded() once they are all in.
        virtual bool takeRows(const Snapshot& s, const LeaseTracker::Begun& b) = 0;
        // Rows still loading go in now: the next refresh is about to begin.
        virtual void finishLoading() = 0;
    };

    explicit RefreshJudge(LeaseTracker::MonotonicClock clock = monotonicMs);
    RefreshJudge(const LeasePolicy& policy, bool writerUsesAppClock);

    void setPolicy(const LeasePolicy& p) { leases_.setPolicy(p); }
    void setWriterUsesAppClock(bool on) { leases_.setWriterUsesAppClock(on); }
    // Rows go in through `intake` from now on (null: at once); the tracker it is to apply them to.
    LeaseTracker& attach(RowIntake* intake)
    {
        intake_ = intake;
        return leases_;
    }

    // One refresh: its rows into the tracker, then (when it answered) the deadlock count, the
    // holders' sessions and the findings. A failed refresh keeps the last findings.
    const std::vector<Finding>& apply(const Snapshot& s);
    // The intake's rows of `s` (the last refresh applied) are all in: its lease findings now.
    void rowsLoaded(const Snapshot& s);
    bool rowsLoading() const { return loading_; }
    // Forgets every lease, the deadlocks and the holders seen (a recorded window jumping back).
    void restart();

    const LeaseTracker& leases() const { return leases_; }
    const HolderPresence& presence() const { return presence_; }
    const FlagLockWatch& flags() const { return flags_; }
    const TakeoverOverlap& overlaps() const { return overlaps_; }
    // collectFindings() of the last refresh that answered, worst first.
    const std::vector<Finding>& findings() const { return findings_; }

private:
    void judge(const Snapshot& s);

    LeaseTracker leases_;
    DeadlockWindow deadlocks_;
    HolderPresence presence_;
    FlagLockWatch flags_;
    TakeoverOverlap overlaps_;
    std::vector<Finding> findings_;
    RowIntake* intake_ = nullptr;
    bool loading_ = false;
};

} // namespace lw
