#pragma once
// PgBouncer as an optional source: its admin console (SHOW POOLS, SHOW DATABASES, SHOW SERVERS)
// read over one connection, and the join of its server slots (remote_pid) with the advisory locks
// of the monitored cluster. The admin console speaks only the simple query protocol, takes one
// statement per query and refuses the `options` startup parameter, so pg::Connection (pipeline
// mode, -c options) cannot be used: BouncerConnection is a small simple-protocol wrapper.
#include "domain/Analysis.h"
#include "domain/Snapshot.h"
#include "pg/PgConnection.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <atomic>
#include <optional>
#include <vector>

namespace lw::bouncer {

// One pool of SHOW POOLS (a database/user pair), with pool_size from SHOW DATABASES.
struct BouncerPool
{
    QString database; // PgBouncer's database name (the pool's name, not necessarily the server's)
    QString user;
    int clActive = 0;            // clients linked to a server
    int clWaiting = 0;           // clients that sent a query and wait for a server
    int svActive = 0;            // servers linked to a client
    int svIdle = 0;              // servers idle and ready
    int svUsed = 0;              // servers idle longer than server_check_delay (to be checked before use)
    double maxwaitS = 0;         // how long the oldest waiting client has waited (maxwait + maxwait_us)
    QString poolMode;            // session / transaction / statement
    std::optional<int> poolSize; // SHOW DATABASES.pool_size (absent if the database is not listed)
    QString serverDatabase;      // SHOW DATABASES.database: the database on the server
    QString key() const { return database + QLatin1Char('/') + user; }
    int servers() const { return svActive + svIdle + svUsed; }
    bool operator==(const BouncerPool&) const = default;
};

// One server connection of SHOW SERVERS (a pool slot).
struct BouncerServer
{
    QString database; // pool's database name
    QString user;
    int remotePid = 0; // the backend's pid on the PostgreSQL server (joins pg_locks.pid)
    QString state;     // active / idle / used / tested / new
    QString addr;
    int port = 0;
    bool linked = false; // linked to a client now (SHOW SERVERS.link not empty)
    QString applicationName;
    QString poolKey() const { return database + QLatin1Char('/') + user; }
    bool operator==(const BouncerServer&) const = default;
};

struct BouncerSnapshot
{
    quint64 generation = 0; // of the PgBouncerMonitor configuration that produced it
    quint64 seq = 0;
    bool ok = false;
    DbError error; // why the refresh failed
    std::vector<BouncerPool> pools;
    std::vector<BouncerServer> servers;
    QString version;                // "PgBouncer 1.18.0" (SHOW VERSION, read once per connection)
    qint64 receivedMonotonicMs = 0; // monotonicMs() when the last result arrived
    double receivedEpochS = 0;      // local wall clock, for chart axes only (PgBouncer has no now())
    int roundTrips = 0;
};

struct BouncerConfig
{
    QString dsn; // the admin console: dbname=pgbouncer, a user in admin_users or stats_users
    QString applicationName = QStringLiteral("leasewatch");
    int connectTimeoutS = 10;
    int refreshDeadlineMs = 5000;
    int intervalMs = 1000;
    int backoffInitialMs = 500;
    int backoffMaxMs = 30000;
    // The admin console's own pseudo-pool ("pgbouncer") has no servers and counts the console
    // itself as a client: left out unless asked for.
    bool includeAdminPool = false;
};

// One connection to the admin console, simple query protocol, every wait bounded by a deadline.
class BouncerConnection
{
public:
    DbError connect(const BouncerConfig& cfg);
    bool isOpen() const { return conn_ && PQstatus(conn_.get()) == CONNECTION_OK; }
    void close() { conn_.reset(); }
    // One statement (the console accepts no more per query); the connection is dropped on timeout.
    DbError query(const QByteArray& sql, pg::ResultPtr& out, pg::Clock::time_point deadline);
    void setAbortFlag(const std::atomic<bool>* flag) { abort_ = flag; }

private:
    bool wait(bool forWrite, pg::Clock::time_point deadline) const;
    DbError lost(const QString& fallback);

    pg::ConnPtr conn_;
    const std::atomic<bool>* abort_ = nullptr;
};

class PgBouncerSource
{
public:
    explicit PgBouncerSource(BouncerConfig cfg) : cfg_(std::move(cfg)) {}
    // Connects if needed (again after a loss) and reads pools, databases and servers.
    BouncerSnapshot refreshOnce();
    void close() { conn_.close(); }
    bool isOpen() const { return conn_.isOpen(); }
    const BouncerConfig& config() const { return cfg_; }
    void setAbortFlag(const std::atomic<bool>* flag) { conn_.setAbortFlag(flag); }

private:
    BouncerConfig cfg_;
    BouncerConnection conn_;
    QString version_;
    quint64 seq_ = 0;
};

// Decoders of the SHOW results, by column name (columns differ between PgBouncer versions).
std::vector<BouncerPool> decodePools(const PGresult* pools, const PGresult* databases);
std::vector<BouncerServer> decodeServers(const PGresult* servers);

// A server slot that holds granted advisory locks on the monitored cluster.
struct SlotHold
{
    BouncerServer server;
    QString poolMode;
    std::optional<int> poolSize;
    QStringList locks; // resolved names ("hashtext('sweep')") or keys ("42")
    // No transaction can be open: the backend is idle, or PgBouncer holds the slot unlinked.
    bool sessionLevel = false;
    // A session-level lock under transaction/statement pooling: the application's bug.
    bool transactionPooled = false;
    // Unlinked (back in the pool) while holding it: the next client of the slot inherits the lock.
    bool leaksToNextClient = false;
};

// Joins SHOW SERVERS.remote_pid with the cluster's granted advisory locks. Only locks in the
// database the pool points at count (a pid of another server could collide).
std::vector<SlotHold> slotHolds(const BouncerSnapshot& b, const Snapshot& s);
// One finding per slot (kind BouncerSlotHoldsLock), subject = the backend's pid.
std::vector<Finding> slotFindings(const std::vector<SlotHold>& holds);

} // namespace lw::bouncer

Q_DECLARE_METATYPE(lw::bouncer::BouncerSnapshot)
