#pragma once
// Per-lease inference across refreshes (TTL, last renewal, takeovers, releases) and the state an
// operator sees. Pure values and functions: the model holds one LeaseTrack per row.
#include "LeasePolicy.h"
#include "LeaseStateKind.h"
#include "Snapshot.h"

#include <QString>

#include <limits>
#include <optional>

namespace lw {

struct HolderParts
{
    bool structured = false; // split by its scheme's format (host:pid:token, a host name, …)
    QString host;
    qint64 pid = 0; // 0: the format carries none
    QString token;
};
HolderParts splitHolder(const QString& holder);
// By the library's own holder format (see LeaseTableConfig::HolderFormat).
HolderParts splitHolder(const QString& holder, LeaseTableConfig::HolderFormat format);

// The table's scheme applied to the profile's policy: what an expired row means, whether and how
// often renewals come, a TTL the catalogue knows. The one place a scheme's rules become a policy.
LeasePolicy policyForTable(LeasePolicy base, const LeaseTableConfig& table);

struct LeaseTrack
{
    LeaseRow row;
    std::optional<double> ttl;         // exact from a fresh take, else inferred from renewals
    std::optional<double> ttlUpper;    // expires - taken: an upper bound before any renewal is seen
    double watchSince = 0;             // server time from which "no renewal seen" is measured
    std::optional<double> lastRenewal; // server time of the last renewal (or the take)
    std::optional<double> releasedAt;
    std::optional<double> takenOverAt;
    QString previousHolder;
    int renewalsSeen = 0;
    bool ttlExact = false; // ttl is a fresh take's
    // The writer's clock minus the server's, bounded by what the console saw: a take seen between
    // two refreshes happened between their server times, and its taken-at is the writer's clock
    // then; a renewal's new expiry minus the TTL of an observed take, likewise. Meaningful only for
    // writers on the application's clock (LeaseTableConfig::writerUsesAppClock).
    std::optional<double> takeSpan; // expires − taken of a take the console saw happen
    std::optional<double> offsetLo; // writer − server >= this
    std::optional<double> offsetHi; // writer − server <= this
};

// Seconds the writer's clock is known to run ahead (> 0) or behind (< 0) the server's, beyond the
// slack of one statement; 0 when not known to be off.
double writerClockSkew(const LeaseTrack& t, double slackS = 1.0);

// What one refresh saw happen to a lease, by the rules every reader shares (the window, the
// history, the findings): a holder change is a take-over when the new take is not earlier than the
// old expiry (ON CONFLICT … WHERE expires_at < now() took an expired lease), a later expiry with
// the same take a renewal.
enum class LeaseChange {
    None,     // nothing the lease's record keeps changed
    Seen,     // first sighting: the row existed before, its history is unknown
    Take,     // the row appeared, or changed holder before it had expired
    TakeOver, // another holder took it after it had expired
    Renew,    // same holder and take, a later expiry
    Modify,   // same holder, another change (the expiry moved earlier: a forced expiry; taken-at moved)
    Release,  // the row disappeared
};
LeaseChange leaseChange(const std::optional<QString>& holderBefore, std::optional<double> expiresBefore,
                        std::optional<double> takenBefore, const LeaseRow& now);

enum class Sighting {
    FirstRefresh, // the console's first look: the row's history is unknown
    NewRow,       // the row appeared since the previous refresh
    Existing,     // the row was there at the previous refresh
};
// Folds a fresh observation of the row into the track. `prevNow` is the previous refresh's server
// time (0 on the first refresh), `now` this refresh's.
LeaseChange observeLease(LeaseTrack& t, const LeaseRow& row, double now, double prevNow, Sighting sighting);
void observeMissing(LeaseTrack& t, double now);

// classifyLease's answer as instants on the server clock, worked out once per change of the track:
// a pass over 100 000 rows (each countdown tick, the lease findings) then reads 40 bytes a row and
// compares, instead of re-deriving the state from the whole track.
struct LeaseTimeline
{
    bool timed = false;                       // false: `fixed` holds whatever the time
    bool expiryFrees = false;                 // past expiresAt: Free instead of Stale
    LeaseState fixed = LeaseState::Unknown;   // Released, or Unknown (no expiry to judge by)
    double expiresAt = 0;                     // Stale from this instant on
    double takenOverUntil = -std::numeric_limits<double>::infinity(); // TakenOver before this
    double overdueAfter = std::numeric_limits<double>::infinity();    // RenewalOverdue after this
    double expiringAfter = std::numeric_limits<double>::infinity();   // ExpiringSoon after this
    LeaseState at(double now) const
    {
        if (!timed)
            return fixed;
        if (now >= expiresAt)
            return expiryFrees ? LeaseState::Free : LeaseState::Stale;
        if (now < takenOverUntil)
            return LeaseState::TakenOver;
        if (now > overdueAfter)
            return LeaseState::RenewalOverdue;
        if (now > expiringAfter)
            return LeaseState::ExpiringSoon;
        return LeaseState::Held;
    }
    bool operator==(const LeaseTimeline&) const = default;
};
LeaseTimeline leaseTimeline(const LeaseTrack& t, const LeasePolicy& p);
// The state at `now`: leaseTimeline(t, p).at(now), one definition for both.
LeaseState classifyLease(const LeaseTrack& t, double now, const LeasePolicy& p);
// Seconds since the last renewal the console can vouch for, or nullopt.
std::optional<double> secondsSinceRenewal(const LeaseTrack& t, double now);
// The window after which a renewal counts as overdue, or nullopt when the TTL is unknown.
std::optional<double> overdueAfter(const LeaseTrack& t, const LeasePolicy& p);

} // namespace lw
