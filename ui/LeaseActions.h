#pragma once
// Operator actions on the leases page: "Force-expire…" (context menu, toolbar, Ctrl+E), the audit
// log view, and creating the server-side audit table. Disabled, with a tooltip that says why, while
// operator mode is off. The write runs on a worker thread: the UI never waits for the server.
#include "AuditView.h"
#include "ForceExpire.h"
#include "ForceExpireDialog.h"

#include <QObject>
#include <QPointer>

#include <chrono>

class QTextStream;

class QAction;
class QLabel;
class QWidget;

namespace lw {
class AuditLog;
class Monitor;
} // namespace lw

namespace lw::ui {

class LeasesView;

class LeaseActions : public QObject
{
    Q_OBJECT
public:
    // Adds the actions to `view`'s table (Qt::ActionsContextMenu). `audit` may be null (no local
    // log: the actions still work, and say so in the outcome).
    LeaseActions(LeasesView* view, Monitor* monitor, AuditLog* audit, QObject* parent = nullptr);
    ~LeaseActions() override; // returns at once: a running action finishes on its own thread

    QAction* forceExpireAction() const { return forceExpire_; }
    QAction* auditLogAction() const { return showAudit_; }
    QAction* createAuditTableAction() const { return createAuditTable_; }
    // A status-bar label "OPERATOR MODE" shown while operator mode is on (hidden otherwise).
    QLabel* createOperatorModeIndicator(QWidget* parent) const;

    ForceExpireDialog* dialog() const { return dialog_; } // the open confirmation dialog, if any
    AuditView* auditView() const { return auditView_; }
    bool isRunning() const { return running_; }

    static QString operatorModeOffTip();

public Q_SLOTS:
    void forceExpireSelected();
    void showAuditLog();
    void createAuditTable();
    void updateEnabled();

Q_SIGNALS:
    void finished(const std::vector<lw::ForceExpireOutcome>& outcomes);
    void auditTableResult(const QString& message, bool ok);

private:
    void run(const std::vector<ForceExpireTarget>& targets);
    void onOutcomes(const std::vector<ForceExpireOutcome>& outcomes, bool logged);
    QString databaseLabel() const;
    void startWorker(std::function<void()> body);

    LeasesView* view_;
    QPointer<Monitor> monitor_;
    QPointer<AuditLog> audit_;
    QAction* forceExpire_;
    QAction* showAudit_;
    QAction* createAuditTable_;
    QPointer<ForceExpireDialog> dialog_;
    QPointer<AuditView> auditView_;
    bool running_ = false;
    std::optional<LeaseTableConfig> pendingTable_; // the table of the leases in the open dialog
};

// Quitting while an operator action runs (a force-expire behind a row lock, a cancel): every
// window goes at once, and the process stays only until the action's outcome is in the audit
// log, at most `timeout` (the action's own timeouts end it sooner). Says so on `err`. False when it
// did not finish in time (its audit record then says "sent, no answer yet").
bool finishOperatorWorkAtExit(QTextStream& err, std::chrono::milliseconds timeout);

} // namespace lw::ui
