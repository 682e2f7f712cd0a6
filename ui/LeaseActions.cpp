#include "LeaseActions.h"
#include "domain/Words.h"

#include "AuditView.h"
#include "BackgroundWork.h"
#include "ForceExpireDialog.h"
#include "LeasesView.h"
#include "Monitor.h"
#include "itemmodels/LeaseModel.h"
#include "store/AuditLog.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextStream>

namespace lw::ui {

QString LeaseActions::operatorModeOffTip()
{
    return tr("Operator mode is off for this connection profile: the console sends no writes. Start with "
              "--operator to force-expire leases (on a separate connection; monitoring stays read-only).");
}

LeaseActions::LeaseActions(LeasesView* view, Monitor* monitor, AuditLog* audit, QObject* parent)
    : QObject(parent), view_(view), monitor_(monitor), audit_(audit)
{
    qRegisterMetaType<std::vector<lw::ForceExpireOutcome>>();
    forceExpire_ = new QAction(tr("Force-expire…"), this);
    forceExpire_->setObjectName(QStringLiteral("forceExpireAction"));
    forceExpire_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    forceExpire_->setStatusTip(tr("Set the selected leases' expiry to the server's now() (compare-and-set)"));
    connect(forceExpire_, &QAction::triggered, this, &LeaseActions::forceExpireSelected);

    showAudit_ = new QAction(tr("Audit log…"), this);
    showAudit_->setObjectName(QStringLiteral("auditLogAction"));
    connect(showAudit_, &QAction::triggered, this, &LeaseActions::showAuditLog);

    createAuditTable_ = new QAction(tr("Create server-side audit table…"), this);
    createAuditTable_->setObjectName(QStringLiteral("createAuditTableAction"));
    connect(createAuditTable_, &QAction::triggered, this, &LeaseActions::createAuditTable);

    QTableView* table = view_->table();
    table->setContextMenuPolicy(Qt::ActionsContextMenu);
    table->addAction(forceExpire_);
    table->addAction(showAudit_);
    connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &LeaseActions::updateEnabled);
    connect(view_->proxy(), &QAbstractItemModel::modelReset, this, &LeaseActions::updateEnabled);
    if (monitor_) {
        // The configuration (operator mode) may change with a reconfigure; re-check on every status.
        connect(monitor_, &Monitor::statusChanged, this, &LeaseActions::updateEnabled);
    }
    updateEnabled();
}

// Nothing to wait for: a running action finishes on its own thread and its outcome still reaches
// the audit log (see run()); closing the window returns at once.
LeaseActions::~LeaseActions() = default;

QLabel* LeaseActions::createOperatorModeIndicator(QWidget* parent) const
{
    auto* l = new QLabel(tr("OPERATOR MODE"), parent);
    l->setObjectName(QStringLiteral("operatorModeIndicator"));
    l->setToolTip(tr("Writes are allowed from this console (force-expire), on a separate short-lived "
                     "connection; every action is recorded in the audit log."));
    l->setStyleSheet(QStringLiteral("QLabel { color: white; background: #c62828; font-weight: bold; "
                                    "padding: 1px 6px; border-radius: 3px; }"));
    l->setVisible(monitor_ && monitor_->config().operatorMode);
    return l;
}

void LeaseActions::updateEnabled()
{
    const bool op = monitor_ && monitor_->config().operatorMode;
    const bool selected =
        view_->table()->selectionModel() && view_->table()->selectionModel()->hasSelection();
    forceExpire_->setEnabled(op && selected && !running_);
    if (!op)
        forceExpire_->setToolTip(operatorModeOffTip());
    else if (running_)
        forceExpire_->setToolTip(tr("A force-expire is running"));
    else if (!selected)
        forceExpire_->setToolTip(tr("Select one or more leases to force-expire"));
    else
        forceExpire_->setToolTip(tr("Force-expire the selected leases (asks for confirmation first)"));
    const bool haveTable = monitor_ && ServerAuditTable::parse(monitor_->config().auditTable).has_value();
    createAuditTable_->setEnabled(op && haveTable && !running_);
    createAuditTable_->setToolTip(!op          ? operatorModeOffTip()
                                  : !haveTable ? tr("The connection profile names no server-side audit table")
                                               : tr("CREATE TABLE IF NOT EXISTS %1 on the monitored database")
                                                     .arg(monitor_->config().auditTable));
}

void LeaseActions::forceExpireSelected()
{
    // Guard as well as disable: a shortcut or a test may trigger the slot directly.
    if (!monitor_ || !monitor_->config().operatorMode || running_)
        return;
    if (dialog_) {
        dialog_->raise();
        return;
    }
    LeaseModel* model = monitor_->leases();
    const auto rows = view_->table()->selectionModel()->selectedRows(LeaseModel::Name);
    if (rows.isEmpty())
        return;
    const double now = model->serverNowEstimate();
    const Snapshot& snap = monitor_->lastSnapshot();
    // An empty session list says nothing (not read yet, or hidden): "unknown", never "no session".
    const bool sessionsKnown = !snap.sessions.empty();
    // One table per action, and only where the library lets a lease be freed by its expiry.
    std::optional<LeaseTableConfig> table;
    QString refusal;
    for (const QModelIndex& proxyIndex : rows) {
        const QModelIndex src = view_->proxy()->mapToSource(proxyIndex);
        const LeaseTableConfig* t = src.isValid() ? model->tableAt(src.row()) : nullptr;
        if (!t)
            continue;
        if (table && !(*table == *t))
            refusal = tr("The selection spans %1 and %2: force-expire the leases of one table at a time.")
                          .arg(table->qualifiedName(), t->qualifiedName());
        else if (!t->forceExpireRefusal.isEmpty())
            refusal = tr("Force-expire is not offered for %1 (%2). %3")
                          .arg(t->label(), t->qualifiedName(), libraryWords(t->forceExpireRefusal));
        table = *t;
        if (!refusal.isEmpty())
            break;
    }
    if (!refusal.isEmpty()) {
        auto* box = new QMessageBox(QMessageBox::Information, tr("Force-expire"), refusal, QMessageBox::Ok,
                                    view_->window());
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return;
    }
    pendingTable_ = table;
    std::vector<ForceExpireDialog::Item> items;
    for (const QModelIndex& proxyIndex : rows) {
        const QModelIndex src = view_->proxy()->mapToSource(proxyIndex);
        if (!src.isValid())
            continue;
        ForceExpireDialog::Item it;
        it.entry = model->entry(src.row()); // a copy: what the operator sees now is what the CAS checks
        it.evidence = assessHolder(it.entry, snap.sessions, sessionsKnown, now, model->policyAt(src.row()),
                                   model->tableAt(src.row()), monitor_->holderPresence().seen(it.entry.key),
                                   &monitor_->flagLocks());
        it.target = targetFor(it.entry, it.evidence);
        items.push_back(std::move(it));
    }
    if (items.empty())
        return;
    auto* dlg = new ForceExpireDialog(std::move(items), now, table ? *table : monitor_->config().leases,
                                      view_->window());
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dialog_ = dlg;
    connect(dlg, &ForceExpireDialog::confirmed, this, &LeaseActions::run);
    dlg->open(); // window-modal, no nested event loop
}

void LeaseActions::startWorker(std::function<void()> body)
{
    running_ = true;
    updateEnabled();
    runInBackground(std::move(body));
}

QString LeaseActions::databaseLabel() const
{
    if (!monitor_)
        return {};
    return auditDatabaseLabel(monitor_->config().connect.dsn, monitor_->lastSnapshot().server.database);
}

void LeaseActions::run(const std::vector<ForceExpireTarget>& targets)
{
    if (!monitor_ || running_)
        return;
    ForceExpireRequest req = forceExpireRequestFor(monitor_->config());
    if (pendingTable_)
        req.table = *pendingTable_; // the table the rows came from (found by detection, maybe)
    // The attempt is on record before anything is sent: even a crash mid-action leaves a trace.
    std::vector<qint64> ids = auditForceExpireSent(audit_, req, targets, databaseLabel());
    // The outcome is posted to the application, not to this object: when the window was closed
    // meanwhile, the audit log (owned by the application) still records it.
    startWorker([guard = QPointer<LeaseActions>(this), audit = audit_, req, targets, ids] {
        std::vector<ForceExpireOutcome> outcomes = forceExpire(req, targets);
        QMetaObject::invokeMethod(
            qApp,
            [guard, audit, outcomes = std::move(outcomes), ids] {
                const bool logged = auditForceExpireOutcomes(audit.data(), outcomes, ids);
                if (guard)
                    guard->onOutcomes(outcomes, logged);
            },
            Qt::QueuedConnection);
    });
}

void LeaseActions::onOutcomes(const std::vector<ForceExpireOutcome>& outcomes, bool logged)
{
    running_ = false;
    if (dialog_) {
        dialog_->showOutcomes(outcomes);
        if (!logged)
            dialog_->showFailure(dialog_->outcomeText() +
                                 tr("\n\nWARNING: the local audit log could not record this: %1")
                                     .arg(audit_ ? audit_->errorString() : tr("no audit log configured")));
    }
    updateEnabled();
    Q_EMIT finished(outcomes);
}

void LeaseActions::showAuditLog()
{
    if (!auditView_) {
        auditView_ = new AuditView(audit_, view_->window());
        auditView_->setAttribute(Qt::WA_DeleteOnClose);
    }
    auditView_->reload();
    auditView_->show();
    auditView_->raise();
}

void LeaseActions::createAuditTable()
{
    if (!monitor_ || !monitor_->config().operatorMode || running_)
        return;
    const PollerConfig cfg = monitor_->config();
    auto* ask = new QMessageBox(QMessageBox::Question, tr("Create server-side audit table"),
                                tr("Create the table %1 on the monitored database (if it does not exist)?\n\n"
                                   "Columns: id, at, db_role, application_name, client_addr, os_user, "
                                   "os_host, action, target, before (jsonb), after (jsonb), outcome.\n"
                                   "Force-expire then writes its record there in the same transaction as "
                                   "the change.")
                                    .arg(cfg.auditTable),
                                QMessageBox::Yes | QMessageBox::Cancel, view_->window());
    ask->setAttribute(Qt::WA_DeleteOnClose);
    connect(ask, &QMessageBox::buttonClicked, this, [this, ask, cfg](QAbstractButton* b) {
        if (ask->standardButton(b) != QMessageBox::Yes || running_)
            return;
        pg::ConnectOptions opts = cfg.connect;
        const QString label = databaseLabel();
        startWorker([guard = QPointer<LeaseActions>(this), audit = audit_, opts, cfg, label] {
            const CreateAuditTableResult r = createServerAuditTable(opts, cfg.auditTable, cfg.operatorMode);
            QMetaObject::invokeMethod(
                qApp,
                [guard, audit, r, label, table = cfg.auditTable] {
                    if (audit) {
                        AuditRecord rec;
                        rec.database = label;
                        rec.action = QStringLiteral("create-audit-table");
                        rec.target = table;
                        rec.after = r.statement;
                        rec.outcome = r.message();
                        rec.outcomeKey = r.error.isError() ? QStringLiteral("failed")
                                         : r.existed       ? QStringLiteral("existed")
                                                           : QStringLiteral("created");
                        audit->append(rec);
                    }
                    if (!guard)
                        return;
                    guard->running_ = false;
                    guard->updateEnabled();
                    auto* box = new QMessageBox(
                        r.error.isError() ? QMessageBox::Warning : QMessageBox::Information,
                        tr("Server-side audit table"), r.message(), QMessageBox::Ok, guard->view_->window());
                    box->setAttribute(Qt::WA_DeleteOnClose);
                    box->open();
                    Q_EMIT guard->auditTableResult(r.message(), !r.error.isError());
                },
                Qt::QueuedConnection);
        });
    });
    ask->open();
}

bool finishOperatorWorkAtExit(QTextStream& err, std::chrono::milliseconds timeout)
{
    if (backgroundWorkRunning() == 0)
        return true;
    for (QWidget* w : QApplication::topLevelWidgets())
        w->hide();
    QCoreApplication::processEvents(); // the windows go now, not after the wait
    err << "leasewatch: waiting for a running operator action to finish (its outcome goes to the audit log)…\n";
    err.flush();
    const bool finished = waitForBackgroundWork(timeout);
    if (!finished)
        err << "leasewatch: it did not finish; its audit record says \"sent, no answer yet\"\n";
    QCoreApplication::sendPostedEvents(); // the queued outcomes write their audit records
    return finished;
}

} // namespace lw::ui
