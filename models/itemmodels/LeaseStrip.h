#pragma once
// A lease's recorded history as a strip over time (issue 27, point 6): consecutive spans in one
// state — held (by a holder), renewal overdue, stale, forced, released — from the timeline's events.
// Plain values for the strip widget; QtCore only.
#include "store/HistoryReader.h"

#include <optional>
#include <vector>

namespace lw {

struct StripSegment
{
    enum class State { Held, Overdue, Stale, Forced, Released };
    State state = State::Held;
    double from = 0, to = 0;       // server time, clipped to the strip's range
    std::optional<QString> holder; // held by (or last held by)
    bool takenOver = false;        // it began with a takeover after the previous holder's expiry
    bool operator==(const StripSegment&) const = default;
};
QString stripStateText(StripSegment::State s); // "renewal overdue"

// The spans of `events` (oldest first, as HistoryReader::timeline gives them) within [t0, t1]: the
// state in effect at t0 comes from the last event before it; the last span runs to t1. Nothing
// before the first event (the strip is empty there).
std::vector<StripSegment> leaseStrip(const std::vector<LeaseTimelineEvent>& events, double t0, double t1);

// Where two holders may both have run `lease`'s work (a take-over while the previous holder's
// sessions stayed busy: the recorded double_run findings), clipped to [t0, t1], oldest first.
using Overlap = std::pair<double, double>;
std::vector<Overlap> leaseOverlaps(const std::vector<RecordedFinding>& findings, const QString& lease, double t0,
                                   double t1);

} // namespace lw
