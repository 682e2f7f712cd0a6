#include "Runtime.h"

#include "pg/PgConnection.h"
#include "pg/PgError.h"

#include <QStringList>

#include <thread>
#include <unistd.h>

namespace lw::sim::detail {

namespace {
QString localHostName()
{
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0')
        return QStringLiteral("localhost");
    return QString::fromLocal8Bit(buf);
}

// splitmix64: decorrelates the per-stream seeds derived from one user seed.
quint64 mix(quint64 x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

void ignoreNotice(void*, const PGresult*) {}
} // namespace

Runtime::Runtime(QString dsn, quint64 seed, std::function<void(const Event&)> sink)
    : dsn_(std::move(dsn)), seed_(seed), sink_(std::move(sink)), hostName_(localHostName()), pid_(::getpid())
{
}

void Runtime::requestStop()
{
    {
        std::lock_guard lock(sleepMutex_);
        stopping_ = true;
    }
    sleepCv_.notify_all();
}

bool Runtime::sleepUntil(Clock::time_point t)
{
    std::unique_lock lock(sleepMutex_);
    sleepCv_.wait_until(lock, t, [this] { return stopping_.load(); });
    return !stopping_.load();
}

bool Runtime::sleepFor(double seconds)
{
    return sleepUntil(Clock::now() + std::chrono::microseconds(qint64(seconds * 1e6)));
}

void Runtime::emitEvent(const Event& e) const
{
    if (sink_)
        sink_(e);
}

void Runtime::registerSession(Session* s)
{
    std::lock_guard lock(sessionsMutex_);
    sessions_.insert(s);
}

void Runtime::unregisterSession(Session* s)
{
    std::lock_guard lock(sessionsMutex_);
    sessions_.erase(s);
}

void Runtime::cancelBusySessions()
{
    // The registry stays locked so no session can close (and free its cancel handle) meanwhile.
    std::lock_guard lock(sessionsMutex_);
    for (Session* s : sessions_)
        s->cancelIfBusy();
}

int Runtime::nextOrdinal(const QString& role)
{
    std::lock_guard lock(ordinalsMutex_);
    return ++ordinals_[role];
}

std::mt19937_64 Runtime::rng(quint64 stream) const
{
    return std::mt19937_64(mix(mix(seed_) ^ mix(stream)));
}

int Res::rows() const
{
    return result ? PQntuples(result.get()) : 0;
}

QString Res::text(int row, int col) const
{
    if (!result || row >= rows() || col >= PQnfields(result.get()))
        return {};
    return QString::fromUtf8(PQgetvalue(result.get(), row, col));
}

bool Res::isNull(int row, int col) const
{
    return !result || row >= rows() || PQgetisnull(result.get(), row, col);
}

qint64 Res::affected() const
{
    return result ? QByteArray(PQcmdTuples(result.get())).toLongLong() : 0;
}

QString Res::describe() const
{
    return sqlstate.isEmpty() ? message : QStringLiteral("%1 (SQLSTATE %2)").arg(message, sqlstate);
}

std::optional<QString> Session::connect()
{
    close();
    const QByteArray dsn = pg::normalizeDsn(rt_.dsn()).toUtf8();
    const QByteArray app = appName_.toUtf8();
    // application_name after the expanded DSN: ours wins, so the console can tell instances apart.
    const char* keys[] = {"dbname", "application_name", "connect_timeout", nullptr};
    const char* values[] = {dsn.constData(), app.constData(), "10", nullptr};
    pg::ConnPtr c(PQconnectdbParams(keys, values, 1));
    if (!c || PQstatus(c.get()) != CONNECTION_OK) {
        const QString msg =
            c ? QString::fromUtf8(PQerrorMessage(c.get())).trimmed() : QStringLiteral("out of memory");
        return msg.section(QLatin1Char('\n'), 0, 0);
    }
    PQsetNoticeReceiver(c.get(), ignoreNotice, nullptr); // notices would go to stderr
    cancel_.reset(PQgetCancel(c.get()));
    pid_ = PQbackendPID(c.get());
    conn_ = std::move(c);
    pending_ = false;
    rt_.registerSession(this);
    return std::nullopt;
}

void Session::close()
{
    if (!conn_)
        return;
    rt_.unregisterSession(this);
    if (pending_) {
        // A statement still waits for a lock: cancel it so the backend leaves the wait at once.
        char err[256];
        if (cancel_)
            PQcancel(cancel_.get(), err, sizeof err);
        while (pg::ResultPtr r{PQgetResult(conn_.get())}) {
        }
        pending_ = false;
    }
    cancel_.reset();
    conn_.reset();
}

void Session::setBusy(bool busy)
{
    std::lock_guard lock(busyMutex_);
    busy_ = busy;
}

void Session::cancelIfBusy()
{
    std::lock_guard lock(busyMutex_);
    if (busy_ && cancel_) {
        char err[256];
        PQcancel(cancel_.get(), err, sizeof err);
    }
}

void Session::classify(Res& r) const
{
    const ExecStatusType st = r.result ? PQresultStatus(r.result.get()) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        r.ok = true;
        return;
    }
    const char* state = r.result ? PQresultErrorField(r.result.get(), PG_DIAG_SQLSTATE) : nullptr;
    const char* severity =
        r.result ? PQresultErrorField(r.result.get(), PG_DIAG_SEVERITY_NONLOCALIZED) : nullptr;
    const char* primary = r.result ? PQresultErrorField(r.result.get(), PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    r.sqlstate = state ? QString::fromLatin1(state) : QString();
    r.message =
        primary ? QString::fromUtf8(primary)
                : QString::fromUtf8(PQerrorMessage(conn_.get())).trimmed().section(QLatin1Char('\n'), 0, 0);
    r.lost = PQstatus(conn_.get()) != CONNECTION_OK ||
             pg::isConnectionLossState(r.sqlstate, severity ? QString::fromLatin1(severity) : QString());
    if (r.sqlstate == QLatin1String("57014") && rt_.stopping())
        r.stopped = true;
}

Res Session::exec(const char* sql, const Params& params, bool cancellable)
{
    Res r;
    if (!conn_) {
        r.lost = true;
        r.message = QStringLiteral("not connected");
        return r;
    }
    if (cancellable && rt_.stopping()) {
        r.stopped = true;
        r.message = QStringLiteral("stopping");
        return r;
    }
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const QByteArray& p : params)
        values.push_back(p.isNull() ? nullptr : p.constData());
    for (int attempt = 0; attempt < 2; ++attempt) {
        setBusy(cancellable);
        r.result.reset(
            PQexecParams(conn_.get(), sql, int(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
        setBusy(false);
        classify(r);
        // A cancel sent for the previous (cancellable) statement can land on this one: repeat it once.
        if (cancellable || r.ok || r.lost || r.sqlstate != QLatin1String("57014"))
            break;
        r = Res{};
    }
    return r;
}

bool Session::send(const char* sql, const Params& params)
{
    if (!conn_ || pending_ || rt_.stopping())
        return false;
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const QByteArray& p : params)
        values.push_back(p.isNull() ? nullptr : p.constData());
    setBusy(true);
    if (!PQsendQueryParams(conn_.get(), sql, int(values.size()), nullptr, values.data(), nullptr, nullptr,
                           0)) {
        setBusy(false);
        return false;
    }
    pending_ = true;
    return true;
}

Res Session::wait()
{
    Res r;
    if (!conn_ || !pending_) {
        r.lost = !conn_;
        r.message = QStringLiteral("nothing pending");
        return r;
    }
    // Keep the first result (an error aborts the statement; there is exactly one otherwise).
    while (pg::ResultPtr next{PQgetResult(conn_.get())}) {
        if (!r.result)
            r.result = std::move(next);
    }
    pending_ = false;
    setBusy(false);
    classify(r);
    return r;
}

bool ensureConnected(Runtime& rt, Session& s, const QString& scenario)
{
    if (s.isOpen())
        return true;
    if (rt.stopping())
        return false;
    if (auto err = s.connect()) {
        rt.emitEvent({scenario,
                      QStringLiteral("error"),
                      {},
                      s.appName(),
                      QStringLiteral("%1 cannot connect: %2").arg(s.appName(), *err)});
        rt.sleepFor(2.0);
        return false;
    }
    return true;
}

QByteArray textArray(const QStringList& values)
{
    QByteArray out = "{";
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (i)
            out += ',';
        QByteArray v = values[i].toUtf8();
        v.replace('\\', "\\\\").replace('"', "\\\"");
        out += '"' + v + '"';
    }
    return out + '}';
}

QByteArray intervalParam(double seconds)
{
    return QByteArray::number(qint64(seconds * 1000.0 + 0.5)) + " milliseconds";
}

QString seconds(double s)
{
    return QString::number(s, 'g', 3) + QStringLiteral(" s");
}

} // namespace lw::sim::detail
