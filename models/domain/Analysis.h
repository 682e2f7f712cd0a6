#pragma once
// What a refresh means, as plain values computed from one Snapshot: advisory locks with their keys
// resolved to names, sessions grouped into client instances (pools), the blocking forest, and the
// findings an operator should read. Pure functions: the models and the headless output share them.
#include "Snapshot.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace lw {

// key → candidate names that hash to it (hashtext() computed on the monitored server).
using KeyNames = QHash<qint64, QStringList>;

QString advisoryKeyText(const AdvisoryLockRow& l); // "42" or "(1, -2)"
// The name a lock resolves to: "hashtext('sweep')", or an empty string when unresolved.
QString resolveLockName(const AdvisoryLockRow& l, const KeyNames& names, QStringList* collision = nullptr);

// A session as findings name it: "pid 22134 (billing-api on 10.0.0.7, idle)", or without an
// application_name "pid 22134 from 10.0.0.7, no application_name" — never "pid 22134 ()".
// `s` may be null (not visible): "pid 22134".
QString sessionName(int pid, const SessionRow* s, bool withAddress, const QString& extra = {});

// Idle, or idle in transaction (aborted or not): a session that holds what it holds doing nothing.
bool isIdle(const SessionRow& s);

struct Thresholds
{
    double idleHoldingS = 10;     // idle session holding an advisory lock for longer than this
    double advisoryWaitS = 5;     // waiting on an advisory lock for longer than this
    double pinnedMinS = 5;        // a pooled connection counts as pinned after this long idle-holding
    double pinnedShare = 1.0;     // share of the configured pool size that makes a pool "pinned"
    double lockTableShare = 0.8;  // lock-table use above this share of the nominal capacity
    double connectionShare = 0.9; // connections above this share of max_connections - reserved
    double notAnsweringS = 15;    // a server silent for longer than this is a critical finding
    bool operator==(const Thresholds&) const = default;
};

enum class GroupBy { ClientInstance, ApplicationName, User, Database };
QString groupKey(const SessionRow& s, GroupBy by);

struct PoolGroup
{
    QString key; // "10.0.0.7 billing-api", "billing-api (local)"
    QString applicationName;
    QString clientAddr;
    int total = 0;
    int active = 0;
    int idle = 0;
    int idleInTransaction = 0;
    int waitingOnLock = 0;
    int idleHoldingAdvisory =
        0; // the pinned ones (idle or idle in transaction, holding a granted advisory lock)
    std::optional<int> poolSize; // configured in the profile
    QStringList pinnedLockNames; // resolved names (or keys) of locks pinning connections: the first
                                 // kLockNamesShown in name order of those its sessions list
                                 // (HeldLocks::names); pinnedLocks counts them all
    int pinnedLocks = 0;         // how many locks pin them (pinnedLockNames may show fewer)
    double pinnedForS = 0;       // the shortest idle time among pinned connections
    bool pinned = false;
};

// One advisory lock as the console shows it. Only what follows from the pg_locks read, the key
// names and the holder's state: nothing here moves with the clock, so a refresh that re-reads the
// same locks from the same idle sessions reuses every view (20 000 locks, incident 3). The clock
// enters where they are read: idleForS(now) and finding(now, thresholds).
struct LockView
{
    AdvisoryLockRow lock;
    int session = -1;                // index into Snapshot::sessions, -1 if not visible
    QString name;                    // resolved, or empty
    QStringList collision;           // several candidates share this key
    std::optional<double> idleSince; // the holder's state_change, when it is idle (server time)
    bool sessionLevel = false;       // granted, and held while the session has no open transaction
    QString waitingBehind;           // waiters: the pids holding the key ("201, 202"; empty: none seen)
    double idleForS(double serverNow) const { return idleSince ? serverNow - *idleSince : -1; }
    // One line on the row, empty when fine.
    QString finding(double serverNow, const Thresholds& th) const;
    bool operator==(const LockView&) const = default;
};

struct BlockNode
{
    int pid = 0;
    double waitingS = -1;      // how long this session has waited (-1: not waiting)
    std::vector<int> children; // sessions waiting behind this one
    bool inCycle = false;
};
// A cycle of waits PostgreSQL's deadlock detector cannot see, so nobody ever gets an error: a
// concurrent build (CREATE INDEX CONCURRENTLY, …) waits for a session's snapshot, and that session
// waits for what the build's side holds — on a lock whose holder's client waits for the build
// (its migration lock taken on another connection), or by polling pg_try_advisory_lock for a key
// the build's session holds. Freeing it means cancelling the session whose snapshot is waited for,
// not the root blocker the lock tree shows.
struct HiddenCycle
{
    std::vector<int> pids;  // from the snapshot waiter along the waits back to it
    int snapshotWaiter = 0; // the concurrent build
    int cancel = 0;         // the session whose snapshot it waits for, itself waiting
    bool terminate = false; // that session is idle in a transaction: a cancel would do nothing
    bool operator==(const HiddenCycle&) const = default;
};
struct BlockingForest
{
    std::vector<int> roots;               // root blockers (not waiting themselves), worst first
    QHash<int, BlockNode> nodes;          // every pid in a chain
    std::vector<std::vector<int>> cycles; // deadlock cycles caught in the snapshot
    std::vector<HiddenCycle> hiddenCycles; // cycles through a snapshot that PostgreSQL does not see
    int waitersBehind(int pid) const;     // all sessions transitively waiting on pid
};

enum class FindingKind {
    StaleLease,
    PoolPinned,
    IdleHoldingAdvisory,
    AdvisoryWait,
    BlockingChain,
    Deadlocks,
    LockTablePressure,
    ConnectionsNearLimit,
    KeyCollision,
    WriterClockSkew,
    HiddenByPrivileges,
    BouncerSlotHoldsLock,
    LeasesUnreadable,
    ServerNotAnswering,
    HolderGone, // a lock that keeps no session (ShedLock): its holder's host disconnected, the lock held on
    FlagLeftSet, // a lock kept as a bare flag (knex's is_locked) whose setter's sessions are gone
    DoubleRun,   // a lease taken over while the previous holder's sessions are still busy
    HiddenDeadlock, // a HiddenCycle: sessions that wait on each other where PostgreSQL cannot see it
};
QString findingKindKey(FindingKind k);
// A kind in a reader's words ("pool pinned", German "Pool blockiert"), from its key; an unknown key
// with its underscores as spaces.
QString findingKindTitle(const QString& key);

struct Finding
{
    FindingKind kind;
    int severity = 1;       // 3 critical, 2 warning, 1 notice
    QString id;             // stable across refreshes: kind + subject
    QString title;          // one line, names the subject
    QString explanation;    // what it means, in one or two plain sentences
    QString fix;            // what usually fixes it
    QString subject;        // lease name, pid, group key…
    double sinceServer = 0; // first refresh (server time) at which it was true (kept by FindingsModel)
    bool operator==(const Finding&) const = default;
};

// Findings counted by severity, one rule for every place that says "2 critical, 1 warning".
struct SeverityCounts
{
    int critical = 0, warning = 0, notice = 0;
    void add(int severity) { ++(severity >= 3 ? critical : severity == 2 ? warning : notice); }
    int worst() const { return critical ? 3 : warning ? 2 : notice ? 1 : 0; }
    bool operator==(const SeverityCounts&) const = default;
};

struct AnalysisConfig
{
    Thresholds thresholds;
    GroupBy groupBy = GroupBy::ClientInstance;
    QHash<QString, int> poolSizes; // group key (or application_name) → configured pool size
    bool operator==(const AnalysisConfig&) const = default;
};

// The advisory locks one session holds: the names (or keys) of the first few, in pg_locks order,
// and how many. One session may hold tens of thousands (incident 3); nobody reads that list.
inline constexpr int kLockNamesShown = 8;
struct HeldLocks
{
    QStringList names; // at most kLockNamesShown
    int count = 0;
};

// What a lock holder's session contributes to its lock views.
struct HolderSide
{
    int pid = 0;
    int session = -1; // index into Snapshot::sessions
    std::optional<double> idleSince;
    bool sessionLevel = false;
    bool operator==(const HolderSide&) const = default;
};

struct Analysis
{
    SharedRows<LockView> locks;   // in pg_locks order; shared with the previous analysis when reused
    std::vector<int> waiters;     // indexes into locks of the ones not granted
    QHash<int, HeldLocks> heldByPid; // granted locks by holder
    std::vector<int> holderPids;  // the keys of heldByPid, in pg_locks order
    double serverNow = 0;         // the clock the findings were computed at
    AnalysisConfig config;        // what it was computed with
    std::array<std::vector<PoolGroup>, 4> groupsBy; // every grouping, by GroupBy (the pool history's)
    const std::vector<PoolGroup>& groups() const { return groupsBy[size_t(config.groupBy)]; } // the findings'
    BlockingForest blocking;
    std::vector<Finding> findings; // locks, pools, waits, cluster limits (leases are added by the caller)
    QHash<qint64, QStringList> collisions; // key → names, among all known candidates
    int connectionsUsed = 0;
    int connectionBudget = 0; // ClusterInfo::connectionBudget()

    // What the lock views were made from, for the next analysis to tell whether it may reuse them.
    SharedRows<AdvisoryLockRow> lockSource;
    std::shared_ptr<const KeyNames> lockNames;
    std::shared_ptr<const QHash<qint64, QString>> libraryKeys;
    std::vector<HolderSide> sides; // one per pid in the locks, by pid
};

// Resolves lock keys with s.keyNames (none when null) and reports s.keyCollisions (found in
// s.keyNames when null: the poller keeps them, so a refresh does not walk every known name).
// `previous`, the analysis of the refresh before (same source), lets the lock views be reused
// when nothing they depend on changed: the same pg_locks read (shared storage), the same key names,
// the same holders' states. The result is the same either way.
Analysis analyze(const Snapshot& s, const AnalysisConfig& cfg, const Analysis* previous = nullptr);
// The keys with more than one candidate name.
KeyNames keyCollisions(const KeyNames& names);

// pid → the granted advisory locks it holds, from resolved locks.
QHash<int, HeldLocks> heldLocksByPid(const std::vector<LockView>& locks);
// "a, b, c" or "a, b, c and 4 997 more".
QString lockNamesText(const QStringList& names, int total);
// Sessions grouped into client instances (or by application, user, database) with their states;
// `pinned` and the pinned lock names follow cfg's thresholds and pool sizes.
std::vector<PoolGroup> groupSessions(const Snapshot& s, const AnalysisConfig& cfg,
                                     const QHash<int, HeldLocks>& heldByPid);
// The same for the four groupings at once (indexed by GroupBy), the sessions read once; cfg.groupBy
// is not used. What the pool history records on every refresh.
std::array<std::vector<PoolGroup>, 4> groupSessionsEveryWay(const Snapshot& s, const AnalysisConfig& cfg,
                                                            const QHash<int, HeldLocks>& heldByPid);

// Deadlocks per minute from two samples of pg_stat_database.deadlocks; nullopt across a reset.
std::optional<double> deadlockRate(qint64 before, qint64 after, double seconds);

} // namespace lw
