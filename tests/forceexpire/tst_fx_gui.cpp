// The force-expire action with real widgets (offscreen) on the real test cluster: a real Monitor
// feeds a real LeasesView; the operator selects a stale lease, presses Ctrl+E, reads the dialog,
// confirms, and reads the outcome; the row in the database and the audit log say the same.
#include "AuditView.h"
#include "BackgroundWork.h"
#include "ForceExpireDialog.h"
#include "FxSupport.h"
#include "LeaseActions.h"
#include "LeasesView.h"
#include "LibraryDdl.h"
#include "LocksView.h"
#include "Monitor.h"
#include "itemmodels/LeaseModel.h"
#include "store/AuditLog.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace lw;
using namespace lw::fxtest;

namespace {
int rowOf(QTableView* table, const QString& name)
{
    for (int r = 0; r < table->model()->rowCount(); ++r)
        if (table->model()->index(r, LeaseModel::Name).data().toString() == name)
            return r;
    return -1;
}
// Saves the dialog as `shot`, confirms it, and tells whether its one lease was expired.
bool confirmedAndExpired(ui::LeaseActions& actions, ui::ForceExpireDialog* dlg, const QString& shot)
{
    const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
    QDir().mkpath(shots);
    dlg->grab().save(shots + "/" + shot);
    QSignalSpy finished(&actions, &ui::LeaseActions::finished);
    QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
    if (!finished.wait(10000) && finished.isEmpty())
        return false;
    const auto outcomes = finished.at(0).at(0).value<std::vector<ForceExpireOutcome>>();
    if (outcomes.size() != 1 || outcomes.front().kind != ForceExpireOutcome::Kind::Expired) {
        qWarning("outcome: %s", outcomes.empty() ? "none" : qPrintable(outcomes.front().text()));
        return false;
    }
    return true;
}
// A fast-refreshing console in operator mode reading `preset`'s table only.
PollerConfig presetConfig(const QString& dsn, const char* preset)
{
    PollerConfig cfg = monitorConfig(dsn, true);
    cfg.leases = *LeaseTableConfig::preset(QString::fromLatin1(preset));
    cfg.intervalMs = 300;
    return cfg;
}
// Whether the Overview holds a finding of `kind`.
bool said(Monitor& monitor, FindingKind kind)
{
    for (int i = 0; i < monitor.findings()->rowCount(); ++i)
        if (monitor.findings()->finding(i).kind == kind)
            return true;
    return false;
}
// Force-expire on the first row, as the operator does: the dialog, open.
ui::ForceExpireDialog* dialogForFirstRow(ui::LeasesView& view, ui::LeaseActions& actions)
{
    view.table()->selectRow(0);
    actions.forceExpireAction()->trigger();
    return actions.dialog();
}
} // namespace

class TestFxGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Audit records are built from values, never spliced (issue 23): a backend whose
    // application_name is JSON-looking text is recorded with exactly that name.
    void cancelOfASplicedNameIsAuditedAsThatName()
    {
        test::TestDatabase db("fx_audit_splice");
        const QString name = QStringLiteral("x\",\"outcome\":\"expired");
        pg::Connection holder;
        pg::ConnectOptions ho;
        ho.dsn = db.dsn();
        ho.applicationName = name;
        ho.readOnly = false;
        QVERIFY(!holder.connect(ho).isError());
        pg::ResultPtr r;
        QVERIFY(!holder.exec({"SELECT pg_advisory_lock(4242)", {}}, r, pg::Clock::now() + std::chrono::seconds(5)).isError());
        QTemporaryDir dir;
        AuditLog audit(dir.filePath("audit.sqlite"));
        Monitor monitor(monitorConfig(db.dsn(), true));
        ui::LocksView view(&monitor);
        view.setAuditLog(&audit);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.locks()->rowCount() >= 1, 10000);
        QSignalSpy done(&view, &ui::LocksView::backendSignalDone);
        view.signalBackend(holder.backendPid(), false, false);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        const auto records = audit.records();
        QCOMPARE(records.size(), size_t(1));
        const AuditRecord& rec = records.front();
        QCOMPARE(rec.action, QStringLiteral("cancel-backend"));
        QCOMPARE(rec.outcomeKey, QStringLiteral("cancelled"));
        QJsonParseError err;
        const QJsonDocument before = QJsonDocument::fromJson(rec.before.toUtf8(), &err);
        QVERIFY2(err.error == QJsonParseError::NoError && before.isObject(), qPrintable(rec.before));
        QCOMPARE(before.object().value("application_name").toString(), name);
        QVERIFY2(!before.object().contains("outcome"), qPrintable(rec.before));
        QCOMPARE(before.object().value("pid").toInt(), holder.backendPid());
    }

    void forceExpireStaleAndAliveLeases()
    {
        test::TestDatabase db("fx_gui");
        db.exec(kLeasesDdl);
        db.exec("INSERT INTO leases VALUES ('stale-job', 'crashed-host:4242:dead', now() - interval '2 min', "
                "now() - interval '30 s'), ('live-job', 'live-host:7:aa', now() - interval '5 s', now() + "
                "interval '5 min')");
        QTemporaryDir dir;
        AuditLog audit(dir.filePath("audit.sqlite"));
        QVERIFY(audit.isOpen());
        Monitor monitor(monitorConfig(db.dsn(), true));
        ui::LeasesView view(monitor.leases());
        ui::LeaseActions actions(&view, &monitor, &audit);
        QLabel* indicator = actions.createOperatorModeIndicator(&view);
        view.resize(1100, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        monitor.start();
        QTableView* table = view.table();
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, 10000);
        QVERIFY(indicator->isVisible());
        QCOMPARE(table->contextMenuPolicy(), Qt::ActionsContextMenu);
        QVERIFY(table->actions().contains(actions.forceExpireAction()));
        QVERIFY(!actions.forceExpireAction()->isEnabled()); // nothing selected yet
        QCOMPARE(actions.forceExpireAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));

        // The stale lease: dead evidence, no second confirmation needed.
        table->selectRow(rowOf(table, "stale-job"));
        QVERIFY(actions.forceExpireAction()->isEnabled());
        view.activateWindow();
        table->setFocus();
        if (QTest::qWaitForWindowActive(&view, 2000))
            QTest::keyClick(table, Qt::Key_E, Qt::ControlModifier);
        else
            actions.forceExpireAction()->trigger(); // platform without activation: same slot
        QTRY_VERIFY(actions.dialog());
        ui::ForceExpireDialog* dlg = actions.dialog();
        QTRY_VERIFY(dlg->isVisible());
        const QString details = dlg->detailsText();
        QVERIFY2(details.contains("stale-job") && details.contains("crashed-host") &&
                     details.contains("4242"),
                 qPrintable(details));
        QVERIFY2(details.contains("holder looks dead") && details.contains("expired"), qPrintable(details));
        const QString follows = dlg->findChild<QLabel*>("consequences")->text();
        QVERIFY2(follows.contains("another instance may take the lease at its next attempt",
                                  Qt::CaseInsensitive) &&
                     follows.contains("the work may run twice") && follows.contains("no fencing token"),
                 qPrintable(follows));
        QVERIFY(!dlg->aliveCheckBox()->isVisible());
        QVERIFY(dlg->confirmButton()->isEnabled());
        QSignalSpy finished(&actions, &ui::LeaseActions::finished);
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QTRY_VERIFY(dlg->outcomeText().contains("stale-job: expired: its expiry is now the server's now()"));
        QVERIFY(dlg->closeButton()->isEnabled());
        QCOMPARE(db.value("SELECT (expires_at > now() - interval '10 s' AND expires_at <= now())::text FROM "
                          "leases WHERE name = 'stale-job'"),
                 QStringLiteral("true"));
        QCOMPARE(db.value("SELECT holder FROM leases WHERE name = 'stale-job'"),
                 QStringLiteral("crashed-host:4242:dead"));
        auto recs = audit.records();
        QCOMPARE(int(recs.size()), 1);
        QCOMPARE(recs[0].action, QStringLiteral("force-expire"));
        QCOMPARE(recs[0].target, QStringLiteral("public.leases/stale-job"));
        QCOMPARE(recs[0].outcomeKey, QStringLiteral("expired"));
        QCOMPARE(recs[0].dbRole, db.value("SELECT current_user"));
        QVERIFY(recs[0].database.startsWith(db.name()));
        QTest::mouseClick(dlg->closeButton(), Qt::LeftButton);
        QTRY_VERIFY(!actions.dialog());

        // The live lease: looks alive, so the button waits for the explicit second confirmation.
        table->clearSelection();
        table->selectRow(rowOf(table, "live-job"));
        actions.forceExpireAction()->trigger();
        QTRY_VERIFY(actions.dialog());
        dlg = actions.dialog();
        QVERIFY(dlg->detailsText().contains("holder looks ALIVE"));
        QVERIFY(dlg->aliveCheckBox()->isVisible());
        QVERIFY(!dlg->confirmButton()->isEnabled());
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton); // ignored while disabled: nothing starts
        QVERIFY(!actions.isRunning());
        QCOMPARE(finished.count(), 1);
        dlg->aliveCheckBox()->click();
        QVERIFY(dlg->confirmButton()->isEnabled());
        QTest::mouseClick(dlg->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
        QTRY_VERIFY(dlg->outcomeText().contains("live-job: expired"));
        QCOMPARE(db.value("SELECT (expires_at <= now())::text FROM leases WHERE name = 'live-job'"),
                 QStringLiteral("true"));
        QCOMPARE(int(audit.records().size()), 2);

        // The audit view lists both, newest first.
        actions.auditLogAction()->trigger();
        QTRY_VERIFY(actions.auditView() && actions.auditView()->isVisible());
        QTableWidget* log = actions.auditView()->table();
        QCOMPARE(log->rowCount(), 2);
        QCOMPARE(log->item(0, ui::AuditView::Target)->text(), QStringLiteral("public.leases/live-job"));
        QVERIFY(log->item(0, ui::AuditView::Outcome)->text().startsWith("expired"));

        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        dlg->grab().save(shots + "/test-force-expire-dialog.png");
        dlg->close();
        actions.auditView()->close();
    }

    // The operator confirms a force-expire while another session holds the table in ACCESS
    // EXCLUSIVE mode, then closes the window: closing returns while the write still waits on the
    // server (it is not joined), and its outcome still reaches the audit log.
    void closingDuringALockedForceExpireReturnsAtOnce()
    {
        test::TestDatabase db("fx_close");
        db.exec(kLeasesDdl);
        db.exec("INSERT INTO leases VALUES ('stale-job', 'crashed-host:4242:dead', now() - interval '2 min', "
                "now() - interval '30 s')");
        QTemporaryDir dir;
        AuditLog audit(dir.filePath("audit.sqlite"));
        auto* monitor = new Monitor(monitorConfig(db.dsn(), true));
        auto* view = new ui::LeasesView(monitor->leases());
        auto* actions = new ui::LeaseActions(view, monitor, &audit);
        view->resize(900, 300);
        view->show();
        monitor->start();
        QTRY_COMPARE_WITH_TIMEOUT(view->table()->model()->rowCount(), 1, 10000);

        pg::ConnPtr locker(PQconnectdb(db.dsn().toUtf8().constData()));
        QCOMPARE(PQstatus(locker.get()), CONNECTION_OK);
        pg::ResultPtr r(PQexec(locker.get(), "BEGIN"));
        r.reset(PQexec(locker.get(), "LOCK TABLE leases IN ACCESS EXCLUSIVE MODE"));
        QCOMPARE(PQresultStatus(r.get()), PGRES_COMMAND_OK);

        view->table()->selectRow(0);
        actions->forceExpireAction()->trigger();
        QTRY_VERIFY(actions->dialog() && actions->dialog()->isVisible());
        QTest::mouseClick(actions->dialog()->confirmButton(), Qt::LeftButton);
        const QByteArray waiting = "SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                   "'leasewatch-operator' AND wait_event_type = 'Lock' AND datname = current_database()";
        QTRY_COMPARE_WITH_TIMEOUT(db.value(waiting), QStringLiteral("1"), 5000);

        // What closing the window does: its actions, view and monitor go.
        delete actions;
        delete view;
        delete monitor;
        QCOMPARE(db.value(waiting), QStringLiteral("1")); // still waiting: nobody joined it

        r.reset(PQexec(locker.get(), "ROLLBACK"));
        QTRY_VERIFY_WITH_TIMEOUT(!audit.records().empty() && audit.records().front().outcomeKey != "pending",
                                 10000);
        const AuditRecord rec = audit.records().front();
        QVERIFY2(rec.outcomeKey == "expired" || rec.outcomeKey == "lock_timeout", qPrintable(rec.outcome));
        QCOMPARE(db.value("SELECT (expires_at > now() - interval '10 s')::text FROM leases"),
                 QString::fromLatin1(rec.outcomeKey == "expired" ? "true" : "false"));
        QVERIFY(waitForBackgroundWork(std::chrono::seconds(10)));
    }

    // Quitting the application (what main() does after its event loop returns) while a
    // force-expire waits behind an ACCESS EXCLUSIVE lock: the window goes before any waiting, the
    // wait is bounded by the action's own lock_timeout, and its outcome reaches the audit log.
    void quittingDuringALockedForceExpireRecordsItsOutcome()
    {
        test::TestDatabase db("fx_quit");
        db.exec(kLeasesDdl);
        db.exec("INSERT INTO leases VALUES ('stale-job', 'crashed-host:4242:dead', now() - interval '2 min', "
                "now() - interval '30 s')");
        QTemporaryDir dir;
        AuditLog audit(dir.filePath("audit.sqlite"));
        Monitor monitor(monitorConfig(db.dsn(), true));
        ui::LeasesView view(monitor.leases());
        ui::LeaseActions actions(&view, &monitor, &audit);
        view.resize(900, 300);
        view.show();
        monitor.start();
        QTRY_COMPARE_WITH_TIMEOUT(view.table()->model()->rowCount(), 1, 10000);

        pg::ConnPtr locker(PQconnectdb(db.dsn().toUtf8().constData()));
        QCOMPARE(PQstatus(locker.get()), CONNECTION_OK);
        pg::ResultPtr r(PQexec(locker.get(), "BEGIN"));
        r.reset(PQexec(locker.get(), "LOCK TABLE leases IN ACCESS EXCLUSIVE MODE"));
        QCOMPARE(PQresultStatus(r.get()), PGRES_COMMAND_OK);

        view.table()->selectRow(0);
        actions.forceExpireAction()->trigger();
        QTRY_VERIFY(actions.dialog() && actions.dialog()->isVisible());
        QTest::mouseClick(actions.dialog()->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                           "'leasewatch-operator' AND wait_event_type = 'Lock' AND datname = current_database()"),
                                  QStringLiteral("1"), 5000);

        // The window is hidden before the wait: when it goes, the action is still running.
        struct HideWatch : QObject
        {
            bool hiddenWhileRunning = false;
            bool eventFilter(QObject*, QEvent* e) override
            {
                if (e->type() == QEvent::Hide)
                    hiddenWhileRunning = backgroundWorkRunning() > 0;
                return false;
            }
        } watch;
        view.installEventFilter(&watch);
        QString said;
        QTextStream err(&said);
        const bool finished = ui::finishOperatorWorkAtExit(err, std::chrono::seconds(15));
        QVERIFY(finished);
        QVERIFY(watch.hiddenWhileRunning);
        QVERIFY(!view.isVisible());
        QVERIFY(!said.isEmpty()); // it told the terminal why it stays
        QVERIFY(!audit.records().empty());
        const AuditRecord rec = audit.records().front();
        QCOMPARE(rec.outcomeKey, QStringLiteral("lock_timeout")); // the lock is still held
        r.reset(PQexec(locker.get(), "ROLLBACK"));
        QCOMPARE(db.value("SELECT (expires_at < now() - interval '10 s')::text FROM leases"), QStringLiteral("true"));
    }

    // A writer on the application's clock 30 s behind the server takes a 20 s lease: by the
    // server's clock it expired 10 s ago. The console sees the take happen, estimates the writer's
    // offset, says so (a behind-clock finding, the stale card says why it may only look expired),
    // and force-expire asks for a confirmation naming the offset.
    void writerBehindNeedsItsOwnConfirmation()
    {
        test::TestDatabase db("fx_behind");
        db.exec(kLeasesDdl);
        PollerConfig cfg = monitorConfig(db.dsn(), true);
        cfg.leases.writerUsesAppClock = true;
        Monitor monitor(cfg);
        ui::LeasesView view(monitor.leases());
        ui::LeaseActions actions(&view, &monitor, nullptr);
        view.show();
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.lastSnapshot().ok, 10000);
        db.exec("INSERT INTO leases VALUES ('nightly', 'slow-clock:9:aa', now() - interval '30 s', "
                "now() - interval '10 s')");
        QTRY_COMPARE_WITH_TIMEOUT(view.table()->model()->rowCount(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.leases()->writerSkewAt(0) < -25, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int i = 0; i < monitor.findings()->rowCount(); ++i)
                    if (monitor.findings()->finding(i).kind == FindingKind::WriterClockSkew)
                        return true;
                return false;
            }(),
            5000);

        view.table()->selectRow(0);
        actions.forceExpireAction()->trigger();
        QTRY_VERIFY(actions.dialog() && actions.dialog()->isVisible());
        ui::ForceExpireDialog* dlg = actions.dialog();
        QVERIFY(dlg->clockCheckBox()->isVisible());
        QVERIFY(!dlg->confirmButton()->isEnabled());
        if (dlg->aliveCheckBox()->isVisible())
            dlg->aliveCheckBox()->click();
        QVERIFY(!dlg->confirmButton()->isEnabled()); // the clock confirmation is its own
        dlg->clockCheckBox()->click();
        QVERIFY(dlg->confirmButton()->isEnabled());
        // Confirmed twice: the lease (stale by the server's clock) is expired.
        QVERIFY(confirmedAndExpired(actions, dlg, "test-force-expire-writer-behind.png"));
        dlg->close();
    }

    // A stuck Liquibase changelog lock from the window: the dialog says it is Liquibase's own
    // release, and confirming frees it that way (LOCKED = FALSE, the row kept).
    void liquibaseLockIsFreedTheLibrarysWay()
    {
        test::TestDatabase db("fx_liquibase");
        db.exec("CREATE TABLE databasechangeloglock (id int PRIMARY KEY, locked boolean NOT NULL, lockgranted "
                "timestamp, lockedby varchar(255)); INSERT INTO databasechangeloglock VALUES (1, TRUE, "
                "localtimestamp - interval '25 min', 'ci-runner (10.0.0.9)')");
        PollerConfig cfg = monitorConfig(db.dsn(), true);
        cfg.leases = *LeaseTableConfig::preset("liquibase");
        Monitor monitor(cfg);
        ui::LeasesView view(monitor.leases());
        ui::LeaseActions actions(&view, &monitor, nullptr);
        view.show();
        monitor.start();
        QTRY_COMPARE_WITH_TIMEOUT(view.table()->model()->rowCount(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor.leases()->stateAt(0), LeaseState::Stale, 5000);
        view.table()->selectRow(0);
        actions.forceExpireAction()->trigger();
        QTRY_VERIFY(actions.dialog() && actions.dialog()->isVisible());
        ui::ForceExpireDialog* dlg = actions.dialog();
        QVERIFY(!dlg->aliveCheckBox()->isVisible()); // stale, no session from ci-runner or 10.0.0.9
        QVERIFY(dlg->confirmButton()->isEnabled());
        QVERIFY(confirmedAndExpired(actions, dlg, "test-force-expire-liquibase.png"));
        QCOMPARE(db.value("SELECT format('%s|%s', locked, lockedby IS NULL) FROM databasechangeloglock"),
                 QStringLiteral("f|t"));
        // No longer held: the row goes (or reads released), and with it the stale finding.
        QTRY_VERIFY_WITH_TIMEOUT(monitor.leases()->rowCount() == 0 ||
                                     monitor.leases()->stateAt(0) == LeaseState::Released,
                                 10000);
        dlg->grab().save(qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots/test-force-expire-liquibase-done.png");
        dlg->close();
    }

    // knex's migration flag left set by a run that died (its session set it, then disconnected):
    // the window says so, the dialog calls it dead from what the console saw, and confirming runs
    // knex's own release (is_locked = 0) as the audited compare-and-set.
    void knexFlagLeftSetIsFreedTheLibrarysWay()
    {
        test::TestDatabase db("fx_knex");
        // knex 3.3.0's table-creator.js: increments('index').primary(), integer('is_locked').
        db.exec("CREATE TABLE knex_migrations_lock (index serial PRIMARY KEY, is_locked integer); "
                "INSERT INTO knex_migrations_lock (is_locked) VALUES (0)");
        Monitor monitor(presetConfig(db.dsn(), "knex"));
        ui::LeasesView view(monitor.leases());
        ui::LeaseActions actions(&view, &monitor, nullptr);
        view.show();
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.hasRefreshed(), 10000);
        QTest::qWait(700); // a refresh or two with the flag clear: its setting is seen happen
        {
            // The run: sets the flag in its own transaction, then dies.
            std::optional<pg::Connection> run(test::openAppSession(db.dsn(), "knex-run"));
            pg::ResultPtr r;
            QVERIFY(!run->exec({"UPDATE knex_migrations_lock SET is_locked = 1 WHERE is_locked = 0", {}}, r,
                               pg::Clock::now() + std::chrono::seconds(5))
                         .isError());
            QTRY_COMPARE_WITH_TIMEOUT(view.table()->model()->rowCount(), 1, 10000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(said(monitor, FindingKind::FlagLeftSet), 30000);
        ui::ForceExpireDialog* dlg = dialogForFirstRow(view, actions);
        QTRY_VERIFY(dlg && dlg->isVisible());
        QVERIFY(!dlg->aliveCheckBox()->isVisible()); // looks dead: the session that set it is gone
        QVERIFY(dlg->confirmButton()->isEnabled());
        QVERIFY(confirmedAndExpired(actions, dlg, "test-force-expire-knex.png"));
        QCOMPARE(db.value("SELECT is_locked FROM knex_migrations_lock"), QStringLiteral("0"));
        QTRY_VERIFY_WITH_TIMEOUT(!said(monitor, FindingKind::FlagLeftSet), 10000);
        dlg->close();
    }

    // graphile-worker's job held by a worker whose LISTEN session ended (killed mid-job): said gone,
    // the dialog needs no second confirmation, and the job is freed graphile-worker's way.
    void graphileJobOfAGoneWorkerIsFreedTheLibrarysWay()
    {
        test::TestDatabase db("fx_gworker");
        db.exec(test::kGraphileDdl);
        db.exec("insert into graphile_worker._private_jobs (task_id, key) values (1, 'nightly-report')");
        Monitor monitor(presetConfig(db.dsn(), "graphile-worker"));
        ui::LeasesView view(monitor.leases());
        ui::LeaseActions actions(&view, &monitor, nullptr);
        view.show();
        {
            // The worker: its listening session for its life, and its lock on the job.
            std::optional<pg::Connection> listen(test::openAppSession(db.dsn(), QString()));
            pg::ResultPtr r;
            QVERIFY(!listen->exec({"LISTEN \"jobs:insert\"", {}}, r,
                                  pg::Clock::now() + std::chrono::seconds(5))
                         .isError());
            monitor.start();
            QTRY_VERIFY_WITH_TIMEOUT(monitor.hasRefreshed(), 10000);
            db.exec("update graphile_worker._private_jobs set locked_by = 'pool-0a1b2c', locked_at = now()");
            QTRY_COMPARE_WITH_TIMEOUT(view.table()->model()->rowCount(), 1, 10000);
            QTest::qWait(700);
        } // killed: its session ends, the job stays locked
        QTRY_VERIFY_WITH_TIMEOUT(said(monitor, FindingKind::HolderGone), 30000);
        ui::ForceExpireDialog* dlg = dialogForFirstRow(view, actions);
        QTRY_VERIFY(dlg && dlg->isVisible());
        QVERIFY(!dlg->aliveCheckBox()->isVisible()); // looks dead: its worker's LISTEN session is gone
        QVERIFY(confirmedAndExpired(actions, dlg, "test-force-expire-graphile-worker.png"));
        QCOMPARE(db.value("SELECT coalesce(locked_by, 'free') FROM graphile_worker._private_jobs"), QStringLiteral("free"));
        QTRY_VERIFY_WITH_TIMEOUT(!said(monitor, FindingKind::HolderGone), 10000);
        dlg->close();
    }

    void operatorModeOffDisablesTheAction()
    {
        test::TestDatabase db("fx_gui_off");
        db.exec(kLeasesDdl);
        db.exec("INSERT INTO leases VALUES ('stale-job', 'crashed-host:4242:dead', now() - interval '2 min', "
                "now() - interval '30 s')");
        const QString before = db.value("SELECT expires_at::text FROM leases");
        QTemporaryDir dir;
        AuditLog audit(dir.filePath("audit.sqlite"));
        Monitor monitor(monitorConfig(db.dsn(), false));
        ui::LeasesView view(monitor.leases());
        ui::LeaseActions actions(&view, &monitor, &audit);
        QLabel* indicator = actions.createOperatorModeIndicator(&view);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        monitor.start();
        QTRY_COMPARE_WITH_TIMEOUT(view.table()->model()->rowCount(), 1, 10000);
        QVERIFY(!indicator->isVisible());
        view.table()->selectRow(0);
        QAction* act = actions.forceExpireAction();
        QVERIFY(!act->isEnabled());
        QVERIFY2(act->toolTip().contains("Operator mode is off"), qPrintable(act->toolTip()));
        QVERIFY(!actions.createAuditTableAction()->isEnabled());
        act->trigger();                // disabled: does nothing
        actions.forceExpireSelected(); // even called directly: refuses
        QTest::keyClick(view.table(), Qt::Key_E, Qt::ControlModifier); // the shortcut opens a dialog at once, or nothing
        QVERIFY(!actions.dialog());
        QVERIFY(!actions.isRunning());
        QVERIFY(audit.records().empty());
        QCOMPARE(db.value("SELECT expires_at::text FROM leases"), before);
    }
};

QTEST_MAIN(TestFxGui)
#include "tst_fx_gui.moc"
