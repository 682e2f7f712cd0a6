#pragma once
// The statements of a refresh besides the lease tables' (LeaseQueries.h) and the reading of their
// results: the server's clock, identity and limits; its client sessions; its shared lock table;
// the server's own time for the whole pipeline.
#include "domain/DbError.h"
#include "domain/Snapshot.h"
#include "pg/PgConnection.h"

#include <libpq-fe.h>

#include <QByteArray>
#include <QPair>
#include <QSet>

#include <optional>
#include <vector>

namespace lw {

// One definition of each, also for the benchmark's floor comparison and raw decode.
namespace sql {
// withStats false leaves pg_stat_database out (its two columns NULL): before PostgreSQL 15, reading
// it asks the statistics collector for a fresh file, ~10 ms of server time when read every second.
QByteArray meta(bool withStats = true);
QByteArray activity();
QByteArray locks(int serverVersion);
QByteArray serverTime(); // last in the pipeline: see the definition
// After a refresh gave up on a lock (55P03): the system catalogs and views locked ACCESS EXCLUSIVE,
// held or queued for, and by whom. Reads no view (the locked one may be pg_locks or pg_stat_activity).
QByteArray catalogLocks();
} // namespace sql

// meta()'s one row into s (clock, server, cluster limits and counters); false for any other answer.
bool readMeta(const PGresult* r, Snapshot& s);
std::vector<SessionRow> readSessions(const PGresult* r);
// locks()' advisory rows; every row counts for the lock table (s.cluster's two counts).
std::vector<AdvisoryLockRow> readAdvisoryLocks(const PGresult* r, ClusterInfo& cluster);
std::optional<double> readServerTimeMs(const PGresult* r);
// catalogLocks()' rows; a name without a schema is pg_catalog's.
std::vector<TableLock> readCatalogLocks(const PGresult* r);
// PostgreSQL 13 has no pg_locks.waitstart: a waiting lock's start becomes its session's statement
// start (see AdvisoryLockRow::waitStart). Locks that have a start keep it.
void waitStartsFromStatements(std::vector<AdvisoryLockRow>& locks, const std::vector<SessionRow>& sessions);

// pg_locks is read when a session could have changed it since the last read (issue 49): locks are
// taken and released by statements, at the end of transactions and when a backend exits, each of
// which moves that backend's pg_stat_activity timestamps past the latest one seen, or the count of
// backends. So the locks statement is gated, in the same transaction (the same snapshot of the
// sessions), on: the count of backends or their latest timestamp differs from the last read's, or a
// session is running a statement that is not waiting on a lock (it may take or release locks as it
// runs), or a session's times are hidden (no pg_read_all_stats). Otherwise its answer is empty and
// the last read stands, marked with its age; it is read again at least every `maxAgeMs` (a waiting
// statement granted its lock and waiting for another in between moves no timestamp).
class LocksGate
{
public:
    explicit LocksGate(qint64 maxAgeMs = 10000) : maxAgeMs_(maxAgeMs) {}
    // The sessions as the gate counts them; its answer goes to read().
    static pg::Statement sessions();
    // locks(serverVersion), gated on the sessions having changed since the last read unless due.
    pg::Statement locks(int serverVersion, qint64 nowMs);
    // After the refresh, with sessions()' answer: whether the locks statement read pg_locks (its
    // answer is the locks now); false: it was gated off, the last read stands.
    bool read(const PGresult* sessions, qint64 nowMs);
    void reset() { last_.reset(); }

private:
    struct Seen
    {
        qint64 count = 0;
        QByteArray latest; // float8 as the server printed it (exact), empty for none
        bool operator==(const Seen&) const = default;
    };
    qint64 maxAgeMs_;
    std::optional<Seen> last_;
    qint64 lastReadMs_ = 0;
    bool gatedSent_ = false;
};

// Before PostgreSQL 15 a reader of pg_stat_database waits for the statistics collector to write a
// fresh file (~9 ms of the server's time). Its deadlock count grows only when a session has waited
// on a lock for deadlock_timeout (1 s by default): it is read for 10 s after a new lock wait was
// seen (not all along a long one) and once a minute for the rest (a reset, short waits); the last
// read stands in between. From 15 on, every refresh.
class CollectorStats
{
public:
    bool due(int serverVersion, qint64 nowMs) const;
    // After the refresh's sessions are read: keeps a read's counters, or puts the last read's in s.
    void read(bool wasDue, Snapshot& s);

private:
    qint64 lastReadMs_ = -1;
    qint64 newWaitMs_ = -1;                  // when a lock wait not seen before was last seen
    QSet<QPair<int, double>> waits_;         // the last refresh's (pid, statement start) waiting on a Lock
    qint64 deadlocks_ = -1;
    std::optional<double> statsReset_;
};

} // namespace lw
