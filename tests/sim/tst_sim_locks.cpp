// Scenarios 3–6 against the suite's cluster, judged by pg_stat_activity, pg_locks,
// pg_blocking_pids and pg_stat_database; and a prompt stop while sessions sit in lock waits.
#include "SimTestSupport.h"

#include <QtTest>

using namespace lw;
using namespace lw::test;

namespace {
// Number of sessions of this database that wait (wait_event = `waitEvent`) for a session that itself
// waits for a third: the links of blocking chains of at least three.
int chainsOfThree(const TestDatabase& db, const QString& waitEvent)
{
    return db
        .value(QStringLiteral("SELECT count(*) FROM pg_stat_activity a "
                              "CROSS JOIN LATERAL unnest(pg_blocking_pids(a.pid)) AS b(pid) "
                              "JOIN pg_stat_activity m ON m.pid = b.pid AND m.wait_event_type = 'Lock' "
                              "CROSS JOIN LATERAL unnest(pg_blocking_pids(m.pid)) AS h(pid) "
                              "WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' "
                              "AND a.wait_event = '%1' AND m.wait_event = '%1'")
                   .arg(waitEvent))
        .toInt();
}
} // namespace

class TstSimLocks : public QObject
{
    Q_OBJECT
private slots:
    void pinnedPoolHoldsOneAdvisoryLockPerIdleConnection()
    {
        TestDatabase db(QStringLiteral("sim_pinned"));
        EventLog log;
        sim::Simulator s(simOptions(db.dsn(),
                                    {QStringLiteral("pinned-pool:pool=4,waiters=2"),
                                     QStringLiteral("lease-workers:instances=1,kinds=1")},
                                    &log));
        QVERIFY(!s.start());
        QVERIFY2(waitUntil([&] { return log.count(QStringLiteral("pinned")) == 1; }, 10000),
                 qPrintable(log.dump()));
        // Four backends named billing-api (and only they), all idle, none waiting…
        QCOMPARE(simSessions(db, QStringLiteral("billing-api")), 4);
        QCOMPARE(
            db.value(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                    "current_database() AND application_name = "
                                    "'billing-api' AND state = 'idle' AND wait_event_type IS DISTINCT FROM "
                                    "'Lock'")),
            QStringLiteral("4"));
        QVERIFY(waitUntil([&] { return simSessions(db, QStringLiteral("sim-lease-worker-%")) == 1; }, 5000));
        // …each holding exactly one granted advisory lock, whose key is hashtext() of one of the four
        // job names as this server computes it.
        const QString perSession = QStringLiteral(
            "SELECT a.pid, count(l.*) AS n, count(*) FILTER (WHERE ((l.classid::bigint << 32) | "
            "l.objid::bigint) IN "
            "(SELECT hashtext('billing-job-' || g)::bigint FROM generate_series(1, 4) AS g)) AS matching "
            "FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND "
            "l.granted "
            "AND l.objsubid = 1 WHERE a.datname = current_database() AND a.application_name = 'billing-api' "
            "GROUP BY a.pid");
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM (%1) AS s WHERE n = 1 AND matching = 1")
                              .arg(perSession)),
                 QStringLiteral("4"));
        QCOMPARE(db.value(QStringLiteral(
                     "SELECT count(DISTINCT objid) FROM pg_locks l JOIN pg_stat_activity a USING "
                     "(pid) WHERE a.datname = current_database() AND a.application_name = 'billing-api' AND "
                     "l.locktype = 'advisory'")),
                 QStringLiteral("4"));
        QVERIFY(log.count(QStringLiteral("waiting")) >= 1);
        s.stop();
        QVERIFY(waitUntil([&] { return simSessions(db, QStringLiteral("billing-api")) == 0; }, 3000));
        QCOMPARE(db.value(QStringLiteral(
                     "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = "
                     "(SELECT oid FROM pg_database WHERE datname = current_database())")),
                 QStringLiteral("0"));
    }

    void lockWaitsFormChainsAndStopIsPrompt()
    {
        TestDatabase db(QStringLiteral("sim_chains"));
        EventLog log;
        sim::Simulator s(
            simOptions(db.dsn(),
                       {QStringLiteral("lock-waits:depth=3,hold=60"), QStringLiteral("deadlocks:every=0.2"),
                        QStringLiteral("pinned-pool:pool=2"), QStringLiteral("ingestion:rate=20")},
                       &log));
        QVERIFY(!s.start());
        QVERIFY2(waitUntil([&] { return chainsOfThree(db, QStringLiteral("advisory")) >= 1; }, 10000),
                 qPrintable(log.dump()));
        QVERIFY2(waitUntil([&] { return chainsOfThree(db, QStringLiteral("transactionid")) >= 1; }, 10000),
                 qPrintable(log.dump()));
        // The head of each chain holds its lock idle in its transaction, blocking without waiting.
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                         "current_database() AND application_name LIKE "
                                         "'sim-lockwait-%-0' AND state = 'idle in transaction'")),
                 QStringLiteral("2"));
        QVERIFY(log.count(QStringLiteral("waiting")) >= 4);

        // Stop while four sessions sit in lock waits (and a deadlock pair may be waiting too).
        QElapsedTimer t;
        t.start();
        s.stop();
        const qint64 ms = t.elapsed();
        QVERIFY2(ms < 2000, qPrintable(QStringLiteral("stop took %1 ms").arg(ms)));
        QVERIFY(!s.isRunning());
        QVERIFY(waitUntil(
            [&] { return simSessions(db) == 0 && simSessions(db, QStringLiteral("billing-api")) == 0; },
            3000));
        QCOMPARE(db.value(QStringLiteral(
                     "SELECT count(*) FROM pg_locks WHERE database = (SELECT oid FROM "
                     "pg_database WHERE datname = current_database()) AND pid <> pg_backend_pid()")),
                 QStringLiteral("0"));
        QCOMPARE(log.count(QStringLiteral("error")), 0);
    }

    void deadlocksGrowTheServersCounter()
    {
        TestDatabase db(QStringLiteral("sim_deadlocks"));
        const QString counter =
            QStringLiteral("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()");
        const int before = db.value(counter).toInt();
        EventLog log;
        sim::Simulator s(simOptions(db.dsn(), {QStringLiteral("deadlocks:pairs=2,every=0.3")}, &log));
        QVERIFY(!s.start());
        QVERIFY2(waitUntil([&] { return log.count(QStringLiteral("deadlock")) >= 3; }, 15000),
                 qPrintable(log.dump()));
        s.stop();
        const int reported = log.count(QStringLiteral("deadlock"));
        // Backends flush their statistics at exit at the latest: the counter grows by exactly the
        // deadlocks the simulator reported.
        QVERIFY2(waitUntil([&] { return db.value(counter).toInt() - before >= reported; }, 15000),
                 qPrintable(QStringLiteral("counter %1 → %2, reported %3")
                                .arg(before)
                                .arg(db.value(counter))
                                .arg(reported)));
        QCOMPARE(db.value(counter).toInt() - before, reported);
        // The victims' transactions were rolled back, the survivors' committed: balances sum to zero.
        QCOMPARE(db.value(QStringLiteral("SELECT sum(balance) FROM public.sim_accounts")),
                 QStringLiteral("0"));
        QCOMPARE(log.count(QStringLiteral("error")), 0);
    }

    void ingestionNeverInsertsAKeyTwice()
    {
        TestDatabase db(QStringLiteral("sim_ingest"));
        EventLog log;
        sim::Simulator s(
            simOptions(db.dsn(), {QStringLiteral("ingestion:workers=3,batch=15,rate=15,keys=30")}, &log));
        QVERIFY(!s.start());
        QVERIFY(waitUntil([&] { return log.count(QStringLiteral("ingested")) >= 60; }, 20000));
        s.stop();
        const int batches = log.count(QStringLiteral("ingested"));
        const int rows = db.value(QStringLiteral("SELECT count(*) FROM public.sim_ingested")).toInt();
        QVERIFY(rows > 0);
        // Every key was inserted by exactly one transaction (the log holds what each INSERT returned)…
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) - count(DISTINCT key) FROM public.sim_ingest_log")),
                 QStringLiteral("0"));
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM public.sim_ingest_log")).toInt(), rows);
        QCOMPARE(
            db.value(QStringLiteral("SELECT count(*) FROM public.sim_ingested i JOIN public.sim_ingest_log l "
                                    "USING (key) WHERE l.worker = i.worker"))
                .toInt(),
            rows);
        // …although the workers' batches overlapped: more keys were offered than inserted, and more
        // than one worker inserted.
        QVERIFY2(batches * 15 > rows,
                 qPrintable(QStringLiteral("%1 batches, %2 rows").arg(batches).arg(rows)));
        QVERIFY(
            db.value(QStringLiteral("SELECT count(DISTINCT worker) FROM public.sim_ingest_log")).toInt() >=
            2);
        // The reported numbers match the table.
        int reported = 0;
        static const QRegularExpression re(QStringLiteral(": (\\d+) new of"));
        for (const sim::Event& e : log.of(QStringLiteral("ingested")))
            reported += re.match(e.text).captured(1).toInt();
        QCOMPARE(reported, rows);
        QCOMPARE(log.count(QStringLiteral("error")), 0);
    }
};

QTEST_GUILESS_MAIN(TstSimLocks)
#include "tst_sim_locks.moc"
