// The catalogue of coordination schemes against each library's own tables and statements. Every
// DDL and statement below is copied from the library's source (file named with it; the SQL facts
// and commits are in models/domain/LeaseSchemes.cpp); only the values bound to their placeholders
// are ours. The console is run as a user would, without --preset or --table: it must find every
// table, judge each row by its library's rules, and raise nothing for a library at rest.
#include "ForceExpire.h"
#include "LibraryDdl.h"
#include "Monitor.h"
#include "Poller.h"
#include "Programs.h"
#include "TestCluster.h"
#include "itemmodels/LeaseModel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QThread>

using namespace lw::test; // the libraries' DDL

namespace {

struct Snap
{
    int code = -1;
    QJsonObject doc;
    QString out, err;
};

Snap snapshot(const QString& dsn, QStringList extra = {})
{
    QStringList args{QStringLiteral("snapshot"), dsn, QStringLiteral("--json")};
    args << extra;
    const auto r = lw::test::runProcess(lw::test::leasewatchBin(), args);
    return {r.code, QJsonDocument::fromJson(r.out.toUtf8()).object(), r.out, r.err};
}

// scheme → name → row
QHash<QString, QHash<QString, QJsonObject>> rowsByScheme(const Snap& s)
{
    QHash<QString, QHash<QString, QJsonObject>> out;
    for (const auto& v : s.doc["leases"].toObject()["rows"].toArray()) {
        const QJsonObject o = v.toObject();
        out[o["scheme"].toString()][o["name"].toString()] = o;
    }
    return out;
}

// The findings about leases (the suite's cluster is shared: other tests' locks are findings too).
QJsonArray leaseFindings(const Snap& s)
{
    QJsonArray out;
    for (const auto& v : s.doc["findings"].toArray()) {
        const QString kind = v.toObject()["kind"].toString();
        if (kind == QLatin1String("stale_lease") || kind == QLatin1String("writer_clock_skew") ||
            kind == QLatin1String("leases_unreadable") || kind == QLatin1String("flag_left_set") ||
            kind == QLatin1String("double_run"))
            out.append(v);
    }
    return out;
}

QStringList schemesRead(const Snap& s)
{
    QStringList out;
    for (const auto& v : s.doc["leases"].toObject()["tables"].toArray())
        out << v.toObject()["scheme"].toString();
    return out;
}

// The same tables as graphile-worker 0.14–0.15 had them (sql/000011.sql, before 000016's renames),
// in `schema`; and its statements on them.
QString graphile014(QString sql, const QString& schema)
{
    return sql.replace(QStringLiteral("graphile_worker._private_"), schema + QLatin1Char('.'))
        .replace(QStringLiteral("create schema graphile_worker"), QStringLiteral("create schema ") + schema);
}

// --- Each library's statements --------------------------------------------------------------------

// ShedLock, PostgresSqlServerTimeStatementsSource.java (usingDbTime): take, then release.
QString shedlockTake(const QString& name, const QString& by, int lockAtMostForS)
{
    return QStringLiteral(
               "INSERT INTO shedlock(name, lock_until, locked_at, locked_by) VALUES('%1', timezone('utc', "
               "CURRENT_TIMESTAMP) + make_interval(secs => %3), timezone('utc', CURRENT_TIMESTAMP), '%2') ON "
               "CONFLICT (name) DO UPDATE SET lock_until = timezone('utc', CURRENT_TIMESTAMP) + "
               "make_interval(secs => %3), locked_at = timezone('utc', CURRENT_TIMESTAMP), locked_by = '%2' "
               "WHERE shedlock.name = '%1' AND shedlock.lock_until <= timezone('utc', CURRENT_TIMESTAMP)")
        .arg(name, by)
        .arg(lockAtMostForS);
}
QString shedlockRelease(const QString& name, const QString& by, int lockAtLeastForS = 0)
{
    return QStringLiteral("UPDATE shedlock SET lock_until = CASE WHEN locked_at + make_interval(secs => %3) > "
                          "timezone('utc', CURRENT_TIMESTAMP) THEN locked_at + make_interval(secs => %3) ELSE "
                          "timezone('utc', CURRENT_TIMESTAMP) END WHERE name = '%1' AND locked_by = '%2'")
        .arg(name, by)
        .arg(lockAtLeastForS);
}

// River, internal/dbsqlc/river_leader.sql: LeaderDeleteExpired + LeaderAttemptElect (one
// transaction, internal/leadership/elector.go), LeaderResign.
QString riverElect(const QString& leaderId, int ttlS)
{
    return QStringLiteral("BEGIN; DELETE FROM river_leader WHERE expires_at < coalesce(NULL::timestamptz, now()); "
                          "INSERT INTO river_leader (leader_id, elected_at, expires_at) VALUES ('%1', "
                          "coalesce(NULL::timestamptz, now()), coalesce(NULL::timestamptz, now()) + "
                          "make_interval(secs => %2)) ON CONFLICT (name) DO NOTHING RETURNING *; COMMIT")
        .arg(leaderId)
        .arg(ttlS);
}
QString riverResign(const QString& leaderId)
{
    return QStringLiteral(
               "WITH currently_held_leaders AS (SELECT * FROM river_leader WHERE elected_at = (SELECT elected_at "
               "FROM river_leader) AND leader_id = '%1'::text FOR UPDATE), notified_resignations AS (SELECT "
               "pg_notify(concat(current_schema(), '.', 'river_leadership'::text), json_build_object('leader_id', "
               "leader_id, 'action', 'resigned')::text) FROM currently_held_leaders) DELETE FROM river_leader USING "
               "notified_resignations")
        .arg(leaderId);
}

// Oban, lib/oban/peers/database.ex: delete_expired_peers + attempt_leadership (Ecto's SQL), with
// DateTime.utc_now() bound as the naive UTC it stores.
QString obanElect(const QString& name, const QString& node, int leaseS)
{
    return QStringLiteral("BEGIN; DELETE FROM public.oban_peers AS o0 WHERE (o0.name = '%1') AND (o0.expires_at < "
                          "(now() AT TIME ZONE 'UTC')); INSERT INTO public.oban_peers AS o0 "
                          "(name,node,started_at,expires_at) VALUES ('%1','%2',(now() AT TIME ZONE 'UTC'),(now() AT "
                          "TIME ZONE 'UTC') + make_interval(secs => %3)) ON CONFLICT (name) DO UPDATE SET expires_at "
                          "= (now() AT TIME ZONE 'UTC') + make_interval(secs => %3) WHERE (o0.node = '%2'); COMMIT")
        .arg(name, node)
        .arg(leaseS);
}

// Quartz, StdJDBCConstants.INSERT_SCHEDULER_STATE with System.currentTimeMillis() `agoS` ago.
QString quartzCheckIn(const QString& instance, int agoS)
{
    return QStringLiteral("INSERT INTO QRTZ_SCHEDULER_STATE (SCHED_NAME, INSTANCE_NAME, LAST_CHECKIN_TIME, "
                          "CHECKIN_INTERVAL) VALUES('QuartzScheduler', '%1', (extract(epoch FROM now() - "
                          "make_interval(secs => %2)) * 1000)::bigint, 7500)")
        .arg(instance)
        .arg(agoS);
}

// db-scheduler, JdbcTaskRepository: an execution scheduled, then picked (pick), its heartbeat
// (updateHeartbeat) `agoS` ago on the application's clock.
QString dbSchedulerPicked(const QString& task, const QString& instance, int heartbeatAgoS)
{
    return QStringLiteral("insert into scheduled_tasks (task_name, task_instance, execution_time, picked, version) "
                          "values ('%1', '%2', now(), false, 1); "
                          "update scheduled_tasks set picked = true, picked_by = 'web-1', last_heartbeat = now(), "
                          "version = version + 1 where picked = false and task_name = '%1' and task_instance = '%2' "
                          "and version = 1; "
                          "update scheduled_tasks set last_heartbeat = now() - make_interval(secs => %3) where "
                          "task_name = '%1' and task_instance = '%2' and version = 2")
        .arg(task, instance)
        .arg(heartbeatAgoS);
}

// graphile-worker, src/sql/getJobs.ts (one job, worker pool id as $1), run with the server's clock
// `agoS` in the past standing in for now() (a lock taken that long ago).
QString graphileTake(const QString& poolId, int agoS)
{
    return QStringLiteral(
               "with j as (select jobs.job_queue_id, jobs.priority, jobs.run_at, jobs.id from "
               "graphile_worker._private_jobs as jobs where jobs.is_available = true and run_at <= now() and "
               "task_id = any('{1}'::int[]) and (jobs.job_queue_id is null or jobs.job_queue_id in (select id from "
               "graphile_worker._private_job_queues as job_queues where job_queues.is_available = true for update "
               "skip locked)) order by priority asc, run_at asc limit 1 for update skip locked), q as (update "
               "graphile_worker._private_job_queues as job_queues set locked_by = '%1'::text, locked_at = now() - "
               "make_interval(secs => %2) from j where job_queues.id = j.job_queue_id) update "
               "graphile_worker._private_jobs as jobs set attempts = jobs.attempts + 1, locked_by = '%1'::text, "
               "locked_at = now() - make_interval(secs => %2) from j where jobs.id = j.id returning *")
        .arg(poolId)
        .arg(agoS);
}
QString graphileAddJob(const QString& key, const QString& queue)
{
    return QStringLiteral("insert into graphile_worker._private_job_queues (queue_name) values ('%2') on conflict do "
                          "nothing; insert into graphile_worker._private_jobs (task_id, key, job_queue_id, run_at) "
                          "values (1, '%1', (select id from graphile_worker._private_job_queues where queue_name = "
                          "'%2'), now() - interval '1 s')")
        .arg(key, queue);
}

// Liquibase, LockDatabaseChangeLogGenerator (take) and UnlockDatabaseChangeLogGenerator (release).
QString liquibaseLock(const QString& by)
{
    return QStringLiteral("UPDATE public.databasechangeloglock SET LOCKED = TRUE, LOCKEDBY = '%1', LOCKGRANTED = "
                          "NOW() WHERE ID = 1 AND LOCKED = FALSE")
        .arg(by);
}
const char* kLiquibaseUnlock =
    "UPDATE public.databasechangeloglock SET LOCKED = FALSE, LOCKEDBY = NULL, LOCKGRANTED = NULL WHERE ID = 1";

// Force-expire as the window does it: the row `name` of the catalogue table `scheme` as one
// monitoring refresh shows it, then the compare-and-set on it.
struct Forced
{
    lw::ForceExpireOutcome::Kind kind = lw::ForceExpireOutcome::Kind::Failed;
    QString text;
};
lw::ForceExpireTarget shownRow(const QString& dsn, const char* scheme, const QString& name, const QString& schema = {})
{
    lw::PollerConfig cfg;
    cfg.connect.dsn = dsn;
    cfg.leases = *lw::LeaseTableConfig::preset(QString::fromLatin1(scheme));
    if (!schema.isEmpty())
        cfg.leases.schema = schema;
    lw::Poller poller(cfg);
    const lw::Snapshot s = poller.refreshOnce();
    for (const lw::LeaseRow& r : s.leases)
        if (r.name == name)
            return lw::ForceExpireTarget{r.name, r.holder, r.takenAt, r.expiresAt, false};
    throw std::runtime_error("not shown: " + name.toStdString());
}
Forced forceShown(const QString& dsn, const char* scheme, const lw::ForceExpireTarget& t, const QString& schema = {})
{
    lw::PollerConfig cfg;
    cfg.connect.dsn = dsn;
    cfg.operatorMode = true;
    cfg.leases = *lw::LeaseTableConfig::preset(QString::fromLatin1(scheme));
    if (!schema.isEmpty())
        cfg.leases.schema = schema;
    const auto out = lw::forceExpire(lw::forceExpireRequestFor(cfg), {t});
    return {out.at(0).kind, out.at(0).text()};
}

} // namespace

class TestLeaseCatalogue : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Without --preset or --table every library's table is found in one database, each row is read
    // by its own scheme, holders split by each library's format, and a live holder raises nothing.
    void everySchemeFoundTogether()
    {
        lw::test::TestDatabase db("catalogue_all");
        for (const char* ddl : {kShedLockDdl, kRiverDdl, kObanDdl, kQuartzDdl, kDbSchedulerDdl, kGraphileDdl,
                                kLiquibaseDdl})
            db.exec(QString::fromLatin1(ddl));
        db.exec(shedlockTake("nightly-report", "web-1", 600));
        db.exec(riverElect("web-1_example_com_2026_12_01T08_52_38_123456", 15));
        db.exec(obanElect("Oban", "web-1", 30));
        db.exec(quartzCheckIn("node11764577958000", 0));
        db.exec(dbSchedulerPicked("send-invoices", "42", 0));
        db.exec(graphileAddJob("email-7", "mail"));
        db.exec(graphileTake("pool-0123456789abcdef01", 0));
        db.exec(liquibaseLock("buildbox (10.0.0.5)"));

        const Snap s = snapshot(db.dsn());
        QVERIFY2(s.code == 0, qPrintable(s.err + s.out));
        const QStringList read = schemesRead(s);
        for (const char* scheme : {"shedlock", "river", "oban", "quartz", "db-scheduler", "graphile-worker",
                                   "graphile-worker-queue", "liquibase"})
            QVERIFY2(read.contains(QLatin1String(scheme)), qPrintable(scheme + QStringLiteral(" not read: ") + s.out));
        const auto rows = rowsByScheme(s);
        auto row = [&](const char* scheme, const char* name) { return rows.value(scheme).value(name); };
        QCOMPARE(row("shedlock", "nightly-report")["state"].toString(), QStringLiteral("held"));
        QCOMPARE(row("shedlock", "nightly-report")["holder_host"].toString(), QStringLiteral("web-1"));
        QCOMPARE(row("river", "default")["state"].toString(), QStringLiteral("held"));
        QCOMPARE(row("river", "default")["holder_host"].toString(), QStringLiteral("web-1_example_com"));
        QCOMPARE(row("oban", "Oban")["state"].toString(), QStringLiteral("held"));
        QCOMPARE(row("quartz", "QuartzScheduler / node11764577958000")["state"].toString(), QStringLiteral("held"));
        QCOMPARE(row("db-scheduler", "send-invoices / 42")["state"].toString(), QStringLiteral("held"));
        QCOMPARE(row("db-scheduler", "send-invoices / 42")["holder_host"].toString(), QStringLiteral("web-1"));
        QCOMPARE(row("graphile-worker", "email-7")["state"].toString(), QStringLiteral("held"));
        QCOMPARE(row("graphile-worker", "email-7")["holder_token"].toString(),
                 QStringLiteral("pool-0123456789abcdef01"));
        QCOMPARE(row("graphile-worker-queue", "queue mail")["state"].toString(), QStringLiteral("held"));
        QCOMPARE(row("liquibase", "changelog lock 1")["state"].toString(), QStringLiteral("held"));
        QCOMPARE(row("liquibase", "changelog lock 1")["holder_host"].toString(), QStringLiteral("buildbox"));
        QCOMPARE(row("liquibase", "changelog lock 1")["holder_token"].toString(), QStringLiteral("10.0.0.5"));
        QVERIFY2(leaseFindings(s).isEmpty(), qPrintable(s.out));

        // The text form names the scheme of each row.
        const auto text = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn()});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("Liquibase") && text.out.contains("Quartz"), qPrintable(text.out));

        // Detection can be switched off: with a table named by hand only that one is read.
        const Snap named = snapshot(db.dsn(), {"--preset", "liquibase"});
        QVERIFY2(named.code == 0, qPrintable(named.err));
        QCOMPARE(schemesRead(named), QStringList{"liquibase"});
    }

    // Each library's release leaves nothing to alarm about: ShedLock's row stays and is free, the
    // others' rows go (River, Oban) or stop being held (Liquibase, db-scheduler, graphile-worker).
    void releasedTheLibrarysWayIsAtRest()
    {
        lw::test::TestDatabase db("catalogue_rest");
        for (const char* ddl : {kShedLockDdl, kRiverDdl, kObanDdl, kDbSchedulerDdl, kGraphileDdl, kLiquibaseDdl})
            db.exec(QString::fromLatin1(ddl));
        for (int i = 0; i < 10; ++i) {
            const QString job = QStringLiteral("job-%1").arg(i);
            db.exec(shedlockTake(job, "web-1", 600));
            db.exec(shedlockRelease(job, "web-1"));
        }
        const QString leader = QStringLiteral("web-1_example_com_2026_12_01T08_52_38_123456");
        db.exec(riverElect(leader, 15));
        db.exec(riverResign(leader));
        db.exec(liquibaseLock("buildbox (10.0.0.5)"));
        db.exec(QString::fromLatin1(kLiquibaseUnlock));
        // db-scheduler: scheduled, not picked; graphile-worker: queued, not locked.
        db.exec("insert into scheduled_tasks (task_name, task_instance, execution_time, picked, version) values "
                "('send-invoices', '1', now() + interval '1 h', false, 1)");
        db.exec(graphileAddJob("email-8", "mail"));

        const Snap s = snapshot(db.dsn());
        QVERIFY2(s.code == 0, qPrintable(s.err + s.out));
        const auto rows = rowsByScheme(s);
        QCOMPARE(rows.value("shedlock").size(), 10);
        for (const QJsonObject& o : rows.value("shedlock"))
            QCOMPARE(o["state"].toString(), QStringLiteral("free"));
        QCOMPARE(rows.value("river").size(), 0);
        QCOMPARE(rows.value("liquibase").size(), 0);
        QCOMPARE(rows.value("db-scheduler").size(), 0);
        QCOMPARE(rows.value("graphile-worker").size(), 0);
        QVERIFY2(leaseFindings(s).isEmpty(), qPrintable(s.out));
    }

    // Each scheme's own stale rule, on the server's clock: a River leader past its TTL, an Oban peer
    // past its lease, a Quartz instance past check-in + interval + 7.5 s, a db-scheduler execution
    // without a heartbeat for 30 min, a graphile-worker lock older than 4 h, a Liquibase lock held
    // for more than 10 min. Live ones beside them stay held.
    void eachSchemeJudgedByItsOwnRule()
    {
        lw::test::TestDatabase db("catalogue_stale");
        // Liquibase's NOW() lands in a timestamp as the writer session's wall time: a zone far from
        // UTC proves it is read in that zone (read as UTC, a fresh lock would look 5 h old).
        db.exec(QStringLiteral("ALTER DATABASE %1 SET timezone = 'America/New_York'").arg(db.name()));
        for (const char* ddl : {kRiverDdl, kObanDdl, kQuartzDdl, kDbSchedulerDdl, kGraphileDdl, kLiquibaseDdl})
            db.exec(QString::fromLatin1(ddl));
        db.exec(riverElect("web-1_example_com_2026_12_01T08_52_38_123456", 1));
        db.exec(obanElect("Oban", "web-1", 1));
        db.exec(quartzCheckIn("node-alive", 0));
        db.exec(quartzCheckIn("node-dead", 20)); // 20 s > 7.5 s + 7.5 s
        db.exec(dbSchedulerPicked("send-invoices", "alive", 60));
        db.exec(dbSchedulerPicked("send-invoices", "dead", 31 * 60));
        db.exec(graphileAddJob("email-old", "q-old"));
        db.exec(graphileTake("pool-aaaaaaaaaaaaaaaaaa", 5 * 3600));
        db.exec(graphileAddJob("email-new", "q-new"));
        db.exec(graphileTake("pool-bbbbbbbbbbbbbbbbbb", 60));
        db.exec(liquibaseLock("buildbox (10.0.0.5)"));
        // River's and Oban's one-second leases run out, unrenewed, by the server's clock.
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT (SELECT bool_and(expires_at < now()) FROM river_leader) AND "
                                           "(SELECT bool_and(expires_at < now() AT TIME ZONE 'UTC') FROM oban_peers)"),
                                  QStringLiteral("t"), 10000);

        Snap s = snapshot(db.dsn());
        QVERIFY2(s.code == 0 || s.code == 3, qPrintable(s.err + s.out));
        auto rows = rowsByScheme(s);
        auto state = [&](const char* scheme, const char* name) {
            return rows.value(scheme).value(name)["state"].toString();
        };
        QCOMPARE(state("river", "default"), QStringLiteral("stale"));
        QCOMPARE(state("oban", "Oban"), QStringLiteral("stale"));
        QCOMPARE(state("quartz", "QuartzScheduler / node-alive"), QStringLiteral("held"));
        QCOMPARE(state("quartz", "QuartzScheduler / node-dead"), QStringLiteral("stale"));
        QCOMPARE(state("db-scheduler", "send-invoices / alive"), QStringLiteral("held"));
        QCOMPARE(state("db-scheduler", "send-invoices / dead"), QStringLiteral("stale"));
        QCOMPARE(state("graphile-worker", "email-new"), QStringLiteral("held"));
        QCOMPARE(state("graphile-worker", "email-old"), QStringLiteral("stale"));
        QCOMPARE(state("liquibase", "changelog lock 1"), QStringLiteral("held"));
        const QJsonObject lq = rows.value("liquibase").value("changelog lock 1");
        QVERIFY2(qAbs(lq["held_for_seconds"].toDouble()) < 60, qPrintable(s.out));

        // One stale-lease finding per stale row, naming the library.
        QSet<QString> subjects;
        for (const auto& v : s.doc["findings"].toArray()) {
            const QJsonObject f = v.toObject();
            if (f["kind"].toString() == QLatin1String("stale_lease"))
                subjects.insert(f["subject"].toString());
        }
        QCOMPARE(subjects, (QSet<QString>{"default", "Oban", "QuartzScheduler / node-dead", "send-invoices / dead",
                                          "email-old", "queue q-old"}));

        // A Liquibase lock granted 11 min ago is stuck.
        db.exec("UPDATE public.databasechangeloglock SET LOCKGRANTED = NOW() - interval '11 minutes' WHERE ID = 1");
        s = snapshot(db.dsn());
        rows = rowsByScheme(s);
        QCOMPARE(state("liquibase", "changelog lock 1"), QStringLiteral("stale"));
    }

    // Liquibase writes NOW() into a timestamp column: the writer session's wall time, which PgJDBC
    // sets from the JVM's zone. A lock just taken from a JVM in New York, read in UTC, would look
    // held for hours (stuck); with the table's zone set (--time-kind, or the profile's time kind) it
    // is the fresh lock it is.
    void liquibaseReadInTheWritersZone()
    {
        lw::test::TestDatabase db("catalogue_zone");
        db.exec(QStringLiteral("ALTER DATABASE %1 SET TimeZone = 'UTC'").arg(db.name()));
        db.exec(QString::fromLatin1(kLiquibaseDdl));
        db.exec("SET TimeZone = 'America/New_York'; " + liquibaseLock("ci-runner (10.0.0.5)"));
        auto lock = [](const Snap& s) { return rowsByScheme(s).value("liquibase").value("changelog lock 1"); };

        const Snap asUtc = snapshot(db.dsn(), {"--preset", "liquibase"});
        QCOMPARE(lock(asUtc)["state"].toString(), QStringLiteral("stale")); // four or five hours "held"

        const Snap zoned = snapshot(db.dsn(), {"--preset", "liquibase", "--time-kind", "America/New_York"});
        QVERIFY2(zoned.code == 0, qPrintable(zoned.out + zoned.err));
        QCOMPARE(lock(zoned)["state"].toString(), QStringLiteral("held"));
        QVERIFY2(leaseFindings(zoned).isEmpty(), qPrintable(zoned.out));
    }

    // Force-expire is offered only where setting the expiry to now is how the library itself frees
    // a lease; elsewhere it is refused before anything is sent, naming the library's own way.
    void forceExpireOnlyTheLibrarysWay()
    {
        lw::test::TestDatabase db("catalogue_fx");
        db.exec(QString::fromLatin1(kQuartzDdl));
        db.exec(QString::fromLatin1(kShedLockDdl));
        db.exec(quartzCheckIn("node-dead", 60));
        db.exec(shedlockTake("report", "web-1", 600));
        const QString before = db.value("SELECT last_checkin_time FROM qrtz_scheduler_state");
        auto r = lw::test::runProcess(lw::test::leasewatchBin(),
                                      {"expire", db.dsn(), "QuartzScheduler / node-dead", "--holder", "node-dead",
                                       "--operator", "--even-if-alive"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("clusterRecover"), qPrintable(r.err)); // names the library's own way
        QCOMPARE(db.value("SELECT last_checkin_time FROM qrtz_scheduler_state"), before);
        QCOMPARE(db.value("SELECT count(*) FROM qrtz_scheduler_state"), QStringLiteral("1"));

        // ShedLock: the row is kept and lock_until set to now, as ShedLock's own unlock does.
        r = lw::test::runProcess(lw::test::leasewatchBin(), {"expire", db.dsn(), "report", "--holder", "web-1",
                                                                  "--operator", "--even-if-alive"});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(db.value("SELECT lock_until <= timezone('utc', CURRENT_TIMESTAMP) FROM shedlock WHERE name = 'report'"),
                 QStringLiteral("t"));
        QCOMPARE(db.value("SELECT locked_by FROM shedlock WHERE name = 'report'"), QStringLiteral("web-1"));
    }

    // Where the library frees a lock with a statement of its own, force-expire is that statement,
    // run as the same compare-and-set on the row as shown: Liquibase's unlock (the row kept),
    // graphile-worker's reset (the job's queue with it), db-scheduler's revive (a new version, so
    // the dead run's late heartbeat misses). A lock that changed hands or was taken again since it
    // was shown is left alone.
    void forceExpireIsTheLibrarysOwnRelease()
    {
        using Kind = lw::ForceExpireOutcome::Kind;
        lw::test::TestDatabase db("catalogue_release");
        db.exec(QString::fromLatin1(kLiquibaseDdl));
        db.exec(QString::fromLatin1(kGraphileDdl));
        db.exec(QString::fromLatin1(kDbSchedulerDdl));
        const QString lockId = QStringLiteral("changelog lock 1");

        // Liquibase, from the command line: a lock granted 20 min ago, no session from its host.
        db.exec(liquibaseLock("buildbox (10.0.0.5)"));
        db.exec("UPDATE databasechangeloglock SET lockgranted = lockgranted - interval '20 min'");
        auto r = lw::test::runProcess(lw::test::leasewatchBin(),
                                      {"expire", db.dsn(), lockId, "--holder", "buildbox (10.0.0.5)", "--operator"});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(db.value("SELECT format('%s|%s|%s', locked, lockedby IS NULL, lockgranted IS NULL) FROM "
                          "databasechangeloglock WHERE id = 1"),
                 QStringLiteral("f|t|t"));
        QCOMPARE(db.value("SELECT count(*) FROM databasechangeloglock"), QStringLiteral("1"));
        const Snap after = snapshot(db.dsn());
        QCOMPARE(rowsByScheme(after).value("liquibase").size(), 0);
        QVERIFY2(leaseFindings(after).isEmpty(), qPrintable(after.out));

        // Shown held by buildbox; released and taken by ci-2 before the operator confirmed.
        db.exec(liquibaseLock("buildbox (10.0.0.5)"));
        lw::ForceExpireTarget shown = shownRow(db.dsn(), "liquibase", lockId);
        db.exec(QString::fromLatin1(kLiquibaseUnlock));
        db.exec(liquibaseLock("ci-2 (10.0.0.6)"));
        Forced f = forceShown(db.dsn(), "liquibase", shown);
        QVERIFY2(f.kind == Kind::ChangedHands, qPrintable(f.text));
        QCOMPARE(db.value("SELECT lockedby FROM databasechangeloglock WHERE locked"), QStringLiteral("ci-2 (10.0.0.6)"));
        // … or taken again by the same host: the grant time moved, so it is another run.
        shown = shownRow(db.dsn(), "liquibase", lockId);
        db.exec(QString::fromLatin1(kLiquibaseUnlock));
        QThread::msleep(20);
        db.exec(liquibaseLock("ci-2 (10.0.0.6)"));
        f = forceShown(db.dsn(), "liquibase", shown);
        QVERIFY2(f.kind == Kind::Retaken, qPrintable(f.text));
        QCOMPARE(db.value("SELECT locked FROM databasechangeloglock"), QStringLiteral("t"));

        // graphile-worker: a job locked 5 h ago with its queue, beside another worker's job.
        db.exec(graphileAddJob("email-old", "q-old"));
        db.exec(graphileTake("pool-aaaaaaaaaaaaaaaaaa", 5 * 3600));
        db.exec(graphileAddJob("email-new", "q-new"));
        db.exec(graphileTake("pool-bbbbbbbbbbbbbbbbbb", 60));
        f = forceShown(db.dsn(), "graphile-worker", shownRow(db.dsn(), "graphile-worker", "email-old"));
        QVERIFY2(f.kind == Kind::Expired, qPrintable(f.text));
        const QString job = "SELECT format('%s|%s|%s', j.locked_by IS NULL, q.locked_by IS NULL, j.attempts) FROM "
                            "graphile_worker._private_jobs j JOIN graphile_worker._private_job_queues q ON q.id = "
                            "j.job_queue_id WHERE j.key = '%1'";
        QCOMPARE(db.value(job.arg("email-old")), QStringLiteral("t|t|1")); // the attempt still counts
        QCOMPARE(db.value("SELECT run_at >= now() - interval '1 min' FROM graphile_worker._private_jobs WHERE key = "
                          "'email-old'"),
                 QStringLiteral("t"));
        QCOMPARE(db.value(job.arg("email-new")), QStringLiteral("f|f|1"));
        // A queue forced frees the job its worker holds in it.
        f = forceShown(db.dsn(), "graphile-worker-queue", shownRow(db.dsn(), "graphile-worker-queue", "queue q-new"));
        QVERIFY2(f.kind == Kind::Expired, qPrintable(f.text));
        QCOMPARE(db.value(job.arg("email-new")), QStringLiteral("t|t|1"));

        // db-scheduler: a picked execution without a heartbeat for an hour (version 2).
        db.exec(dbSchedulerPicked("send-invoices", "dead", 3600));
        f = forceShown(db.dsn(), "db-scheduler", shownRow(db.dsn(), "db-scheduler", "send-invoices / dead"));
        QVERIFY2(f.kind == Kind::Expired, qPrintable(f.text));
        QCOMPARE(db.value("SELECT format('%s|%s|%s|%s', picked, picked_by IS NULL, last_heartbeat IS NULL, version) "
                          "FROM scheduled_tasks WHERE task_instance = 'dead'"),
                 QStringLiteral("f|t|t|3"));
        QCOMPARE(db.value("SELECT execution_time >= now() - interval '1 min' FROM scheduled_tasks"), QStringLiteral("t"));
        // The dead run's late heartbeat (JdbcTaskRepository.updateHeartbeat: … AND version = 2) misses.
        db.exec("update scheduled_tasks set last_heartbeat = now() where task_name = 'send-invoices' and "
                "task_instance = 'dead' and version = 2");
        QCOMPARE(db.value("SELECT last_heartbeat IS NULL FROM scheduled_tasks"), QStringLiteral("t"));
        const Snap end = snapshot(db.dsn());
        QVERIFY2(leaseFindings(end).isEmpty(), qPrintable(end.out));
    }

    // River and Oban free a lease by its expiry: force-expire sets it to the server's now, and the
    // library's own next election (which deletes expired rows first) elects another instance.
    void forcedLeaderIsReplacedAtTheNextElection()
    {
        using Kind = lw::ForceExpireOutcome::Kind;
        lw::test::TestDatabase db("catalogue_leader");
        db.exec(QString::fromLatin1(kRiverDdl));
        db.exec(QString::fromLatin1(kObanDdl));
        db.exec(riverElect("host_a_2026_12_01T08_52_38_123456", 600)); // crashed with a long TTL
        db.exec(obanElect("Oban", "node-a", 600));
        db.exec(riverElect("host_b_2026_12_01T09_00_00_000000", 15)); // waits: the row is held
        db.exec(obanElect("Oban", "node-b", 30));
        QCOMPARE(db.value("SELECT leader_id FROM river_leader"), QStringLiteral("host_a_2026_12_01T08_52_38_123456"));
        QCOMPARE(db.value("SELECT node FROM oban_peers"), QStringLiteral("node-a"));

        Forced f = forceShown(db.dsn(), "river", shownRow(db.dsn(), "river", "default"));
        QVERIFY2(f.kind == Kind::Expired, qPrintable(f.text));
        f = forceShown(db.dsn(), "oban", shownRow(db.dsn(), "oban", "Oban"));
        QVERIFY2(f.kind == Kind::Expired, qPrintable(f.text));
        QThread::msleep(20);
        db.exec(riverElect("host_b_2026_12_01T09_00_00_000000", 15));
        db.exec(obanElect("Oban", "node-b", 30));
        QCOMPARE(db.value("SELECT leader_id FROM river_leader"), QStringLiteral("host_b_2026_12_01T09_00_00_000000"));
        QCOMPARE(db.value("SELECT node FROM oban_peers"), QStringLiteral("node-b"));
    }

    // ShedLock keeps no session while a job runs and names its holder by host name. A holder whose
    // host had sessions while it held the lock, and has none any more, is the crashed-holder case
    // (lock_until still ahead): said, and force-expire's evidence calls it dead. A host never seen
    // connected says nothing; a lock released by ShedLock is free and says nothing either.
    void shedlockHolderGoneIsSaid()
    {
        lw::test::TestDatabase db("catalogue_gone");
        db.exec(QString::fromLatin1(kShedLockDdl));
        // A lock taken before the console watched says nothing (it may be one held for lockAtLeastFor).
        db.exec(shedlockTake("before", "rpt-host-7f3", 1800));
        // rpt-host-7f3's pool: an idle session whose application_name names its host.
        std::optional<lw::pg::Connection> pool(lw::test::openAppSession(db.dsn(), "billing@rpt-host-7f3"));
        lw::PollerConfig cfg;
        cfg.connect.dsn = db.dsn();
        cfg.intervalMs = 200;
        lw::Monitor monitor(cfg);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.hasRefreshed(), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor.leases()->rowCount(), 1, 15000); // "before", seen
        db.exec(shedlockTake("report", "rpt-host-7f3", 1800));
        db.exec(shedlockTake("cleanup", "never-seen-9c1", 1800));
        // A job that finished, its lock kept for lockAtLeastFor (10 min) by ShedLock's own unlock.
        db.exec(shedlockTake("digest", "rpt-host-7f3", 1800));
        // Released only once the console has seen it held: a take and release between two
        // refreshes (a loaded machine) would be a different case, a lock seen only as released.
        QTRY_VERIFY_WITH_TIMEOUT(!monitor.leases()->rowsNamed("digest").empty(), 15000);
        db.exec(shedlockRelease("digest", "rpt-host-7f3", 600));
        const auto gone = [&](const QString& name) {
            for (int i = 0; i < monitor.findings()->rowCount(); ++i)
                if (monitor.findings()->finding(i).kind == lw::FindingKind::HolderGone &&
                    monitor.findings()->finding(i).subject == name)
                    return true;
            return false;
        };
        const auto seenConnected = [&](const QString& name) {
            const std::vector<int> rows = monitor.leases()->rowsNamed(name);
            return !rows.empty() && monitor.holderPresence().seen(monitor.leases()->entry(rows.front()).key);
        };
        QTRY_VERIFY_WITH_TIMEOUT(seenConnected("report"), 15000);
        const auto evidence = [&](const QString& name) {
            const int row = monitor.leases()->rowsNamed(name).at(0);
            const lw::LeaseModel::Entry& e = monitor.leases()->entry(row);
            return lw::assessHolder(e, monitor.lastSnapshot().sessions, true, monitor.leases()->serverNowEstimate(),
                                    monitor.leases()->policyAt(row), monitor.leases()->tableAt(row),
                                    monitor.holderPresence().seen(e.key));
        };
        QVERIFY(evidence("report").looksAlive); // connected
        QVERIFY(!gone("report"));

        pool.reset(); // rpt-host-7f3 crashes: its sessions end, its lock stays 30 min
        QTRY_VERIFY_WITH_TIMEOUT(gone("report"), 30000);
        QVERIFY(!evidence("report").looksAlive);
        QVERIFY(!gone("cleanup"));
        QVERIFY(!gone("digest"));
        QVERIFY(!gone("before"));
        QVERIFY(evidence("cleanup").looksAlive); // cannot tell: never seen connected

        db.exec(shedlockRelease("report", "rpt-host-7f3")); // ShedLock's own unlock: free
        QTRY_VERIFY_WITH_TIMEOUT(!gone("report"), 10000);
        QVERIFY(!gone("cleanup"));
    }

    // graphile-worker's three layouts side by side: 0.16+ (_private_*, and its jobs view, which has
    // the columns of the 0.13 jobs table and must not be read as one), 0.14–0.15 (jobs with
    // job_queue_id) and up to 0.13 (jobs with queue_name). Each found, read once, judged by its
    // rule, and force-expired with its own release (the queue with the job).
    void graphileWorkerOlderLayouts()
    {
        lw::test::TestDatabase db("catalogue_graphile");
        db.exec(QString::fromLatin1(kGraphileDdl));
        db.exec("create view graphile_worker.jobs as (select jobs.id, job_queues.queue_name, 'send'::text as "
                "task_identifier, jobs.priority, jobs.run_at, jobs.attempts, jobs.key, jobs.locked_at, jobs.locked_by "
                "from graphile_worker._private_jobs as jobs left join graphile_worker._private_job_queues as "
                "job_queues on job_queues.id = jobs.job_queue_id)"); // sql/000017.sql, the columns used
        db.exec(graphileAddJob("email-16", "mail16"));
        db.exec(graphileTake("pool-161616161616161616", 0));
        db.exec(graphile014(QString::fromLatin1(kGraphileDdl), "gw14"));
        db.exec(graphile014(graphileAddJob("email-14", "mail14"), "gw14"));
        db.exec(graphile014(graphileTake("pool-141414141414141414", 60), "gw14"));
        db.exec(QString::fromLatin1(kGraphile013Ddl));
        db.exec(graphile013Take("email-13", "mail13", "worker-13-dead", 5 * 3600));

        const Snap s = snapshot(db.dsn());
        QVERIFY2(s.code == 0, qPrintable(s.err + s.out));
        const auto rows = rowsByScheme(s);
        QCOMPARE(rows.value("graphile-worker").keys(), QStringList{"email-16"}); // once: the view is not a table
        QCOMPARE(rows.value("graphile-worker-0.13").keys(), QStringList{"email-13"});
        QCOMPARE(rows.value("graphile-worker-0.14")["email-14"]["state"].toString(), QStringLiteral("held"));
        QCOMPARE(rows.value("graphile-worker-queue-0.14")["queue mail14"]["state"].toString(), QStringLiteral("held"));
        QCOMPARE(rows.value("graphile-worker-0.13")["email-13"]["state"].toString(), QStringLiteral("stale"));
        QCOMPARE(rows.value("graphile-worker-queue-0.13")["queue mail13"]["state"].toString(), QStringLiteral("stale"));
        for (const auto& v : s.doc["leases"].toObject()["found"].toArray())
            QVERIFY2(!v.toString().contains("not read"), qPrintable(v.toString()));

        // The 0.13 job freed as fail_job frees it, with its queue; the attempt it made still counts.
        const Forced f = forceShown(db.dsn(), "graphile-worker-0.13",
                                    shownRow(db.dsn(), "graphile-worker-0.13", "email-13", "gw13"), "gw13");
        QVERIFY2(f.kind == lw::ForceExpireOutcome::Kind::Expired, qPrintable(f.text));
        QCOMPARE(db.value("SELECT format('%s|%s|%s', j.locked_by IS NULL, q.locked_by IS NULL, j.attempts) FROM gw13.jobs "
                          "j JOIN gw13.job_queues q USING (queue_name)"),
                 QStringLiteral("t|t|1"));
        // The 0.14 queue freed with the job its worker holds in it.
        const Forced q = forceShown(db.dsn(), "graphile-worker-queue-0.14",
                                    shownRow(db.dsn(), "graphile-worker-queue-0.14", "queue mail14", "gw14"), "gw14");
        QVERIFY2(q.kind == lw::ForceExpireOutcome::Kind::Expired, qPrintable(q.text));
        QCOMPARE(db.value("SELECT count(*) FROM gw14.jobs WHERE locked_by IS NOT NULL"), QStringLiteral("0"));
        QCOMPARE(db.value("SELECT count(*) FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL"),
                 QStringLiteral("1")); // another installation's job untouched
    }

    // A table of a catalogue name but another shape (another application's "shedlock") is not read
    // as that library's, and says why; nothing else is disturbed.
    void aTableOfAnotherShapeIsNotMistaken()
    {
        lw::test::TestDatabase db("catalogue_shape");
        db.exec("CREATE TABLE scheduled_tasks (id serial primary key, cron text)");
        db.exec(QString::fromLatin1(kShedLockDdl));
        db.exec(shedlockTake("report", "web-1", 600));
        const Snap s = snapshot(db.dsn());
        QVERIFY2(s.code == 0, qPrintable(s.err + s.out));
        QCOMPARE(schemesRead(s), QStringList{"shedlock"});
        bool said = false;
        for (const auto& v : s.doc["leases"].toObject()["found"].toArray())
            said = said || (v.toString().contains("scheduled_tasks") && v.toString().contains("not read"));
        QVERIFY2(said, qPrintable(s.out));
        QVERIFY2(leaseFindings(s).isEmpty(), qPrintable(s.out));

        // A role that may read ShedLock's table but not Oban's: ShedLock's rows are shown, and the
        // other table is said with the GRANT to run (a finding, not a blank Leases page).
        db.exec(QString::fromLatin1(kObanDdl));
        db.exec("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'catalogue_mon') THEN "
                "CREATE ROLE catalogue_mon LOGIN; END IF; END $$");
        db.exec("GRANT SELECT ON shedlock TO catalogue_mon");
        QString monDsn = db.dsn();
        monDsn.replace(QRegularExpression(QStringLiteral("user=\\S+")), QStringLiteral("user=catalogue_mon"));
        const Snap mon = snapshot(monDsn);
        QVERIFY2(mon.code == 0, qPrintable(mon.err + mon.out));
        QCOMPARE(rowsByScheme(mon).value("shedlock").size(), 1);
        QVERIFY2(mon.doc["leases"].toObject()["not_read"].toObject()["text"].toString().contains(
                     "GRANT SELECT ON public.oban_peers TO catalogue_mon"),
                 qPrintable(mon.out));
        QCOMPARE(leaseFindings(mon).size(), 1);

        // Detection switched off: the mission's table only, checked as named (here: missing).
        const Snap off = snapshot(db.dsn(), {"--no-detect"});
        QCOMPARE(off.code, 3);
        QVERIFY2(off.err.contains("public.leases"), qPrintable(off.err));
    }

    // A session holding ACCESS EXCLUSIVE on a lease table (a migration, LOCK TABLE, VACUUM FULL): the
    // console does not queue behind it. The refresh names the lock and its session, shows the other
    // tables' rows, and from then on does not try the locked table (its session never waits in
    // pg_locks) until the lock is gone; then it is read again. A migration queued for the lock behind
    // a reader holds up every reader too: named as queued.
    void aLockedTableIsNamedAndTheRestShown()
    {
        lw::test::TestDatabase db("catalogue_locked");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at timestamptz); "
                "INSERT INTO leases VALUES ('sweep', 'web-1:42:00ff', now(), now() + interval '10 min')");
        db.exec(QString::fromLatin1(kShedLockDdl));
        db.exec(shedlockTake("report", "web-2", 600));
        auto migration = std::make_optional(lw::test::openAppSession(db.dsn(), QStringLiteral("deploy")));
        const QString migrationPid = QString::number(migration->backendPid());
        lw::pg::ResultPtr r;
        const auto deadline = [] { return lw::pg::Clock::now() + std::chrono::seconds(5); };
        QVERIFY(!migration->exec({"BEGIN", {}}, r, deadline()).isError());
        QVERIFY(!migration->exec({"LOCK TABLE shedlock IN ACCESS EXCLUSIVE MODE", {}}, r, deadline()).isError());

        // One look: the lock named, the other table's rows shown.
        Snap s = snapshot(db.dsn());
        QVERIFY2(s.code == 0, qPrintable(s.err + s.out));
        QVERIFY2(rowsByScheme(s).value("default").contains("sweep"), qPrintable(s.out));
        const QString notRead = s.doc["leases"].toObject()["not_read"].toObject()["text"].toString();
        QVERIFY2(notRead.contains("public.shedlock is locked ACCESS EXCLUSIVE by pid " + migrationPid + " (deploy"),
                 qPrintable(s.out));

        // Watching: the locked table is not tried again while the lock stands.
        lw::PollerConfig cfg;
        cfg.connect.dsn = db.dsn();
        cfg.intervalMs = 1000;
        lw::Poller poller(cfg);
        lw::Snapshot first = poller.refreshOnce();
        QVERIFY(first.ok && first.leasesPartial);
        QCOMPARE(int(first.leases.size()), 1);
        // The second it waited for the lock cost the server nothing: no slower refreshes for it.
        QCOMPARE(first.effectiveIntervalMs, 1000);
        const QString consoleWaits = QStringLiteral(
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE NOT l.granted AND "
            "a.datname = '%1' AND a.application_name LIKE 'leasewatch%'").arg(db.name());
        for (int i = 0; i < 5; ++i) {
            const lw::Snapshot next = poller.refreshOnce();
            QVERIFY(next.ok && next.leasesPartial);
            QVERIFY2(next.leasesPartial->message.contains("public.shedlock"), qPrintable(next.leasesPartial->message));
            QCOMPARE(int(next.leases.size()), 1);
            QCOMPARE(db.value(consoleWaits), QStringLiteral("0"));
        }
        // The lock gone: read again, both tables.
        QVERIFY(!migration->exec({"COMMIT", {}}, r, deadline()).isError());
        poller.refreshOnce(); // sees it free
        const lw::Snapshot after = poller.refreshOnce();
        QVERIFY(after.ok && !after.leasesPartial && !after.leasesError);
        QCOMPARE(int(after.leases.size()), 2);

        // A migration queued for ACCESS EXCLUSIVE on leases behind a reader's transaction: every
        // reader queues behind it, so the console does not read it either, and says who is queued.
        QVERIFY(!migration->exec({"BEGIN", {}}, r, deadline()).isError());
        QVERIFY(!migration->exec({"SELECT count(*) FROM leases", {}}, r, deadline()).isError());
        QProcess alter;
        alter.start(QStringLiteral("psql"), {db.dsn() + QStringLiteral(" application_name=alter-leases"), "-c",
                                             "ALTER TABLE leases ADD COLUMN note text"});
        QVERIFY(alter.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                           "'alter-leases' AND wait_event_type = 'Lock'"),
                                  QStringLiteral("1"), 10000);
        s = snapshot(db.dsn());
        QVERIFY2(s.code == 0, qPrintable(s.err + s.out));
        QVERIFY2(rowsByScheme(s).value("shedlock").contains("report"), qPrintable(s.out));
        QVERIFY2(s.doc["leases"].toObject()["not_read"].toObject()["text"].toString().contains(
                     QRegularExpression("pid \\d+ \\(alter-leases: active.*\\) is queued for ACCESS EXCLUSIVE on "
                                        "public.leases")),
                 qPrintable(s.out));
        QVERIFY(!migration->exec({"COMMIT", {}}, r, deadline()).isError());
        QVERIFY(alter.waitForFinished(10000));
        QCOMPARE(alter.exitCode(), 0);
    }

    // knex's lock table (knex 3.3.0 table-creator.js): at rest (is_locked = 0) it is read and says
    // nothing; set, it is knex's lock with no holder and no time, and one look says nothing against
    // it (a run may hold it); another application's table of that name is not read, quietly; a
    // role that cannot read it gets the GRANT.
    void knexLockTableAtRestSetAndUnreadable()
    {
        lw::test::TestDatabase db("catalogue_knex");
        db.exec("CREATE TABLE knex_migrations_lock (index serial PRIMARY KEY, is_locked integer); "
                "INSERT INTO knex_migrations_lock (is_locked) VALUES (0)");
        db.exec("CREATE SCHEMA other; CREATE TABLE other.knex_migrations_lock (id text)");
        Snap s = snapshot(db.dsn());
        QVERIFY2(s.code == 0, qPrintable(s.err + s.out));
        QCOMPARE(schemesRead(s), QStringList{"knex"});
        QVERIFY(rowsByScheme(s).value("knex").isEmpty());
        QVERIFY2(leaseFindings(s).isEmpty(), qPrintable(s.out));
        bool said = false;
        for (const auto& v : s.doc["leases"].toObject()["found"].toArray())
            said = said || (v.toString().contains("other.knex_migrations_lock") && v.toString().contains("not read"));
        QVERIFY2(said, qPrintable(s.out));

        db.exec("UPDATE knex_migrations_lock SET is_locked = 1");
        s = snapshot(db.dsn());
        const QJsonObject row = rowsByScheme(s).value("knex").value("migrations lock 1");
        QCOMPARE(row["state"].toString(), QStringLiteral("unknown"));
        QVERIFY(row["holder"].isNull());
        QVERIFY2(leaseFindings(s).isEmpty(), qPrintable(s.out));

        db.exec("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'catalogue_knex') THEN "
                "CREATE ROLE catalogue_knex LOGIN; END IF; END $$");
        QString monDsn = db.dsn();
        monDsn.replace(QRegularExpression(QStringLiteral("user=\\S+")), QStringLiteral("user=catalogue_knex"));
        // Its only lease table unreadable: the snapshot says so, with the GRANT to run.
        const Snap mon = snapshot(monDsn);
        QVERIFY2(mon.err.contains("GRANT SELECT ON public.knex_migrations_lock TO catalogue_knex"),
                 qPrintable(mon.err + mon.out));
    }
};

QTEST_GUILESS_MAIN(TestLeaseCatalogue)
#include "tst_lease_catalogue.moc"
