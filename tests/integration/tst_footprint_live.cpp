// The console's footprint against real servers: the budget stretches the interval, a large
// pg_locks is read less often than the rest (still one round trip per refresh), and what a
// long-running console makes of many refreshes of a changing workload (its rows diffed by key,
// handed to the lease tracker as deltas; an unchanged pg_locks read handed on) is what a console
// reading everything afresh makes of the same data, refresh after refresh.
#include "Poller.h"
#include "LibraryDdl.h"
#include "TestCluster.h"
#include "domain/LeaseTracker.h"

#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace lw;

namespace {
// The rows of a read by (table, name); a repeated name keeps every copy.
std::multimap<std::pair<int, QString>, LeaseRow> byKey(const LeaseRows& rows)
{
    std::multimap<std::pair<int, QString>, LeaseRow> out;
    for (const LeaseRow& r : rows)
        out.emplace(std::pair{r.source, r.name}, r);
    return out;
}

// What the Leases page shows of each tracked lease (by its key): the row, its state now, how it
// was seen to change.
struct Shown
{
    LeaseRow row;
    int state = 0;
    std::optional<double> releasedAt, takenOverAt, lastRenewal, ttl;
    QString previousHolder, host, token;
    qint64 pid = 0;
    int renewals = 0;
    bool operator==(const Shown& o) const
    {
        // An 'infinity' expiry makes NaN times (inf − inf): the same NaN on both sides is the same.
        auto same = [](const std::optional<double>& a, const std::optional<double>& b) {
            return a.has_value() == b.has_value() && (!a || *a == *b || (std::isnan(*a) && std::isnan(*b)));
        };
        return row.name == o.row.name && row.holder == o.row.holder && same(row.takenAt, o.row.takenAt) &&
               same(row.expiresAt, o.row.expiresAt) && row.source == o.row.source && state == o.state &&
               same(releasedAt, o.releasedAt) && same(takenOverAt, o.takenOverAt) && same(lastRenewal, o.lastRenewal) &&
               same(ttl, o.ttl) && previousHolder == o.previousHolder && host == o.host && token == o.token &&
               pid == o.pid && renewals == o.renewals;
    }
};
std::map<QString, Shown> shown(const LeaseTracker& t, double now)
{
    std::map<QString, Shown> out;
    for (int i = 0; i < t.size(); ++i) {
        const LeaseTracker::Entry& e = t.entry(i);
        out[e.key] = {e.track.row,
                      int(t.stateAt(i, now)),
                      e.track.releasedAt,
                      e.track.takenOverAt,
                      e.track.lastRenewal,
                      e.track.ttl,
                      e.track.previousHolder,
                      e.holder.host,
                      e.holder.token,
                      e.holder.pid,
                      e.track.renewalsSeen};
    }
    return out;
}
QString describe(const std::map<QString, Shown>& a, const std::map<QString, Shown>& b)
{
    for (const auto& [key, v] : a) {
        const auto it = b.find(key);
        if (it == b.end())
            return QStringLiteral("%1 only on the left").arg(key);
        if (!(it->second == v))
            return QStringLiteral("%1 differs: state %2/%3, holder %4/%5, expires %6/%7, released %8/%9, "
                                  "taken over %10/%11, renewals %12/%13, last renewal %14/%15, ttl %16/%17")
                .arg(key)
                .arg(v.state)
                .arg(it->second.state)
                .arg(v.row.holder.value_or(QStringLiteral("NULL")), it->second.row.holder.value_or(QStringLiteral("NULL")))
                .arg(v.row.expiresAt.value_or(-1), 0, 'f', 3)
                .arg(it->second.row.expiresAt.value_or(-1), 0, 'f', 3)
                .arg(v.releasedAt.value_or(-1), 0, 'f', 3)
                .arg(it->second.releasedAt.value_or(-1), 0, 'f', 3)
                .arg(v.takenOverAt.value_or(-1), 0, 'f', 3)
                .arg(it->second.takenOverAt.value_or(-1), 0, 'f', 3)
                .arg(v.renewals)
                .arg(it->second.renewals)
                .arg(v.lastRenewal.value_or(-1), 0, 'f', 3)
                .arg(it->second.lastRenewal.value_or(-1), 0, 'f', 3)
                .arg(v.ttl.value_or(-1), 0, 'f', 3)
                .arg(it->second.ttl.value_or(-1), 0, 'f', 3);
    }
    return a.size() == b.size() ? QString() : QStringLiteral("%1 vs %2 rows").arg(a.size()).arg(b.size());
}
// Starts a private cluster and opens a writable session on it (it takes the advisory locks).
void startWithHolder(cluster::ThrowawayCluster& cluster, pg::Connection& holder, QString& dsn)
{
    const auto err = cluster.start();
    QVERIFY2(!err, err ? qPrintable(*err) : "");
    dsn = cluster.dsn(QStringLiteral("postgres"));
    pg::ConnectOptions ho;
    ho.dsn = dsn;
    ho.readOnly = false;
    ho.statementTimeoutMs = 60000; // 30 000 locks in one statement
    QVERIFY(!holder.connect(ho).isError());
}

} // namespace

class TestFootprintLive : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tinyBudgetStretchesTheInterval()
    {
        test::TestDatabase db("footprint_budget");
        PollerConfig cfg = test::pollerConfig(db.dsn(), 100);
        cfg.serverTimeBudget = 1e-5; // any refresh (≥ 0.01 ms) needs ≥ 1 s between refreshes
        Poller p(cfg);
        QSignalSpy spy(&p, &Poller::snapshotReady);
        p.start();
        QVERIFY(spy.wait(10000));
        p.stop();
        const auto s = spy.first().at(0).value<Snapshot>();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QVERIFY(s.serverMs > 0);
        QVERIFY2(s.effectiveIntervalMs >= 1000, qPrintable(QString::number(s.effectiveIntervalMs)));
        // At the configured 100 ms there would be about a dozen refreshes in 1.2 s.
        QVERIFY2(spy.count() <= 2, qPrintable(QString::number(spy.count())));

        // The default budget leaves a cheap refresh at the configured interval.
        Poller q(test::pollerConfig(db.dsn(), 100));
        const Snapshot t = q.refreshOnce();
        QVERIFY(t.ok);
        QCOMPARE(t.effectiveIntervalMs, stretchedIntervalMs(100, t.serverMs, 0.01));
    }

    // A long-running console against a fresh one, over many refreshes of a random workload on the
    // leases table (and, with `shedlock`, a ShedLock table sharing some names: two tables, rows
    // tagged with theirs): renewals, take-overs, releases, new and returning names, NULLs,
    // infinity, rows rewritten in another physical order, writes of the same values, and for a
    // while a repeated name. At every refresh its rows are a fresh console's, and a lease tracker
    // fed its deltas shows what one comparing every row shows.
    void randomWorkload(bool shedlock)
    {
        test::TestDatabase db(shedlock ? "footprint_random2" : "footprint_random");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
        db.exec("CREATE INDEX leases_up ON leases (name)");
        db.exec("CREATE INDEX leases_down ON leases (name DESC)");
        db.exec("INSERT INTO leases SELECT 'l' || i, 'host-' || (i % 7) || ':' || (1000 + i) || ':00ff', now(), "
                "now() + interval '30 s' FROM generate_series(1, 300) i");
        if (shedlock) {
            // ShedLock's own DDL (its README, "Postgres"): rows stay when released.
            db.exec("CREATE TABLE shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL, "
                    "locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
            db.exec("INSERT INTO shedlock SELECT 'l' || i, timezone('utc', now()) + interval '10 min', "
                    "timezone('utc', now()), 'web-' || (i % 3) FROM generate_series(1, 20) i");
            // A table read through a row filter (db-scheduler's picked rows): a row leaves it when
            // unpicked, without being deleted.
            db.exec(test::kDbSchedulerDdl);
            db.exec("INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked, picked_by, "
                    "last_heartbeat, version) SELECT 'job', 'i' || i, now(), i % 2 = 0, 'web-1', now(), 1 "
                    "FROM generate_series(1, 30) i");
        }
        // A second writer whose transactions stay open across a refresh (one with a savepoint, some
        // rolled back): their rows are written by a transaction the read before could not see.
        pg::Connection writer;
        {
            pg::ConnectOptions wo;
            wo.dsn = db.dsn();
            wo.readOnly = false;
            QVERIFY(!writer.connect(wo).isError());
        }
        bool writerOpen = false;
        auto wexec = [&](const QString& sql) {
            pg::ResultPtr r;
            const DbError e = writer.exec({sql.toUtf8(), {}}, r, pg::Clock::now() + std::chrono::seconds(10));
            QVERIFY2(!e.isError(), qPrintable(e.message));
        };
        const quint32 seed = qEnvironmentVariableIsSet("LW_SEED") ? quint32(qEnvironmentVariableIntValue("LW_SEED"))
                                                                  : QRandomGenerator::global()->generate();
        qInfo("seed %u (LW_SEED repeats it)", seed);
        QRandomGenerator rnd(seed);
        auto someOf = [&](char prefix, int count, int max) {
            QStringList names;
            for (int k = 0; k < count; ++k)
                names << QStringLiteral("'%1%2'").arg(QLatin1Char(prefix)).arg(1 + rnd.bounded(max));
            return names.join(QLatin1Char(','));
        };
        auto some = [&](int count) { return someOf('l', count, 420); };

        Poller p(test::pollerConfig(db.dsn(), 100));
        auto clock = [] { return qint64(0); }; // both trackers judge at the snapshot's server time
        LeaseTracker incremental(clock), everyRow(clock);
        int deltas = 0, duplicatesSeen = 0;
        int byVersion = 0;
        for (int step = 0; step < 40; ++step) {
            if (writerOpen) { // first: a table rewrite below would wait for it
                wexec(rnd.bounded(4) == 0 ? QStringLiteral("ROLLBACK") : QStringLiteral("COMMIT"));
                writerOpen = false;
            }
            if (step > 0) {
                db.exec(QStringLiteral("UPDATE leases SET expires_at = expires_at + interval '7 s' WHERE name IN (%1)")
                            .arg(some(1 + rnd.bounded(80))));
                if (rnd.bounded(2))
                    db.exec(QStringLiteral("UPDATE leases SET holder = 'host-9:' || (2000 + %1) || ':beef', "
                                           "taken_at = now(), expires_at = now() + interval '30 s' WHERE name IN (%2)")
                                .arg(step)
                                .arg(some(1 + rnd.bounded(5))));
                if (rnd.bounded(2))
                    db.exec(QStringLiteral("DELETE FROM leases WHERE name IN (%1)").arg(some(1 + rnd.bounded(40))));
                if (rnd.bounded(2))
                    db.exec(QStringLiteral("INSERT INTO leases SELECT 'l' || (1 + (random() * 419)::int), "
                                           "CASE WHEN random() < 0.2 THEN NULL ELSE 'host-1:77:aa' END, "
                                           "CASE WHEN random() < 0.2 THEN NULL ELSE now() END, "
                                           "CASE WHEN random() < 0.1 THEN 'infinity' ELSE now() + interval '20 s' END "
                                           "FROM generate_series(1, %1) ON CONFLICT DO NOTHING")
                                .arg(1 + rnd.bounded(40)));
                if (rnd.bounded(4) == 0)
                    db.exec(QStringLiteral("UPDATE leases SET holder = holder WHERE name IN (%1)").arg(some(20)));
                if (rnd.bounded(5) == 0) // a name changed: the old name is gone
                    db.exec(QStringLiteral("UPDATE leases SET name = name || '-%1' WHERE name IN (%2)")
                                .arg(step)
                                .arg(some(3)));
                if (rnd.bounded(6) == 0) // every row in another place
                    db.exec(QStringLiteral("CLUSTER leases USING %1").arg(rnd.bounded(2) ? "leases_up" : "leases_down"));
                if (shedlock && rnd.bounded(2)) {
                    // ShedLock's unlock (lock_until to now) and a new take by another host.
                    db.exec(QStringLiteral("UPDATE shedlock SET lock_until = timezone('utc', now()) WHERE name IN (%1)")
                                .arg(some(3)));
                    db.exec(QStringLiteral("UPDATE shedlock SET lock_until = timezone('utc', now()) + interval '5 min', "
                                           "locked_at = timezone('utc', now()), locked_by = 'web-%1' WHERE name IN (%2)")
                                .arg(rnd.bounded(5))
                                .arg(some(3)));
                }
                if (shedlock && rnd.bounded(2)) {
                    const QString tasks = someOf('i', 6, 34);
                    db.exec(QStringLiteral("UPDATE scheduled_tasks SET picked = NOT picked, picked_by = 'web-%1', "
                                           "last_heartbeat = now() WHERE task_instance IN (%2)")
                                .arg(rnd.bounded(4))
                                .arg(tasks));
                    if (rnd.bounded(3) == 0)
                        db.exec(QStringLiteral("DELETE FROM scheduled_tasks WHERE task_instance IN (%1)")
                                    .arg(someOf('i', 2, 34)));
                }
                if (step == 25) { // a mapped name that is not unique, for a while
                    db.exec("ALTER TABLE leases DROP CONSTRAINT leases_pkey");
                    db.exec("INSERT INTO leases SELECT name, 'host-3:3:dd', now(), now() + interval '60 s' FROM leases "
                            "ORDER BY name LIMIT 2");
                }
                if (step == 30) {
                    db.exec("DELETE FROM leases a USING leases b WHERE a.name = b.name AND a.ctid > b.ctid");
                    db.exec("ALTER TABLE leases ADD PRIMARY KEY (name)");
                }
            }
            if (step > 0 && (step < 25 || step >= 30) && rnd.bounded(2)) { // its upsert needs the key
                // Names of their own ('w…'): the statements above never wait for these row locks.
                wexec(QStringLiteral("BEGIN"));
                wexec(QStringLiteral("INSERT INTO leases SELECT 'w' || i, 'host-5:55:cc', now(), now() + interval '9 s' "
                                     "FROM generate_series(1, %1) i ON CONFLICT (name) DO UPDATE SET expires_at = "
                                     "excluded.expires_at + interval '1 s'")
                          .arg(1 + rnd.bounded(30)));
                wexec(QStringLiteral("SAVEPOINT s"));
                wexec(QStringLiteral("DELETE FROM leases WHERE name IN (%1)").arg(someOf('w', 2, 30)));
                wexec(rnd.bounded(3) == 0 ? QStringLiteral("ROLLBACK TO s") : QStringLiteral("RELEASE s"));
                writerOpen = true; // until the next step
            }
            const Snapshot s = p.refreshOnce();
            QVERIFY2(s.ok && !s.leasesError, qPrintable(s.error.toDisplayString()));
            QCOMPARE(int(s.leaseTables->size()), shedlock ? 3 : 1);
            if (step > 0 && s.leaseRowsSent < int(s.leases.size()))
                ++byVersion;
            Poller fresh(test::pollerConfig(db.dsn(), 100));
            const Snapshot f = fresh.refreshOnce();
            QVERIFY(f.ok);
            QVERIFY2(byKey(s.leases) == byKey(f.leases), qPrintable(QStringLiteral("step %1").arg(step)));
            if (s.leaseDelta && s.leaseDelta->baseSeq != 0)
                ++deltas;
            if (!s.leaseDelta)
                ++duplicatesSeen;

            Snapshot plain = s;
            plain.leaseDelta.reset();
            incremental.apply(s);
            everyRow.apply(plain);
            const QString diff = describe(shown(incremental, s.serverNow), shown(everyRow, s.serverNow));
            QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("step %1: %2").arg(step).arg(diff)));
        }
        QVERIFY2(deltas >= 30, "most refreshes reach the tracker as deltas");
        // Only the rows written since: every refresh but the first and those of the repeated name.
        QVERIFY2(byVersion >= 25, qPrintable(QString::number(byVersion)));
        QVERIFY2(duplicatesSeen >= 1, "a repeated name is read without a delta");

        // The epochs arrive as binary float8: the server's own values, NULL and infinity.
        db.exec("INSERT INTO leases VALUES ('odd', NULL, NULL, 'infinity') ON CONFLICT DO NOTHING");
        const Snapshot s = p.refreshOnce();
        const auto rows = byKey(s.leases);
        const LeaseRow& odd = rows.find({0, QStringLiteral("odd")})->second;
        QVERIFY(!odd.holder && !odd.takenAt && odd.expiresAt && std::isinf(*odd.expiresAt));
        const auto some300 = std::find_if(rows.begin(), rows.end(), [](const auto& r) {
            return r.second.expiresAt && std::isfinite(*r.second.expiresAt);
        });
        QVERIFY(some300 != rows.end());
        QCOMPARE(*some300->second.expiresAt,
                 db.value(QStringLiteral("SELECT date_part('epoch', expires_at) FROM leases WHERE name = '%1'")
                              .arg(some300->first.second))
                     .toDouble());
    }
    void oneLeaseTableAgainstAFreshConsole() { randomWorkload(false); }
    void twoLeaseTablesAgainstAFreshConsole() { randomWorkload(true); }

    // Advisory locks taken and released at random by three sessions: every refresh shows what a
    // fresh console reads (an unchanged read is handed on to the lock views as it is).
    void locksMatchAFreshConsole()
    {
        cluster::ThrowawayCluster cluster(test::privateClusterOptions(QStringLiteral("locks-random")));
        pg::Connection holder;
        QString dsn;
        startWithHolder(cluster, holder, dsn);
        if (QTest::currentTestFailed())
            return;
        std::vector<pg::Connection> holders;
        holders.push_back(std::move(holder));
        for (int k = 0; k < 2; ++k)
            holders.push_back(test::openAppSession(dsn, QStringLiteral("holder-%1").arg(k)));
        const quint32 seed = QRandomGenerator::global()->generate();
        qInfo("seed %u", seed);
        QRandomGenerator rnd(seed);
        Poller p(test::pollerConfig(dsn, 100));
        // Until the fresh console of the step before has left: the gate then opens for the step's
        // own change only.
        auto settle = [&] {
            for (int i = 0; i < 100; ++i) {
                const Snapshot s = p.refreshOnce();
                if (std::none_of(s.sessions.begin(), s.sessions.end(), [](const SessionRow& r) {
                        return r.applicationName == QLatin1String("fresh-console");
                    }))
                    return;
                QTest::qWait(20);
            }
            QFAIL("the fresh console's session did not leave");
        };
        int gatedOff = 0;
        for (int step = 0; step < 30; ++step) {
            settle();
            pg::Connection& c = holders[size_t(rnd.bounded(3))];
            const int action = rnd.bounded(4);
            switch (action) {
            case 0:
            case 1:
                test::runOn(c, QByteArray("SELECT pg_try_advisory_lock(") + QByteArray::number(rnd.bounded(40)) + ")");
                break;
            case 2:
                test::runOn(c, QByteArray("SELECT pg_advisory_unlock(") + QByteArray::number(rnd.bounded(40)) + ")");
                break;
            default:
                break; // nothing changes: the same read
            }
            // A session's statement opens the gate (pg_locks read); with nothing since, it stays shut.
            const Snapshot first = p.refreshOnce();
            QCOMPARE(first.locksReused, action == 3);
            const Snapshot s = p.refreshOnce();
            QVERIFY(s.locksReused);
            ++gatedOff;
            PollerConfig freshCfg = test::pollerConfig(dsn, 100);
            freshCfg.connect.applicationName = QStringLiteral("fresh-console");
            Poller fresh(freshCfg);
            const Snapshot f = fresh.refreshOnce();
            QVERIFY(s.ok && f.ok);
            auto keys = [](const Snapshot& x) {
                std::multiset<std::tuple<int, qint64, bool>> out;
                for (const AdvisoryLockRow& l : x.advisoryLocks)
                    out.insert({l.pid, l.key, l.granted});
                return out;
            };
            QVERIFY2(keys(s) == keys(f), qPrintable(QStringLiteral("step %1").arg(step)));
            std::multiset<std::pair<int, QString>> views, freshViews;
            for (const LockView& v : s.analysis->locks)
                views.insert({v.lock.pid, v.name + QLatin1Char('|') + QString::number(v.lock.key) +
                                              (v.sessionLevel ? QLatin1String("|s") : QLatin1String("|x"))});
            for (const LockView& v : f.analysis->locks)
                freshViews.insert({v.lock.pid, v.name + QLatin1Char('|') + QString::number(v.lock.key) +
                                                   (v.sessionLevel ? QLatin1String("|s") : QLatin1String("|x"))});
            QVERIFY2(views == freshViews, qPrintable(QStringLiteral("step %1").arg(step)));
        }
        QCOMPARE(gatedOff, 30);
    }

    // A statement that takes advisory locks as it runs (one every 0.3 s) moves none of its
    // session's times: the gate stays open while it runs, and every refresh shows the locks so far.
    void locksTakenByARunningStatementAreSeen()
    {
        // A cluster of its own: on the suite's, other tests' statements keep the gate open anyway.
        cluster::ThrowawayCluster cluster(test::privateClusterOptions(QStringLiteral("locks-running")));
        pg::Connection runner;
        QString dsn;
        startWithHolder(cluster, runner, dsn);
        if (QTest::currentTestFailed())
            return;
        Poller p(test::pollerConfig(dsn, 100));
        QVERIFY(p.refreshOnce().ok);
        QVERIFY(p.refreshOnce().locksReused); // nothing runs: not read
        QVERIFY(PQsendQuery(runner.raw(), "SELECT pg_advisory_lock(900 + i), pg_sleep(0.3) FROM generate_series(1, 8) i"));
        std::vector<int> seen;
        for (int i = 0; i < 16; ++i) {
            QTest::qWait(200);
            const Snapshot s = p.refreshOnce();
            QVERIFY(s.ok);
            seen.push_back(int(std::count_if(s.advisoryLocks.begin(), s.advisoryLocks.end(),
                                             [](const AdvisoryLockRow& l) { return l.key > 900 && l.key <= 908; })));
        }
        while (PGresult* r = PQgetResult(runner.raw()))
            PQclear(r);
        QString counts;
        for (int n : seen)
            counts += QString::number(n) + QLatin1Char(' ');
        // Growing while it ran (not stuck at the count of the refresh before it started).
        QVERIFY2(std::adjacent_find(seen.begin(), seen.end(), std::greater<int>()) == seen.end(), qPrintable(counts));
        QVERIFY2(std::set<int>(seen.begin(), seen.end()).size() >= 4, qPrintable(counts));
        QCOMPARE(seen.back(), 8);
    }

    void largeLockTableIsReadLessOften()
    {
        // A private cluster: 30 000 advisory locks would crowd the suite's lock table.
        cluster::ClusterOptions o = test::privateClusterOptions(QStringLiteral("footprint"));
        o.maxLocksPerTransaction = 512;
        cluster::ThrowawayCluster cluster(o);
        pg::Connection holder;
        QString dsn;
        startWithHolder(cluster, holder, dsn);
        if (QTest::currentTestFailed())
            return;
        pg::ResultPtr r;
        QVERIFY(!holder
                     .exec({"SELECT count(pg_advisory_lock(k)) FROM generate_series(1, 30000) k", {}}, r,
                           pg::Clock::now() + std::chrono::seconds(60))
                     .isError());

        Poller p(test::pollerConfig(dsn, 100));
        int reused = 0, maxN = 1;
        size_t rows = 0;
        for (int i = 0; i < 8; ++i) {
            const Snapshot s = p.refreshOnce();
            QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
            QCOMPARE(s.roundTrips, 1);
            QVERIFY(s.advisoryLocks.size() >= 30000);
            if (i == 0) {
                QVERIFY(!s.locksReused); // nothing to reuse yet
                rows = s.advisoryLocks.size();
            }
            maxN = std::max(maxN, s.locksEveryN);
            if (s.locksReused) {
                ++reused;
                QCOMPARE(s.advisoryLocks.size(), rows); // the previous read, as it was
                QVERIFY(s.locksAgeMs > 0);
            } else {
                rows = s.advisoryLocks.size();
            }
        }
        QVERIFY2(maxN > 1, "pg_locks (30 000 rows, ~100 ms) dominates a refresh of an empty database");
        QVERIFY(reused >= 1);
        QVERIFY(reused < 8); // and it is still read
        holder.close();
    }

};

QTEST_GUILESS_MAIN(TestFootprintLive)
#include "tst_footprint_live.moc"
