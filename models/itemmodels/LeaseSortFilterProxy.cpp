#include "LeaseSortFilterProxy.h"

#include "LeaseModel.h"

namespace lw {

LeaseSortFilterProxy::LeaseSortFilterProxy(LeaseModel* source, QObject* parent)
    : QSortFilterProxyModel(parent), leases_(source)
{
    setSourceModel(source);
    setSortRole(LeaseModel::SortRole);
    setFilterRole(LeaseModel::FilterRole);
    setFilterKeyColumn(LeaseModel::Name);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void LeaseSortFilterProxy::setFilterText(const QString& text)
{
    if (text == filterText_)
        return;
    filterText_ = text;
    invalidateFilter();
}

void LeaseSortFilterProxy::sort(int column, Qt::SortOrder order)
{
    leases_->setFillOrder(column, order, sortCaseSensitivity());
    QSortFilterProxyModel::sort(column, order);
}

bool LeaseSortFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (isSortLocaleAware() || sortRole() != LeaseModel::SortRole)
        return QSortFilterProxyModel::lessThan(left, right);
    return leases_->lessThan(left.row(), right.row(), left.column(), sortCaseSensitivity());
}

bool LeaseSortFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!filterText_.isEmpty() && !leases_->matchesFilter(sourceRow, filterText_, filterCaseSensitivity()))
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent); // any regular expression set too
}

} // namespace lw
