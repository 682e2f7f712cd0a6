#include "Poller.h"

#include "Logging.h"

#include <QHash>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>

namespace lw {

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

// The previous read of the leases, for the next one's diff by key: the rows as the last snapshot
// handed them out and where each key is. The tracker then touches only what changed (a
// LeaseDelta), never all 100 000 rows.
struct Poller::LeaseCache
{
    using Key = std::pair<int, QString>; // (table, name): names are unique per table
    quint64 source = 0;
    LeaseRows rows;        // the last snapshot's, shared with it
    QHash<Key, int> rowOf; // where each key is in rows
    // Per table: the snapshot xmin of its last read, from which the next reads only what was
    // written since; empty: read it whole.
    std::vector<QByteArray> since;
};

namespace {
std::atomic<quint64> g_leaseSources{0};

// The statements of one round trip, each known by where its answer will be: no index kept by hand.
class RoundTrip
{
public:
    struct Slot
    {
        size_t at = std::numeric_limits<size_t>::max(); // the default: not sent this time
        explicit operator bool() const { return at != std::numeric_limits<size_t>::max(); }
    };
    Slot add(pg::Statement st)
    {
        stmts_.push_back(std::move(st));
        return {stmts_.size() - 1};
    }
    Slot addIf(std::optional<pg::Statement> st) { return st ? add(std::move(*st)) : Slot{}; }
    const std::vector<pg::Statement>& statements() const { return stmts_; }

private:
    std::vector<pg::Statement> stmts_;
};

// The lease statement's error when reading by row version is not possible here: a view (no xmin
// column), a server without pg_current_snapshot() or age(xid).
bool isNoRowVersions(const QString& sqlstate)
{
    return sqlstate == QLatin1String("42703") || sqlstate == QLatin1String("42883") ||
           sqlstate == QLatin1String("0A000");
}

// The answer in `slot`, if it was sent and answered; else null.
const pg::StatementResult* answerAt(const std::vector<pg::StatementResult>& res, RoundTrip::Slot slot)
{
    return slot.at < res.size() ? &res[slot.at] : nullptr;
}
// Its result, whatever its status; or null.
const PGresult* resultAt(const std::vector<pg::StatementResult>& res, RoundTrip::Slot slot)
{
    const pg::StatementResult* a = answerAt(res, slot);
    return a ? a->result.get() : nullptr;
}
// Its rows, if it succeeded; else null.
const PGresult* rowsAt(const std::vector<pg::StatementResult>& res, RoundTrip::Slot slot)
{
    const pg::StatementResult* a = answerAt(res, slot);
    return a && !a->error.isError() ? a->result.get() : nullptr;
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
    names_.reset();
    leaseCache_.reset(); // another server, maybe: every lease is read afresh (and hashed)
    leaseSyncOff_ = false;
    lastAnalysis_.reset();
    haveLocks_ = false;
    lastLocks_ = {};
    locksGate_.reset();
    stats_ = {};
    lockedCatalogs_.clear();
    return true;
}

// One round trip: the detection (or the named table's check), the libraries' keys computed on the
// server (pg-boss, Flyway's tables), and the hashes of the profile's lock names.
bool Poller::checkLeaseTables(bool detecting, pg::Clock::time_point deadline, Snapshot& s)
{
    RoundTrip trip;
    // First: the detection's one statement, or the named table's checks (as many as it takes).
    for (pg::Statement& st : detecting ? std::vector<pg::Statement>{leaseTableDetection()}
                                       : leaseTableCheck(cfg_.leases))
        trip.add(std::move(st));
    const RoundTrip::Slot keysAt = trip.add({libraryKeysSql(), {}});
    const RoundTrip::Slot knownAt = trip.addIf(names_.hashKnownNames());
    std::vector<pg::StatementResult> res;
    const DbError e = conn_.runPipeline(trip.statements(), res, deadline);
    if (e.needsReconnect() || res.size() != trip.statements().size()) {
        s.error = e;
        if (!s.error.isError()) {
            s.error.kind = DbError::Kind::Query;
            s.error.message = QStringLiteral("the lease-table check returned no result");
        }
        s.receivedWall = QDateTime::currentDateTime();
        return false;
    }
    if (knownAt)
        names_.hashesAnswered(rowsAt(res, knownAt));
    names_.libraryKeysAnswered(rowsAt(res, keysAt), conn_);
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
                                                     std::make_move_iterator(res.begin() + long(keysAt.at)));
        leaseTableError_ = interpretLeaseTableCheck(cfg_.leases, check);
    }
    if (!tables_ || *tables_ != tables) {
        tables_ = std::make_shared<const std::vector<LeaseTableConfig>>(tables);
        leaseCache_.reset(); // other tables: every row is read afresh
        leaseSyncOff_ = false;
        lockedTables_.clear();
    }
    leasesFound_ = found;
    leaseTableChecked_ = true;
    refreshesSinceCheck_ = 0;
    return true;
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
    // A catalog the refresh reads was locked last time: not queued for again while it is.
    if (!lockedCatalogs_.isEmpty() && catalogStillLocked(deadline, s))
        return s;

    // The lease tables are found (or the named one checked) at connect, again every 10 refreshes
    // while that fails, and every 60 while detecting (a library's table may appear later).
    const bool detecting = cfg_.detectLeaseTable && cfg_.leases.isDefault();
    const bool troubled = leaseTableError_ || !leasesAbsent_.isEmpty();
    if (!leaseTableChecked_ || ((troubled || detecting) && ++refreshesSinceCheck_ >= (troubled ? 10 : 60))) {
        if (!checkLeaseTables(detecting, deadline, s))
            return s;
    }

    // pg_locks may be skipped on this refresh when it dominates (still one round trip).
    const int everyN = haveLocks_ ? locksEveryN(lastLockRows_, serverMsEstimate_, cfg_.locksManyRows,
                                                cfg_.locksEveryNMax)
                                  : 1;
    const bool readLocks = !s.locksNotRead && (!haveLocks_ || ++refreshesSinceLocks_ >= everyN);

    const bool readStats = stats_.due(conn_.serverVersion(), monotonicMs());
    RoundTrip trip;
    const RoundTrip::Slot metaAt = trip.add({sql::meta(readStats), {}});
    const RoundTrip::Slot activityAt = trip.add({sql::activity(), {}});
    // Gated on the sessions (LocksGate): pg_locks is scanned only when one could have changed it.
    const RoundTrip::Slot gateAt = readLocks ? trip.add(LocksGate::sessions()) : RoundTrip::Slot{};
    const RoundTrip::Slot locksAt =
        readLocks ? trip.add(locksGate_.locks(conn_.serverVersion(), monotonicMs())) : RoundTrip::Slot{};
    const RoundTrip::Slot hashesAt = trip.addIf(names_.hashNewNames(lastServerNow_));
    // Detected tables are read even when another one found could not be (its problem is told).
    const bool readLeases = tables_ && !tables_->empty() && (!leaseTableError_ || detecting);
    // A table another session keeps under ACCESS EXCLUSIVE is not read while it does (checked first).
    const std::vector<int> skipped = readLeases ? lockedTables_ : std::vector<int>{};
    const RoundTrip::Slot tableLocksAt = skipped.empty() ? RoundTrip::Slot{} : trip.add(tableLocksSelect(*tables_));
    // Only the rows written since the last read, where it left a snapshot.
    const std::vector<QByteArray> since = leaseCache_ && !leaseSyncOff_ ? leaseCache_->since : std::vector<QByteArray>{};
    RoundTrip::Slot leasesAt;
    if (readLeases && skipped.size() < tables_->size()) {
        lastLeaseRead_ = leaseSync(conn_, *tables_, since, skipped, !leaseSyncOff_);
        leasesAt = trip.add(lastLeaseRead_);
    }
    // After the leases: should GoodJob's tables have gone, only this statement and the next fail.
    const RoundTrip::Slot goodJobAt = readLocks ? trip.addIf(names_.goodJobStatement()) : RoundTrip::Slot{};
    const RoundTrip::Slot serverTimeAt = trip.add({sql::serverTime(), {}});

    std::vector<pg::StatementResult> res;
    const auto t0 = pg::Clock::now();
    const DbError e = conn_.runPipeline(trip.statements(), res, deadline);
    const auto t1 = pg::Clock::now();
    s.receivedMonotonicMs = monotonicMs();
    // UTC: the local time's conversion costs more than the rest of a small refresh's decoding.
    s.receivedWall = QDateTime::currentDateTimeUtc();
    s.roundTrips = 1;
    s.bytesReceived = conn_.lastBytesReceived();
    s.bytesExact = conn_.lastBytesExact();
    s.clientWaitMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    // A system catalog or view the refresh reads is locked (LOCK TABLE pg_stat_activity, VACUUM FULL
    // pg_database): the statements gave up at lock_timeout. Say which lock and whose, and do not
    // queue for it again while it stands.
    const auto gaveUp = [&](RoundTrip::Slot at) {
        const pg::StatementResult* a = answerAt(res, at);
        return a && a->error.sqlstate == QLatin1String("55P03");
    };
    const bool catalogLocked = !e.needsReconnect() && (gaveUp(metaAt) || gaveUp(activityAt) || gaveUp(locksAt));
    if (catalogLocked || (e.isError() && (e.needsReconnect() || !resultAt(res, metaAt)))) {
        if (!readLocks && !s.locksNotRead)
            --refreshesSinceLocks_; // not read: try again next time
        s.error = e;
        if (catalogLocked) {
            const std::vector<TableLock> locks = catalogLocksNow(deadline);
            for (const TableLock& l : locks)
                lockedCatalogs_.insert(l.table);
            if (!locks.empty())
                s.error = catalogLockError(locks);
        }
        qCDebug(lcPoller) << "refresh" << s.seq << "failed:" << s.error.sqlstate << s.error.message;
        return s;
    }
    // The footprint: the client cannot read pg_stat_statements in general; the server tells its own
    // time for the pipeline (see sql::serverTime()). Should that answer be missing, the time from
    // sending to the last result stands in (an upper bound: it includes the network). Smoothed, so
    // that one slow refresh does not stretch the interval by itself.
    s.serverMs = readServerTimeMs(resultAt(res, serverTimeAt)).value_or(s.clientWaitMs);
    // A read that waited out lock_timeout cost the server nothing: not footprint, no stretch for it.
    const pg::StatementResult* leasesAnswer = answerAt(res, leasesAt);
    if (!leasesAnswer || leasesAnswer->error.sqlstate != QLatin1String("55P03"))
        serverMsEstimate_ = serverMsEstimate_ > 0 ? 0.7 * serverMsEstimate_ + 0.3 * s.serverMs : s.serverMs;
    effectiveIntervalMs_ = stretchedIntervalMs(cfg_.intervalMs, serverMsEstimate_, cfg_.serverTimeBudget);
    s.effectiveIntervalMs = effectiveIntervalMs_;

    if (!readMeta(resultAt(res, metaAt), s)) {
        s.error.kind = DbError::Kind::Query;
        s.error.message = QStringLiteral("unexpected answer to the clock query");
        return s;
    }
    if (const PGresult* r = resultAt(res, activityAt))
        s.sessions = readSessions(r);
    stats_.read(readStats, s);
    const PGresult* locks = rowsAt(res, locksAt);
    if (locks && !locksGate_.read(resultAt(res, gateAt), s.receivedMonotonicMs))
        locks = nullptr; // gated off: nothing could have changed them, the last read stands
    if (locks) {
        std::vector<AdvisoryLockRow> read = readAdvisoryLocks(locks, s.cluster);
        if (conn_.serverVersion() < 140000)
            waitStartsFromStatements(read, s.sessions.vec());
        // The same locks as last time (the usual case, even with 20 000 held): the previous read
        // is handed on, so the lock views and the model's rows are reused instead of made again.
        if (haveLocks_ && read == lastLocks_.vec())
            s.advisoryLocks = lastLocks_;
        else
            s.advisoryLocks = std::move(read);
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

    // Before the GoodJob lookup: a key these names resolve needs no lookup.
    if (hashesAt)
        names_.hashesAnswered(resultAt(res, hashesAt));
    // The lookup joins pg_locks itself, so its answer counts even when the gate kept the last read
    // (it is sent the refresh after a nameless key was seen, when nothing else has changed since:
    // dropping it left a job unnamed until the gate's 10 s).
    const pg::StatementResult* goodJobAnswer = answerAt(res, goodJobAt);
    if (locks || goodJobAnswer)
        names_.locksRead(s, goodJobAnswer);
    lastServerNow_ = s.serverNow;

    if (readLeases)
        takeLeases(leasesAnswer, since, answerAt(res, tableLocksAt), skipped, deadline, s);
    else
        s.leasesError = leaseTableError_;
    if (leasesAbsent_.isEmpty())
        s.leaseTables = tables_;
    s.leasesAbsent = leasesAbsent_;
    s.leasesFound = leasesFound_;
    if (readLeases && !s.leasesError && !s.leasesPartial && haveLocks_) {
        names_.trim(s);
    }
    names_.publishInto(s);
    s.decodeMs = std::chrono::duration<double, std::milli>(pg::Clock::now() - t1).count();
    s.analysis = std::make_shared<const Analysis>(analyze(s, cfg_.analysis, lastAnalysis_.get()));
    lastAnalysis_ = s.analysis;
    s.ok = true;
    qCDebug(lcPoller).nospace() << "refresh " << s.seq << ": " << s.clientWaitMs << " ms waited, " << s.decodeMs
                                << " ms decoded, " << s.bytesReceived << " bytes; " << s.leases.size() << " leases, "
                                << s.sessions.size() << " sessions, " << s.advisoryLocks.size() << " advisory locks";
    return s;
}

Snapshot Poller::refreshOnceNamed()
{
    Snapshot s = refreshOnce();
    if (!s.ok)
        return s;
    const auto deadline = pg::Clock::now() + std::chrono::milliseconds(cfg_.refreshDeadlineMs);
    bool named = false;
    // 20 000 names a statement (KeyNaming): a large table takes a few.
    while (const std::optional<pg::Statement> hashes = names_.hashNewNames(s.serverNow)) {
        std::vector<pg::StatementResult> res;
        const DbError e = conn_.runPipeline({*hashes}, res, deadline);
        ++s.roundTrips;
        if (e.isError() || res.empty() || !res[0].result) {
            names_.hashesAnswered(nullptr);
            break; // the keys stay numbers, as on any refresh whose hashing failed
        }
        names_.hashesAnswered(res[0].result.get());
        named = true;
    }
    if (named) {
        names_.publishInto(s);
        // Made again without the previous analysis: its lock views carry the names before these.
        s.analysis = std::make_shared<const Analysis>(analyze(s, cfg_.analysis));
        lastAnalysis_ = s.analysis;
    }
    return s;
}

pg::ResultPtr Poller::askOnce(pg::Statement st, pg::Clock::time_point deadline)
{
    std::vector<pg::StatementResult> res;
    pg::ResultPtr rows;
    if (!conn_.runPipeline({std::move(st)}, res, deadline).isError() && !res.empty())
        rows = std::move(res.front().result);
    return rows;
}

std::vector<TableLock> Poller::catalogLocksNow(pg::Clock::time_point deadline)
{
    const pg::ResultPtr held = askOnce({sql::catalogLocks(), {}}, deadline);
    return readCatalogLocks(held.get()); // none when the question failed
}

bool Poller::catalogStillLocked(pg::Clock::time_point deadline, Snapshot& s)
{
    std::vector<TableLock> still = catalogLocksNow(deadline);
    still.erase(std::remove_if(still.begin(), still.end(),
                               [&](const TableLock& l) { return !lockedCatalogs_.contains(l.table); }),
                still.end());
    if (still.empty()) {
        lockedCatalogs_.clear();
        return false;
    }
    // pg_locks alone: only the locks statement reads it; the rest of the refresh runs without it.
    if (std::all_of(still.begin(), still.end(),
                    [](const TableLock& l) { return l.table == QLatin1String("pg_catalog.pg_locks"); })) {
        s.locksNotRead = catalogLockError(still, /*restShown=*/true);
        return false;
    }
    s.error = catalogLockError(still);
    s.receivedMonotonicMs = monotonicMs();
    s.receivedWall = QDateTime::currentDateTimeUtc();
    return true;
}

void Poller::takeLeases(const pg::StatementResult* leases, const std::vector<QByteArray>& since,
                        const pg::StatementResult* tableLocks, const std::vector<int>& skipped,
                        pg::Clock::time_point deadline, Snapshot& s)
{
    std::optional<std::vector<std::pair<int, TableLock>>> locks; // known this refresh
    if (tableLocks && tableLocks->result && !tableLocks->error.isError())
        locks = readTableLocks(tableLocks->result.get(), *tables_);
    const bool lockTimeout = leases && leases->error.sqlstate == QLatin1String("55P03");
    if (lockTimeout) // locked since the statement was planned: who holds it
        if (const pg::ResultPtr held = askOnce(tableLocksSelect(*tables_), deadline))
            locks = readTableLocks(held.get(), *tables_);
    std::optional<DbError> lockError;
    if (locks) {
        lockedTables_.clear();
        std::vector<TableLock> said;
        for (const auto& [table, lock] : *locks) {
            if (std::find(lockedTables_.begin(), lockedTables_.end(), table) == lockedTables_.end())
                lockedTables_.push_back(table);
            said.push_back(lock);
        }
        if (!said.empty())
            lockError = tableLockError(said);
    }

    if (lockTimeout && lockError && lockedTables_.size() < tables_->size()) {
        // The other tables, read now, once per lock found this way.
        const pg::Statement whole = leaseSync(conn_, *tables_, {}, lockedTables_, !leaseSyncOff_);
        if (const pg::ResultPtr rest = askOnce(whole, deadline)) {
            ++s.roundTrips;
            decodeLeases(readLeaseSync(rest.get()), {}, deadline, s, lockedTables_);
            s.leasesPartial = lockError;
            return;
        }
    }
    if (!leases) { // every table skipped: the rows as last read (nobody can change them meanwhile)
        if (leaseCache_)
            s.leases = leaseCache_->rows;
        s.leasesError = lockError;
    } else if (leases->error.isError() && !leaseSyncOff_ && isNoRowVersions(leases->error.sqlstate)) {
        // A view (no xmin), or a server without pg_current_snapshot(): whole reads from now on.
        leaseSyncOff_ = true;
        const pg::ResultPtr whole = askOnce(leaseSync(conn_, *tables_, {}, skipped, false), deadline);
        ++s.roundTrips;
        if (whole)
            decodeLeases(readLeaseSync(whole.get()), {}, deadline, s, skipped);
        else
            s.leasesError = leases->error;
    } else if (leases->error.isError()) {
        s.leasesError = lockTimeout && lockError ? lockError : std::optional<DbError>(leases->error);
        if (!lockTimeout) {
            // The table may have been dropped or altered: check it again next time.
            leaseTableChecked_ = false;
            leaseCache_.reset();
        }
    } else if (leases->result) {
        decodeLeases(readLeaseSync(leases->result.get()), since, deadline, s, skipped);
        // Another table found could not be read (no SELECT, or locked): said, while these rows are shown.
        s.leasesPartial = lockError && !skipped.empty() ? lockError : leaseTableError_;
    }
}

std::optional<std::vector<LeaseRow>> Poller::currentLeaseRows(LeaseSyncAnswer& a, const std::vector<QByteArray>& since,
                                                               const std::vector<int>& kept,
                                                               pg::Clock::time_point deadline, Snapshot& s,
                                                               std::vector<QByteArray>& nextSince)
{
    // Read whole, or not read at all (kept): not by row version.
    const auto readWhole = [&](size_t t) {
        return t >= since.size() || since[t].isEmpty() || std::find(kept.begin(), kept.end(), int(t)) != kept.end();
    };
    // A table goes on by row version only while its names are unique by an index.
    nextSince.assign(tables_->size(), {});
    for (size_t t = 0; t < tables_->size(); ++t)
        if (const LeaseSyncAnswer::Table* m = a.table(int(t)); m && m->uniqueNames)
            nextSince[t] = a.snapshotXmin;
    bool byVersion = false;
    for (size_t t = 0; t < tables_->size(); ++t)
        byVersion = byVersion || !readWhole(t);
    if (!leaseCache_ || !byVersion)
        return std::move(a.rows);
    // A table read by row version: the rows the console holds stand, but those written since
    // (matched by key), less those gone. Each of its held rows is either unchanged since (counted
    // by the server) or written since (sent); any other is gone. A name that changed is gone too.
    const LeaseCache& c = *leaseCache_;
    std::vector<int> sentFor(c.rows.size(), -1);
    std::vector<qint64> held(tables_->size(), 0), rewritten(tables_->size(), 0);
    for (const LeaseRow& r : c.rows)
        if (size_t(r.source) < held.size())
            ++held[size_t(r.source)];
    std::vector<int> fresh; // sent rows with no held row of their key
    for (int j = 0; j < int(a.rows.size()); ++j) {
        const LeaseRow& r = a.rows[size_t(j)];
        const int k = readWhole(size_t(r.source)) ? -1 : c.rowOf.value({r.source, r.name}, -1);
        if (k >= 0 && sentFor[size_t(k)] < 0) {
            sentFor[size_t(k)] = j;
            ++rewritten[size_t(r.source)];
        } else {
            fresh.push_back(j);
        }
    }
    std::vector<int> gone; // tables some held row went from
    bool unkeyed = false;  // a table read by row version lost its unique name index
    for (size_t t = 0; t < tables_->size(); ++t) {
        if (readWhole(t))
            continue;
        const LeaseSyncAnswer::Table* m = a.table(int(t));
        unkeyed = unkeyed || !m || !m->uniqueNames;
        if (!m || m->unchanged != held[t] - rewritten[t])
            gone.push_back(int(t));
    }
    QSet<LeaseCache::Key> present;
    if (!gone.empty() && !unkeyed) {
        // Which ones: the names every row of those tables has now (a later snapshot than the
        // read's: a row written in between is still held as read, and its new version is newer
        // than this read's snapshot, so the next read sends it).
        const pg::ResultPtr names = askOnce(leaseNames(conn_, *tables_, gone), deadline);
        ++s.roundTrips;
        if (!names) {
            // Unknown for now: as held, and read whole next time.
            for (int t : gone)
                nextSince[size_t(t)].clear();
            gone.clear();
        } else {
            for (LeaseCache::Key& key : readLeaseNames(names.get(), a.nullName))
                present.insert(std::move(key));
        }
    }
    if (unkeyed) {
        // A written row cannot say which held one it replaced: the tables whole, now (the keyed
        // diff below sees any repeated name), and whole from now on while the index is missing.
        if (const pg::ResultPtr whole = askOnce(leaseSync(conn_, *tables_, {}, kept, true), deadline)) {
            ++s.roundTrips;
            LeaseSyncAnswer w = readLeaseSync(whole.get());
            s.leaseRowsSent += int(w.rows.size());
            for (size_t t = 0; t < tables_->size(); ++t) {
                const LeaseSyncAnswer::Table* m = w.table(int(t));
                nextSince[t] = m && m->uniqueNames ? w.snapshotXmin : QByteArray();
            }
            a.nullName = w.nullName;
            return std::move(w.rows);
        }
        nextSince.assign(tables_->size(), {});
    }
    const auto isGone = [&](const LeaseRow& r, size_t k) {
        return sentFor[k] < 0 && std::find(gone.begin(), gone.end(), r.source) != gone.end() &&
               !present.contains({r.source, r.name});
    };
    // Every table read by row version (the usual case): the held rows are changed in place, by
    // key, without matching every row again (at 100 000 leases that match is most of a refresh's
    // client time). Unless a sent name is new twice, which the keyed diff below tells.
    bool inPlace = !a.nullName;
    for (size_t t = 0; t < tables_->size() && inPlace; ++t)
        inPlace = !readWhole(t) || std::find(kept.begin(), kept.end(), int(t)) != kept.end();
    QSet<LeaseCache::Key> freshKeys;
    for (int j : fresh) {
        if (!inPlace)
            break;
        LeaseCache::Key key{a.rows[size_t(j)].source, a.rows[size_t(j)].name};
        inPlace = !c.rowOf.contains(key) && !freshKeys.contains(key);
        freshKeys.insert(std::move(key));
    }
    if (inPlace) {
        applyInPlace(a, sentFor, fresh, isGone, s);
        return std::nullopt;
    }
    std::vector<LeaseRow> rows;
    rows.reserve(c.rows.size() + a.rows.size());
    for (size_t k = 0; k < c.rows.size(); ++k) {
        const LeaseRow& r = c.rows[k];
        if (readWhole(size_t(r.source)))
            continue; // the answer has its table's rows, or it was not read (kept)
        if (sentFor[k] >= 0)
            rows.push_back(std::move(a.rows[size_t(sentFor[k])]));
        else if (!isGone(r, k))
            rows.push_back(r);
    }
    for (int j : fresh)
        rows.push_back(std::move(a.rows[size_t(j)]));
    return rows;
}

void Poller::applyInPlace(LeaseSyncAnswer& a, const std::vector<int>& sentFor, const std::vector<int>& fresh,
                          const std::function<bool(const LeaseRow&, size_t)>& isGone, Snapshot& s)
{
    std::unique_ptr<LeaseCache> c = std::move(leaseCache_);
    std::vector<LeaseRow> rows(c->rows.begin(), c->rows.end());
    auto d = std::make_shared<LeaseDelta>();
    std::vector<char> changed(rows.size(), 0);
    std::vector<size_t> goneAt;
    for (size_t k = 0; k < rows.size(); ++k) {
        if (sentFor[k] >= 0) {
            LeaseRow& sent = a.rows[size_t(sentFor[k])];
            const LeaseRow& before = rows[k];
            if (before.holder != sent.holder || before.expiresAt != sent.expiresAt || before.takenAt != sent.takenAt) {
                rows[k] = std::move(sent);
                changed[k] = 1;
            }
        } else if (isGone(rows[k], k)) {
            goneAt.push_back(k);
        }
    }
    // Rows are in no particular order: a gone row's place takes the last row (one key moved).
    for (auto it = goneAt.rbegin(); it != goneAt.rend(); ++it) {
        const size_t k = *it, last = rows.size() - 1;
        c->rowOf.remove({rows[k].source, rows[k].name});
        d->gone.push_back(std::move(rows[k]));
        if (k != last) {
            rows[k] = std::move(rows[last]);
            changed[k] = changed[last];
            c->rowOf.insert({rows[k].source, rows[k].name}, int(k));
        }
        rows.pop_back();
        changed.pop_back();
    }
    for (size_t k = 0; k < rows.size(); ++k)
        if (changed[k])
            d->changed.push_back(int(k));
    for (int j : fresh) {
        LeaseRow& row = a.rows[size_t(j)];
        names_.leaseNameAppeared(row.name);
        c->rowOf.insert({row.source, row.name}, int(rows.size()));
        d->added.push_back(int(rows.size()));
        rows.push_back(std::move(row));
    }
    d->source = c->source;
    d->baseSeq = lastLeaseSeq_;
    s.leases = std::move(rows);
    lastLeaseSeq_ = s.seq;
    c->rows = s.leases;
    s.leaseDelta = std::move(d);
    leaseCache_ = std::move(c);
}

void Poller::decodeLeases(LeaseSyncAnswer a, const std::vector<QByteArray>& since, pg::Clock::time_point deadline,
                          Snapshot& s, const std::vector<int>& kept)
{
    s.leaseRowsSent += int(a.rows.size());
    std::vector<QByteArray> nextSince;
    std::optional<std::vector<LeaseRow>> current = currentLeaseRows(a, since, kept, deadline, s, nextSince);
    // The tables read this time go on from this read's snapshot; a table not read, from its own.
    const auto goOn = [&](LeaseCache& c) {
        c.since.resize(tables_->size());
        for (size_t t = 0; t < tables_->size(); ++t)
            if (std::find(kept.begin(), kept.end(), int(t)) == kept.end())
                c.since[t] = nextSince[t];
    };
    if (!current) { // changed in place
        goOn(*leaseCache_);
        return;
    }
    std::vector<LeaseRow>& read = *current;
    // Every row matched by key with the previous read; the delta names the keys that are new,
    // changed or gone, so that the tracker looks only at those (1 % of 100 000 leases renew per
    // refresh). An unchanged row is the previous read's (its strings shared, not kept twice). The
    // key → row index is updated in place, not built anew: at 100 000 leases a second one alive
    // during the read is ~10 MiB of resident memory.
    const int n = int(read.size());
    const bool hasBase = leaseCache_ != nullptr; // else every row is new: the tracker compares every row
    std::unique_ptr<LeaseCache> c = hasBase ? std::move(leaseCache_) : std::make_unique<LeaseCache>();
    auto d = std::make_shared<LeaseDelta>();
    bool keyed = !a.nullName; // names unique and not NULL: else no delta, the tracker compares every row
    std::vector<LeaseRow> rows;
    rows.reserve(size_t(n));
    std::vector<char> seen(c->rows.size(), 0);
    QSet<LeaseCache::Key> addedKeys;
    for (int i = 0; i < n; ++i) {
        LeaseRow& row = read[size_t(i)];
        LeaseCache::Key key{row.source, row.name};
        const int was = c->rowOf.value(key, -1);
        if (was < 0 || seen[size_t(was)]) {
            if (was >= 0 || addedKeys.contains(key))
                keyed = false; // a repeated name
            addedKeys.insert(key);
            names_.leaseNameAppeared(row.name);
            d->added.push_back(i);
        } else {
            seen[size_t(was)] = 1;
            const LeaseRow& before = c->rows[size_t(was)];
            if (before.holder != row.holder || before.expiresAt != row.expiresAt || before.takenAt != row.takenAt)
                d->changed.push_back(i);
            else
                row = before;
        }
        rows.push_back(std::move(row));
    }
    for (size_t k = 0; k < seen.size(); ++k)
        if (!seen[k]) {
            if (std::find(kept.begin(), kept.end(), c->rows[k].source) != kept.end()) {
                rows.push_back(c->rows[k]); // its table was not read: its rows as last read
                continue;
            }
            d->gone.push_back(c->rows[k]);
            c->rowOf.remove({c->rows[k].source, c->rows[k].name});
        }
    if (c->source == 0)
        c->source = ++g_leaseSources;
    d->source = c->source;
    d->baseSeq = hasBase ? lastLeaseSeq_ : 0;
    s.leases = std::move(rows);
    lastLeaseSeq_ = s.seq;
    if (keyed) {
        for (int i = 0; i < int(s.leases.size()); ++i)
            c->rowOf.insert({s.leases[size_t(i)].source, s.leases[size_t(i)].name}, i);
        c->rows = s.leases;
        goOn(*c);
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
