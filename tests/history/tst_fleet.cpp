// Many databases at a glance (issue 27, point 5): every saved profile in one window, worst first —
// one recorded by a real `leasewatch record` (a crashed holder's stale lease), one open in a window,
// one only configured — refreshed from the recorder's store and the open window; Enter opens that
// database's console, or raises the one already open.
#include "Programs.h"
#include "Consoles.h"
#include "FleetView.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "TestCluster.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QPushButton>
#include <QTimer>
#include <QDir>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace lw;

class TestFleet : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyProfileWorstFirst()
    {
        test::TestDatabase billingDb("fleet_billing");
        billingDb.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                       "timestamptz)");
        billingDb.exec("INSERT INTO leases VALUES ('nightly-report', 'worker-3:4242:9f2c1a7be01d5c33', now() - "
                       "interval '2 h', now() - interval '10 min')");
        test::TestDatabase ordersDb("fleet_orders");
        ordersDb.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                      "timestamptz)");
        QTemporaryDir dir;
        const QString historyDir = dir.filePath("data/Leasewatch/leasewatch/history");
        ProfileStore store(dir.filePath("config/Leasewatch/leasewatch/profiles.json"));
        for (const auto& [name, dsn] : {std::pair{QStringLiteral("billing"), billingDb.dsn()},
                                        std::pair{QStringLiteral("orders"), ordersDb.dsn()},
                                        std::pair{QStringLiteral("archive"), QStringLiteral("host=/nonexistent dbname=a")}}) {
            Profile p;
            p.name = name;
            p.dsn = dsn;
            p.intervalMs = 200;
            store.upsert(p);
        }
        QCOMPARE(store.save(), std::nullopt);

        // billing: recorded by the real recorder, no window.
        QProcess rec;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath("data"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath("config"));
        rec.setProcessEnvironment(env);
        rec.start(lw::test::leasewatchBin(), {"record", "billing"});
        QVERIFY(rec.waitForStarted(10000));
        const auto stop = qScopeGuard([&] {
            rec.terminate();
            rec.waitForFinished(20000);
        });

        app::Consoles consoles(&store, nullptr);
        consoles.setHistoryDir(historyDir);
        // orders: open in a window.
        ui::MainWindow* orders = consoles.open(*store.find("orders"));
        QTRY_VERIFY_WITH_TIMEOUT(consoles.monitor(0)->hasRefreshed(), 15000);

        ui::FleetView* fleet = consoles.showFleet();
        QVERIFY(fleet && fleet->isVisible());
        QAbstractItemModelTester tester(fleet->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(consoles.showFleet(), fleet); // one such window
        QTableView* table = fleet->table();
        auto row = [&](int r) { return table->model()->index(r, FleetModel::Database).data().toString(); };
        auto rankAt = [&](int r) { return table->model()->index(r, 0).data(FleetModel::RankRole).toInt(); };
        auto rankOf = [&](const QString& name) {
            for (int r = 0; r < table->model()->rowCount(); ++r)
                if (row(r) == name)
                    return rankAt(r);
            return -2;
        };
        // The recorder's store says what it saw: the stale lease is critical; refreshed every 2 s.
        QTRY_VERIFY_WITH_TIMEOUT(rankOf("billing") == 3, 20000);
        QCOMPARE(table->model()->rowCount(), 3);
        QVERIFY(rankOf("orders") >= 0); // live (other tests' server-wide sessions may add findings)
        QCOMPARE(rankOf("archive"), -1); // configured only: not watched, last
        for (int r = 1; r < 3; ++r)
            QVERIFY2(rankAt(r - 1) >= rankAt(r), qPrintable(row(r - 1) + " before " + row(r)));
        QCOMPARE(row(2), QStringLiteral("archive"));
        for (int r = 0; r < 3; ++r) {
            const FleetEntry& e = fleet->model()->entry(r);
            if (e.profile == u"billing") {
                QCOMPARE(e.source, FleetEntry::Source::Recorder);
                QCOMPARE(e.recorderPid, rec.processId());
                QVERIFY(e.answering);
                QVERIFY(e.counts.critical >= 1);
                QVERIFY(e.worst.contains("nightly-report"));
            } else if (e.profile == u"orders") {
                QCOMPARE(e.source, FleetEntry::Source::Window);
                QVERIFY(e.answering);
            } else {
                QCOMPARE(e.source, FleetEntry::Source::Configured);
            }
        }
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        fleet->grab().save(shots + "/fleet.png");

        // Enter on billing opens its console (a window reading the recorder's store); on orders it
        // raises the window already open.
        for (int r = 0; r < 3; ++r)
            if (row(r) == u"orders") {
                table->setCurrentIndex(table->model()->index(r, 0));
                QTest::keyClick(table, Qt::Key_Return);
            }
        QCOMPARE(consoles.count(), 1);
        QVERIFY(orders->isVisible());
        for (int r = 0; r < 3; ++r)
            if (row(r) == u"billing") {
                table->setCurrentIndex(table->model()->index(r, 0));
                QTest::keyClick(table, Qt::Key_Return);
            }
        QCOMPARE(consoles.count(), 2);
        QVERIFY(!consoles.recorder(1)); // the recorder's store is read, not written a second time
        QTRY_VERIFY_WITH_TIMEOUT(consoles.monitor(1)->hasRefreshed(), 15000);
        // The recorder stops: billing reads as recorded, not watched now (the window is open, though:
        // the open window is what the row shows).
        rec.terminate();
        QVERIFY(rec.waitForFinished(20000));
        QTRY_VERIFY_WITH_TIMEOUT(fleet->model()->rowCount() == 3 && [&] {
            for (int r = 0; r < 3; ++r)
                if (fleet->model()->entry(r).profile == u"billing")
                    return fleet->model()->entry(r).source == FleetEntry::Source::Window;
            return false;
        }(), 5000);
    }

    // Started without a database (leasewatch from the desktop menu): the profiles dialog offers
    // every database at a glance, and the fleet window is what opens.
    void startedWithoutADatabaseOffersTheFleet()
    {
        QTemporaryDir dir;
        ProfileStore store(dir.filePath("profiles.json"));
        for (const char* name : {"billing", "orders"}) {
            Profile p;
            p.name = QString::fromLatin1(name);
            p.dsn = QStringLiteral("host=/nonexistent dbname=%1").arg(p.name);
            store.upsert(p);
        }
        QCOMPARE(store.save(), std::nullopt);
        app::Consoles consoles(&store, nullptr);
        consoles.setHistoryDir(dir.filePath("history"));
        bool clicked = false;
        QTimer::singleShot(0, [&] {
            QWidget* dialog = QApplication::activeModalWidget();
            QVERIFY(dialog);
            auto* fleetButton = dialog->findChild<QPushButton*>("showFleet");
            QVERIFY(fleetButton && fleetButton->isVisible());
            const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
            QDir().mkpath(shots);
            dialog->grab().save(shots + "/profiles-dialog-fleet.png");
            fleetButton->click();
            clicked = true;
        });
        QVERIFY(consoles.chooseAndOpen());
        QVERIFY(clicked);
        QCOMPARE(consoles.count(), 0); // no console: the fleet
        ui::FleetView* fleet = consoles.showFleet();
        QVERIFY(fleet->isVisible());
        QCOMPARE(fleet->model()->rowCount(), 2);
    }
};

QTEST_MAIN(TestFleet)
#include "tst_fleet.moc"
