#include "Analysis.h"
#include "Words.h"

#include "LibraryKeys.h"
#include "SqlText.h"

#include "Wording.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <functional>
#include <set>
#include <utility>

namespace lw {

QString advisoryKeyText(const AdvisoryLockRow& l)
{
    return l.twoKeys ? QStringLiteral("(%1, %2)").arg(l.key1).arg(l.key2) : QString::number(l.key);
}

QString resolveLockName(const AdvisoryLockRow& l, const KeyNames& names, QStringList* collision)
{
    // pg_advisory_lock(hashtext(name)): the int4 hash widened to bigint. Two keys: the second one
    // is usually the hashed name inside a namespace given by the first.
    const qint64 k = l.twoKeys ? qint64(l.key2) : l.key;
    if (!l.twoKeys && (k < INT32_MIN || k > INT32_MAX))
        return {};
    const auto it = names.constFind(k);
    if (it == names.constEnd() || it->isEmpty())
        return {};
    if (collision && it->size() > 1)
        *collision = *it;
    QStringList quoted;
    for (const QString& n : *it)
        quoted << QStringLiteral("hashtext('%1')")
                      .arg(QString(n).replace(QLatin1Char('\''), QStringLiteral("''")));
    const QString name = quoted.join(QStringLiteral(" or "));
    return l.twoKeys ? QStringLiteral("(%1, %2)").arg(l.key1).arg(name) : name;
}

QString sessionName(int pid, const SessionRow* s, bool withAddress, const QString& extra)
{
    // Whole templates (German orders them otherwise); `extra` (a state) is a value in them.
    const QString p = QString::number(pid);
    if (!s)
        return extra.isEmpty() ? FindingWords::tr("pid %1").arg(p) : FindingWords::tr("pid %1 (%2)").arg(p, extra);
    const QString tail = extra.isEmpty() ? QString() : QStringLiteral(", ") + extra;
    if (s->applicationName.isEmpty())
        return s->clientAddr.isEmpty()
                   ? FindingWords::tr("pid %1 (local, no application_name%2)").arg(p, tail)
                   : FindingWords::tr("pid %1 from %2, no application_name%3").arg(p, s->clientAddr, tail);
    return withAddress && !s->clientAddr.isEmpty()
               ? FindingWords::tr("pid %1 (%2 on %3%4)").arg(p, s->applicationName, s->clientAddr, tail)
               : FindingWords::tr("pid %1 (%2%3)").arg(p, s->applicationName, tail);
}

QString groupKey(const SessionRow& s, GroupBy by)
{
    const QString app =
        s.applicationName.isEmpty() ? QStringLiteral("(no application_name)") : s.applicationName;
    switch (by) {
    case GroupBy::ClientInstance:
        // Unix-socket clients have no address: group them by application_name alone.
        return s.clientAddr.isEmpty() ? app + QStringLiteral(" (local)")
                                      : app + QStringLiteral(" on ") + s.clientAddr;
    case GroupBy::ApplicationName:
        return app;
    case GroupBy::User:
        return s.user;
    case GroupBy::Database:
        return s.database;
    }
    return app;
}

QString findingKindKey(FindingKind k)
{
    switch (k) {
    case FindingKind::StaleLease:
        return QStringLiteral("stale_lease");
    case FindingKind::PoolPinned:
        return QStringLiteral("pool_pinned");
    case FindingKind::IdleHoldingAdvisory:
        return QStringLiteral("idle_holding_advisory_lock");
    case FindingKind::AdvisoryWait:
        return QStringLiteral("advisory_lock_wait");
    case FindingKind::BlockingChain:
        return QStringLiteral("blocking_chain");
    case FindingKind::Deadlocks:
        return QStringLiteral("deadlocks");
    case FindingKind::LockTablePressure:
        return QStringLiteral("lock_table_pressure");
    case FindingKind::ConnectionsNearLimit:
        return QStringLiteral("connections_near_limit");
    case FindingKind::KeyCollision:
        return QStringLiteral("key_collision");
    case FindingKind::WriterClockSkew:
        return QStringLiteral("writer_clock_skew");
    case FindingKind::HiddenByPrivileges:
        return QStringLiteral("hidden_by_privileges");
    case FindingKind::BouncerSlotHoldsLock:
        return QStringLiteral("bouncer_slot_holds_lock");
    case FindingKind::LeasesUnreadable:
        return QStringLiteral("leases_unreadable");
    case FindingKind::ServerNotAnswering:
        return QStringLiteral("server_not_answering");
    case FindingKind::HolderGone:
        return QStringLiteral("holder_gone");
    case FindingKind::FlagLeftSet:
        return QStringLiteral("flag_left_set");
    case FindingKind::DoubleRun:
        return QStringLiteral("double_run");
    case FindingKind::HiddenDeadlock:
        return QStringLiteral("hidden_deadlock");
    }
    return {};
}

QString findingKindTitle(const QString& key)
{
    static const std::pair<const char*, const char*> kTitles[] = {
        {"stale_lease", QT_TRANSLATE_NOOP("lw::Findings", "stale lease")},
        {"pool_pinned", QT_TRANSLATE_NOOP("lw::Findings", "pool pinned")},
        {"idle_holding_advisory_lock", QT_TRANSLATE_NOOP("lw::Findings", "idle holding advisory lock")},
        {"advisory_lock_wait", QT_TRANSLATE_NOOP("lw::Findings", "advisory lock wait")},
        {"blocking_chain", QT_TRANSLATE_NOOP("lw::Findings", "blocking chain")},
        {"deadlocks", QT_TRANSLATE_NOOP("lw::Findings", "deadlocks")},
        {"lock_table_pressure", QT_TRANSLATE_NOOP("lw::Findings", "lock table pressure")},
        {"connections_near_limit", QT_TRANSLATE_NOOP("lw::Findings", "connections near limit")},
        {"key_collision", QT_TRANSLATE_NOOP("lw::Findings", "key collision")},
        {"writer_clock_skew", QT_TRANSLATE_NOOP("lw::Findings", "writer clock skew")},
        {"hidden_by_privileges", QT_TRANSLATE_NOOP("lw::Findings", "hidden by privileges")},
        {"bouncer_slot_holds_lock", QT_TRANSLATE_NOOP("lw::Findings", "bouncer slot holds lock")},
        {"leases_unreadable", QT_TRANSLATE_NOOP("lw::Findings", "leases unreadable")},
        {"server_not_answering", QT_TRANSLATE_NOOP("lw::Findings", "server not answering")},
        {"holder_gone", QT_TRANSLATE_NOOP("lw::Findings", "holder gone")},
        {"flag_left_set", QT_TRANSLATE_NOOP("lw::Findings", "flag left set")},
        {"double_run", QT_TRANSLATE_NOOP("lw::Findings", "double run")},
        {"hidden_deadlock", QT_TRANSLATE_NOOP("lw::Findings", "hidden deadlock")},
    };
    for (const auto& [k, title] : kTitles)
        if (key == QLatin1String(k))
            return FindingWords::tr(title);
    return QString(key).replace(QLatin1Char('_'), QLatin1Char(' '));
}

int BlockingForest::waitersBehind(int pid) const
{
    QSet<int> seen;
    std::function<void(int)> walk = [&](int p) {
        const auto it = nodes.constFind(p);
        if (it == nodes.constEnd())
            return;
        for (int c : it->children)
            if (!seen.contains(c)) {
                seen.insert(c);
                walk(c);
            }
    };
    walk(pid);
    seen.remove(pid);
    return int(seen.size());
}

std::optional<double> deadlockRate(qint64 before, qint64 after, double seconds)
{
    if (before < 0 || after < 0 || after < before || seconds <= 0)
        return std::nullopt; // a reset (crash, pg_stat_reset) or no data
    return double(after - before) * 60.0 / seconds;
}

bool isIdle(const SessionRow& s)
{
    return s.state == QLatin1String("idle") || s.state.startsWith(QLatin1String("idle in transaction"));
}

namespace {

BlockingForest buildForest(const Snapshot& s)
{
    BlockingForest f;
    for (const SessionRow& row : s.sessions) {
        if (row.blockedBy.empty())
            continue;
        BlockNode& me = f.nodes[row.pid];
        me.pid = row.pid;
        me.waitingS = row.stateChange ? s.serverNow - *row.stateChange : -1;
        for (int b : row.blockedBy) {
            BlockNode& blocker = f.nodes[b];
            blocker.pid = b;
            blocker.children.push_back(row.pid);
        }
    }
    // Waiting-on-lock sessions are exactly the nodes with blockers; roots block but do not wait.
    QHash<int, std::vector<int>> waitsOn;
    for (const SessionRow& row : s.sessions)
        if (!row.blockedBy.empty())
            waitsOn.insert(row.pid, row.blockedBy);
    for (auto it = f.nodes.begin(); it != f.nodes.end(); ++it)
        if (!waitsOn.contains(it.key()))
            f.roots.push_back(it.key());
    std::sort(f.roots.begin(), f.roots.end(), [&](int a, int b) {
        const int wa = f.waitersBehind(a), wb = f.waitersBehind(b);
        return wa != wb ? wa > wb : a < b;
    });
    // Cycles: walk waits-on edges from every waiter; a revisit on the current path is a cycle.
    QSet<int> done;
    for (auto it = waitsOn.constBegin(); it != waitsOn.constEnd(); ++it) {
        std::vector<int> path;
        QSet<int> onPath;
        std::function<void(int)> dfs = [&](int p) {
            if (onPath.contains(p)) {
                std::vector<int> cycle(std::find(path.begin(), path.end(), p), path.end());
                std::vector<int> sorted = cycle;
                std::sort(sorted.begin(), sorted.end());
                bool known = false;
                for (const auto& c : f.cycles) {
                    std::vector<int> cs = c;
                    std::sort(cs.begin(), cs.end());
                    known = known || cs == sorted;
                }
                if (!known) {
                    for (int q : cycle)
                        f.nodes[q].inCycle = true;
                    f.cycles.push_back(cycle);
                }
                return;
            }
            if (done.contains(p))
                return;
            onPath.insert(p);
            path.push_back(p);
            for (int next : waitsOn.value(p))
                dfs(next);
            path.pop_back();
            onPath.remove(p);
            done.insert(p);
        };
        dfs(it.key());
    }
    return f;
}
} // namespace

QHash<int, HeldLocks> heldLocksByPid(const std::vector<LockView>& locks)
{
    QHash<int, HeldLocks> out;
    HeldLocks* cur = nullptr; // a session's locks are usually adjacent in pg_locks
    int curPid = 0;
    for (const LockView& v : locks) {
        if (!v.lock.granted)
            continue;
        if (!cur || v.lock.pid != curPid) {
            cur = &out[v.lock.pid];
            curPid = v.lock.pid;
        }
        ++cur->count;
        if (cur->names.size() < kLockNamesShown)
            cur->names << (v.name.isEmpty() ? advisoryKeyText(v.lock) : v.name);
    }
    return out;
}

QString lockNamesText(const QStringList& names, int total)
{
    QString text = names.join(QStringLiteral(", "));
    if (total > names.size())
        text += FindingWords::tr(" and %1 more").arg(total - names.size());
    return text;
}

namespace {
// A group's lock names: the first kLockNamesShown in name order. A pool of 100 pinned sessions
// lists 8 names and "and 792 more", not 800 names; the list stays short while it is built.
void keepFirstNames(QStringList& names)
{
    names.sort();
    if (names.size() > kLockNamesShown)
        names.resize(kLockNamesShown);
}

// One session counted into its group.
void countSession(PoolGroup& g, const SessionRow& row, const QHash<int, HeldLocks>& heldByPid, double serverNow)
{
    ++g.total;
    const auto held = heldByPid.constFind(row.pid);
    const bool holds = held != heldByPid.constEnd();
    if (row.waitEventType == QLatin1String("Lock"))
        ++g.waitingOnLock;
    else if (row.state == QLatin1String("active"))
        ++g.active;
    else if (isIdle(row) && holds) {
        ++g.idleHoldingAdvisory;
        g.pinnedLockNames << held->names;
        if (g.pinnedLockNames.size() > 2 * kLockNamesShown)
            keepFirstNames(g.pinnedLockNames);
        g.pinnedLocks += held->count;
        if (row.stateChange)
            g.pinnedForS = std::min(g.pinnedForS, serverNow - *row.stateChange);
    } else if (row.state == QLatin1String("idle"))
        ++g.idle;
    else if (row.state.startsWith(QLatin1String("idle in transaction")))
        ++g.idleInTransaction;
}

// A group as its first session opens it.
PoolGroup openGroup(const SessionRow& row, GroupBy by, const AnalysisConfig& cfg)
{
    PoolGroup g;
    g.key = groupKey(row, by);
    g.applicationName = row.applicationName;
    g.clientAddr = row.clientAddr;
    // An application's pool size fits groups of that application; a user's or a database's
    // group holds sessions of any application, and has a size only when configured by its key.
    const bool ofOneApplication = by == GroupBy::ClientInstance || by == GroupBy::ApplicationName;
    if (cfg.poolSizes.contains(g.key))
        g.poolSize = cfg.poolSizes.value(g.key);
    else if (ofOneApplication && cfg.poolSizes.contains(row.applicationName))
        g.poolSize = cfg.poolSizes.value(row.applicationName);
    g.pinnedForS = 1e300;
    return g;
}

// The groups once every session is counted: pinned or not, largest first. Their lock names are
// put in order here unless `namesSorted` (merged from lists in order).
void finishGroups(std::vector<PoolGroup>& groups, const Thresholds& th, bool namesSorted = false)
{
    for (PoolGroup& g : groups) {
        if (g.idleHoldingAdvisory == 0)
            g.pinnedForS = 0;
        if (!namesSorted)
            keepFirstNames(g.pinnedLockNames);
        // Pinned: every connection idle-holding (and more than one, or a configured pool of that size),
        // or the configured share of the pool size reached.
        const bool everyConnection = g.idleHoldingAdvisory == g.total && (g.total >= 2 || g.poolSize);
        const bool share =
            g.poolSize && *g.poolSize > 0 && g.idleHoldingAdvisory >= th.pinnedShare * *g.poolSize;
        g.pinned = (everyConnection || share) && g.pinnedForS >= th.pinnedMinS;
    }
    std::sort(groups.begin(), groups.end(), [](const PoolGroup& x, const PoolGroup& y) {
        return x.total != y.total ? x.total > y.total : x.key < y.key;
    });
}

// The fields a grouping's key is made of (groupKey()'s, with its name for no application_name):
// equal identities exactly when equal keys.
std::pair<QString, QString> groupIdentity(const SessionRow& r, GroupBy by)
{
    const QString app = r.applicationName.isEmpty() ? QStringLiteral("(no application_name)") : r.applicationName;
    switch (by) {
    case GroupBy::ClientInstance:
        return {app, r.clientAddr};
    case GroupBy::ApplicationName:
        return {app, {}};
    case GroupBy::User:
        return {r.user, {}};
    case GroupBy::Database:
        return {r.database, {}};
    }
    return {};
}

// Index of a few keys: a linear search while there are few (most refreshes have a handful of
// groups, and a hash table costs its allocation every refresh), a hash table beyond.
template <typename Key> class SmallIndex
{
public:
    int find(const Key& k) const
    {
        if (keys_.size() > kLinear)
            return hash_.value(k, -1);
        for (size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] == k)
                return int(i);
        return -1;
    }
    int insert(Key k) // the next index
    {
        const int at = int(keys_.size());
        if (keys_.size() == kLinear)
            for (size_t i = 0; i < keys_.size(); ++i)
                hash_.insert(keys_[i], int(i));
        if (keys_.size() >= kLinear)
            hash_.insert(k, at);
        keys_.push_back(std::move(k));
        return at;
    }

private:
    static constexpr size_t kLinear = 16;
    std::vector<Key> keys_;
    QHash<Key, int> hash_;
};

// Sessions into groups by `identity` (found by their fields: the key text is built once per group,
// not once per session); `open` makes a group from its first session, `add` counts one in.
template <typename Items, typename Identity, typename Open, typename Add>
std::vector<PoolGroup> collectGroups(const Items& items, Identity identity, Open open, Add add)
{
    std::vector<PoolGroup> groups;
    SmallIndex<std::pair<QString, QString>> groupIndex;
    std::pair<QString, QString> lastId; // sessions of one group tend to come in runs
    int lastGi = -1;
    for (const auto& item : items) {
        std::pair<QString, QString> id = identity(item);
        int gi = lastGi >= 0 && id == lastId ? lastGi : groupIndex.find(id);
        if (gi < 0) {
            gi = groupIndex.insert(id);
            groups.push_back(open(item));
        }
        lastGi = gi;
        lastId = std::move(id);
        add(groups[size_t(gi)], item);
    }
    return groups;
}
} // namespace

std::vector<PoolGroup> groupSessions(const Snapshot& s, const AnalysisConfig& cfg,
                                     const QHash<int, HeldLocks>& heldByPid)
{
    std::vector<PoolGroup> groups = collectGroups(
        s.sessions, [by = cfg.groupBy](const SessionRow& r) { return groupIdentity(r, by); },
        [&](const SessionRow& r) { return openGroup(r, cfg.groupBy, cfg); },
        [&](PoolGroup& g, const SessionRow& r) { countSession(g, r, heldByPid, s.serverNow); });
    finishGroups(groups, cfg.thresholds);
    return groups;
}

std::array<std::vector<PoolGroup>, 4> groupSessionsEveryWay(const Snapshot& s, const AnalysisConfig& cfg,
                                                            const QHash<int, HeldLocks>& heldByPid)
{
    // One pass over the sessions into fine groups (application, address, user, database), in the
    // order they first appear; each grouping then merges those (a handful, not 400 sessions).
    struct Fine
    {
        const SessionRow* first;
        PoolGroup counts;
    };
    std::vector<Fine> fine;
    {
        using FineId = std::pair<std::pair<QString, QString>, std::pair<QString, QString>>;
        SmallIndex<FineId> index;
        const SessionRow* lastRow = nullptr;
        int lastFi = -1;
        for (const SessionRow& r : s.sessions) {
            int fi = -1;
            if (lastRow && r.applicationName == lastRow->applicationName && r.clientAddr == lastRow->clientAddr &&
                r.user == lastRow->user && r.database == lastRow->database) {
                fi = lastFi;
            } else {
                FineId id{{r.applicationName, r.clientAddr}, {r.user, r.database}};
                fi = index.find(id);
                if (fi < 0) {
                    fi = index.insert(std::move(id));
                    Fine f{&r, {}};
                    f.counts.pinnedForS = 1e300;
                    fine.push_back(std::move(f));
                }
            }
            lastRow = &r;
            lastFi = fi;
            countSession(fine[size_t(fi)].counts, r, heldByPid, s.serverNow);
        }
    }
    // Each fine group's names sorted once; the groupings merge sorted lists (sorting every
    // grouping's lists again cost more than the rest of the grouping).
    for (Fine& f : fine)
        keepFirstNames(f.counts.pinnedLockNames);
    std::array<std::vector<PoolGroup>, 4> out;
    for (GroupBy by : {GroupBy::ClientInstance, GroupBy::ApplicationName, GroupBy::User, GroupBy::Database}) {
        std::vector<PoolGroup> groups = collectGroups(
            fine, [by](const Fine& f) { return groupIdentity(*f.first, by); },
            [&](const Fine& f) { return openGroup(*f.first, by, cfg); },
            [](PoolGroup& g, const Fine& f) {
                const PoolGroup& c = f.counts;
                g.total += c.total;
                g.active += c.active;
                g.idle += c.idle;
                g.idleInTransaction += c.idleInTransaction;
                g.waitingOnLock += c.waitingOnLock;
                g.idleHoldingAdvisory += c.idleHoldingAdvisory;
                if (g.pinnedLockNames.isEmpty()) {
                    g.pinnedLockNames = c.pinnedLockNames; // shared, not copied
                } else if (!c.pinnedLockNames.isEmpty()) {
                    const qsizetype mid = g.pinnedLockNames.size();
                    g.pinnedLockNames << c.pinnedLockNames;
                    std::inplace_merge(g.pinnedLockNames.begin(), g.pinnedLockNames.begin() + mid,
                                       g.pinnedLockNames.end());
                    if (g.pinnedLockNames.size() > kLockNamesShown)
                        g.pinnedLockNames.resize(kLockNamesShown);
                }
                g.pinnedLocks += c.pinnedLocks;
                g.pinnedForS = std::min(g.pinnedForS, c.pinnedForS);
            });
        finishGroups(groups, cfg.thresholds, /*namesSorted=*/true);
        out[size_t(by)] = std::move(groups);
    }
    return out;
}

KeyNames keyCollisions(const KeyNames& names)
{
    KeyNames out;
    for (auto it = names.constBegin(); it != names.constEnd(); ++it)
        if (it->size() > 1)
            out.insert(it.key(), *it);
    return out;
}

QString LockView::finding(double serverNow, const Thresholds& th) const
{
    if (lock.granted) {
        const double idle = idleForS(serverNow);
        if (idle > th.idleHoldingS)
            return FindingWords::tr("idle %1 holding this lock: the connection is out of its pool")
                .arg(formatDuration(idle));
        if (sessionLevel)
            return FindingWords::tr("session-level lock (held with no transaction open)");
        return {};
    }
    const double waited = lock.waitStart ? serverNow - *lock.waitStart : -1;
    const QString behind = waitingBehind.isEmpty() ? QStringLiteral("?") : waitingBehind;
    return waited >= 0 ? FindingWords::tr("waiting %1 behind pid %2").arg(formatDuration(waited), behind)
                       : FindingWords::tr("waiting behind pid %1").arg(behind);
}

namespace {
HolderSide holderSide(const Snapshot& s, const QHash<int, int>& byPid, int pid)
{
    HolderSide side;
    side.pid = pid;
    side.session = byPid.value(pid, -1);
    if (side.session >= 0) {
        const SessionRow& r = s.sessions[size_t(side.session)];
        if (isIdle(r) && r.stateChange)
            side.idleSince = r.stateChange;
        side.sessionLevel = r.state == QLatin1String("idle"); // a transaction-level lock would be gone
    }
    return side;
}

// The lock views of s, made afresh: names resolved, holders' states, who waits behind whom.
void makeLockViews(const Snapshot& s, const KeyNames& names, const QHash<int, int>& byPid, Analysis& a)
{
    QHash<qint64, QStringList> holdersByKey; // for "waiting behind whom"
    auto lockId = [](const AdvisoryLockRow& l) {
        return l.twoKeys ? (qint64(l.key1) << 32) ^ qint64(quint32(l.key2)) ^ (qint64(1) << 62) : l.key;
    };
    // Only waiters ask who holds their key: the holders of the waited-on keys are indexed, not
    // every held lock (20 000 of them made this index most of the analysis' time).
    for (const AdvisoryLockRow& l : s.advisoryLocks)
        if (!l.granted)
            holdersByKey.insert(lockId(l), {});
    if (!holdersByKey.isEmpty())
        for (const AdvisoryLockRow& l : s.advisoryLocks)
            if (l.granted)
                if (const auto it = holdersByKey.find(lockId(l)); it != holdersByKey.end())
                    *it << QString::number(l.pid);
    QHash<int, HolderSide> sides; // per session, not per lock: one may hold 20 000
    std::vector<LockView> views;
    views.reserve(s.advisoryLocks.size());
    for (const AdvisoryLockRow& l : s.advisoryLocks) {
        LockView v;
        v.lock = l;
        auto side = sides.constFind(l.pid);
        if (side == sides.constEnd())
            side = sides.insert(l.pid, holderSide(s, byPid, l.pid));
        v.session = side->session;
        v.idleSince = side->idleSince;
        v.sessionLevel = l.granted && side->sessionLevel;
        v.name = resolveLockName(l, names, &v.collision);
        if (v.name.isEmpty()) {
            static const LibraryKeyNames noLibraryKeys;
            v.name = libraryLockName(l, s.libraryKeys ? *s.libraryKeys : noLibraryKeys);
        }
        if (!l.granted) {
            v.waitingBehind = holdersByKey.value(lockId(l)).join(QStringLiteral(", "));
            a.waiters.push_back(int(views.size()));
        }
        views.push_back(std::move(v));
    }
    a.heldByPid = heldLocksByPid(views);
    QSet<int> listed;
    int lastPid = 0;
    for (const LockView& v : views)
        if (v.lock.granted && (a.holderPids.empty() || v.lock.pid != lastPid)) {
            lastPid = v.lock.pid;
            if (!listed.contains(lastPid)) {
                listed.insert(lastPid);
                a.holderPids.push_back(lastPid);
            }
        }
    for (const HolderSide& side : sides)
        a.sides.push_back(side);
    std::sort(a.sides.begin(), a.sides.end(), [](const HolderSide& x, const HolderSide& y) { return x.pid < y.pid; });
    a.locks = std::move(views);
}

// The previous views still hold: the same pg_locks read, the same names, and each lock holder's
// session where it was, in the same state.
bool lockViewsReusable(const Snapshot& s, const QHash<int, int>& byPid, const Analysis& previous)
{
    if (!s.advisoryLocks.sharesStorageWith(previous.lockSource) || s.keyNames != previous.lockNames ||
        s.libraryKeys != previous.libraryKeys)
        return false;
    for (const HolderSide& side : previous.sides)
        if (!(holderSide(s, byPid, side.pid) == side))
            return false;
    return true;
}
} // namespace

namespace {
// The refresh's sessions by pid.
class SessionIndex
{
public:
    explicit SessionIndex(const SessionRows& sessions) : sessions_(sessions)
    {
        for (int i = 0; i < int(sessions.size()); ++i)
            byPid_.insert(sessions[size_t(i)].pid, i);
    }
    const SessionRow* of(int pid) const
    {
        const int i = byPid_.value(pid, -1);
        return i < 0 ? nullptr : &sessions_[size_t(i)];
    }
    const QHash<int, int>& byPid() const { return byPid_; } // pid -> index into the sessions

private:
    const SessionRows& sessions_;
    QHash<int, int> byPid_;
};

// Waits on advisory locks, longer than the threshold.
void addAdvisoryWaits(const Snapshot& s, const AnalysisConfig& cfg, const SessionIndex& sessions, Analysis& a)
{
    for (int w : a.waiters) {
        const LockView& v = a.locks[size_t(w)];
        const AdvisoryLockRow& l = v.lock;
        const double waited = l.waitStart ? s.serverNow - *l.waitStart : -1;
        if (waited <= cfg.thresholds.advisoryWaitS)
            continue;
        const SessionRow* vs = sessions.of(l.pid);
        Finding f;
        f.kind = FindingKind::AdvisoryWait;
        f.severity = 2;
        f.subject = QString::number(l.pid);
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + f.subject + QLatin1Char(':') + advisoryKeyText(l);
        f.title = FindingWords::tr("%1 has waited %2 for advisory lock %3 held by pid %4")
                      .arg(sessionName(l.pid, vs, false), formatDuration(waited),
                           v.name.isEmpty() ? advisoryKeyText(l) : v.name, v.waitingBehind);
        f.explanation = FindingWords::tr("A session is queued behind another session's advisory lock; "
                                       "its work does not progress until the holder releases it.");
        f.fix = FindingWords::tr("Use pg_try_advisory_lock with a retry, or a lock_timeout, so waits are "
                               "bounded; check why the holder keeps the lock.");
        a.findings.push_back(f);
    }
}

// Idle sessions holding advisory locks (one finding per session, not per lock).
void addIdleHolders(const Snapshot& s, const AnalysisConfig& cfg, const SessionIndex& sessions, Analysis& a)
{
    for (int pid : a.holderPids) {
        const SessionRow* vs = sessions.of(pid);
        if (!vs || !isIdle(*vs) || !vs->stateChange)
            continue;
        const double idleFor = s.serverNow - *vs->stateChange;
        if (idleFor <= cfg.thresholds.idleHoldingS)
            continue;
        const HeldLocks& held = *a.heldByPid.constFind(pid);
        Finding f;
        f.kind = FindingKind::IdleHoldingAdvisory;
        f.severity = 2;
        f.subject = QString::number(pid);
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + f.subject;
        f.title = (held.count > 1 ? FindingWords::tr("%1 has been %2 for %3 holding advisory locks %4")
                                  : FindingWords::tr("%1 has been %2 for %3 holding advisory lock %4"))
                      .arg(sessionName(pid, vs, true), vs->state, formatDuration(idleFor),
                           lockNamesText(held.names, held.count));
        const bool migration = std::any_of(held.names.begin(), held.names.end(), isMigrationLockName);
        if (migration) {
            // node-pg-migrate, Rails and Flyway take their lock for the whole migration run; an idle
            // holder is a run that died, hangs or waits, and every other deploy waits or fails on it.
            f.explanation = FindingWords::tr(
                "A migration tool holds its migration lock on an idle session: the migration run died, hangs "
                "or waits for input, and the next deploy cannot migrate (it waits, or fails on the lock).");
            f.fix = FindingWords::tr("Find the deploy or migration process behind this session; if it is gone, "
                                   "terminate pid %1 to release the lock, then check the schema's state.")
                        .arg(pid);
        } else {
            f.explanation =
                FindingWords::tr("An idle connection that holds a session-level advisory lock is taken out "
                               "of its pool until it unlocks or disconnects.");
            f.fix = FindingWords::tr("Hold no lock over long work on a pooled connection; use a lease row, or a "
                                   "transaction-level lock (pg_advisory_xact_lock).");
        }
        a.findings.push_back(f);
    }
}

// Pools: the sessions grouped every way in one pass (the pool history keeps all four); the
// findings are about the configured grouping.
void addPools(const Snapshot& s, const AnalysisConfig& cfg, const SessionIndex& sessions, Analysis& a)
{
    a.groupsBy = groupSessionsEveryWay(s, cfg, a.heldByPid);
    // No noise: a pinned pool is one finding, not one more per pinned session.
    QSet<QString> pinnedGroups;
    for (const PoolGroup& g : a.groups())
        if (g.pinned)
            pinnedGroups.insert(g.key);
    a.findings.erase(std::remove_if(a.findings.begin(), a.findings.end(),
                                    [&](const Finding& f) {
                                        const SessionRow* fs = sessions.of(f.subject.toInt());
                                        return f.kind == FindingKind::IdleHoldingAdvisory && fs &&
                                               pinnedGroups.contains(groupKey(*fs, cfg.groupBy));
                                    }),
                     a.findings.end());
    for (const PoolGroup& g : a.groups()) {
        if (!g.pinned)
            continue;
        const int size = g.poolSize.value_or(g.total);
        Finding f;
        f.kind = FindingKind::PoolPinned;
        f.severity = 3;
        f.subject = g.key;
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + g.key;
        f.title =
            FindingWords::tr("%1: %2 of %3 pooled connections are idle holding advisory locks %4 for %5; its "
                           "work cannot get a connection")
                .arg(g.key)
                .arg(g.idleHoldingAdvisory)
                .arg(size)
                .arg(lockNamesText(g.pinnedLockNames, g.pinnedLocks), formatDuration(g.pinnedForS));
        f.explanation =
            FindingWords::tr("Every connection of this instance's pool is pinned by a session-level "
                           "advisory lock on an idle backend; work that needs a connection waits "
                           "for one its own locks hold. The server sees no deadlock.");
        f.fix =
            FindingWords::tr("Hold no lock over long work on a pooled connection; use a lease row, or a "
                           "transaction-level lock. Terminating one pinned backend frees one connection.");
        a.findings.push_back(f);
    }
}

// Blocking chains (any lock type) and deadlock cycles caught in the act.
void addBlocking(const Snapshot& s, const SessionIndex& sessions, Analysis& a)
{
    a.blocking = buildForest(s);
    for (int root : a.blocking.roots) {
        const int behind = a.blocking.waitersBehind(root);
        double longest = 0;
        for (auto it = a.blocking.nodes.constBegin(); it != a.blocking.nodes.constEnd(); ++it)
            longest = std::max(longest, it->waitingS);
        const SessionRow* rs = sessions.of(root);
        Finding f;
        f.kind = FindingKind::BlockingChain;
        f.severity = behind >= 3 ? 3 : 2;
        f.subject = QString::number(root);
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + f.subject;
        f.title =
            (behind == 1 ? FindingWords::tr("%1 blocks 1 session; the longest has waited %3")
                         : FindingWords::tr("%1 blocks %2 sessions; the longest has waited %3"))
                .arg(sessionName(root, rs, false, rs ? rs->state : QString()), QString::number(behind),
                     formatDuration(longest));
        f.explanation =
            FindingWords::tr("Sessions wait on locks held by the root blocker; waits cascade and fill "
                           "the pools.");
        f.fix =
            FindingWords::tr("Set lock_timeout and statement_timeout; take row locks in a consistent order; "
                           "end or cancel the root blocker if it is stuck.");
        a.findings.push_back(f);
    }
    for (const auto& cycle : a.blocking.cycles) {
        QStringList pids;
        for (int p : cycle)
            pids << QString::number(p);
        Finding f;
        f.kind = FindingKind::Deadlocks;
        f.severity = 3;
        f.subject = pids.join(QLatin1Char(','));
        f.id = QStringLiteral("deadlock_cycle:") + f.subject;
        f.title = FindingWords::tr("deadlock cycle caught in this refresh: pids %1 wait on each other")
                      .arg(pids.join(QStringLiteral(" → ")));
        f.explanation =
            FindingWords::tr("The sessions wait on each other; PostgreSQL's deadlock detector will abort "
                           "one of them after deadlock_timeout.");
        f.fix =
            FindingWords::tr("Lock rows and keys in one consistent order (e.g. sorted) in every transaction.");
        a.findings.push_back(f);
    }
}

// The keys a polling statement asks for: pg_try_advisory_lock(42), (1, 2), their _xact and _shared
// forms, written as literals (a migration tool's lock key is a constant in its SQL).
struct PolledKey
{
    qint64 key = 0;
    std::optional<std::pair<qint32, qint32>> two;
    bool matches(const AdvisoryLockRow& l) const
    {
        return two ? l.twoKeys && l.key1 == two->first && l.key2 == two->second : !l.twoKeys && l.key == key;
    }
};
std::vector<PolledKey> polledKeys(const QString& query)
{
    std::vector<PolledKey> keys;
    if (!query.contains(QLatin1String("pg_try_advisory"), Qt::CaseInsensitive))
        return keys;
    static const QRegularExpression re(
        QStringLiteral("pg_try_advisory(?:_xact)?_lock(?:_shared)?\\s*\\(\\s*(-?\\d+)\\s*(?:,\\s*(-?\\d+)\\s*)?\\)"),
        QRegularExpression::CaseInsensitiveOption);
    for (auto it = re.globalMatch(query); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        bool ok1 = false, ok2 = false;
        const qint64 k1 = m.captured(1).toLongLong(&ok1);
        const qint64 k2 = m.captured(2).toLongLong(&ok2);
        if (ok1 && m.captured(2).isEmpty())
            keys.push_back({k1, std::nullopt});
        else if (ok1 && ok2 && k1 >= INT32_MIN && k1 <= INT32_MAX && k2 >= INT32_MIN && k2 <= INT32_MAX)
            keys.push_back({0, std::pair<qint32, qint32>{qint32(k1), qint32(k2)}});
    }
    return keys;
}

// "CREATE INDEX CONCURRENTLY" and the like, as the waiting statement runs it.
QString concurrentCommand(const QString& query)
{
    const QString q = query.simplified().toUpper();
    if (!q.contains(QLatin1String("CONCURRENTLY")))
        return FindingWords::tr("statement");
    if (q.contains(QLatin1String("REINDEX")))
        return QStringLiteral("REINDEX CONCURRENTLY");
    if (q.contains(QLatin1String("DETACH PARTITION")))
        return QStringLiteral("DETACH PARTITION CONCURRENTLY");
    if (q.contains(QLatin1String("DROP INDEX")))
        return QStringLiteral("DROP INDEX CONCURRENTLY");
    if (q.contains(QLatin1String("INDEX")))
        return QStringLiteral("CREATE INDEX CONCURRENTLY");
    return FindingWords::tr("statement");
}

// "node-pg-migrate migration lock", or "advisory lock 4242" when it has no name.
QString lockText(const LockView& v)
{
    return v.name.isEmpty() ? FindingWords::tr("advisory lock %1").arg(advisoryKeyText(v.lock)) : v.name;
}

// "4402,4403,4411": a cycle's pids in order, whichever member it starts from.
QString sortedPidsText(std::vector<int> pids)
{
    std::sort(pids.begin(), pids.end());
    QStringList out;
    for (int p : pids)
        out << QString::number(p);
    return out.join(QLatin1Char(','));
}

enum class WaitEdge { Lock, Poll, Client };
struct WaitStep
{
    int pid = 0;
    WaitEdge edge = WaitEdge::Lock; // how the session before waits on this one
    QString what;                   // the lock's name, when known
};

// Cycles through a snapshot or a transaction. They start at a session waiting for another's
// snapshot (a virtualxid lock: the concurrent builds wait on those) or transaction (a transactionid
// lock: a row lock) and lead back to it along three kinds of waits: lock waits (pg_blocking_pids);
// polls (a session inside a statement or a transaction retrying pg_try_advisory_lock for a key
// someone holds); and, for a build only, a client's wait (an idle session of the build's own client
// instance: its program waits for the build before it lets go — for an ordinary row-lock waiter
// that would be a guess, and a false alarm whenever two requests of one pool contend). A cycle of
// lock waits only is PostgreSQL's own to break, after deadlock_timeout; one with a poll or a
// client's wait in it is never broken. Almost every refresh has no such waiter: one pass, nothing else.
std::vector<std::vector<WaitStep>> findHiddenCycles(const Snapshot& s, const SessionIndex& sessions,
                                                    const Analysis& a)
{
    std::vector<std::vector<WaitStep>> out;
    auto holdsSnapshot = [](const SessionRow& r) {
        return r.state == QLatin1String("active") || r.state.startsWith(QLatin1String("idle in transaction"));
    };
    // A row-lock waiter can only be in such a cycle through a poll: in a storm of row locks with
    // nobody polling (the usual storm), none of them is a start.
    const bool anyPoller = std::any_of(s.sessions.begin(), s.sessions.end(), [&](const SessionRow& r) {
        return r.waitEventType != QLatin1String("Lock") && holdsSnapshot(r) &&
               r.query.contains(QLatin1String("pg_try_advisory"), Qt::CaseInsensitive);
    });
    std::vector<const SessionRow*> snapshotWaiters;
    for (const SessionRow& r : s.sessions)
        if (!r.blockedBy.empty() && (r.waitEvent == QLatin1String("virtualxid") ||
                                     (anyPoller && r.waitEvent == QLatin1String("transactionid"))))
            snapshotWaiters.push_back(&r);
    if (snapshotWaiters.empty())
        return out;
    auto waitsOn = [&](const SessionRow& p, const SessionRow& w, bool first) {
        std::vector<WaitStep> next;
        if (p.waitEventType == QLatin1String("Lock")) {
            QString what; // the advisory lock it waits for, if that is what it waits for
            for (int i : a.waiters)
                if (a.locks[size_t(i)].lock.pid == p.pid)
                    what = lockText(a.locks[size_t(i)]);
            for (int b : p.blockedBy)
                next.push_back({b, WaitEdge::Lock, what});
        } else if (holdsSnapshot(p)) {
            for (const PolledKey& k : polledKeys(p.query))
                for (const LockView& v : a.locks)
                    if (v.lock.granted && v.lock.pid != p.pid && v.lock.database == p.database && k.matches(v.lock))
                        next.push_back({v.lock.pid, WaitEdge::Poll, lockText(v)});
        }
        // The first session must wait itself: a snapshot holder waiting on nothing is a long
        // transaction, not a cycle.
        if (!first && w.waitEvent == QLatin1String("virtualxid") && isIdle(p) &&
            groupKey(p, GroupBy::ClientInstance) == groupKey(w, GroupBy::ClientInstance))
            next.push_back({w.pid, WaitEdge::Client, {}});
        return next;
    };

    std::set<QString> known; // each cycle once, whichever of its waiters it was found from
    for (const SessionRow* w : snapshotWaiters)
        for (int x : w->blockedBy) {
            const SessionRow* xs = sessions.of(x);
            if (!xs || !holdsSnapshot(*xs))
                continue;
            std::vector<WaitStep> path{{x, WaitEdge::Lock, {}}};
            QSet<int> onPath{w->pid, x};
            // A session explored to the end without closing a cycle is not explored again from this
            // start, once per "a poll or a client's wait on the way there" (that makes a cycle
            // valid): each start costs one pass over the waits, even in a lock storm.
            QSet<qint64> explored;
            bool closed = false;
            std::function<void(const SessionRow&, bool)> walk = [&](const SessionRow& p, bool unseen) {
                for (const WaitStep& st : waitsOn(p, *w, p.pid == x)) {
                    const bool nowUnseen = unseen || st.edge != WaitEdge::Lock;
                    if (st.pid == w->pid) {
                        if (nowUnseen) { // else a cycle of lock waits: PostgreSQL's own to break
                            path.push_back(st);
                            closed = true;
                            return;
                        }
                        continue;
                    }
                    const qint64 state = qint64(st.pid) * 2 + (nowUnseen ? 1 : 0);
                    const SessionRow* next = sessions.of(st.pid);
                    if (!next || onPath.contains(st.pid) || explored.contains(state))
                        continue;
                    onPath.insert(st.pid);
                    path.push_back(st);
                    walk(*next, nowUnseen);
                    if (closed)
                        return;
                    path.pop_back();
                    onPath.remove(st.pid);
                    explored.insert(state);
                }
            };
            walk(*xs, false);
            std::vector<int> pids;
            for (const WaitStep& st : path)
                pids.push_back(st.pid);
            if (closed && known.insert(sortedPidsText(pids)).second)
                out.push_back(std::move(path));
        }
    return out;
}

// Each hidden cycle as a critical card naming the session to cancel; the cards that would point
// at the wrong one (end the root blocker, terminate the idle holder) give way to it.
void addHiddenCycles(const Snapshot& s, const SessionIndex& sessions, Analysis& a)
{
    QSet<int> members;
    for (const std::vector<WaitStep>& path : findHiddenCycles(s, sessions, a)) {
        // path: x, the sessions x waits on, …, and the snapshot waiter w last.
        const int x = path.front().pid, y = path[1].pid, w = path.back().pid;
        const SessionRow* xs = sessions.of(x);
        const SessionRow* ws = sessions.of(w);
        HiddenCycle c;
        c.snapshotWaiter = w;
        c.cancel = x;
        c.terminate = xs && xs->state.startsWith(QLatin1String("idle in transaction"));
        c.pids.push_back(w);
        for (size_t i = 0; i + 1 < path.size(); ++i)
            c.pids.push_back(path[i].pid);
        for (int p : c.pids)
            members.insert(p);
        a.blocking.hiddenCycles.push_back(c);

        const QString cmd = ws ? concurrentCommand(ws->query) : FindingWords::tr("statement");
        const QString ofX = ws && ws->waitEvent == QLatin1String("transactionid")
                                ? FindingWords::tr("pid %1's transaction").arg(x)
                                : FindingWords::tr("pid %1's snapshot").arg(x);
        const WaitStep& first = path[1];
        const QString waits =
            first.edge == WaitEdge::Poll
                ? FindingWords::tr("keeps retrying pg_try_advisory_lock for %1 held by pid %2").arg(first.what).arg(y)
                : first.what.isEmpty() ? FindingWords::tr("waits for a lock held by pid %1").arg(y)
                                       : FindingWords::tr("waits for %1 held by pid %2").arg(first.what).arg(y);
        QString back;
        if (y == w)
            back = FindingWords::tr("whose %1 waits for %2").arg(cmd, ofX);
        else if (path.size() == 3 && path.back().edge == WaitEdge::Client)
            back = FindingWords::tr("whose client's %1 (pid %2) waits for %3").arg(cmd).arg(w).arg(ofX);
        else {
            QStringList via;
            for (size_t i = 2; i + 1 < path.size(); ++i)
                via << QString::number(path[i].pid);
            back = FindingWords::tr("and through pid %1, %2 (pid %3) waits for %4")
                       .arg(via.join(QStringLiteral(" → ")), cmd)
                       .arg(w)
                       .arg(ofX);
        }
        QStringList unseen; // why PostgreSQL does not see it
        int idleHolder = 0;
        for (size_t i = 1; i < path.size(); ++i) {
            const int from = path[i - 1].pid;
            if (path[i].edge == WaitEdge::Poll)
                unseen << FindingWords::tr("pid %1 waits on no lock, it retries pg_try_advisory_lock").arg(from);
            else if (path[i].edge == WaitEdge::Client) {
                unseen << FindingWords::tr("pid %1 is idle: its program, the build's own client, waits for the "
                                         "build before it lets go")
                              .arg(from);
                idleHolder = from;
            }
        }
        Finding f;
        f.kind = FindingKind::HiddenDeadlock;
        f.severity = 3;
        f.subject = QString::number(x);
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + sortedPidsText(c.pids);
        f.title = FindingWords::tr("%1 %2, %3: neither can finish").arg(sessionName(x, xs, false), waits, back);
        f.explanation = FindingWords::tr("PostgreSQL's deadlock detector cannot see this cycle (%1): nobody gets "
                                       "an error, it lasts until someone acts.")
                            .arg(unseen.join(QStringLiteral("; ")));
        if (idleHolder)
            f.explanation += FindingWords::tr(" Ending pid %1, the root of the lock chain, would let go of its lock "
                                            "with the build half done.")
                                 .arg(idleHolder);
        f.fix = c.terminate
                    ? FindingWords::tr("Terminate pid %1 (pg_terminate_backend(%1)): it is idle in a transaction, "
                                     "where a cancel does nothing. Its transaction ends, the %2 finishes and the "
                                     "lock is let go; pid %1's work fails and can be run again.")
                          .arg(x)
                          .arg(cmd)
                    : FindingWords::tr("Cancel pid %1's statement (pg_cancel_backend(%1)), not the root blocker: its "
                                     "transaction fails and lets go of what the %2 waits for at once, the %2 "
                                     "finishes and the lock is let go; pid %1's work can be run again.")
                          .arg(x)
                          .arg(cmd);
        a.findings.push_back(f);
    }
    if (members.isEmpty())
        return;
    a.findings.erase(std::remove_if(a.findings.begin(), a.findings.end(),
                                    [&](const Finding& f) {
                                        return (f.kind == FindingKind::BlockingChain ||
                                                f.kind == FindingKind::AdvisoryWait ||
                                                f.kind == FindingKind::IdleHoldingAdvisory) &&
                                               members.contains(f.subject.toInt());
                                    }),
                     a.findings.end());
}

// Collisions among the known candidate names.
void addKeyCollisions(const Snapshot& s, const KeyNames& names, Analysis& a)
{
    a.collisions = s.keyCollisions ? *s.keyCollisions : keyCollisions(names);
    for (auto it = a.collisions.constBegin(); it != a.collisions.constEnd(); ++it) {
        Finding f;
        f.kind = FindingKind::KeyCollision;
        f.severity = 2;
        f.subject = QString::number(it.key());
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + f.subject;
        f.title = FindingWords::tr("lock names %1 hash to the same advisory key %2")
                      .arg(it->join(FindingWords::tr(" and ")))
                      .arg(it.key());
        f.explanation =
            FindingWords::tr("Two different jobs take the same advisory lock: they exclude each other by "
                           "accident, and the console cannot tell which one holds it.");
        f.fix = FindingWords::tr(
            "Use a key scheme without collisions: two-key locks (namespace, id), or ids from a "
            "table instead of hashtext().");
        a.findings.push_back(f);
    }
}

// Cluster limits: connections, the shared lock table; and what this role cannot see.
void addClusterLimits(const Snapshot& s, const AnalysisConfig& cfg, Analysis& a)
{
    const ClusterInfo& c = s.cluster;
    a.connectionsUsed = int(s.sessions.size()) + 1; // + the console itself
    a.connectionBudget = std::max(1, c.connectionBudget());
    if (a.connectionsUsed >= cfg.thresholds.connectionShare * a.connectionBudget) {
        Finding f;
        f.kind = FindingKind::ConnectionsNearLimit;
        f.severity = a.connectionsUsed >= a.connectionBudget ? 3 : 2;
        f.subject = QStringLiteral("cluster");
        f.id = findingKindKey(f.kind);
        f.title = FindingWords::tr("%1 of %2 connections in use (max_connections %3 − %4 reserved)")
                      .arg(a.connectionsUsed)
                      .arg(a.connectionBudget)
                      .arg(c.maxConnections)
                      .arg(c.superuserReservedConnections + c.reservedConnections);
        f.explanation =
            FindingWords::tr("New connections will fail with SQLSTATE 53300 once the budget is used up.");
        f.fix =
            FindingWords::tr("Shrink pools or put PgBouncer in front; look for pinned or idle-in-transaction "
                           "sessions first.");
        a.findings.push_back(f);
    }
    if (c.lockTableCapacity() > 0 && c.lockTableEntries >= cfg.thresholds.lockTableShare * c.lockTableCapacity()) {
        Finding f;
        f.kind = FindingKind::LockTablePressure;
        f.severity = c.lockTableEntries >= c.lockTableCapacity() ? 3 : 2;
        f.subject = QStringLiteral("cluster");
        f.id = findingKindKey(f.kind);
        f.title = FindingWords::tr("shared lock table at %1 % (%2 of about %3 entries)")
                      .arg(qRound(100.0 * c.lockTableEntries / c.lockTableCapacity()))
                      .arg(c.lockTableEntries)
                      .arg(c.lockTableCapacity());
        f.explanation = FindingWords::tr("When the shared lock table is full, taking a lock fails with "
                                       "\"out of shared memory\" (SQLSTATE 53200) in any session.");
        f.fix = FindingWords::tr("Take fewer locks per transaction (batch advisory locks), or raise "
                               "max_locks_per_transaction (needs a restart).");
        a.findings.push_back(f);
    }
    if (!c.hasMonitorPrivilege) {
        Finding f;
        f.kind = FindingKind::HiddenByPrivileges;
        f.severity = 1;
        f.subject = s.server.user;
        f.id = findingKindKey(f.kind);
        f.title = FindingWords::tr("role %1 cannot see other roles' sessions in full").arg(s.server.user);
        f.explanation =
            FindingWords::tr("Without pg_monitor, other users' sessions show <insufficient privilege> "
                           "for query, state, client address and wait events.");
        f.fix = FindingWords::tr("GRANT pg_monitor TO %1;").arg(sqlIdentifier(s.server.user));
        a.findings.push_back(f);
    }
}
} // namespace

Analysis analyze(const Snapshot& s, const AnalysisConfig& cfg, const Analysis* previous)
{
    static const KeyNames noNames;
    const KeyNames& names = s.keyNames ? *s.keyNames : noNames;
    Analysis a;
    a.serverNow = s.serverNow;
    a.config = cfg;
    const SessionIndex sessions(s.sessions);

    // Advisory locks with their sessions and names: the previous views when they cannot differ.
    a.lockSource = s.advisoryLocks;
    a.lockNames = s.keyNames;
    a.libraryKeys = s.libraryKeys;
    if (previous && lockViewsReusable(s, sessions.byPid(), *previous)) {
        a.sides = previous->sides;
        a.locks = previous->locks;
        a.waiters = previous->waiters;
        a.heldByPid = previous->heldByPid;
        a.holderPids = previous->holderPids;
    } else {
        makeLockViews(s, names, sessions.byPid(), a);
    }

    addAdvisoryWaits(s, cfg, sessions, a);
    addIdleHolders(s, cfg, sessions, a);
    addPools(s, cfg, sessions, a); // after the idle holders: a pinned pool stands for its sessions
    addBlocking(s, sessions, a);
    addHiddenCycles(s, sessions, a); // after the blocking and the waits: it stands for them
    addKeyCollisions(s, names, a);
    addClusterLimits(s, cfg, a);
    std::stable_sort(a.findings.begin(), a.findings.end(),
                     [](const Finding& x, const Finding& y) { return x.severity > y.severity; });
    return a;
}

} // namespace lw
