#pragma once
// The leases page: summary line, text filter, sortable table over LeaseModel.
#include "itemmodels/LeaseSortFilterProxy.h"

#include <QWidget>

class QLabel;
class QLineEdit;
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
    LeaseSortFilterProxy* proxy() const { return proxy_; }
    QString summaryText() const;
    QString problemText() const; // the banner above the table; empty while hidden

Q_SIGNALS:
    void summaryChanged(const QString& tabText);

private:
    void updateSummary();

    LeaseModel* model_;
    LeaseSortFilterProxy* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    QLabel* summary_;
    QLabel* note_ = nullptr;
    QLabel* problem_;
};

} // namespace lw::ui
