#pragma once
// PgBouncer's pools for the GUI: a keyed table model (database/user; rows updated in place, never
// reset) and a ring-buffered history of client and server occupancy per pool for the charts.
#include "itemmodels/KeyedTableModel.h"
#include "domain/PoolHistory.h" // TieredSeries
#include "pgbouncer/PgBouncerSource.h"

#include <QHash>

#include <memory>
#include <optional>
#include <vector>

namespace lw::bouncer {

// One pool at one refresh.
struct BouncerSample
{
    double t = 0; // local wall clock, epoch seconds (PgBouncer reports no time of its own)
    int clActive = 0;
    int clWaiting = 0;
    int svActive = 0;
    int svIdle = 0;
    int svUsed = 0;
    int poolSize = -1; // -1: unknown
    // TieredSeries keeps the sample with the most clients of each minute in its coarse tier.
    int total() const { return clActive + clWaiting; }
};

class BouncerHistory
{
public:
    // 3660 samples ≈ an hour at one refresh a second; a day of per-minute peaks.
    explicit BouncerHistory(int fineCapacity = 3660, int coarseCapacity = 1440)
        : fineCapacity_(fineCapacity), coarseCapacity_(coarseCapacity)
    {
    }
    // Failed refreshes are a gap, not zeros; a wall clock stepping back is skipped.
    void add(const BouncerSnapshot& s);

    struct Track
    {
        Track(int fine, int coarse) : series(fine, coarse) {}
        TieredSeries<BouncerSample> series;
        BouncerPool current; // as of the last refresh (counts 0 once the pool is gone)
        bool present = false;
        double lastSeen = 0;
    };
    // Pools present now (in PgBouncer's order), then the ones that left, most recent first.
    std::vector<QString> poolKeys() const;
    const Track* pool(const QString& key) const { return index_.value(key, nullptr); }
    double lastTime() const { return lastTime_; }
    double startedAt() const { return startedAt_; } // the first sample's time
    bool hasSamples() const { return lastTime_ > 0; }

private:
    int fineCapacity_;
    int coarseCapacity_;
    std::vector<std::unique_ptr<Track>> tracks_;
    QHash<QString, Track*> index_;
    std::vector<QString> order_; // present pools in the order of the last snapshot
    double lastTime_ = 0;
    double startedAt_ = 0;
};

class PgBouncerPoolModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column {
        Database,
        User,
        Mode,
        ClActive,
        ClWaiting,
        SvActive,
        SvIdle,
        SvUsed,
        PoolSize,
        MaxWait,
        SlotsHoldingLocks,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, KeyRole, ProblemRole };

    explicit PgBouncerPoolModel(QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    struct Row
    {
        BouncerPool pool;
        int slotsHolding = 0; // server slots holding advisory locks (from the join)
        bool lockBug = false; // one of them: a session-level lock under transaction pooling
        bool operator==(const Row&) const = default;
    };
    // A failed refresh leaves the rows as they were (the view says the data is stale).
    void applySnapshot(const BouncerSnapshot& s, const std::vector<SlotHold>& holds = {});
    // Only the join changed (a new cluster snapshot): updates the lock columns in place.
    void applyHolds(const std::vector<SlotHold>& holds);
    const Row& row(int r) const { return rows_[size_t(r)]; }
    int rowOfKey(const QString& key) const { return index_.value(key, -1); }

private:
    std::vector<Row> rows_;
    std::vector<QString> keys_;
    QHash<QString, int> index_;
};

} // namespace lw::bouncer
