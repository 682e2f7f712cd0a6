#include "LeaseStrip.h"
#include "domain/Words.h"

#include <algorithm>

namespace lw {

QString stripStateText(StripSegment::State s)
{
    switch (s) {
    case StripSegment::State::Held:
        return StateWords::tr("held");
    case StripSegment::State::Overdue:
        return StateWords::tr("renewal overdue");
    case StripSegment::State::Stale:
        return StateWords::tr("stale");
    case StripSegment::State::Forced:
        return StateWords::tr("force-expired");
    case StripSegment::State::Released:
        return StateWords::tr("released");
    }
    return {};
}

std::vector<Overlap> leaseOverlaps(const std::vector<RecordedFinding>& findings, const QString& lease, double t0,
                                   double t1)
{
    std::vector<Overlap> out;
    for (const RecordedFinding& f : findings) {
        if (f.kind != QLatin1String("double_run") || f.subject != lease)
            continue;
        const double from = std::max(f.appearedAt, t0), to = std::min(f.goneAt.value_or(t1), t1);
        if (to > from)
            out.emplace_back(from, to);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<StripSegment> leaseStrip(const std::vector<LeaseTimelineEvent>& events, double t0, double t1)
{
    using K = LeaseTimelineEvent::Kind;
    using S = StripSegment::State;
    std::vector<StripSegment> out;
    if (!(t1 > t0))
        return out;
    std::optional<QString> holder;
    for (size_t i = 0; i < events.size(); ++i) {
        const LeaseTimelineEvent& e = events[i];
        S state = S::Held;
        switch (e.kind) {
        case K::Seen:
        case K::Take:
        case K::TakeOver:
        case K::Renewals:
        case K::Changed:
            state = S::Held;
            if (e.holder)
                holder = e.holder;
            break;
        case K::Overdue:
            state = S::Overdue;
            break;
        case K::Expired:
            state = S::Stale;
            break;
        case K::ForcedExpiry:
            state = S::Forced;
            break;
        case K::Released:
            state = S::Released;
            break;
        }
        const double from = std::max(e.at, t0);
        const double to = std::min(i + 1 < events.size() ? events[i + 1].at : t1, t1);
        if (to <= from)
            continue; // before the range, or after it
        const bool takeover = e.kind == K::TakeOver && e.at >= t0;
        if (!out.empty() && out.back().state == state && out.back().holder == holder && !takeover &&
            out.back().to == from) {
            out.back().to = to; // one span per state and holder: renewals extend it
            continue;
        }
        out.push_back({state, from, to, holder, takeover});
    }
    return out;
}

} // namespace lw
