#pragma once
// What one refresh changed in the leases, as the one lease tracker judged it: the history writer
// is handed this instead of judging the rows again (issue 24, point 4).
#include "LeaseTracker.h"

#include <vector>

namespace lw {

struct LeaseChanges
{
    struct Lease
    {
        QString key;                              // the tracker's row key
        LeaseRow row;                             // as last read (a released lease: its last row)
        LeaseChange change = LeaseChange::None;   // what this refresh saw; None: unchanged in it (the clock
                                                  // may have moved its state)
        LeaseState state = LeaseState::Held;      // at the refresh's server time
        bool released() const { return state == LeaseState::Released; } // gone from the table
    };
    bool applied = false; // the tracker applied this refresh's rows (false: failed, unreadable, loading)
    // `leases` holds every lease the tracker has, not only what changed: a first read, a refresh
    // missed in between, new rules (each row retimed), or a writer that asked (after a rollback).
    bool all = false;
    std::vector<Lease> leases;
};

// Reads a tracker after each refresh it applied: the rows it saw change, and the rows whose state
// the clock moved since the refresh before (held → renewal overdue → stale). One reader per
// consumer; it remembers only which of the tracker's refreshes it read last.
class LeaseChangeReader
{
public:
    // `all`: list every lease (the consumer lost track). A first read lists every lease anyway.
    LeaseChanges read(const LeaseTracker& t, bool all = false);

private:
    quint64 readApplies_ = 0;
    quint64 readRules_ = 0;
};

} // namespace lw
