#pragma once
// The advisory-locks page: findings in words, every advisory lock with its session (key decoded,
// name resolved), and the blocking tree with the root blocker first.
#include <QDateTime>
#include <QWidget>

class QAction;
class QCheckBox;
class QLabel;
class QListView;
class QSortFilterProxyModel;
class QTableView;
class QTreeView;

namespace lw {
class AuditLog;
class Monitor;
struct Snapshot;
} // namespace lw

namespace lw::ui {

class LocksView : public QWidget
{
    Q_OBJECT
public:
    explicit LocksView(Monitor* monitor, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    QTreeView* tree() const { return tree_; }
    QListView* findings() const { return findings_; }
    QCheckBox* allDatabases() const { return allDbs_; }
    QString tabText() const;
    QString summaryText() const;
    QString notReadText() const; // the pg_locks-not-read banner, "" when hidden
    // Operator actions (cancel query / terminate backend) record into `audit` (may be null).
    void setAuditLog(AuditLog* audit) { audit_ = audit; }
    QAction* cancelAction() const { return cancel_; }
    QAction* terminateAction() const { return terminate_; }
    // Pid of the selected row (table or tree), 0 if none.
    int selectedPid() const;
    // Runs the action on `pid` after the confirmation; `confirm` false skips the dialog (tests).
    void signalBackend(int pid, bool terminate, bool confirm = true);

Q_SIGNALS:
    void tabTextChanged(const QString& text);
    void backendSignalDone(const QString& outcomeText, bool sent);

private:
    void onRefreshed(const Snapshot& s);
    void showSummary(); // the last counts, marked when they are not live
    void showFindingDetail();

    Monitor* monitor_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QTreeView* tree_;
    QListView* findings_;
    QLabel* detail_;
    QLabel* privilege_;
    QLabel* notRead_; // pg_locks locked by another session: whose lock, and how old the locks shown are
    QLabel* summary_;
    QString counts_;     // the last refresh's counts (rich text); empty before any
    QDateTime countsAt_; // when they arrived (formatted only when shown as not live)
    QCheckBox* allDbs_;
    QAction* cancel_;
    QAction* terminate_;
    AuditLog* audit_ = nullptr;
};

} // namespace lw::ui
