#include "Holders.h"

#include "Analysis.h"
#include "Wording.h"

#include <QRegularExpression>

namespace lw {

void HolderPresence::observe(const Snapshot& s, const LeaseTracker& leases)
{
    if (!s.ok)
        return; // nothing new is known
    bool any = false;
    for (const LeaseTableConfig& t : leases.tables())
        any = any || !t.sessionsShowHolder;
    if (!any) {
        watched_.clear();
        return;
    }
    const double now = s.serverNow;
    QHash<QString, int> byHost; // sessions from each host asked about, counted once per refresh
    QHash<QString, Seen> next;
    for (int i = 0; i < leases.size(); ++i) {
        const LeaseTableConfig* t = leases.tableAt(i);
        if (!t || t->sessionsShowHolder)
            continue;
        const LeaseState st = leases.stateAt(i, now);
        const LeaseTracker::Entry& e = leases.entry(i);
        if ((st != LeaseState::Held && st != LeaseState::ExpiringSoon) || !e.holder.structured ||
            e.holder.host.isEmpty())
            continue;
        auto counted = byHost.find(e.holder.host);
        if (counted == byHost.end()) {
            int n = 0;
            for (const SessionRow& r : s.sessions)
                n += sessionFromHost(r, e.holder.host) ? 1 : 0;
            counted = byHost.insert(e.holder.host, n);
        }
        const double takenAt = e.track.row.takenAt.value_or(0);
        const double span = e.track.row.expiresAt.value_or(takenAt) - takenAt;
        Seen w = watched_.value(e.key);
        if (w.host != e.holder.host || w.takenAt != takenAt) {
            w = Seen{}; // another lock: what was seen is about the last one
            w.host = e.holder.host;
            w.takenAt = takenAt;
            w.takenInView = prevNow_ > 0 && takenAt > prevNow_ - 1; // 1 s: the writer's clock (ShedLock's own)
            w.span = span;
        } else if (span < w.span - 0.5) {
            w.released = true;
        }
        if (*counted > 0) {
            w.lastSeen = now;
            w.sessions = *counted;
            w.goneSince.reset();
        } else if (w.lastSeen && !w.goneSince) {
            w.goneSince = now;
        }
        next.insert(e.key, w);
    }
    watched_ = std::move(next); // leases no longer held are forgotten
    prevNow_ = now;
}

const HolderPresence::Seen* HolderPresence::seen(const QString& key) const
{
    const auto it = watched_.constFind(key);
    return it == watched_.cend() || !it->lastSeen || !it->takenInView || it->released ? nullptr : &*it;
}

std::vector<Finding> HolderPresence::findings(const LeaseTracker& leases) const
{
    std::vector<Finding> out;
    const double now = leases.serverNowEstimate();
    auto clock = [](double t) {
        return QDateTime::fromMSecsSinceEpoch(qint64(t * 1000)).toString(QStringLiteral("HH:mm:ss"));
    };
    for (auto it = watched_.cbegin(); it != watched_.cend(); ++it) {
        const Seen& w = *it;
        if (!seen(it.key()) || !w.goneSince || now - *w.goneSince < graceS_)
            continue;
        const int row = leases.rowOfKey(it.key());
        const LeaseTableConfig* t = row >= 0 ? leases.tableAt(row) : nullptr;
        if (!t)
            continue;
        const LeaseRow& r = leases.entry(row).track.row;
        const double left = r.expiresAt.value_or(now) - now;
        if (left <= 0)
            continue; // expired: free by the library's rule, nothing holds it any more
        Finding f;
        f.kind = FindingKind::HolderGone;
        f.severity = 2;
        f.subject = r.name;
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + it.key();
        f.title = QStringLiteral("%1 %2: holder %3 is gone — its sessions ended at %4, the lock stays until %5 (%6)")
                      .arg(t->label(), r.name, w.host, clock(*w.goneSince), clock(*r.expiresAt), formatCountdown(left));
        f.explanation =
            QStringLiteral("While %1 held the lock, %2 session(s) from host %1 were connected (last seen at %3); "
                           "none has been since. %4 frees the lock only at its expiry, so no other instance runs "
                           "this job until then. If %1 is only cut off from the database, its job may still run.")
                .arg(w.host)
                .arg(w.sessions)
                .arg(clock(*w.lastSeen), t->label());
        f.fix = QStringLiteral("If %1 is down, force-expire the lock (%2's own unlock: the expiry set to now) so the "
                               "next scheduled run can take it; otherwise wait for %1 to come back.")
                    .arg(w.host, t->label());
        out.push_back(f);
    }
    return out;
}

// ---- Evidence -------------------------------------------------------------------------------------

bool sessionFromHost(const SessionRow& s, const QString& host)
{
    if (host.isEmpty())
        return false;
    QString addr = s.clientAddr;
    if (const auto slash = addr.indexOf(QLatin1Char('/')); slash >= 0)
        addr.truncate(slash);
    if (!addr.isEmpty() && addr.compare(host, Qt::CaseInsensitive) == 0)
        return true;
    if (s.applicationName.isEmpty())
        return false;
    // A whole word: "app-1" matches "worker@app-1" and "app-1.example.com", not "app-12".
    const QRegularExpression re(
        QStringLiteral("(^|[^A-Za-z0-9.-])%1($|[^A-Za-z0-9-])").arg(QRegularExpression::escape(host)),
        QRegularExpression::CaseInsensitiveOption);
    return re.match(s.applicationName).hasMatch();
}

QString HolderEvidence::summary() const
{
    QString s = looksAlive ? QStringLiteral("looks alive") : QStringLiteral("looks dead");
    const QStringList& why = looksAlive ? forAlive : forDead;
    if (!why.isEmpty())
        s += QStringLiteral(": ") + why.join(QStringLiteral("; "));
    if (!unknowns.isEmpty())
        s += QStringLiteral(" (") + unknowns.join(QStringLiteral("; ")) + QStringLiteral(")");
    return s;
}

HolderEvidence assessHolder(const LeaseTracker::Entry& e, const SessionRows& sessions,
                            bool sessionsKnown, double serverNow, const LeasePolicy& policy,
                            const LeaseTableConfig* table, const HolderPresence::Seen* seen)
{
    HolderEvidence ev;
    const LeaseTrack& t = e.track;
    ev.state = classifyLease(t, serverNow, policy);
    if (e.holder.structured)
        ev.holderHost = e.holder.host;
    else if (t.row.holder)
        ev.holderHost = t.row.holder->section(QLatin1Char(':'), 0, 0).trimmed(); // "host" or "host:…"
    ev.sinceRenewal = secondsSinceRenewal(t, serverNow);
    ev.renewalWindow = overdueAfter(t, policy);
    // Within the window since the last renewal, or (none seen yet) since the console began watching.
    ev.renewedInWindow = ev.sinceRenewal && ev.renewalWindow && *ev.sinceRenewal <= *ev.renewalWindow;

    // The renewal record.
    const QString renewal =
        t.lastRenewal ? QStringLiteral("last renewal seen %1 ago").arg(formatDuration(*ev.sinceRenewal))
                      : QStringLiteral("no renewal seen in the %1 the console has watched it")
                            .arg(formatDuration(ev.sinceRenewal.value_or(0)));
    const QString window = ev.renewalWindow
                               ? QStringLiteral("renewal window %1").arg(formatDuration(*ev.renewalWindow))
                               : QStringLiteral("renewal window unknown (TTL not known yet)");
    switch (ev.state) {
    case LeaseState::Stale:
        ev.forDead << QStringLiteral("expired %1 ago and not taken over")
                          .arg(formatDuration(serverNow - t.row.expiresAt.value_or(serverNow)));
        if (policy.expectRenewals) // a library that never renews (Liquibase, ShedLock): no renewal to miss
            ev.forDead << renewal + QStringLiteral(" (") + window + QStringLiteral(")");
        break;
    case LeaseState::RenewalOverdue:
        ev.forDead << QStringLiteral("renewal overdue: ") + renewal + QStringLiteral(" (") + window +
                          QStringLiteral(")");
        break;
    case LeaseState::Released:
        ev.forDead << QStringLiteral("the row disappeared (released)");
        break;
    case LeaseState::Free:
        ev.forDead << QStringLiteral("released by its holder (the row is kept, free to take)");
        break;
    case LeaseState::Unknown:
        ev.forAlive << QStringLiteral("cannot tell: the lease has no expiry");
        break;
    case LeaseState::TakenOver:
        ev.forAlive << QStringLiteral("just taken over by this holder");
        break;
    case LeaseState::Held:
    case LeaseState::ExpiringSoon:
        if (ev.renewedInWindow && t.lastRenewal)
            ev.forAlive << renewal + QStringLiteral(", within its ") + window;
        else if (ev.renewedInWindow)
            ev.forAlive << QStringLiteral("not expired; watched for %1, less than its %2, so no renewal "
                                          "was due yet")
                               .arg(formatDuration(ev.sinceRenewal.value_or(0)), window);
        else
            ev.forAlive << QStringLiteral("not expired (") + renewal + QStringLiteral("; ") + window +
                               QStringLiteral(")");
        break;
    }

    // A writer on the application's clock running behind the server writes expiries that lie early.
    if (table && table->writerUsesAppClock) {
        if (const double skew = writerClockSkew(t); skew < 0) {
            ev.writerBehindS = -skew;
            ev.forAlive << QStringLiteral("the writer's clock runs at least %1 behind the server's: the lease "
                                          "looks expired that much early")
                               .arg(formatDuration(-skew));
        }
    }

    // Sessions from the holder's host.
    bool holderGone = false;
    ev.sessionsKnown = sessionsKnown;
    if (!sessionsKnown) {
        ev.unknowns << QStringLiteral("the session list is not available: cannot tell whether the holder's "
                                      "host is still connected");
    } else if (ev.holderHost.isEmpty()) {
        ev.unknowns << QStringLiteral("the holder has no host part: its sessions cannot be matched");
    } else {
        // Liquibase's holder names its address too ("buildbox (10.0.0.5)"): a JDBC session shows
        // only the address, so either speaks for the host.
        const QString address = table && table->holderFormat == LeaseTableConfig::HolderFormat::HostAddress
                                    ? e.holder.token
                                    : QString();
        for (const SessionRow& s : sessions)
            if (sessionFromHost(s, ev.holderHost) || (!address.isEmpty() && sessionFromHost(s, address)))
                ev.hostSessions.push_back(s);
        const bool sessionless = table && !table->sessionsShowHolder;
        if (!ev.hostSessions.empty()) {
            QStringList pids;
            for (const SessionRow& s : ev.hostSessions)
                pids << QString::number(s.pid);
            ev.forAlive << QStringLiteral("%1 session(s) from host %2 still connected (pid %3)")
                               .arg(ev.hostSessions.size())
                               .arg(ev.holderHost, pids.join(QStringLiteral(", ")));
        } else if (sessionless && seen && seen->goneSince) {
            ev.forDead << QStringLiteral("%1 session(s) from host %2 were connected while it held the lock (last seen "
                                         "%3 ago); none has been since")
                              .arg(seen->sessions)
                              .arg(ev.holderHost, formatDuration(serverNow - *seen->lastSeen));
            holderGone = true;
        } else if (sessionless) {
            // A host name against client addresses and driver names ("PostgreSQL JDBC Driver"):
            // no match is no evidence. Until lock_until the console cannot tell a running job
            // from one whose host died; the library frees it then.
            ev.unknowns << QStringLiteral("%1 holds no database session while a job runs and names its holder "
                                          "by host name only: whether %2's job still runs cannot be told "
                                          "here; the lock frees itself at its expiry (%3)")
                               .arg(table->label(), ev.holderHost,
                                    t.row.expiresAt ? formatCountdown(*t.row.expiresAt - serverNow)
                                                    : QStringLiteral("unknown"));
        } else {
            ev.forDead << QStringLiteral("no session from host %1 is connected").arg(ev.holderHost);
        }
    }
    // Dead only when the lease itself says so (no renewal within its window), or a lock that keeps
    // no session lost the sessions its host had, and no session from its host speaks against it.
    // A lease without expiry ("cannot tell") counts as alive.
    const bool leaseDead = ev.state == LeaseState::Stale || ev.state == LeaseState::RenewalOverdue ||
                           ev.state == LeaseState::Released;
    ev.looksAlive = !(leaseDead || holderGone) || !ev.hostSessions.empty();
    return ev;
}

} // namespace lw
