#include "Poller.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace lw {

namespace {
double toDouble(const PGresult* r, int row, int col, bool* isNull = nullptr)
{
    const bool null = PQgetisnull(r, row, col);
    if (isNull)
        *isNull = null;
    return null ? 0.0 : std::strtod(PQgetvalue(r, row, col), nullptr);
}

QString toString(const PGresult* r, int row, int col)
{
    return QString::fromUtf8(PQgetvalue(r, row, col), PQgetlength(r, row, col));
}

std::optional<double> optDouble(const PGresult* r, int row, int col)
{
    if (PQgetisnull(r, row, col))
        return std::nullopt;
    return std::strtod(PQgetvalue(r, row, col), nullptr);
}

const QByteArray kMetaSql =
    "SELECT extract(epoch FROM now())::float8, split_part(current_setting('server_version'), ' ', 1), "
    "current_setting('server_version_num')::int, current_database(), current_user::text, pg_backend_pid()";
} // namespace

LeasePolicy leasePolicyFor(const PollerConfig& cfg)
{
    LeasePolicy p;
    p.refreshIntervalS = cfg.intervalMs / 1000.0;
    p.ttlOverride = cfg.leases.ttlSeconds;
    p.expiringSoonShare = cfg.leases.expiringSoonShare;
    return p;
}

Poller::Poller(PollerConfig cfg, quint64 generation, QObject* parent)
    : QObject(parent), cfg_(std::move(cfg)), generation_(generation),
      jitterState_(quint64(monotonicMs()) * 6364136223846793005ULL + generation)
{
    qRegisterMetaType<lw::Snapshot>();
    qRegisterMetaType<lw::ConnectionStatus>();
    status_.since = QDateTime::currentDateTime();
}

Poller::~Poller() = default;

void Poller::setStatus(ConnectionStatus::State st, const pg::PgError& err, int retryInMs)
{
    const bool changed = st != status_.state || err.message != status_.error.message;
    if (changed)
        status_.since = QDateTime::currentDateTime();
    status_.state = st;
    status_.error = err;
    status_.retryInMs = retryInMs;
    Q_EMIT statusChanged(status_);
}

int Poller::nextBackoffMs()
{
    // Exponential backoff with full jitter in [base/2, base]: many consoles do not reconnect in step.
    const double base = std::min<double>(cfg_.backoffMaxMs, cfg_.backoffInitialMs * std::pow(2.0, failures_));
    jitterState_ = jitterState_ * 6364136223846793005ULL + 1442695040888963407ULL;
    const double r = double(jitterState_ >> 11) / double(1ULL << 53);
    ++failures_;
    return int(base / 2 + r * base / 2);
}

bool Poller::ensureConnected(pg::PgError& err)
{
    if (conn_.isOpen())
        return true;
    setStatus(ConnectionStatus::State::Connecting);
    err = conn_.connect(cfg_.connect);
    if (err.isError())
        return false;
    leaseTableChecked_ = false;
    return true;
}

Snapshot Poller::refreshOnce()
{
    Snapshot s;
    s.generation = generation_;
    s.seq = ++seq_;
    pg::PgError err;
    if (!ensureConnected(err)) {
        s.error = err;
        s.receivedWall = QDateTime::currentDateTime();
        return s;
    }
    const auto deadline = pg::Clock::now() + std::chrono::milliseconds(cfg_.refreshDeadlineMs);

    // The table check runs at connect and again every 10 refreshes while it fails (the table may appear).
    if (!leaseTableChecked_ || (leaseTableError_ && ++refreshesSinceCheck_ >= 10)) {
        std::vector<pg::StatementResult> res;
        const pg::PgError e = conn_.runPipeline(leaseTableCheck(cfg_.leases), res, deadline);
        if (e.needsReconnect()) {
            s.error = e;
            s.receivedWall = QDateTime::currentDateTime();
            return s;
        }
        leaseTableError_ = interpretLeaseTableCheck(cfg_.leases, res);
        leaseTableChecked_ = true;
        refreshesSinceCheck_ = 0;
    }

    std::vector<pg::Statement> stmts;
    stmts.push_back({kMetaSql, {}});
    const bool readLeases = !leaseTableError_.has_value();
    if (readLeases)
        stmts.push_back(leaseSelect(conn_, cfg_.leases));

    std::vector<pg::StatementResult> res;
    const auto t0 = pg::Clock::now();
    const pg::PgError e = conn_.runPipeline(stmts, res, deadline);
    const auto t1 = pg::Clock::now();
    s.receivedMonotonicMs = monotonicMs();
    s.receivedWall = QDateTime::currentDateTime();
    s.roundTrips = 1;
    s.bytesReceived = conn_.lastBytesReceived();
    s.clientWaitMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    if (e.isError() && (e.needsReconnect() || !res[0].result)) {
        s.error = e;
        return s;
    }

    const PGresult* meta = res[0].result.get();
    if (!meta || PQntuples(meta) != 1) {
        s.error.kind = pg::PgError::Kind::Query;
        s.error.message = QStringLiteral("unexpected answer to the clock query");
        return s;
    }
    s.serverNow = toDouble(meta, 0, 0);
    s.server.version = toString(meta, 0, 1);
    s.server.versionNum = int(toDouble(meta, 0, 2));
    s.server.database = toString(meta, 0, 3);
    s.server.user = toString(meta, 0, 4);
    s.server.backendPid = int(toDouble(meta, 0, 5));

    if (readLeases) {
        const auto& lr = res[1];
        if (lr.error.isError()) {
            s.leasesError = lr.error;
            // The table may have been dropped or altered: check it again next time.
            leaseTableChecked_ = false;
        } else if (const PGresult* r = lr.result.get()) {
            const int n = PQntuples(r);
            s.leases.reserve(size_t(n));
            for (int i = 0; i < n; ++i) {
                LeaseRow row;
                row.name = PQgetisnull(r, i, 0) ? QString() : toString(r, i, 0);
                if (!PQgetisnull(r, i, 1))
                    row.holder = toString(r, i, 1);
                row.takenAt = optDouble(r, i, 2);
                row.expiresAt = optDouble(r, i, 3);
                s.leases.push_back(std::move(row));
            }
        }
    } else {
        s.leasesError = leaseTableError_;
    }
    s.decodeMs = std::chrono::duration<double, std::milli>(pg::Clock::now() - t1).count();
    s.ok = true;
    return s;
}

void Poller::start()
{
    running_ = true;
    if (!timer_) {
        timer_ = new QTimer(this);
        timer_->setSingleShot(true);
        connect(timer_, &QTimer::timeout, this, &Poller::loop);
    }
    timer_->start(0);
}

void Poller::stop()
{
    running_ = false;
    if (timer_)
        timer_->stop();
    conn_.close(); // the backend goes away now, not when the process exits
}

void Poller::setPaused(bool paused)
{
    paused_ = paused;
    if (!paused_ && running_ && timer_ && !timer_->isActive())
        timer_->start(0);
}

void Poller::setIntervalMs(int ms)
{
    cfg_.intervalMs = std::max(100, ms);
}

void Poller::loop()
{
    if (!running_ || paused_)
        return;
    const qint64 started = monotonicMs();
    Snapshot s = refreshOnce();
    if (!s.ok && s.error.needsReconnect()) {
        conn_.close();
        const int wait = nextBackoffMs();
        setStatus(ConnectionStatus::State::Disconnected, s.error, wait);
        Q_EMIT snapshotReady(s);
        timer_->start(wait);
        return;
    }
    failures_ = 0;
    if (status_.state != ConnectionStatus::State::Connected || !(status_.server == s.server)) {
        status_.server = s.server;
        setStatus(ConnectionStatus::State::Connected);
    }
    Q_EMIT snapshotReady(s);
    // Scheduled after the refresh finished: a slow refresh delays the next, never queues it.
    const qint64 took = monotonicMs() - started;
    timer_->start(int(std::max<qint64>(cfg_.intervalMs - took, cfg_.intervalMs / 4)));
}

} // namespace lw
