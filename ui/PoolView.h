#pragma once
// The pool-occupancy page: client groups with their connections split by state, the cluster's
// connection budget and shared lock table as gauges, and charts over time (selected group stacked
// by state against its pool size; connections per group against the budget; lock-table entries
// against the nominal capacity; lock waits and deadlocks). The page owns the PoolHistory it feeds
// from Monitor::refreshed; only the chart on screen is redrawn.
#include <QWidget>

#include <utility>

class QButtonGroup;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QScrollBar;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace lw {
class Monitor;
class PoolHistory;
class PoolModel;
struct Snapshot;
} // namespace lw

namespace lw::ui {

class ChartPanel;

class PoolView : public QWidget
{
    Q_OBJECT
public:
    enum class Window { Last5Min, LastHour, SinceStart };
    enum ChartTab { GroupTab, BudgetTab, LockTableTab, TroubleTab };

    explicit PoolView(Monitor* monitor, QWidget* parent = nullptr);
    ~PoolView() override;

    void setWindow(Window w);
    Window window() const { return window_; }
    // Paused: the charts stop following and can be scrolled back; sampling goes on.
    void setPaused(bool paused);
    bool isPaused() const { return !following_; }
    // Moves a paused view so that it ends at `t` (epoch seconds).
    void scrollTo(double endT);
    void selectGroup(const QString& key);
    QString selectedGroup() const;
    void showChart(ChartTab tab);
    bool exportVisibleChart(const QString& path) const;
    // Where this window joined a recorder's history (server time): a marked line on every chart,
    // the recorded past to its left.
    void setJoinedAt(double serverTime);
    // The time range the charts show now (epoch seconds).
    std::pair<double, double> visibleRange() const;

    PoolHistory* history() const { return history_; }
    PoolModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    ChartPanel* chart(ChartTab tab) const;
    QProgressBar* connectionGauge() const { return connGauge_; }
    QProgressBar* lockTableGauge() const { return lockGauge_; }
    QLabel* lockTableText() const { return lockText_; }
    QLabel* connectionText() const { return connText_; }
    QScrollBar* timeScroll() const { return scroll_; }
    QComboBox* groupByBox() const { return groupBy_; }
    QString statusText() const; // "● live", "paused view …", "not live: …"

protected:
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void onRefreshed(const Snapshot& s);
    void updateTableAndGauges();
    void fitGauges();
    void updateScroll();
    void updateVisibleChart();
    void updateGroupChart(double t0, double t1);
    void updateBudgetChart(double t0, double t1);
    void updateLockChart(double t0, double t1);
    void updateTroubleChart(double t0, double t1);
    void updateStatus();
    void exportWithDialog();

    Monitor* monitor_;
    PoolHistory* history_;
    PoolModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QComboBox* groupBy_;
    QButtonGroup* windowButtons_;
    QPushButton* pause_;
    QPushButton* export_;
    QLabel* status_;
    QProgressBar* connGauge_;
    QScrollArea* gaugeScroll_;
    QLabel* connText_;
    QString reserved_; // PostgreSQL 16+: whether the console's role may use the reserved slots
    QProgressBar* lockGauge_;
    QLabel* lockText_;
    QLabel* troubleText_;
    QTabWidget* charts_;
    ChartPanel* groupChart_;
    ChartPanel* budgetChart_;
    ChartPanel* lockChart_;
    ChartPanel* troubleChart_;
    QScrollBar* scroll_;
    Window window_ = Window::Last5Min;
    bool following_ = true;
    double viewEnd_ = 0;
    bool settingScroll_ = false;
    bool dirty_ = false;
    QString selected_;
};

} // namespace lw::ui
