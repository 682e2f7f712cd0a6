#include "Poller.h"

#include <QSet>
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

// Clock, identity, limits and counters: one row.
constexpr char kMetaSql_[] =
    "SELECT date_part('epoch', now()), split_part(current_setting('server_version'), ' ', 1), "
    "current_setting('server_version_num')::int, current_database(), current_user::text, pg_backend_pid(), "
    "current_setting('max_connections')::int, current_setting('superuser_reserved_connections')::int, "
    "current_setting('max_locks_per_transaction')::int, current_setting('max_prepared_transactions')::int, "
    "d.deadlocks, date_part('epoch', d.stats_reset), "
    "current_setting('is_superuser') = 'on' OR pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER') "
    "FROM pg_stat_database d WHERE d.datname = current_database()";

// Client backends of the whole server, our own excluded. pg_blocking_pids() takes the lock
// manager's partition locks: call it only for sessions that wait on a Lock.
constexpr char kActivitySql_[] =
    "SELECT pid, datname::text, usename::text, application_name, host(client_addr), client_port, "
    "date_part('epoch', backend_start), date_part('epoch', xact_start), "
    "date_part('epoch', query_start), date_part('epoch', state_change), state, "
    "wait_event_type, wait_event, left(query, 1000), "
    "CASE WHEN wait_event_type = 'Lock' THEN pg_blocking_pids(pid) END "
    "FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()";

// One plain pass over pg_locks (it copies every lock of the server while holding all partition
// locks, ~1 µs a row): only the shared lock table's entries (advisory locks never take the fast
// path), so the row count is the lock-table gauge and the advisory rows come from the same copy.
QByteArray locksSql_(int serverVersion)
{
    const QByteArray waitStart =
        serverVersion >= 140000 ? "date_part('epoch', l.waitstart)" : "NULL::float8"; // waitstart came in 14
    return "SELECT l.locktype = 'advisory', l.pid, d.datname::text, l.classid::int8, l.objid::int8, "
           "l.objsubid, "
           "l.mode, l.granted, " +
           waitStart +
           ", l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
           "FROM pg_locks l LEFT JOIN pg_database d ON d.oid = l.database WHERE NOT l.fastpath";
}

// A text[] literal for a bound parameter: {"a","b\"c"}.
QByteArray textArrayLiteral(const QStringList& items)
{
    QByteArray out = "{";
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (i)
            out += ',';
        out += '"';
        for (char c : items[i].toUtf8()) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

std::vector<int> parseIntArray(const char* text)
{
    // "{12,34}" from pg_blocking_pids()
    std::vector<int> out;
    for (const char* p = text; *p; ++p) {
        if (*p >= '0' && *p <= '9') {
            char* end = nullptr;
            out.push_back(int(std::strtol(p, &end, 10)));
            p = end - 1;
        }
    }
    return out;
}
} // namespace

QStringList lockNameCandidates(const PollerConfig& cfg, const QStringList& leaseNames, double serverNow)
{
    QStringList names = leaseNames;
    const QDate today = QDateTime::fromMSecsSinceEpoch(qint64(serverNow * 1000), Qt::UTC).date();
    for (const QString& n : cfg.lockNames) {
        if (!n.contains(QLatin1Char('%'))) {
            names << n;
            continue;
        }
        for (int d = 0; d < std::max(1, cfg.patternDays); ++d) {
            const QDate day = today.addDays(-d);
            QString v = n;
            v.replace(QLatin1String("%Y"), day.toString(QStringLiteral("yyyy")));
            v.replace(QLatin1String("%m"), day.toString(QStringLiteral("MM")));
            v.replace(QLatin1String("%d"), day.toString(QStringLiteral("dd")));
            names << v;
        }
    }
    const QStringList base = names;
    for (const QString& prefix : cfg.lockNamePrefixes)
        for (const QString& n : base)
            names << prefix + n;
    names.removeDuplicates();
    return names;
}

namespace sql {
QByteArray meta()
{
    return kMetaSql_;
}
QByteArray activity()
{
    return kActivitySql_;
}
QByteArray locks(int serverVersion)
{
    return locksSql_(serverVersion);
}
} // namespace sql

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
    conn_.setAbortFlag(&stopRequested_);
}

Poller::~Poller() = default;

void Poller::setStatus(ConnectionStatus::State st, const pg::PgError& err, int retryInMs)
{
    const bool changed = st != status_.state || err.message != status_.error.message;
    if (changed)
        status_.since = QDateTime::currentDateTime();
    if (st == ConnectionStatus::State::Connected)
        status_.outageSince = {};
    else if (st == ConnectionStatus::State::Disconnected && !status_.outageSince.isValid())
        status_.outageSince = status_.since;
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
    hashCache_.clear(); // hashtext() may differ between servers (version, collation)
    keyNames_.reset();
    return true;
}

pg::Statement Poller::hashStatement(const QStringList& names)
{
    // hashtext() on the monitored server itself: it changed between versions and follows collation.
    return {"SELECT n, hashtext(n)::int8 FROM unnest($1::text[]) AS n", {textArrayLiteral(names)}};
}

void Poller::addHashes(const PGresult* r)
{
    if (!r)
        return;
    for (int i = 0; i < PQntuples(r); ++i)
        hashCache_.insert(toString(r, i, 0), qint64(std::strtoll(PQgetvalue(r, i, 1), nullptr, 10)));
    auto names = std::make_shared<KeyNames>();
    for (auto it = hashCache_.constBegin(); it != hashCache_.constEnd(); ++it)
        (*names)[it.value()] << it.key();
    for (auto& list : *names)
        list.sort();
    keyNames_ = std::move(names);
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
        std::vector<pg::Statement> check = leaseTableCheck(cfg_.leases);
        // The profile's lock names are known now: hash them in the same round trip, so that even
        // a one-shot snapshot resolves them (lease names follow from the next refresh on).
        const QStringList known =
            lockNameCandidates(cfg_, {}, double(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
        if (!known.isEmpty())
            check.push_back(hashStatement(known));
        const pg::PgError e = conn_.runPipeline(check, res, deadline);
        if (e.needsReconnect()) {
            s.error = e;
            s.receivedWall = QDateTime::currentDateTime();
            return s;
        }
        if (!known.isEmpty() && res.size() == 3) {
            addHashes(res[2].result.get());
            res.pop_back();
        }
        leaseTableError_ = interpretLeaseTableCheck(cfg_.leases, res);
        leaseTableChecked_ = true;
        refreshesSinceCheck_ = 0;
    }

    std::vector<pg::Statement> stmts;
    stmts.push_back({sql::meta(), {}});
    stmts.push_back({sql::activity(), {}});
    stmts.push_back({sql::locks(conn_.serverVersion()), {}});
    // Hash only names not hashed before on this connection's server (bounded per refresh).
    // Lease names are probed against the cache directly: no per-refresh list of every candidate.
    QStringList toHash;
    QSet<QString> pending;
    auto consider = [&](const QString& n) {
        if (toHash.size() < 20000 && !hashCache_.contains(n) && !pending.contains(n)) {
            pending.insert(n);
            toHash << n;
        }
    };
    for (const QString& n : lockNameCandidates(cfg_, {}, lastServerNow_))
        consider(n);
    for (const QString& n : std::as_const(lastLeaseNames_)) {
        consider(n);
        for (const QString& prefix : cfg_.lockNamePrefixes)
            consider(prefix + n);
    }
    if (!toHash.isEmpty())
        stmts.push_back(
            {"SELECT n, hashtext(n)::int8 FROM unnest($1::text[]) AS n", {textArrayLiteral(toHash)}});
    const int hashIdx = toHash.isEmpty() ? -1 : int(stmts.size()) - 1;
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
    s.cluster.maxConnections = int(toDouble(meta, 0, 6));
    s.cluster.superuserReservedConnections = int(toDouble(meta, 0, 7));
    s.cluster.maxLocksPerTransaction = int(toDouble(meta, 0, 8));
    s.cluster.maxPreparedTransactions = int(toDouble(meta, 0, 9));
    s.cluster.deadlocks = PQgetisnull(meta, 0, 10) ? -1 : qint64(toDouble(meta, 0, 10));
    s.cluster.statsReset = optDouble(meta, 0, 11);
    s.cluster.hasMonitorPrivilege = PQgetvalue(meta, 0, 12)[0] == 't';

    if (const PGresult* r = res[1].result.get()) {
        const int n = PQntuples(r);
        s.sessions.reserve(size_t(n));
        for (int i = 0; i < n; ++i) {
            SessionRow row;
            row.pid = int(toDouble(r, i, 0));
            row.database = toString(r, i, 1);
            row.user = toString(r, i, 2);
            row.applicationName = toString(r, i, 3);
            row.clientAddr = toString(r, i, 4);
            row.clientPort = PQgetisnull(r, i, 5) ? -1 : int(toDouble(r, i, 5));
            row.backendStart = optDouble(r, i, 6);
            row.xactStart = optDouble(r, i, 7);
            row.queryStart = optDouble(r, i, 8);
            row.stateChange = optDouble(r, i, 9);
            row.state = toString(r, i, 10);
            row.waitEventType = toString(r, i, 11);
            row.waitEvent = toString(r, i, 12);
            row.query = toString(r, i, 13);
            if (!PQgetisnull(r, i, 14))
                row.blockedBy = parseIntArray(PQgetvalue(r, i, 14));
            s.sessions.push_back(std::move(row));
        }
    }
    if (const PGresult* r = res[2].result.get()) {
        const int n = PQntuples(r);
        s.cluster.lockTableEntries = n;
        s.cluster.totalLocks = n;
        for (int i = 0; i < n; ++i) {
            if (PQgetvalue(r, i, 0)[0] != 't')
                continue; // another lock type: counted, not shown
            AdvisoryLockRow l;
            l.pid = int(toDouble(r, i, 1));
            l.database = toString(r, i, 2);
            const qint64 classid = qint64(std::strtoll(PQgetvalue(r, i, 3), nullptr, 10));
            const qint64 objid = qint64(std::strtoll(PQgetvalue(r, i, 4), nullptr, 10));
            l.twoKeys = toDouble(r, i, 5) == 2;
            if (l.twoKeys) {
                l.key1 = qint32(quint32(classid));
                l.key2 = qint32(quint32(objid));
            } else {
                l.key = qint64((quint64(classid) << 32) | quint64(quint32(objid)));
            }
            l.mode = toString(r, i, 6);
            l.granted = PQgetvalue(r, i, 7)[0] == 't';
            l.waitStart = optDouble(r, i, 8);
            l.inMonitoredDb = PQgetvalue(r, i, 9)[0] == 't';
            s.advisoryLocks.push_back(std::move(l));
        }
    }

    if (hashIdx >= 0)
        addHashes(res[size_t(hashIdx)].result.get());
    if (!keyNames_)
        keyNames_ = std::make_shared<KeyNames>();
    s.keyNames = keyNames_;
    lastServerNow_ = s.serverNow;

    if (readLeases) {
        const auto& lr = res.back();
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
            lastLeaseNames_.clear();
            lastLeaseNames_.reserve(qsizetype(s.leases.size()));
            for (const LeaseRow& row : s.leases)
                lastLeaseNames_ << row.name;
        }
    } else {
        s.leasesError = leaseTableError_;
    }
    s.decodeMs = std::chrono::duration<double, std::milli>(pg::Clock::now() - t1).count();
    s.analysis = std::make_shared<const Analysis>(analyze(s, *s.keyNames, cfg_.analysis));
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
    if (!running_ || paused_ || stopRequested_.load())
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
