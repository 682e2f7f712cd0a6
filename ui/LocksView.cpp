#include "LocksView.h"

#include "BackgroundWork.h"
#include "store/AuditLog.h"
#include "BackendSignal.h"
#include "Monitor.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QMessageBox>
#include <QPointer>

#include <QHBoxLayout>
#include <QHeaderView>

#include <algorithm>
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

    summary_ =
        new QLabel(tr("<b>Advisory locks</b> — <span style='color:#9e9e9e'>nothing read yet</span>"), this);
    connect(monitor_, &Monitor::statusChanged, this, &LocksView::showSummary);
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
    notRead_ = new QLabel(this);
    notRead_->setWordWrap(true);
    notRead_->setStyleSheet(privilege_->styleSheet());
    notRead_->hide();

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
    const int widths[] = {300, 90, 60, 100, 110, 70, 95, 330, 150, 130, 120, 80, 80, 110, 220};
    // At least the title's width: German titles are longer than the English ones the widths fit.
    for (int c = 0; c < int(std::size(widths)); ++c)
        table_->setColumnWidth(c, std::max(widths[c], table_->horizontalHeader()->sectionSizeHint(c)));

    tree_ = new QTreeView(this);
    tree_->setModel(monitor_->blocking());
    tree_->setAlternatingRowColors(true);
    tree_->setColumnWidth(0, 320); // "4411 (root blocker: cancel 4420 instead)"
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
    lay->addWidget(notRead_);
    lay->addWidget(findings_);
    lay->addWidget(detail_);
    lay->addWidget(split, 1);

    // Operator actions: on the table and the tree, disabled (with the reason) without operator mode.
    cancel_ = new QAction(tr("Cancel query of this backend…"), this);
    terminate_ = new QAction(tr("Terminate this backend…"), this);
    cancel_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    terminate_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    for (QAction* a : {cancel_, terminate_}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setEnabled(monitor_->config().operatorMode);
        if (!monitor_->config().operatorMode)
            a->setToolTip(tr("Operator mode is off for this profile: the console sends no signal or write."));
        table_->addAction(a);
        tree_->addAction(a);
        addAction(a);
    }
    table_->setContextMenuPolicy(Qt::ActionsContextMenu);
    tree_->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(cancel_, &QAction::triggered, this, [this] { signalBackend(selectedPid(), false); });
    connect(terminate_, &QAction::triggered, this, [this] { signalBackend(selectedPid(), true); });

    connect(monitor_, &Monitor::refreshed, this, &LocksView::onRefreshed);
}

int LocksView::selectedPid() const
{
    if (tree_->hasFocus() && tree_->currentIndex().isValid())
        return tree_->currentIndex().siblingAtColumn(0).data(Qt::UserRole).toInt();
    const QModelIndex i = table_->currentIndex();
    return i.isValid() ? i.data(AdvisoryLockModel::PidRole).toInt() : 0;
}

void LocksView::signalBackend(int pid, bool terminate, bool confirm)
{
    if (pid <= 0)
        return;
    const BackendSignal kind = terminate ? BackendSignal::Terminate : BackendSignal::Cancel;
    QStringList held;
    QString app;
    const AdvisoryLockModel* m = monitor_->locks();
    for (int r = 0; r < m->rowCount(); ++r) {
        const auto& row = m->row(r);
        if (row.view.lock.pid != pid)
            continue;
        app = row.session().applicationName;
        if (row.view.lock.granted)
            held << (row.view.name.isEmpty() ? advisoryKeyText(row.view.lock) : row.view.name);
    }
    const QString consequences = backendSignalConsequences(kind, pid, held, app);
    if (confirm && QMessageBox::question(this, terminate ? tr("Terminate backend") : tr("Cancel query"),
                                         consequences + tr("\n\nProceed?")) != QMessageBox::Yes)
        return;
    AuditRecord rec;
    rec.action = backendSignalName(kind);
    rec.target = QStringLiteral("pid %1").arg(pid);
    rec.database = monitor_->lastSnapshot().server.database;
    rec.before = backendSignalAuditBefore(pid, app, held);
    rec.outcome = tr("sent, no answer yet");
    rec.outcomeKey = QStringLiteral("pending");
    if (audit_)
        audit_->append(rec);
    const pg::ConnectOptions opts = monitor_->config().connect;
    const bool op = monitor_->config().operatorMode;
    QPointer<LocksView> guard(this);
    QPointer<AuditLog> audit(audit_);
    const qint64 id = rec.id;
    // The server may be slow to answer: never on the UI thread.
    runInBackground([guard, audit, id, opts, op, kind, pid] {
        const BackendSignalOutcome out = lw::signalBackend(opts, op, kind, pid);
        QMetaObject::invokeMethod(qApp, [guard, audit, id, out] {
            if (audit && id)
                audit->complete(id, QString(), out.text, out.key, out.dbRole);
            if (guard)
                Q_EMIT guard->backendSignalDone(out.text, out.sent);
        });
    });
}

QString LocksView::summaryText() const
{
    return summary_->text();
}

QString LocksView::notReadText() const
{
    return notRead_->isHidden() ? QString() : notRead_->text();
}

void LocksView::showSummary()
{
    if (counts_.isEmpty())
        return; // "nothing read yet"
    // The counts of a refresh from before a connection loss are not what holds locks now.
    const bool live = monitor_->status().state == ConnectionStatus::State::Connected;
    if (live) {
        summary_->setText(counts_);
        return;
    }
    const QString when =
        countsAt_.isValid()
            ? tr("as of %1, not live").arg(countsAt_.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
            : tr("not live");
    summary_->setText(counts_ + QStringLiteral(" — <span style='color:#9e9e9e'>%1</span>").arg(when));
}

QString LocksView::tabText() const
{
    const int n = monitor_->findings()->count(2);
    if (n == 0)
        return tr("Advisory locks && sessions");
    return n == 1 ? tr("Advisory locks && sessions (1 finding)")
                  : tr("Advisory locks && sessions (%1 findings)").arg(n);
}

void LocksView::showFindingDetail()
{
    const QModelIndex i = findings_->currentIndex();
    if (!i.isValid()) {
        detail_->clear();
        return;
    }
    detail_->setText(tr("%1 <i>What usually fixes it:</i> %2")
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
    counts_ = tr("<b>%1</b>, %2 waiting · %3 sessions waiting on locks · lock table %4 of ~%5 entries")
                  .arg(held == 1 ? tr("1 advisory lock held") : tr("%1 advisory locks held").arg(held))
                  .arg(waiting)
                  .arg(s.analysis->blocking.nodes.size() - s.analysis->blocking.roots.size())
                  .arg(s.cluster.lockTableEntries)
                  .arg(s.cluster.lockTableCapacity());
    countsAt_ = s.receivedWall;
    showSummary();
    if (!s.cluster.hasMonitorPrivilege) {
        privilege_->setText(tr("Role <b>%1</b> lacks pg_monitor: for other roles' sessions the query, state, "
                               "client address and wait event are hidden (&lt;insufficient privilege&gt;). "
                               "Fix: <code>GRANT pg_monitor TO %1;</code>")
                                .arg(s.server.user.toHtmlEscaped()));
        privilege_->show();
    } else {
        privilege_->hide();
    }
    if (s.locksNotRead) {
        notRead_->setText(tr("<b>pg_locks not read</b>, the locks below are %1 s old — %2")
                              .arg(s.locksAgeMs / 1000.0, 0, 'f', 0)
                              .arg(s.locksNotRead->toDisplayString().toHtmlEscaped()));
        notRead_->show();
    } else {
        notRead_->hide();
    }
    Q_EMIT tabTextChanged(tabText());
}

} // namespace lw::ui
