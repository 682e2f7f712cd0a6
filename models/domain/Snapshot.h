#pragma once
// Plain values handed from the polling worker to the GUI thread: one Snapshot per refresh.
#include "domain/LeaseTable.h"
#include "pg/PgError.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <QHash>
#include <QStringList>

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <vector>

namespace lw {

// A vector whose copies share storage in chunks (copy on write per chunk). A snapshot is copied
// on its way to the GUI thread (queued signal, Monitor::last_) and the poller changes a few rows of
// 100 000 per refresh: copies cost one pointer per chunk and a change copies one chunk, not the
// whole table. The std::vector subset the code uses; mutable access detaches the chunk it touches.
template <typename T, size_t Shift = 9>
class CowVector
{
    static constexpr size_t kShift = Shift; // 512 rows a chunk by default
    static constexpr size_t kChunk = size_t(1) << kShift;
    using Chunk = std::vector<T>;

public:
    using value_type = T;
    using size_type = size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;

    template <bool Const>
    class Iter
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = std::conditional_t<Const, const T*, T*>;
        using reference = std::conditional_t<Const, const T&, T&>;
        using Owner = std::conditional_t<Const, const CowVector, CowVector>;

        Iter() = default;
        Iter(Owner* v, size_t i) : v_(v), i_(i) {}
        operator Iter<true>() const { return Iter<true>(v_, i_); }
        reference operator*() const { return v_->chunks_[i_ >> kShift]->operator[](i_ & (kChunk - 1)); }
        pointer operator->() const { return &**this; }
        reference operator[](difference_type n) const { return *(*this + n); }
        Iter& operator++() { return ++i_, *this; }
        Iter operator++(int) { return Iter(v_, i_++); }
        Iter& operator--() { return --i_, *this; }
        Iter operator--(int) { return Iter(v_, i_--); }
        Iter& operator+=(difference_type n) { return i_ = size_t(difference_type(i_) + n), *this; }
        Iter& operator-=(difference_type n) { return i_ = size_t(difference_type(i_) - n), *this; }
        friend Iter operator+(Iter a, difference_type n) { return a += n; }
        friend Iter operator+(difference_type n, Iter a) { return a += n; }
        friend Iter operator-(Iter a, difference_type n) { return a -= n; }
        friend difference_type operator-(const Iter& a, const Iter& b)
        {
            return difference_type(a.i_) - difference_type(b.i_);
        }
        friend bool operator==(const Iter& a, const Iter& b) { return a.i_ == b.i_; }
        friend auto operator<=>(const Iter& a, const Iter& b) { return a.i_ <=> b.i_; }

    private:
        Owner* v_ = nullptr;
        size_t i_ = 0;
    };
    using iterator = Iter<false>;
    using const_iterator = Iter<true>;

    CowVector() = default;
    CowVector(std::initializer_list<T> l) { assignRange(l.begin(), l.end()); }
    CowVector(const std::vector<T>& v) { assignRange(v.begin(), v.end()); } // NOLINT: drop-in for vector
    CowVector& operator=(const std::vector<T>& v) { return clear(), assignRange(v.begin(), v.end()), *this; }
    CowVector& operator=(std::initializer_list<T> l) { return clear(), assignRange(l.begin(), l.end()), *this; }
    operator std::vector<T>() const { return std::vector<T>(begin(), end()); } // NOLINT

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // The same storage (a copy neither side has written to since): equal without reading a row.
    bool sharesStorageWith(const CowVector& o) const { return size_ == o.size_ && chunks_ == o.chunks_; }
    const T& operator[](size_t i) const { return (*chunks_[i >> kShift])[i & (kChunk - 1)]; }
    T& operator[](size_t i) { return (*writable(i >> kShift))[i & (kChunk - 1)]; }
    const T& at(size_t i) const { return operator[](i); }
    const T& front() const { return (*this)[0]; }
    const T& back() const { return (*this)[size_ - 1]; }
    T& front() { return (*this)[0]; }
    T& back() { return (*this)[size_ - 1]; }

    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size_}; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    // Mutable iteration may write anywhere: every chunk is made private first.
    iterator begin() { return detachAll(), iterator{this, 0}; }
    iterator end() { return detachAll(), iterator{this, size_}; }

    void reserve(size_t) {}
    void clear() { chunks_.clear(), size_ = 0; }
    void push_back(T v)
    {
        if ((size_ & (kChunk - 1)) == 0) {
            chunks_.push_back(std::make_shared<Chunk>());
            chunks_.back()->reserve(kChunk);
        }
        writable(size_ >> kShift)->push_back(std::move(v));
        ++size_;
    }
    template <typename... A>
    T& emplace_back(A&&... a)
    {
        push_back(T(std::forward<A>(a)...));
        return back();
    }
    void pop_back()
    {
        writable((size_ - 1) >> kShift)->pop_back();
        if ((--size_ & (kChunk - 1)) == 0)
            chunks_.pop_back();
    }
    void resize(size_t n, const T& v = T())
    {
        while (size_ > n)
            pop_back();
        while (size_ < n)
            push_back(v);
    }
    void assign(size_t n, const T& v) { clear(), resize(n, v); }
    bool operator==(const CowVector& o) const
    {
        if (size_ != o.size_)
            return false;
        for (size_t c = 0; c < chunks_.size(); ++c)
            if (chunks_[c] != o.chunks_[c] && !(*chunks_[c] == *o.chunks_[c]))
                return false;
        return true;
    }
    bool operator==(const std::vector<T>& o) const
    {
        return size_ == o.size() && std::equal(begin(), end(), o.begin());
    }

private:
    template <typename It>
    void assignRange(It b, It e)
    {
        for (; b != e; ++b)
            push_back(*b);
    }
    Chunk* writable(size_t c)
    {
        // Only the owner writes, and a chunk shared with a copy is copied first: copies handed to
        // another thread never see a change.
        if (chunks_[c].use_count() > 1)
            chunks_[c] = std::make_shared<Chunk>(*chunks_[c]);
        return chunks_[c].get();
    }
    void detachAll()
    {
        for (size_t c = 0; c < chunks_.size(); ++c)
            writable(c);
    }
    std::vector<std::shared_ptr<Chunk>> chunks_;
    size_t size_ = 0;
};

struct Analysis;

// Monotonic milliseconds (steady clock). Countdowns advance on this between refreshes, never on the
// desktop's wall clock, which may be skewed or jump.
qint64 monotonicMs();

struct ServerInfo
{
    QString version;    // e.g. "15.18"
    int versionNum = 0; // server_version_num
    QString database;
    QString user;
    int backendPid = 0; // the console's own backend
    bool operator==(const ServerInfo&) const = default;
};

struct LeaseRow
{
    QString name;
    std::optional<QString> holder;
    std::optional<double> takenAt;   // epoch seconds (UTC), as the server reads the column
    std::optional<double> expiresAt; // epoch seconds (UTC); compare with Snapshot::serverNow only
    int source = 0; // the table it was read from: an index into Snapshot::leaseTables
    bool operator==(const LeaseRow&) const = default;
};

// 32-row chunks: a refresh that renews 10 of 1 000 leases copies 320 rows, not all of them (every
// copy of a row is two QString reference counts taken, and given back when the old chunk goes).
using LeaseRows = CowVector<LeaseRow, 5>;

// One client backend from pg_stat_activity (the console's own backend excluded).
struct SessionRow
{
    int pid = 0;
    QString database;
    QString user;
    QString applicationName;
    QString clientAddr; // empty for Unix-socket clients
    int clientPort = -1;
    std::optional<double> backendStart, xactStart, queryStart, stateChange; // epoch seconds
    QString state;         // active, idle, idle in transaction, … ("" when hidden by privileges)
    QString waitEventType; // "Lock" for lock waits
    QString waitEvent;
    QString query;              // last query text (truncated), or "<insufficient privilege>"
    std::vector<int> blockedBy; // pg_blocking_pids(), read only for sessions waiting on a Lock
    bool operator==(const SessionRow&) const = default;
};

// Small chunks: a refresh that changes one busy session copies 16 rows, not all 400.
using SessionRows = CowVector<SessionRow, 4>;

// One advisory lock from pg_locks.
struct AdvisoryLockRow
{
    int pid = 0;
    QString database; // database name of the lock
    bool inMonitoredDb = false;
    bool twoKeys = false;      // pg_advisory_lock(int4, int4) (objsubid = 2)
    qint64 key = 0;            // pg_advisory_lock(bigint): (classid << 32) | objid, signed
    qint32 key1 = 0, key2 = 0; // the two int4 keys, signed
    QString mode;              // ExclusiveLock / ShareLock
    bool granted = false;
    std::optional<double> waitStart; // PostgreSQL 14+
    bool operator==(const AdvisoryLockRow&) const = default;
};

// Cluster limits and counters read with every refresh.
struct ClusterInfo
{
    int maxConnections = 0;
    int superuserReservedConnections = 0;
    int maxLocksPerTransaction = 0;
    int maxPreparedTransactions = 0;
    int lockTableEntries = 0; // rows of pg_locks that are not fast-path (shared lock table)
    int totalLocks = 0;       // rows of pg_locks read (fast-path locks are not read)
    qint64 deadlocks = -1;    // pg_stat_database.deadlocks of the monitored database
    std::optional<double> statsReset;
    bool hasMonitorPrivilege = true; // pg_monitor / pg_read_all_stats (else other roles' sessions are hidden)
    // Nominal capacity of the shared lock table (a floor in practice, see FIELD-NOTES).
    int lockTableCapacity() const
    {
        return maxLocksPerTransaction * (maxConnections + maxPreparedTransactions);
    }
    bool operator==(const ClusterInfo&) const = default;
};

// What changed in Snapshot::leases since the poller's previous successful read of the leases,
// so that the lease model touches only those rows (100 000 leases, 1 % renewed per refresh).
// Applied in order: `moves` (row `from` moved into `hole`, the row at `hole` gone, the vector one
// shorter), then `changed` (indexes after the moves), then rows from `appendedFrom` on are new.
struct LeaseDelta
{
    quint64 source = 0;  // the poller instance: deltas of different pollers never mix
    quint64 baseSeq = 0; // Snapshot::seq of the read this delta is relative to
    size_t baseSize = 0; // leases.size() of that read
    std::vector<std::pair<int, int>> moves; // (hole, from)
    std::vector<int> changed;
    size_t appendedFrom = 0;
};

struct Snapshot
{
    quint64 generation = 0; // bumped when the configuration changes: older results are dropped
    quint64 seq = 0;        // refresh counter within a generation
    bool ok = false;
    pg::PgError error; // why this refresh failed (ok == false)

    double serverNow = 0;           // the server's now() for this refresh, epoch seconds
    qint64 receivedMonotonicMs = 0; // monotonicMs() when the result arrived
    QDateTime receivedWall;         // for display only ("last refresh at …"); UTC from the poller

    ServerInfo server;
    ClusterInfo cluster;
    SessionRows sessions;                       // client backends of the whole server
    CowVector<AdvisoryLockRow> advisoryLocks; // of the whole server (inMonitoredDb marks ours)
    LeaseRows leases;                         // in no particular order
    std::shared_ptr<const LeaseDelta> leaseDelta; // null: compare every row
    // Advisory key -> candidate names (hashtext() on this server); shared, immutable, cached.
    std::shared_ptr<const QHash<qint64, QStringList>> keyNames;
    // The keys of keyNames with more than one name, kept with it (null: analyze() finds them).
    std::shared_ptr<const QHash<qint64, QStringList>> keyCollisions;
    // Keys of coordination libraries computed on this server (pg-boss, Flyway's tables): key → name.
    // Keys derived in the console (node-pg-migrate, Rails) need none (see LibraryKeys.h).
    std::shared_ptr<const QHash<qint64, QString>> libraryKeys;
    // What the refresh means (resolved locks, pools, blocking forest, findings), computed on the
    // polling thread from this snapshot.
    std::shared_ptr<const Analysis> analysis;
    std::optional<pg::PgError> leasesError; // table missing / wrong columns / no privilege
    // Several tables found and one of them could not be read (no SELECT, other columns): the rows
    // of the others are current, this says what is missing.
    std::optional<pg::PgError> leasesPartial;
    // The lease tables this refresh read (configured, or every one detection found), each with its
    // scheme's rules; LeaseRow::source indexes it. Null when none was read. leasesAbsent: nothing
    // configured and none found, in words for the Leases page (information, not a problem);
    // leasesFound: what detection found ("public.shedlock (ShedLock)", or why one is not read).
    std::shared_ptr<const std::vector<LeaseTableConfig>> leaseTables;
    QString leasesAbsent;
    QStringList leasesFound;

    // Cost of this refresh, for the status bar and the benchmark.
    int roundTrips = 0;
    qint64 bytesReceived = 0;
    bool bytesExact = false; // counted on the TCP socket; false: the results' memory (Unix socket)
    double clientWaitMs = 0; // send → last byte received
    double decodeMs = 0;     // libpq result → values
    // Upper bound of the server time of this refresh (pipeline sent → last result; the client
    // cannot read pg_stat_statements in general), and the interval the footprint budget allows.
    double serverMs = 0;
    int effectiveIntervalMs = 0;
    // pg_locks may be read less often than the rest when it dominates (about 1 µs a lock row):
    // advisoryLocks and the lock-table counts are then those of a read `locksAgeMs` old.
    int locksEveryN = 1;
    bool locksReused = false;
    double locksAgeMs = 0;
};

} // namespace lw

Q_DECLARE_METATYPE(lw::Snapshot)
