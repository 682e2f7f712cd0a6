// PoolHistory's ring buffers and samples, and the groups model, on synthetic refreshes.
#include "domain/PoolHistory.h"
#include "itemmodels/PoolModel.h"
#include "PoolTestSupport.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lw;
using test::session;
using test::snapshot;

class TestPoolHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ringBufferKeepsItsCapacity()
    {
        RingBuffer<int> r(5);
        for (int i = 0; i < 23; ++i)
            r.push_back(i);
        QCOMPARE(r.size(), 5);
        QCOMPARE(r.capacity(), 5);
        QCOMPARE(r.front(), 18);
        QCOMPARE(r.back(), 22);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(r[i], 18 + i);
    }

    // An hour and a half of 1 s refreshes for 20 groups: every ring stays at its capacity, the
    // coarse tier holds one sample per minute, and "since start" reaches back to the first minute.
    void historyIsBoundedAndReachesBack()
    {
        PoolHistory h(nullptr, 3600, 100);
        for (int t = 1; t <= 5400; ++t) {
            std::vector<SessionRow> rows;
            for (int g = 0; g < 20; ++g)
                rows.push_back(session(1000 + g, QStringLiteral("app-%1").arg(g), QStringLiteral("idle")));
            rows.push_back(session(2000, QStringLiteral("app-0"), QStringLiteral("active")));
            h.add(snapshot(1000.0 + t, rows));
        }
        QCOMPARE(h.groupKeys().size(), size_t(20));
        const auto* g0 = h.group(QStringLiteral("app-0 (local)"));
        QVERIFY(g0);
        QCOMPARE(g0->series.fine().size(), 3600);
        QCOMPARE(g0->series.fine().capacity(), 3600);
        QCOMPARE(h.cluster().fine().size(), 3600);
        QCOMPARE(h.cluster().coarse().size(), 90); // minutes 16..105 done, 106 pending
        QCOMPARE(g0->current.total, 2);
        QCOMPARE(g0->current.active, 1);
        const auto all = g0->series.range(h.startedAt(), h.lastTime());
        QVERIFY(all.front().t < 1000.0 + 120); // per-minute peaks before the fine tier
        QCOMPARE(all.back().t, h.lastTime());
        for (size_t i = 1; i < all.size(); ++i)
            QVERIFY(all[i].t > all[i - 1].t);
        const auto last5 = g0->series.range(h.lastTime() - 300, h.lastTime());
        QCOMPARE(last5.size(), size_t(301));
    }

    // The five states are disjoint; a group that leaves gets zeros and stays listed after the
    // present ones; every grouping keeps its own history.
    void statesSplitAndGroupsThatLeave()
    {
        PoolHistory h;
        AnalysisConfig cfg;
        cfg.poolSizes.insert(QStringLiteral("billing-api"), 4);
        h.setAnalysisConfig(cfg);
        std::vector<SessionRow> rows = {
            session(1, "billing-api", "idle", "10.0.0.7"),
            session(2, "billing-api", "idle", "10.0.0.7"),
            session(3, "billing-api", "active", "10.0.0.7"),
            session(4, "billing-api", "idle in transaction", "10.0.0.7"),
            session(5, "billing-api", "active", "10.0.0.7", true),
            session(6, "billing-api", "idle", "10.0.0.8"),
            session(7, "reports", "active"),
        };
        h.add(snapshot(100, rows, {1}));
        const auto* g = h.group(QStringLiteral("billing-api on 10.0.0.7"));
        QVERIFY(g);
        const GroupSample s = g->series.fine().back();
        QCOMPARE(s.idleHoldingAdvisory, 1);
        QCOMPARE(s.idle, 1);
        QCOMPARE(s.active, 1);
        QCOMPARE(s.idleInTransaction, 1);
        QCOMPARE(s.waitingOnLock, 1);
        QCOMPARE(s.total(), 5);
        QCOMPARE(g->current.poolSize.value_or(0), 4);
        // By application: both instances together.
        const auto* app = h.group(GroupBy::ApplicationName, QStringLiteral("billing-api"));
        QVERIFY(app);
        QCOMPARE(app->series.fine().back().total(), 6);
        // reports leaves.
        rows.pop_back();
        h.add(snapshot(101, rows, {1}));
        const auto* r = h.group(QStringLiteral("reports (local)"));
        QVERIFY(r);
        QCOMPARE(r->series.fine().size(), 2);
        QCOMPARE(r->series.fine().back().total(), 0);
        QCOMPARE(h.groupKeys().back(), QStringLiteral("reports (local)"));
        // Switching the grouping shows that grouping's history at once.
        QSignalSpy spy(&h, &PoolHistory::groupByChanged);
        h.setGroupBy(GroupBy::ApplicationName);
        QCOMPARE(spy.size(), 1);
        QCOMPARE(h.groupKeys().front(), QStringLiteral("billing-api"));
        QCOMPARE(h.group(QStringLiteral("billing-api"))->series.fine().size(), 2);
        // A failed refresh is a gap, not zeros; a clock stepping back is ignored.
        Snapshot failed;
        failed.serverNow = 102;
        h.add(failed);
        h.add(snapshot(50, rows));
        QCOMPARE(h.cluster().fine().size(), 2);
    }

    // The analysis groups the sessions every way; the history takes its groups when it was made
    // with the history's configuration (whichever grouping its findings use), and groups the
    // sessions itself otherwise. Either way every grouping's history is the same.
    void analysisGroupingsServeEveryGrouping()
    {
        AnalysisConfig cfg;
        cfg.poolSizes.insert(QStringLiteral("billing-api"), 4);
        cfg.thresholds.pinnedMinS = 0;
        std::vector<SessionRow> rows = {
            session(1, "billing-api", "idle", "10.0.0.7"),   session(2, "billing-api", "idle", "10.0.0.7"),
            session(3, "billing-api", "active", "10.0.0.8"), session(4, "billing-api", "idle", "10.0.0.8"),
            session(5, "reports", "active"),                  session(6, "reports", "idle", "10.0.0.9"),
        };
        rows[5].user = QStringLiteral("reporter");
        PoolHistory reused, own;
        reused.setAnalysisConfig(cfg);
        own.setAnalysisConfig(cfg);
        for (GroupBy analysisBy : {GroupBy::User, GroupBy::ClientInstance, GroupBy::Database}) {
            for (int step = 0; step < 2; ++step) {
                const double t = 100 + 10 * int(analysisBy) + step;
                Snapshot s = snapshot(t, rows, {1, 2, 4});
                AnalysisConfig acfg = cfg;
                acfg.groupBy = analysisBy;
                s.analysis = std::make_shared<const Analysis>(analyze(s, acfg));
                QCOMPARE(s.analysis->groups().size(), s.analysis->groupsBy[size_t(analysisBy)].size());
                reused.add(s);
                // Another configuration (a threshold the groups do not use): the history groups
                // the sessions itself, with the analysis' lock holders.
                acfg.thresholds.idleHoldingS += 1;
                s.analysis = std::make_shared<const Analysis>(analyze(s, acfg));
                own.add(s);
                rows[size_t(step)].state = QStringLiteral("active");
            }
        }
        for (GroupBy by : {GroupBy::ClientInstance, GroupBy::ApplicationName, GroupBy::User, GroupBy::Database}) {
            reused.setGroupBy(by);
            own.setGroupBy(by);
            QCOMPARE(reused.groupKeys(), own.groupKeys());
            QVERIFY(!own.groupKeys().empty());
            for (const QString& key : own.groupKeys()) {
                const PoolHistory::GroupTrack *a = reused.group(key), *b = own.group(key);
                QVERIFY(a && b);
                QCOMPARE(a->series.fine().size(), b->series.fine().size());
                for (int i = 0; i < b->series.fine().size(); ++i) {
                    const GroupSample &x = a->series.fine()[i], &y = b->series.fine()[i];
                    QCOMPARE(std::tuple(x.t, x.active, x.idle, x.idleInTransaction, x.waitingOnLock, x.idleHoldingAdvisory),
                             std::tuple(y.t, y.active, y.idle, y.idleInTransaction, y.waitingOnLock, y.idleHoldingAdvisory));
                }
                QCOMPARE(a->current.pinnedLockNames, b->current.pinnedLockNames);
                QCOMPARE(a->current.poolSize, b->current.poolSize);
                QCOMPARE(a->current.pinned, b->current.pinned);
            }
        }
        reused.setGroupBy(GroupBy::User);
        QVERIFY(reused.group(QStringLiteral("reporter")));
        reused.setGroupBy(GroupBy::ClientInstance);
        QCOMPARE(reused.group(QStringLiteral("billing-api on 10.0.0.8"))->current.poolSize.value_or(0), 4);
    }

    // Deadlocks per minute from the counter's growth; a drop or a new stats_reset is a reset.
    void deadlocksPerMinuteAcrossResets()
    {
        PoolHistory h;
        const std::vector<SessionRow> rows = {session(1, "a", "idle")};
        h.add(snapshot(0, rows, {}, 10));
        QCOMPARE(h.lastCluster()->deadlocksLastMinute, 0); // the first sample has no growth
        h.add(snapshot(10, rows, {}, 12));
        h.add(snapshot(20, rows, {}, 13));
        QCOMPARE(h.lastCluster()->deadlocksLastMinute, 3);
        h.add(snapshot(30, rows, {}, 1)); // pg_stat_reset / crash: not -12 deadlocks
        QVERIFY(h.lastCluster()->counterReset);
        QCOMPARE(h.lastCluster()->deadlocksLastMinute, 3);
        h.add(snapshot(40, rows, {}, 5, 2.0)); // stats_reset moved: a reset even though it grew
        QVERIFY(h.lastCluster()->counterReset);
        QCOMPARE(h.lastCluster()->deadlocksLastMinute, 3);
        h.add(snapshot(50, rows, {}, 6, 2.0));
        QCOMPARE(h.lastCluster()->deadlocksLastMinute, 4);
        h.add(snapshot(85, rows, {}, 6, 2.0)); // the growth at 10 and 20 s left the minute
        QCOMPARE(h.lastCluster()->deadlocksLastMinute, 1);
        for (int t = 90; t < 3000; t += 10)
            h.add(snapshot(t, rows, {}, 6, 2.0));
        QCOMPARE(h.lastCluster()->deadlocksLastMinute, 0);
    }

    // Groups model under the tester: rows appear, change in place, go, and survive regrouping.
    void poolModelUnderTester()
    {
        PoolModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto grp = [](const QString& key, int active, int pinned, std::optional<int> size = {}) {
            PoolGroup g;
            g.key = key;
            g.active = active;
            g.idleHoldingAdvisory = pinned;
            g.total = active + pinned;
            g.poolSize = size;
            g.pinned = size && pinned >= *size;
            return g;
        };
        m.setGroups({grp("a", 1, 0), grp("b", 0, 4, 4)}, 97);
        QCOMPARE(m.rowCount(), 2);
        const int b = m.rowOfKey("b");
        QVERIFY(m.index(b, PoolModel::Group).data(PoolModel::PinnedRole).toBool());
        QVERIFY(!m.index(m.rowOfKey("a"), PoolModel::Group).data(PoolModel::PinnedRole).toBool());
        QVERIFY(m.index(b, PoolModel::Group).data().toString().contains("PINNED")); // and the row says so
        QCOMPARE(m.index(b, PoolModel::IdleHoldingAdvisory).data().toInt(), 4);
        QCOMPARE(m.index(b, PoolModel::PoolSize).data().toInt(), 4);
        QCOMPARE(m.index(b, PoolModel::BudgetShare).data().toString(), QStringLiteral("4.1 %"));
        QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        m.setGroups({grp("a", 2, 0), grp("b", 0, 4, 4), grp("c", 1, 0)}, 97);
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(changed.size(), 1);
        m.setGroups({grp("c", 1, 0)}, 97);
        QCOMPARE(m.rowCount(), 1);
        m.setGroups({grp("x", 1, 0), grp("y", 1, 0)}, 97);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(reset.size(), 0);
        for (int c = 0; c < m.columnCount(); ++c)
            QVERIFY(!m.headerData(c, Qt::Horizontal).toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPoolHistory)
#include "tst_pool_history.moc"
