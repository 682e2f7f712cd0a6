// Force-expire against the real test cluster (issue 7): the compare-and-set never touches a lease
// that changed hands or was renewed since it was shown, cannot hang behind a renewer's row lock,
// reports missing privileges, keeps the row (naive-UTC presets get UTC in their own type), writes
// the server-side audit row in the same transaction, and sends nothing without operator mode.
#include "store/AuditLog.h"
#include "FxSupport.h"

#include <QElapsedTimer>
#include <QThread>

#include <latch>
#include <thread>

using namespace lw;
using namespace lw::fxtest;
using Kind = ForceExpireOutcome::Kind;

namespace {
ForceExpireOutcome forceOne(const ForceExpireRequest& req, const ForceExpireTarget& t)
{
    auto out = forceExpire(req, {t});
    if (out.size() != 1)
        throw std::runtime_error("expected one outcome");
    return out.front();
}
} // namespace

class TestForceExpire : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A holder crashed (no renewals, lease far from expiry): after the force another instance takes
    // it at its next attempt; the row was updated, not deleted.
    void crashedHolderIsTakenOverAtNextAttempt()
    {
        test::TestDatabase db("fx_crashed");
        db.exec(kLeasesDdl);
        LeaseWriter crashed(db.dsn(), "app-1:4242:00ff00ff00ff00ff");
        LeaseWriter standby(db.dsn(), "app-2:77:abcdefabcdef0123");
        QVERIFY(crashed.take("sweep", 600));
        QVERIFY(!standby.take("sweep", 30)); // the wait the operator wants to end

        const PollerConfig cfg = monitorConfig(db.dsn());
        const ForceExpireTarget t = shownTarget(cfg, "sweep");
        const ForceExpireOutcome o = forceOne(requestFor(cfg), t);
        QVERIFY2(o.kind == Kind::Expired, qPrintable(o.text()));
        QVERIFY(o.text().startsWith("expired"));
        QVERIFY(o.serverNow && o.currentExpiresAt);
        QVERIFY(qAbs(*o.currentExpiresAt - *o.serverNow) < 0.001); // now() of the same transaction
        QCOMPARE(o.dbRole, db.value("SELECT current_user"));
        QCOMPARE(db.value("SELECT holder FROM leases WHERE name = 'sweep'"), crashed.holder()); // row kept
        QCOMPARE(db.value("SELECT (expires_at <= now())::text FROM leases"), QStringLiteral("true"));

        QVERIFY(standby.take("sweep", 30));
        QCOMPARE(db.value("SELECT holder FROM leases WHERE name = 'sweep'"), standby.holder());
        QCOMPARE(db.value("SELECT count(*) FROM leases"), QStringLiteral("1"));
    }

    // Shown held by app-1; before the operator confirmed, it expired and app-2 took it.
    void changedHandsIsNotTouched()
    {
        test::TestDatabase db("fx_hands");
        db.exec(kLeasesDdl);
        LeaseWriter a(db.dsn(), "app-1:1:aaaa");
        LeaseWriter b(db.dsn(), "app-2:2:bbbb");
        QVERIFY(a.take("report", 600));
        const PollerConfig cfg = monitorConfig(db.dsn());
        const ForceExpireTarget t = shownTarget(cfg, "report");

        db.exec("UPDATE leases SET expires_at = now() - interval '1 s'"); // a's lease ran out
        QVERIFY(b.take("report", 120));
        const QString bExpiry = db.value("SELECT expires_at::text FROM leases");

        const ForceExpireOutcome o = forceOne(requestFor(cfg), t);
        QVERIFY2(o.kind == Kind::ChangedHands, qPrintable(o.text()));
        QCOMPARE(o.currentHolder.value_or(QString()), b.holder());
        QVERIFY2(o.text().contains("changed hands") && o.text().contains(b.holder()), qPrintable(o.text()));
        QVERIFY(o.currentExpiresAt && *o.currentExpiresAt > *o.serverNow + 100);
        QCOMPARE(db.value("SELECT holder FROM leases"), b.holder());
        QCOMPARE(db.value("SELECT expires_at::text FROM leases"), bExpiry); // untouched
        // Also when the operator had acknowledged the holder as alive.
        ForceExpireTarget alive = t;
        alive.acknowledgedAlive = true;
        QCOMPARE(forceOne(requestFor(cfg), alive).kind, Kind::ChangedHands);
        QCOMPARE(db.value("SELECT expires_at::text FROM leases"), bExpiry);
    }

    // Shown as stale (expired); the holder was only slow and renewed before the confirmation.
    void renewedSinceShownStaleIsNotTouched()
    {
        test::TestDatabase db("fx_renewed");
        db.exec(kLeasesDdl);
        LeaseWriter a(db.dsn(), "app-1:1:aaaa");
        QVERIFY(a.take("ingest", 60));
        db.exec("UPDATE leases SET expires_at = now() - interval '5 s'");
        const PollerConfig cfg = monitorConfig(db.dsn());
        const ForceExpireTarget t = shownTarget(cfg, "ingest");
        QVERIFY(t.expiresAt);

        QVERIFY(a.renew("ingest", 60));
        const QString renewed = db.value("SELECT expires_at::text FROM leases");
        const ForceExpireOutcome o = forceOne(requestFor(cfg), t);
        QVERIFY2(o.kind == Kind::Renewed, qPrintable(o.text()));
        QVERIFY2(o.text().contains("renewed it since it was shown"), qPrintable(o.text()));
        QCOMPARE(db.value("SELECT expires_at::text FROM leases"), renewed);
        QCOMPARE(db.value("SELECT holder FROM leases"), a.holder());
    }

    // Gone between display and confirmation (released by its holder).
    void goneIsReported()
    {
        test::TestDatabase db("fx_gone");
        db.exec(kLeasesDdl);
        LeaseWriter a(db.dsn(), "app-1:1:aaaa");
        QVERIFY(a.take("once", 60));
        const PollerConfig cfg = monitorConfig(db.dsn());
        const ForceExpireTarget t = shownTarget(cfg, "once");
        db.exec("DELETE FROM leases");
        const ForceExpireOutcome o = forceOne(requestFor(cfg), t);
        QCOMPARE(o.kind, Kind::Gone);
        QVERIFY(o.text().contains("no longer exists"));
    }

    // Two consoles confirm the same lease at the same moment: exactly one expires it.
    void twoConsolesExactlyOneExpires()
    {
        test::TestDatabase db("fx_race");
        db.exec(kLeasesDdl);
        LeaseWriter a(db.dsn(), "app-1:1:aaaa");
        const PollerConfig cfg = monitorConfig(db.dsn());
        const ForceExpireRequest req = requestFor(cfg);
        for (int round = 0; round < 3; ++round) {
            const QString name = QStringLiteral("race-%1").arg(round);
            QVERIFY(a.take(name, 600));
            for (bool alive : {false, true}) {
                if (alive)
                    db.exec(QStringLiteral(
                                "UPDATE leases SET expires_at = now() + interval '10 min' WHERE name = '%1'")
                                .arg(name));
                const ForceExpireTarget t = shownTarget(cfg, name, alive);
                std::vector<ForceExpireOutcome> results(2);
                std::latch go(2);
                std::vector<std::thread> consoles;
                for (int i = 0; i < 2; ++i)
                    consoles.emplace_back([&, i] {
                        go.arrive_and_wait();
                        results[size_t(i)] = forceExpire(req, {t}).front();
                    });
                for (auto& th : consoles)
                    th.join();
                const int expired = int(std::count_if(results.begin(), results.end(),
                                                      [](auto& o) { return o.kind == Kind::Expired; }));
                QVERIFY2(expired == 1, qPrintable(results[0].text() + " / " + results[1].text()));
                const auto& other = results[0].kind == Kind::Expired ? results[1] : results[0];
                QVERIFY2(other.kind == Kind::ExpiredAlready, qPrintable(other.text()));
                QVERIFY(other.text().contains("already expired"));
            }
        }
    }

    // A leases table without a unique name and two identical rows: the UPDATE would match both.
    // Exactly one or nothing: the transaction rolls back, both rows stay, the outcome names them.
    void duplicateNamesAreRefusedAndRolledBack()
    {
        test::TestDatabase db("fx_dupes");
        db.exec("CREATE TABLE leases(name text, holder text, taken_at timestamptz, expires_at timestamptz)");
        db.exec("INSERT INTO leases SELECT 'sweep', 'app-1:1:aaaa', now(), now() + interval '10 min' "
                "FROM generate_series(1, 2)");
        const QString before = db.value("SELECT string_agg(expires_at::text, ',') FROM leases");
        const PollerConfig cfg = monitorConfig(db.dsn());
        for (bool alive : {false, true}) {
            const ForceExpireOutcome o = forceOne(requestFor(cfg), shownTarget(cfg, "sweep", alive));
            QVERIFY2(o.kind == Kind::Duplicates, qPrintable(o.text()));
            QCOMPARE(o.duplicateCount, 2);
            QCOMPARE(o.key(), QStringLiteral("duplicates"));
            QVERIFY(!o.changed());
            QCOMPARE(db.value("SELECT string_agg(expires_at::text, ',') FROM leases"), before);
        }
        // No transaction of the console is left open (in this database: other tests' operator
        // sessions run beside it).
        QCOMPARE(db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                          "'leasewatch-operator' AND state <> 'idle' AND datname = current_database()"),
                 QStringLiteral("0"));
    }

    // ShedLock names its holder by host name only: every instance on app-1 writes "app-1". Shown
    // held by app-1 (acknowledged alive); the job ended and another instance on the same host took
    // the lock again. The holder string still matches, the expiry does not: nothing is expired.
    void sharedHolderStringRetakeIsNotExpired()
    {
        test::TestDatabase db("fx_shared");
        db.exec(kShedlockDdl);
        db.exec("INSERT INTO shedlock VALUES ('nightly', (now() AT TIME ZONE 'UTC') + interval '10 min', "
                "now() AT TIME ZONE 'UTC', 'app-1')");
        PollerConfig cfg = monitorConfig(db.dsn());
        cfg.leases = *LeaseTableConfig::preset("shedlock");
        const ForceExpireTarget shown = shownTarget(cfg, "nightly", true);
        QThread::msleep(20);
        // ShedLock's unlock, then its lock statement from the second instance (StorageBasedLockProvider).
        db.exec("UPDATE shedlock SET lock_until = now() AT TIME ZONE 'UTC' WHERE name = 'nightly'");
        db.exec("UPDATE shedlock SET lock_until = (now() AT TIME ZONE 'UTC') + interval '10 min', locked_at = "
                "now() AT TIME ZONE 'UTC', locked_by = 'app-1' WHERE name = 'nightly' AND lock_until <= "
                "now() AT TIME ZONE 'UTC'");
        const QString retaken = db.value("SELECT lock_until::text FROM shedlock");
        const ForceExpireOutcome o = forceOne(requestFor(cfg), shown);
        QVERIFY2(o.kind == Kind::Retaken, qPrintable(o.text()));
        QCOMPARE(o.key(), QStringLiteral("retaken"));
        QCOMPARE(db.value("SELECT lock_until::text FROM shedlock"), retaken);
    }

    // A renewer holds the row lock in an open transaction: the action gives up within lock_timeout.
    void rowLockTimesOut()
    {
        test::TestDatabase db("fx_lock");
        db.exec(kLeasesDdl);
        LeaseWriter a(db.dsn(), "app-1:1:aaaa");
        QVERIFY(a.take("slow", 600));
        const PollerConfig cfg = monitorConfig(db.dsn());
        const ForceExpireTarget t = shownTarget(cfg, "slow");
        const QString before = db.value("SELECT expires_at::text FROM leases");

        pg::ConnPtr renewer(PQconnectdb(db.dsn().toUtf8().constData()));
        QCOMPARE(PQstatus(renewer.get()), CONNECTION_OK);
        pg::ResultPtr r(PQexec(renewer.get(), "BEGIN"));
        r.reset(PQexec(renewer.get(), "UPDATE leases SET expires_at = now() + interval '10 min' WHERE name = "
                                      "'slow' AND holder = 'app-1:1:aaaa'"));
        QCOMPARE(PQresultStatus(r.get()), PGRES_COMMAND_OK);

        ForceExpireRequest req = requestFor(cfg);
        req.lockTimeoutMs = 400;
        QElapsedTimer timer;
        timer.start();
        const ForceExpireOutcome o = forceOne(req, t);
        const qint64 took = timer.elapsed();
        QVERIFY2(o.kind == Kind::LockTimeout, qPrintable(o.text()));
        QCOMPARE(o.error.sqlstate, QStringLiteral("55P03"));
        QVERIFY2(o.text().contains("timed out waiting for the row lock"), qPrintable(o.text()));
        QVERIFY2(took < 400 + 1500, qPrintable(QString::number(took))); // lock_timeout + connect
        QVERIFY(took >= 350);

        r.reset(PQexec(renewer.get(), "ROLLBACK"));
        QCOMPARE(db.value("SELECT expires_at::text FROM leases"), before);
        // No transaction of the console is left behind. The connection is closed on return; the
        // server ends its backend asynchronously, so a loaded machine may still list it briefly.
        QTRY_COMPARE_WITH_TIMEOUT(
            db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'leasewatch-operator' "
                     "AND datname = current_database()"),
            QStringLiteral("0"), 5000);
    }

    void missingPrivilegeIsRefusedWithTheReason()
    {
        test::TestDatabase db("fx_priv");
        db.exec(kLeasesDdl);
        const QString role = "lw_fx_ro_" + db.name();
        db.exec(QStringLiteral("CREATE ROLE %1 LOGIN; GRANT SELECT ON leases TO %1").arg(role));
        LeaseWriter a(db.dsn(), "app-1:1:aaaa");
        QVERIFY(a.take("guarded", 600));
        const QString before = db.value("SELECT expires_at::text FROM leases");
        const PollerConfig cfg = monitorConfig(db.dsn() + " user=" + role);
        const ForceExpireTarget t = shownTarget(cfg, "guarded"); // SELECT is enough to show it
        const ForceExpireOutcome o = forceOne(requestFor(cfg), t);
        QVERIFY2(o.kind == Kind::NoPrivilege, qPrintable(o.text()));
        QCOMPARE(o.error.sqlstate, QStringLiteral("42501"));
        QCOMPARE(o.dbRole, role);
        QVERIFY2(o.privilegeNeeded.contains("UPDATE on public.leases"), qPrintable(o.privilegeNeeded));
        QVERIFY2(o.text().contains("refused for lack of privilege") && o.text().contains(role),
                 qPrintable(o.text()));
        QCOMPARE(db.value("SELECT expires_at::text FROM leases"), before);
        db.exec("DROP OWNED BY " + role);
        test::execSql(test::suiteDsn(), "DROP ROLE " + role);
    }

    // The GRANT in the refusal runs as shown, for a role and a table the server needs quoted
    // (issue 23); afterwards the same force-expire goes through.
    void suggestedGrantRunsAsShown()
    {
        test::TestDatabase db("fx_grant_quoting");
        const QString role = "Op-Erator_" + db.name();
        const QString qrole = "\"" + role + "\"";
        db.exec("CREATE TABLE \"Leases \"\"2026\"\"\"(name text primary key, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
        db.exec("INSERT INTO \"Leases \"\"2026\"\"\" VALUES ('guarded', 'app-1:1:aaaa', now() - interval '2 h', "
                "now() - interval '1 h')");
        test::execSql(test::suiteDsn(), "CREATE ROLE " + qrole + " LOGIN");
        db.exec("GRANT SELECT ON \"Leases \"\"2026\"\"\" TO " + qrole);
        PollerConfig cfg = monitorConfig(db.dsn() + " user='" + role + "'");
        cfg.leases.table = QStringLiteral("Leases \"2026\"");
        const ForceExpireTarget t = shownTarget(cfg, "guarded");
        const ForceExpireOutcome o = forceOne(requestFor(cfg), t);
        QVERIFY2(o.kind == Kind::NoPrivilege, qPrintable(o.text()));
        const qsizetype at = o.privilegeNeeded.indexOf("(GRANT ");
        QVERIFY2(at >= 0 && o.privilegeNeeded.endsWith(')'), qPrintable(o.privilegeNeeded));
        const QString grant = o.privilegeNeeded.mid(at + 1, o.privilegeNeeded.size() - at - 2);
        db.exec(grant); // exactly as suggested
        const ForceExpireOutcome again = forceOne(requestFor(cfg), t);
        QVERIFY2(again.kind == Kind::Expired, qPrintable(again.text()));
        db.exec("DROP OWNED BY " + qrole);
        test::execSql(test::suiteDsn(), "DROP ROLE " + qrole);
    }

    // ShedLock: naive timestamps holding UTC. The database's zone is +14 h, so a value in the
    // session's zone instead of UTC would be 14 hours off.
    void shedlockGetsUtcInItsOwnType()
    {
        test::TestDatabase db("fx_shedlock");
        db.exec("ALTER DATABASE " + db.name() + " SET timezone = 'Pacific/Kiritimati'");
        db.exec(kShedlockDdl);
        db.exec("INSERT INTO shedlock VALUES ('nightly', (now() AT TIME ZONE 'UTC') + interval '10 min', "
                "now() AT TIME ZONE 'UTC', 'app-1:77:abcd')");
        PollerConfig cfg = monitorConfig(db.dsn());
        cfg.leases = *LeaseTableConfig::preset("shedlock");
        const ForceExpireTarget t = shownTarget(cfg, "nightly");
        const ForceExpireOutcome o = forceOne(requestFor(cfg), t);
        QVERIFY2(o.kind == Kind::Expired, qPrintable(o.text()));
        QCOMPARE(db.value("SELECT count(*) FROM shedlock"), QStringLiteral("1"));
        QCOMPARE(db.value("SELECT locked_by FROM shedlock"), QStringLiteral("app-1:77:abcd"));
        QCOMPARE(db.value("SELECT pg_typeof(lock_until)::text FROM shedlock"),
                 QStringLiteral("timestamp without time zone"));
        const double off = db.value("SELECT abs(extract(epoch FROM (lock_until AT TIME ZONE 'UTC')) - "
                                    "extract(epoch FROM now())) FROM shedlock")
                               .toDouble();
        QVERIFY2(off < 5, qPrintable(QString::number(off)));
        QVERIFY(o.currentExpiresAt && qAbs(*o.currentExpiresAt - *o.serverNow) < 0.001);
    }

    // A naive column of a named zone: the new value is now() in that zone's wall time.
    void namedZoneGetsItsWallTime()
    {
        test::TestDatabase db("fx_zone");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamp, expires_at "
                "timestamp)");
        db.exec("INSERT INTO leases VALUES ('z', 'h:1:aa', now() AT TIME ZONE 'America/New_York', "
                "(now() AT TIME ZONE 'America/New_York') + interval '10 min')");
        PollerConfig cfg = monitorConfig(db.dsn());
        QVERIFY(cfg.leases.setTimeKind("America/New_York"));
        const ForceExpireOutcome o = forceOne(requestFor(cfg), shownTarget(cfg, "z"));
        QVERIFY2(o.kind == Kind::Expired, qPrintable(o.text()));
        const double off =
            db.value("SELECT abs(extract(epoch FROM (expires_at AT TIME ZONE 'America/New_York')) - "
                     "extract(epoch FROM now())) FROM leases")
                .toDouble();
        QVERIFY2(off < 5, qPrintable(QString::number(off)));
    }

    // Server-side audit: created on request; written in the same transaction as an applied change;
    // nothing for changes that did not happen; a failing audit insert rolls the change back.
    void serverAuditTableCommitsWithTheChange()
    {
        test::TestDatabase db("fx_audit");
        db.exec(kLeasesDdl);
        PollerConfig cfg = monitorConfig(db.dsn());
        cfg.auditTable = QStringLiteral("ops.lw_audit");
        db.exec("CREATE SCHEMA ops");

        pg::ConnectOptions opts;
        opts.dsn = db.dsn();
        const CreateAuditTableResult refused = createServerAuditTable(opts, cfg.auditTable, false);
        QVERIFY(refused.error.isError());
        QVERIFY(refused.message().contains("operator mode is off"));
        QCOMPARE(db.value("SELECT to_regclass('ops.lw_audit') IS NULL"), QStringLiteral("t"));
        const CreateAuditTableResult created = createServerAuditTable(opts, cfg.auditTable, true);
        QVERIFY2(created.created && !created.error.isError(), qPrintable(created.message()));
        QVERIFY2(created.message().contains("created") && created.message().contains("\"ops\".\"lw_audit\""),
                 qPrintable(created.message()));
        const CreateAuditTableResult again = createServerAuditTable(opts, cfg.auditTable, true);
        QVERIFY(again.existed && !again.created);
        QVERIFY(again.message().contains("already existed"));

        LeaseWriter a(db.dsn(), "app-1:1:aaaa");
        LeaseWriter b(db.dsn(), "app-2:2:bbbb");
        QVERIFY(a.take("audited", 600));
        QVERIFY(a.take("other", 600));
        const ForceExpireRequest req = requestFor(cfg);
        const ForceExpireOutcome o = forceOne(req, shownTarget(cfg, "audited"));
        QVERIFY2(o.kind == Kind::Expired && o.serverAudited, qPrintable(o.text()));
        QCOMPARE(db.value("SELECT count(*) FROM ops.lw_audit"), QStringLiteral("1"));
        QCOMPARE(db.value("SELECT action || ' ' || target || ' ' || outcome || ' ' || db_role || ' ' || "
                          "application_name FROM ops.lw_audit"),
                 QStringLiteral("force-expire public.leases/audited expired %1 leasewatch-operator")
                     .arg(db.value("SELECT current_user")));
        QCOMPARE(db.value("SELECT before->>'holder' FROM ops.lw_audit"), a.holder());
        QCOMPARE(db.value("SELECT (after->>'expires_at')::timestamptz = expires_at FROM ops.lw_audit, leases "
                          "WHERE name = 'audited'"),
                 QStringLiteral("t"));
        QCOMPARE(db.value("SELECT os_user FROM ops.lw_audit"), localOsUser());

        // Not changed (changed hands): nothing server-side.
        const ForceExpireTarget shownOther = shownTarget(cfg, "other");
        db.exec("UPDATE leases SET expires_at = now() - interval '1 s' WHERE name = 'other'");
        QVERIFY(b.take("other", 600));
        QCOMPARE(forceOne(req, shownOther).kind, Kind::ChangedHands);
        QCOMPARE(db.value("SELECT count(*) FROM ops.lw_audit"), QStringLiteral("1"));

        // The audit insert fails (table gone): the change is rolled back with it.
        db.exec("DROP TABLE ops.lw_audit");
        const QString before = db.value("SELECT expires_at::text FROM leases WHERE name = 'other'");
        const ForceExpireOutcome failed = forceOne(req, shownTarget(cfg, "other"));
        QVERIFY2(failed.kind == Kind::Failed, qPrintable(failed.text()));
        QVERIFY2(failed.text().contains("audit table ops.lw_audit does not exist"),
                 qPrintable(failed.text()));
        QCOMPARE(db.value("SELECT expires_at::text FROM leases WHERE name = 'other'"), before);
    }

    // Without operator mode nothing is sent: not even a connection is made (the DSN points nowhere,
    // so any attempt would have shown as a connection failure).
    void operatorModeOffSendsNothing()
    {
        PollerConfig cfg =
            monitorConfig(QStringLiteral("host=/tmp/lw-fx-no-such-dir port=5999 dbname=x"), false);
        ForceExpireTarget t;
        t.name = "sweep";
        t.holder = "app-1:1:aaaa";
        t.expiresAt = 1.0;
        const auto out = forceExpire(requestFor(cfg), {t, t});
        QCOMPARE(int(out.size()), 2);
        for (const auto& o : out) {
            QCOMPARE(o.kind, Kind::NotAllowed);
            QVERIFY(!o.error.isError());
            QVERIFY(o.text().contains("operator mode is off"));
        }
        // The same request with operator mode on does try (and fails to connect): the refusal above
        // came from the mode, not from the address.
        cfg.operatorMode = true;
        QCOMPARE(forceExpire(requestFor(cfg), {t}).front().kind, Kind::Failed);
    }

    // Several leases, one transaction each: one lease's failure does not undo another's change.
    void severalLeasesAreIndependent()
    {
        test::TestDatabase db("fx_many");
        db.exec(kLeasesDdl);
        LeaseWriter a(db.dsn(), "app-1:1:aaaa");
        QVERIFY(a.take("one", 600));
        QVERIFY(a.take("two", 600));
        const PollerConfig cfg = monitorConfig(db.dsn());
        const ForceExpireTarget one = shownTarget(cfg, "one");
        ForceExpireTarget two = shownTarget(cfg, "two");
        two.holder = "someone-else:9:zz"; // as if it changed hands
        const auto out = forceExpire(requestFor(cfg), {one, two});
        QCOMPARE(out[0].kind, Kind::Expired);
        QCOMPARE(out[1].kind, Kind::ChangedHands);
        QCOMPARE(db.value("SELECT string_agg(name || '=' || (expires_at <= now())::text, ',' ORDER BY name) "
                          "FROM leases"),
                 QStringLiteral("one=true,two=false"));
    }
};

QTEST_GUILESS_MAIN(TestForceExpire)
#include "tst_forceexpire.moc"
