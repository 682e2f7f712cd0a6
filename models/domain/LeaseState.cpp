#include "LeaseState.h"
#include "Words.h"

#include <QRegularExpression>

#include <algorithm>

namespace lw {

QString leaseStateText(LeaseState s)
{
    switch (s) {
    case LeaseState::Held:
        return StateWords::tr("held");
    case LeaseState::ExpiringSoon:
        return StateWords::tr("expiring soon");
    case LeaseState::RenewalOverdue:
        return StateWords::tr("renewal overdue");
    case LeaseState::Stale:
        return StateWords::tr("stale (expired, not taken over)");
    case LeaseState::TakenOver:
        return StateWords::tr("taken over");
    case LeaseState::Released:
        return StateWords::tr("released");
    case LeaseState::Unknown:
        return StateWords::tr("unknown (no expiry)");
    case LeaseState::Free:
        return StateWords::tr("free (released)");
    }
    return {};
}

QString leaseStateKey(LeaseState s)
{
    switch (s) {
    case LeaseState::Held:
        return QStringLiteral("held");
    case LeaseState::ExpiringSoon:
        return QStringLiteral("expiring_soon");
    case LeaseState::RenewalOverdue:
        return QStringLiteral("renewal_overdue");
    case LeaseState::Stale:
        return QStringLiteral("stale");
    case LeaseState::TakenOver:
        return QStringLiteral("taken_over");
    case LeaseState::Released:
        return QStringLiteral("released");
    case LeaseState::Unknown:
        return QStringLiteral("unknown");
    case LeaseState::Free:
        return QStringLiteral("free");
    }
    return {};
}

int leaseStateSeverity(LeaseState s)
{
    switch (s) {
    case LeaseState::Stale:
        return 6;
    case LeaseState::RenewalOverdue:
        return 5;
    case LeaseState::ExpiringSoon:
        return 4;
    case LeaseState::Unknown:
        return 3;
    case LeaseState::TakenOver:
        return 2;
    case LeaseState::Held:
        return 1;
    case LeaseState::Released:
    case LeaseState::Free:
        return 0;
    }
    return 0;
}

HolderParts splitHolder(const QString& holder)
{
    // host:pid:token — the host may itself contain ':' (IPv6), so anchor on the last two fields.
    static const QRegularExpression re(QStringLiteral("^(.+):(\\d{1,10}):([0-9A-Za-z_-]+)$"));
    HolderParts p;
    const auto m = re.match(holder);
    if (m.hasMatch()) {
        p.structured = true;
        p.host = m.captured(1);
        p.pid = m.captured(2).toLongLong();
        p.token = m.captured(3);
    }
    return p;
}

LeasePolicy policyForTable(LeasePolicy p, const LeaseTableConfig& t)
{
    p.expiryFrees = t.expiryFrees;
    p.expectRenewals = t.expectRenewals;
    p.renewShare = t.renewShare;
    p.expiringSoonShare = t.expiringSoonShare;
    if (t.ttlSeconds)
        p.ttlOverride = t.ttlSeconds;
    return p;
}

namespace {
// host and token from a pattern's two groups; the whole string as the host when it does not match.
HolderParts hostAndToken(const QString& holder, const QRegularExpression& re)
{
    HolderParts p;
    const auto m = re.match(holder);
    p.structured = true;
    p.host = m.hasMatch() ? m.captured(1) : holder;
    p.token = m.hasMatch() ? m.captured(2) : QString();
    return p;
}
} // namespace

HolderParts splitHolder(const QString& holder, LeaseTableConfig::HolderFormat format)
{
    using F = LeaseTableConfig::HolderFormat;
    // River's defaultClientID: host (dots as '_') + "_" + start time 2006_01_02T15_04_05_000000.
    static const QRegularExpression river(
        QStringLiteral("^(.+)_(\\d{4}_\\d{2}_\\d{2}T\\d{2}_\\d{2}_\\d{2}(?:_\\d+)?)$"));
    // Liquibase: host[#description] (address)
    static const QRegularExpression liquibase(QStringLiteral("^(.*\\S)\\s+\\(([^()]*)\\)$"));
    // Quartz AUTO: host + 13-digit epoch milliseconds (else the host alone: HostnameInstanceIdGenerator)
    static const QRegularExpression quartz(QStringLiteral("^(.+?)(\\d{13})$"));
    HolderParts p;
    switch (format) {
    case F::HostPidToken:
        return splitHolder(holder);
    case F::Host:
        p.structured = !holder.isEmpty();
        p.host = holder;
        return p;
    case F::RiverClientId:
        return hostAndToken(holder, river);
    case F::HostAddress:
        return hostAndToken(holder, liquibase);
    case F::QuartzInstanceId:
        return hostAndToken(holder, quartz);
    case F::Opaque:
        p.structured = true;
        p.token = holder;
        return p;
    }
    return p;
}

namespace {
// One observation of the writer's clock at an instant known to lie in (prevNow, now]: narrows the
// estimate when it agrees with the earlier ones, replaces it when the clock has moved (a step).
void observeWriterClock(LeaseTrack& t, double writerTime, double now, double prevNow)
{
    const double lo = writerTime - now, hi = writerTime - prevNow;
    if (t.offsetLo && t.offsetHi && lo <= *t.offsetHi && hi >= *t.offsetLo) {
        t.offsetLo = std::max(*t.offsetLo, lo);
        t.offsetHi = std::min(*t.offsetHi, hi);
    } else {
        t.offsetLo = lo;
        t.offsetHi = hi;
    }
}
} // namespace

double writerClockSkew(const LeaseTrack& t, double slackS)
{
    if (t.offsetLo && *t.offsetLo > slackS)
        return *t.offsetLo;
    if (t.offsetHi && *t.offsetHi < -slackS)
        return *t.offsetHi;
    return 0;
}

LeaseChange leaseChange(const std::optional<QString>& holderBefore, std::optional<double> expiresBefore,
                        std::optional<double> takenBefore, const LeaseRow& now)
{
    if (now.holder != holderBefore) {
        // A takeover is a take of an expired lease (ON CONFLICT … WHERE expires_at < now()): the
        // new take is not earlier than the old expiry. A release followed by a fresh take within
        // one refresh looks like a holder change too, but the old lease had not expired.
        const bool takeover = !expiresBefore || !now.takenAt || *now.takenAt >= *expiresBefore;
        return takeover ? LeaseChange::TakeOver : LeaseChange::Take;
    }
    if (now.takenAt == takenBefore && now.expiresAt && expiresBefore && *now.expiresAt > *expiresBefore + 1e-6)
        return LeaseChange::Renew;
    if (now.takenAt != takenBefore || now.expiresAt != expiresBefore)
        return LeaseChange::Modify;
    return LeaseChange::None;
}

LeaseChange observeLease(LeaseTrack& t, const LeaseRow& row, double now, double prevNow, Sighting sighting)
{
    const bool existing = sighting == Sighting::Existing;
    const bool reappeared = existing && t.releasedAt.has_value();
    const LeaseChange change = !existing    ? (sighting == Sighting::FirstRefresh ? LeaseChange::Seen : LeaseChange::Take)
                               : reappeared ? LeaseChange::Take
                                            : leaseChange(t.row.holder, t.row.expiresAt, t.row.takenAt, row);
    const bool holderChanged = change == LeaseChange::Take || change == LeaseChange::TakeOver;
    const bool takeover = change == LeaseChange::TakeOver;
    if (!existing || holderChanged || reappeared) {
        if (takeover) {
            t.takenOverAt = now;
            t.previousHolder = t.row.holder.value_or(QString());
        } else {
            t.takenOverAt.reset();
            t.previousHolder.clear();
        }
        t.releasedAt.reset();
        t.renewalsSeen = 0;
        t.watchSince = now;
        t.lastRenewal.reset();
        t.ttlUpper.reset();
        t.takeSpan.reset();
        // Not there (or another holder's) at prevNow, there now: taken in between, at taken-at on
        // the writer's clock.
        if (sighting != Sighting::FirstRefresh && prevNow > 0 && row.takenAt) {
            observeWriterClock(t, *row.takenAt, now, prevNow);
            if (row.expiresAt && *row.expiresAt >= *row.takenAt)
                t.takeSpan = *row.expiresAt - *row.takenAt;
        }
        if (row.takenAt && row.expiresAt && *row.expiresAt >= *row.takenAt) {
            const double span = *row.expiresAt - *row.takenAt;
            // Taken since the previous refresh: nothing can have renewed it yet, so the span is the TTL.
            const bool freshTake = sighting != Sighting::FirstRefresh && *row.takenAt > prevNow;
            if (freshTake) {
                t.ttl = span;
                t.ttlExact = true;
                t.lastRenewal = *row.takenAt;
            } else {
                t.ttlUpper = span;
                if (!t.ttlExact)
                    t.ttl.reset();
            }
        }
        t.row = row;
        return change;
    }
    // Same holder: a later expiry is a renewal made between prevNow and now.
    if (row.expiresAt && t.row.expiresAt && *row.expiresAt > *t.row.expiresAt + 1e-6) {
        ++t.renewalsSeen;
        const double lowerBound = *row.expiresAt - now; // renewal at most `now`: ttl >= this
        if (!t.ttlExact)
            t.ttl = std::max(t.ttl.value_or(0.0), lowerBound);
        t.lastRenewal = *row.expiresAt - *t.ttl;
        t.watchSince = now;
        // The renewal wrote now + TTL on the writer's clock, between prevNow and now.
        if (t.takeSpan && prevNow > 0)
            observeWriterClock(t, *row.expiresAt - *t.takeSpan, now, prevNow);
    }
    t.row = row;
    return change;
}

void observeMissing(LeaseTrack& t, double now)
{
    if (!t.releasedAt)
        t.releasedAt = now;
}

std::optional<double> overdueAfter(const LeaseTrack& t, const LeasePolicy& p)
{
    const std::optional<double> ttl = p.ttlOverride ? p.ttlOverride : (t.ttl ? t.ttl : t.ttlUpper);
    if (!ttl || *ttl <= 0)
        return std::nullopt;
    // Renewals come every TTL/4 (or the scheme's share); allow one more quarter (or 1.5 refreshes)
    // before calling it missed.
    return *ttl * p.renewShare + std::max(*ttl * 0.25, 1.5 * p.refreshIntervalS);
}

std::optional<double> secondsSinceRenewal(const LeaseTrack& t, double now)
{
    if (t.lastRenewal)
        return now - *t.lastRenewal;
    return now - t.watchSince; // no renewal seen since we started watching this holder
}

LeaseTimeline leaseTimeline(const LeaseTrack& t, const LeasePolicy& p)
{
    LeaseTimeline w;
    if (t.releasedAt) {
        w.fixed = LeaseState::Released;
        return w;
    }
    if (!t.row.expiresAt)
        return w; // Unknown
    w.timed = true;
    w.expiryFrees = p.expiryFrees;
    w.expiresAt = *t.row.expiresAt;
    if (t.takenOverAt)
        w.takenOverUntil = *t.takenOverAt + p.takenOverLingerS;
    if (const auto after = p.expectRenewals ? overdueAfter(t, p) : std::nullopt) // seconds since renewal > after
        w.overdueAfter = (t.lastRenewal ? *t.lastRenewal : t.watchSince) + *after;
    if (const std::optional<double> ttl = p.ttlOverride ? p.ttlOverride : t.ttl) // time left < share
        w.expiringAfter = w.expiresAt - p.expiringSoonShare * *ttl;
    return w;
}

LeaseState classifyLease(const LeaseTrack& t, double now, const LeasePolicy& p)
{
    return leaseTimeline(t, p).at(now);
}

} // namespace lw
