#include "BenchWorkload.h"

#include <algorithm>
#include <poll.h>

#include <chrono>
#include <stdexcept>

namespace lw::bench {

namespace {
constexpr int kHolderSessions = 4;
constexpr int kMaxConnections = 450;         // 400 idle backends + the console, its helpers and lock holders
constexpr int kMaxLocksPerTransaction = 128; // nominal lock table 128 × 450 = 57 600 ≥ 20 000 + the rest

[[noreturn]] void fail(const QString& what)
{
    throw std::runtime_error(what.toStdString());
}
} // namespace

pg::ResultPtr execOrThrow(PGconn* c, const QByteArray& sql, const std::vector<QByteArray>& params)
{
    std::vector<const char*> values;
    for (const QByteArray& p : params)
        values.push_back(p.constData());
    pg::ResultPtr r(
        PQexecParams(c, sql.constData(), int(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
    const auto st = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
        fail(QStringLiteral("%1: %2").arg(
            QString::fromUtf8(sql.left(120)),
            QString::fromUtf8(r ? PQresultErrorMessage(r.get()) : PQerrorMessage(c)).trimmed()));
    return r;
}

Workload::Workload(QString clusterDir)
    : cluster_([&] {
          lw::cluster::ClusterOptions o;
          o.directory = std::move(clusterDir);
          o.maxConnections = kMaxConnections;
          o.maxLocksPerTransaction = kMaxLocksPerTransaction;
          o.extraSettings = {QStringLiteral("shared_preload_libraries = 'pg_stat_statements'"),
                             QStringLiteral("pg_stat_statements.max = 1000")};
          return o;
      }())
{
}

Workload::~Workload()
{
    // Connections first (the waiter's backend stays blocked until the fast shutdown ends it).
    idle_.clear();
    waiter_.reset();
    blocker_.reset();
    holders_.clear();
    writer_.reset();
    admin_.reset();
    cluster_.stop();
}

QByteArray Workload::conninfo(const char* role) const
{
    return QStringLiteral("host=%1 port=%2 dbname=bench user=%3")
        .arg(cluster_.socketDir())
        .arg(cluster_.port())
        .arg(QString::fromLatin1(role))
        .toUtf8();
}

pg::ConnPtr Workload::open(const QByteArray& info, const char* appName) const
{
    const QByteArray full = info + " application_name=" + appName;
    pg::ConnPtr c(PQconnectdb(full.constData()));
    if (!c || PQstatus(c.get()) != CONNECTION_OK)
        fail(QStringLiteral("connect (%1): %2")
                 .arg(QString::fromUtf8(full), QString::fromUtf8(c ? PQerrorMessage(c.get()) : "no memory")));
    PQsetNoticeReceiver(
        c.get(), [](void*, const PGresult*) {}, nullptr);
    return c;
}

void Workload::start()
{
    if (auto err = cluster_.start())
        fail(*err);
    const QByteArray su = cluster_.superuser().toUtf8();
    {
        pg::ConnPtr boot = open(cluster_.dsn().toUtf8(), "leasewatch-bench-setup");
        execOrThrow(boot.get(), "CREATE DATABASE bench");
    }
    admin_ = open(conninfo(su.constData()), "leasewatch-bench-admin");
    execOrThrow(admin_.get(), "CREATE EXTENSION pg_stat_statements");
    execOrThrow(admin_.get(),
                "CREATE TABLE public.leases (name text PRIMARY KEY, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
    for (const char* role : {kConsoleRole, kFloorRole, kRawRole, kPgActivityRole}) {
        // pg_monitor: what README tells operators to give the console's user.
        execOrThrow(admin_.get(), QByteArray("CREATE ROLE ") + role + " LOGIN IN ROLE pg_monitor");
        execOrThrow(admin_.get(), QByteArray("GRANT SELECT ON public.leases TO ") + role);
    }
    writer_ = open(conninfo(su.constData()), "leasewatch-bench-writer");
    for (int i = 0; i < kHolderSessions; ++i)
        holders_.push_back(open(conninfo(su.constData()), "bench-lock-holder"));
    // One session queued behind another: the blocking tree and pg_blocking_pids() have work to do.
    blocker_ = open(conninfo(su.constData()), "bench-blocker");
    execOrThrow(blocker_.get(), "SELECT pg_advisory_lock(-1)");
    waiter_ = open(conninfo(su.constData()), "bench-waiter");
    if (!PQsendQuery(waiter_.get(), "SELECT pg_advisory_lock(-1)") || PQflush(waiter_.get()) != 0)
        fail(QStringLiteral("waiter: %1").arg(QString::fromUtf8(PQerrorMessage(waiter_.get()))));
}

QString Workload::serverVersion()
{
    const pg::ResultPtr r = execOrThrow(admin_.get(), "SELECT version()");
    return QString::fromUtf8(PQgetvalue(r.get(), 0, 0));
}

int Workload::serverVersionNum()
{
    const pg::ResultPtr r = execOrThrow(admin_.get(), "SELECT current_setting('server_version_num')");
    return std::atoi(PQgetvalue(r.get(), 0, 0));
}

void Workload::setLeases(int n)
{
    if (n == leases_)
        return;
    execOrThrow(writer_.get(), "TRUNCATE public.leases");
    // Holders "host:pid:token" (the console splits them); every 1000th lease expired a minute ago
    // and is never renewed (stale: a finding); the rest have a 10 min TTL, so that no lease changes
    // state during a run and every refresh of a scale point sees the same picture.
    execOrThrow(writer_.get(),
                "INSERT INTO public.leases SELECT 'lease-' || lpad(i::text, 6, '0'), "
                "'worker-' || (i % 40) || '.example:' || (2000 + i % 300) || ':' || "
                "substr(md5(i::text), 1, 8), now() - (i % 20) * interval '1 s', "
                "CASE WHEN i % 1000 = 0 THEN now() - interval '60 s' "
                "ELSE now() + (600 - i % 20) * interval '1 s' END "
                "FROM generate_series(1, $1::int) i",
                {QByteArray::number(n)});
    // Hint bits and statistics set now, not by the first refreshes.
    execOrThrow(writer_.get(), "VACUUM (ANALYZE) public.leases");
    leases_ = n;
    renewCursor_ = 0;
}

void Workload::addSmallTable(int n)
{
    dropSmallTable();
    execOrThrow(writer_.get(), "CREATE TABLE public.leases_small (LIKE public.leases INCLUDING ALL)");
    execOrThrow(writer_.get(),
                "INSERT INTO public.leases_small SELECT * FROM public.leases "
                "WHERE name <= 'lease-' || lpad($1::text, 6, '0')",
                {QByteArray::number(n)});
    for (const char* role : {kConsoleRole, kFloorRole, kRawRole, kPgActivityRole})
        execOrThrow(writer_.get(), QByteArray("GRANT SELECT ON public.leases_small TO ") + role);
    execOrThrow(writer_.get(), "VACUUM (ANALYZE) public.leases_small");
    smallLeases_ = n;
    smallCursor_ = 0;
}

void Workload::dropSmallTable()
{
    execOrThrow(writer_.get(), "DROP TABLE IF EXISTS public.leases_small");
    smallLeases_ = 0;
}

namespace {
// Renews the next 1 % of `table`'s live leases (names lease-000001 … lease-<n>).
void renewSlice(PGconn* writer, const QByteArray& table, int n, int& cursor)
{
    if (n <= 0)
        return;
    const int slice = std::max(1, n / 100);
    const int from = (cursor * slice) % n + 1;
    ++cursor;
    execOrThrow(writer,
                "UPDATE " + table + " SET expires_at = now() + interval '600 s' "
                "WHERE name >= 'lease-' || lpad($1::text, 6, '0') AND name < 'lease-' || lpad($2::text, 6, "
                "'0') AND expires_at > now()",
                {QByteArray::number(from), QByteArray::number(from + slice)});
}
} // namespace

void Workload::renewSome()
{
    renewSlice(writer_.get(), "public.leases", leases_, renewCursor_);
    renewSlice(writer_.get(), "public.leases_small", smallLeases_, smallCursor_);
}

void Workload::setLocks(int n)
{
    // Fresh locks for every scale point: the holders' idle time (a finding after 10 s) starts over.
    // Every holder lets go first: a holder taking a new range must not queue behind another's old one.
    for (auto& c : holders_)
        execOrThrow(c.get(), "SELECT pg_advisory_unlock_all()");
    for (int h = 0; h < kHolderSessions; ++h) {
        PGconn* c = holders_[size_t(h)].get();
        const int from = h * n / kHolderSessions + 1;
        const int to = (h + 1) * n / kHolderSessions;
        if (to >= from)
            execOrThrow(c, "SELECT count(pg_advisory_lock(k)) FROM generate_series($1::int8, $2::int8) k",
                        {QByteArray::number(from), QByteArray::number(to)});
    }
}

void Workload::setBackends(int n)
{
    if (int(idle_.size()) >= n) {
        idle_.resize(size_t(n)); // PQfinish of the rest
        return;
    }
    // Non-blocking connects polled together: 400 backends in about a second instead of 400 round trips.
    const QByteArray info =
        conninfo(cluster_.superuser().toUtf8().constData()) + " application_name=bench-idle";
    std::vector<pg::ConnPtr> pending;
    std::vector<PostgresPollingStatusType> state;
    for (int i = int(idle_.size()); i < n; ++i) {
        pg::ConnPtr c(PQconnectStart(info.constData()));
        if (!c || PQstatus(c.get()) == CONNECTION_BAD)
            fail(QStringLiteral("idle backend: %1").arg(QString::fromUtf8(c ? PQerrorMessage(c.get()) : "")));
        pending.push_back(std::move(c));
        state.push_back(PGRES_POLLING_WRITING);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    for (;;) {
        std::vector<pollfd> fds;
        std::vector<size_t> which;
        for (size_t i = 0; i < pending.size(); ++i) {
            if (state[i] == PGRES_POLLING_OK)
                continue;
            if (state[i] == PGRES_POLLING_FAILED)
                fail(QStringLiteral("idle backend: %1")
                         .arg(QString::fromUtf8(PQerrorMessage(pending[i].get()))));
            // The socket may change between polls: read it every time.
            fds.push_back(
                {PQsocket(pending[i].get()), short(state[i] == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0});
            which.push_back(i);
        }
        if (fds.empty())
            break;
        if (std::chrono::steady_clock::now() > deadline)
            fail(QStringLiteral("idle backends: %1 of %2 not connected after 120 s")
                     .arg(fds.size())
                     .arg(pending.size()));
        if (::poll(fds.data(), fds.size(), 1000) < 0 && errno != EINTR)
            fail(QStringLiteral("poll failed"));
        for (size_t k = 0; k < fds.size(); ++k)
            if (fds[k].revents)
                state[which[k]] = PQconnectPoll(pending[which[k]].get());
    }
    for (auto& c : pending)
        idle_.push_back(std::move(c));
}

void Workload::resetStatements()
{
    execOrThrow(admin_.get(), "SELECT pg_stat_statements_reset()");
}

std::vector<StatementStat> Workload::readStatements()
{
    const pg::ResultPtr r = execOrThrow(
        admin_.get(),
        QByteArray("SELECT r.rolname::text, s.queryid, s.calls, s.total_exec_time, s.query "
                   "FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid "
                   "WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                   "AND r.rolname IN ('") +
            kConsoleRole + "', '" + kFloorRole + "', '" + kRawRole + "', '" + kPgActivityRole + "')");
    std::vector<StatementStat> out;
    for (int i = 0; i < PQntuples(r.get()); ++i) {
        StatementStat s;
        s.role = QString::fromUtf8(PQgetvalue(r.get(), i, 0));
        s.queryId = std::strtoll(PQgetvalue(r.get(), i, 1), nullptr, 10);
        s.calls = std::strtoll(PQgetvalue(r.get(), i, 2), nullptr, 10);
        s.execMs = std::strtod(PQgetvalue(r.get(), i, 3), nullptr);
        s.query = QString::fromUtf8(PQgetvalue(r.get(), i, 4));
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace lw::bench
