#pragma once
// Figures of the benchmark: per-refresh samples, their median/p95 per scale point, the targets,
// and the output (aligned text tables, JSON).
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <optional>
#include <vector>

namespace lw::bench {

// One measured refresh.
struct Sample
{
    double roundTrips = 0;
    double serverMs = 0;   // the console's statements, pg_stat_statements total_exec_time
    double floorMs = 0;    // plain SELECTs of the same rows and columns
    double pgActivityMs = 0; // pg_activity's blocking view (its statement), when installed
    double leaseRowsSent = 0; // Snapshot::leaseRowsSent: rows written since the read before
    double bytes = 0;      // Snapshot::bytesReceived
    double clientMs = 0;   // last byte received → models updated (decode + analyze + handoff + models)
    double rawMs = 0;      // PQgetvalue/PQgetlength over every value of the same statements' results
    double wallMs = 0;     // Poller::refreshOnce, start to return
    double endToEndMs = 0; // refreshOnce + handoff + models: what one refresh costs the console
    double waitMs = 0;     // Snapshot::clientWaitMs (send → last byte)
    double prepMs = 0;     // refreshOnce before sending (candidate names for hashing, statements)
    double decodeMs = 0;   // Snapshot::decodeMs
    double analyzeMs = 0;  // analyze() on the same snapshot and previous analysis, timed again (it is pure)
    double handoffMs = 0;  // the Snapshot copies of the queued signal and Monitor::last_
    double leaseModelMs = 0;                          // RefreshJudge::apply: lease rows (model), deadlocks, holders, findings
    double lockModelsMs = 0;                          // AdvisoryLockModel + BlockingTreeModel
    double findingsMs = 0;                            // FindingsModel
    double poolHistoryMs = 0; // PoolHistory::add: the pool page records every refresh, shown or not
    QMap<QString, double> consoleStmtMs, floorStmtMs; // per statement kind
};

// Refresh-to-paint over a real QTableView and the Leases page's proxy, ms per step (each step
// until the visible rows are painted).
struct PaintResult
{
    int rows = 0, proxyRows = 0;
    std::vector<double> refreshMs;    // models updated (Monitor::onSnapshot) + paint
    std::vector<double> tickMs;       // LeaseModel::tick (countdowns), sorted by name
    std::vector<double> sortMs;       // header click: sort by "Expires"
    std::vector<double> sortedTickMs; // tick while sorted by "Expires"
    std::vector<double> unsortMs;     // header click back to "Lease"
    std::vector<double> filterMs;     // filter text typed (all at once)
    std::vector<double> clearFilterMs;
    std::vector<double> scrollEndMs; // scroll to the last row
    std::vector<double> scrollTopMs;
};

struct PointResult
{
    QString name;
    int leases = 0, locks = 0, backends = 0;
    std::vector<Sample> samples;
    int warmups = 0;
    double coldWallMs = 0, coldClientMs = 0; // the first refresh: every row inserted into the models
    int leaseModelResets = 0;                // modelReset of the LeaseModel, every refresh of the point
    int failedRefreshes = 0;
    int hashRefreshesMeasured = 0; // measured refreshes that still hashed new names (should be 0)
    int unmatchedConsoleStatements = 0;
    bool rawSameStatements = false; // the raw-decode statements have the console's query ids
    double rssBeforeMiB = 0, rssMiB = 0;
    int sessionsSeen = 0, advisoryRows = 0, leaseRows = 0, findings = 0;
    int locksEveryN = 1; // the most the console stretched its pg_locks reads at this point
    int locksReused = 0; // measured refreshes that reused the previous pg_locks read
    bool pgActivity = false; // pg_activity's statement was run beside the console
    std::optional<PaintResult> paint;
};

struct Target
{
    QString name;
    bool pass = false;
    QString detail;
};

double median(std::vector<double> v);
double p95(std::vector<double> v); // nearest rank

// Median and p95 of one figure over a point's samples.
std::vector<double> column(const PointResult& p, double Sample::*field);
std::vector<double> stmtColumn(const PointResult& p, bool console, const QString& kind);

// Refreshes of a small and a large leases table taken in turn, under the same machine conditions:
// a shared host's drift between two scale points (measured tens of seconds apart) stays out of
// the growth ratio.
struct GrowthPair
{
    int small = 0, large = 0; // leases
    std::vector<double> smallServerMs, largeServerMs, smallClientMs, largeClientMs;
};

std::vector<Target> judge(const std::vector<PointResult>& points,
                          const std::optional<GrowthPair>& pair = std::nullopt);

struct RunInfo
{
    QString scale;
    int refreshes = 0;
    QString machine; // "2 cores, PostgreSQL 15.x"
    double durationS = 0;
};

// The tables; returns false if a figure is missing (NaN) anywhere.
bool printTables(FILE* out, const RunInfo& run, const std::vector<PointResult>& points);
void printTargets(FILE* out, const std::vector<Target>& targets, bool judged);
QJsonObject toJson(const RunInfo& run, const std::vector<PointResult>& points,
                   const std::vector<Target>& targets, bool judged);

} // namespace lw::bench
