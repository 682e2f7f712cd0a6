#pragma once
// Is a lease's holder alive? What the console saw of the holder's host (its sessions) while the
// lease was held, and the evidence for and against, weighed the same way by the findings, the
// force-expire dialog and `leasewatch force-expire`.
#include "Analysis.h"
#include "LeaseTracker.h"
#include "Snapshot.h"

#include <QHash>
#include <QStringList>

#include <optional>
#include <vector>

namespace lw {

// Whether the holders of locks that keep no database session while they run (ShedLock) are still
// connected. Such a lock names its holder by host name only, so sessions from that host (by
// client address or application_name) say something only once some were seen: a lock whose
// holder's host had sessions while it held the lock, and has had none for `graceS`, lost its
// holder — the crashed-holder case, which ShedLock ends only at lock_until. Only a lock the console
// saw taken counts, and only while its expiry stays where the take put it: ShedLock's unlock with
// lockAtLeastFor moves lock_until earlier yet keeps it ahead (a finished job, held on purpose,
// whose host may then go away for a deploy). A host never seen connected says nothing (most JDBC
// sessions carry neither the host name nor its address as the lock names it).
// A library whose holder is a process's opaque id and whose process keeps a LISTEN session for its
// life (LeaseTableConfig::listenChannel: graphile-worker) is watched the same way, by that session:
// the holder's candidates are the listening sessions connected when the console first saw it hold
// a lock (narrowed to the client addresses that touched the library's table in that window, and
// to those still there whenever it takes another lock); once none of them is connected for
// `graceS`, it is gone. A listener that appears within `adoptS` of the candidates' end counts as
// theirs (the library reconnects a dropped LISTEN session within a second or five): a worker
// killed and restarted that fast is not told from a reconnect, and its job waits for the
// library's own reset. A holder first seen with no listener connected says nothing.
class HolderPresence
{
public:
    explicit HolderPresence(double graceS = 10, double adoptS = 6) : graceS_(graceS), adoptS_(adoptS) {}
    // After `leases` took `s`, all its rows in (every answered refresh reads the sessions of the
    // whole server).
    void observe(const Snapshot& s, const LeaseTracker& leases);
    struct Seen
    {
        QString host;
        double takenAt = 0;                 // the lock this is about (a new take starts over)
        std::optional<double> lastSeen;     // server time sessions from the host were last seen
        std::optional<double> goneSince;    // … and first seen without any since
        int sessions = 0;                   // seen at lastSeen
        bool takenInView = false;           // taken between two refreshes the console saw
        double span = 0;                    // expires − taken as taken
        bool released = false;              // the expiry moved earlier: unlocked, held for lockAtLeastFor
        std::vector<int> listenerPids;      // listenChannel: the listening sessions that may be its holder's
    };
    // For the lease `key`: what was seen of its holder's host during this lock (nullptr: nothing).
    const Seen* seen(const QString& key) const;
    std::vector<Finding> findings(const LeaseTracker& leases) const;

private:
    // A listening session, by identity (a pid is reused).
    struct Listener
    {
        int pid = 0;
        double backendStart = 0;
        QString clientAddr;
        bool operator==(const Listener& o) const { return pid == o.pid && backendStart == o.backendStart; }
    };
    struct Pool // what is known of one holder id's listening session
    {
        std::vector<Listener> candidates;
        double lastTake = 0; // the newest taken_at seen of its locks
        std::optional<double> lastSeen, goneSince;
        int connected = 0;
    };
    void observeListeners(const Snapshot& s, const LeaseTracker& leases, QHash<QString, Seen>& next);

    double graceS_, adoptS_;
    double prevNow_ = 0; // server time of the last refresh observed
    QHash<QString, Seen> watched_; // lease key → its holder's host, while the lease is held
    QHash<QString, Pool> pools_;   // listenChannel holder id → its candidate sessions, while it holds one
    QHash<QString, std::vector<Listener>> listeners_; // channel → listening sessions at the last refresh
};

// Locks kept as a bare flag, with no holder and no time (LeaseTableConfig::flagOnly: knex's
// is_locked): who set one is known only from the sessions seen around it. When the console saw the
// flag set between two refreshes, its setter is among the sessions of this database that did
// something in between (state_change within the window), for the setter stays connected while its
// run lasts (knex keeps its pool until the run has cleared the flag). Once every one of them has
// been gone for `graceS` and no session runs a statement on the library's tables, the flag was left
// behind by a run that died. A flag already set at the console's first look has no known setter:
// it is said left behind once no session has run a statement on those tables for `unseenS`.
class FlagLockWatch
{
public:
    explicit FlagLockWatch(double graceS = 10, double unseenS = 600) : graceS_(graceS), unseenS_(unseenS) {}
    void observe(const Snapshot& s, const LeaseTracker& leases);
    struct Seen
    {
        double setSeenAt = 0;              // server time the console first saw the flag set
        bool setInView = false;            // set between two refreshes the console saw
        std::vector<int> setters;          // sessions that could have set it (setInView)
        std::optional<double> settersGoneSince; // … all gone since
        double lastActivity = 0;           // last refresh with a session on the library's tables
        std::vector<int> activePids;       // those sessions, at that refresh
        bool activeNow = false;            // … and at the last refresh observed
    };
    const Seen* seen(const QString& key) const;
    // Whether the flag of lease `key` was left behind by a run that died, at server time `now`.
    bool leftBehind(const QString& key, double now) const;
    std::vector<Finding> findings(const LeaseTracker& leases) const;

private:
    double graceS_, unseenS_;
    double prevNow_ = 0;
    QHash<QString, Seen> watched_; // lease key → what was seen of its flag while set
};

// A lease taken over while its previous holder may still be doing the work (seed incident 4's
// double run): the old holder stalled, or lost the database for longer than the TTL, the next
// instance took the lease after its expiry, and both run the job until the old one's next renewal
// fails. Sessions from the old holder's host (client address or application_name, as the evidence
// matches them) that are busy (not idle) after the take-over say it may still run; the warning
// lasts until they go idle or disconnect, or the lease changes again. Old and new holder on one
// host cannot be told apart by their sessions: nothing is said then.
class TakeoverOverlap
{
public:
    void observe(const Snapshot& s, const LeaseTracker& leases);
    struct Overlap
    {
        QString previousHolder, previousHost, holder;
        double takenOverAt = 0;
        std::vector<int> busyPids; // the old host's sessions busy at the last refresh
    };
    const Overlap* overlap(const QString& key) const;
    std::vector<Finding> findings(const LeaseTracker& leases) const;

private:
    QHash<QString, Overlap> open_; // lease key → a take-over whose old holder is still busy
};

// ---- Evidence: does the holder look dead or alive? ------------------------------------------------

struct HolderEvidence
{
    LeaseState state = LeaseState::Unknown;
    QString holderHost;                   // host part of the holder ("" when not parseable)
    std::optional<double> sinceRenewal;   // seconds since the last renewal the console saw
    std::optional<double> renewalWindow;  // overdue after this many seconds (nullopt: TTL unknown)
    bool renewedInWindow = false;         // renewal seen within the window
    bool sessionsKnown = false;           // the session list was available
    std::vector<SessionRow> hostSessions; // sessions from the holder's host
    bool looksAlive = true;               // needs the second confirmation
    double writerBehindS = 0; // the writer's clock is known to run this far behind: its own confirmation
    QStringList forAlive;                 // what speaks for the holder being alive
    QStringList forDead;                  // … and for it being dead
    QStringList unknowns;                 // what the console cannot tell
    QString summary() const;              // "looks dead: …" / "looks alive: …"
};

// Pure function over what the console knows: the lease's track (LeaseModel entry) and the
// sessions of the last refresh. `sessionsKnown` false means the list was not read (an empty list
// then says nothing). A holder looks dead only if its lease is stale or its renewal overdue AND no
// session from its host is connected; everything else (including "cannot tell") counts as alive.
// `table`, when known, brings its library's limits: ShedLock keeps no session open while it holds a
// lock and names its holder by host name only, so a missing session there says nothing.
// `seen`, for such a library, is what the console saw of the holder's host while it held the lock
// (HolderPresence): its sessions seen, then gone, speak for a crashed holder. `flags`, for a lock
// kept as a bare flag (knex), is what the console saw of the sessions around it (FlagLockWatch).
HolderEvidence assessHolder(const LeaseTracker::Entry& e, const SessionRows& sessions,
                            bool sessionsKnown, double serverNow, const LeasePolicy& policy,
                            const LeaseTableConfig* table = nullptr, const HolderPresence::Seen* seen = nullptr,
                            const FlagLockWatch* flags = nullptr);

// Whether a session comes from `host`: client_addr equal to it (prefix length ignored), or the
// application name containing it as a whole word (case-insensitive).
bool sessionFromHost(const SessionRow& s, const QString& host);

} // namespace lw
