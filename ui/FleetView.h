#pragma once
// Many databases at a glance (issue 27, point 5): every profile with its reachability, finding
// counts and worst finding, worst first; Enter (or a double-click) opens that database's console.
// The rows come from the application (open windows, recorders' stores), refreshed by it.
#include "Fleet.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace lw::ui {

class FleetView : public QWidget
{
    Q_OBJECT
public:
    explicit FleetView(QWidget* parent = nullptr);

    void setEntries(std::vector<FleetEntry> entries);
    FleetModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QString summaryText() const;

Q_SIGNALS:
    void openRequested(const QString& profile);

private:
    FleetModel* model_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
    QLabel* summary_;
};

} // namespace lw::ui
