// Issue 11 point 4 and issue 5 point 7 as pure rules: the footprint budget stretches the refresh
// interval, pg_locks is read less often only when it dominates.
#include "Poller.h"

#include <QTest>

using namespace lw;

class TestFootprint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void budgetStretchesTheInterval()
    {
        // 2 ms per refresh within 1 %: 200 ms would do, the configured 1 s stands.
        QCOMPARE(stretchedIntervalMs(1000, 2.0, 0.01), 1000);
        // 30 ms per refresh: 3 s between refreshes keeps it at 1 %.
        QCOMPARE(stretchedIntervalMs(1000, 30.0, 0.01), 3000);
        QCOMPARE(stretchedIntervalMs(1000, 30.5, 0.01), 3050);
        // Never beyond a minute (the status bar shows the figures), never below the configuration.
        QCOMPARE(stretchedIntervalMs(1000, 5000.0, 0.01), 60000);
        QCOMPARE(stretchedIntervalMs(120000, 5000.0, 0.01), 120000);
        // Disabled, or nothing measured yet.
        QCOMPARE(stretchedIntervalMs(1000, 30.0, 0.0), 1000);
        QCOMPARE(stretchedIntervalMs(1000, 0.0, 0.01), 1000);
    }

    void locksAreSkippedOnlyWhenTheyDominate()
    {
        // Few rows: always read, whatever they cost.
        QCOMPARE(locksEveryN(5000, 100.0, 10000, 5), 1);
        // 100 000 rows ≈ 300 ms, more than the whole measured refresh: every 5th time at most.
        QCOMPARE(locksEveryN(100000, 110.0, 10000, 5), 5);
        // 20 000 rows ≈ 60 ms of an 80 ms refresh: three times the rest, every 3rd refresh.
        QCOMPARE(locksEveryN(20000, 80.0, 10000, 5), 3);
        // Many rows but the rest costs more (a large leases table): read every time.
        QCOMPARE(locksEveryN(20000, 200.0, 10000, 5), 1);
        QCOMPARE(locksEveryN(100000, 110.0, 10000, 1), 1);
    }
};

QTEST_GUILESS_MAIN(TestFootprint)
#include "tst_footprint.moc"
