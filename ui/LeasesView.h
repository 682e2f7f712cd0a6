#pragma once
// The leases page: summary line, text filter, sortable table over LeaseModel.
#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace lw {
class LeaseModel;
}

namespace lw::ui {

class LeasesView : public QWidget
{
    Q_OBJECT
public:
    explicit LeasesView(LeaseModel* model, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    QLineEdit* filterEdit() const { return filter_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QString summaryText() const;

Q_SIGNALS:
    void summaryChanged(const QString& tabText);

private:
    void updateSummary();

    LeaseModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    QLabel* summary_;
    QLabel* problem_;
};

} // namespace lw::ui
