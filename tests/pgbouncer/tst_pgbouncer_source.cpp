// PgBouncerSource, the join of server slots with advisory locks, and the pools model, against a real
// PgBouncer (Debian's package) in front of the suite's cluster. Every test starts its own PgBouncer
// and stops it at the end, failed or not.
#include "BouncerSupport.h"
#include "ConsoleSupport.h"
#include "Monitor.h"
#include "Poller.h"
#include "TestCluster.h"
#include "pgbouncer/PgBouncerMonitor.h"

#include <QAbstractItemModelTester>
#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace lw;
using namespace lw::bouncer;

namespace {
BouncerConfig adminConfig(const test::BouncerProcess& b)
{
    BouncerConfig c;
    c.dsn = b.adminDsn();
    c.intervalMs = 150;
    c.backoffInitialMs = 100;
    c.backoffMaxMs = 400;
    return c;
}

const BouncerPool* poolOf(const BouncerSnapshot& s, const QString& database)
{
    for (const BouncerPool& p : s.pools)
        if (p.database == database)
            return &p;
    return nullptr;
}

int cell(const QAbstractItemModel& m, int row, int column)
{
    return m.data(m.index(row, column)).toInt();
}

// Two refreshes: the first one hashes the configured lock names, the second resolves keys with them.
Snapshot clusterSnapshot(const QString& dsn, const QStringList& lockNames)
{
    PollerConfig cfg = test::fastConfig(dsn);
    cfg.lockNames = lockNames;
    Poller p(cfg);
    p.refreshOnce();
    return p.refreshOnce();
}
} // namespace

class TestPgBouncerSource : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The check: a pool of size 2 with 5 clients busy for 3 s shows cl_waiting > 0 and
    // sv_active == 2, in the source's snapshot and in the model.
    void clientsWaitInAFullPool()
    {
        test::TestDatabase db("pgb_waiting");
        test::BouncerProcess bouncer; // session pooling, default_pool_size = 2
        PgBouncerSource src(adminConfig(bouncer));
        test::BusyClients clients(bouncer.dsn(db.name()), 5, QStringLiteral("SELECT pg_sleep(3)"));

        BouncerSnapshot s;
        const BouncerPool* p = nullptr;
        int refreshes = 0;
        for (QDeadlineTimer dl(8000); !dl.hasExpired(); QThread::msleep(100)) {
            s = src.refreshOnce();
            ++refreshes;
            QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
            p = poolOf(s, db.name());
            if (p && p->clWaiting > 0 && p->svActive == 2)
                break;
        }
        QVERIFY2(p, "no pool for the test database in SHOW POOLS");
        QVERIFY2(p->clWaiting > 0, qPrintable(QStringLiteral("cl_waiting %1").arg(p->clWaiting)));
        QCOMPARE(p->svActive, 2);
        QCOMPARE(p->clActive, 2);
        QCOMPARE(p->clActive + p->clWaiting, 5);
        QCOMPARE(p->poolSize.value_or(-1), 2);
        QCOMPARE(p->poolMode, QStringLiteral("session"));
        QCOMPARE(p->serverDatabase, db.name());
        QVERIFY(s.version.startsWith(QLatin1String("PgBouncer")));
        // SHOW VERSION only on the first refresh of a connection (the one that saw the full pool
        // when the clients were quicker than the first refresh).
        QCOMPARE(s.roundTrips, refreshes == 1 ? 4 : 3);
        QVERIFY2(!poolOf(s, QStringLiteral("pgbouncer")), "the admin console's own pool is left out");

        // The two server slots are the two backends running pg_sleep, by remote_pid.
        QStringList slotPids;
        for (const BouncerServer& v : s.servers)
            if (v.database == db.name() && v.state == QLatin1String("active"))
                slotPids << QString::number(v.remotePid);
        slotPids.sort();
        const QString busy = test::queryValue(
            test::suiteDsn(),
            QStringLiteral("SELECT string_agg(pid::text, ',' ORDER BY pid::text) FROM pg_stat_activity "
                           "WHERE datname = '%1' AND state = 'active' AND query LIKE 'SELECT pg_sleep%%'")
                .arg(db.name()));
        QCOMPARE(slotPids.join(QLatin1Char(',')), busy);

        PgBouncerPoolModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.applySnapshot(s);
        const int row = m.rowOfKey(p->key());
        QVERIFY(row >= 0);
        QVERIFY(cell(m, row, PgBouncerPoolModel::ClWaiting) > 0);
        QCOMPARE(cell(m, row, PgBouncerPoolModel::SvActive), 2);
        QCOMPARE(cell(m, row, PgBouncerPoolModel::PoolSize), 2);
        QVERIFY(m.data(m.index(row, 0), PgBouncerPoolModel::ProblemRole).toBool());

        clients.join();
        QCOMPARE(clients.succeeded(), 5); // the waiting clients were served, not refused
        bouncer.stop();
        QVERIFY(bouncer.gone());
    }

    // Transaction pooling: a client takes session-level advisory locks through PgBouncer; the join
    // names the server slot (remote_pid) holding them as the application's bug. A transaction-level
    // lock inside an open transaction on a transaction-pooled slot, and a session lock over a
    // session-pooled database, are only notices.
    void sessionLockOnTransactionPooledSlot()
    {
        test::TestDatabase db("pgb_txlock");
        test::BouncerOptions o;
        o.databases = {QStringLiteral("txdb = dbname=%1 pool_mode=transaction").arg(db.name()),
                       QStringLiteral("sessdb = dbname=%1 pool_mode=session").arg(db.name()),
                       QStringLiteral("xactdb = dbname=%1 pool_mode=transaction").arg(db.name())};
        test::BouncerProcess bouncer(o);
        test::BouncerClient tx(bouncer.dsn(QStringLiteral("txdb")));
        tx.exec(QStringLiteral("SELECT pg_advisory_lock(42), pg_advisory_lock(hashtext('bouncer-sweep'))"));
        test::BouncerClient sess(bouncer.dsn(QStringLiteral("sessdb")));
        sess.exec(QStringLiteral("SELECT pg_advisory_lock(43)"));
        test::BouncerClient xact(bouncer.dsn(QStringLiteral("xactdb")));
        xact.exec(QStringLiteral("BEGIN"));
        xact.exec(QStringLiteral("SELECT pg_advisory_xact_lock(44)")); // the transaction stays open
        // Who holds what, as PostgreSQL itself says.
        auto holderOf = [&](int key) {
            return db
                .value(QStringLiteral("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND "
                                      "objsubid = 1 AND objid = %1 AND granted")
                           .arg(key))
                .toInt();
        };
        const int pid42 = holderOf(42), pid43 = holderOf(43), pid44 = holderOf(44);
        QVERIFY(pid42 > 0 && pid43 > 0 && pid44 > 0);
        QVERIFY(pid42 != pid43 && pid42 != pid44 && pid43 != pid44);

        PgBouncerSource src(adminConfig(bouncer));
        const BouncerSnapshot bs = src.refreshOnce();
        QVERIFY2(bs.ok, qPrintable(bs.error.toDisplayString()));
        const Snapshot cs = clusterSnapshot(db.dsn(), {QStringLiteral("bouncer-sweep")});
        QVERIFY2(cs.ok, qPrintable(cs.error.toDisplayString()));

        const std::vector<SlotHold> holds = slotHolds(bs, cs);
        QCOMPARE(int(holds.size()), 3);
        auto holdOf = [&holds](int pid) -> const SlotHold* {
            for (const SlotHold& h : holds)
                if (h.server.remotePid == pid)
                    return &h;
            return nullptr;
        };
        const SlotHold* h42 = holdOf(pid42);
        const SlotHold* h43 = holdOf(pid43);
        const SlotHold* h44 = holdOf(pid44);
        QVERIFY(h42 && h43 && h44);
        QCOMPARE(h42->server.database, QStringLiteral("txdb"));
        QCOMPARE(h42->poolMode, QStringLiteral("transaction"));
        QVERIFY(h42->transactionPooled);
        QVERIFY(h42->sessionLevel);
        QVERIFY(h42->leaksToNextClient); // back in the pool between transactions
        QVERIFY2(h42->locks.contains(QStringLiteral("42")), qPrintable(h42->locks.join(", ")));
        QVERIFY2(h42->locks.contains(QStringLiteral("hashtext('bouncer-sweep')")),
                 qPrintable(h42->locks.join(", ")));
        QCOMPARE(h43->server.remotePid, pid43);
        QCOMPARE(h43->poolMode, QStringLiteral("session"));
        QVERIFY(!h43->transactionPooled);
        QVERIFY(h43->server.linked); // its client keeps it under session pooling
        QVERIFY(!h43->leaksToNextClient);
        QCOMPARE(h44->server.database, QStringLiteral("xactdb"));
        QVERIFY(h44->transactionPooled);
        QVERIFY(h44->server.linked);
        QVERIFY(!h44->sessionLevel); // idle in transaction: it may be (and is) transaction-level

        const std::vector<Finding> findings = slotFindings(holds);
        QCOMPARE(int(findings.size()), 3);
        auto findingOf = [&findings](int pid) {
            return *std::find_if(findings.begin(), findings.end(),
                                 [pid](const Finding& f) { return f.subject == QString::number(pid); });
        };
        const Finding bug = findingOf(pid42), fine = findingOf(pid43), xactFine = findingOf(pid44);
        QCOMPARE(bug.kind, FindingKind::BouncerSlotHoldsLock);
        QCOMPARE(findingKindKey(bug.kind), QStringLiteral("bouncer_slot_holds_lock"));
        QCOMPARE(bug.severity, 3);
        QVERIFY2(bug.title.contains(QLatin1String("txdb")) && bug.title.contains(QString::number(pid42)) &&
                     bug.title.contains(QLatin1String("session-level")) &&
                     bug.title.contains(QLatin1String("application bug")) &&
                     bug.title.contains(QLatin1String("hashtext('bouncer-sweep')")),
                 qPrintable(bug.title));
        QVERIFY2(bug.explanation.contains(QLatin1String("leaks to the next client of that slot")),
                 qPrintable(bug.explanation));
        QVERIFY(bug.fix.contains(QLatin1String("pg_advisory_xact_lock")));
        QCOMPARE(fine.subject, QString::number(pid43));
        QCOMPARE(fine.severity, 1);
        QVERIFY2(!fine.title.contains(QLatin1String("bug")), qPrintable(fine.title));
        QCOMPARE(xactFine.severity, 1);
        QVERIFY2(xactFine.title.contains(QLatin1String("inside a client's transaction")),
                 qPrintable(xactFine.title));

        // The model marks the transaction-pooled pool.
        PgBouncerPoolModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.applySnapshot(bs, holds);
        const int row = m.rowOfKey(QStringLiteral("txdb/") + h42->server.user);
        QVERIFY(row >= 0);
        QCOMPARE(m.row(row).slotsHolding, 1);
        QVERIFY(m.row(row).lockBug);
        QVERIFY(!m.row(m.rowOfKey(QStringLiteral("sessdb/") + h43->server.user)).lockBug);
        // Released (the pool has one server, so the unlock runs on the same slot; with more, it
        // might not — which is the bug), the join clears the pool's mark in place.
        QCOMPARE(std::count_if(bs.servers.begin(), bs.servers.end(),
                               [](const BouncerServer& v) { return v.database == QLatin1String("txdb"); }),
                 1);
        tx.exec(QStringLiteral("SELECT pg_advisory_unlock_all()"));
        const std::vector<SlotHold> after =
            slotHolds(src.refreshOnce(), clusterSnapshot(db.dsn(), {QStringLiteral("bouncer-sweep")}));
        QCOMPARE(int(after.size()), 2);
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        m.applyHolds(after);
        QVERIFY(!m.row(row).lockBug);
        QCOMPARE(m.row(row).slotsHolding, 0);
        QCOMPARE(changed.count(), 1);
        bouncer.stop();
        QVERIFY(bouncer.gone());
    }

    // Pointed at the wrong place, the source says what is wrong and what to connect to instead.
    void wrongTargetsSaySo()
    {
        test::TestDatabase db("pgb_wrong");
        test::BouncerProcess bouncer;
        BouncerConfig cfg = adminConfig(bouncer);
        cfg.dsn = bouncer.dsn(db.name()); // a pooled database, not the admin console
        PgBouncerSource notAdmin(cfg);
        BouncerSnapshot s = notAdmin.refreshOnce();
        QVERIFY(!s.ok);
        QCOMPARE(s.error.kind, DbError::Kind::Query);
        QVERIFY2(s.error.toDisplayString().contains(QLatin1String("dbname=pgbouncer")),
                 qPrintable(s.error.toDisplayString()));
        bouncer.stop();
        cfg.dsn = bouncer.adminDsn(); // nobody listens there now
        PgBouncerSource dead(cfg);
        s = dead.refreshOnce();
        QVERIFY(!s.ok);
        QCOMPARE(s.error.kind, DbError::Kind::ConnectFailed);
        QVERIFY(s.error.needsReconnect());
        QVERIFY(bouncer.gone());
    }

    // The pools model under QAbstractItemModelTester across live refreshes of PgBouncerMonitor (its
    // worker thread): pools appear, change in place and go, never a reset; then PgBouncer restarts
    // and the monitor reconnects.
    // Issue 26, point 6: the PgBouncer admin console goes away (the bouncer stops) while both are
    // watched: its side says why, the database's own monitoring goes on untouched, and the
    // PgBouncer side comes back by itself when the bouncer does.
    void adminConsoleGoingAwayIsSaidAndComesBack()
    {
        test::TestDatabase db("pgb_gone");
        test::BouncerProcess bouncer;
        BouncerConfig bc = adminConfig(bouncer);
        bc.intervalMs = 200;
        PgBouncerMonitor m(bc);
        Monitor cluster(test::pollerConfig(db.dsn(), 200));
        m.accompany(&cluster);
        cluster.start();
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(m.lastSnapshot().ok && cluster.lastSnapshot().ok, 10000);

        bouncer.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!m.lastSnapshot().ok, 15000);
        QVERIFY(m.lastSnapshot().error.isError());
        QVERIFY(m.lastSnapshot().error.needsReconnect()); // lost, not a configuration problem
        const quint64 seq = cluster.lastSnapshot().seq;
        QTRY_VERIFY_WITH_TIMEOUT(cluster.lastSnapshot().seq > seq + 2, 10000);
        QVERIFY(cluster.lastSnapshot().ok); // the database is watched as before
        QVERIFY(!cluster.outage());

        bouncer.start();
        QTRY_VERIFY_WITH_TIMEOUT(m.lastSnapshot().ok, 40000);
    }

    void modelAcrossRefreshesAndRestart()
    {
        test::TestDatabase a("pgb_model_a"), b("pgb_model_b");
        test::BouncerOptions o;
        // Idle servers close after 1 s, and then the idle auto-database (its pool) goes after 1 s.
        o.settings = {QStringLiteral("server_idle_timeout = 1"), QStringLiteral("autodb_idle_timeout = 1")};
        test::BouncerProcess bouncer(o);
        PgBouncerMonitor m(adminConfig(bouncer));
        PgBouncerPoolModel* model = m.pools();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(m.lastSnapshot().ok, 10000);
        const QString user = cluster::ThrowawayCluster().superuser();
        const QString keyA = a.name() + QLatin1Char('/') + user, keyB = b.name() + QLatin1Char('/') + user;
        {
            test::BouncerClient ca(bouncer.dsn(a.name()));
            ca.exec(QStringLiteral("SELECT 1"));
            test::BouncerClient cb(bouncer.dsn(b.name()));
            cb.exec(QStringLiteral("SELECT 1"));
            QTRY_VERIFY_WITH_TIMEOUT(model->rowOfKey(keyA) >= 0 && model->rowOfKey(keyB) >= 0, 10000);
            QTRY_COMPARE_WITH_TIMEOUT(cell(*model, model->rowOfKey(keyA), PgBouncerPoolModel::SvActive), 1,
                                      10000);
            QCOMPARE(cell(*model, model->rowOfKey(keyA), PgBouncerPoolModel::ClActive), 1);
        }
        // The clients left: the servers go idle (in place), then close, then the pools go.
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOfKey(keyA) < 0 && model->rowOfKey(keyB) < 0, 20000);
        QCOMPARE(resets.count(), 0);
        QVERIFY(inserted.count() >= 1);
        QVERIFY(removed.count() >= 1);
        QVERIFY(changed.count() >= 1);
        // The history kept the pool's samples (zeros after it left, until they age out).
        const auto* track = m.history().pool(keyA);
        QVERIFY(track);
        QVERIFY(!track->present);
        int maxActive = 0;
        for (int i = 0; i < track->series.fine().size(); ++i)
            maxActive = std::max(maxActive, track->series.fine()[i].clActive);
        QCOMPARE(maxActive, 1);

        // Connection loss and reconnect: PgBouncer stops, the refreshes fail; it comes back, they succeed.
        bouncer.stop();
        QVERIFY(bouncer.gone());
        QTRY_VERIFY_WITH_TIMEOUT(!m.lastSnapshot().ok, 10000);
        QVERIFY2(m.lastSnapshot().error.needsReconnect(),
                 qPrintable(m.lastSnapshot().error.toDisplayString()));
        const quint64 failedSeq = m.lastSnapshot().seq;
        bouncer.start();
        QTRY_VERIFY_WITH_TIMEOUT(m.lastSnapshot().ok && m.lastSnapshot().seq > failedSeq, 10000);
        QCOMPARE(resets.count(), 0);
        bouncer.stop();
        QVERIFY(bouncer.gone());
    }
};

QTEST_MAIN(TestPgBouncerSource)
#include "tst_pgbouncer_source.moc"
