#include "LocksView.h"

#include "Monitor.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

namespace lw::ui {

namespace {
// Shows the monitored database's locks unless "all databases" is on.
class DatabaseFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setAll(bool all)
    {
        all_ = all;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        return all_ ||
               sourceModel()->index(row, 0, parent).data(AdvisoryLockModel::InMonitoredDbRole).toBool();
    }

private:
    bool all_ = false;
};
} // namespace

LocksView::LocksView(Monitor* monitor, QWidget* parent) : QWidget(parent), monitor_(monitor)
{
    auto* filter = new DatabaseFilter(this);
    proxy_ = filter;
    proxy_->setSourceModel(monitor_->locks());
    proxy_->setSortRole(AdvisoryLockModel::SortRole);
    proxy_->setDynamicSortFilter(true);

    summary_ = new QLabel(this);
    allDbs_ = new QCheckBox(tr("Show locks of all databases"), this);
    connect(allDbs_, &QCheckBox::toggled, this, [this, filter](bool on) {
        filter->setAll(on);
        table_->setColumnHidden(AdvisoryLockModel::Database, !on);
    });
    privilege_ = new QLabel(this);
    privilege_->setWordWrap(true);
    privilege_->setStyleSheet(
        QStringLiteral("QLabel { background: #fff8e1; padding: 6px; border: 1px solid #ffe082; }"));
    privilege_->hide();

    findings_ = new QListView(this);
    findings_->setModel(monitor_->findings());
    findings_->setWordWrap(true);
    findings_->setAlternatingRowColors(true);
    findings_->setMaximumHeight(130);
    detail_ = new QLabel(this);
    detail_->setWordWrap(true);
    detail_->setStyleSheet(QStringLiteral("color: #424242;"));
    connect(findings_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &LocksView::showFindingDetail);

    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    // Longest-held first: the locks pinning connections float to the top.
    table_->sortByColumn(AdvisoryLockModel::Duration, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(22);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setColumnHidden(AdvisoryLockModel::Database, true);
    table_->setColumnHidden(AdvisoryLockModel::Mode, true);
    const int widths[] = {190, 90, 60, 100, 110, 70, 95, 330, 150, 130, 120, 80, 80, 110, 220};
    for (int c = 0; c < int(std::size(widths)); ++c)
        table_->setColumnWidth(c, widths[c]);

    tree_ = new QTreeView(this);
    tree_->setModel(monitor_->blocking());
    tree_->setAlternatingRowColors(true);
    tree_->setColumnWidth(0, 200);
    tree_->setColumnWidth(1, 100);
    tree_->setColumnWidth(2, 140);
    tree_->setColumnWidth(3, 160);
    connect(monitor_->blocking(), &QAbstractItemModel::modelReset, tree_, &QTreeView::expandAll);

    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(allDbs_);

    auto* treeBox = new QWidget(this);
    auto* treeLay = new QVBoxLayout(treeBox);
    treeLay->setContentsMargins(0, 0, 0, 0);
    treeLay->addWidget(
        new QLabel(tr("<b>Lock waits</b> — root blockers first, the sessions waiting behind them "
                      "below"),
                   treeBox));
    treeLay->addWidget(tree_);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(treeBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* lay = new QVBoxLayout(this);
    lay->addLayout(top);
    lay->addWidget(privilege_);
    lay->addWidget(findings_);
    lay->addWidget(detail_);
    lay->addWidget(split, 1);

    connect(monitor_, &Monitor::refreshed, this, &LocksView::onRefreshed);
}

QString LocksView::tabText() const
{
    const int n = monitor_->findings()->count(2);
    return n ? tr("Advisory locks && sessions (%1 findings)").arg(n) : tr("Advisory locks && sessions");
}

void LocksView::showFindingDetail()
{
    const QModelIndex i = findings_->currentIndex();
    if (!i.isValid()) {
        detail_->clear();
        return;
    }
    detail_->setText(QStringLiteral("%1 <i>What usually fixes it:</i> %2")
                         .arg(i.data(FindingsModel::ExplanationRole).toString().toHtmlEscaped(),
                              i.data(FindingsModel::FixRole).toString().toHtmlEscaped()));
}

void LocksView::onRefreshed(const Snapshot& s)
{
    if (!s.ok || !s.analysis)
        return;
    int held = 0, waiting = 0;
    for (const LockView& v : s.analysis->locks) {
        if (!allDbs_->isChecked() && !v.lock.inMonitoredDb)
            continue;
        (v.lock.granted ? held : waiting)++;
    }
    summary_->setText(
        tr("<b>%1 advisory locks held</b>, %2 waiting · %3 sessions waiting on locks · lock table "
           "%4 of ~%5 entries")
            .arg(held)
            .arg(waiting)
            .arg(s.analysis->blocking.nodes.size() - s.analysis->blocking.roots.size())
            .arg(s.cluster.lockTableEntries)
            .arg(s.cluster.lockTableCapacity()));
    if (!s.cluster.hasMonitorPrivilege) {
        privilege_->setText(tr("Role <b>%1</b> lacks pg_monitor: for other roles' sessions the query, state, "
                               "client address and wait event are hidden (&lt;insufficient privilege&gt;). "
                               "Fix: <code>GRANT pg_monitor TO %1;</code>")
                                .arg(s.server.user.toHtmlEscaped()));
        privilege_->show();
    } else {
        privilege_->hide();
    }
    Q_EMIT tabTextChanged(tabText());
}

} // namespace lw::ui
