#include "PgConnection.h"

#include <poll.h>

#include <atomic>
#include <thread>

namespace lw::pg {

QString normalizeDsn(const QString& dsn)
{
    const QString t = dsn.trimmed();
    if (t.isEmpty() || t.contains(QLatin1Char('=')) || t.contains(QLatin1String("://")))
        return t;
    return QStringLiteral("service=") + t;
}

std::optional<PgError> validateDsn(const QString& dsn)
{
    const QByteArray utf8 = normalizeDsn(dsn).toUtf8();
    char* err = nullptr;
    ConninfoPtr opts(PQconninfoParse(utf8.constData(), &err));
    PqString errHolder(err);
    if (opts)
        return std::nullopt;
    PgError e;
    e.kind = PgError::Kind::BadConnectionString;
    e.message = QStringLiteral("invalid connection string: %1")
                    .arg(err ? QString::fromUtf8(err).trimmed() : QStringLiteral("cannot parse"));
    e.hint = QStringLiteral("use key=value pairs (host=… dbname=…), a postgresql:// URI, or a service name");
    return e;
}

QString majorVersionText(int v)
{
    // Before 10 the major version had two parts (9.6); from 10 on one (13).
    if (v >= 100000)
        return QString::number(v / 10000);
    return QStringLiteral("%1.%2").arg(v / 10000).arg((v / 100) % 100);
}

std::optional<PgError> checkServerVersion(int serverVersionNum, int minServerVersionNum)
{
    if (minServerVersionNum <= 0 || serverVersionNum >= minServerVersionNum)
        return std::nullopt;
    PgError e;
    // Not retried any faster than any other connect failure: the server may be upgraded in place.
    e.kind = PgError::Kind::ConnectFailed;
    e.message =
        QStringLiteral("PostgreSQL %1 is older than the supported %2")
            .arg(serverVersionNum > 0 ? majorVersionText(serverVersionNum) : QStringLiteral("(unknown)"),
                 majorVersionText(minServerVersionNum));
    e.hint = QStringLiteral("Leasewatch needs PostgreSQL %1 or newer; connect to a newer server")
                 .arg(majorVersionText(minServerVersionNum));
    return e;
}

namespace {
QByteArray userOptions(const QByteArray& dsn)
{
    ConninfoPtr opts(PQconninfoParse(dsn.constData(), nullptr));
    for (auto* o = opts.get(); o && o->keyword; ++o)
        if (qstrcmp(o->keyword, "options") == 0 && o->val)
            return QByteArray(o->val);
    return {};
}
} // namespace

PgError Connection::connect(const ConnectOptions& opts)
{
    conn_.reset();
    if (auto bad = validateDsn(opts.dsn))
        return *bad;
    const QByteArray dsn = normalizeDsn(opts.dsn).toUtf8();
    QByteArray options = userOptions(dsn);
    // Server-side bounds on everything this session runs: a stuck console can never hold the server.
    options += " -c statement_timeout=" + QByteArray::number(opts.statementTimeoutMs);
    options += " -c lock_timeout=" + QByteArray::number(opts.lockTimeoutMs);
    options += " -c idle_in_transaction_session_timeout=" + QByteArray::number(opts.statementTimeoutMs * 2);
    if (opts.readOnly)
        options += " -c default_transaction_read_only=on";
    const QByteArray appName = opts.applicationName.toUtf8();
    const QByteArray connectTimeout = QByteArray::number(opts.connectTimeoutS);

    // dbname first with expand_dbname=1: the user's DSN expands there, and the later keywords override it.
    const char* keys[] = {"dbname",           "application_name",
                          "options",          "keepalives",
                          "keepalives_idle",  "keepalives_interval",
                          "keepalives_count", "tcp_user_timeout",
                          "connect_timeout",  nullptr};
    const char* vals[] = {dsn.constData(),
                          appName.constData(),
                          options.trimmed().constData(),
                          "1",
                          "10",
                          "5",
                          "3",
                          "30000",
                          connectTimeout.constData(),
                          nullptr};
    const QByteArray trimmedOptions = options.trimmed();
    vals[2] = trimmedOptions.constData();

    conn_.reset(PQconnectStartParams(keys, vals, 1));
    if (!conn_ || PQstatus(conn_.get()) == CONNECTION_BAD) {
        PgError e = PgError::fromConnection(conn_.get(), PgError::Kind::ConnectFailed);
        conn_.reset();
        return e;
    }
    const auto deadline = Clock::now() + std::chrono::seconds(opts.connectTimeoutS);
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    while (st != PGRES_POLLING_OK) {
        if (st == PGRES_POLLING_FAILED) {
            PgError e = PgError::fromConnection(conn_.get(), PgError::Kind::ConnectFailed);
            conn_.reset();
            return e;
        }
        // The socket may change between polls (multiple hosts, SSL retry): waitSocket re-reads it.
        if (!waitSocket(st == PGRES_POLLING_READING ? Wait::Read : Wait::Write, deadline)) {
            conn_.reset();
            PgError e;
            e.kind = PgError::Kind::Timeout;
            e.message =
                aborted()
                    ? QStringLiteral("connection attempt abandoned: the console is stopping")
                    : QStringLiteral("timeout expired while connecting (%1 s)").arg(opts.connectTimeoutS);
            return e;
        }
        st = PQconnectPoll(conn_.get());
    }
    if (auto tooOld = checkServerVersion(PQserverVersion(conn_.get()), opts.minServerVersionNum)) {
        conn_.reset(); // do not keep a backend on a server we will not query
        return *tooOld;
    }
    PQsetnonblocking(conn_.get(), 1);
    // Notices (e.g. from a server-side audit trigger) must not be written to our stderr.
    PQsetNoticeReceiver(
        conn_.get(), [](void*, const PGresult*) {}, nullptr);
    return {};
}

bool Connection::waitSocket(Wait w, Clock::time_point deadline)
{
    const int fd = PQsocket(conn_.get());
    if (fd < 0)
        return false;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0 || aborted())
            return false;
        pollfd p{fd, short(w == Wait::Read ? POLLIN : (POLLIN | POLLOUT)), 0};
        const int r = ::poll(&p, 1, int(std::min<long long>(left, abort_ ? 50 : 1000)));
        if (r > 0)
            return true;
        if (r < 0 && errno != EINTR)
            return false;
    }
}

void Connection::cancelAndDrain(Clock::time_point)
{
    // PQcancel opens a new connection and blocks until the server answers; against a stopped
    // (SIGSTOP) server that may be forever. Run it on a throwaway thread that owns its PGcancel,
    // and abandon this connection: the caller reconnects with backoff.
    CancelPtr cancel(PQgetCancel(conn_.get()));
    if (cancel) {
        std::thread([c = std::move(cancel)]() mutable {
            char buf[256];
            PQcancel(c.get(), buf, sizeof buf);
        }).detach();
    }
    conn_.reset();
}

PgError Connection::runPipeline(const std::vector<Statement>& stmts, std::vector<StatementResult>& out,
                                Clock::time_point deadline)
{
    out.clear();
    out.resize(stmts.size());
    lastBytes_ = 0;
    if (!conn_ || PQstatus(conn_.get()) != CONNECTION_OK) {
        PgError e;
        e.kind = PgError::Kind::ConnectionLost;
        e.message = QStringLiteral("not connected");
        return e;
    }
    PGconn* c = conn_.get();
    auto lost = [&]() {
        PgError e = PgError::fromConnection(c, PgError::Kind::ConnectionLost);
        if (e.message.isEmpty())
            e.message = QStringLiteral("server closed the connection unexpectedly");
        conn_.reset();
        return e;
    };
    auto timedOut = [&]() {
        PgError e;
        e.kind = PgError::Kind::Timeout;
        e.message = QStringLiteral("the server did not answer within the refresh deadline; query cancelled");
        cancelAndDrain(deadline);
        return e;
    };

    if (PQpipelineStatus(c) == PQ_PIPELINE_OFF && !PQenterPipelineMode(c))
        return lost();
    for (const auto& s : stmts) {
        std::vector<const char*> values;
        values.reserve(s.params.size());
        for (const auto& p : s.params)
            values.push_back(p ? p->constData() : nullptr);
        if (!PQsendQueryParams(c, s.sql.constData(), int(values.size()), nullptr, values.data(), nullptr,
                               nullptr, 0))
            return lost();
    }
    if (!PQpipelineSync(c))
        return lost();
    for (;;) {
        const int f = PQflush(c);
        if (f == 0)
            break;
        if (f < 0)
            return lost();
        if (!waitSocket(Wait::Write, deadline))
            return timedOut();
        if (!PQconsumeInput(c))
            return lost();
    }

    PgError first;
    size_t idx = 0;
    bool gotForCurrent = false;
    for (;;) {
        while (!PQisBusy(c)) {
            ResultPtr r(PQgetResult(c));
            if (!r) {
                if (gotForCurrent) {
                    ++idx;
                    gotForCurrent = false;
                    continue;
                }
                // Nothing pending although the sync has not arrived: the connection broke.
                if (PQstatus(c) != CONNECTION_OK)
                    return first.isError() ? first : lost();
                break;
            }
            const auto st = PQresultStatus(r.get());
            if (st == PGRES_PIPELINE_SYNC) {
                PQexitPipelineMode(c);
                return first;
            }
            lastBytes_ += qint64(PQresultMemorySize(r.get()));
            if (idx >= out.size())
                continue;
            gotForCurrent = true;
            if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
                out[idx].result = std::move(r);
            } else if (st == PGRES_PIPELINE_ABORTED) {
                out[idx].error.kind = PgError::Kind::Query;
                out[idx].error.message =
                    QStringLiteral("not run: an earlier statement in the refresh failed");
            } else {
                out[idx].error = PgError::fromResult(r.get(), c);
                if (!first.isError())
                    first = out[idx].error;
                if (first.kind == PgError::Kind::ConnectionLost) {
                    conn_.reset();
                    return first;
                }
            }
        }
        if (!waitSocket(Wait::Read, deadline))
            return timedOut();
        if (!PQconsumeInput(c))
            return first.isError() ? first : lost();
    }
}

PgError Connection::exec(const Statement& stmt, ResultPtr& out, Clock::time_point deadline)
{
    std::vector<StatementResult> results;
    std::vector<Statement> one{stmt};
    PgError e = runPipeline(one, results, deadline);
    if (!results.empty()) {
        out = std::move(results[0].result);
        if (!e.isError() && results[0].error.isError())
            e = results[0].error;
    }
    return e;
}

QByteArray Connection::quoteIdentifier(const QString& ident) const
{
    if (!conn_)
        return {};
    const QByteArray u = ident.toUtf8();
    PqString q(PQescapeIdentifier(conn_.get(), u.constData(), size_t(u.size())));
    return q ? QByteArray(q.get()) : QByteArray();
}

} // namespace lw::pg
