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
QByteArray meta();
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

} // namespace lw
