#include "LeaseClient.h"

#include <algorithm>

namespace lw::sim::detail {

namespace {
// The statements of the issue, verbatim apart from the schema qualification.
constexpr const char* kPeek =
    "SELECT holder, expires_at < now(), extract(epoch FROM now() - expires_at)::float8 "
    "FROM public.leases WHERE name = $1";
// taken_at may come from the writer's own clock ($4: how far it runs ahead of the server's), as
// ShedLock-style writers do; the expiry stays on the server's clock.
constexpr const char* kTake =
    "INSERT INTO public.leases(name, holder, taken_at, expires_at) VALUES ($1, $2, now() + $4::interval, "
    "now() + $3::interval) "
    "ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, taken_at = EXCLUDED.taken_at, "
    "expires_at = EXCLUDED.expires_at WHERE leases.expires_at < now() RETURNING true";
constexpr const char* kRenew =
    "UPDATE public.leases SET expires_at = now() + $3::interval WHERE name = $1 AND holder = $2";
constexpr const char* kRelease = "DELETE FROM public.leases WHERE name = $1 AND holder = $2";
constexpr const char* kHolder = "SELECT holder FROM public.leases WHERE name = $1";
} // namespace

TakeResult LeaseClient::take(const QString& name, const QString& holder, bool onlyIfRowExists)
{
    TakeResult t;
    // Who is there before the upsert: only to tell a take-over from a first take in the event.
    Res peek = s_.exec(kPeek, {name.toUtf8()});
    if (!peek.ok) {
        t.failure = std::move(peek);
        return t;
    }
    if (onlyIfRowExists && peek.rows() == 0) {
        t.ok = true;
        return t;
    }
    Res r = s_.exec(kTake, {name.toUtf8(), holder.toUtf8(), ttl_, skew_});
    if (!r.ok) {
        t.failure = std::move(r);
        return t;
    }
    t.ok = true;
    t.took = r.rows() == 1;
    // The upsert only replaces an expired row. A row seen unexpired a moment ago that we now hold
    // expired in between (a take-over) unless its holder deleted it meanwhile; the two cannot be told
    // apart from here, so only a row due to expire within a second counts as taken over.
    if (t.took && peek.rows() == 1) {
        const double expiredFor = peek.text(0, 2).toDouble();
        if (peek.text(0, 1) == QLatin1String("t") || expiredFor > -1.0) {
            t.tookOver = true;
            t.previousHolder = peek.text(0, 0);
            t.expiredForS = std::max(0.0, expiredFor);
        }
    }
    return t;
}

Outcome LeaseClient::renew(const QString& name, const QString& holder, Res* failure)
{
    Res r = s_.exec(kRenew, {name.toUtf8(), holder.toUtf8(), ttl_});
    if (!r.ok) {
        if (failure)
            *failure = std::move(r);
        return Outcome::Failed;
    }
    return r.affected() == 1 ? Outcome::Done : Outcome::NotHolder;
}

Outcome LeaseClient::release(const QString& name, const QString& holder, Res* failure)
{
    // Not cancellable: releases run while stopping.
    Res r = s_.exec(kRelease, {name.toUtf8(), holder.toUtf8()}, false);
    if (!r.ok) {
        if (failure)
            *failure = std::move(r);
        return Outcome::Failed;
    }
    return r.affected() == 1 ? Outcome::Done : Outcome::NotHolder;
}

std::optional<QString> LeaseClient::currentHolder(const QString& name)
{
    Res r = s_.exec(kHolder, {name.toUtf8()}, false);
    if (!r.ok)
        return std::nullopt;
    return r.rows() == 1 ? r.text(0, 0) : QString();
}

QString makeHolder(const Runtime& rt, qint64 pidLike, std::mt19937_64& rng)
{
    return QStringLiteral("%1:%2:%3")
        .arg(rt.hostName())
        .arg(pidLike)
        .arg(quint64(rng()), 16, 16, QLatin1Char('0'));
}

QString lostText(const QString& lease, const std::optional<QString>& nowHeldBy, const QString& when)
{
    if (!nowHeldBy)
        return QStringLiteral("lost %1 %2").arg(lease, when);
    if (nowHeldBy->isEmpty())
        return QStringLiteral("lost %1 %2: the row is gone (expired, taken over and released)")
            .arg(lease, when);
    return QStringLiteral("lost %1 %2: the row now belongs to %3").arg(lease, when, *nowHeldBy);
}

} // namespace lw::sim::detail
