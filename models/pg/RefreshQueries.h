#pragma once
// The statements of a refresh besides the lease tables' (LeaseQueries.h) and the reading of their
// results: the server's clock, identity and limits; its client sessions; its shared lock table;
// the server's own time for the whole pipeline.
#include "domain/Snapshot.h"

#include <libpq-fe.h>

#include <QByteArray>

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
} // namespace sql

// meta()'s one row into s (clock, server, cluster limits and counters); false for any other answer.
bool readMeta(const PGresult* r, Snapshot& s);
std::vector<SessionRow> readSessions(const PGresult* r);
// locks()' advisory rows; every row counts for the lock table (s.cluster's two counts).
std::vector<AdvisoryLockRow> readAdvisoryLocks(const PGresult* r, ClusterInfo& cluster);
std::optional<double> readServerTimeMs(const PGresult* r);
// PostgreSQL 13 has no pg_locks.waitstart: a waiting lock's start becomes its session's statement
// start (see AdvisoryLockRow::waitStart). Locks that have a start keep it.
void waitStartsFromStatements(std::vector<AdvisoryLockRow>& locks, const std::vector<SessionRow>& sessions);

} // namespace lw
