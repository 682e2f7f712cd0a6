// The pool page on the real cluster while the real simulator pins a pool and fills the lock table:
// PoolHistory's samples, the chart's series and the gauges against what PostgreSQL itself says.
#include "ConsoleSupport.h"
#include "Monitor.h"
#include "domain/PoolHistory.h"
#include "itemmodels/PoolModel.h"
#include "PoolView.h"
#include "TestCluster.h"
#include "charts/ChartPanel.h"
#include "sim/Simulator.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QTest>

using namespace lw;
using lw::test::fastConfig;
using lw::test::startSim;
using namespace lw::ui;

namespace {

// The group of the pinned pool's application in the grouping shown, or nullptr.
const PoolHistory::GroupTrack* groupOf(const PoolHistory& h, const QString& app)
{
    for (const QString& key : h.groupKeys()) {
        const auto* g = h.group(key);
        if (g->current.applicationName == app && g->current.total > 0)
            return g;
    }
    return nullptr;
}

bool hasManyColors(const QImage& img)
{
    QSet<QRgb> colors;
    for (int y = 0; y < img.height(); y += 7)
        for (int x = 0; x < img.width(); x += 7)
            colors.insert(img.pixel(x, y));
    return colors.size() > 8;
}
} // namespace

class TestPoolIntegration : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // (a) The pinned instance: 4 connections idle holding advisory locks against a pool line of 4,
    // in PoolHistory's samples and on the chart; (d) the page's window, pause and export; and the
    // page's screenshot with this data.
    void pinnedPoolAgainstItsPoolSize()
    {
        test::TestDatabase db("pool_pinned");
        auto simulator = startSim(db.dsn(), {"pinned-pool:pool=4,waiters=2,hold=0,app=billing-api-p",
                                             "lock-waits:depth=3,kind=advisory,hold=30,pause=1"});
        PollerConfig cfg = fastConfig(db.dsn());
        cfg.lockNames = {"billing-job-1", "billing-job-2", "billing-job-3", "billing-job-4"};
        cfg.analysis.poolSizes.insert(QStringLiteral("billing-api-p"), 4);
        Monitor m(cfg);
        PoolView v(&m);
        new QAbstractItemModelTester(v.model(), QAbstractItemModelTester::FailureReportingMode::QtTest, &v);
        v.resize(1200, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(groupOf(*v.history(), "billing-api-p") &&
                                     groupOf(*v.history(), "billing-api-p")->current.pinned,
                                 20000);
        const auto* g = groupOf(*v.history(), "billing-api-p");
        const GroupSample last = g->series.fine().back();
        QCOMPARE(last.idleHoldingAdvisory, 4);
        QCOMPARE(last.total(), 4);
        QCOMPARE(g->current.poolSize.value_or(0), 4);
        v.selectGroup(g->current.key);
        v.showChart(PoolView::GroupTab);
        ChartPanel* c = v.chart(PoolView::GroupTab);
        // After the next refresh the chart holds the same as the history.
        const int replaces = c->replaceCount();
        QTRY_VERIFY_WITH_TIMEOUT(c->replaceCount() > replaces, 5000);
        QCOMPARE(c->series().size(), 6);
        QVERIFY(c->series()[5].name.contains("pool size 4"));
        QCOMPARE(c->lastValue(0).value_or(-1), 4.0); // idle holding advisory lock (pinned)
        QCOMPARE(c->lastValue(5).value_or(-1), 4.0); // pool size
        QCOMPARE(c->drawnPoints(0).last().y(), 4.0);
        QCOMPARE(c->drawnPoints(5).last().y(), 4.0);
        for (int s = 1; s <= 4; ++s)
            QCOMPARE(c->lastValue(s).value_or(-1), 0.0);
        QVERIFY(c->title().contains("PINNED"));
        // The same instance's row in the table.
        QVERIFY(v.model()->rowOfKey(g->current.key) >= 0);

        // Lock waits showing, and a few seconds of history for the picture (the lines, not a dot).
        QTRY_VERIFY_WITH_TIMEOUT(v.history()->lastCluster()->waitingOnLock >= 2, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(v.history()->lastTime() - v.history()->startedAt() >= 4, 15000);

        // (d) Window: last hour, back to five minutes; pause holds the view while sampling goes on.
        v.setWindow(PoolView::Window::LastHour);
        QVERIFY(v.visibleRange().second - v.visibleRange().first >= 60);
        v.setWindow(PoolView::Window::SinceStart);
        QCOMPARE(v.visibleRange().first, v.history()->startedAt());
        v.setWindow(PoolView::Window::Last5Min);
        v.setPaused(true);
        const auto range = v.visibleRange();
        const int samples = v.history()->cluster().fine().size();
        const int pausedReplaces = c->replaceCount();
        QTRY_VERIFY_WITH_TIMEOUT(v.history()->cluster().fine().size() >= samples + 2, 5000);
        QCOMPARE(v.visibleRange(), range);
        QCOMPARE(c->replaceCount(), pausedReplaces);
        QTemporaryDir dir;
        const QString png = dir.filePath("group.png");
        QVERIFY(v.exportVisibleChart(png));
        const QImage img(png);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), c->size());
        QVERIFY(hasManyColors(img));
        v.setPaused(false);
        QTRY_VERIFY_WITH_TIMEOUT(c->replaceCount() > pausedReplaces, 5000);
        QCOMPARE(v.visibleRange().second, v.history()->lastTime());

        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        QVERIFY(v.grab().save(shots + "/test-pool-page.png", "PNG"));
        QVERIFY(v.exportVisibleChart(shots + "/test-pool-chart-group.png"));
        for (auto [tab, name] :
             {std::pair{PoolView::BudgetTab, "budget"}, std::pair{PoolView::TroubleTab, "trouble"}}) {
            v.showChart(tab);
            QVERIFY(v.exportVisibleChart(shots + "/test-pool-chart-" + name + ".png"));
        }
    }

    // (b) Lock-table pressure: the gauge shows the share taken, matching
    // count(*) FROM pg_locks WHERE NOT fastpath within one refresh.
    void lockTablePressureOnTheGauge()
    {
        test::TestDatabase db("pool_lock_pressure");
        const int capacity = db.value("SELECT current_setting('max_locks_per_transaction')::int * "
                                      "(current_setting('max_connections')::int + "
                                      "current_setting('max_prepared_transactions')::int)")
                                 .toInt();
        QVERIFY(capacity > 0);
        Monitor m(fastConfig(db.dsn()));
        PoolView v(&m);
        v.resize(1200, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.showChart(PoolView::LockTableTab);
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(v.history()->hasSamples(), 10000);
        auto simulator = startSim(db.dsn(), {"lock-pressure:fraction=0.3,hold=5,every=0"});
        QProgressBar* gauge = v.lockTableGauge();
        const int target = int(std::ceil(0.3 * capacity));
        QTRY_VERIFY_WITH_TIMEOUT(gauge->value() >= target, 15000);
        QCOMPARE(gauge->maximum(), capacity);
        // What the server says now; the gauge must show it by the next refresh. Tolerance: the
        // console's and this query's own locks.
        const int count = db.value("SELECT count(*) FROM pg_locks WHERE NOT fastpath").toInt();
        QVERIFY(count >= target);
        QTRY_VERIFY_WITH_TIMEOUT(std::abs(gauge->value() - count) <= 10, 1000);
        const double share = double(gauge->value()) / gauge->maximum();
        QVERIFY2(share >= 0.3 && share < 0.32, qPrintable(QString::number(share)));
        QVERIFY2(gauge->text().contains("≈ 30 %"), qPrintable(gauge->text()));
        QVERIFY(v.lockTableText()->text().contains("advisory"));
        // The chart: advisory locks at the bottom, the nominal capacity as the line.
        ChartPanel* c = v.chart(PoolView::LockTableTab);
        QVERIFY(c->lastValue(0).value_or(0) >= target);
        QCOMPARE(c->lastValue(2).value_or(0), double(capacity));
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        QVERIFY(v.exportVisibleChart(shots + "/test-pool-chart-locktable.png"));
    }
};

QTEST_MAIN(TestPoolIntegration)
#include "tst_pool_integration.moc"
