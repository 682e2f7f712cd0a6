#pragma once
// All findings of one refresh, in the words the window, the overview and `leasewatch snapshot`
// share: the analysis's (locks, pools, waits, limits) plus the leases' (stale, writer clock skew)
// and deadlocks seen over a recent window.
#include "domain/LeaseTracker.h"
#include "domain/Analysis.h"

#include <deque>

namespace lw {

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

// Whether the holders of locks that keep no database session while they run (ShedLock) are still
// connected. Such a lock names its holder by host name only, so sessions from that host (by
// client address or application_name) say something only once some were seen: a lock whose
// holder's host had sessions while it held the lock, and has had none for `graceS`, lost its
// holder — the crashed-holder case, which ShedLock ends only at lock_until. Only a lock the console
// saw taken counts, and only while its expiry stays where the take put it: ShedLock's unlock with
// lockAtLeastFor moves lock_until earlier yet keeps it ahead (a finished job, held on purpose,
// whose host may then go away for a deploy). A host never seen connected says nothing (most JDBC
// sessions carry neither the host name nor its address as the lock names it).
class HolderPresence
{
public:
    explicit HolderPresence(double graceS = 10) : graceS_(graceS) {}
    // After `leases` took `s`, all its rows in (every answered refresh reads the sessions of the
    // whole server).
    void observe(const Snapshot& s, const LeaseTracker& leases);
    struct Seen
    {
        QString host;
        double takenAt = 0;                 // the lock this is about (a new take starts over)
        std::optional<double> lastSeen;     // server time sessions from the host were last seen
        std::optional<double> goneSince;    // … and first seen without any since
        int sessions = 0;                   // seen at lastSeen
        bool takenInView = false;           // taken between two refreshes the console saw
        double span = 0;                    // expires − taken as taken
        bool released = false;              // the expiry moved earlier: unlocked, held for lockAtLeastFor
    };
    // For the lease `key`: what was seen of its holder's host during this lock (nullptr: nothing).
    const Seen* seen(const QString& key) const;
    std::vector<Finding> findings(const LeaseTracker& leases) const;

private:
    double graceS_;
    double prevNow_ = 0; // server time of the last refresh observed
    QHash<QString, Seen> watched_; // lease key → its holder's host, while the lease is held
};

std::vector<Finding> leaseFindings(const LeaseTracker& leases);
std::vector<Finding> collectFindings(const Snapshot& s, const LeaseTracker& leases,
                                     const DeadlockWindow* deadlocks, const HolderPresence* presence = nullptr);
// Worst first (severity), in their order within a severity: the order every list of findings shows.
void sortWorstFirst(std::vector<Finding>& findings);

} // namespace lw
