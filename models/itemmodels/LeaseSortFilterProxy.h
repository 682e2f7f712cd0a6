#pragma once
// The Leases page's sort and filter over LeaseModel, typed: QSortFilterProxyModel's default reads
// a QVariant per row per comparison, which made a sort click at 100 000 leases take most of a
// second on the GUI thread. Same order and same matches as SortRole / FilterRole.
#include <QSortFilterProxyModel>

namespace lw {

class LeaseModel;

class LeaseSortFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit LeaseSortFilterProxy(LeaseModel* source, QObject* parent = nullptr);

    // Rows whose name or holder contains `text` (case-insensitive); empty shows every row.
    void setFilterText(const QString& text);
    QString filterText() const { return filterText_; }
    // Also tells the model the order to load a large first refresh in (LeaseModel::setFillOrder).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    LeaseModel* leases_;
    QString filterText_;
};

} // namespace lw
