#include "LeaseChanges.h"

namespace lw {

LeaseChanges LeaseChangeReader::read(const LeaseTracker& t, bool all)
{
    LeaseChanges c;
    if (t.applies() == readApplies_)
        return c; // this refresh's rows did not reach the tracker
    c.applied = true;
    c.all = all || readApplies_ == 0 || t.applies() != readApplies_ + 1 || t.rulesVersion() != readRules_;
    readApplies_ = t.applies();
    readRules_ = t.rulesVersion();
    const double now = t.appliedNow();
    auto add = [&](int row, LeaseChange change) {
        const LeaseTracker::Entry& e = t.entry(row);
        c.leases.push_back(
            {e.key, e.track.row, change, e.track.releasedAt ? LeaseState::Released : t.stateAt(row, now)});
    };
    if (c.all) {
        // Every lease, each with what this refresh saw (None: unchanged in it).
        std::vector<LeaseChange> seen(size_t(t.size()), LeaseChange::None);
        for (const auto& [row, change] : t.lastChanges())
            seen[size_t(row)] = change;
        c.leases.reserve(size_t(t.size()));
        for (int i = 0; i < t.size(); ++i)
            add(i, seen[size_t(i)]);
        return c;
    }
    std::vector<char> listed(size_t(t.size()), 0);
    for (const auto& [row, change] : t.lastChanges()) {
        listed[size_t(row)] = 1;
        add(row, change);
    }
    // The clock's changes: a row's timeline is unchanged since the last refresh (else it is listed
    // above), so its state then is what the consumer holds.
    const double before = t.previousAppliedNow();
    for (int i = 0; i < t.size(); ++i)
        if (!listed[size_t(i)] && !t.entry(i).track.releasedAt && t.stateAt(i, before) != t.stateAt(i, now))
            add(i, LeaseChange::None);
    return c;
}

} // namespace lw
