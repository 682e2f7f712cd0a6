#pragma once
// The benchmark's load: a throwaway cluster with pg_stat_statements, a leases table of a given size,
// advisory locks held by a few idle sessions (plus one session waiting behind another), and idle
// client backends. Set-up failures throw std::runtime_error: the benchmark cannot run without them.
#include "cluster/ThrowawayCluster.h"
#include "pg/PgHandles.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace lw::bench {

// Roles that keep the statements of the readers apart in pg_stat_statements (keyed by user).
inline constexpr char kConsoleRole[] = "lw_monitor"; // the console's Poller
inline constexpr char kFloorRole[] = "lw_floor";     // the plain SELECTs of the same rows
inline constexpr char kRawRole[] = "lw_raw";         // the console's statements again, for raw decode
inline constexpr char kPgActivityRole[] = "lw_pgactivity"; // pg_activity's blocking view, side by side

struct StatementStat
{
    QString role;
    qint64 queryId = 0;
    qint64 calls = 0;
    double execMs = 0;
    QString query; // normalized text
};

class Workload
{
public:
    explicit Workload(QString clusterDir = {});
    ~Workload();
    Workload(const Workload&) = delete;
    Workload& operator=(const Workload&) = delete;

    // initdb + start (pg_stat_statements preloaded, room for 400 backends and 20 000 locks), the
    // database, the roles and the leases table.
    void start();
    // conninfo of the benchmark database as `role`.
    QByteArray conninfo(const char* role) const;

    void setLeases(int n);   // reloads the table: n leases, 0.1 % of them stale
    void setLocks(int n);    // n session-level advisory locks over four idle sessions
    void setBackends(int n); // n idle client backends, opened in parallel
    int leases() const { return leases_; }

    // public.leases_small: a copy of the first n rows of public.leases (loaded larger), for
    // refreshes interleaved with the large table's; renewSome() renews it too while it exists.
    void addSmallTable(int n);
    void dropSmallTable();

    // A writer renews the next 1 % of the live leases (what applications do between refreshes).
    void renewSome();
    void resetStatements();
    std::vector<StatementStat> readStatements();
    QString serverVersion();
    int serverVersionNum();

private:
    pg::ConnPtr open(const QByteArray& conninfo, const char* appName) const;
    lw::cluster::ThrowawayCluster cluster_; // first member: destroyed last, after every connection
    pg::ConnPtr admin_;
    pg::ConnPtr writer_;
    std::vector<pg::ConnPtr> holders_;
    pg::ConnPtr blocker_;
    pg::ConnPtr waiter_;
    std::vector<pg::ConnPtr> idle_;
    int leases_ = 0;
    int renewCursor_ = 0;
    int smallLeases_ = 0;
    int smallCursor_ = 0;
};

// Runs one statement on a blocking connection (set-up only); throws on error.
pg::ResultPtr execOrThrow(PGconn* c, const QByteArray& sql, const std::vector<QByteArray>& params = {});

} // namespace lw::bench
