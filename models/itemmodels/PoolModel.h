#pragma once
// The client groups of the pool page: current occupancy per group (split by state), the pool size
// configured for it and its share of the cluster's connection budget. Keyed by group key, updated
// in place every refresh.
#include "KeyedTableModel.h"
#include "domain/Analysis.h"

namespace lw {

class PoolModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column {
        Group,
        Total,
        Active,
        Idle,
        IdleInTransaction,
        WaitingOnLock,
        IdleHoldingAdvisory,
        PoolSize,
        BudgetShare,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, KeyRole, PinnedRole };

    explicit PoolModel(QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    struct Row
    {
        PoolGroup group;
        int budget = 0; // max_connections - superuser_reserved_connections
        bool operator==(const Row& o) const
        {
            return budget == o.budget && group.key == o.group.key && group.total == o.group.total &&
                   group.active == o.group.active && group.idle == o.group.idle &&
                   group.idleInTransaction == o.group.idleInTransaction &&
                   group.waitingOnLock == o.group.waitingOnLock &&
                   group.idleHoldingAdvisory == o.group.idleHoldingAdvisory &&
                   group.poolSize == o.group.poolSize && group.pinned == o.group.pinned &&
                   group.pinnedLockNames == o.group.pinnedLockNames &&
                   group.pinnedLocks == o.group.pinnedLocks;
        }
    };
    // Groups in display order; rows are matched by key (no reset: the selection survives).
    void setGroups(const std::vector<PoolGroup>& groups, int budget);
    const Row& row(int r) const { return rows_[size_t(r)]; }
    int rowOfKey(const QString& key) const { return index_.value(key, -1); }

private:
    std::vector<Row> rows_;
    std::vector<QString> keys_;
    QHash<QString, int> index_;
};

} // namespace lw
