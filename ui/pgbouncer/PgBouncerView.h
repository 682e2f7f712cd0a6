#pragma once
// The PgBouncer page: its pools (clients active/waiting, servers active/idle/used against
// pool_size), the server connections that hold advisory locks on the monitored cluster (a
// session-level one on a transaction-pooled slot named as the application bug it is), and one chart
// per pool of client and server occupancy with a line at pool_size. Charts go through ChartPanel.
#include <QHash>
#include <QWidget>

class QLabel;
class QListWidget;
class QGridLayout;
class QTableView;
class QSortFilterProxyModel;

namespace lw {
namespace bouncer {
class PgBouncerMonitor;
struct BouncerSnapshot;
} // namespace bouncer
} // namespace lw

namespace lw::ui {

class ChartPanel;

class PgBouncerView : public QWidget
{
    Q_OBJECT
public:
    // The join of server slots with advisory locks comes from the monitor (PgBouncerMonitor::accompany).
    explicit PgBouncerView(bouncer::PgBouncerMonitor* monitor, QWidget* parent = nullptr);
    ~PgBouncerView() override;

    QTableView* table() const { return table_; }
    QLabel* statusLabel() const { return status_; }
    QListWidget* slotList() const { return slots_; }
    // The chart of a pool ("database/user"), nullptr if it has none.
    ChartPanel* chart(const QString& poolKey) const { return charts_.value(poolKey, nullptr); }
    int chartCount() const { return int(charts_.size()); }
    static constexpr double kWindowS = 300; // the charts show the last five minutes

protected:
    void showEvent(QShowEvent* e) override;

private:
    void onRefreshed(const bouncer::BouncerSnapshot& s);
    void updateStatus();
    void updateSlots();
    void updateCharts();

    bouncer::PgBouncerMonitor* monitor_;
    QLabel* status_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QListWidget* slots_;
    QWidget* chartBox_;
    QGridLayout* chartGrid_;
    QHash<QString, ChartPanel*> charts_;
    bool dirty_ = false;
};

} // namespace lw::ui
