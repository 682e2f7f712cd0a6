#pragma once
// How a profile judges its leases: a plain value that the settings, the history store and the
// lease rules (LeaseState.h) share, apart from the rules themselves so that a change to them does
// not rebuild its readers.
#include <optional>

namespace lw {

struct LeasePolicy
{
    double expiringSoonShare = 0.25;   // of the TTL left
    std::optional<double> ttlOverride; // set per profile; otherwise inferred
    double refreshIntervalS = 1.0;
    double releasedLingerS = 30.0;  // keep a released row (greyed) this long
    double takenOverLingerS = 10.0; // show "taken over" this long after the change
    // The scheme's own rules (see LeaseTableConfig): a library that releases by setting the expiry
    // to now and keeps the row (ShedLock) leaves expired rows that are free, not stale; a library
    // that takes a lock for a fixed time and never renews it has no renewal to be overdue.
    bool expiryFrees = false;
    bool expectRenewals = true;
    double renewShare = 0.25; // renewals come every this share of the TTL
    bool operator==(const LeasePolicy&) const = default;
};

} // namespace lw
