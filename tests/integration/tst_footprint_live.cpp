// The console's footprint against real servers: the budget stretches the interval, only changed
// lease rows are decoded (and the result matches a full read), and a large pg_locks is read less
// often than the rest, still in one round trip per refresh.
#include "Poller.h"
#include "TestCluster.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <map>

using namespace lw;

namespace {
std::map<QString, LeaseRow> byName(const LeaseRows& rows)
{
    std::map<QString, LeaseRow> out;
    for (const LeaseRow& r : rows)
        out[r.name] = r;
    return out;
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

const SessionRow* sessionOf(const Snapshot& s, int pid)
{
    for (const SessionRow& row : s.sessions)
        if (row.pid == pid)
            return &row;
    return nullptr;
}

// The pid of a connection's backend.
int backendPid(pg::Connection& conn)
{
    pg::ResultPtr r;
    if (conn.exec({"SELECT pg_backend_pid()", {}}, r, pg::Clock::now() + std::chrono::seconds(10)).isError())
        return -1;
    return QByteArray(PQgetvalue(r.get(), 0, 0)).toInt();
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
        QTest::qWait(1200);
        p.stop();
        QVERIFY(!spy.isEmpty());
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

    void onlyChangedLeasesAreDecoded()
    {
        test::TestDatabase db("footprint_leases");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
        db.exec("INSERT INTO leases SELECT 'l' || i, 'h:' || i || ':x', now(), now() + interval '60 s' "
                "FROM generate_series(1, 3000) i");
        Poller p(test::pollerConfig(db.dsn(), 100));
        Snapshot s = p.refreshOnce();
        QVERIFY(s.ok);
        QCOMPARE(s.leases.size(), size_t(3000));
        QVERIFY(s.leaseDelta && s.leaseDelta->baseSeq == 0); // the first read: no base

        s = p.refreshOnce(); // nothing changed
        QVERIFY(s.leaseDelta && s.leaseDelta->baseSeq != 0);
        QVERIFY(s.leaseDelta->changed.empty() && s.leaseDelta->moves.empty());
        QCOMPARE(s.leaseDelta->appendedFrom, size_t(3000));

        // Renewals move rows in the heap; deletes, inserts and a NULL holder on top.
        db.exec("UPDATE leases SET expires_at = expires_at + interval '5 s' WHERE name IN ('l7', 'l1500', 'l2999')");
        db.exec("UPDATE leases SET holder = NULL WHERE name = 'l42'");
        db.exec("DELETE FROM leases WHERE name IN ('l1', 'l2000')");
        db.exec("INSERT INTO leases VALUES ('new-a', 'h:9:y', now(), now() + interval '60 s'), "
                "('new-b', NULL, NULL, NULL)");
        const quint64 base = s.seq;
        s = p.refreshOnce();
        QVERIFY(s.ok);
        const LeaseDelta& d = *s.leaseDelta;
        QCOMPARE(d.baseSeq, base);
        QCOMPARE(int(d.moves.size()), 2);
        QCOMPARE(int(d.changed.size()), 4);
        QCOMPARE(s.leases.size() - d.appendedFrom, size_t(2));
        // The same rows as a fresh console reading everything.
        Poller fresh(test::pollerConfig(db.dsn(), 100));
        const Snapshot f = fresh.refreshOnce();
        QVERIFY(byName(s.leases) == byName(f.leases));
        QVERIFY(!byName(s.leases).at(QStringLiteral("l42")).holder);

        // Rows that change size leave their bytes behind in the cache; once most rows did, the cache
        // is packed again. Either way: the changed rows only, and a fresh console's values.
        auto sameAsFresh = [&](const Snapshot& got) {
            Poller again(test::pollerConfig(db.dsn(), 100));
            const Snapshot want = again.refreshOnce();
            return want.ok && byName(got.leases) == byName(want.leases);
        };
        db.exec("UPDATE leases SET holder = holder || ':longer' WHERE name LIKE 'l1%'"); // 1 110 rows
        s = p.refreshOnce();
        QVERIFY(s.ok && s.leaseDelta);
        QCOMPARE(int(s.leaseDelta->changed.size()), 1110);
        QVERIFY(sameAsFresh(s));
        db.exec("UPDATE leases SET holder = holder || ':longer'"); // NULL holders stay NULL
        s = p.refreshOnce();
        QVERIFY(s.ok && s.leaseDelta);
        QCOMPARE(int(s.leaseDelta->changed.size()), 2998);
        QVERIFY(sameAsFresh(s));
        s = p.refreshOnce();
        QVERIFY(s.ok && s.leaseDelta);
        QVERIFY(s.leaseDelta->changed.empty() && s.leaseDelta->moves.empty());
        QCOMPARE(s.leaseDelta->appendedFrom, size_t(3000));

        // A repeated name (the mapped column is not unique) is compared in full, still correct.
        db.exec("ALTER TABLE leases DROP CONSTRAINT leases_pkey");
        db.exec("INSERT INTO leases VALUES ('l5', 'h:5:dup', now(), now() + interval '60 s')");
        s = p.refreshOnce();
        QVERIFY(s.ok);
        QVERIFY(!s.leaseDelta);
        QCOMPARE(s.leases.size(), f.leases.size() + 1);
    }

    // Unchanged pg_locks rows and pg_stat_activity rows are not decoded again: the previous values
    // are shared (the same storage, the same strings); a change is decoded and matches a full read.
    void unchangedLocksAndSessionsAreShared()
    {
        // A private cluster: other tests' locks and sessions would change the shared one's pg_locks.
        cluster::ThrowawayCluster cluster(test::privateClusterOptions(QStringLiteral("reuse")));
        pg::Connection holder;
        QString dsn;
        startWithHolder(cluster, holder, dsn);
        if (QTest::currentTestFailed())
            return;
        pg::ResultPtr r;
        const auto deadline = [] { return pg::Clock::now() + std::chrono::seconds(10); };
        QVERIFY(!holder.exec({"SELECT pg_advisory_lock(4242)", {}}, r, deadline()).isError());
        const int holderPid = backendPid(holder);
        auto sessionOf = [&](const Snapshot& s) { return ::sessionOf(s, holderPid); };
        // A backend that answered reports "idle" first and its wait for the next command (wait
        // event ClientRead) a moment later: a read in between differs from every later one. The
        // refreshes compared below start once the holder's row has settled (a fresh-clone run
        // under ctest -j2 once read it in between).
        pg::Connection watcher;
        pg::ConnectOptions wo;
        wo.dsn = dsn;
        QVERIFY(!watcher.connect(wo).isError());
        auto settled = [&] {
            for (int i = 0; i < 500; ++i) {
                pg::ResultPtr w;
                if (!watcher
                         .exec({"SELECT state = 'idle' AND wait_event IS NOT DISTINCT FROM 'ClientRead' FROM "
                                "pg_stat_activity WHERE pid = $1",
                                {QByteArray::number(holderPid)}},
                               w, deadline())
                         .isError() &&
                    PQntuples(w.get()) == 1 && PQgetvalue(w.get(), 0, 0)[0] == 't')
                    return true;
                QTest::qWait(10);
            }
            return false;
        };
        QVERIFY(settled());

        Poller p(test::pollerConfig(dsn, 100));
        const Snapshot s1 = p.refreshOnce();
        const Snapshot s2 = p.refreshOnce();
        QVERIFY(s1.ok && s2.ok);
        QCOMPARE(s1.advisoryLocks.size(), size_t(1));
        QVERIFY(s2.advisoryLocks.sharesStorageWith(s1.advisoryLocks));
        QVERIFY(sessionOf(s1) && sessionOf(s2));
        QVERIFY(sessionOf(s2)->query.constData() == sessionOf(s1)->query.constData()); // not decoded again
        // The same read from the same idle holder: the lock views of the refresh before serve again.
        QVERIFY(s2.analysis->locks.sharesStorageWith(s1.analysis->locks));

        QVERIFY(!holder.exec({"SELECT pg_advisory_lock(4243)", {}}, r, deadline()).isError());
        QVERIFY(settled());
        const Snapshot s3 = p.refreshOnce();
        QVERIFY(s3.ok);
        QVERIFY(!s3.advisoryLocks.sharesStorageWith(s2.advisoryLocks));
        QVERIFY(!s3.analysis->locks.sharesStorageWith(s2.analysis->locks));
        QCOMPARE(s3.analysis->locks.size(), size_t(2));
        QCOMPARE(s3.advisoryLocks.size(), size_t(2));
        QVERIFY(sessionOf(s3) && sessionOf(s3)->query.contains(QLatin1String("4243")));
        // What a fresh poller decodes from scratch.
        Poller fresh(test::pollerConfig(dsn, 100));
        const Snapshot f = fresh.refreshOnce();
        QVERIFY(f.ok);
        QVERIFY(std::vector<AdvisoryLockRow>(f.advisoryLocks) == std::vector<AdvisoryLockRow>(s3.advisoryLocks));
        QVERIFY(sessionOf(f) && *sessionOf(f) == *sessionOf(s3));
        holder.close();
    }

    // A changed pg_stat_activity row is decoded cell by cell: what changed is read, what did not
    // keeps last time's values (the same strings); sessions that leave and arrive shift the rows.
    void changedSessionsKeepTheirUnchangedCells()
    {
        cluster::ThrowawayCluster cluster(test::privateClusterOptions(QStringLiteral("cells")));
        pg::Connection holder;
        QString dsn;
        startWithHolder(cluster, holder, dsn);
        if (QTest::currentTestFailed())
            return;
        const auto deadline = [] { return pg::Clock::now() + std::chrono::seconds(10); };
        pg::ResultPtr r;
        const int pid = backendPid(holder);
        Poller p(test::pollerConfig(dsn, 100));
        const Snapshot s1 = p.refreshOnce();
        QVERIFY(s1.ok && sessionOf(s1, pid));

        QVERIFY(!holder.exec({"SET application_name = 'renamed-holder'", {}}, r, deadline()).isError());
        const Snapshot s2 = p.refreshOnce();
        const SessionRow *before = sessionOf(s1, pid), *after = sessionOf(s2, pid);
        QVERIFY(after);
        QCOMPARE(after->applicationName, QStringLiteral("renamed-holder"));
        QVERIFY(after->query.contains(QLatin1String("application_name")));
        QVERIFY(*after->queryStart > *before->queryStart);
        // Unchanged cells: the previous values, not decoded again.
        QVERIFY(after->database.constData() == before->database.constData());
        QVERIFY(after->user.constData() == before->user.constData());
        QVERIFY(after->state.constData() == before->state.constData());
        QCOMPARE(after->backendStart, before->backendStart);

        // Others come and go: rows shift, and each is what a fresh read makes of it.
        std::vector<std::unique_ptr<pg::Connection>> others;
        for (int k = 0; k < 3; ++k) {
            others.push_back(std::make_unique<pg::Connection>());
            pg::ConnectOptions co;
            co.dsn = dsn;
            co.applicationName = QStringLiteral("other-%1").arg(k);
            QVERIFY(!others.back()->connect(co).isError());
        }
        p.refreshOnce();
        others.erase(others.begin()); // the first leaves; the rows after it move up
        QVERIFY(!others.front()->exec({"SELECT 'second, busy once'", {}}, r, deadline()).isError());
        QVERIFY(!holder.exec({"SET application_name = 'holder-again'", {}}, r, deadline()).isError());
        QTRY_VERIFY_WITH_TIMEOUT(p.refreshOnce().sessions.size() == 3, 5000); // holder + two others
        const Snapshot s3 = p.refreshOnce();
        Poller fresh(test::pollerConfig(dsn, 100));
        const Snapshot f = fresh.refreshOnce();
        int compared = 0;
        for (const SessionRow& row : s3.sessions) {
            const SessionRow* mine = sessionOf(f, row.pid);
            QVERIFY2(mine, qPrintable(QString::number(row.pid)));
            QVERIFY2(*mine == row, qPrintable(row.applicationName));
            ++compared;
        }
        QCOMPARE(compared, 3);
        QCOMPARE(sessionOf(s3, pid)->applicationName, QStringLiteral("holder-again"));
        holder.close();
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

    // A lease row's name and xmin stand for the whole row, only where the relation has row versions;
    // rows with the same xmin (one transaction) that change places keep their values.
    void rowVersionsTellUnchangedLeases()
    {
        test::TestDatabase db("footprint_versions");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
        // One transaction: every row has the same xmin. Names longer than the poller keeps beside
        // the xmin (18 bytes) are compared with the kept record; these differ only at their end.
        db.exec("INSERT INTO leases SELECT 'l' || i, 'h:' || i || ':x', now(), now() + interval '60 s' "
                "FROM generate_series(1, 500) i UNION ALL SELECT 'a-rather-long-lease-name-' || lpad(i::text, 5, '0'), "
                "'h:' || i || ':y', now(), now() + interval '90 s' FROM generate_series(1, 20) i");
        db.exec("CREATE INDEX leases_backwards ON leases (name DESC)");
        db.exec("CREATE VIEW leases_view AS SELECT * FROM leases");
        db.exec("CREATE TABLE leases_parted(name text, holder text, taken_at timestamptz, expires_at timestamptz) "
                "PARTITION BY LIST (holder)");
        db.exec("CREATE TABLE leases_parted_a PARTITION OF leases_parted FOR VALUES IN ('a')");
        db.exec("CREATE MATERIALIZED VIEW leases_mat AS SELECT * FROM leases");

        pg::Connection conn;
        pg::ConnectOptions co;
        co.dsn = db.dsn();
        QVERIFY(!conn.connect(co).isError());
        for (const auto& [table, versions] : {std::pair{"leases", true}, std::pair{"leases_view", false},
                                              std::pair{"leases_parted", true}, std::pair{"leases_mat", true}}) {
            LeaseTableConfig lc;
            lc.table = QString::fromLatin1(table);
            std::vector<pg::StatementResult> res;
            QVERIFY(!conn.runPipeline(leaseTableCheck(lc), res, pg::Clock::now() + std::chrono::seconds(10)).isError());
            QVERIFY2(!interpretLeaseTableCheck(lc, res), table);
            QVERIFY2(leaseTableHasRowVersions(res) == versions, table);
            QVERIFY(!conn.runPipeline({leaseSelect(conn, lc, versions)}, res,
                                      pg::Clock::now() + std::chrono::seconds(10))
                         .isError());
            QCOMPARE(QByteArray(PQfname(res[0].result.get(), 0)), QByteArray(versions ? "xmin" : "name"));
            QCOMPARE(PQfformat(res[0].result.get(), versions ? 4 : 3), 1); // binary: no float8out on the server
        }

        // A view has no xmin: its rows are compared in full, and read right.
        PollerConfig viewCfg = test::pollerConfig(db.dsn(), 100);
        viewCfg.leases.table = QStringLiteral("leases_view");
        Poller viewPoller(viewCfg);
        Snapshot v = viewPoller.refreshOnce();
        QVERIFY2(v.ok && !v.leasesError, v.leasesError ? qPrintable(v.leasesError->toDisplayString()) : "");
        QCOMPARE(v.leases.size(), size_t(520));

        Poller p(test::pollerConfig(db.dsn(), 100));
        Snapshot s = p.refreshOnce();
        QVERIFY(s.ok);
        QCOMPARE(s.leases.size(), size_t(520));
        // The heap rewritten backwards: same xmin everywhere, every row in another place.
        db.exec("CLUSTER leases USING leases_backwards");
        s = p.refreshOnce();
        QVERIFY(s.leaseDelta && s.leaseDelta->baseSeq != 0);
        QVERIFY(s.leaseDelta->changed.empty() && s.leaseDelta->moves.empty());
        Poller fresh(test::pollerConfig(db.dsn(), 100));
        QVERIFY(byName(s.leases) == byName(fresh.refreshOnce().leases));

        // A new version with the same values is no change; a new expiry is, once.
        db.exec("UPDATE leases SET holder = holder WHERE name = 'l10'");
        s = p.refreshOnce();
        QVERIFY(s.leaseDelta->changed.empty());
        db.exec("UPDATE leases SET expires_at = expires_at + interval '5 s' WHERE name IN ('l10', 'l300', "
                "'a-rather-long-lease-name-00007')");
        db.exec("UPDATE leases SET expires_at = expires_at + interval '5 s' WHERE name = 'l11'");
        s = p.refreshOnce();
        QCOMPARE(int(s.leaseDelta->changed.size()), 4);
        s = p.refreshOnce();
        QVERIFY(s.leaseDelta->changed.empty());
        v = viewPoller.refreshOnce();
        QCOMPARE(int(v.leaseDelta->changed.size()), 4);
        Poller fresh2(test::pollerConfig(db.dsn(), 100));
        const auto now = byName(fresh2.refreshOnce().leases);
        QVERIFY(byName(s.leases) == now);
        QVERIFY(byName(v.leases) == now);

        // The epochs arrive as binary float8: the same values as the server's text, NULL and infinity.
        db.exec("INSERT INTO leases VALUES ('odd', NULL, NULL, 'infinity')");
        const auto rows = byName(p.refreshOnce().leases);
        QCOMPARE(*rows.at(QStringLiteral("l300")).expiresAt,
                 db.value("SELECT date_part('epoch', expires_at) FROM leases WHERE name = 'l300'").toDouble());
        QCOMPARE(rows.at(QStringLiteral("l300")).holder, std::optional<QString>(QStringLiteral("h:300:x")));
        const LeaseRow& odd = rows.at(QStringLiteral("odd"));
        QVERIFY(!odd.holder && !odd.takenAt && odd.expiresAt && std::isinf(*odd.expiresAt));
    }

    // Rows written by one transaction share their xmin: only the name tells them apart, and it is
    // compared a word at a time. Two such rows side by side, with names of every length from 1 to
    // 20 bytes that differ at one byte anywhere; the first of each pair deleted, the second must
    // not be taken for it. Then a renewal by a new holder, and one by the same holder.
    void rowsOfOneTransactionAreToldApartByName()
    {
        test::TestDatabase db("footprint_names");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
        db.exec("INSERT INTO leases SELECT v.name, 'h:' || v.name, now(), now() + interval '60 s' "
                "FROM (SELECT len, p, row_number() OVER (ORDER BY len, p) AS k "
                "      FROM generate_series(1, 20) len, generate_series(1, len) p) t, "
                "LATERAL (VALUES (overlay(repeat('n', t.len::int) placing 'a' from t.p::int for 1), 0), "
                "                (overlay(repeat('n', t.len::int) placing 'b' from t.p::int for 1), 1)) v(name, second) "
                "ORDER BY t.k, v.second");
        const int pairs = db.value("SELECT count(*) / 2 FROM leases").toInt();
        QCOMPARE(pairs, 210);
        QCOMPARE(db.value("SELECT count(DISTINCT xmin::text) FROM leases").toInt(), 1);

        Poller p(test::pollerConfig(db.dsn(), 100));
        Snapshot s = p.refreshOnce();
        QVERIFY(s.ok && !s.leasesError);
        QCOMPARE(int(s.leases.size()), 2 * pairs);
        db.exec("DELETE FROM leases WHERE name LIKE '%a%'");
        s = p.refreshOnce();
        QCOMPARE(int(s.leases.size()), pairs);
        QVERIFY(s.leaseDelta && s.leaseDelta->changed.empty());
        QCOMPARE(int(s.leaseDelta->moves.size()), pairs);
        const auto seen = byName(s.leases);
        for (const auto& [name, row] : seen) {
            QVERIFY2(!name.contains(QLatin1Char('a')), qPrintable(name));
            QCOMPARE(row.holder, std::optional<QString>(QStringLiteral("h:") + name));
        }
        Poller fresh(test::pollerConfig(db.dsn(), 100));
        QVERIFY(seen == byName(fresh.refreshOnce().leases));

        // A take by another holder, and a renewal by the same one: the new holder, the new expiry.
        db.exec("UPDATE leases SET holder = 'other:1:ff', expires_at = expires_at + interval '1 s' "
                "WHERE name = 'nnnnnnnnbnn'");
        db.exec("UPDATE leases SET expires_at = expires_at + interval '2 s' WHERE name = 'b'");
        s = p.refreshOnce();
        QCOMPARE(int(s.leaseDelta->changed.size()), 2);
        Poller fresh2(test::pollerConfig(db.dsn(), 100));
        const auto now = byName(fresh2.refreshOnce().leases);
        QVERIFY(byName(s.leases) == now);
        QCOMPARE(now.at(QStringLiteral("nnnnnnnnbnn")).holder, std::optional<QString>(QStringLiteral("other:1:ff")));
        QCOMPARE(now.at(QStringLiteral("b")).holder, std::optional<QString>(QStringLiteral("h:b")));
    }
};

QTEST_GUILESS_MAIN(TestFootprintLive)
#include "tst_footprint_live.moc"
