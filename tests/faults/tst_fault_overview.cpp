// Issue 26, point 1 (first part): a hung server (postmaster and backends SIGSTOPped) is said in
// words on the Overview, with since when, and its tab never reads "all clear" while the data is not
// live; after SIGCONT the console is live again and all clear.
#include "FaultSupport.h"
#include "Monitor.h"
#include "OverviewView.h"
#include "TestCluster.h"

#include <QDir>
#include <QtTest>

using namespace lw;

class TstFaultOverview : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hungServerIsSaidNotAllClear()
    {
        fault::PrivateServer srv(test::privateClusterOptions(QStringLiteral("overview-hang")));
        const auto started = srv.start();
        QVERIFY2(!started, qPrintable(started.value_or(QString())));
        PollerConfig cfg = test::pollerConfig(srv.dsn(), 200);
        cfg.refreshDeadlineMs = 1500;
        cfg.connect.connectTimeoutS = 2;
        Monitor m(cfg);
        ui::OverviewView view(&m);
        view.resize(1000, 500);
        view.show();
        m.start();
        QTRY_COMPARE_WITH_TIMEOUT(view.shortStatus(), QStringLiteral("all clear"), 15000);

        srv.freeze({srv.postmasterPid()});
        srv.freeze(srv.childPids());
        // Until the refresh's deadline the console cannot know; from then on it must say so.
        QVERIFY(fault::waitFor(
            [&] { return !m.lastSnapshot().ok || m.status().state != ConnectionStatus::State::Connected; }, 15000));
        QStringList seen; // every tab status while frozen
        for (int i = 0; i < 30; ++i) { // three seconds of the outage, through reconnect attempts
            QTest::qWait(100);
            seen << view.shortStatus();
            QVERIFY2(view.healthText().contains("since"), qPrintable(view.healthText()));
        }
        QVERIFY2(!seen.contains(QStringLiteral("all clear")), qPrintable(seen.join(", ")));
        QDir().mkpath("/tmp/lw-shots");
        view.grab().save("/tmp/lw-shots/overview-hung.png");

        srv.thawAll();
        QTRY_COMPARE_WITH_TIMEOUT(view.shortStatus(), QStringLiteral("all clear"), 40000);
        view.grab().save("/tmp/lw-shots/overview-recovered.png");
    }
};

QTEST_MAIN(TstFaultOverview)
#include "tst_fault_overview.moc"
