// The live path against the real test cluster: libpq → snapshot, one round trip, read-only session,
// and the messages for a leases table that is missing, mistyped or not readable.
#include "Monitor.h"
#include "Poller.h"
#include "TestCluster.h"
#include "domain/Analysis.h"
#include "itemmodels/LeaseModel.h"

#include <QSignalSpy>
#include <QTest>

using namespace lw;

namespace {
const char* kLeasesDdl = "CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
                         "expires_at timestamptz)";
} // namespace

class TestPoller : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsLeasesOnServerClock()
    {
        test::TestDatabase db("poller_reads");
        db.exec(kLeasesDdl);
        db.exec(
            "INSERT INTO leases VALUES ('sweep', 'app-1:4242:00ff00ff00ff00ff', now() - interval '5 s', "
            "now() + interval '25 s'), ('alerts', 'app-2:7:abc', now() - interval '1 min', now() - interval "
            "'10 s')");
        Poller p(test::pollerConfig(db.dsn(), 200));
        const Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QVERIFY(!s.leasesError);
        QCOMPARE(s.roundTrips, 1);
        QCOMPARE(int(s.leases.size()), 2);
        QCOMPARE(s.server.database, db.name());
        QVERIFY(s.server.versionNum >= 130000);
        const auto it =
            std::find_if(s.leases.begin(), s.leases.end(), [](auto& r) { return r.name == "sweep"; });
        QVERIFY(it != s.leases.end());
        QCOMPARE(*it->holder, QStringLiteral("app-1:4242:00ff00ff00ff00ff"));
        // 25 s left on the server's clock, give or take the statement's own duration.
        QVERIFY(qAbs(*it->expiresAt - s.serverNow - 25.0) < 0.5);
        QVERIFY(qAbs(s.serverNow - *it->takenAt - 5.0) < 0.5);
    }

    // Issue 49 point 1: after the first read, a refresh is sent only the rows written since the
    // read before; a row gone costs one more round trip (the names), and the leases shown are the
    // table's. A view has no row versions: it is read whole, without a failed refresh.
    void onlyRowsWrittenSinceAreSent()
    {
        // A cluster of its own: a transaction running elsewhere while the console reads holds its
        // snapshot's xmin back, and rows written since then are sent again (a few, harmlessly;
        // the suite's shared cluster runs other tests beside this one).
        cluster::ClusterOptions opts = test::privateClusterOptions(QStringLiteral("poller-since"));
        opts.extraSettings << QStringLiteral("autovacuum = off");
        cluster::ThrowawayCluster cluster(opts);
        const auto started = cluster.start();
        QVERIFY2(!started, started ? qPrintable(*started) : "");
        struct Db
        {
            QString dsn_;
            QString dsn() const { return dsn_; }
            void exec(const char* sql) const { test::execSql(dsn_, QString::fromUtf8(sql)); }
        } db{cluster.dsn(QStringLiteral("postgres"))};
        db.exec(kLeasesDdl);
        db.exec("INSERT INTO leases SELECT 'job-' || i, 'app-1:42:00ff', now(), now() + interval '30 s' "
                "FROM generate_series(1, 50) i");
        db.exec("CREATE VIEW leases_view AS SELECT * FROM leases");
        Poller p(test::pollerConfig(db.dsn(), 200));
        auto names = [](const Snapshot& s) {
            QStringList n;
            for (const LeaseRow& r : s.leases)
                n << r.name;
            n.sort();
            return n;
        };
        Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok && !s.leasesError, qPrintable(s.error.toDisplayString()));
        QCOMPARE(s.leaseRowsSent, 50);
        s = p.refreshOnce();
        QCOMPARE(s.leaseRowsSent, 0); // nothing written
        QCOMPARE(int(s.leases.size()), 50);

        db.exec("UPDATE leases SET expires_at = now() + interval '60 s' WHERE name IN ('job-3', 'job-7')");
        s = p.refreshOnce();
        QCOMPARE(s.leaseRowsSent, 2);
        QCOMPARE(s.roundTrips, 1);
        const auto job3 = std::find_if(s.leases.begin(), s.leases.end(), [](auto& r) { return r.name == "job-3"; });
        QVERIFY(job3 != s.leases.end());
        QVERIFY(qAbs(*job3->expiresAt - s.serverNow - 60.0) < 1.0);

        db.exec("DELETE FROM leases WHERE name = 'job-9'");
        db.exec("INSERT INTO leases VALUES ('new', 'app-2:7:abc', now(), now() + interval '30 s')");
        s = p.refreshOnce();
        QCOMPARE(s.leaseRowsSent, 1);
        QCOMPARE(s.roundTrips, 2); // the names, to find which row went
        QCOMPARE(int(s.leases.size()), 50);
        QVERIFY(!names(s).contains(QStringLiteral("job-9")));
        QVERIFY(names(s).contains(QStringLiteral("new")));
        QVERIFY(s.leaseDelta && s.leaseDelta->gone.size() == 1 && s.leaseDelta->added.size() == 1);

        PollerConfig viaView = test::pollerConfig(db.dsn(), 200);
        viaView.leases.table = QStringLiteral("leases_view");
        Poller v(viaView);
        s = v.refreshOnce();
        QVERIFY2(s.ok && !s.leasesError, qPrintable(s.error.toDisplayString()));
        db.exec("DELETE FROM leases WHERE name = 'job-10'");
        for (int i = 0; i < 2; ++i) {
            s = v.refreshOnce();
            QVERIFY2(s.ok && !s.leasesError, qPrintable(s.leasesError ? s.leasesError->message : QString()));
            QCOMPARE(int(s.leases.size()), 49);
            QCOMPARE(s.leaseRowsSent, 49);
        }
    }

    // Issue 24 point 4: the names hashed for leases that are gone (unique per run) do not pile up
    // for as long as the console runs; a gone lease's name whose key is still held stays named.
    void hashedNamesOfGoneLeasesAreDropped()
    {
        test::TestDatabase db("poller_trim");
        db.exec(kLeasesDdl);
        db.exec("INSERT INTO leases SELECT 'run-' || g, 'app:1:aa', now(), now() + interval '1 h' "
                "FROM generate_series(1, 3000) g");
        pg::Connection holder = test::openAppSession(db.dsn(), "trim-holder");
        test::runOn(holder, "SELECT pg_advisory_lock(hashtext('run-7'))");
        const qint64 key = db.value("SELECT hashtext('run-7')::int8").toLongLong();
        Poller p(test::pollerConfig(db.dsn(), 200));
        Snapshot s;
        for (int i = 0; i < 3; ++i)
            s = p.refreshOnce();
        QVERIFY(p.hashedNames() >= 3000);
        QVERIFY(s.keyNames && s.keyNames->value(key).contains(QStringLiteral("run-7")));

        db.exec("DELETE FROM leases");
        db.exec("INSERT INTO leases VALUES ('next-run', 'app:1:bb', now(), now() + interval '1 h')");
        for (int i = 0; i < 110; ++i)
            s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QVERIFY2(p.hashedNames() < 10, qPrintable(QString::number(p.hashedNames())));
        QVERIFY(s.keyNames->value(key).contains(QStringLiteral("run-7"))); // still held: still named
        QVERIFY(s.keyNames->value(db.value("SELECT hashtext('next-run')::int8").toLongLong()).contains("next-run"));
    }

    void sessionIsIdentifiedBoundedAndReadOnly()
    {
        test::TestDatabase db("poller_session");
        db.exec(kLeasesDdl);
        Poller p(test::pollerConfig(db.dsn(), 200));
        const Snapshot s = p.refreshOnce();
        QVERIFY(s.ok);
        const QString pid = QString::number(s.server.backendPid);
        QCOMPARE(db.value("SELECT application_name FROM pg_stat_activity WHERE pid = " + pid),
                 QStringLiteral("leasewatch"));
        // No transaction stays open between refreshes (no lock held, no snapshot pinned).
        QCOMPARE(db.value("SELECT state FROM pg_stat_activity WHERE pid = " + pid), QStringLiteral("idle"));
        QCOMPARE(db.value("SELECT count(*) FROM pg_locks WHERE pid = " + pid), QStringLiteral("0"));

        // The same options on a connection of our own: statement_timeout set, writes refused.
        pg::Connection c;
        pg::ConnectOptions o;
        o.dsn = db.dsn();
        QVERIFY(!c.connect(o).isError());
        pg::ResultPtr r;
        const auto deadline = pg::Clock::now() + std::chrono::seconds(5);
        QVERIFY(!c.exec({"SHOW statement_timeout", {}}, r, deadline).isError());
        QCOMPARE(QString::fromUtf8(PQgetvalue(r.get(), 0, 0)), QStringLiteral("5s"));
        const DbError e =
            c.exec({"INSERT INTO leases(name) VALUES ($1)", {QByteArray("x")}}, r, deadline);
        QCOMPARE(e.sqlstate, QStringLiteral("25006")); // read-only transaction
        QVERIFY(c.isOpen());
    }

    void tableProblems_data()
    {
        QTest::addColumn<QString>("ddl");
        QTest::addColumn<QString>("sqlstate");
        QTest::addColumn<QString>("mustSay");
        QTest::newRow("missing table") << ""
                                       << "42P01"
                                       << "leases table public.leases does not exist";
        QTest::newRow("missing column")
            << "CREATE TABLE leases(name text, holder text, expires_at timestamptz)"
            << "42703"
            << "column \"taken_at\" (the taken-at column) is missing";
        QTest::newRow("naive expiry")
            << "CREATE TABLE leases(name text, holder text, taken_at timestamp, expires_at timestamp)"
            << "42703"
            << "column \"expires_at\" (the expires-at column) is timestamp without time zone, expected "
               "timestamp "
               "with time zone (choose \"naive UTC\"";
        QTest::newRow("int holder")
            << "CREATE TABLE leases(name text, holder int, taken_at timestamptz, expires_at timestamptz)"
            << "42703"
            << "column \"holder\" (the holder column) is integer, expected a text type";
        QTest::newRow("no privilege")
            << QString(kLeasesDdl) + "; CREATE ROLE lw_noread_%1 LOGIN; REVOKE ALL ON leases FROM PUBLIC"
            << "42501"
            << "permission denied: no SELECT on public.leases (SQLSTATE 42501) — GRANT SELECT ON "
               "public.leases TO "
               "lw_noread_%1;";
    }
    void tableProblems()
    {
        QFETCH(QString, ddl);
        QFETCH(QString, sqlstate);
        QFETCH(QString, mustSay);
        test::TestDatabase db(QTest::currentDataTag());
        QString dsn = db.dsn();
        if (!ddl.isEmpty())
            db.exec(ddl.arg(db.name()));
        if (ddl.contains("lw_noread_"))
            dsn += " user=lw_noread_" + db.name();
        PollerConfig cfg = test::pollerConfig(dsn, 200);
        cfg.leases.named = true; // named by hand: checked even when missing (else: looked for)
        Poller p(cfg);
        const Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString())); // the database itself is fine
        QVERIFY(s.leasesError);
        QCOMPARE(s.leasesError->sqlstate, sqlstate);
        QVERIFY2(s.leasesError->toDisplayString().contains(mustSay.contains("%1") ? mustSay.arg(db.name())
                                                                                  : mustSay),
                 qPrintable(s.leasesError->toDisplayString()));
        if (ddl.contains("lw_noread_"))
            test::execSql(test::suiteDsn(), "DROP OWNED BY lw_noread_" + db.name() + " CASCADE");
    }

    // Found by looking (no table named), the same sentence as when named: the application's own
    // table is not "(leases's table)" (issue 57 point 6).
    void noPrivilegeWhileDetecting()
    {
        test::TestDatabase db("noread_detect");
        const QString role = "lw_noread_" + db.name();
        db.exec(QString(kLeasesDdl) + "; CREATE ROLE " + role + " LOGIN; REVOKE ALL ON leases FROM PUBLIC");
        Poller p(test::pollerConfig(db.dsn() + " user=" + role, 200));
        const Snapshot s = p.refreshOnce();
        test::execSql(test::suiteDsn(), "DROP OWNED BY " + role + " CASCADE");
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QVERIFY(s.leasesError);
        QCOMPARE(s.leasesError->sqlstate, QStringLiteral("42501"));
        QVERIFY2(s.leasesError->toDisplayString().startsWith(
                     "permission denied: no SELECT on public.leases (SQLSTATE 42501) — GRANT SELECT ON public.leases TO " +
                     role + ";"),
                 qPrintable(s.leasesError->toDisplayString()));
    }

    // The GRANTs the console suggests run as shown, for names the server needs quoted (issue 23):
    // a role "Mon-Itor…", a table Leases "2026".
    void suggestedGrantsRunAsShown()
    {
        test::TestDatabase db("grant_quoting");
        const QString role = "Mon-Itor_" + db.name();
        const QString qrole = "\"" + role + "\"";
        db.exec("CREATE TABLE \"Leases \"\"2026\"\"\"(name text primary key, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
        test::execSql(test::suiteDsn(), "CREATE ROLE " + qrole + " LOGIN");
        PollerConfig cfg = test::pollerConfig(db.dsn() + " user='" + role + "'", 200);
        cfg.leases.table = QStringLiteral("Leases \"2026\"");
        Snapshot s = Poller(cfg).refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QVERIFY(s.leasesError);
        QCOMPARE(s.leasesError->sqlstate, QStringLiteral("42501"));
        const QString grant = s.leasesError->advice();
        QVERIFY2(grant.startsWith("GRANT SELECT ON "), qPrintable(grant));
        test::execSql(db.dsn(), grant); // exactly as suggested
        QString pgMonitor;
        for (const Finding& f : s.analysis->findings)
            if (f.kind == FindingKind::HiddenByPrivileges)
                pgMonitor = f.fix;
        QVERIFY2(pgMonitor.startsWith("GRANT pg_monitor TO "), qPrintable(pgMonitor));
        test::execSql(db.dsn(), pgMonitor);

        s = Poller(cfg).refreshOnce();
        QVERIFY2(s.ok && !s.leasesError, qPrintable(s.leasesError ? s.leasesError->toDisplayString() : s.error.toDisplayString()));
        QVERIFY(s.cluster.hasMonitorPrivilege);
        db.exec("DROP OWNED BY " + qrole);
        test::execSql(test::suiteDsn(), "REVOKE pg_monitor FROM " + qrole);
        test::execSql(test::suiteDsn(), "DROP ROLE " + qrole);
    }

    // A migration (ALTER TABLE, VACUUM FULL, TRUNCATE, LOCK TABLE) holds the leases table: the
    // console does not queue behind it (lock_timeout), says so with what to look for, keeps the
    // rest of the refresh, and reads the table again once the lock is gone.
    void lockedTableIsSaidNotWaitedFor()
    {
        test::TestDatabase db("locked_table");
        db.exec(kLeasesDdl);
        db.exec("INSERT INTO leases VALUES ('job-1', 'h:1:00ff00ff00ff00ff', now(), now() + interval '1 h')");
        pg::Connection locker;
        pg::ConnectOptions o;
        o.dsn = db.dsn();
        o.readOnly = false;
        QVERIFY(!locker.connect(o).isError());
        pg::ResultPtr r;
        const auto deadline = pg::Clock::now() + std::chrono::seconds(5);
        QVERIFY(!locker.exec({"BEGIN", {}}, r, deadline).isError());
        QVERIFY(!locker.exec({"LOCK TABLE leases IN ACCESS EXCLUSIVE MODE", {}}, r, deadline).isError());

        Poller p(test::pollerConfig(db.dsn(), 200));
        Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QVERIFY(s.leasesError);
        QCOMPARE(s.leasesError->sqlstate, QStringLiteral("55P03"));
        const QString shown = s.leasesError->toDisplayString();
        // Which lock it did not wait for, and whose.
        QVERIFY2(shown.contains(QStringLiteral("public.leases is locked ACCESS EXCLUSIVE by pid %1")
                                    .arg(locker.backendPid())) &&
                     shown.contains("LOCK TABLE leases") && shown.contains("does not queue behind it"),
                 qPrintable(shown));
        QVERIFY(!s.sessions.empty()); // the rest of the refresh is there: the locker's session
        QVERIFY(!locker.exec({"COMMIT", {}}, r, deadline).isError());
        QTRY_VERIFY_WITH_TIMEOUT((s = p.refreshOnce(), !s.leasesError && s.leases.size() == 1), 10000);
    }

    void connectFailures_data()
    {
        QTest::addColumn<QString>("dsn");
        QTest::addColumn<QString>("mustSay");
        QTest::newRow("no such database") << test::suiteDsn("no_such_db_here") << "SQLSTATE 3D000";
        QTest::newRow("no server on socket") << "host=/tmp/lw-no-such-dir port=5999"
                                             << "no server listens";
        QTest::newRow("malformed") << "host='oops"
                                   << "invalid connection string";
    }
    void connectFailures()
    {
        QFETCH(QString, dsn);
        QFETCH(QString, mustSay);
        Poller p(test::pollerConfig(dsn, 200));
        const Snapshot s = p.refreshOnce();
        QVERIFY(!s.ok);
        QVERIFY2(s.error.toDisplayString().contains(mustSay), qPrintable(s.error.toDisplayString()));
    }

    // Issue 57 point 4: from PostgreSQL 16 on, reserved_connections slots are closed to ordinary
    // roles too; the budget the window, the findings and the metrics use leaves them out.
    void budgetLeavesOutReservedSlots()
    {
        const int major = cluster::ThrowawayCluster::findBinDir().section(QLatin1Char('/'), -2, -2).toInt();
        QVERIFY2(major >= 13, qPrintable(cluster::ThrowawayCluster::findBinDir()));
        cluster::ClusterOptions o = test::privateClusterOptions(QStringLiteral("reserved"));
        o.maxConnections = 20;
        o.extraSettings << QStringLiteral("superuser_reserved_connections = 2");
        if (major >= 16)
            o.extraSettings << QStringLiteral("reserved_connections = 5");
        cluster::ThrowawayCluster server(o);
        const auto err = server.start();
        QVERIFY2(!err, qPrintable(err.value_or(QString())));
        Poller p(test::pollerConfig(server.dsn(), 200));
        const Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QCOMPARE(s.server.versionNum / 10000, major);
        const int expected = major >= 16 ? 20 - 2 - 5 : 20 - 2;
        QCOMPARE(s.cluster.connectionBudget(), expected);
        QCOMPARE(analyze(s, AnalysisConfig{}).connectionBudget, expected);
    }

    // Issue 57 point 4: a session waiting on an advisory lock is a finding on every server; 13 has
    // no pg_locks.waitstart, and its wait is timed from the waiting statement's start.
    void advisoryWaitIsTimedOnEveryVersion()
    {
        test::TestDatabase db("poller_wait");
        pg::Connection holder = test::openAppSession(db.dsn(), QStringLiteral("holder"));
        test::runOn(holder, "SELECT pg_advisory_lock(4711)");
        pg::Connection waiter = test::openAppSession(db.dsn(), QStringLiteral("waiter"));
        test::runOn(waiter, "SET lock_timeout = 0"); // as an application without timeouts waits
        QVERIFY(PQsendQuery(waiter.raw(), "SELECT pg_advisory_lock(4711)") == 1);
        AnalysisConfig cfg;
        cfg.thresholds.advisoryWaitS = 1;
        Poller p(test::pollerConfig(db.dsn(), 200));
        Snapshot s;
        const auto waitFinding = [&] {
            s = p.refreshOnce();
            const Analysis a = analyze(s, cfg);
            return std::any_of(a.findings.begin(), a.findings.end(),
                               [](const Finding& f) { return f.kind == FindingKind::AdvisoryWait; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(waitFinding(), 10000);
        const auto waiting = std::find_if(s.advisoryLocks.begin(), s.advisoryLocks.end(),
                                          [](const AdvisoryLockRow& l) { return !l.granted; });
        QVERIFY(waiting != s.advisoryLocks.end());
        QVERIFY(waiting->waitStart);
        QVERIFY(s.serverNow - *waiting->waitStart > 1.0);
        QVERIFY(s.serverNow - *waiting->waitStart < 15.0);
        test::runOn(holder, "SELECT pg_advisory_unlock(4711)");
    }

    // Issue 57 point 4: before 15 the console reads pg_stat_database's counters only when they can
    // have grown, yet a deadlock is counted within seconds there too.
    void deadlockIsCountedPromptlyOnEveryVersion()
    {
        test::TestDatabase db("poller_deadlock");
        Poller p(test::pollerConfig(db.dsn(), 200));
        Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        const qint64 before = s.cluster.deadlocks;
        QVERIFY(before >= 0);
        pg::Connection a = test::openAppSession(db.dsn(), QStringLiteral("deadlock-a"));
        pg::Connection b = test::openAppSession(db.dsn(), QStringLiteral("deadlock-b"));
        test::runOn(a, "SET lock_timeout = 0");
        test::runOn(b, "SET lock_timeout = 0");
        test::runOn(a, "BEGIN");
        test::runOn(a, "SELECT pg_advisory_xact_lock(1)");
        test::runOn(b, "BEGIN");
        test::runOn(b, "SELECT pg_advisory_xact_lock(2)");
        QVERIFY(PQsendQuery(a.raw(), "SELECT pg_advisory_xact_lock(2)") == 1);
        const auto aWaits = [&] {
            s = p.refreshOnce();
            return std::any_of(s.sessions.begin(), s.sessions.end(), [](const SessionRow& r) {
                return r.applicationName == QLatin1String("deadlock-a") && r.waitEventType == QLatin1String("Lock");
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(aWaits(), 10000);
        try {
            test::runOn(b, "SELECT pg_advisory_xact_lock(1)");
        } catch (const std::runtime_error&) {
            // b was chosen as the deadlock's victim (else a was)
        }
        const auto counted = [&] {
            s = p.refreshOnce();
            return s.cluster.deadlocks > before;
        };
        QTRY_VERIFY_WITH_TIMEOUT(counted(), 15000);
    }

    // The threaded path: results arrive on the GUI thread through the Monitor, the event loop keeps
    // running, and the backend is gone after the Monitor is destroyed.
    void monitorDeliversAndCleansUp()
    {
        test::TestDatabase db("monitor");
        db.exec(kLeasesDdl);
        db.exec("INSERT INTO leases VALUES ('a', 'h:1:aa', now(), now() + interval '1 min')");
        int backend = 0;
        {
            Monitor m(test::pollerConfig(db.dsn(), 200));
            QSignalSpy spy(&m, &Monitor::refreshed);
            m.start();
            QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 2, 10000);
            QCOMPARE(m.leases()->rowCount(), 1);
            backend = m.lastSnapshot().server.backendPid;
            db.exec("INSERT INTO leases VALUES ('b', 'h:1:bb', now(), now() + interval '1 min')");
            QTRY_COMPARE_WITH_TIMEOUT(m.leases()->rowCount(), 2, 5000);
        }
        QVERIFY(backend > 0);
        QTRY_COMPARE_WITH_TIMEOUT(
            db.value("SELECT count(*) FROM pg_stat_activity WHERE pid = " + QString::number(backend)),
            QStringLiteral("0"), 5000);
    }
};

QTEST_GUILESS_MAIN(TestPoller)
#include "tst_poller.moc"
