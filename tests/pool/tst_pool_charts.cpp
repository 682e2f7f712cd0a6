// The chart interface and the page on synthetic refreshes: each update is one replace() per drawn
// series (never point-by-point appends), thinning keeps spikes, hidden charts are not redrawn, an
// hour of 1 s samples for 20 groups stays within the ring buffers. No timing assertions.
#include "Monitor.h"
#include "domain/PoolHistory.h"
#include "itemmodels/PoolModel.h"
#include "PoolTestSupport.h"
#include "PoolView.h"
#include "charts/ChartPanel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QProgressBar>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace lw;
using namespace lw::ui;
using test::session;
using test::snapshot;

namespace {
ChartData ramp(int n, double t0, std::vector<double> perSeries)
{
    ChartData d;
    d.values.assign(perSeries.size(), {});
    for (int i = 0; i < n; ++i) {
        d.t.push_back(t0 + i);
        for (size_t s = 0; s < perSeries.size(); ++s)
            d.values[s].push_back(perSeries[s]);
    }
    return d;
}

std::vector<SessionRow> twentyGroups(int extraPinned)
{
    std::vector<SessionRow> rows;
    int pid = 100;
    for (int g = 0; g < 20; ++g)
        for (int c = 0; c < 3; ++c)
            rows.push_back(session(pid++, QStringLiteral("svc-%1").arg(g, 2, 10, QLatin1Char('0')),
                                   c == 0 ? QStringLiteral("active") : QStringLiteral("idle"),
                                   QStringLiteral("10.0.0.%1").arg(g)));
    for (int i = 0; i < extraPinned; ++i)
        rows.push_back(session(900 + i, QStringLiteral("billing-api"), QStringLiteral("idle"), "10.0.1.1"));
    return rows;
}
std::vector<int> pinnedPids(int n)
{
    std::vector<int> p;
    for (int i = 0; i < n; ++i)
        p.push_back(900 + i);
    return p;
}
} // namespace

class TestPoolCharts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void updateIsOneReplacePerDrawnSeries()
    {
        ChartPanel p(QStringLiteral("t"));
        p.setSeries({{"pinned", Qt::red, SeriesSpec::Kind::Stacked},
                     {"idle", Qt::gray, SeriesSpec::Kind::Stacked},
                     {"pool size", Qt::black, SeriesSpec::Kind::Limit}});
        // The bottom area needs no lower line: 1 + 2 + 1 drawn series.
        QCOMPARE(p.drawnSeriesCount(), 4);
        for (int i = 1; i <= 10; ++i)
            p.setData(ramp(100 + i, 1000, {4, 2, 6}), 1000, 1000 + 300);
        QCOMPARE(p.replaceCount(), 10 * 4);
        QCOMPARE(p.sampleCount(), 110);
        QCOMPARE(p.drawnPoints(0).size(), 110);
        QCOMPARE(p.lastValue(0).value(), 4.0);
        QCOMPARE(p.lastValue(1).value(), 2.0);
        QCOMPARE(p.drawnPoints(1).last().y(), 6.0); // stacked on the first
        QCOMPARE(p.drawnPoints(2).last().y(), 6.0); // the limit line
        QCOMPARE(p.drawnPoints(0).last().x(), (1000.0 + 109) * 1000);
        // Same series again: nothing rebuilt.
        p.setSeries(p.series());
        QCOMPARE(p.drawnSeriesCount(), 4);
        QCOMPARE(p.replaceCount(), 40);
        QVERIFY(p.valuesText(1050).contains("pinned: 4"));
        QVERIFY(p.valuesText(1050).contains("total: 6"));
    }

    // Connections are whole numbers: every label of the value axis is one, before any data too.
    void valueAxisLabelsAreWholeNumbers()
    {
        ChartPanel p(QStringLiteral("t"));
        auto whole = [&p] {
            for (double v : p.valueTicks())
                if (v != std::floor(v))
                    return false;
            return p.valueTicks().size() >= 2;
        };
        QVERIFY2(whole(), qPrintable(QString::number(p.valueTicks().size())));
        p.setSeries({{"idle", Qt::gray, SeriesSpec::Kind::Stacked}});
        for (double top : {0.0, 1.0, 3.0, 7.0}) {
            p.setData(ramp(10, 0, {top}), 0, 10);
            QVERIFY2(whole(), qPrintable(QString::number(top)));
        }
    }

    // Following the live edge is "live" only while refreshes arrive.
    void notLiveWithoutAConnection()
    {
        PollerConfig cfg;
        cfg.connect.dsn = QStringLiteral("host=127.0.0.1 port=1 dbname=postgres connect_timeout=2");
        Monitor monitor(cfg);
        PoolView view(&monitor);
        QVERIFY2(view.statusText().contains("not live: connecting"), qPrintable(view.statusText()));
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(view.statusText().contains("not live: no connection"), 10000);
        view.setPaused(true);
        QVERIFY2(view.statusText().contains("paused view"), qPrintable(view.statusText()));
    }

    // Issue 52 point 3 in the window: on PostgreSQL 16+ with reserved_connections set, the cluster
    // box says whether the console's role gets in when the application has taken every other slot,
    // or the GRANT that lets it; nothing when no slot is reserved (15 and older: always).
    void reservedSlotsAreSaid()
    {
        Monitor m(PollerConfig{});
        PoolView v(&m);
        v.resize(1200, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto shown = [&](int reserved, bool mayUse) {
            Snapshot s = snapshot(1.7e9, {session(101, QStringLiteral("billing-api"), QStringLiteral("idle"), "10.0.0.7")});
            s.server.user = QStringLiteral("on-call");
            s.cluster.reservedConnections = reserved;
            s.cluster.mayUseReserved = mayUse;
            Q_EMIT m.refreshed(s);
            return v.connectionText()->text();
        };
        QString text = shown(3, false);
        QVERIFY2(text.contains("3 reserved connection(s), which on-call may not use (GRANT pg_use_reserved_connections "
                               "TO \"on-call\";)"),
                 qPrintable(text));
        const QString dir = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(dir);
        QTest::qWait(100); // laid out as shown
        QVERIFY(v.grab().save(dir + "/test-pool-reserved-slots.png"));
        text = shown(3, true);
        QVERIFY2(text.contains("3 reserved connection(s): on-call may use them, so the console gets in"), qPrintable(text));
        text = shown(0, false);
        QVERIFY2(!text.contains("reserved"), qPrintable(text));
    }

    void thinningKeepsTheSpike()
    {
        ChartPanel p(QStringLiteral("t"));
        p.setSeries({{"waiting", Qt::red, SeriesSpec::Kind::Line}});
        ChartData d = ramp(3600, 0, {1});
        d.values[0][1234] = 50;
        p.setData(d, 0, 3600);
        QVERIFY(p.drawnPoints(0).size() <= p.maxPoints());
        double top = 0;
        for (const QPointF& pt : p.drawnPoints(0))
            top = std::max(top, pt.y());
        QCOMPARE(top, 50.0);
        QCOMPARE(p.drawnPoints(0).last().x(), 3599.0 * 1000);
        QCOMPARE(p.replaceCount(), 1);
        QVERIFY(p.valuesText(1234.2).contains("waiting: 50"));
    }

    // An hour and more of 1 s refreshes for 20 groups while the page is hidden: nothing is drawn,
    // the rings stay at capacity; shown, only the chart on screen is redrawn, once per refresh.
    void pageWithAnHourOfTwentyGroups()
    {
        PollerConfig cfg;
        cfg.analysis.poolSizes.insert(QStringLiteral("billing-api"), 4);
        cfg.analysis.thresholds.pinnedMinS = 0;
        Monitor m(cfg);
        PoolView v(&m);
        new QAbstractItemModelTester(v.model(), QAbstractItemModelTester::FailureReportingMode::QtTest, &v);
        v.resize(1200, 700);
        const double t0 = 1.7e9;
        int t = 0;
        for (; t < 3700; ++t)
            Q_EMIT m.refreshed(snapshot(t0 + t, twentyGroups(t % 2 ? 4 : 2), pinnedPids(t % 2 ? 4 : 2)));
        for (auto tab :
             {PoolView::GroupTab, PoolView::BudgetTab, PoolView::LockTableTab, PoolView::TroubleTab})
            QCOMPARE(v.chart(tab)->replaceCount(), 0);
        const auto* g = v.history()->group(QStringLiteral("svc-07 on 10.0.0.7"));
        QVERIFY(g);
        QCOMPARE(g->series.fine().size(), v.history()->fineCapacity());
        QCOMPARE(v.history()->groupKeys().size(), size_t(21));

        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QCOMPARE(v.model()->rowCount(), 21);
        // The pinned pool is selected first.
        QCOMPARE(v.selectedGroup(), QStringLiteral("billing-api on 10.0.1.1"));
        ChartPanel* gc = v.chart(PoolView::GroupTab);
        QCOMPARE(gc->sampleCount(), 301); // the last 5 minutes
        const int before = gc->replaceCount();
        for (int i = 0; i < 5; ++i, ++t)
            Q_EMIT m.refreshed(snapshot(t0 + t, twentyGroups(4), pinnedPids(4)));
        QCOMPARE(gc->replaceCount() - before, 5 * gc->drawnSeriesCount());
        QCOMPARE(v.chart(PoolView::BudgetTab)->replaceCount(), 0);
        QCOMPARE(gc->lastValue(0).value(), 4.0); // idle holding advisory
        QCOMPARE(gc->lastValue(5).value(), 4.0); // pool size line
        QVERIFY(gc->title().contains("PINNED"));

        // Window: last hour, since start (per-minute peaks beyond the fine tier).
        v.setWindow(PoolView::Window::LastHour);
        QCOMPARE(gc->sampleCount(), 3601);
        QVERIFY(gc->drawnPoints(0).size() <= gc->maxPoints());
        v.setWindow(PoolView::Window::SinceStart);
        QCOMPARE(v.visibleRange().first, t0);
        QVERIFY(gc->sampleCount() > 3600);
        QVERIFY(!v.timeScroll()->isEnabled());

        // Pause: new refreshes are recorded but the view stays; scrolling back moves it.
        v.setWindow(PoolView::Window::Last5Min);
        v.setPaused(true);
        const auto range = v.visibleRange();
        const int paused = gc->replaceCount();
        for (int i = 0; i < 3; ++i, ++t)
            Q_EMIT m.refreshed(snapshot(t0 + t, twentyGroups(4), pinnedPids(4)));
        QCOMPARE(v.visibleRange(), range);
        QCOMPARE(gc->replaceCount(), paused);
        QCOMPARE(v.history()->lastTime(), t0 + t - 1);
        v.timeScroll()->setValue(v.timeScroll()->value() - 600); // drag ten minutes back
        QCOMPARE(v.visibleRange().second, range.second - 600);
        QVERIFY(v.isPaused());
        v.setPaused(false);
        QCOMPARE(v.visibleRange().second, v.history()->lastTime());
        QCOMPARE(v.timeScroll()->value(), v.timeScroll()->maximum());

        // Budget chart: the biggest groups, "other", and the budget line; the gauge.
        v.showChart(PoolView::BudgetTab);
        ChartPanel* bc = v.chart(PoolView::BudgetTab);
        QCOMPARE(bc->replaceCount(), bc->drawnSeriesCount());
        QCOMPARE(bc->lastValue(int(bc->series().size()) - 1).value(), 97.0);
        QCOMPARE(v.connectionGauge()->maximum(), 97);
        QCOMPARE(v.connectionGauge()->value(), 20 * 3 + 4 + 1);

        QTemporaryDir dir;
        const QString png = dir.filePath("budget.png");
        QVERIFY(v.exportVisibleChart(png));
        const QImage img(png);
        QVERIFY(!img.isNull() && img.width() > 200 && img.height() > 100);
    }
};

QTEST_MAIN(TestPoolCharts)
#include "tst_pool_charts.moc"
