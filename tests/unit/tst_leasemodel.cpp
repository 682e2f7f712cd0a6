// LeaseModel across refreshes, under QAbstractItemModelTester (attached before any data is set).
#include "itemmodels/LeaseModel.h"
#include "itemmodels/LeaseSortFilterProxy.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include <map>
#include <numeric>

using namespace lw;

namespace {
Snapshot snap(double now, std::vector<LeaseRow> rows, qint64 monoMs)
{
    Snapshot s;
    s.ok = true;
    s.serverNow = now;
    s.receivedMonotonicMs = monoMs;
    s.leases = std::move(rows);
    return s;
}
LeaseRow lease(const QString& name, const QString& holder, double taken, double expires)
{
    return {name, holder, taken, expires};
}
} // namespace

class TestLeaseModel : public QObject
{
    Q_OBJECT
    qint64 mono_ = 0;

    // A lease model and the judge it views, owned together by `parent` (the judge outlives it).
    struct Judged : QObject
    {
        Judged(QObject* parent, LeaseTracker::MonotonicClock clock) : QObject(parent), judge(std::move(clock)) {}
        RefreshJudge judge;
        LeaseModel model{judge};
    };
    std::map<const LeaseModel*, Judged*> judged_;

    LeaseModel* makeModel(QObject* parent)
    {
        auto* j = new Judged(parent, [this] { return mono_; });
        judged_[&j->model] = j;
        new QAbstractItemModelTester(&j->model, QAbstractItemModelTester::FailureReportingMode::QtTest, &j->model);
        return &j->model;
    }
    RefreshJudge& judgeOf(const LeaseModel* m) { return judged_.at(m)->judge; }
    void apply(const LeaseModel* m, const Snapshot& s) { judgeOf(m).apply(s); }

private Q_SLOTS:
    void incrementalUpdatesNeverReset()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        QSignalSpy reset(m, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(m, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(m, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(m, &QAbstractItemModel::dataChanged);

        apply(m, snap(
            100,
            {lease("a", "h1:1:aa", 90, 108), lease("b", "h2:2:bb", 95, 103), lease("c", "h3:3:cc", 99, 107)},
            mono_));
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(inserted.count(), 1);

        // b renewed, c deleted, d added, a unchanged.
        mono_ += 1000;
        changed.clear();
        apply(m, snap(101,
                              {lease("a", "h1:1:aa", 90, 108), lease("b", "h2:2:bb", 95, 109),
                               lease("d", "h4:4:dd", 100.5, 108.5)},
                              mono_));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(m->rowCount(), 4); // c stays, greyed, as released
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(changed.count(), 1);
        const auto tl = changed.first().at(0).value<QModelIndex>();
        const auto br = changed.first().at(1).value<QModelIndex>();
        QCOMPARE(tl.row(), m->rowOfKey("b")); // a did not change: it is not in the range
        QCOMPARE(br.row(), m->rowOfKey("c"));
        QCOMPARE(m->stateAt(m->rowOfKey("c")), LeaseState::Released);
        QCOMPARE(m->stateAt(m->rowOfKey("a")), LeaseState::Held);

        // After the linger the released row is removed with rowsRemoved, not a reset.
        mono_ += 40000;
        apply(m, snap(141,
                              {lease("a", "h1:1:aa", 90, 150), lease("b", "h2:2:bb", 95, 150),
                               lease("d", "h4:4:dd", 100.5, 150)},
                              mono_));
        QCOMPARE(removed.count(), 1);
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(m->rowOfKey("c"), -1);
        QCOMPARE(m->rowOfKey("d"), m->rowCount() - 1);
        QCOMPARE(reset.count(), 0);
    }

    // A released row is gone from the table: its hold and its expiry stop at the refresh that
    // found it gone, while the rows still held keep counting.
    void releasedRowStopsItsClocks()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        apply(m, snap(100, {lease("a", "h1:1:aa", 95, 130), lease("c", "h3:3:cc", 95, 108)}, mono_));
        mono_ += 1000;
        apply(m, snap(101, {lease("a", "h1:1:aa", 95, 130)}, mono_));
        const int a = m->rowOfKey("a"), c = m->rowOfKey("c");
        QCOMPARE(m->stateAt(c), LeaseState::Released);
        mono_ += 5000; // server time 106, no refresh since
        auto text = [m](int row, int col) { return m->data(m->index(row, col)).toString(); };
        QCOMPARE(text(c, LeaseModel::HeldFor), QStringLiteral("6 s"));
        QCOMPARE(text(a, LeaseModel::HeldFor), QStringLiteral("11 s"));
        QCOMPARE(text(c, LeaseModel::ExpiresIn), QStringLiteral("—"));
        QCOMPARE(text(a, LeaseModel::ExpiresIn), QStringLiteral("in 24 s"));
        QCOMPARE(text(c, LeaseModel::State), QStringLiteral("released 5 s ago"));
        QVERIFY(!m->data(m->index(c, LeaseModel::ExpiresIn), LeaseModel::SecondsLeftRole).isValid());
        QVERIFY(m->data(m->index(c, LeaseModel::State), Qt::ToolTipRole).toString().contains("its expiry was"));
        QCOMPARE(m->data(m->index(c, LeaseModel::HeldFor), LeaseModel::SortRole).toDouble(), 6.0);

        // Sorted by the proxy on the typed keys: the same order as the texts.
        LeaseSortFilterProxy proxy(m);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(LeaseModel::HeldFor, Qt::AscendingOrder);
        QCOMPARE(proxy.mapToSource(proxy.index(0, 0)).row(), c);
        proxy.sort(LeaseModel::ExpiresIn, Qt::AscendingOrder);
        QCOMPARE(proxy.mapToSource(proxy.index(0, 0)).row(), a); // no expiry sorts last
    }

    void holderChangeShowsTakeover()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        apply(m, snap(100, {lease("sweep", "app-1:4242:aa", 80, 99)}, mono_));
        QCOMPARE(m->stateAt(0), LeaseState::Stale);
        mono_ += 1000;
        apply(m, snap(101, {lease("sweep", "app-2:77:bb", 100.5, 108.5)}, mono_));
        QCOMPARE(m->stateAt(0), LeaseState::TakenOver);
        QVERIFY(m->data(m->index(0, LeaseModel::State)).toString().contains("app-1:4242:aa"));
        QCOMPARE(m->data(m->index(0, LeaseModel::Host)).toString(), QStringLiteral("app-2"));
        QCOMPARE(m->data(m->index(0, LeaseModel::Pid)).toString(), QStringLiteral("77"));
    }

    // Countdowns advance on the injected monotonic clock from the server's now(), never on the
    // desktop's wall clock.
    void countdownFollowsServerClockAndMonotonicTime()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        mono_ = 5'000'000;
        apply(m, snap(1000, {lease("a", "h:1:aa", 995, 1010)}, mono_));
        QCOMPARE(m->data(m->index(0, 0), LeaseModel::SecondsLeftRole).toDouble(), 10.0);
        mono_ += 3500;
        QCOMPARE(m->data(m->index(0, 0), LeaseModel::SecondsLeftRole).toDouble(), 6.5);
        QCOMPARE(m->data(m->index(0, LeaseModel::ExpiresIn)).toString(), QStringLiteral("in 6 s"));
        mono_ += 12000;
        QCOMPARE(m->data(m->index(0, LeaseModel::ExpiresIn)).toString(), QStringLiteral("expired 5 s ago"));
        QCOMPARE(m->stateAt(0), LeaseState::Stale);
    }

    void badDataIsDisplayedSafely()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        const QString longName(100000, QLatin1Char('x'));
        std::vector<LeaseRow> rows = {
            {QString(), std::nullopt, std::nullopt, std::nullopt},               // NULLs everywhere
            {QStringLiteral("far-past"), QStringLiteral("h:1:a"), -1e11, -1e11}, // year -1200
            {QStringLiteral("far-future"), QStringLiteral("h:1:a"), 0.0, 1e15},  // beyond any date
            {QStringLiteral("ctl\n\t\x01name"), QStringLiteral("h\n:1:a"), 1.0, 2.0},
            {longName, longName, 1.0, 2.0},
            {QStringLiteral("dup"), QStringLiteral("h:1:a"), 1.0, 200.0},
            {QStringLiteral("dup"), QStringLiteral("h:2:b"), 1.0, 300.0},
            {QStringLiteral("dup"), QStringLiteral("h:3:c"), 1.0, 400.0},
        };
        apply(m, snap(100, rows, mono_));
        QCOMPARE(m->rowCount(), int(rows.size()));
        for (int r = 0; r < m->rowCount(); ++r)
            for (int c = 0; c < m->columnCount(); ++c) {
                const QString text = m->data(m->index(r, c)).toString();
                QVERIFY(!text.contains(QLatin1Char('\n')));
                QVERIFY(text.size() <= 520);
                m->data(m->index(r, c), LeaseModel::SortRole);
                m->data(m->index(r, c), Qt::ToolTipRole);
            }
        // Duplicates keep their own rows across refreshes (no churn).
        QSignalSpy inserted(m, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(m, &QAbstractItemModel::rowsRemoved);
        mono_ += 1000;
        apply(m, snap(101, rows, mono_));
        QCOMPARE(m->rowCount(), int(rows.size()));
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(removed.count(), 0);
    }

    void failedRefreshKeepsRowsButMarksThemNotLive()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        apply(m, snap(100, {lease("a", "h:1:aa", 95, 110)}, mono_));
        QVERIFY(m->isLive());
        Snapshot failed;
        failed.ok = false;
        apply(m, failed);
        QCOMPARE(m->rowCount(), 1);
        QVERIFY(!m->isLive());
        QVERIFY(m->data(m->index(0, LeaseModel::ExpiresIn)).toString().contains("unverified"));
    }

    void sortedProxySurvivesRefreshes()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(m);
        proxy.setSortRole(LeaseModel::SortRole);
        proxy.setDynamicSortFilter(true);
        new QAbstractItemModelTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest, &owner);
        proxy.sort(LeaseModel::ExpiresIn, Qt::AscendingOrder);
        apply(m, snap(
            100, {lease("a", "h:1:a", 90, 130), lease("b", "h:1:b", 90, 110), lease("c", "h:1:c", 90, 120)},
            mono_));
        auto order = [&] {
            QStringList names;
            for (int r = 0; r < proxy.rowCount(); ++r)
                names << proxy.index(r, LeaseModel::Name).data().toString();
            return names;
        };
        QCOMPARE(order(), QStringList({"b", "c", "a"}));
        mono_ += 1000;
        apply(m, snap(
            101, {lease("a", "h:1:a", 90, 105), lease("b", "h:1:b", 90, 110), lease("c", "h:1:c", 90, 120)},
            mono_));
        QCOMPARE(order(), QStringList({"a", "b", "c"}));
    }

    // The poller's delta (only changed rows named) leaves the model exactly as comparing every row
    // would; a delta whose base the model did not see is ignored (every row compared).
    void deltaUpdatesMatchFullComparison()
    {
        QObject owner;
        LeaseModel* byDelta = makeModel(&owner);
        LeaseModel* full = makeModel(&owner);
        auto withDelta = [](Snapshot s, quint64 seq, std::shared_ptr<LeaseDelta> d) {
            s.seq = seq;
            s.generation = 1;
            d->source = 7;
            s.leaseDelta = std::move(d);
            return s;
        };
        Snapshot s1 = snap(100, {lease("a", "h:1:a", 90, 130), lease("b", "h:1:b", 90, 110),
                                 lease("c", "h:1:c", 90, 120), lease("d", "h:1:d", 90, 125)},
                           mono_);
        apply(byDelta, withDelta(s1, 1, std::make_shared<LeaseDelta>()));
        apply(full, s1);
        // b renewed, a gone, e new (the rows in another order: only keys count).
        mono_ += 1000;
        Snapshot s2 = snap(101, {lease("d", "h:1:d", 90, 125), lease("b", "h:1:b", 90, 140),
                                 lease("c", "h:1:c", 90, 120), lease("e", "h:2:e", 100.5, 130)},
                           mono_);
        auto d2 = std::make_shared<LeaseDelta>();
        d2->baseSeq = 1;
        d2->gone = {lease("a", "h:1:a", 90, 130)};
        d2->changed = {1};
        d2->added = {3};
        QSignalSpy changed(byDelta, &QAbstractItemModel::dataChanged);
        apply(byDelta, withDelta(s2, 2, d2));
        apply(full, s2);
        auto dump = [](LeaseModel* m) {
            QStringList out;
            for (int r = 0; r < m->rowCount(); ++r)
                out << m->entry(r).key + QLatin1Char('=') + leaseStateKey(m->stateAt(r)) + QLatin1Char('/') +
                           m->data(m->index(r, LeaseModel::ExpiresIn)).toString();
            out.sort();
            return out;
        };
        QCOMPARE(dump(byDelta), dump(full));
        QCOMPARE(byDelta->stateAt(byDelta->rowOfKey("a")), LeaseState::Released);
        QCOMPARE(changed.count(), 1);
        const auto tl = changed.first().at(0).value<QModelIndex>();
        const auto br = changed.first().at(1).value<QModelIndex>();
        QCOMPARE(tl.row(), byDelta->rowOfKey("a")); // a released, b renewed; c and d untouched
        QCOMPARE(br.row(), byDelta->rowOfKey("b"));

        // A delta against a base the model never saw: compared in full, same result.
        mono_ += 1000;
        Snapshot s3 = snap(102, {lease("d", "h:1:d", 90, 125), lease("b", "h:1:b", 90, 140),
                                 lease("c", "h:3:c", 101.5, 131), lease("e", "h:2:e", 100.5, 130)},
                           mono_);
        auto d3 = std::make_shared<LeaseDelta>();
        d3->baseSeq = 99;
        apply(byDelta, withDelta(s3, 3, d3));
        apply(full, s3);
        QCOMPARE(dump(byDelta), dump(full));
    }

    // Ticks repaint the countdown columns without asking a proxy to re-sort by them; a row whose
    // state changes on its own (it expires) is signalled with every role.
    void tickSignalsCountdownsAndStateChanges()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        apply(m, snap(100, {lease("a", "h:1:a", 90, 130), lease("b", "h:1:b", 90, 101)}, mono_));
        m->tick(); // first tick: every state is new
        QSignalSpy changed(m, &QAbstractItemModel::dataChanged);
        m->tick();
        QCOMPARE(changed.count(), 1);
        const auto roles = changed.first().at(2).value<QList<int>>();
        QVERIFY(!roles.contains(LeaseModel::SortRole));
        QVERIFY(roles.contains(Qt::DisplayRole));
        changed.clear();
        mono_ += 2000; // b expires
        m->tick();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.last().at(0).value<QModelIndex>().row(), m->rowOfKey("b"));
        QVERIFY(changed.last().at(2).value<QList<int>>().isEmpty()); // all roles
    }

    // The model's compact per-row state (what the tick, the counts and the lease findings read)
    // stays what the full track says, through deltas, full comparisons, takeovers, releases,
    // removals and a policy change.
    void compactStateFollowsTheTracks()
    {
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        judgeOf(m).setWriterUsesAppClock(true);
        LeasePolicy pol;
        pol.releasedLingerS = 3;
        judgeOf(m).setPolicy(pol);
        auto check = [&](const char* when) {
            for (int r = 0; r < m->rowCount(); ++r) {
                const LeaseTrack& t = m->entry(r).track;
                for (double now : {m->serverNowEstimate() - 50, m->serverNowEstimate(), m->serverNowEstimate() + 7,
                                   m->serverNowEstimate() + 29, m->serverNowEstimate() + 400}) {
                    if (m->stateAt(r, now) != classifyLease(t, now, m->policy()))
                        QFAIL(qPrintable(QStringLiteral("%1: row %2 at %3: %4, the track says %5")
                                             .arg(when, m->entry(r).key)
                                             .arg(now)
                                             .arg(leaseStateKey(m->stateAt(r, now)),
                                                  leaseStateKey(classifyLease(t, now, m->policy())))));
                }
                const bool skew = t.row.takenAt && !t.releasedAt && *t.row.takenAt > m->serverNowEstimate() + 1.0;
                QCOMPARE(m->clockSkewAt(r), skew);
            }
            const auto counts = m->stateCounts();
            QCOMPARE(std::accumulate(counts.begin(), counts.end(), 0), m->rowCount());
            // The lease findings' rows: kept beside the timelines, the same as a pass over them.
            for (double now : {m->serverNowEstimate(), m->serverNowEstimate() + 29, m->serverNowEstimate() + 400}) {
                std::vector<int> want;
                for (int r = 0; r < m->rowCount(); ++r)
                    if (m->stateAt(r, now) == LeaseState::Stale || m->clockSkewAt(r))
                        want.push_back(r);
                QCOMPARE(m->tracker().rowsStaleOrSkewed(now), want);
            }
        };
        auto delta = [](Snapshot s, quint64 seq, quint64 base, std::vector<int> changed, std::vector<int> added,
                        std::vector<LeaseRow> gone = {}) {
            s.seq = seq;
            s.generation = 1;
            auto d = std::make_shared<LeaseDelta>();
            d->source = 9;
            d->baseSeq = base;
            d->changed = std::move(changed);
            d->added = std::move(added);
            d->gone = std::move(gone);
            s.leaseDelta = std::move(d);
            return s;
        };
        Snapshot s1 = snap(100, {lease("a", "h:1:a", 90, 130), lease("b", "h:1:b", 90, 101),
                                 lease("c", "h:1:c", 90, 120), lease("d", "h:1:d", 150, 190)},
                           mono_);
        apply(m, delta(s1, 1, 0, {}, {}));
        check("first");
        // a renewed, b expired and taken over, e new (delta).
        mono_ += 1000;
        apply(m, delta(snap(102, {lease("a", "h:1:a", 90, 140), lease("b", "h:2:b", 101.5, 131.5),
                                          lease("c", "h:1:c", 90, 120), lease("d", "h:1:d", 150, 190),
                                          lease("e", "h:2:e", 101, 161)},
                                    mono_),
                               2, 1, {0, 1}, {4}));
        check("renewal, takeover, new row");
        // c gone: released (delta).
        mono_ += 1000;
        apply(m, delta(snap(103, {lease("a", "h:1:a", 90, 140), lease("b", "h:2:b", 101.5, 131.5),
                                          lease("e", "h:2:e", 101, 161), lease("d", "h:1:d", 150, 190)},
                                    mono_),
                               3, 2, {}, {}, {lease("c", "h:1:c", 90, 120)}));
        QCOMPARE(m->stateAt(m->rowOfKey("c")), LeaseState::Released);
        check("release");
        // Past the linger: c removed (rows shift); d's skewed taken-at corrected; full comparison.
        mono_ += 5000;
        apply(m, snap(108, {lease("a", "h:1:a", 90, 140), lease("b", "h:2:b", 101.5, 131.5),
                                    lease("e", "h:2:e", 101, 161), lease("d", "h:1:d", 105, 190)},
                              mono_));
        QCOMPARE(m->rowOfKey("c"), -1);
        check("removal");
        // c back; a policy with a fixed TTL changes every row's timeline.
        mono_ += 1000;
        apply(m, snap(109, {lease("a", "h:1:a", 90, 140), lease("b", "h:2:b", 101.5, 131.5),
                                    lease("e", "h:2:e", 101, 161), lease("d", "h:1:d", 105, 190),
                                    lease("c", "h:3:c", 109, 119)},
                              mono_));
        check("re-added");
        pol.ttlOverride = 200;
        judgeOf(m).setPolicy(pol);
        check("policy");
    }

    // LeaseSortFilterProxy's typed comparisons give SortRole's order (ties in source order, as
    // both sorts are stable) and FilterRole's matches.
    void typedProxyMatchesTheRoles_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        for (int c = 0; c < LeaseModel::ColumnCount; ++c)
            for (Qt::SortOrder o : {Qt::AscendingOrder, Qt::DescendingOrder})
                QTest::addRow("column %d %s", c, o == Qt::AscendingOrder ? "up" : "down") << c << int(o);
    }
    void typedProxyMatchesTheRoles()
    {
        QFETCH(int, column);
        QFETCH(int, order);
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        LeaseSortFilterProxy typed(m);
        new QAbstractItemModelTester(&typed, QAbstractItemModelTester::FailureReportingMode::QtTest, &owner);
        QSortFilterProxyModel reference;
        reference.setSourceModel(m);
        reference.setSortRole(LeaseModel::SortRole);
        reference.setFilterRole(LeaseModel::FilterRole);
        reference.setFilterCaseSensitivity(Qt::CaseInsensitive);
        reference.setDynamicSortFilter(true);
        typed.sort(column, Qt::SortOrder(order));
        reference.sort(column, Qt::SortOrder(order));
        std::vector<LeaseRow> rows;
        for (int i = 0; i < 60; ++i) {
            LeaseRow r;
            r.name = QStringLiteral("%1-%2").arg(i % 3 ? "Lease" : "job").arg((i * 37) % 23);
            if (i % 7 == 3)
                r.name += QStringLiteral(" x"); // a space inside
            if (i % 5 == 1)
                r.holder = QStringLiteral("host%1:%2:tok%3").arg(i % 4).arg(1000 + (i * 13) % 9).arg(i % 6);
            else if (i % 5 == 2)
                r.holder = QStringLiteral("Worker %1").arg(i % 4); // unstructured
            else if (i % 5 != 0)
                r.holder = QStringLiteral("box:%1:t").arg(100 + i % 3);
            if (i % 9 != 4)
                r.takenAt = 1000 + (i * 7) % 11;
            if (i % 8 != 5)
                r.expiresAt = 1000 + (i * 11) % 40 - 10; // some stale, some soon, some fine
            rows.push_back(r);
        }
        apply(m, snap(1005, rows, mono_));
        auto keys = [](const QAbstractItemModel& p) {
            QStringList out;
            for (int r = 0; r < p.rowCount(); ++r)
                out << p.index(r, 0).data(LeaseModel::KeyRole).toString();
            return out;
        };
        QCOMPARE(keys(typed), keys(reference));
        for (const QString text : {"lease-1", "HOST2", "x box", "worker 3", "zzz", "tok5"}) {
            typed.setFilterText(text);
            reference.setFilterFixedString(text);
            QCOMPARE(keys(typed), keys(reference));
        }
        typed.setFilterText({});
        reference.setFilterFixedString({});
        QCOMPARE(keys(typed), keys(reference));
    }

    // Issue 26 point 5: a first read of many leases is prepared off the model's thread and goes in
    // in slices, in the sorted view's order; what the view shows at the end is what a model that
    // took the refresh at once shows, and later refreshes apply as usual.
    void largeFirstReadFillsInSlices()
    {
        const int n = 60000;
        std::vector<LeaseRow> rows;
        for (int i = 0; i < n; ++i) // not in name order; one name twice (a table without a unique name)
            rows.push_back(lease(QStringLiteral("job-%1").arg((i * 7919) % n), QStringLiteral("h%1:%2:t%3").arg(i % 7).arg(100 + i % 13).arg(i),
                                 90 + i % 10, i % 5 == 0 ? 95 : 130));
        rows.push_back(lease(QStringLiteral("job-17"), QStringLiteral("other:1:x"), 91, 131));

        QObject owner;
        LeaseModel* background = makeModel(&owner);
        background->setFillInBackground(true);
        LeaseSortFilterProxy view(background);
        new QAbstractItemModelTester(&view, QAbstractItemModelTester::FailureReportingMode::QtTest, &view);
        view.sort(LeaseModel::Name, Qt::DescendingOrder);
        LeaseModel* atOnce = makeModel(&owner);
        LeaseSortFilterProxy reference(atOnce);
        QAbstractItemModelTester referenceTester(&reference, QAbstractItemModelTester::FailureReportingMode::QtTest);
        reference.sort(LeaseModel::Name, Qt::DescendingOrder);

        QSignalSpy inserted(background, &QAbstractItemModel::rowsInserted);
        QSignalSpy filled(background, &LeaseModel::filled);
        apply(background, snap(100, rows, mono_));
        apply(atOnce, snap(100, rows, mono_));
        QCOMPARE(background->rowCount(), 0); // returned at once: the rows are being prepared
        QCOMPARE(background->rowsLoading(), n + 1);
        QVERIFY(filled.wait(30000));
        QCOMPARE(background->rowsLoading(), 0);
        QCOMPARE(background->rowCount(), n + 1);
        QVERIFY2(inserted.count() >= 3, "the rows go in in slices, not in one insert");
        auto shown = [](const QAbstractItemModel& p) {
            QStringList out;
            for (int r = 0; r < p.rowCount(); ++r)
                out << p.index(r, LeaseModel::Name).data(LeaseModel::KeyRole).toString() + QLatin1Char('|') +
                           p.index(r, LeaseModel::State).data().toString() + QLatin1Char('|') +
                           p.index(r, LeaseModel::Host).data().toString();
            return out;
        };
        QCOMPARE(shown(view), shown(reference));
        QCOMPARE(background->stateCounts(), atOnce->stateCounts());
        auto staleKeys = [](const LeaseModel& m) {
            QStringList out;
            for (int r : m.tracker().rowsStaleOrSkewed(100))
                out << m.entry(r).key;
            out.sort();
            return out;
        };
        QCOMPARE(staleKeys(*background), staleKeys(*atOnce));
        QCOMPARE(staleKeys(*background).size(), n / 5);

        // The next refresh (renewals, a release, a new lease) applies as to the other model.
        mono_ += 1000;
        rows[3].expiresAt = 140;
        rows.erase(rows.begin() + 10);
        rows.push_back(lease(QStringLiteral("new-one"), QStringLiteral("h:1:n"), 100.5, 140));
        apply(background, snap(101, rows, mono_));
        apply(atOnce, snap(101, rows, mono_));
        QCOMPARE(background->rowCount(), atOnce->rowCount());
        QCOMPARE(shown(view), shown(reference));
        QCOMPARE(background->stateCounts(), atOnce->stateCounts());
    }

    // A refresh applied while the rows are still loading waits for them (the window holds its
    // refreshes back; other users of the model need not), and a model deleted while it prepares
    // a fill goes at once.
    void applyingOrDeletingWhileLoading()
    {
        std::vector<LeaseRow> rows;
        for (int i = 0; i < 30000; ++i)
            rows.push_back(lease(QStringLiteral("l%1").arg(i), QStringLiteral("h:1:t"), 90, 130));
        QObject owner;
        LeaseModel* m = makeModel(&owner);
        m->setFillInBackground(true);
        apply(m, snap(100, rows, mono_));
        QVERIFY(m->rowsLoading() > 0);
        mono_ += 1000;
        apply(m, snap(101, rows, mono_));
        QCOMPARE(m->rowsLoading(), 0);
        QCOMPARE(m->rowCount(), 30000);
        QCOMPARE(m->stateCounts()[size_t(LeaseState::Held)], 30000);

        rows.resize(50000, lease(QStringLiteral("x"), QStringLiteral("h:1:t"), 90, 130));
        for (int i = 30000; i < 50000; ++i)
            rows[size_t(i)].name = QStringLiteral("l%1").arg(i);
        auto* doomed = makeModel(nullptr);
        doomed->setFillInBackground(true);
        apply(doomed, snap(100, rows, mono_));
        QVERIFY(doomed->rowsLoading() > 0);
        delete judged_.at(doomed); // stops its worker; its posted result, if any, goes with it
        QCoreApplication::sendPostedEvents(); // …and is never delivered to the model that went
    }
};

QTEST_GUILESS_MAIN(TestLeaseModel)
#include "tst_leasemodel.moc"
