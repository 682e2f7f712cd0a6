// The overview on the real test cluster while the simulator runs a pinned pool and a crashed lease
// holder: without any click it names both incidents in words; the keyboard reaches the detail; the
// headless snapshot carries the same words.
#include "CycleScene.h"
#include "Programs.h"
#include "itemmodels/LeaseModel.h"
#include "LeasesView.h"
#include "LocksView.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "OverviewView.h"
#include "TestCluster.h"
#include "domain/Analysis.h"
#include "sim/Simulator.h"

#include <QApplication>
#include <QDir>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

using namespace lw;

class TestOverview : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The tab and window titles name the worst problem, which may have come after the others (the
    // findings model keeps rows in arrival order; the list sorts them).
    void shortStatusNamesTheWorst()
    {
        // A monitor of recorded data, shown one quiet snapshot: no own findings, and the server
        // clock the companion's findings are dated by.
        const std::unique_ptr<Monitor> recorded = Monitor::recorded(PollerConfig{}, QStringLiteral("test"));
        Monitor& monitor = *recorded;
        Snapshot quiet;
        quiet.ok = true;
        quiet.serverNow = 1000;
        quiet.cluster.maxConnections = 100;
        quiet.cluster.hasMonitorPrivilege = true;
        quiet.analysis = std::make_shared<const Analysis>(analyze(quiet, monitor.config().analysis, nullptr));
        ui::LocksView locks(&monitor);
        QVERIFY2(locks.summaryText().contains("nothing read yet"), qPrintable(locks.summaryText()));
        monitor.showRecorded(quiet);
        ui::OverviewView view(&monitor);
        QVERIFY2(locks.summaryText().startsWith("<b>0 advisory locks held</b>") &&
                     !locks.summaryText().contains("not live"),
                 qPrintable(locks.summaryText()));
        QCOMPARE(view.shortStatus(), QStringLiteral("recorded: no finding")); // never "all clear" when not live
        auto finding = [](FindingKind kind, int severity) {
            Finding f;
            f.kind = kind;
            f.severity = severity;
            f.subject = QStringLiteral("x");
            f.id = findingKindKey(kind) + QStringLiteral(":x");
            f.title = f.id;
            return f;
        };
        monitor.setExternalFindings(QStringLiteral("test"), {finding(FindingKind::KeyCollision, 2)});
        QCOMPARE(view.list()->model()->rowCount(), 1);
        QCOMPARE(view.shortStatus(), QStringLiteral("1 problem — key collision"));
        monitor.setExternalFindings(QStringLiteral("test"), {finding(FindingKind::KeyCollision, 2),
                                                             finding(FindingKind::PoolPinned, 3)});
        QCOMPARE(monitor.findings()->finding(0).kind, FindingKind::KeyCollision); // arrival order
        QCOMPARE(view.list()->model()->index(0, 0).data(FindingsModel::KindRole).toString(),
                 findingKindKey(FindingKind::PoolPinned)); // the worst, first in the list
        QCOMPARE(view.shortStatus(), QStringLiteral("2 problems — pool pinned"));

        // The connection lost: the findings are from before, and the title says so.
        Snapshot lost;
        lost.error.kind = DbError::Kind::ConnectionLost;
        lost.error.message = QStringLiteral("server closed the connection unexpectedly");
        monitor.showRecorded(lost);
        QCOMPARE(monitor.status().state, ConnectionStatus::State::Disconnected);
        QVERIFY(monitor.hasRefreshed());
        QCOMPARE(view.shortStatus(), QStringLiteral("disconnected"));
        QVERIFY2(locks.summaryText().startsWith("<b>0 advisory locks held</b>") &&
                     locks.summaryText().contains("not live"),
                 qPrintable(locks.summaryText()));
        QVERIFY2(view.healthText().contains("Disconnected") &&
                     view.healthText().contains("reconnects by itself. What follows is data from before"),
                 qPrintable(view.healthText()));
    }

    // pg_locks locked by another session: the rest is read, the locks are old — never "all clear".
    void locksNotReadIsNotAllClear()
    {
        const std::unique_ptr<Monitor> recorded = Monitor::recorded(PollerConfig{}, QStringLiteral("test"));
        Snapshot s;
        s.ok = true;
        s.serverNow = 1000;
        s.cluster.maxConnections = 100;
        s.cluster.hasMonitorPrivilege = true;
        TableLock lock;
        lock.table = QStringLiteral("pg_catalog.pg_locks");
        lock.pid = 4411;
        lock.applicationName = QStringLiteral("deploy");
        lock.state = QStringLiteral("idle in transaction");
        lock.query = QStringLiteral("LOCK TABLE pg_locks IN ACCESS EXCLUSIVE MODE");
        s.locksNotRead = catalogLockError({lock}, true);
        s.locksReused = true;
        s.locksAgeMs = 12000;
        s.analysis = std::make_shared<const Analysis>(analyze(s, recorded->config().analysis, nullptr));
        recorded->showRecorded(s);
        ui::OverviewView view(recorded.get());
        QCOMPARE(view.shortStatus(), QStringLiteral("no finding, pg_locks not read"));
        QVERIFY2(view.healthText().contains("the locks judged are 12 s old") &&
                     view.healthText().contains("pg_catalog.pg_locks is locked ACCESS EXCLUSIVE by pid 4411") &&
                     !view.healthText().contains("All clear"),
                 qPrintable(view.healthText()));
    }

    // Never connected: not "all clear", and the health line says nothing was read.
    void neverConnectedIsNotAllClear()
    {
        PollerConfig cfg;
        cfg.connect.dsn = QStringLiteral("host=127.0.0.1 port=1 dbname=postgres connect_timeout=2");
        Monitor monitor(cfg);
        ui::OverviewView view(&monitor);
        QCOMPARE(view.shortStatus(), QStringLiteral("connecting"));
        monitor.start();
        QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, ConnectionStatus::State::Disconnected, 10000);
        QVERIFY(!monitor.hasRefreshed());
        QCOMPARE(view.shortStatus(), QStringLiteral("not connected"));
        const QString health = view.healthText();
        QVERIFY2(health.contains("Not connected") && health.contains("Connection refused") &&
                     health.contains("Nothing has been read") && !health.contains("?.") &&
                     !health.contains("from before the connection was lost"),
                 qPrintable(health));
    }

    // Issue 52: a cycle PostgreSQL does not see is a critical card whose button cancels the session
    // it names (the waiter, not the root blocker), through the Locks page's confirmed action; the
    // build then finishes and the card goes. Screenshots of the Overview and the Locks page meanwhile.
    void hiddenCycleCardCancelsTheWaiter()
    {
        test::TestDatabase db("overview_cycle");
        test::CycleScene scene(db);
        QString why;
        QVERIFY2(scene.start(&why), qPrintable(why));
        PollerConfig cfg;
        cfg.connect.dsn = db.dsn();
        cfg.intervalMs = 250;
        cfg.operatorMode = true;
        Monitor monitor(cfg);
        ui::MainWindow w(&monitor, QStringLiteral("cycle test"));
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        monitor.start();
        QListView* list = w.overviewView()->list();
        auto cycleRow = [&] {
            for (int r = 0; r < list->model()->rowCount(); ++r)
                if (list->model()->index(r, 0).data(FindingsModel::KindRole).toString() == "hidden_deadlock")
                    return r;
            return -1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(cycleRow() >= 0, 20000);
        QCOMPARE(cycleRow(), 0); // critical: first
        list->setCurrentIndex(list->model()->index(0, 0));
        QPushButton* act = w.overviewView()->actionButton();
        QVERIFY(act->isVisible() && act->isEnabled());
        QCOMPARE(act->text(), QStringLiteral("Cancel pid %1…").arg(scene.migratorPid));

        const QString dir = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(dir);
        QVERIFY(w.grab().save(dir + "/test-hidden-cycle-overview.png"));
        w.tabs()->setCurrentWidget(w.locksView());
        QTest::qWait(300);
        QVERIFY(w.grab().save(dir + "/test-hidden-cycle-locks.png"));
        w.tabs()->setCurrentWidget(w.overviewView());

        // The confirmation names the session; yes sends the cancel.
        QString asked;
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                asked = box->text();
                box->button(QMessageBox::Yes)->click();
            }
        });
        answer.start(100);
        QSignalSpy done(w.locksView(), &ui::LocksView::backendSignalDone);
        act->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        answer.stop();
        QVERIFY2(asked.contains(QString::number(scene.migratorPid)), qPrintable(asked));
        QVERIFY(done.first().at(1).toBool());
        const QString built = scene.buildFinished();
        QVERIFY2(built.isEmpty(), qPrintable(built));
        QTRY_VERIFY_WITH_TIMEOUT(cycleRow() < 0, 10000);
    }

    void namesPinnedPoolAndStaleLeaseWithoutAClick()
    {
        test::TestDatabase db("overview");
        sim::Options so;
        so.dsn = db.dsn();
        for (const char* spec : {"pinned-pool:pool=4,waiters=2,hold=0,app=billing-api-o",
                                 "crashed-holder:ttl=3,crash_after=1,interval=60,every=120,flaky=0"}) {
            QString err;
            so.scenarios.push_back(*sim::parseScenario(QString::fromLatin1(spec), &err));
        }
        sim::Simulator simulator(so);
        QVERIFY(!simulator.start());

        PollerConfig cfg;
        cfg.connect.dsn = db.dsn();
        cfg.intervalMs = 250;
        cfg.analysis.thresholds.pinnedMinS = 1;
        cfg.lockNames = {"billing-job-1", "billing-job-2", "billing-job-3", "billing-job-4"};
        Monitor monitor(cfg);
        ui::MainWindow w(&monitor, QStringLiteral("overview test"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        monitor.start();
        QCOMPARE(w.tabs()->currentWidget(), w.overviewView()); // the first thing shown

        QListView* list = w.overviewView()->list();
        // The cards shown, looked for by kind and subject (the list's own rows, as the operator sees them).
        auto card = [&](FindingKind kind, const QString& subject) {
            for (int r = 0; r < list->model()->rowCount(); ++r) {
                const QModelIndex i = list->model()->index(r, 0);
                if (i.data(FindingsModel::KindRole).toString() == findingKindKey(kind) &&
                    i.data(FindingsModel::SubjectRole).toString() == subject)
                    return r;
            }
            return -1;
        };
        // The simulator's pool: its instance's key, as the analysis grouped it, pinned with 4 of 4.
        auto pinnedKey = [&] {
            if (const auto& a = monitor.lastSnapshot().analysis)
                for (const PoolGroup& g : a->groups())
                    if (g.applicationName == QLatin1String("billing-api-o") && g.pinned &&
                        g.idleHoldingAdvisory == 4 && g.total == 4)
                        return g.key;
            return QString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(!pinnedKey().isEmpty() && card(FindingKind::PoolPinned, pinnedKey()) >= 0,
                                 20000);
        const QString pinned =
            list->model()->index(card(FindingKind::PoolPinned, pinnedKey()), 0).data().toString();
        QVERIFY2(pinned.contains("billing-api-o"), qPrintable(pinned)); // names the instance
        // The stale lease: its card, and the lease is Stale on the leases model.
        QTRY_VERIFY_WITH_TIMEOUT(card(FindingKind::StaleLease, QStringLiteral("crashed-job")) >= 0, 20000);
        const QModelIndex staleCard =
            list->model()->index(card(FindingKind::StaleLease, QStringLiteral("crashed-job")), 0);
        QVERIFY2(staleCard.data(FindingsModel::SeverityRole).toInt() >= 2,
                 qPrintable(staleCard.data(FindingsModel::SeverityRole).toString()));
        const QString stale = staleCard.data().toString();
        const int row = monitor.leases()->rowOfKey("crashed-job");
        QVERIFY(row >= 0);
        QCOMPARE(monitor.leases()->stateAt(row), LeaseState::Stale);
        // It names the lease and its old holder (host and pid of the crashed instance).
        const auto& holder = monitor.leases()->entry(row).holder;
        QVERIFY(holder.structured);
        QVERIFY2(stale.contains("crashed-job") &&
                     stale.contains(QStringLiteral("%1 (pid %2)").arg(holder.host).arg(holder.pid)),
                 qPrintable(stale));
        for (int r = 1; r < list->model()->rowCount(); ++r) // worst first
            QVERIFY(list->model()->index(r - 1, 0).data(FindingsModel::SeverityRole).toInt() >=
                    list->model()->index(r, 0).data(FindingsModel::SeverityRole).toInt());
        // The worst state reaches the tab and the title: the count of cards and the worst one's kind.
        const QString st = w.overviewView()->shortStatus();
        const QString worst =
            list->model()->index(0, 0).data(FindingsModel::KindRole).toString().replace('_', ' ');
        QVERIFY2(st.section(QLatin1Char(' '), 0, 0).toInt() == list->model()->rowCount() &&
                     list->model()->rowCount() >= 2 && st.section(QStringLiteral(" — "), 1) == worst,
                 qPrintable(st));
        QVERIFY2(w.overviewView()->healthText().contains(st.section(QStringLiteral(" — "), 0, 0)),
                 qPrintable(w.overviewView()->healthText())); // the health line counts them too
        QVERIFY2(w.windowTitle().endsWith(QStringLiteral(" — ") + st), qPrintable(w.windowTitle()));
        QVERIFY2(w.tabs()->tabText(0).contains(st), qPrintable(w.tabs()->tabText(0)));
        // Pinned sessions are one finding, not one more per session.
        int idleHolding = 0;
        for (int r = 0; r < list->model()->rowCount(); ++r)
            idleHolding += list->model()->index(r, 0).data(FindingsModel::KindRole).toString() ==
                           "idle_holding_advisory_lock";
        QCOMPARE(idleHolding, 0);

        const QString dir = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(dir);
        QVERIFY(w.grab().save(dir + "/test-overview.png"));

        // Keyboard only: move to the stale-lease card and press Enter → the lease is selected.
        list->setFocus();
        int staleRow = -1;
        for (int r = 0; r < list->model()->rowCount(); ++r)
            if (list->model()->index(r, 0).data(FindingsModel::KindRole).toString() == "stale_lease")
                staleRow = r;
        QVERIFY(staleRow >= 0);
        list->setCurrentIndex(list->model()->index(0, 0));
        for (int i = 0; i < staleRow; ++i)
            QTest::keyClick(list, Qt::Key_Down);
        QCOMPARE(list->currentIndex().row(), staleRow);
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.leasesView()));
        const auto sel = w.leasesView()->table()->selectionModel()->selectedRows(LeaseModel::Name);
        QCOMPARE(sel.size(), 1);
        QCOMPARE(sel.first().data().toString(), QStringLiteral("crashed-job"));

        // The terminal reads the same diagnosis, in the same words (with the default thresholds: a pool
        // counts as pinned after 5 s).
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto& a = monitor.lastSnapshot().analysis;
                if (a)
                    for (const PoolGroup& g : a->groups())
                        if (g.pinned && g.pinnedForS > 6)
                            return true;
                return false;
            }(),
            20000);
        const auto r = test::runProcess(lw::test::leasewatchBin(),
                                        {"snapshot", db.dsn(), "--lock-names",
                                         "billing-job-1,billing-job-2,billing-job-3,billing-job-4"});
        QCOMPARE(r.code, 0);
        QVERIFY2(
            r.out.contains("pooled connections are idle holding advisory locks hashtext('billing-job-1')"),
            qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("holder %1 (pid %2)").arg(holder.host).arg(holder.pid)),
                 qPrintable(r.out));
    }
};

QTEST_MAIN(TestOverview)
#include "tst_overview.moc"
