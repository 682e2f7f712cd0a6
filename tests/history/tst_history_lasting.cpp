// History that lasts (issue 27 point 3): a renewal on schedule is counted, not written; pool and
// cluster samples beyond the last hour are thinned to about one a minute with their peaks kept; a
// store written before renewals were counted is read and written on.
#include "HistoryTestSupport.h"
#include "itemmodels/LeaseModel.h"
#include "Monitor.h"
#include "Poller.h"
#include "domain/PoolHistory.h"
#include "store/HistoryFormat.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"

#include <QAbstractItemModelTester>
#include <QSqlError>
#include <QTemporaryDir>
#include <QtTest>

using namespace lw;
using namespace lw::test;
using history::ChangeKind;

namespace {

// The mission's lease: TTL 20 s, renewed every 5 s until `crashAt`, then never again.
struct RenewingLease
{
    double takenAt = 9995, ttl = 20, every = 5, crashAt = 1e18;
    double lastRenewal(double now) const
    {
        const double until = std::min(now, crashAt);
        return takenAt + std::floor((until - takenAt) / every) * every;
    }
    LeaseRow at(double now) const
    {
        return lease(QStringLiteral("nightly-report"), QStringLiteral("app-1:4242:9f3ab2c4d5e6f708"), takenAt,
                     lastRenewal(now) + ttl);
    }
    int renewalsBetween(double from, double to) const // renewals seen by refreshes in (from, to]
    {
        return int(std::lround((lastRenewal(to) - lastRenewal(from)) / every));
    }
};

LeaseRow fixedLease()
{
    return lease(QStringLiteral("monthly-close"), QStringLiteral("batch-7:77:0011223344556677"), 9990, 20000);
}

Snapshot refreshAt(double now, const RenewingLease& r)
{
    SnapshotSpec sp;
    sp.now = now;
    sp.leases = {r.at(now), fixedLease()};
    sp.sessions = {session(101, QStringLiteral("billing"), QStringLiteral("idle"))};
    return makeSnapshot(sp);
}

// State of each lease as a LeaseModel judges the given snapshot (the live rule).
struct Judge
{
    RefreshJudge judge{[] { return qint64(1); }};
    LeaseModel model{judge};
    QAbstractItemModelTester modelTester{&model, QAbstractItemModelTester::FailureReportingMode::QtTest};
    Judge() { judge.setPolicy(leasePolicyFor(PollerConfig{})); }
    QMap<QString, LeaseState> apply(Snapshot s)
    {
        s.receivedMonotonicMs = 1;
        judge.apply(s);
        QMap<QString, LeaseState> out;
        for (int i = 0; i < model.rowCount(); ++i)
            out.insert(model.entry(i).track.row.name, model.stateAt(i));
        return out;
    }
};

int renewalsOnTimeline(const HistoryReader& r, const QString& name)
{
    int n = 0;
    for (const auto& e : r.timeline(name))
        if (e.kind == LeaseTimelineEvent::Kind::Renewals)
            n += e.renewals;
    return n;
}

} // namespace

class TstHistoryLasting : public QObject
{
    Q_OBJECT
    QTemporaryDir dir_;
    QString file(const QString& name) const { return dir_.filePath(name); }

private Q_SLOTS:
    void renewalsOnScheduleAreCountedNotWritten()
    {
        const QString path = file(QStringLiteral("renewals.sqlite"));
        HistoryOptions o = options(path);
        o.renewalIntervalS = 60;
        auto w = std::make_unique<FedWriter>(o);
        QVERIFY2(w->isOpen(), qPrintable(w->errorString()));
        RenewingLease r;
        r.crashAt = 10200; // the holder dies: overdue, then stale
        Judge live;
        QMap<double, QMap<QString, LeaseState>> liveStates;
        QMap<double, Snapshot> written;
        for (double t = 10000; t <= 10260; t += 1) {
            const Snapshot s = refreshAt(t, r);
            QVERIFY(w->write(s));
            liveStates.insert(t, live.apply(s));
            written.insert(t, s);
        }
        QVERIFY(liveStates.last().value(QStringLiteral("nightly-report")) == LeaseState::Stale);
        const int renewals = r.renewalsBetween(10000, 10260);
        QCOMPARE(renewals, 40);

        // While the writer is open: a handful of rows for 40 renewals; the fixed lease, one row.
        {
            StorePeek p(path);
            const qint64 rows = p.value(QStringLiteral(
                "SELECT count(*) FROM lease_change c JOIN lease l ON l.id = c.lease_id WHERE l.name = 'nightly-report'"));
            // seen, the first renewal, one count per minute of renewals, overdue, stale
            QVERIFY2(rows >= 5 && rows <= 9, qPrintable(QString::number(rows)));
            QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM lease_change c JOIN lease l ON l.id = c.lease_id "
                                            "WHERE l.name = 'monthly-close'")),
                     1);
            QCOMPARE(w->stats().renewalsCounted, qint64(renewals));
        }
        // Replayed from the open store, every refresh judges each lease as live did, and a
        // replayed expiry is never further from the truth than one renewal.
        auto checkReplay = [&](const QString& what) {
            HistoryReader reader(path);
            QVERIFY(reader.isOpen());
            Judge replay;
            int n = 0;
            reader.forEachSnapshot(0, 1e12, [&](const Snapshot& s) {
                const auto states = replay.apply(s);
                if (states != liveStates.value(s.serverNow)) {
                    QTest::qFail(qPrintable(QStringLiteral("%1: states differ at %2").arg(what).arg(s.serverNow)),
                                 __FILE__, __LINE__);
                    return false;
                }
                const Snapshot& truth = written[s.serverNow];
                for (const LeaseRow& got : s.leases)
                    for (const LeaseRow& want : truth.leases)
                        if (got.name == want.name && std::abs(*got.expiresAt - *want.expiresAt) > r.every + 1e-6) {
                            QTest::qFail(qPrintable(QStringLiteral("%1: %2 expires %3, was %4 at %5")
                                                        .arg(what, got.name)
                                                        .arg(*got.expiresAt)
                                                        .arg(*want.expiresAt)
                                                        .arg(s.serverNow)),
                                         __FILE__, __LINE__);
                            return false;
                        }
                ++n;
                return true;
            });
            QCOMPARE(n, int(written.size()));
            // The last renewal's expiry is exact where the lease went overdue (a row was written).
            const auto snap = reader.snapshotAt(10215);
            QVERIFY(snap);
            for (const LeaseRow& l : snap->leases)
                if (l.name == QLatin1String("nightly-report"))
                    QCOMPARE(*l.expiresAt, 10200.0 + r.ttl);
        };
        checkReplay(QStringLiteral("open"));
        if (QTest::currentTestFailed())
            return;

        // Closed: the count left over is written, the timeline counts every renewal, and the store
        // replays the same.
        w.reset();
        HistoryReader closed(path);
        QCOMPARE(renewalsOnTimeline(closed, QStringLiteral("nightly-report")), renewals);
        checkReplay(QStringLiteral("closed"));
    }

    // A lease still renewing when the recorder stops without closing (killed): its renewals since
    // the last row are lost as counts, but a replay keeps it held to the end, as live saw it.
    void uncountedRenewalsStillReplayAsHeld()
    {
        const QString path = file(QStringLiteral("uncounted.sqlite"));
        HistoryOptions o = options(path);
        auto w = std::make_unique<FedWriter>(o);
        RenewingLease r;
        Judge live;
        QMap<QString, LeaseState> last;
        for (double t = 10000; t <= 10120; t += 1) {
            const Snapshot s = refreshAt(t, r);
            QVERIFY(w->write(s));
            last = live.apply(s);
        }
        QCOMPARE(last.value(QStringLiteral("nightly-report")), LeaseState::Held);
        // The store as a killed writer leaves it (the writer's connection is still open, the
        // count never written): read beside it.
        HistoryReader reader(path);
        Judge replay;
        QMap<QString, LeaseState> got;
        int stale = 0;
        reader.forEachSnapshot(0, 1e12, [&](const Snapshot& s) {
            got = replay.apply(s);
            stale += got.value(QStringLiteral("nightly-report")) == LeaseState::Stale;
            return true;
        });
        QCOMPARE(stale, 0);
        QCOMPARE(got, last);
    }

    void olderSamplesAreThinnedKeepingPeaks()
    {
        const QString path = file(QStringLiteral("thin.sqlite"));
        HistoryOptions o = options(path);
        o.fullResolutionS = 600;
        FedWriter w(o);
        const double t0 = 60000; // a minute boundary
        const int n = 2400;      // 40 minutes, one refresh a second
        for (int i = 0; i < n; ++i) {
            SnapshotSpec sp;
            sp.now = t0 + i;
            sp.ok = i != 500; // one failed refresh
            // 4 billing sessions, 5 or 6 reports sessions alternating (a change every refresh);
            // 30 billing sessions for one refresh; 40 advisory locks for another.
            const int billing = i == 400 ? 30 : 4;
            for (int k = 0; k < billing; ++k)
                sp.sessions.push_back(session(200 + k, QStringLiteral("billing"), QStringLiteral("idle")));
            for (int k = 0; k < 5 + i % 2; ++k)
                sp.sessions.push_back(session(300 + k, QStringLiteral("reports"), QStringLiteral("active")));
            if (i == 700)
                for (int k = 0; k < 40; ++k)
                    sp.locks.push_back(advisoryLock(200, 1000 + k));
            QVERIFY(w.write(makeSnapshot(sp)));
        }
        const double last = t0 + n - 1;
        const double cutoff = std::floor((last - 600) / 60) * 60;
        StorePeek p(path);
        const qint64 recent = p.value(QStringLiteral("SELECT count(*) FROM refresh WHERE at >= %1").arg(cutoff));
        QCOMPARE(recent, qint64(last - cutoff + 1)); // the last ten minutes (and a bit) at full resolution
        const qint64 old = p.value(QStringLiteral("SELECT count(*) FROM refresh WHERE at < %1").arg(cutoff));
        const int minutes = int((cutoff - t0) / 60);
        // Per minute the first refresh and up to three peaks, plus the failure and its recovery.
        QVERIFY2(old >= minutes && old <= minutes * 4 + 2, qPrintable(QString::number(old)));
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM refresh WHERE ok = 0")), 1);
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM refresh WHERE at = %1").arg(t0 + 501)), 1);
        QVERIFY(w.stats().thinnedRefreshes > 0);
        // Pool rows: at most the largest and the last per group and minute before the cutoff.
        const qint64 perGroupMinute = p.value(
            QStringLiteral("SELECT max(c) FROM (SELECT count(*) AS c FROM group_sample WHERE at < %1 GROUP BY "
                           "group_id, CAST(at / 60 AS INTEGER))")
                .arg(cutoff));
        QVERIFY2(perGroupMinute <= 2, qPrintable(QString::number(perGroupMinute)));

        // The charts still see the peaks, and every kept refresh replays in full.
        HistoryReader r(path);
        const RecordedPoolSamples s = r.poolSamples(0, 1e12);
        int maxConnections = 0, maxLockEntries = 0;
        for (const ClusterSample& c : s.cluster) {
            maxConnections = std::max(maxConnections, c.connections);
            maxLockEntries = std::max(maxLockEntries, c.lockTableEntries);
        }
        QVERIFY2(maxConnections >= 30 + 5, qPrintable(QString::number(maxConnections))); // ~10 otherwise
        QCOMPARE(maxLockEntries, 40 + 3);
        int billingPeak = 0;
        for (const auto& g : s.groups)
            if (g.by == GroupBy::ApplicationName && g.key.contains(QLatin1String("billing")))
                for (const GroupSample& gs : g.samples)
                    billingPeak = std::max(billingPeak, gs.idle);
        QCOMPARE(billingPeak, 30);
        int replayed = 0;
        r.forEachSnapshot(0, 1e12, [&](const Snapshot&) {
            ++replayed;
            return true;
        });
        QCOMPARE(replayed, int(r.range().refreshes));
        QCOMPARE(r.integrityCheck(), QStringLiteral("ok"));
    }

    // A replay hands each refresh over with a delta against the previous one, as the poller does:
    // only the leases that changed (renewed, taken, gone) are named, and a model applying the
    // deltas shows at every refresh exactly what one comparing every row shows.
    void replayCarriesDeltasThatMatchAFullComparison()
    {
        const QString path = file(QStringLiteral("delta.sqlite"));
        {
            FedWriter w(options(path));
            for (int t = 0; t < 200; ++t) {
                SnapshotSpec sp;
                sp.now = 50000 + t;
                for (int i = 0; i < 300; ++i) {
                    if ((i + t / 20) % 37 == 0)
                        continue; // leases come and go
                    const double last = 50000 + t - ((t + i) % 10); // renewed every 10 s
                    sp.leases.push_back(lease(QStringLiteral("job-%1").arg(i), QStringLiteral("h:%1:x").arg(i % 7),
                                              49000, last + 40));
                }
                QVERIFY(w.write(makeSnapshot(sp)));
            }
        }
        HistoryReader r(path);
        Judge withDeltas, full;
        int n = 0;
        size_t changedMax = 0;
        r.forEachSnapshot(0, 1e12, [&](const Snapshot& s) {
            if (n > 0) {
                if (!s.leaseDelta || s.leaseDelta->baseSeq == 0) {
                    QTest::qFail("a replayed refresh without a delta", __FILE__, __LINE__);
                    return false;
                }
                changedMax = std::max(changedMax, s.leaseDelta->changed.size());
            }
            Snapshot stripped = s;
            stripped.leaseDelta.reset();
            const auto a = withDeltas.apply(s), b = full.apply(stripped);
            if (a != b) {
                QTest::qFail(qPrintable(QStringLiteral("states differ at %1").arg(s.serverNow)), __FILE__, __LINE__);
                return false;
            }
            ++n;
            return true;
        });
        QCOMPARE(n, 200);
        // 30 renewals a refresh, plus a few leases coming back; never every row.
        QVERIFY2(changedMax > 0 && changedMax < 60, qPrintable(QString::number(changedMax)));
        QCOMPARE(withDeltas.model.rowCount(), full.model.rowCount());
    }

    // A store written before renewals were counted (schema 1, a row per renewal) is read as such
    // and, opened by a writer, goes on as schema 2.
    void schemaOneStoreIsReadAndWrittenOn()
    {
        const QString path = file(QStringLiteral("schema1.sqlite"));
        RenewingLease r;
        {
            FedWriter w(options(path));
            for (double t = 10000; t <= 10030; t += 1)
                QVERIFY(w.write(refreshAt(t, r)));
        }
        {
            // Back to schema 1: no count columns, and every renewal its own row.
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("downgrade"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("DELETE FROM lease_change WHERE kind = 3")));
            for (const char* col : {"renewals", "first_renewal_at", "last_renewal_at"})
                QVERIFY2(q.exec(QStringLiteral("ALTER TABLE lease_change DROP COLUMN %1").arg(QLatin1String(col))),
                         qPrintable(q.lastError().text()));
            for (double t = 10001; t <= 10030; t += 1)
                if (r.renewalsBetween(t - 1, t) == 1)
                    QVERIFY(q.exec(QStringLiteral("INSERT INTO lease_change (refresh_id, at, lease_id, kind, holder, "
                                                  "taken_at, expires_at, state) SELECT id, at, 1, 3, "
                                                  "'app-1:4242:9f3ab2c4d5e6f708', 9995, %2, %3 FROM refresh WHERE at = %1")
                                       .arg(t)
                                       .arg(r.lastRenewal(t) + r.ttl)
                                       .arg(int(LeaseState::Held))));
            QVERIFY(q.exec(QStringLiteral("UPDATE meta SET value = '1' WHERE key = 'schema_version'")));
            QVERIFY(q.exec(QStringLiteral("DELETE FROM meta WHERE key = 'renewals_flushed'")));
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("downgrade"));
        {
            HistoryReader old(path);
            QVERIFY2(old.isOpen(), qPrintable(old.errorString()));
            QCOMPARE(renewalsOnTimeline(old, QStringLiteral("nightly-report")), r.renewalsBetween(10000, 10030));
            const auto snap = old.snapshotAt(10012.5);
            QVERIFY(snap);
            for (const LeaseRow& l : snap->leases)
                if (l.name == QLatin1String("nightly-report"))
                    QCOMPARE(*l.expiresAt, r.lastRenewal(10012) + r.ttl);
        }
        {
            FedWriter w(options(path));
            QVERIFY2(w.isOpen(), qPrintable(w.errorString()));
            for (double t = 10031; t <= 10060; t += 1)
                QVERIFY(w.write(refreshAt(t, r)));
        }
        HistoryReader again(path);
        QVERIFY(again.isOpen());
        QCOMPARE(again.metadata().value(QStringLiteral("schema_version")), QString::number(history::kSchemaVersion));
        QCOMPARE(renewalsOnTimeline(again, QStringLiteral("nightly-report")), r.renewalsBetween(10000, 10060));
    }
};

QTEST_GUILESS_MAIN(TstHistoryLasting)
#include "tst_history_lasting.moc"
