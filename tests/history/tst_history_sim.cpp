// The history store behind a real Poller/Monitor on the suite's cluster while the simulator runs:
// the lease transitions it holds are the ones the simulator logged (at the refresh resolution), and
// a bundle exported and re-opened shows, through a recorded Monitor's models, exactly what the live
// one showed at the last exported refresh.
#include "../sim/SimTestSupport.h"
#include "ConsoleSupport.h"
#include "Monitor.h"
#include "TestCluster.h"
#include "domain/PoolHistory.h"
#include "itemmodels/LeaseModel.h"
#include "itemmodels/LocksModels.h"
#include "sim/Simulator.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>


using namespace lw;
using history::ChangeKind;

namespace {

// The simulator's schema, created by a start and an immediate stop, so the console's first refresh
// already reads the (empty) leases table and sees every take that follows.
void createSimSchema(const QString& dsn)
{
    sim::Simulator s(test::simOptions(dsn, {QStringLiteral("lease-workers:instances=1,interval=100")}));
    if (auto e = s.start())
        qFatal("simulator schema: %s", qPrintable(*e));
    s.stop();
}

// A live Monitor with a recorder attached, counting good refreshes.
struct Recording
{
    std::unique_ptr<Monitor> monitor;
    std::unique_ptr<HistoryRecorder> recorder;
    QMetaObject::Connection recording;
    int okRefreshes = 0;
    QSet<QString> livePairs; // "lease\tholder" as the live snapshots had them
    QHash<QString, QStringList> liveHolders; // per lease, holders one after another as polled

    Recording(const QString& dsn, const QString& path)
    {
        PollerConfig cfg = test::fastConfig(dsn);
        // The comparison with the simulator needs the 200 ms resolution even on a loaded machine: no
        // footprint-budget stretching of the interval (where the poller has that setting).
        [](auto& c) {
            if constexpr (requires { c.serverTimeBudget = 0.0; })
                c.serverTimeBudget = 0.0;
        }(cfg);
        monitor = std::make_unique<Monitor>(cfg);
        HistoryOptions o = HistoryOptions::forProfile(QStringLiteral("sim"), monitor->config());
        o.path = path;
        o.auditPath.clear();
        recorder = std::make_unique<HistoryRecorder>(o);
        recording = monitor->recordInto(recorder.get()); // as the window and `leasewatch record` do
        QObject::connect(monitor.get(), &Monitor::refreshed, monitor.get(), [this](const Snapshot& s) {
            if (s.ok && !s.leasesError)
                ++okRefreshes;
            for (const LeaseRow& l : s.leases) {
                const QString h = l.holder.value_or(QString());
                livePairs.insert(l.name + QLatin1Char('\t') + h);
                QStringList& seq = liveHolders[l.name];
                if (seq.isEmpty() || seq.last() != h)
                    seq << h;
            }
        });
    }
    bool waitRefreshes(int more, int timeoutMs = 10000)
    {
        const int target = okRefreshes + more;
        QElapsedTimer t;
        t.start();
        while (okRefreshes < target && t.elapsed() < timeoutMs)
            QTest::qWait(20);
        return okRefreshes >= target;
    }
    int skipped = 0;
    // As `leasewatch record` stops: what is queued is written, then the store is closed (its
    // counted renewals written, so the last refresh replays exactly).
    void stop()
    {
        QObject::disconnect(recording);
        recorder->flush();
        skipped = recorder->skipped();
        recorder.reset();
    }
};

QStringList holdersOfTakes(const std::vector<LeaseChangeRow>& rows)
{
    QStringList out;
    for (const auto& r : rows)
        if (r.kind == ChangeKind::Seen || r.kind == ChangeKind::Take || r.kind == ChangeKind::TakeOver)
            out << r.holder.value_or(QString());
    return out;
}

// `part` is `whole` with some elements left out, order kept.
bool isSubsequence(const QStringList& part, const QStringList& whole)
{
    qsizetype j = 0;
    for (const QString& p : part) {
        while (j < whole.size() && whole[j] != p)
            ++j;
        if (j == whole.size())
            return false;
        ++j;
    }
    return true;
}

QStringList simHolders(const test::EventLog& log, const QString& lease, const QStringList& kinds)
{
    QStringList out;
    for (const auto& e : log.all())
        if (e.lease == lease && kinds.contains(e.kind))
            out << e.holder;
    return out;
}

QString dumpChanges(const std::vector<LeaseChangeRow>& rows)
{
    QString s;
    for (const auto& r : rows)
        s += QStringLiteral("%1 %2 %3 %4\n")
                 .arg(r.at, 0, 'f', 3)
                 .arg(history::changeKindKey(r.kind), r.holder.value_or(QStringLiteral("-")),
                      leaseStateKey(r.state));
    return s;
}

// The rows a model shows (every column, display text), order-independent.
QStringList modelRows(const QAbstractItemModel* m)
{
    QStringList rows;
    for (int r = 0; r < m->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m->columnCount(); ++c)
            cells << m->index(r, c).data().toString();
        rows << cells.join(QLatin1Char('|'));
    }
    rows.sort();
    return rows;
}

struct LiveView
{
    double serverNow = 0;
    QStringList leases; // key|holder|taken|expires|state
    QStringList locks;
    QStringList findings;
    std::vector<SessionRow> sessions;
};

QStringList leaseRows(const LeaseModel* m, double now)
{
    QStringList rows;
    for (int r = 0; r < m->rowCount(); ++r) {
        const auto& e = m->entry(r);
        rows << QStringLiteral("%1|%2|%3|%4|%5")
                    .arg(e.key, e.track.row.holder.value_or(QStringLiteral("NULL")))
                    .arg(e.track.row.takenAt.value_or(-1), 0, 'f', 6)
                    .arg(e.track.row.expiresAt.value_or(-1), 0, 'f', 6)
                    .arg(leaseStateKey(classifyLease(e.track, now, m->policy())));
    }
    rows.sort();
    return rows;
}

} // namespace

class TstHistorySim : public QObject
{
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void leaseWorkersTransitionsMatchTheSimulator()
    {
        test::TestDatabase db(QStringLiteral("hist_workers"));
        createSimSchema(db.dsn());
        const QString path = dir_.filePath(QStringLiteral("workers.sqlite"));
        Recording rec(db.dsn(), path);
        QVERIFY2(rec.recorder->isOpen(), qPrintable(rec.recorder->errorString()));
        rec.monitor->start();
        QVERIFY(rec.waitRefreshes(2));
        test::EventLog log;
        // Work (≥ 0.5 s) outlasts a refresh (0.2 s): every holder is seen at least once.
        sim::Simulator s(test::simOptions(
            db.dsn(), {QStringLiteral("lease-workers:instances=3,kinds=2,ttl=1.2,work=0.7,interval=0.25")}, &log));
        QVERIFY(!s.start());
        QTRY_VERIFY_WITH_TIMEOUT(log.count(QStringLiteral("released")) >= 6, 25000);
        s.stop();
        QVERIFY(rec.waitRefreshes(3));
        rec.stop();
        QCOMPARE(rec.skipped, 0);

        HistoryReader r(path);
        QVERIFY(r.isOpen());
        QCOMPARE(r.integrityCheck(), QStringLiteral("ok"));
        // What the poller handed over must already pair each holder with the lease it took;
        // otherwise the store (which records exactly that) cannot either.
        for (const QString& pair : std::as_const(rec.livePairs)) {
            const QString lease = pair.section(QLatin1Char('\t'), 0, 0);
            QVERIFY2(simHolders(log, lease, {QStringLiteral("took"), QStringLiteral("took-over")})
                         .contains(pair.section(QLatin1Char('\t'), 1)),
                     qPrintable(QStringLiteral("live snapshot paired %1 with a holder the simulator gave another "
                                               "lease").arg(pair)));
        }
        for (const QString& lease : {QStringLiteral("job-1"), QStringLiteral("job-2")}) {
            const auto rows = r.leaseChanges(lease);
            const QString ctx = dumpChanges(rows) + QStringLiteral("--- simulator:\n") + log.dump();
            // Holders one after another: exactly those the refreshes saw, in the order the simulator
            // took the lease (a take shorter than a refresh on a loaded machine may fall between two).
            const QStringList took = simHolders(log, lease, {QStringLiteral("took"), QStringLiteral("took-over")});
            QCOMPARE(holdersOfTakes(rows), rec.liveHolders.value(lease));
            QVERIFY2(isSubsequence(holdersOfTakes(rows), took), qPrintable(ctx));
            QVERIFY2(holdersOfTakes(rows).size() * 2 >= took.size(), qPrintable(ctx));
            QVERIFY2(!rows.empty() && rows.front().kind == ChangeKind::Take, qPrintable(ctx));
            // Takeovers are the simulator's: each one whose holder a refresh saw, and no other. (On a
            // loaded machine a takeover's whole hold, taken over and released, can fall between two
            // refreshes, as a take's can above; seen in a fresh-clone run under ctest -j2.)
            QStringList storeTakeovers, simTakeoversSeen;
            for (const auto& c : rows)
                if (c.kind == ChangeKind::TakeOver)
                    storeTakeovers << c.holder.value_or(QString());
            const QStringList seen = holdersOfTakes(rows);
            for (const QString& h : simHolders(log, lease, {QStringLiteral("took-over")}))
                if (seen.contains(h))
                    simTakeoversSeen << h;
            QVERIFY2(storeTakeovers == simTakeoversSeen,
                     qPrintable(QStringLiteral("store takeovers: %1\n").arg(storeTakeovers.join(", ")) + ctx));
            // Every release the simulator made ends its holder's rows: a release row, or (released and
            // re-taken within one refresh) a take by the next holder — never a takeover.
            for (const QString& h : simHolders(log, lease, {QStringLiteral("released")})) {
                int last = -1;
                for (int i = 0; i < int(rows.size()); ++i)
                    if (rows[size_t(i)].holder == h)
                        last = i;
                if (last < 0)
                    continue; // a hold no refresh saw (checked against the live refreshes above)
                const bool releasedRow = rows[size_t(last)].kind == ChangeKind::Release;
                const bool retaken = last + 1 < int(rows.size()) && rows[size_t(last + 1)].kind == ChangeKind::Take;
                QVERIFY2(releasedRow || retaken, qPrintable(h + QLatin1Char('\n') + ctx));
            }
            // Release rows and renewals only for holders the simulator released / renewed.
            const QStringList released = simHolders(log, lease, {QStringLiteral("released")});
            const QStringList renewed = simHolders(log, lease, {QStringLiteral("renewed")});
            for (const auto& c : rows) {
                if (c.kind == ChangeKind::Release)
                    QVERIFY2(released.contains(c.holder.value_or(QString())), qPrintable(ctx));
                if (c.kind == ChangeKind::Renew)
                    QVERIFY2(renewed.contains(c.holder.value_or(QString())), qPrintable(ctx));
            }
            // After the stop everything was released, and the store says so.
            QCOMPARE(rows.back().kind, ChangeKind::Release);
        }
        const auto last = r.snapshotAt(r.range().to);
        QVERIFY(last && last->ok);
        QCOMPARE(last->leases.size(), size_t(0));
    }

    void crashedHolderExpiresAndIsTakenOver()
    {
        test::TestDatabase db(QStringLiteral("hist_crash"));
        createSimSchema(db.dsn());
        const QString path = dir_.filePath(QStringLiteral("crash.sqlite"));
        Recording rec(db.dsn(), path);
        rec.monitor->start();
        QVERIFY(rec.waitRefreshes(2));
        test::EventLog log;
        sim::Simulator s(test::simOptions(
            db.dsn(), {QStringLiteral("crashed-holder:ttl=1.5,crash_after=0.8,interval=1,work=0.5,every=120,outage=2")},
            &log));
        QVERIFY(!s.start());
        QTRY_VERIFY_WITH_TIMEOUT(log.count(QStringLiteral("took-over"), QStringLiteral("crashed-job")) >= 1 &&
                                     log.count(QStringLiteral("lost"), QStringLiteral("flaky-job")) >= 1,
                                 25000);
        QVERIFY(rec.waitRefreshes(3));
        s.stop();
        QVERIFY(rec.waitRefreshes(3));
        rec.stop();

        HistoryReader r(path);
        QString crashHolder;
        for (const auto& e : log.all())
            if (e.kind == QLatin1String("crashed") && crashHolder.isEmpty())
                crashHolder = e.holder;
        QVERIFY(!crashHolder.isEmpty());
        for (const QString& lease : {QStringLiteral("crashed-job"), QStringLiteral("flaky-job")}) {
            const auto rows = r.leaseChanges(lease);
            const QString ctx = dumpChanges(rows) + QStringLiteral("--- simulator:\n") + log.dump();
            QCOMPARE(holdersOfTakes(rows), rec.liveHolders.value(lease));
            QVERIFY2(isSubsequence(holdersOfTakes(rows),
                                   simHolders(log, lease, {QStringLiteral("took"), QStringLiteral("took-over")})),
                     qPrintable(ctx));
            QStringList storeTakeovers;
            for (const auto& c : rows)
                if (c.kind == ChangeKind::TakeOver)
                    storeTakeovers << c.holder.value_or(QString());
            QVERIFY2(!storeTakeovers.isEmpty(), qPrintable(ctx));
            QCOMPARE(storeTakeovers, simHolders(log, lease, {QStringLiteral("took-over")}));
        }
        const auto rows = r.leaseChanges(QStringLiteral("crashed-job"));
        const QString ctx = dumpChanges(rows) + QStringLiteral("--- simulator:\n") + log.dump();
        // The crashed holder never released; its lease went stale before the takeover whenever the
        // stale stretch lasted more than two refreshes (shorter ones may fall between refreshes).
        int takeover = -1;
        for (int i = 0; i < int(rows.size()); ++i) {
            QVERIFY2(!(rows[size_t(i)].kind == ChangeKind::Release && rows[size_t(i)].holder == crashHolder),
                     qPrintable(ctx));
            if (takeover < 0 && rows[size_t(i)].kind == ChangeKind::TakeOver && i > 0 &&
                rows[size_t(i - 1)].holder == crashHolder)
                takeover = i;
        }
        QVERIFY2(takeover > 0, qPrintable(ctx));
        const LeaseChangeRow& before = rows[size_t(takeover - 1)];
        const LeaseChangeRow& after = rows[size_t(takeover)];
        QVERIFY(before.expiresAt && after.takenAt);
        QVERIFY2(*after.takenAt >= *before.expiresAt, qPrintable(ctx));
        bool sawStale = false;
        for (int i = 0; i < takeover; ++i)
            sawStale = sawStale || (rows[size_t(i)].holder == crashHolder && rows[size_t(i)].state == LeaseState::Stale);
        if (*after.takenAt - *before.expiresAt > 0.5)
            QVERIFY2(sawStale, qPrintable(ctx));
        // The timeline tells it in order: the crashed holder's take, its renewals, then the takeover
        // from it.
        const auto tl = r.timeline(QStringLiteral("crashed-job"));
        using K = LeaseTimelineEvent::Kind;
        const auto to = std::find_if(tl.begin(), tl.end(), [&](const LeaseTimelineEvent& e) {
            return e.kind == K::TakeOver && e.previousHolder == crashHolder;
        });
        QVERIFY2(to != tl.end(), qPrintable(ctx));
        QVERIFY(std::any_of(tl.begin(), to, [&](const LeaseTimelineEvent& e) {
            return e.kind == K::Renewals && e.holder == crashHolder && e.renewals >= 1;
        }));
        if (sawStale)
            QVERIFY(std::any_of(tl.begin(), to, [](const LeaseTimelineEvent& e) { return e.kind == K::Expired; }));
    }

    // A first read big enough to be prepared off the GUI thread (Monitor's background fill): the
    // recorder is handed nothing about leases while the rows go in, then every lease once they are,
    // and from then on what changes. The history holds each lease once, as the window showed it.
    void bigFirstReadIsRecordedOnceItsRowsAreIn()
    {
        test::TestDatabase db(QStringLiteral("hist_big"));
        constexpr int kLeases = 30000; // above LeaseModel's background-fill threshold (20 000)
        db.exec(QStringLiteral("CREATE TABLE leases (name text PRIMARY KEY, holder text, taken_at timestamptz, "
                               "expires_at timestamptz);"
                               "INSERT INTO leases SELECT 'job-' || g, 'app-' || (g % 5) || ':' || (1000 + g % 5) "
                               "|| ':00ff00ff00ff' || lpad(to_hex(g), 4, '0'), now(), now() + interval '1 hour' "
                               "FROM generate_series(1, %1) g")
                    .arg(kLeases));
        const QString path = dir_.filePath(QStringLiteral("big.sqlite"));
        Recording rec(db.dsn(), path);
        int loadingRefreshes = 0;
        QObject::connect(rec.monitor.get(), &Monitor::refreshed, rec.monitor.get(),
                         [&rec, &loadingRefreshes](const Snapshot&) {
                             if (rec.monitor->leases()->rowsLoading() > 0)
                                 ++loadingRefreshes;
                         });
        rec.monitor->start();
        QTRY_VERIFY_WITH_TIMEOUT(rec.monitor->leases()->rowCount() == kLeases &&
                                     rec.monitor->leases()->rowsLoading() == 0,
                                 60000);
        QVERIFY2(loadingRefreshes > 0, "the first read went in in the background");
        QVERIFY(rec.waitRefreshes(2, 30000));
        db.exec(QStringLiteral("UPDATE leases SET holder = 'app-9:2000:feedfeedfeedfeed', taken_at = now(), "
                               "expires_at = now() + interval '1 hour' WHERE name = 'job-7';"
                               "DELETE FROM leases WHERE name = 'job-8'"));
        QTRY_VERIFY_WITH_TIMEOUT(rec.monitor->leases()->rowOfKey(QStringLiteral("job-8")) >= 0 &&
                                     rec.monitor->leases()->stateAt(rec.monitor->leases()->rowOfKey(
                                         QStringLiteral("job-8"))) == LeaseState::Released,
                                 30000);
        QVERIFY(rec.waitRefreshes(1, 30000));
        rec.stop();

        HistoryReader r(path);
        QHash<QString, QList<ChangeKind>> kinds;
        for (const LeaseChangeRow& c : r.leaseChanges())
            kinds[c.key] << c.kind;
        QCOMPARE(kinds.size(), kLeases);
        for (auto it = kinds.cbegin(); it != kinds.cend(); ++it) {
            if (it.key() == QLatin1String("job-7"))
                QCOMPARE(it.value(), (QList<ChangeKind>{ChangeKind::Seen, ChangeKind::Take}));
            else if (it.key() == QLatin1String("job-8"))
                QCOMPARE(it.value(), (QList<ChangeKind>{ChangeKind::Seen, ChangeKind::Release}));
            else
                QCOMPARE(it.value(), QList<ChangeKind>{ChangeKind::Seen});
        }
        const auto job7 = r.leaseChanges(QStringLiteral("job-7"));
        QCOMPARE(job7.back().holder, std::optional<QString>(QStringLiteral("app-9:2000:feedfeedfeedfeed")));
    }

    void bundleShowsWhatLiveShowed()
    {
        test::TestDatabase db(QStringLiteral("hist_bundle"));
        createSimSchema(db.dsn());
        const QString path = dir_.filePath(QStringLiteral("bundle-src.sqlite"));
        Recording rec(db.dsn(), path);
        PoolHistory livePool;
        livePool.setAnalysisConfig(rec.monitor->config().analysis);
        QMap<double, LiveView> live;
        Monitor* m = rec.monitor.get();
        QObject::connect(m, &Monitor::refreshed, m, [&](const Snapshot& s) {
            livePool.add(s);
            if (!s.ok)
                return;
            LiveView v;
            v.serverNow = s.serverNow;
            v.leases = leaseRows(m->leases(), s.serverNow);
            v.locks = modelRows(m->locks());
            v.findings = modelRows(m->findings());
            v.sessions = s.sessions.vec();
            live.insert(s.serverNow, v);
        });
        rec.monitor->start();
        QVERIFY(rec.waitRefreshes(2));
        auto simulator = test::startSim(
            db.dsn(), {QStringLiteral("lease-workers:instances=2,kinds=2,ttl=1.2,work=0.7,interval=0.25"),
                       QStringLiteral("pinned-pool:pool=3,waiters=1,hold=0,app=billing-api-h")});
        QVERIFY(rec.waitRefreshes(25, 20000));
        rec.stop();
        simulator.reset();

        HistoryReader store(path);
        const auto range = store.range();
        QVERIFY(live.contains(range.to));
        const LiveView& want = live[range.to];
        QVERIFY2(!want.locks.isEmpty(), "the pinned pool holds advisory locks");
        QVERIFY(!want.leases.isEmpty());
        QVERIFY(!want.sessions.empty());

        const QString bundle = dir_.filePath(QStringLiteral("incident.lwbundle"));
        QString err;
        BundleInfo info;
        info.sourceDsn = db.dsn() + QStringLiteral(" password=never-stored");
        QVERIFY2(store.exportBundle(bundle, range.from, range.to, info, &err), qPrintable(err));
        HistoryReader b(bundle);
        QVERIFY(b.isBundle());
        QVERIFY(!b.metadata().value(QStringLiteral("source_dsn")).contains(QStringLiteral("never-stored")));
        QCOMPARE(b.range().refreshes, range.refreshes);

        // Replayed through a recorded Monitor, the models show what the live ones showed.
        auto rm = Monitor::recorded(b.recordedConfig(), bundle);
        QAbstractItemModelTester t1(rm->leases(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(rm->locks(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(rm->blocking(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(rm->findings(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        b.forEachSnapshot(range.from, range.to, [&](const Snapshot& s) {
            rm->showRecorded(s);
            return true;
        });
        QCOMPARE(rm->recordedTime(), range.to);
        QCOMPARE(leaseRows(rm->leases(), range.to), want.leases);
        QCOMPARE(modelRows(rm->locks()), want.locks);
        QCOMPARE(modelRows(rm->findings()), want.findings);
        QVERIFY(rm->lastSnapshot().sessions == want.sessions);

        // Pool samples: the charts' history loaded from the bundle equals the one fed live.
        PoolHistory recordedPool;
        QCOMPARE(loadPoolHistory(b, recordedPool, range.from, range.to), int(range.refreshes));
        const auto& lf = livePool.cluster().fine();
        const auto& rf = recordedPool.cluster().fine();
        QCOMPARE(rf.size(), lf.size());
        for (int i = 0; i < rf.size(); ++i) {
            QCOMPARE(rf[i].t, lf[i].t);
            QCOMPARE(rf[i].connections, lf[i].connections);
            QCOMPARE(rf[i].lockTableEntries, lf[i].lockTableEntries);
            QCOMPARE(rf[i].advisoryLocks, lf[i].advisoryLocks);
            QCOMPARE(rf[i].waitingOnLock, lf[i].waitingOnLock);
        }
        QCOMPARE(recordedPool.groupKeys(), livePool.groupKeys());
        for (const QString& key : livePool.groupKeys()) {
            const auto* lg = livePool.group(key);
            const auto* rg = recordedPool.group(key);
            QVERIFY(rg);
            QCOMPARE(rg->current.total, lg->current.total);
            QCOMPARE(rg->current.idleHoldingAdvisory, lg->current.idleHoldingAdvisory);
            QCOMPARE(rg->series.fine().size(), lg->series.fine().size());
        }
        // And the stored samples say the same.
        const RecordedPoolSamples ps = b.poolSamples(range.from, range.to);
        QCOMPARE(int(ps.cluster.size()), lf.size());
        for (size_t i = 0; i < ps.cluster.size(); ++i)
            QCOMPARE(ps.cluster[i].connections, lf[int(i)].connections);
        bool pinnedSeen = false;
        for (const auto& g : ps.groups)
            for (const auto& smp : g.samples)
                pinnedSeen = pinnedSeen || smp.idleHoldingAdvisory > 0;
        QVERIFY(pinnedSeen);
    }
};

QTEST_GUILESS_MAIN(TstHistorySim)
#include "tst_history_sim.moc"
