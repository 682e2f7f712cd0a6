#pragma once
// The advisory-locks page: findings in words, every advisory lock with its session (key decoded,
// name resolved), and the blocking tree with the root blocker first.
#include <QWidget>

class QCheckBox;
class QLabel;
class QListView;
class QSortFilterProxyModel;
class QTableView;
class QTreeView;

namespace lw {
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

Q_SIGNALS:
    void tabTextChanged(const QString& text);

private:
    void onRefreshed(const Snapshot& s);
    void showFindingDetail();

    Monitor* monitor_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QTreeView* tree_;
    QListView* findings_;
    QLabel* detail_;
    QLabel* privilege_;
    QLabel* summary_;
    QCheckBox* allDbs_;
};

} // namespace lw::ui
