#pragma once
// The states a lease is shown in, and their words: all that the palette, the metrics and the
// settings need of a lease, apart from how a state is inferred (LeaseState.h), so that a change
// to the inference does not rebuild them.
#include <QString>

namespace lw {

enum class LeaseState {
    Held,           // holder renewing in time
    ExpiringSoon,   // less than the configured share of its TTL left
    RenewalOverdue, // holder missed its renewal window (renewals come every TTL/4)
    Stale,          // expired and nobody took it over: what an operator acts on
    TakenOver,      // another holder took it after it expired (shown for a while)
    Released,       // the row disappeared (shown greyed for a while)
    Unknown,        // no expiry to judge by (NULL)
    Free,           // released the library's way with the row kept (ShedLock sets lock_until = now): at rest
};
constexpr int kLeaseStateCount = 8;

QString leaseStateText(LeaseState s); // "renewal overdue"
QString leaseStateKey(LeaseState s);  // "renewal_overdue" (JSON)
int leaseStateSeverity(LeaseState s); // sort order, worst first = highest

} // namespace lw
