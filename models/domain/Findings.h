#pragma once
// All findings of one refresh, in the words the window, the overview and `leasewatch snapshot`
// share: the analysis's (locks, pools, waits, limits) plus the leases' (stale, writer clock skew)
// and deadlocks seen over a recent window.
#include "domain/Analysis.h"

#include <deque>

namespace lw {

class LeaseTracker; // by reference: the lease rules are not every reader's to rebuild with
class HolderPresence;
class FlagLockWatch;
class TakeoverOverlap;

// pg_stat_database.deadlocks sampled per refresh; growth within the window is a finding.
class DeadlockWindow
{
public:
    explicit DeadlockWindow(double windowS = 300) : windowS_(windowS) {}
    void add(double serverNow, qint64 deadlocks, std::optional<double> statsReset);
    int deadlocksInWindow() const; // 0 across a counter reset
    double windowSeconds() const { return windowS_; }
    std::optional<double> perMinute() const; // over the samples held

private:
    double windowS_;
    std::deque<std::pair<double, qint64>> samples_;
    std::optional<double> statsReset_;
};

std::vector<Finding> leaseFindings(const LeaseTracker& leases);
std::vector<Finding> collectFindings(const Snapshot& s, const LeaseTracker& leases,
                                     const DeadlockWindow* deadlocks, const HolderPresence* presence = nullptr,
                                     const FlagLockWatch* flags = nullptr,
                                     const TakeoverOverlap* overlaps = nullptr);
// Worst first (severity), in their order within a severity: the order every list of findings shows.
void sortWorstFirst(std::vector<Finding>& findings);

} // namespace lw
