#include "Holders.h"
#include "Words.h"

#include "Analysis.h"
#include "SqlText.h"
#include "Wording.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace lw {

namespace {
QString clockText(double t)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(t * 1000)).toString(QStringLiteral("HH:mm:ss"));
}
QString pidList(const std::vector<int>& pids)
{
    QStringList out;
    for (int p : pids)
        out << QString::number(p);
    return out.join(QStringLiteral(", "));
}
// A session of the monitored database that LISTENs on `channel` (its last statement, kept while
// it idles: 'LISTEN "jobs:insert"; LISTEN "worker:migrate";').
bool listensOn(const SessionRow& r, const QString& database, const QString& channel)
{
    static const QRegularExpression listen(QStringLiteral("^\\s*LISTEN\\s+\"?([^\";]+)"),
                                           QRegularExpression::CaseInsensitiveOption);
    if (r.database != database || r.state != QLatin1String("idle"))
        return false;
    const auto m = listen.match(r.query);
    return m.hasMatch() && m.captured(1) == channel;
}
} // namespace

void HolderPresence::observe(const Snapshot& s, const LeaseTracker& leases)
{
    if (!s.ok)
        return; // nothing new is known
    bool any = false;
    for (const LeaseTableConfig& t : leases.tables())
        any = any || !t.sessionsShowHolder || !t.listenChannel.isEmpty();
    if (!any) {
        watched_.clear();
        pools_.clear();
        listeners_.clear();
        return;
    }
    const double now = s.serverNow;
    QHash<QString, int> byHost; // sessions from each host asked about, counted once per refresh
    QHash<QString, Seen> next;
    observeListeners(s, leases, next);
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

void HolderPresence::observeListeners(const Snapshot& s, const LeaseTracker& leases, QHash<QString, Seen>& next)
{
    const double now = s.serverNow;
    // The sessions are scanned only while a listener table has a held row, once per refresh: the
    // listening sessions of a channel, and the client addresses of the sessions that ran a statement
    // on a table since the last refresh (the worker that took a lock).
    QHash<QString, std::vector<Listener>> listening; // channel → its listeners now
    QHash<QString, QSet<QString>> touchedFrom;       // table → addresses
    const auto listenersOn = [&](const QString& channel) -> const std::vector<Listener>& {
        auto it = listening.find(channel);
        if (it == listening.end()) {
            std::vector<Listener> ls;
            for (const SessionRow& r : s.sessions)
                if (listensOn(r, s.server.database, channel))
                    ls.push_back({r.pid, r.backendStart.value_or(0), r.clientAddr});
            it = listening.insert(channel, std::move(ls));
        }
        return *it;
    };
    const auto touched = [&](const QString& table) -> const QSet<QString>& {
        auto it = touchedFrom.find(table);
        if (it == touchedFrom.end()) {
            QSet<QString> from;
            for (const SessionRow& r : s.sessions)
                if (r.database == s.server.database && !r.clientAddr.isEmpty() &&
                    r.query.contains(table, Qt::CaseInsensitive) &&
                    (r.state != QLatin1String("idle") || r.stateChange.value_or(0) >= prevNow_ - 1))
                    from.insert(r.clientAddr.section(QLatin1Char('/'), 0, 0));
            it = touchedFrom.insert(table, std::move(from));
        }
        return *it;
    };
    static const std::vector<Listener> none;
    const auto has = [](const std::vector<Listener>& in, const Listener& l) {
        return std::find(in.begin(), in.end(), l) != in.end();
    };
    QHash<QString, Pool> pools;
    for (int i = 0; i < leases.size(); ++i) {
        const LeaseTableConfig* t = leases.tableAt(i);
        if (!t || t->listenChannel.isEmpty())
            continue;
        const LeaseState st = leases.stateAt(i, now);
        const LeaseTracker::Entry& e = leases.entry(i);
        if ((st != LeaseState::Held && st != LeaseState::ExpiringSoon) || !e.track.row.holder ||
            e.track.row.holder->isEmpty())
            continue;
        const QString holder = *e.track.row.holder;
        const double takenAt = e.track.row.takenAt.value_or(0);
        const bool takenInView = prevNow_ > 0 && takenAt > prevNow_ - 1;
        auto p = pools.find(holder);
        if (p == pools.end()) { // first of its rows this refresh: update what is known of it once
            const std::vector<Listener>& nowL = listenersOn(t->listenChannel);
            const auto before = listeners_.constFind(t->listenChannel);
            const std::vector<Listener>& prevL = before == listeners_.cend() ? none : *before;
            const auto known = pools_.constFind(holder);
            Pool pool = known == pools_.cend() ? Pool{} : *known;
            if (known == pools_.cend()) {
                pool.candidates = nowL;
                // Taken in view: its worker ran a statement on the table just now, from its host.
                const QSet<QString>& from = takenInView ? touched(t->table) : QSet<QString>{};
                if (!from.isEmpty()) {
                    std::vector<Listener> near;
                    for (const Listener& l : pool.candidates)
                        if (from.contains(l.clientAddr.section(QLatin1Char('/'), 0, 0)))
                            near.push_back(l);
                    if (!near.empty())
                        pool.candidates = std::move(near);
                }
            } else if (takenInView && takenAt > pool.lastTake) {
                // It took another lock: it was alive between the two refreshes, its session among
                // those there then.
                std::vector<Listener> still;
                for (const Listener& l : pool.candidates)
                    if (has(nowL, l) || has(prevL, l))
                        still.push_back(l);
                if (!still.empty())
                    pool.candidates = std::move(still);
            }
            pool.lastTake = std::max(pool.lastTake, takenAt);
            int connected = 0;
            for (const Listener& l : pool.candidates)
                connected += has(nowL, l) ? 1 : 0;
            if (connected == 0 && !pool.candidates.empty() && (!pool.goneSince || now - *pool.goneSince <= adoptS_)) {
                for (const Listener& l : nowL) // a reconnect of its listener, perhaps
                    if (!has(prevL, l) && !has(pool.candidates, l)) {
                        pool.candidates.push_back(l);
                        ++connected;
                    }
            }
            if (connected > 0) {
                pool.lastSeen = now;
                pool.connected = connected;
                pool.goneSince.reset();
            } else if (pool.lastSeen && !pool.goneSince) {
                pool.goneSince = now;
            }
            p = pools.insert(holder, pool);
        }
        Seen w;
        w.host = holder;
        w.takenAt = takenAt;
        w.takenInView = true; // about the holder's process, not this take
        w.lastSeen = p->lastSeen;
        w.goneSince = p->goneSince;
        w.sessions = p->connected;
        for (const Listener& l : p->candidates)
            w.listenerPids.push_back(l.pid);
        next.insert(e.key, w);
    }
    pools_ = std::move(pools); // holders that hold nothing any more are forgotten
    listeners_ = std::move(listening);
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
        if (!t->listenChannel.isEmpty()) {
            f.title = FindingWords::tr("%1 %2: its worker is gone (LISTEN session ended at %3) — the job stays "
                                     "locked until %4 (%5)")
                          .arg(t->label(), r.name, clockText(*w.goneSince), clockText(*r.expiresAt),
                               formatCountdown(left));
            f.explanation =
                FindingWords::tr("A running %1 keeps a session listening on \"%2\" for its whole life; the one(s) "
                               "%3 could own (pid %4) were connected while it held this job, last seen at %5, and "
                               "none is now. Until %1's own reset, no other worker runs this job. If %3 is only "
                               "cut off from the database, its job may still run.")
                    .arg(t->label(), t->listenChannel, w.host, pidList(w.listenerPids), clockText(*w.lastSeen));
            f.fix = FindingWords::tr("If %1 is down, force-expire the job (%2's own reset: unlocked, run again now), or "
                                   "SELECT %3.force_unlock_workers(ARRAY[%4]) frees every job and queue it held.")
                        .arg(w.host, t->label(), sqlIdentifier(t->schema.isEmpty() ? QStringLiteral("graphile_worker") : t->schema),
                             sqlLiteral(w.host));
            out.push_back(f);
            continue;
        }
        f.title = FindingWords::tr("%1 %2: holder %3 is gone — its sessions ended at %4, the lock stays until %5 (%6)")
                      .arg(t->label(), r.name, w.host, clockText(*w.goneSince), clockText(*r.expiresAt),
                           formatCountdown(left));
        f.explanation =
            FindingWords::tr("While %1 held the lock, %2 session(s) from host %1 were connected (last seen at %3); "
                           "none has been since. %4 frees the lock only at its expiry, so no other instance runs "
                           "this job until then. If %1 is only cut off from the database, its job may still run.")
                .arg(w.host)
                .arg(w.sessions)
                .arg(clockText(*w.lastSeen), t->label());
        f.fix = FindingWords::tr("If %1 is down, force-expire the lock (%2's own unlock: the expiry set to now) so the "
                               "next scheduled run can take it; otherwise wait for %1 to come back.")
                    .arg(w.host, t->label());
        out.push_back(f);
    }
    return out;
}

// ---- Flags left behind ---------------------------------------------------------------------------

namespace {
// Another console (a window, the recorder, an operator's force-expire) reads the tables too.
bool consoleSession(const SessionRow& r)
{
    return r.applicationName.startsWith(QLatin1String("leasewatch"));
}
// The session's statement (the last one it ran, shown while idle too) names one of the library's
// tables: its lock table or the table whose statements show the library at work.
// Only a statement running, or run since `since`: an application that migrated at its start keeps
// that statement as its pooled session's last one for hours.
bool onLibraryTables(const SessionRow& r, const LeaseTableConfig& t, double since)
{
    const bool recent = r.state != QLatin1String("idle") || (r.stateChange && *r.stateChange >= since);
    return recent && (r.query.contains(t.table, Qt::CaseInsensitive) ||
                      (!t.activityTable.isEmpty() && r.query.contains(t.activityTable, Qt::CaseInsensitive)));
}
} // namespace

void FlagLockWatch::observe(const Snapshot& s, const LeaseTracker& leases)
{
    if (!s.ok)
        return;
    bool any = false;
    for (const LeaseTableConfig& t : leases.tables())
        any = any || t.flagOnly;
    if (!any) {
        watched_.clear();
        prevNow_ = s.serverNow;
        return;
    }
    const double now = s.serverNow;
    // Rows this refresh saw appear between two refreshes (not a first look): a flag set in view.
    QSet<int> taken;
    if (leases.appliedNow() == now)
        for (const auto& [row, change] : leases.lastChanges())
            if (change == LeaseChange::Take)
                taken.insert(row);
    QHash<QString, Seen> next;
    for (int i = 0; i < leases.size(); ++i) {
        const LeaseTableConfig* t = leases.tableAt(i);
        if (!t || !t->flagOnly || leases.stateAt(i, now) == LeaseState::Released)
            continue;
        const LeaseTracker::Entry& e = leases.entry(i);
        std::vector<int> here, active;
        for (const SessionRow& r : s.sessions) {
            if (r.database != s.server.database || consoleSession(r))
                continue;
            here.push_back(r.pid);
            if (onLibraryTables(r, *t, prevNow_ - 0.5))
                active.push_back(r.pid);
        }
        Seen w;
        if (const auto it = watched_.constFind(e.key); it != watched_.cend()) {
            w = *it;
        } else {
            w.setSeenAt = now;
            w.lastActivity = now; // a first look: "unseen" is measured from here
            w.setInView = prevNow_ > 0 && taken.contains(i);
            if (w.setInView) {
                // The setter committed since the previous refresh, so its state changed since then.
                for (const SessionRow& r : s.sessions)
                    if (r.database == s.server.database && !consoleSession(r) && r.stateChange &&
                        *r.stateChange >= prevNow_ - 0.5)
                        w.setters.push_back(r.pid);
            }
        }
        w.activeNow = !active.empty();
        if (w.activeNow) {
            w.lastActivity = now;
            w.activePids = active;
        }
        if (w.setInView) {
            bool anyLeft = false;
            for (int pid : w.setters)
                anyLeft = anyLeft || std::find(here.begin(), here.end(), pid) != here.end();
            if (anyLeft)
                w.settersGoneSince.reset();
            else if (!w.settersGoneSince)
                w.settersGoneSince = now;
        }
        next.insert(e.key, w);
    }
    watched_ = std::move(next); // flags cleared are forgotten
    prevNow_ = now;
}

const FlagLockWatch::Seen* FlagLockWatch::seen(const QString& key) const
{
    const auto it = watched_.constFind(key);
    return it == watched_.cend() ? nullptr : &*it;
}

bool FlagLockWatch::leftBehind(const QString& key, double now) const
{
    const Seen* w = seen(key);
    if (!w || w->activeNow)
        return false; // a session is on the library's tables right now
    if (w->setInView)
        return w->settersGoneSince && now - *w->settersGoneSince >= graceS_ && now - w->lastActivity >= graceS_;
    return now - w->lastActivity >= unseenS_;
}

std::vector<Finding> FlagLockWatch::findings(const LeaseTracker& leases) const
{
    std::vector<Finding> out;
    const double now = leases.serverNowEstimate();
    for (auto it = watched_.cbegin(); it != watched_.cend(); ++it) {
        if (!leftBehind(it.key(), now))
            continue;
        const int row = leases.rowOfKey(it.key());
        const LeaseTableConfig* t = row >= 0 ? leases.tableAt(row) : nullptr;
        if (!t)
            continue;
        const Seen& w = *it;
        const LeaseRow& r = leases.entry(row).track.row;
        const QString tables = t->activityTable.isEmpty() ? t->table : t->activityTable + QStringLiteral("*");
        Finding f;
        f.kind = FindingKind::FlagLeftSet;
        f.severity = 2;
        f.subject = r.name;
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + it.key();
        if (w.setInView) {
            f.title = w.setters.empty()
                          ? FindingWords::tr("%1 %2 left set: the session that set it at %3 was gone by the next refresh")
                                .arg(t->label(), r.name, clockText(w.setSeenAt))
                          : FindingWords::tr("%1 %2 left set: the session(s) that could have set it at %3 (pid %4) are gone")
                                .arg(t->label(), r.name, clockText(w.setSeenAt), pidList(w.setters));
            f.explanation =
                FindingWords::tr("%1 keeps its lock as a flag in %2, with no holder and no time. The console saw it set "
                               "at %3; every session of this database that ran a statement then has disconnected "
                               "(since %4), and none has run one on %5 since. A run that dies while it holds the flag "
                               "leaves it set, and every later run fails (\"Migration table is already locked\").")
                    .arg(t->label(), t->qualifiedName(), clockText(w.setSeenAt),
                         clockText(w.settersGoneSince.value_or(now)), tables);
        } else {
            f.title = FindingWords::tr("%1 %2 set for at least %3, no session on %4 for %5")
                          .arg(t->label(), r.name, formatDuration(now - w.setSeenAt), tables,
                               formatDuration(now - w.lastActivity));
            f.explanation =
                FindingWords::tr("%1 keeps its lock as a flag in %2, with no holder and no time. It was already set "
                               "when the console began watching at %3, and no session has run a statement on %4 "
                               "since %5. A run that dies while it holds the flag leaves it set, and every later run "
                               "fails (\"Migration table is already locked\").")
                    .arg(t->label(), t->qualifiedName(), clockText(w.setSeenAt), tables,
                         clockText(w.lastActivity));
        }
        f.fix = FindingWords::tr("If no migration is running (check the deploy jobs), free it with `%1 migrate:unlock` "
                               "or force-expire it here (%2). The run that died may have left a migration half "
                               "applied: check it before the next run.")
                    .arg(t->label(), libraryWords(t->release.words));
        out.push_back(f);
    }
    return out;
}

// ---- Double runs ----------------------------------------------------------------------------------

void TakeoverOverlap::observe(const Snapshot& s, const LeaseTracker& leases)
{
    if (!s.ok)
        return;
    if (leases.appliedNow() == s.serverNow) {
        for (const auto& [row, change] : leases.lastChanges()) {
            if (change != LeaseChange::TakeOver)
                continue;
            const LeaseTracker::Entry& e = leases.entry(row);
            const LeaseTableConfig* t = leases.tableAt(row);
            const HolderParts old = splitHolder(e.track.previousHolder,
                                                t ? t->holderFormat : LeaseTableConfig::HolderFormat::HostPidToken);
            if (!old.structured || old.host.isEmpty() ||
                (e.holder.structured && e.holder.host.compare(old.host, Qt::CaseInsensitive) == 0))
                continue;
            Overlap o;
            o.previousHolder = e.track.previousHolder;
            o.previousHost = old.host;
            o.holder = e.track.row.holder.value_or(QString());
            o.takenOverAt = e.track.takenOverAt.value_or(s.serverNow);
            open_.insert(e.key, o);
        }
    }
    for (auto it = open_.begin(); it != open_.end();) {
        const int row = leases.rowOfKey(it.key());
        const bool same = row >= 0 && leases.stateAt(row, s.serverNow) != LeaseState::Released &&
                          leases.entry(row).track.row.holder.value_or(QString()) == it->holder &&
                          leases.entry(row).track.previousHolder == it->previousHolder;
        std::vector<int> busy;
        if (same)
            for (const SessionRow& r : s.sessions)
                if (r.database == s.server.database && !r.state.isEmpty() && r.state != QLatin1String("idle") &&
                    sessionFromHost(r, it->previousHost))
                    busy.push_back(r.pid);
        if (busy.empty()) {
            it = open_.erase(it); // idle, gone, or the lease moved on: over
        } else {
            it->busyPids = std::move(busy);
            ++it;
        }
    }
}

const TakeoverOverlap::Overlap* TakeoverOverlap::overlap(const QString& key) const
{
    const auto it = open_.constFind(key);
    return it == open_.cend() ? nullptr : &*it;
}

std::vector<Finding> TakeoverOverlap::findings(const LeaseTracker& leases) const
{
    std::vector<Finding> out;
    for (auto it = open_.cbegin(); it != open_.cend(); ++it) {
        const int row = leases.rowOfKey(it.key());
        if (row < 0)
            continue;
        const Overlap& o = *it;
        const LeaseTracker::Entry& e = leases.entry(row);
        const QString newHost = e.holder.structured && !e.holder.host.isEmpty() ? e.holder.host : o.holder;
        const QString& name = e.track.row.name;
        Finding f;
        f.kind = FindingKind::DoubleRun;
        f.severity = 2;
        f.subject = name;
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + it.key();
        f.title = FindingWords::tr("%1: %2 may still be running it — its sessions stayed active after %3 took the lease "
                                 "at %4")
                      .arg(name, o.previousHost, newHost, clockText(o.takenOverAt));
        f.explanation =
            FindingWords::tr("The lease expired without a renewal from %1 (%2) and %3 took it over, but %1's sessions are "
                           "still busy (pid %4): it stalled or lost the database for longer than the TTL and may not "
                           "know yet. Until its next renewal fails, both may do the work the lease protects.")
                .arg(o.previousHost, o.previousHolder, newHost, pidList(o.busyPids));
        f.fix = FindingWords::tr("Check whether %1 still runs the job (its logs, or what pid %2 is running); stop it "
                               "or cancel its statement if it does. Have the job check that it still holds the lease "
                               "before it commits its work.")
                    .arg(o.previousHost, pidList(o.busyPids));
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
    QString s = looksAlive ? EvidenceWords::tr("looks alive") : EvidenceWords::tr("looks dead");
    const QStringList& why = looksAlive ? forAlive : forDead;
    if (!why.isEmpty())
        s = QStringLiteral("%1: %2").arg(s, why.join(QStringLiteral("; ")));
    if (!unknowns.isEmpty())
        s = QStringLiteral("%1 (%2)").arg(s, unknowns.join(QStringLiteral("; ")));
    return s;
}

namespace {
// A lock kept as a bare flag names no holder and no time: what speaks for a run that holds it or
// for one that died is only what the console saw of the sessions around it.
HolderEvidence assessFlag(const LeaseTracker::Entry& e, bool sessionsKnown, double serverNow,
                          const LeaseTableConfig& table, const FlagLockWatch* flags)
{
    HolderEvidence ev;
    ev.state = LeaseState::Unknown;
    ev.sessionsKnown = sessionsKnown;
    const FlagLockWatch::Seen* w = flags ? flags->seen(e.key) : nullptr;
    const QString tables = table.activityTable.isEmpty() ? table.table : table.activityTable + QStringLiteral("*");
    if (!w) {
        ev.unknowns << EvidenceWords::tr("%1 records no holder and no time in %2: whether a run still holds it "
                                      "cannot be told from one look")
                           .arg(table.label(), table.qualifiedName());
    } else if (flags->leftBehind(e.key, serverNow)) {
        ev.forDead << (w->setInView ? EvidenceWords::tr("the session(s) that could have set it at %1%2 are gone, and "
                                                     "none runs a statement on %3")
                                          .arg(clockText(w->setSeenAt),
                                               w->setters.empty() ? QString()
                                                                  : EvidenceWords::tr(" (pid %1)").arg(pidList(w->setters)),
                                               tables)
                                    : EvidenceWords::tr("no session has run a statement on %1 for %2")
                                          .arg(tables, formatDuration(serverNow - w->lastActivity)));
    } else if (w->activeNow) {
        ev.forAlive << EvidenceWords::tr("session(s) running statements on %1 (pid %2)").arg(tables, pidList(w->activePids));
    } else if (w->setInView && !w->settersGoneSince) {
        ev.forAlive << EvidenceWords::tr("the session(s) that could have set it at %1 are still connected (pid %2)")
                           .arg(clockText(w->setSeenAt), pidList(w->setters));
    } else {
        ev.unknowns << EvidenceWords::tr("%1 records no holder and no time; set since at least %2, no session on %3 "
                                      "since %4")
                           .arg(table.label(), clockText(w->setSeenAt), tables, clockText(w->lastActivity));
    }
    ev.looksAlive = ev.forDead.isEmpty();
    return ev;
}
} // namespace

HolderEvidence assessHolder(const LeaseTracker::Entry& e, const SessionRows& sessions,
                            bool sessionsKnown, double serverNow, const LeasePolicy& policy,
                            const LeaseTableConfig* table, const HolderPresence::Seen* seen,
                            const FlagLockWatch* flags)
{
    if (table && table->flagOnly)
        return assessFlag(e, sessionsKnown, serverNow, *table, flags);
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
        t.lastRenewal ? EvidenceWords::tr("last renewal seen %1 ago").arg(formatDuration(*ev.sinceRenewal))
                      : EvidenceWords::tr("no renewal seen in the %1 the console has watched it")
                            .arg(formatDuration(ev.sinceRenewal.value_or(0)));
    const QString window = ev.renewalWindow
                               ? EvidenceWords::tr("renewal window %1").arg(formatDuration(*ev.renewalWindow))
                               : EvidenceWords::tr("renewal window unknown (TTL not known yet)");
    switch (ev.state) {
    case LeaseState::Stale:
        ev.forDead << EvidenceWords::tr("expired %1 ago and not taken over")
                          .arg(formatDuration(serverNow - t.row.expiresAt.value_or(serverNow)));
        if (policy.expectRenewals) // a library that never renews (Liquibase, ShedLock): no renewal to miss
            ev.forDead << QStringLiteral("%1 (%2)").arg(renewal, window);
        break;
    case LeaseState::RenewalOverdue:
        ev.forDead << EvidenceWords::tr("renewal overdue: %1 (%2)").arg(renewal, window);
        break;
    case LeaseState::Released:
        ev.forDead << EvidenceWords::tr("the row disappeared (released)");
        break;
    case LeaseState::Free:
        ev.forDead << EvidenceWords::tr("released by its holder (the row is kept, free to take)");
        break;
    case LeaseState::Unknown:
        ev.forAlive << EvidenceWords::tr("cannot tell: the lease has no expiry");
        break;
    case LeaseState::TakenOver:
        ev.forAlive << EvidenceWords::tr("just taken over by this holder");
        break;
    case LeaseState::Held:
    case LeaseState::ExpiringSoon:
        if (!policy.expectRenewals) // a library that never renews: no renewal to speak of
            ev.forAlive << EvidenceWords::tr("not expired (taken %1 ago, expires %2)")
                               .arg(formatDuration(serverNow - t.row.takenAt.value_or(serverNow)),
                                    formatCountdown(t.row.expiresAt.value_or(serverNow) - serverNow));
        else if (ev.renewedInWindow && t.lastRenewal)
            ev.forAlive << EvidenceWords::tr("%1, within its %2").arg(renewal, window);
        else if (ev.renewedInWindow)
            ev.forAlive << EvidenceWords::tr("not expired; watched for %1, less than its %2, so no renewal "
                                          "was due yet")
                               .arg(formatDuration(ev.sinceRenewal.value_or(0)), window);
        else
            ev.forAlive << EvidenceWords::tr("not expired (%1; %2)").arg(renewal, window);
        break;
    }

    // A writer on the application's clock running behind the server writes expiries that lie early.
    if (table && table->writerUsesAppClock) {
        if (const double skew = writerClockSkew(t); skew < 0) {
            ev.writerBehindS = -skew;
            ev.forAlive << EvidenceWords::tr("the writer's clock runs at least %1 behind the server's: the lease "
                                          "looks expired that much early")
                               .arg(formatDuration(-skew));
        }
    }

    // Sessions from the holder's host.
    bool holderGone = false;
    ev.sessionsKnown = sessionsKnown;
    const bool byListener = table && !table->listenChannel.isEmpty();
    if (byListener)
        ev.holderHost.clear(); // an opaque process id: no host to match
    // What the watcher saw across refreshes holds even when this one's list is empty.
    if (byListener && seen && seen->goneSince) {
        ev.forDead << EvidenceWords::tr("the LISTEN \"%1\" session(s) its worker could own (pid %2) were connected "
                                     "while it held the job (last seen %3 ago); none is now")
                          .arg(table->listenChannel, pidList(seen->listenerPids),
                               formatDuration(serverNow - *seen->lastSeen));
        holderGone = true;
    } else if (sessionsKnown && byListener && seen) {
        ev.forAlive << EvidenceWords::tr("a LISTEN \"%1\" session its worker may own is connected (pid %2)")
                           .arg(table->listenChannel, pidList(seen->listenerPids));
    } else if (sessionsKnown && byListener) {
        ev.unknowns << EvidenceWords::tr("no %1 worker was seen listening while it held the job: whether %2 still runs "
                                      "cannot be told here; %1 frees it by itself %3")
                           .arg(table->label(), t.row.holder.value_or(QString()),
                                t.row.expiresAt ? formatCountdown(*t.row.expiresAt - serverNow)
                                                : EvidenceWords::tr("at its reset"));
    } else if (!sessionsKnown) {
        ev.unknowns << EvidenceWords::tr("the session list is not available: cannot tell whether the holder's "
                                      "host is still connected");
    } else if (ev.holderHost.isEmpty()) {
        ev.unknowns << EvidenceWords::tr("the holder has no host part: its sessions cannot be matched");
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
            ev.forAlive << EvidenceWords::tr("%1 session(s) from host %2 still connected (pid %3)")
                               .arg(ev.hostSessions.size())
                               .arg(ev.holderHost, pids.join(QStringLiteral(", ")));
        } else if (sessionless && seen && seen->goneSince) {
            ev.forDead << EvidenceWords::tr("%1 session(s) from host %2 were connected while it held the lock (last seen "
                                         "%3 ago); none has been since")
                              .arg(seen->sessions)
                              .arg(ev.holderHost, formatDuration(serverNow - *seen->lastSeen));
            holderGone = true;
        } else if (sessionless) {
            // A host name against client addresses and driver names ("PostgreSQL JDBC Driver"):
            // no match is no evidence. Until lock_until the console cannot tell a running job
            // from one whose host died; the library frees it then.
            ev.unknowns << EvidenceWords::tr("%1 holds no database session while a job runs and names its holder "
                                          "by host name only: whether %2's job still runs cannot be told "
                                          "here; the lock frees itself at its expiry (%3)")
                               .arg(table->label(), ev.holderHost,
                                    t.row.expiresAt ? formatCountdown(*t.row.expiresAt - serverNow)
                                                    : EvidenceWords::tr("unknown"));
        } else {
            ev.forDead << EvidenceWords::tr("no session from host %1 is connected").arg(ev.holderHost);
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
