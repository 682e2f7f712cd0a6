#include "Poller.h"

#include "Logging.h"

#include "domain/LibraryKeys.h"

#include <QSet>
#include <QTimer>
#include <QtEndian>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

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

// A column with few distinct values (a database name, a lock mode) over thousands of rows: one
// shared QString per value instead of one allocation per row.
class Interned
{
public:
    const QString& at(const PGresult* r, int row, int col)
    {
        const char* v = PQgetvalue(r, row, col);
        const int len = PQgetlength(r, row, col);
        if (!valid_ || len != bytes_.size() || std::memcmp(v, bytes_.constData(), size_t(len)) != 0) {
            bytes_ = QByteArray(v, len);
            value_ = QString::fromUtf8(bytes_);
            valid_ = true;
        }
        return value_;
    }

private:
    bool valid_ = false;
    QByteArray bytes_;
    QString value_;
};

std::optional<double> optDouble(const PGresult* r, int row, int col)
{
    if (PQgetisnull(r, row, col))
        return std::nullopt;
    if (PQfformat(r, col) == 1 && PQgetlength(r, row, col) == 8) // binary float8: big-endian IEEE 754
        return std::bit_cast<double>(qFromBigEndian<quint64>(PQgetvalue(r, row, col)));
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
// Last in the pipeline: the pipeline is one implicit transaction (one Sync), so now() is when its
// first statement started and this is the server's own time for the refresh, without the network.
constexpr char kServerTimeSql_[] = "SELECT 1000 * extract(epoch FROM clock_timestamp() - now())::float8";

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

int stretchedIntervalMs(int intervalMs, double serverMs, double budget)
{
    if (!(budget > 0) || !(serverMs > 0))
        return intervalMs;
    const double needed = std::ceil(serverMs / budget);
    return int(std::clamp(needed, double(intervalMs), std::max(double(intervalMs), 60000.0)));
}

int locksEveryN(int lastLockRows, double refreshServerMs, int manyRows, int maxN)
{
    if (lastLockRows < manyRows || maxN <= 1)
        return 1;
    // Copying pg_locks costs ~1 µs a row (FIELD-NOTES); returning our columns of it ~3-4 µs a row
    // (leasewatch-bench: ~80 ms for 20 000 rows). The client cannot time one statement of a
    // pipeline separately, so the row count stands for its cost.
    const double locksMs = lastLockRows * 0.003;
    const double restMs = std::max(1.0, refreshServerMs - locksMs);
    if (locksMs <= restMs)
        return 1;
    return std::clamp(int(std::ceil(locksMs / restMs)), 1, maxN);
}

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

// The previous read of the leases, for the next one's diff by key: the rows as the last snapshot
// handed them out (its order: a row keeps its place while it is read) and where each key is.
// The models then touch only what changed (a LeaseDelta), never all 100 000 rows.
struct Poller::LeaseCache
{
    using Key = std::pair<int, QString>; // (table, name): names are unique per table
    quint64 source = 0;
    LeaseRows rows;        // the last snapshot's, shared with it
    QHash<Key, int> rowOf; // where each key is in rows
};

namespace {
std::atomic<quint64> g_leaseSources{0};

// Row i of a lease result: name, holder, taken-at and expires-at (float8 epochs, binary), and with
// several tables a fifth column, the index of the row's table (int4, binary).
LeaseRow leaseRowAt(const PGresult* r, int i)
{
    LeaseRow row;
    row.name = toString(r, i, 0);
    if (!PQgetisnull(r, i, 1))
        row.holder = toString(r, i, 1);
    row.takenAt = optDouble(r, i, 2);
    row.expiresAt = optDouble(r, i, 3);
    if (PQnfields(r) > 4 && !PQgetisnull(r, i, 4) && PQgetlength(r, i, 4) == 4)
        row.source = qFromBigEndian<qint32>(PQgetvalue(r, i, 4));
    return row;
}

SessionRow sessionRowAt(const PGresult* r, int i)
{
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
    return row;
}
} // namespace

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

void Poller::setStatus(ConnectionStatus::State st, const DbError& err, int retryInMs)
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

bool Poller::ensureConnected(DbError& err)
{
    if (conn_.isOpen())
        return true;
    setStatus(ConnectionStatus::State::Connecting);
    err = conn_.connect(cfg_.connect);
    if (err.isError())
        return false;
    leaseTableChecked_ = false;
    hashCache_.clear(); // hashtext() may differ between servers (version, collation)
    refreshesSinceTrim_ = 0;
    goodJobNames_.clear();
    goodJobMissed_.clear();
    goodJobLookup_ = true;
    keyNames_ = std::make_shared<const KeyNames>();
    keyCollisions_ = std::make_shared<const KeyNames>();
    leaseCache_.reset(); // another server, maybe: every lease is read afresh (and hashed)
    lastAnalysis_.reset();
    haveLocks_ = false;
    lastLocks_ = {};
    return true;
}

pg::Statement Poller::hashStatement(const QStringList& names)
{
    // hashtext() on the monitored server itself: it changed between versions and follows collation.
    // In the order sent: the names are the console's own strings (shared with the lease rows).
    return {"SELECT hashtext(n)::int8 FROM unnest($1::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i",
            {textArrayLiteral(names)}};
}

void Poller::addHashes(const PGresult* r, const QStringList& names)
{
    if (!r || PQntuples(r) != names.size())
        return;
    std::vector<std::pair<QString, qint64>> added;
    for (int i = 0; i < PQntuples(r); ++i) {
        const QString& name = names[i];
        if (!hashCache_.contains(name)) {
            const qint64 key = qint64(std::strtoll(PQgetvalue(r, i, 0), nullptr, 10));
            hashCache_.insert(name, key);
            added.emplace_back(name, key);
        }
    }
    updateKeyNames(added, {});
}

void Poller::updateKeyNames(const std::vector<std::pair<QString, qint64>>& added,
                            const std::vector<std::pair<QString, qint64>>& dropped)
{
    // The published maps are shared with snapshots on other threads: changed as copies (Qt's
    // implicit sharing), only at the keys these names hash to.
    if (added.empty() && dropped.empty())
        return;
    KeyNames names = *keyNames_, collisions = *keyCollisions_;
    QSet<qint64> touched;
    for (const auto& [name, key] : dropped) {
        const auto it = names.find(key);
        if (it != names.end() && it->removeOne(name) && it->isEmpty())
            names.erase(it);
        touched.insert(key);
    }
    for (const auto& [name, key] : added) {
        names[key] << name;
        touched.insert(key);
    }
    for (qint64 key : std::as_const(touched)) {
        const auto it = names.find(key);
        if (it != names.end())
            it->sort();
        if (it != names.end() && it->size() > 1)
            collisions.insert(key, *it);
        else
            collisions.remove(key);
    }
    keyNames_ = std::make_shared<const KeyNames>(std::move(names));
    keyCollisions_ = std::make_shared<const KeyNames>(std::move(collisions));
}

void Poller::trimHashCache(const Snapshot& s)
{
    // Names hashed for leases long gone (unique per run: job-<uuid>) would pile up for as long as
    // the console runs (a recorder runs for weeks). Every 100 refreshes, once the cache holds far
    // more than the leases read now, only these stay: the leases' names (with the profile's
    // prefixes), the configured names, and every name whose key is held or awaited now.
    if (++refreshesSinceTrim_ < 100)
        return;
    refreshesSinceTrim_ = 0;
    const qsizetype live = s.leases.size() * (1 + cfg_.lockNamePrefixes.size());
    if (hashCache_.size() <= 2 * live + 1000)
        return;
    QSet<QString> keep;
    keep.reserve(live);
    for (const LeaseRow& r : s.leases) {
        keep.insert(r.name);
        for (const QString& prefix : cfg_.lockNamePrefixes)
            keep.insert(prefix + r.name);
    }
    for (const QString& n : lockNameCandidates(cfg_, {}, s.serverNow))
        keep.insert(n);
    QSet<qint64> held;
    for (const AdvisoryLockRow& l : s.advisoryLocks) {
        held.insert(l.key);
        if (l.twoKeys) {
            held.insert(l.key1);
            held.insert(l.key2);
        }
    }
    std::vector<std::pair<QString, qint64>> dropped;
    for (auto it = hashCache_.begin(); it != hashCache_.end();) {
        if (keep.contains(it.key()) || held.contains(it.value())) {
            ++it;
        } else {
            dropped.emplace_back(it.key(), it.value());
            it = hashCache_.erase(it);
        }
    }
    updateKeyNames({}, dropped);
}

void Poller::publishLibraryKeys()
{
    LibraryKeyNames all = libraryKeysFound_;
    for (auto it = goodJobNames_.constBegin(); it != goodJobNames_.constEnd(); ++it)
        all.insert(it.key(), it.value());
    if (!libraryKeys_ || *libraryKeys_ != all)
        libraryKeys_ = std::make_shared<const LibraryKeyNames>(std::move(all));
}

void Poller::updateGoodJobNames(const PGresult* r, const Snapshot& s)
{
    if (goodJobSchemas_.empty())
        return;
    bool changed = false;
    for (int i = 0; r && i < PQntuples(r); ++i) {
        const qint64 key = std::strtoll(PQgetvalue(r, i, 3), nullptr, 10);
        const QString name = goodJobLockName(toString(r, i, 0), toString(r, i, 1), toString(r, i, 2));
        if (goodJobNames_.value(key) != name) {
            goodJobNames_.insert(key, name);
            changed = true;
        }
    }
    // Kept while held. The next refresh looks again when a key held here is nameless and was not
    // looked for yet (a job just started), or every 10 refreshes while some stay nameless (another
    // library's key, or a job locked before it was marked performed).
    QSet<qint64> held, nameless;
    for (const AdvisoryLockRow& l : s.advisoryLocks) {
        if (!l.inMonitoredDb || l.twoKeys)
            continue;
        held.insert(l.key);
        if (!goodJobNames_.contains(l.key) && !keyNames_->contains(l.key) &&
            !libraryKeysFound_.contains(l.key) && libraryLockName(l, {}).isEmpty())
            nameless.insert(l.key);
    }
    for (auto it = goodJobNames_.begin(); it != goodJobNames_.end();)
        if (!held.contains(it.key())) {
            it = goodJobNames_.erase(it);
            changed = true;
        } else {
            ++it;
        }
    if (r) {
        goodJobMissed_ = nameless;
        refreshesSinceGoodJob_ = 0;
    } else {
        ++refreshesSinceGoodJob_;
    }
    const bool fresh = std::any_of(nameless.cbegin(), nameless.cend(), [&](qint64 k) { return !goodJobMissed_.contains(k); });
    goodJobLookup_ = fresh || (!nameless.isEmpty() && refreshesSinceGoodJob_ >= 10);
    if (changed)
        publishLibraryKeys();
}

Snapshot Poller::refreshOnce()
{
    Snapshot s;
    s.generation = generation_;
    s.seq = ++seq_;
    DbError err;
    if (!ensureConnected(err)) {
        s.error = err;
        s.receivedWall = QDateTime::currentDateTime();
        return s;
    }
    const auto deadline = pg::Clock::now() + std::chrono::milliseconds(cfg_.refreshDeadlineMs);

    // The lease tables are found (or the named one checked) at connect, again every 10 refreshes
    // while that fails, and every 60 while detecting (a library's table may appear later). One
    // round trip: the detection (or the named table's check), the libraries' keys computed on the
    // server (pg-boss, Flyway's tables), and the hashes of the profile's lock names.
    const bool detecting = cfg_.detectLeaseTable && cfg_.leases.isDefault();
    const bool troubled = leaseTableError_ || !leasesAbsent_.isEmpty();
    if (!leaseTableChecked_ || ((troubled || detecting) && ++refreshesSinceCheck_ >= (troubled ? 10 : 60))) {
        std::vector<pg::Statement> stmts = detecting ? std::vector<pg::Statement>{leaseTableDetection()}
                                                     : leaseTableCheck(cfg_.leases);
        const size_t keysIdx = stmts.size();
        stmts.push_back({libraryKeysSql(), {}});
        // The profile's lock names are known now: hashed here, so that even a one-shot snapshot
        // resolves them (lease names follow from the next refresh on).
        const QStringList known =
            lockNameCandidates(cfg_, {}, double(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
        if (!known.isEmpty())
            stmts.push_back(hashStatement(known));
        std::vector<pg::StatementResult> res;
        const DbError e = conn_.runPipeline(stmts, res, deadline);
        if (e.needsReconnect() || res.size() != stmts.size()) {
            s.error = e;
            if (!s.error.isError()) {
                s.error.kind = DbError::Kind::Query;
                s.error.message = QStringLiteral("the lease-table check returned no result");
            }
            s.receivedWall = QDateTime::currentDateTime();
            return s;
        }
        if (!known.isEmpty() && !res.back().error.isError())
            addHashes(res.back().result.get(), known);
        {
            const pg::StatementResult& kr = res[keysIdx];
            const PGresult* keys = kr.error.isError() ? nullptr : kr.result.get();
            LibraryKeyNames names;
            std::vector<GoodJobSchema> goodJob;
            for (int i = 0; keys && i < PQntuples(keys); ++i) {
                const QString kind = toString(keys, i, 0), label = toString(keys, i, 1);
                const std::optional<qint64> key = PQgetisnull(keys, i, 2)
                                                      ? std::nullopt
                                                      : std::optional<qint64>(std::strtoll(PQgetvalue(keys, i, 2), nullptr, 10));
                if (kind == QLatin1String("goodjob"))
                    goodJob.push_back({conn_.quoteIdentifier(label), label, key.value_or(0) != 0});
                else
                    addLibraryKey(names, kind, label, key);
            }
            if (goodJob.size() != goodJobSchemas_.size())
                goodJobLookup_ = true; // GoodJob appeared: look at what it holds
            goodJobSchemas_ = std::move(goodJob);
            libraryKeysFound_ = std::move(names);
            publishLibraryKeys();
        }
        std::vector<LeaseTableConfig> tables{cfg_.leases};
        QStringList found;
        leasesAbsent_.clear();
        if (detecting) {
            // Nothing configured: whichever of the catalogue's tables are there.
            DetectedLeaseTables d;
            if (!res[0].error.isError())
                d = detectedLeaseTables(res[0].result.get());
            else
                d.problem = res[0].error;
            tables = std::move(d.tables);
            found = d.found;
            leaseTableError_ = d.problem;
            if (tables.empty() && !d.problem)
                leasesAbsent_ = noLeaseTableText();
        } else {
            // A named table is checked: exists, privileges, columns.
            const std::vector<pg::StatementResult> check(std::make_move_iterator(res.begin()),
                                                         std::make_move_iterator(res.begin() + long(keysIdx)));
            leaseTableError_ = interpretLeaseTableCheck(cfg_.leases, check);
        }
        if (!tables_ || *tables_ != tables) {
            tables_ = std::make_shared<const std::vector<LeaseTableConfig>>(tables);
            leaseCache_.reset(); // other tables: every row is read afresh
        }
        leasesFound_ = found;
        leaseTableChecked_ = true;
        refreshesSinceCheck_ = 0;
    }

    // pg_locks may be skipped on this refresh when it dominates (still one round trip).
    const int everyN = haveLocks_ ? locksEveryN(lastLockRows_, serverMsEstimate_, cfg_.locksManyRows,
                                                cfg_.locksEveryNMax)
                                  : 1;
    const bool readLocks = !haveLocks_ || ++refreshesSinceLocks_ >= everyN;

    std::vector<pg::Statement> stmts;
    stmts.push_back({sql::meta(), {}});
    stmts.push_back({sql::activity(), {}});
    const int locksIdx = readLocks ? int(stmts.size()) : -1;
    if (readLocks)
        stmts.push_back({sql::locks(conn_.serverVersion()), {}});
    // Hash only names not hashed before on this connection's server (bounded per refresh). Lease
    // names are queued when they first appear: no per-refresh pass over every lease.
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
    qsizetype taken = 0;
    for (; taken < namesToHash_.size() && toHash.size() < 20000; ++taken) {
        consider(namesToHash_[taken]);
        for (const QString& prefix : cfg_.lockNamePrefixes)
            consider(prefix + namesToHash_[taken]);
    }
    namesToHash_.remove(0, taken);
    if (!toHash.isEmpty())
        stmts.push_back(hashStatement(toHash));
    const int hashIdx = toHash.isEmpty() ? -1 : int(stmts.size()) - 1;
    // Detected tables are read even when another one found could not be (its problem is told).
    const bool readLeases = tables_ && !tables_->empty() && (!leaseTableError_ || detecting);
    const int leasesIdx = int(stmts.size());
    if (readLeases)
        stmts.push_back(tables_->size() == 1 ? leaseSelect(conn_, tables_->front()) : leaseSelectAll(conn_, *tables_));
    // After the leases: should GoodJob's tables have gone, only this statement and the next fail.
    const int goodJobIdx = readLocks && !goodJobSchemas_.empty() && goodJobLookup_ ? int(stmts.size()) : -1;
    if (goodJobIdx >= 0)
        stmts.push_back({goodJobLockSql(goodJobSchemas_), {}});
    const int serverTimeIdx = int(stmts.size());
    stmts.push_back({kServerTimeSql_, {}});

    std::vector<pg::StatementResult> res;
    const auto t0 = pg::Clock::now();
    const DbError e = conn_.runPipeline(stmts, res, deadline);
    const auto t1 = pg::Clock::now();
    s.receivedMonotonicMs = monotonicMs();
    // UTC: the local time's conversion costs more than the rest of a small refresh's decoding.
    s.receivedWall = QDateTime::currentDateTimeUtc();
    s.roundTrips = 1;
    s.bytesReceived = conn_.lastBytesReceived();
    s.bytesExact = conn_.lastBytesExact();
    s.clientWaitMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    if (e.isError() && (e.needsReconnect() || !res[0].result)) {
        if (!readLocks)
            --refreshesSinceLocks_; // not read: try again next time
        s.error = e;
        qCDebug(lcPoller) << "refresh" << s.seq << "failed:" << e.sqlstate << e.message;
        return s;
    }
    // The footprint: the client cannot read pg_stat_statements in general; the server tells its own
    // time for the pipeline (see kServerTimeSql_). Should that answer be missing, the time from
    // sending to the last result stands in (an upper bound: it includes the network). Smoothed, so
    // that one slow refresh does not stretch the interval by itself.
    const PGresult* st = size_t(serverTimeIdx) < res.size() ? res[size_t(serverTimeIdx)].result.get() : nullptr;
    s.serverMs = st && PQresultStatus(st) == PGRES_TUPLES_OK && PQntuples(st) == 1 ? toDouble(st, 0, 0)
                                                                                    : s.clientWaitMs;
    serverMsEstimate_ =
        serverMsEstimate_ > 0 ? 0.7 * serverMsEstimate_ + 0.3 * s.serverMs : s.serverMs;
    effectiveIntervalMs_ = stretchedIntervalMs(cfg_.intervalMs, serverMsEstimate_, cfg_.serverTimeBudget);
    s.effectiveIntervalMs = effectiveIntervalMs_;

    const PGresult* meta = res[0].result.get();
    if (!meta || PQntuples(meta) != 1) {
        s.error.kind = DbError::Kind::Query;
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
        std::vector<SessionRow> sessions;
        sessions.reserve(size_t(PQntuples(r)));
        for (int i = 0; i < PQntuples(r); ++i)
            sessions.push_back(sessionRowAt(r, i));
        s.sessions = std::move(sessions);
    }
    const PGresult* locks = locksIdx >= 0 ? res[size_t(locksIdx)].result.get() : nullptr;
    if (locks) {
        decodeLocks(locks, s);
        lastLocks_ = s.advisoryLocks;
        lastLockTableEntries_ = s.cluster.lockTableEntries;
        lastLockRows_ = s.cluster.totalLocks;
        lastLocksReadMs_ = s.receivedMonotonicMs;
        refreshesSinceLocks_ = 0;
        haveLocks_ = true;
    } else if (haveLocks_) {
        // Not read this time (or it failed): the previous read, marked with its age.
        s.advisoryLocks = lastLocks_;
        s.cluster.lockTableEntries = lastLockTableEntries_;
        s.cluster.totalLocks = lastLockRows_;
        s.locksReused = true;
        s.locksAgeMs = double(s.receivedMonotonicMs - lastLocksReadMs_);
    }
    s.locksEveryN = everyN;

    if (hashIdx >= 0)
        addHashes(res[size_t(hashIdx)].result.get(), toHash);
    if (goodJobIdx >= 0 && res[size_t(goodJobIdx)].error.isError())
        goodJobSchemas_.clear(); // gone or not readable: found again, or not, at the next check
    else if (locks)
        updateGoodJobNames(goodJobIdx >= 0 ? res[size_t(goodJobIdx)].result.get() : nullptr, s);
    s.keyNames = keyNames_;
    s.keyCollisions = keyCollisions_;
    s.libraryKeys = libraryKeys_;
    lastServerNow_ = s.serverNow;

    if (readLeases) {
        auto& lr = res[size_t(leasesIdx)];
        if (lr.error.isError()) {
            s.leasesError = lr.error;
            // The table may have been dropped or altered: check it again next time.
            leaseTableChecked_ = false;
            leaseCache_.reset();
        } else if (lr.result) {
            decodeLeases(lr.result.get(), s);
            // Another table found could not be read (no SELECT): said, while these rows are shown.
            s.leasesPartial = leaseTableError_;
        }
    } else {
        s.leasesError = leaseTableError_;
    }
    if (leasesAbsent_.isEmpty())
        s.leaseTables = tables_;
    s.leasesAbsent = leasesAbsent_;
    s.leasesFound = leasesFound_;
    if (readLeases && !s.leasesError && !s.leasesPartial && haveLocks_) {
        trimHashCache(s);
        s.keyNames = keyNames_;
        s.keyCollisions = keyCollisions_;
    }
    s.decodeMs = std::chrono::duration<double, std::milli>(pg::Clock::now() - t1).count();
    s.analysis = std::make_shared<const Analysis>(analyze(s, cfg_.analysis, lastAnalysis_.get()));
    lastAnalysis_ = s.analysis;
    s.ok = true;
    qCDebug(lcPoller).nospace() << "refresh " << s.seq << ": " << s.clientWaitMs << " ms waited, " << s.decodeMs
                                << " ms decoded, " << s.bytesReceived << " bytes; " << s.leases.size() << " leases, "
                                << s.sessions.size() << " sessions, " << s.advisoryLocks.size() << " advisory locks";
    return s;
}

void Poller::decodeLocks(const PGresult* r, Snapshot& s)
{
    const int n = PQntuples(r);
    s.cluster.lockTableEntries = n;
    s.cluster.totalLocks = n;
    std::vector<AdvisoryLockRow> locks;
    Interned database, mode;
    for (int i = 0; i < n; ++i) {
        if (PQgetvalue(r, i, 0)[0] != 't')
            continue; // another lock type: counted, not shown
        AdvisoryLockRow l;
        l.pid = int(toDouble(r, i, 1));
        l.database = database.at(r, i, 2);
        const qint64 classid = qint64(std::strtoll(PQgetvalue(r, i, 3), nullptr, 10));
        const qint64 objid = qint64(std::strtoll(PQgetvalue(r, i, 4), nullptr, 10));
        l.twoKeys = toDouble(r, i, 5) == 2;
        if (l.twoKeys) {
            l.key1 = qint32(quint32(classid));
            l.key2 = qint32(quint32(objid));
        } else {
            l.key = qint64((quint64(classid) << 32) | quint64(quint32(objid)));
        }
        l.mode = mode.at(r, i, 6);
        l.granted = PQgetvalue(r, i, 7)[0] == 't';
        l.waitStart = optDouble(r, i, 8);
        l.inMonitoredDb = PQgetvalue(r, i, 9)[0] == 't';
        locks.push_back(std::move(l));
    }
    // The same locks as last time (the usual case, even with 20 000 held): the previous read is
    // handed on, so the lock views and the model's rows are reused instead of made again.
    if (haveLocks_ && locks == lastLocks_.vec())
        s.advisoryLocks = lastLocks_;
    else
        s.advisoryLocks = std::move(locks);
}

void Poller::decodeLeases(const PGresult* r, Snapshot& s)
{
    // Every row decoded, then matched by key with the previous read: a row keeps its place, a row
    // gone leaves its place to the last one, new rows come last. The delta says which, so that the
    // lease models update only those (1 % of 100 000 leases renew per refresh).
    const int n = PQntuples(r);
    std::unique_ptr<LeaseCache> c = std::move(leaseCache_);
    const bool hasBase = c != nullptr; // else: no base, the models compare every row
    const size_t base = c ? c->rows.size() : 0;
    auto d = std::make_shared<LeaseDelta>();
    bool keyed = true; // names unique and not NULL: else no delta, the models compare every row
    std::vector<LeaseRow> fresh;
    std::vector<std::pair<int, LeaseRow>> changedRows; // (previous row, its new values)
    std::vector<char> seen(base, 0);
    for (int i = 0; i < n; ++i) {
        LeaseRow row = leaseRowAt(r, i);
        if (PQgetisnull(r, i, 0))
            keyed = false;
        const int was = c ? c->rowOf.value({row.source, row.name}, -1) : -1;
        if (was < 0 || seen[size_t(was)]) {
            if (was >= 0)
                keyed = false; // a repeated name
            namesToHash_ << row.name;
            fresh.push_back(std::move(row));
            continue;
        }
        seen[size_t(was)] = 1;
        const LeaseRow& before = c->rows[size_t(was)]; // its name and table are the key's
        if (before.holder != row.holder || before.expiresAt != row.expiresAt || before.takenAt != row.takenAt)
            changedRows.emplace_back(was, std::move(row));
    }
    if (!c) {
        c = std::make_unique<LeaseCache>();
        c->source = ++g_leaseSources;
    }
    std::vector<LeaseRow> rows = c->rows.vec(); // this read, from the last: shares the strings
    rows.reserve(rows.size() + fresh.size());
    for (auto& [at, row] : changedRows)
        rows[size_t(at)] = std::move(row);
    // Rows gone: the last row moves into the hole (highest hole first, so the last row is never
    // itself gone).
    std::vector<int> movedTo(base), origin(base); // old row → row; row → old row
    for (size_t k = 0; k < base; ++k)
        movedTo[k] = origin[k] = int(k);
    for (int hole = int(base) - 1; hole >= 0; --hole) {
        if (seen[size_t(hole)])
            continue;
        const int last = int(rows.size()) - 1;
        c->rowOf.remove({rows[size_t(hole)].source, rows[size_t(hole)].name});
        if (hole != last) {
            rows[size_t(hole)] = std::move(rows[size_t(last)]);
            c->rowOf.insert({rows[size_t(hole)].source, rows[size_t(hole)].name}, hole);
            seen[size_t(hole)] = seen[size_t(last)];
            origin[size_t(hole)] = origin[size_t(last)];
            movedTo[size_t(origin[size_t(hole)])] = hole;
        }
        rows.pop_back();
        seen.pop_back();
        origin.pop_back();
        d->moves.emplace_back(hole, last);
    }
    for (const auto& [at, row] : changedRows)
        d->changed.push_back(movedTo[size_t(at)]);
    std::sort(d->changed.begin(), d->changed.end());
    d->source = c->source;
    d->baseSeq = hasBase ? lastLeaseSeq_ : 0;
    d->baseSize = base;
    d->appendedFrom = rows.size();
    for (LeaseRow& row : fresh) {
        const LeaseCache::Key key{row.source, row.name};
        if (c->rowOf.contains(key))
            keyed = false;
        c->rowOf.insert(key, int(rows.size()));
        rows.push_back(std::move(row));
    }
    s.leases = std::move(rows);
    c->rows = s.leases;
    lastLeaseSeq_ = s.seq;
    if (keyed) {
        s.leaseDelta = std::move(d);
        leaseCache_ = std::move(c);
    }
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
    const int interval = std::max(cfg_.intervalMs, effectiveIntervalMs_); // the footprint budget
    timer_->start(int(std::max<qint64>(interval - took, interval / 4)));
}

} // namespace lw
