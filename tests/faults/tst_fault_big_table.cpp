// Issue 26, point 5: a leases table of 1 000 000 rows. The footprint budget stretches the refresh
// interval (the server's time per refresh stays within its share) and the window says so in its
// status bar; the window still answers (a filter narrows the million rows to one). The GUI
// thread's longest gap is reported (qInfo), not asserted: the first population of the model
// blocks it for seconds (measured ~5.5 s here), which is the open part of this point — see the
// README's fault table.
#include "FaultSupport.h"
#include "LeasesView.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "TestCluster.h"

#include <QLineEdit>
#include <QTabWidget>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

using namespace lw;

class TstFaultBigTable : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void millionLeasesStretchTheBudgetAndSaySo()
    {
        test::TestDatabase db("big_table");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        db.exec("INSERT INTO leases SELECT 'job-' || g, 'host-' || (g % 50) || ':' || (1000 + g % 50) || ':' || "
                "md5(g::text)::varchar(16), now(), now() + interval '10 min' FROM generate_series(1, 1000000) g");
        db.exec("ANALYZE leases");
        PollerConfig cfg = test::pollerConfig(db.dsn(), 1000);
        cfg.refreshDeadlineMs = 30000; // the first read of a million rows on a shared 2-core machine
        Monitor monitor(cfg);
        ui::MainWindow w(&monitor, QStringLiteral("big"));
        w.resize(1200, 700);
        w.show();
        fault::LoopLatencyProbe probe;
        probe.start();
        monitor.start();
        QVERIFY(fault::waitFor([&] { return monitor.leases()->rowCount() == 1000000; }, 120000));
        QVERIFY(fault::waitFor([&] { return monitor.lastSnapshot().effectiveIntervalMs > cfg.intervalMs; }, 60000));
        QVERIFY2(w.refreshText().contains(QStringLiteral("stretched from %1 s").arg(cfg.intervalMs / 1000.0, 0, 'f', 1)),
                 qPrintable(w.refreshText()));
        // The window answers: a filter narrows a million rows to one.
        QLineEdit* filter = w.leasesView()->findChild<QLineEdit*>();
        QVERIFY(filter);
        filter->setText(QStringLiteral("job-777777"));
        QVERIFY(fault::waitFor([&] { return w.leasesView()->table()->model()->rowCount() == 1; }, 30000));
        probe.stop();
        qInfo("1 000 000 leases: refresh every %d ms, server %.0f ms/refresh, longest GUI-thread gap %lld ms",
              monitor.lastSnapshot().effectiveIntervalMs, monitor.lastSnapshot().serverMs, probe.maxGapMs());
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        w.tabs()->setCurrentWidget(w.leasesView());
        w.grab().save(shots + "/window-million-leases.png");
    }
};

QTEST_MAIN(TstFaultBigTable)
#include "tst_fault_big_table.moc"
