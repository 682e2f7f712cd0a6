#pragma once
// The first page of a database: one health line, then one card per current finding (worst first)
// in plain words with since-when, and the next step one key away (Enter opens the detail).
#include <QWidget>

class QLabel;
class QListView;
class QPushButton;
class QSortFilterProxyModel;

namespace lw {
class Monitor;
}

namespace lw::ui {

class OverviewView : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewView(Monitor* monitor, QWidget* parent = nullptr);

    QListView* list() const { return list_; }
    QString healthText() const;
    // "all clear" or "3 problems — stale lease" (for the tab and the window title)
    QString shortStatus() const;
    QPushButton* actionButton() const { return act_; }

Q_SIGNALS:
    // Enter / double-click / the detail button: the window switches to the page that shows it.
    void showLease(const QString& name);
    void showSession(int pid);
    void showPools();
    // The next step, one click away (operator mode): force-expire the stale lease, terminate one
    // pinned backend of the instance.
    void forceExpireLease(const QString& name);
    void terminateOneOf(const QString& groupKey);
    // … and cancel (or terminate) the session that frees a cycle PostgreSQL does not see.
    void signalSession(int pid, bool terminate);
    void statusChanged(const QString& shortStatus);

private:
    void refresh();
    void openCurrent();
    bool terminatesCycle(int pid) const; // the hidden cycle that pid frees needs a terminate, not a cancel

    Monitor* monitor_;
    QLabel* health_;
    QListView* list_;
    QSortFilterProxyModel* sorted_; // worst first, then the oldest
    QLabel* detail_;
    QPushButton* open_;
    QPushButton* act_;
};

} // namespace lw::ui
