#include "PoolModel.h"
#include "domain/Wording.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace lw {

PoolModel::PoolModel(QObject* parent) : KeyedTableModel(parent) {}

int PoolModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int PoolModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void PoolModel::setGroups(const std::vector<PoolGroup>& groups, int budget)
{
    std::vector<QString> keys;
    std::vector<Row> rows;
    keys.reserve(groups.size());
    rows.reserve(groups.size());
    for (const PoolGroup& g : groups) {
        keys.push_back(g.key);
        rows.push_back(Row{g, budget});
    }
    applyKeyed(rows_, keys_, index_, std::move(keys), std::move(rows));
}

QVariant PoolModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size()) || index.column() >= ColumnCount)
        return {};
    const Row& r = rows_[size_t(index.row())];
    const PoolGroup& g = r.group;
    const double share = r.budget > 0 ? double(g.total) / r.budget : 0;
    if (role == KeyRole)
        return g.key;
    if (role == PinnedRole)
        return g.pinned;
    if (role == SortRole) {
        switch (index.column()) {
        case Group:
            return g.key;
        case PoolSize:
            return g.poolSize.value_or(-1);
        case BudgetShare:
            return share;
        default:
            break;
        }
    }
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case Group:
            return g.pinned ? tr("%1  — PINNED").arg(g.key) : g.key;
        case Total:
            return g.total;
        case Active:
            return g.active;
        case Idle:
            return g.idle;
        case IdleInTransaction:
            return g.idleInTransaction;
        case WaitingOnLock:
            return g.waitingOnLock;
        case IdleHoldingAdvisory:
            return g.idleHoldingAdvisory;
        case PoolSize:
            return g.poolSize ? QVariant(*g.poolSize) : QVariant(QStringLiteral("—"));
        case BudgetShare:
            return QStringLiteral("%1 %").arg(formatDecimal(100.0 * share, 1));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Group)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole) {
        if (g.total == 0)
            return QBrush(QColor(0x9e, 0x9e, 0x9e)); // gone: kept for its history
        if (index.column() == IdleHoldingAdvisory && g.idleHoldingAdvisory > 0)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if (index.column() == WaitingOnLock && g.waitingOnLock > 0)
            return QBrush(QColor(0xe6, 0x51, 0x00));
    }
    if (role == Qt::FontRole && g.pinned && index.column() == Group) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole) {
        if (g.pinned)
            return tr("%1 of %2 connections are idle holding advisory locks (%3): its work cannot get a "
                      "connection.")
                .arg(g.idleHoldingAdvisory)
                .arg(g.poolSize.value_or(g.total))
                .arg(lockNamesText(g.pinnedLockNames, g.pinnedLocks));
        if (g.total == 0)
            return tr("No connection now; kept for its history.");
    }
    return {};
}

QVariant PoolModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Group:
            return tr("Group");
        case Total:
            return tr("Conns");
        case Active:
            return tr("Active");
        case Idle:
            return tr("Idle");
        case IdleInTransaction:
            return tr("Idle in tx");
        case WaitingOnLock:
            return tr("Waiting");
        case IdleHoldingAdvisory:
            return tr("Pinned");
        case PoolSize:
            return tr("Pool size");
        case BudgetShare:
            return tr("Budget");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case IdleHoldingAdvisory:
            return tr("Pinned: idle connections holding an advisory lock, unusable by the pool until "
                      "the lock is released.");
        case BudgetShare:
            return tr("Share of max_connections − superuser_reserved_connections − reserved_connections used by this group.");
        case PoolSize:
            return tr("Pool size configured in the profile for this group or application.");
        default:
            return {};
        }
    }
    return {};
}

} // namespace lw
