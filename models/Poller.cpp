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

LeasePolicy leasePolicyFor(const PollerConfig& cfg)
{
    LeasePolicy p;
    p.refreshIntervalS = cfg.intervalMs / 1000.0;
    return policyForTable(p, cfg.leases);
}

// The previous read of the leases: each row's bytes (to compare, cell by cell, with the next read),
// where each row went in Snapshot::leases ("slots"), and the slots by name. Unchanged rows are not
// decoded again, nor copied anywhere.
struct Poller::LeaseCache
{
    // Each slot's row as a record (per column: int32 length, -1 for NULL, then the bytes) in one
    // arena, in slot order: compared in one sequential pass while the row order holds. A changed
    // record of the same size is overwritten in place; another size goes to the end, and the arena
    // is compacted when half of it is dead.
    std::vector<char> arena;
    std::vector<quint32> recOff, recLen; // by slot
    size_t deadBytes = 0;
    // Scratch of the next read, kept with their capacity: megabytes allocated afresh per refresh
    // cost page faults that dwarf the comparison itself.
    std::vector<int> spareOrder, pos;
    std::vector<char> dirty;
    std::vector<char> scratch;     // one changed row's record
    std::vector<int> prevOrder;    // slot of each previous row
    std::vector<int> prevPos;      // previous row of each slot, made from prevOrder when needed
    bool prevPosValid = false;
    QHash<QByteArray, int> slotOf; // name bytes → slot
    std::vector<QByteArray> keys;  // by slot: name bytes
    LeaseRows rows;             // by slot: Snapshot::leases
    std::vector<quint32> seen;     // by slot: epoch of the last read that saw it
    quint32 epoch = 0;
    quint64 source = 0;
    int nameCol = 0; // 1 when the rows start with their binary xmin (leaseSelect's rowVersion)

    const char* record(int slot) const { return arena.data() + recOff[size_t(slot)]; }
    void appendSlotRecord(const PGresult* r, int i);

    // With an xmin (nameCol 1): each slot's xmin and (up to 18 bytes of) name, 24 bytes a slot, in
    // their own array. An unchanged row is told from these alone: the arena (90 bytes a row) stays out of
    // the cache, which is what the comparison of 100 000 rows mostly waited for.
    struct FastKey
    {
        char xmin[4];
        quint16 nameLen; // kLongName: compare with the record
        char name[18];
    };
    static constexpr quint16 kLongName = 0xffff;
    std::vector<FastKey> fast; // by slot, when nameCol is 1
    void setFastKey(int slot, const PGresult* r, int i);
    inline bool sameVersion(int slot, const PGresult* r, int i) const;
    void compact();
};

namespace {
std::atomic<quint64> g_leaseSources{0};

// The row's lease; its name is at column `nameCol` (1 after an xmin). `was`, the same lease's
// previous row (a renewal, usually), lends its name and, when `sameHolder`, its holder: strings
// already decoded.
LeaseRow leaseRowAt(const PGresult* r, int i, int nameCol, const LeaseRow* was = nullptr, bool sameHolder = false)
{
    LeaseRow row;
    if (was)
        row.name = was->name;
    else
        row.name = PQgetisnull(r, i, nameCol) ? QString() : toString(r, i, nameCol);
    if (was && sameHolder)
        row.holder = was->holder;
    else if (!PQgetisnull(r, i, nameCol + 1))
        row.holder = toString(r, i, nameCol + 1);
    row.takenAt = optDouble(r, i, nameCol + 2);
    row.expiresAt = optDouble(r, i, nameCol + 3);
    return row;
}

// Where a lease result's name column is: 1 when it starts with the rows' xmin (binary, 4 bytes:
// leaseSelect() asks for binary results), 0 without; -1 for a shape the cache does not know.
int leaseNameColumn(const PGresult* r)
{
    const int n = PQnfields(r);
    if (n == 5 && std::strcmp(PQfname(r, 0), "xmin") == 0)
        return PQfformat(r, 0) == 1 && PQfsize(r, 0) == 4 ? 1 : -1;
    return n == 4 ? 0 : -1;
}

// Appends row i's record of columns [firstColumn, columns) (each: length, or -1 for NULL, then the
// bytes); returns the length of the first part. One resize per row and plain copies: this runs for
// every row of every refresh.
constexpr int kMaxRecordColumns = 16;
size_t appendRecord(const PGresult* r, int i, std::vector<char>& out, int columns = 4, int firstColumn = 0)
{
    qint32 lens[kMaxRecordColumns];
    size_t total = 0;
    for (int col = firstColumn; col < columns; ++col) {
        lens[col] = PQgetlength(r, i, col);
        if (lens[col] == 0 && PQgetisnull(r, i, col)) // NULL and '' both have length 0
            lens[col] = -1;
        total += sizeof(qint32) + size_t(std::max(lens[col], 0));
    }
    const size_t at = out.size();
    out.resize(at + total);
    char* p = out.data() + at;
    for (int col = firstColumn; col < columns; ++col) {
        std::memcpy(p, &lens[col], sizeof(qint32));
        p += sizeof(qint32);
        if (lens[col] > 0) {
            std::memcpy(p, PQgetvalue(r, i, col), size_t(lens[col]));
            p += lens[col];
        }
    }
    return sizeof(qint32) + size_t(std::max(lens[firstColumn], 0));
}
// An arena of records (by index: offset, length) with `dead` bytes no index refers to, packed
// in index order. The lease cache and the sessions replace changed records at the arena's end.
void packRecords(std::vector<char>& arena, std::vector<quint32>& off, const std::vector<quint32>& len, size_t& dead)
{
    std::vector<char> packed;
    packed.reserve(arena.size() - dead + 4096);
    for (size_t k = 0; k < off.size(); ++k) {
        const size_t at = packed.size();
        packed.insert(packed.end(), arena.data() + off[k], arena.data() + off[k] + len[k]);
        off[k] = quint32(at);
    }
    arena = std::move(packed);
    dead = 0;
}

// Two overlapping words cover any length from one word to two: no loop, no call.
template <typename Word> bool sameWords(const char* a, const char* b, size_t n)
{
    Word a0, a1, b0, b1;
    std::memcpy(&a0, a, sizeof a0);
    std::memcpy(&b0, b, sizeof b0);
    std::memcpy(&a1, a + n - sizeof a1, sizeof a1);
    std::memcpy(&b1, b + n - sizeof b1, sizeof b1);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

// Equal bytes. Most cells are short (pids, modes, epochs, an xmin, a name): compared a word at a
// time, where a call to memcmp per cell cost more than the libpq calls that fetch the cell.
inline bool sameBytes(const char* a, const char* b, size_t n)
{
    if (n > 16)
        return std::memcmp(a, b, n) == 0;
    if (n >= 8)
        return sameWords<quint64>(a, b, n);
    if (n >= 4)
        return sameWords<quint32>(a, b, n);
    for (size_t k = 0; k < n; ++k)
        if (a[k] != b[k])
            return false;
    return true;
}

// Whether row i's cells [firstColumn, columns) are exactly the record at `rec` (appendRecord's
// format), read in place: no copy of the row. Returns the end of the record, or null.
const char* matchRecord(const PGresult* r, int i, const char* rec, int columns, int firstColumn = 0)
{
    for (int col = firstColumn; col < columns; ++col) {
        qint32 len = PQgetlength(r, i, col);
        if (len == 0 && PQgetisnull(r, i, col))
            len = -1;
        qint32 stored;
        std::memcpy(&stored, rec, sizeof stored);
        rec += sizeof stored;
        if (stored != len)
            return nullptr;
        if (len > 0) {
            if (!sameBytes(rec, PQgetvalue(r, i, col), size_t(len)))
                return nullptr;
            rec += len;
        }
    }
    return rec;
}
bool sameAsRecord(const PGresult* r, int i, const char* rec, int columns, int firstColumn = 0)
{
    return matchRecord(r, i, rec, columns, firstColumn) != nullptr;
}

// The length of a record's first column's part (length field and bytes).
size_t firstPartSize(const char* rec)
{
    qint32 len;
    std::memcpy(&len, rec, sizeof len);
    return sizeof len + size_t(std::max(len, 0));
}
// The record past its first n columns.
const char* skipParts(const char* rec, int n)
{
    for (; n > 0; --n)
        rec += firstPartSize(rec);
    return rec;
}
} // namespace

void Poller::LeaseCache::appendSlotRecord(const PGresult* r, int i)
{
    const size_t at = arena.size();
    appendRecord(r, i, arena, nameCol + 4);
    recOff.push_back(quint32(at));
    recLen.push_back(quint32(arena.size() - at));
    if (nameCol == 1)
        setFastKey(int(recOff.size()) - 1, r, i);
}

void Poller::LeaseCache::setFastKey(int slot, const PGresult* r, int i)
{
    if (size_t(slot) >= fast.size())
        fast.resize(size_t(slot) + 1);
    FastKey& k = fast[size_t(slot)];
    std::memcpy(k.xmin, PQgetvalue(r, i, 0), sizeof k.xmin);
    const int len = PQgetlength(r, i, 1);
    k.nameLen = len > 0 && size_t(len) <= sizeof k.name ? quint16(len) : kLongName;
    if (k.nameLen != kLongName)
        std::memcpy(k.name, PQgetvalue(r, i, 1), size_t(len));
}

[[gnu::always_inline]] inline bool Poller::LeaseCache::sameVersion(int slot, const PGresult* r, int i) const
{
    const FastKey& k = fast[size_t(slot)];
    if (!sameBytes(k.xmin, PQgetvalue(r, i, 0), sizeof k.xmin))
        return false;
    const int len = PQgetlength(r, i, 1);
    if (k.nameLen != kLongName)
        return len == k.nameLen && sameBytes(k.name, PQgetvalue(r, i, 1), size_t(len));
    // A long name: the record's (past its xmin part).
    const char* rec = record(slot) + sizeof(qint32) + sizeof k.xmin;
    qint32 stored;
    std::memcpy(&stored, rec, sizeof stored);
    return stored == len && len > 0 && sameBytes(rec + sizeof stored, PQgetvalue(r, i, 1), size_t(len));
}

void Poller::LeaseCache::compact()
{
    packRecords(arena, recOff, recLen, deadBytes);
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
    refreshesSinceTrim_ = 0;
    goodJobNames_.clear();
    goodJobMissed_.clear();
    goodJobLookup_ = true;
    keyNames_.reset();
    keyCollisions_.reset();
    leaseCache_.reset(); // another server, maybe: every lease is read afresh (and hashed)
    lastAnalysis_.reset();
    haveLocks_ = false;
    lastLockBytes_.clear();
    lastSessions_.clear();
    sessionArena_.clear();
    sessionOff_.clear();
    sessionLen_.clear();
    sessionDead_ = 0;
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
    publishKeyNames();
}

void Poller::publishKeyNames()
{
    auto names = std::make_shared<KeyNames>();
    for (auto it = hashCache_.constBegin(); it != hashCache_.constEnd(); ++it)
        (*names)[it.value()] << it.key();
    for (auto& list : *names)
        list.sort();
    keyCollisions_ = std::make_shared<const KeyNames>(keyCollisions(*names));
    keyNames_ = std::move(names);
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
    for (auto it = hashCache_.begin(); it != hashCache_.end();)
        it = keep.contains(it.key()) || held.contains(it.value()) ? std::next(it) : hashCache_.erase(it);
    publishKeyNames();
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
        if (!goodJobNames_.contains(l.key) && !(keyNames_ && keyNames_->contains(l.key)) &&
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
    pg::PgError err;
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
        const pg::PgError e = conn_.runPipeline(stmts, res, deadline);
        if (e.needsReconnect() || res.size() != stmts.size()) {
            s.error = e;
            if (!s.error.isError()) {
                s.error.kind = pg::PgError::Kind::Query;
                s.error.message = QStringLiteral("the lease-table check returned no result");
            }
            s.receivedWall = QDateTime::currentDateTime();
            return s;
        }
        if (!known.isEmpty() && !res.back().error.isError())
            addHashes(res.back().result.get());
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
            leaseRowVersions_ = d.rowVersions;
            if (tables.empty() && !d.problem)
                leasesAbsent_ = noLeaseTableText();
        } else {
            // A named table is checked: exists, privileges, columns.
            const std::vector<pg::StatementResult> check(std::make_move_iterator(res.begin()),
                                                         std::make_move_iterator(res.begin() + long(keysIdx)));
            leaseTableError_ = interpretLeaseTableCheck(cfg_.leases, check);
            leaseRowVersions_ = !leaseTableError_ && leaseTableHasRowVersions(check);
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
        stmts.push_back(tables_->size() == 1 ? leaseSelect(conn_, tables_->front(), leaseRowVersions_)
                                             : leaseSelectAll(conn_, *tables_));
    // After the leases: should GoodJob's tables have gone, only this statement and the next fail.
    const int goodJobIdx = readLocks && !goodJobSchemas_.empty() && goodJobLookup_ ? int(stmts.size()) : -1;
    if (goodJobIdx >= 0)
        stmts.push_back({goodJobLockSql(goodJobSchemas_), {}});
    const int serverTimeIdx = int(stmts.size());
    stmts.push_back({kServerTimeSql_, {}});

    std::vector<pg::StatementResult> res;
    const auto t0 = pg::Clock::now();
    const pg::PgError e = conn_.runPipeline(stmts, res, deadline);
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
        const int cols = std::min(PQnfields(r), kMaxRecordColumns);
        // A backend's row is usually what it was last time (idle sessions, pg_stat_activity's slot
        // order): the same bytes at the same place keep the previous values, no decoding. With as
        // many rows as last time, the previous rows are shared and only the changed ones replaced.
        const size_t prevCount = lastSessions_.size();
        const bool sameCount = size_t(n) == prevCount;
        if (sameCount)
            s.sessions = lastSessions_;
        std::array<bool, kMaxRecordColumns> sameCell{};
        for (int i = 0; i < n; ++i) {
            const SessionRow* was = nullptr;
            if (size_t(i) < prevCount) {
                // Compared in place with last time's record, as the locks and the leases are.
                const char* prev = sessionArena_.data() + sessionOff_[size_t(i)];
                if (matchRecord(r, i, prev, cols) == prev + sessionLen_[size_t(i)]) {
                    if (!sameCount)
                        s.sessions.push_back(std::as_const(lastSessions_)[size_t(i)]);
                    continue;
                }
                // Changed: usually the same backend with a new state, query or times. A cell with
                // the same bytes as last time's keeps its value (strings already decoded).
                was = &std::as_const(lastSessions_)[size_t(i)]; // const: reading must not copy its chunk
                for (int col = 0; col < cols; ++col) {
                    sameCell[size_t(col)] = sameAsRecord(r, i, prev, col + 1, col);
                    prev += firstPartSize(prev);
                }
                sessionDead_ += sessionLen_[size_t(i)];
            }
            const size_t at = sessionArena_.size();
            appendRecord(r, i, sessionArena_, cols);
            if (size_t(i) < prevCount) {
                sessionOff_[size_t(i)] = quint32(at);
                sessionLen_[size_t(i)] = quint32(sessionArena_.size() - at);
            } else {
                sessionOff_.push_back(quint32(at));
                sessionLen_.push_back(quint32(sessionArena_.size() - at));
            }
            auto same = [&](int col) { return was && sameCell[size_t(col)]; };
            auto text = [&](int col, const QString SessionRow::*field) {
                return same(col) ? was->*field : toString(r, i, col);
            };
            auto instant = [&](int col, const std::optional<double> SessionRow::*field) {
                return same(col) ? was->*field : optDouble(r, i, col);
            };
            SessionRow row;
            row.pid = int(toDouble(r, i, 0));
            row.database = text(1, &SessionRow::database);
            row.user = text(2, &SessionRow::user);
            row.applicationName = text(3, &SessionRow::applicationName);
            row.clientAddr = text(4, &SessionRow::clientAddr);
            row.clientPort = same(5) ? was->clientPort : PQgetisnull(r, i, 5) ? -1 : int(toDouble(r, i, 5));
            row.backendStart = instant(6, &SessionRow::backendStart);
            row.xactStart = instant(7, &SessionRow::xactStart);
            row.queryStart = instant(8, &SessionRow::queryStart);
            row.stateChange = instant(9, &SessionRow::stateChange);
            row.state = text(10, &SessionRow::state);
            row.waitEventType = text(11, &SessionRow::waitEventType);
            row.waitEvent = text(12, &SessionRow::waitEvent);
            row.query = text(13, &SessionRow::query);
            if (same(14))
                row.blockedBy = was->blockedBy;
            else if (!PQgetisnull(r, i, 14))
                row.blockedBy = parseIntArray(PQgetvalue(r, i, 14));
            if (sameCount)
                s.sessions[size_t(i)] = std::move(row); // unshares its chunk of 16 rows only
            else
                s.sessions.push_back(std::move(row));
        }
        for (size_t i = size_t(n); i < prevCount; ++i)
            sessionDead_ += sessionLen_[i];
        sessionOff_.resize(size_t(n));
        sessionLen_.resize(size_t(n));
        if (sessionDead_ > sessionArena_.size() / 2)
            packRecords(sessionArena_, sessionOff_, sessionLen_, sessionDead_);
        lastSessions_ = s.sessions;
    }
    const PGresult* locks = locksIdx >= 0 ? res[size_t(locksIdx)].result.get() : nullptr;
    if (locks) {
        decodeLocks(locks, s);
        lastLocks_ = s.advisoryLocks; // shares the chunks
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
        addHashes(res[size_t(hashIdx)].result.get());
    if (goodJobIdx >= 0 && res[size_t(goodJobIdx)].error.isError())
        goodJobSchemas_.clear(); // gone or not readable: found again, or not, at the next check
    else if (locks)
        updateGoodJobNames(goodJobIdx >= 0 ? res[size_t(goodJobIdx)].result.get() : nullptr, s);
    if (!keyNames_) {
        keyNames_ = std::make_shared<KeyNames>();
        keyCollisions_ = std::make_shared<KeyNames>();
    }
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
            if (tables_->size() == 1)
                decodeLeases(lr.result.get(), s);
            else
                decodeLeasesTagged(lr.result.get(), s);
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
    // The advisory rows' bytes, compared with the previous read's: unchanged (the usual case, even
    // with thousands of locks held), the previous values are shared as they are, and the models
    // see the same storage (AdvisoryLockModel then updates its rows without keying them again).
    // Compared in place with the previous read's records first: unchanged, nothing is copied.
    const int cols = std::min(PQnfields(r), kMaxRecordColumns);
    if (haveLocks_) {
        const char* at = lastLockBytes_.data();
        const char* const end = at + lastLockBytes_.size();
        bool same = true;
        for (int i = 0; i < n && same; ++i)
            if (PQgetvalue(r, i, 0)[0] == 't') { // advisory: the rest of the row is compared
                at = at < end ? matchRecord(r, i, at, cols, 1) : nullptr;
                same = at != nullptr;
            }
        if (same && at == end) {
            s.advisoryLocks = lastLocks_;
            return;
        }
    }
    std::vector<char> bytes;
    bytes.reserve(lastLockBytes_.size());
    for (int i = 0; i < n; ++i)
        if (PQgetvalue(r, i, 0)[0] == 't')
            appendRecord(r, i, bytes, cols, 1);
    lastLockBytes_ = std::move(bytes);
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
        s.advisoryLocks.push_back(std::move(l));
    }
}

void Poller::decodeLeasesFully(const PGresult* r, Snapshot& s)
{
    const int n = PQntuples(r);
    leaseCache_.reset();
    auto c = std::make_unique<LeaseCache>();
    c->source = ++g_leaseSources;
    bool cacheable = leaseNameColumn(r) >= 0;
    const int nameCol = std::max(leaseNameColumn(r), 0);
    c->nameCol = nameCol;
    c->prevOrder.resize(size_t(n));
    c->keys.reserve(size_t(n));
    c->slotOf.reserve(n);
    c->recOff.reserve(size_t(n));
    c->recLen.reserve(size_t(n));
    namesToHash_.clear();
    namesToHash_.reserve(n);
    for (int i = 0; i < n; ++i) {
        LeaseRow row = leaseRowAt(r, i, nameCol);
        if (cacheable) {
            // Rows are matched by name: NULL or repeated names (a mapped column that is not unique)
            // are compared in full by the model instead.
            const QByteArray key(PQgetvalue(r, i, nameCol), PQgetlength(r, i, nameCol));
            if (PQgetisnull(r, i, nameCol) || c->slotOf.contains(key))
                cacheable = false;
            c->slotOf.insert(key, i);
            c->keys.push_back(key);
            c->appendSlotRecord(r, i);
        }
        c->prevOrder[size_t(i)] = i;
        namesToHash_ << row.name;
        c->rows.push_back(std::move(row));
    }
    s.leases = c->rows;
    if (!cacheable)
        return;
    c->seen.assign(size_t(n), 0);
    auto d = std::make_shared<LeaseDelta>();
    d->source = c->source; // baseSeq 0: no base, the model compares every row
    s.leaseDelta = std::move(d);
    leaseCache_ = std::move(c);
}

void Poller::decodeLeasesTagged(const PGresult* r, Snapshot& s)
{
    // Several tables, a few rows each (library tables): decoded plainly, no delta (the model
    // compares every row). The fifth column is the row's table.
    leaseCache_.reset();
    const int n = PQntuples(r);
    namesToHash_.clear();
    for (int i = 0; i < n; ++i) {
        LeaseRow row = leaseRowAt(r, i, 0);
        if (!PQgetisnull(r, i, 4) && PQgetlength(r, i, 4) == 4)
            row.source = qFromBigEndian<qint32>(PQgetvalue(r, i, 4));
        namesToHash_ << row.name;
        s.leases.push_back(std::move(row));
    }
}

void Poller::decodeLeases(const PGresult* r, Snapshot& s)
{
    const int n = PQntuples(r);
    LeaseCache* c = leaseCache_.get();
    auto full = [&] {
        decodeLeasesFully(r, s);
        lastLeaseSeq_ = s.seq;
    };
    if (!c || leaseNameColumn(r) != c->nameCol) {
        full();
        return;
    }
    const int nameCol = c->nameCol;
    const int cols = nameCol + 4;
    const int prevN = int(c->prevOrder.size());
    const size_t baseSize = c->rows.size();
    const quint32 epoch = ++c->epoch;
    std::vector<int> order = std::move(c->spareOrder);
    order.assign(size_t(n), -1);
    std::vector<char>& dirty = c->dirty;
    dirty.assign(baseSize, 0);
    size_t matched = 0, changedCount = 0; // slots met again; of them, changed
    // Each slot's previous row, only where the order differs (the loop below keeps none).
    auto prevPosOf = [c, prevN, baseSize](int slot) {
        if (!c->prevPosValid) {
            c->prevPos.assign(baseSize, -1);
            for (int k = 0; k < prevN; ++k)
                c->prevPos[size_t(c->prevOrder[size_t(k)])] = k;
            c->prevPosValid = true;
        }
        return c->prevPos[size_t(slot)];
    };
    std::vector<int> fresh; // rows of r with a name not seen before
    QHash<QByteArray, int> freshNames;
    int j = 0;
    for (int i = 0; i < n; ++i) {
        while (j < prevN && c->seen[size_t(c->prevOrder[size_t(j)])] == epoch)
            ++j; // met earlier, out of order
        int slot = -1;
        // The whole row as last time. Unchanged rows keep their place in the heap, so the previous
        // result's next row is usually this one: one comparison, of the xmin and the name (its fast
        // key: the same name and xmin are the same row version) when the rows have their xmin, else
        // of every cell. The hash is consulted only where the order differs.
        const bool same = j < prevN && (nameCol == 1 ? c->sameVersion(c->prevOrder[size_t(j)], r, i)
                                                     : sameAsRecord(r, i, c->record(c->prevOrder[size_t(j)]), 4));
        if (same) {
            slot = c->prevOrder[size_t(j)];
            ++j;
            c->seen[size_t(slot)] = epoch;
            order[size_t(i)] = slot;
            ++matched;
            continue;
        }
        const int nameLen = PQgetlength(r, i, nameCol);
        const char* name = PQgetvalue(r, i, nameCol);
        if (nameLen == 0 && PQgetisnull(r, i, nameCol))
            return full(); // a NULL name
        if (j < prevN && sameAsRecord(r, i, skipParts(c->record(c->prevOrder[size_t(j)]), nameCol), nameCol + 1,
                                      nameCol)) {
            slot = c->prevOrder[size_t(j)];
            ++j;
        } else if (const auto it = c->slotOf.constFind(QByteArray::fromRawData(name, nameLen));
                   it != c->slotOf.constEnd()) {
            slot = *it;
            if (c->seen[size_t(slot)] == epoch)
                return full(); // a repeated name
            if (const int p = prevPosOf(slot); p >= j)
                j = p + 1;
        }
        if (slot < 0) {
            const QByteArray key(name, nameLen);
            if (freshNames.contains(key))
                return full(); // a repeated name
            freshNames.insert(key, i);
            fresh.push_back(i);
            continue;
        }
        c->seen[size_t(slot)] = epoch;
        order[size_t(i)] = slot;
        ++matched;
        // The same name, another version (or, without xmin, other bytes): the lease changed unless
        // only its xmin did (an UPDATE that wrote the same values); the record takes the new xmin.
        const char* afterHolder = matchRecord(r, i, skipParts(c->record(slot), nameCol + 1), nameCol + 2, nameCol + 1);
        const bool sameHolder = afterHolder != nullptr;
        const bool changed = !sameHolder || !sameAsRecord(r, i, afterHolder, cols, nameCol + 2);
        if (changed || nameCol > 0) {
            c->scratch.clear();
            appendRecord(r, i, c->scratch, cols);
            if (c->scratch.size() == c->recLen[size_t(slot)]) {
                std::memcpy(c->arena.data() + c->recOff[size_t(slot)], c->scratch.data(), c->scratch.size());
            } else {
                c->deadBytes += c->recLen[size_t(slot)];
                c->recOff[size_t(slot)] = quint32(c->arena.size());
                c->recLen[size_t(slot)] = quint32(c->scratch.size());
                c->arena.insert(c->arena.end(), c->scratch.begin(), c->scratch.end());
            }
            if (nameCol == 1)
                c->setFastKey(slot, r, i);
        }
        if (changed) {
            // Usually a renewal: the name (the slot was found by it) and mostly the holder are
            // strings already decoded; only the times are read.
            LeaseRow row = leaseRowAt(r, i, nameCol, &std::as_const(c->rows)[size_t(slot)], sameHolder);
            c->rows[size_t(slot)] = std::move(row); // copies only the chunk it lands in, if shared
            dirty[size_t(slot)] = 1;
            ++changedCount;
        }
    }

    auto d = std::make_shared<LeaseDelta>();
    d->source = c->source;
    d->baseSeq = lastLeaseSeq_;
    d->baseSize = baseSize;
    // Rows gone: the last slot moves into the hole (highest hole first, so the last slot is never
    // itself gone).
    std::vector<int>& pos = c->pos; // each slot's row, for the moves
    if (matched < baseSize) {
        pos.assign(baseSize, -1);
        for (int i = 0; i < n; ++i)
            if (order[size_t(i)] >= 0)
                pos[size_t(order[size_t(i)])] = i;
    }
    for (int h = matched < baseSize ? int(baseSize) - 1 : -1; h >= 0; --h) {
        if (c->seen[size_t(h)] == epoch)
            continue;
        const int last = int(c->rows.size()) - 1;
        c->slotOf.remove(c->keys[size_t(h)]);
        c->deadBytes += c->recLen[size_t(h)];
        if (h != last) {
            c->rows[size_t(h)] = c->rows[size_t(last)];
            c->keys[size_t(h)] = std::move(c->keys[size_t(last)]);
            c->slotOf.insert(c->keys[size_t(h)], h);
            c->seen[size_t(h)] = c->seen[size_t(last)];
            c->recOff[size_t(h)] = c->recOff[size_t(last)];
            if (nameCol == 1)
                c->fast[size_t(h)] = c->fast[size_t(last)];
            c->recLen[size_t(h)] = c->recLen[size_t(last)];
            pos[size_t(h)] = pos[size_t(last)];
            dirty[size_t(h)] = dirty[size_t(last)];
            order[size_t(pos[size_t(h)])] = h;
        }
        c->rows.pop_back();
        c->keys.pop_back();
        c->seen.pop_back();
        c->recOff.pop_back();
        c->recLen.pop_back();
        if (nameCol == 1)
            c->fast.pop_back();
        pos.pop_back();
        dirty.pop_back();
        d->moves.emplace_back(h, last);
    }
    for (auto it = dirty.begin(); changedCount > 0; ++it) {
        it = std::find(it, dirty.end(), char(1));
        d->changed.push_back(int(it - dirty.begin()));
        --changedCount;
    }
    d->appendedFrom = c->rows.size();
    for (int i : fresh) {
        const int slot = int(c->rows.size());
        c->rows.push_back(leaseRowAt(r, i, nameCol));
        const QByteArray key =
            freshNames.constFind(QByteArray::fromRawData(PQgetvalue(r, i, nameCol), PQgetlength(r, i, nameCol)))
                .key();
        c->slotOf.insert(key, slot);
        c->keys.push_back(key);
        c->seen.push_back(epoch);
        c->appendSlotRecord(r, i);
        order[size_t(i)] = slot;
        namesToHash_ << c->rows[size_t(slot)].name;
    }
    if (c->deadBytes > c->arena.size() / 2)
        c->compact();
    std::swap(c->prevOrder, order);
    c->prevPosValid = false;
    c->spareOrder = std::move(order);
    s.leases = c->rows;
    s.leaseDelta = std::move(d);
    lastLeaseSeq_ = s.seq;
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
