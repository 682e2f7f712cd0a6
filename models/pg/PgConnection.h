#pragma once
// One libpq connection, driven with deadlines. Used from a worker thread: the calls wait on the
// socket with poll() (never longer than the deadline), so a hung server costs the worker at most
// one deadline and never touches the UI thread.
#include "PgError.h"
#include "PgHandles.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <vector>

namespace lw::pg {

using Clock = std::chrono::steady_clock;

// Oldest server the console supports: PostgreSQL 13 (server_version_num 130000). The refresh reads
// pg_stat_activity.backend_type (10+), uses CTEs AS MATERIALIZED (12+) and reads pg_locks.waitstart
// only on 14+ (Poller's locksSql); 13 is the oldest release still supported upstream and tested here.
// Older servers are refused right after connect with one clear message (checkServerVersion).
inline constexpr int kMinServerVersionNum = 130000;

struct ConnectOptions
{
    QString dsn; // conninfo string, URI, or a bare service name
    QString applicationName = QStringLiteral("leasewatch");
    int statementTimeoutMs = 5000; // sent as a session option: every statement is bounded server-side
    int lockTimeoutMs = 1000;
    bool readOnly = true;     // default_transaction_read_only=on for the monitoring session
    int connectTimeoutS = 10; // our own deadline: libpq ignores connect_timeout in non-blocking connect
    // Servers older than this are refused at connect; 0 accepts any (e.g. PgBouncer's admin console).
    int minServerVersionNum = kMinServerVersionNum;
};

// "9.6" for 90624, "13" for 130004: the major version as PostgreSQL names it.
QString majorVersionText(int serverVersionNum);
// An error ("PostgreSQL 12 is older than the supported 13") if the server is older than the floor.
std::optional<PgError> checkServerVersion(int serverVersionNum,
                                          int minServerVersionNum = kMinServerVersionNum);

// A bare word without '=' or '://' is taken as a service name from pg_service.conf.
QString normalizeDsn(const QString& dsn);

// Parses the DSN with libpq's own parser; returns an error (BadConnectionString) if it does not parse.
std::optional<PgError> validateDsn(const QString& dsn);

// Host name lookup bounded by a deadline and an abort check: libpq resolves host names inside its
// non-blocking connect with a blocking getaddrinfo(), which no deadline of ours can interrupt.
// The lookup runs on a detached thread; giving up leaves it to finish on its own.
struct HostLookup
{
    enum class Outcome { NotNeeded, Resolved, Failed, TimedOut, Aborted };
    Outcome outcome = Outcome::NotNeeded;
    QByteArray hostaddr; // comma-separated numeric addresses, one per host (Resolved)
    QString host;        // the name that failed or timed out
};
// Resolves one name to a numeric address ("" when it does not resolve); blocking.
using Resolver = std::function<QByteArray(const QByteArray& name)>;
QByteArray systemResolve(const QByteArray& name);
// For a conninfo: nothing to do when it gives hostaddr, no host, or a socket directory; numeric
// hosts are taken as they are.
HostLookup lookupHosts(const QByteArray& conninfo, Clock::time_point deadline,
                       const std::function<bool()>& aborted, const Resolver& resolve = systemResolve);

struct Statement
{
    QByteArray sql;
    std::vector<std::optional<QByteArray>> params; // text-format, bound ($1…); nullopt is SQL NULL
    // Results in binary format: no float8out/timestamptz_out on the server for a large result.
    bool binaryResults = false;
};

struct StatementResult
{
    ResultPtr result; // PGRES_TUPLES_OK / COMMAND_OK on success
    PgError error;    // set when this statement failed (or was aborted by an earlier failure)
};

class Connection
{
public:
    Connection() = default;
    Connection(Connection&&) noexcept = default;
    Connection& operator=(Connection&&) noexcept = default;

    PgError connect(const ConnectOptions& opts);
    bool isOpen() const { return conn_ && PQstatus(conn_.get()) == CONNECTION_OK; }
    void close() { conn_.reset(); }
    PGconn* raw() const { return conn_.get(); }

    // Sends every statement in one pipeline (one round trip), waits at most until `deadline`.
    // On deadline: sends a cancel request, waits briefly, and drops the connection if it still hangs.
    // The returned error is the first failure; per-statement results are in `out`.
    PgError runPipeline(const std::vector<Statement>& stmts, std::vector<StatementResult>& out,
                        Clock::time_point deadline);

    // Convenience: one statement, one result.
    PgError exec(const Statement& stmt, ResultPtr& out, Clock::time_point deadline);

    // Bytes received during the last runPipeline: counted by the kernel on a TCP socket (what
    // crossed the network, TLS included; lastBytesExact()). Over a Unix socket nothing counts them:
    // the results' size in libpq's memory stands in (an overestimate).
    qint64 lastBytesReceived() const { return lastBytes_; }
    bool lastBytesExact() const { return lastBytesExact_; }
    int serverVersion() const { return conn_ ? PQserverVersion(conn_.get()) : 0; }
    int backendPid() const { return conn_ ? PQbackendPID(conn_.get()) : 0; }

    // Once *flag is true, every wait gives up within ~50 ms (connect, refresh): a worker being shut
    // down must not sit out a deadline against a hung server while the GUI thread joins it.
    // The flag must outlive the connection; nullptr (default) disables this.
    void setAbortFlag(const std::atomic<bool>* flag) { abort_ = flag; }

    // Quote with libpq's own quoting (needs an open connection: encoding-aware).
    QByteArray quoteIdentifier(const QString& ident) const;

private:
    PgError connectImpl(const ConnectOptions& opts);
    enum class Wait { Read, Write };
    bool waitSocket(Wait w, Clock::time_point deadline);
    void cancelAndDrain(Clock::time_point graceDeadline);

    bool aborted() const { return abort_ && abort_->load(std::memory_order_relaxed); }

    ConnPtr conn_;
    qint64 lastBytes_ = 0;
    bool lastBytesExact_ = false;
    const std::atomic<bool>* abort_ = nullptr;
};

} // namespace lw::pg
