#include "PgConnection.h"
#include "domain/Words.h"

#include <QLoggingCategory>


#include "domain/Secrets.h"

#include <QList>

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <cstddef>
// TCP_INFO's tcpi_bytes_received (Linux 4.1+): glibc's <netinet/tcp.h> copy of tcp_info lacks it.
#include <linux/tcp.h>
#include <netinet/in.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

// leasewatch.connection: connects, failures, cancels (never the DSN: host, port and database
// only). Off by default, as models/Logging.h's categories are.
Q_LOGGING_CATEGORY(lcConnection, "leasewatch.connection", QtInfoMsg)

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
    e.message = ErrorWords::tr("invalid connection string: %1")
                    .arg(err ? scrubDsnSecrets(QString::fromUtf8(err).trimmed(), dsn) : QStringLiteral("cannot parse"));
    e.hint = ErrorWords::tr("use key=value pairs (host=… dbname=…), a postgresql:// URI, or a service name");
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
    e.hint = ErrorWords::tr("Leasewatch needs PostgreSQL %1 or newer; connect to a newer server")
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

QByteArray systemResolve(const QByteArray& name)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (::getaddrinfo(name.constData(), nullptr, &hints, &res) != 0 || !res)
        return {};
    char buf[NI_MAXHOST] = {};
    const int rc = ::getnameinfo(res->ai_addr, res->ai_addrlen, buf, sizeof buf, nullptr, 0, NI_NUMERICHOST);
    ::freeaddrinfo(res);
    return rc == 0 ? QByteArray(buf) : QByteArray();
}

HostLookup lookupHosts(const QByteArray& conninfo, Clock::time_point deadline,
                       const std::function<bool()>& aborted, const Resolver& resolve)
{
    HostLookup out;
    ConninfoPtr opts(PQconninfoParse(conninfo.constData(), nullptr));
    QByteArray host, hostaddr;
    for (auto* o = opts.get(); o && o->keyword; ++o) {
        if (qstrcmp(o->keyword, "host") == 0 && o->val)
            host = o->val;
        else if (qstrcmp(o->keyword, "hostaddr") == 0 && o->val)
            hostaddr = o->val;
    }
    // No host: the default socket (or PGHOST, or a service file): libpq does it, without DNS or with
    // its own; a socket directory needs no lookup either.
    if (host.isEmpty() || !hostaddr.isEmpty())
        return out;
    const QList<QByteArray> names = host.split(',');
    for (const QByteArray& n : names)
        if (n.isEmpty() || n.startsWith('/') || n.startsWith('@'))
            return out;

    struct Shared
    {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        QList<QByteArray> addrs;
        int failedAt = -1;
    };
    auto shared = std::make_shared<Shared>();
    std::thread([shared, names, resolve] {
        QList<QByteArray> addrs;
        int failedAt = -1;
        for (int i = 0; i < names.size() && failedAt < 0; ++i) {
            in6_addr probe{};
            const QByteArray& n = names[i];
            const bool numeric = ::inet_pton(AF_INET, n.constData(), &probe) == 1 ||
                                 ::inet_pton(AF_INET6, n.constData(), &probe) == 1;
            const QByteArray a = numeric ? n : resolve(n);
            if (a.isEmpty())
                failedAt = i;
            addrs << a;
        }
        const std::lock_guard lock(shared->m);
        shared->addrs = addrs;
        shared->failedAt = failedAt;
        shared->done = true;
        shared->cv.notify_all();
    }).detach();

    std::unique_lock lock(shared->m);
    while (!shared->done) {
        if (aborted && aborted()) {
            out.outcome = HostLookup::Outcome::Aborted;
            out.host = QString::fromUtf8(host);
            return out;
        }
        if (Clock::now() >= deadline) {
            out.outcome = HostLookup::Outcome::TimedOut;
            out.host = QString::fromUtf8(host);
            return out;
        }
        shared->cv.wait_for(lock, std::chrono::milliseconds(50));
    }
    if (shared->failedAt >= 0) {
        // libpq then tries itself and reports the failure in its own words.
        out.outcome = HostLookup::Outcome::Failed;
        out.host = QString::fromUtf8(names[shared->failedAt]);
        return out;
    }
    out.outcome = HostLookup::Outcome::Resolved;
    out.hostaddr = shared->addrs.join(',');
    return out;
}

PgError Connection::connect(const ConnectOptions& opts)
{
    // libpq's messages may quote the connection string (a parse error names the token it choked
    // on): whatever is said about a failed connect is said without the DSN's secrets.
    PgError e = connectImpl(opts);
    if (e.isError()) {
        const QStringList secrets = dsnSecrets(opts.dsn);
        e.message = scrubSecrets(e.message, secrets);
        e.detail = scrubSecrets(e.detail, secrets);
        e.hint = scrubSecrets(e.hint, secrets);
        qCDebug(lcConnection) << "connect failed:" << e.sqlstate << e.message;
    } else {
        qCDebug(lcConnection).nospace() << "connected to " << PQdb(conn_.get()) << " on " << PQhost(conn_.get())
                                        << ":" << PQport(conn_.get()) << " as " << opts.applicationName
                                        << " (server pid " << PQbackendPID(conn_.get()) << ")";
    }
    return e;
}

PgError Connection::connectImpl(const ConnectOptions& opts)
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

    // Resolve host names ourselves, bounded by our deadline and the abort flag, and hand libpq the
    // addresses (hostaddr); host stays for TLS verification and ~/.pgpass.
    const auto deadline = Clock::now() + std::chrono::seconds(opts.connectTimeoutS);
    const HostLookup lookup = lookupHosts(dsn, deadline, [this] { return aborted(); });
    if (lookup.outcome == HostLookup::Outcome::TimedOut || lookup.outcome == HostLookup::Outcome::Aborted) {
        PgError e;
        e.kind = PgError::Kind::Timeout;
        e.message = lookup.outcome == HostLookup::Outcome::Aborted
                        ? QStringLiteral("connection attempt abandoned: the console is stopping")
                        : ErrorWords::tr("host name lookup of \"%1\" did not answer within %2 s")
                              .arg(lookup.host)
                              .arg(opts.connectTimeoutS);
        e.hint = ErrorWords::tr("check the host name and the DNS servers of this machine");
        return e;
    }
    std::vector<const char*> allKeys(std::begin(keys), std::end(keys) - 1);
    std::vector<const char*> allVals(std::begin(vals), std::end(vals) - 1);
    if (lookup.outcome == HostLookup::Outcome::Resolved) {
        allKeys.push_back("hostaddr");
        allVals.push_back(lookup.hostaddr.constData());
    }
    allKeys.push_back(nullptr);
    allVals.push_back(nullptr);

    conn_.reset(PQconnectStartParams(allKeys.data(), allVals.data(), 1));
    if (!conn_ || PQstatus(conn_.get()) == CONNECTION_BAD) {
        PgError e = errorFromConnection(conn_.get(), PgError::Kind::ConnectFailed);
        conn_.reset();
        return e;
    }
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    while (st != PGRES_POLLING_OK) {
        if (st == PGRES_POLLING_FAILED) {
            PgError e = errorFromConnection(conn_.get(), PgError::Kind::ConnectFailed);
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
    qCDebug(lcConnection) << "cancelling the statement of server pid" << PQbackendPID(conn_.get())
                          << "and dropping the connection";
    CancelPtr cancel(PQgetCancel(conn_.get()));
    if (cancel) {
        std::thread([c = std::move(cancel)]() mutable {
            char buf[256];
            PQcancel(c.get(), buf, sizeof buf);
        }).detach();
    }
    conn_.reset();
}

namespace {
// The bytes the kernel has received on a TCP socket so far; nullopt for any other socket.
std::optional<quint64> tcpBytesReceived(int fd)
{
    tcp_info ti{};
    socklen_t len = sizeof ti;
    if (fd < 0 || ::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
        len < socklen_t(offsetof(tcp_info, tcpi_bytes_received) + sizeof ti.tcpi_bytes_received))
        return std::nullopt;
    return quint64(ti.tcpi_bytes_received);
}
} // namespace

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
    const int fd = PQsocket(c);
    const std::optional<quint64> tcpBefore = tcpBytesReceived(fd);
    lastBytesExact_ = false;
    auto lost = [&]() {
        PgError e = errorFromConnection(c, PgError::Kind::ConnectionLost);
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
                               nullptr, s.binaryResults ? 1 : 0))
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
                if (const std::optional<quint64> after = tcpBefore ? tcpBytesReceived(fd) : std::nullopt) {
                    lastBytes_ = qint64(*after - *tcpBefore);
                    lastBytesExact_ = true;
                }
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
                out[idx].error = errorFromResult(r.get(), c);
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
