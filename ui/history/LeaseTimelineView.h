#pragma once
// One lease's recorded history (issue 9): pick a lease, read its holders one after another —
// takes, collapsed renewals, expiries, takeovers, releases, forced expiries with the operator.
#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;

namespace lw {
class HistoryReader;
class LeaseTimelineModel;
} // namespace lw

namespace lw::ui {

class LeaseStripView;

class LeaseTimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit LeaseTimelineView(QWidget* parent = nullptr);
    ~LeaseTimelineView() override;

    // The history to read (not owned; must outlive the view or be replaced first). Fills the lease list.
    void setReader(const HistoryReader* reader);
    void showLease(const QString& name);
    QString lease() const;
    // Where this window joined a recorder's history: earlier events are shaded and the summary says so.
    void setJoinedAt(double serverTime);
    // Selects the event in effect at server time t (follows the recorded bar).
    void highlightTime(double t);

    LeaseTimelineModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    // The selected lease's holders over its recorded time, as a strip above its events.
    LeaseStripView* leaseStrip() const { return leaseStrip_; }
    // Every lease's strip over the store's last hour (the first kStripLeases), below: which leases
    // were stuck when. Read again by refreshStrips() (the page's owner calls it when it is opened).
    LeaseStripView* tableStrips() const { return tableStrips_; }
    void refreshStrips();
    static constexpr int kStripLeases = 200;
    QComboBox* leaseBox() const { return leases_; }

Q_SIGNALS:
    // A row was activated: show the recorded refresh of that moment.
    void timeActivated(double serverTime);

private:
    const HistoryReader* reader_ = nullptr;
    LeaseTimelineModel* model_;
    QComboBox* leases_;
    QLabel* summary_;
    QTableView* table_;
    LeaseStripView* leaseStrip_;
    LeaseStripView* tableStrips_;
    QLabel* stripsNote_;
};

} // namespace lw::ui
