#pragma once
// The documented lease protocol on public.leases, exactly as applications run it: take with an
// upsert that only replaces an expired row, renew and release guarded by the holder.
#include "sim/Runtime.h"

#include <random>

namespace lw::sim::detail {

struct TakeResult
{
    bool ok = false;   // the statements ran
    bool took = false; // we hold the lease now
    bool tookOver = false;
    QString previousHolder; // holder of the expired row we replaced
    double expiredForS = 0; // how long it had been expired
    Res failure;
};

enum class Outcome { Done, NotHolder, Failed };

class LeaseClient
{
public:
    // `skewS`: the writer's clock runs this far ahead of the server's (taken_at only).
    LeaseClient(Session& s, double ttlS, double skewS = 0)
        : s_(s), ttl_(intervalParam(ttlS)), skew_(intervalParam(skewS))
    {
    }

    // `onlyIfRowExists`: a standby that takes over expired rows but never starts a lease itself.
    TakeResult take(const QString& name, const QString& holder, bool onlyIfRowExists);
    // NotHolder: the row is gone or belongs to someone else (see currentHolder).
    Outcome renew(const QString& name, const QString& holder, Res* failure = nullptr);
    Outcome release(const QString& name, const QString& holder, Res* failure = nullptr);
    // Holder of the row now, "" when there is no row; nullopt when the query failed.
    std::optional<QString> currentHolder(const QString& name);

private:
    Session& s_;
    QByteArray ttl_;
    QByteArray skew_;
};

// hostname:pid:<64 random bits as 16 hex digits>; `pidLike` tells simulated instances apart.
QString makeHolder(const Runtime& rt, qint64 pidLike, std::mt19937_64& rng);
// "lost job-1: the row now belongs to X" / "…: the row is gone (expired and taken or deleted)".
QString lostText(const QString& lease, const std::optional<QString>& nowHeldBy, const QString& when);

} // namespace lw::sim::detail
