// The catalogue of coordination schemes: one entry per library table. Each entry's table, columns,
// clock and release rule were read in the library's own source; the file is cited with each.
// Adding a scheme is adding an entry here (and a test in tests/integration/tst_lease_catalogue.cpp).
#include "LeaseTable.h"

namespace lw {

namespace {

LeaseTableConfig mission()
{
    // The mission's table: take with INSERT … ON CONFLICT (name) DO UPDATE … WHERE
    // leases.expires_at < now(), renew every TTL/4, release with DELETE … WHERE name = $1 AND holder = $2.
    return LeaseTableConfig{};
}

LeaseTableConfig shedlock()
{
    // lukas-krecan/ShedLock 7.9.0, README "Postgres":
    //   CREATE TABLE shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,
    //     locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name));
    // providers/sql/shedlock-sql-support/.../SqlStatementsSource.java, release:
    //   UPDATE shedlock SET lock_until = :unlockTime WHERE name = :name AND locked_by = :lockedBy
    // The row is kept (README: "Do not manually delete lock row"): an expired row is free. A lock
    // is taken for lockAtMostFor and not renewed (KeepAliveLockProvider is optional). Times are the
    // application's clock as naive wall time (UTC with usingDbTime()).
    LeaseTableConfig c;
    c.table = QStringLiteral("shedlock");
    c.holderColumn = QStringLiteral("locked_by");
    c.takenAtColumn = QStringLiteral("locked_at");
    c.expiresAtColumn = QStringLiteral("lock_until");
    c.timeKind = LeaseTableConfig::TimeKind::NaiveUtc;
    c.writerUsesAppClock = true;
    c.scheme = QStringLiteral("shedlock");
    c.library = QStringLiteral("ShedLock");
    c.expiryFrees = true;
    c.expectRenewals = false;
    c.holderFormat = LeaseTableConfig::HolderFormat::Host; // InetAddress.getLocalHost().getHostName()
    c.sessionsShowHolder = false; // a job runs on pooled connections, none tied to the lock
    return c;
}

LeaseTableConfig river()
{
    // riverqueue/river v0.43, riverdriver/riverpgxv5/migration/main/002_initial_schema.up.sql:
    //   CREATE UNLOGGED TABLE river_leader(elected_at timestamptz NOT NULL, expires_at timestamptz
    //     NOT NULL, leader_id text NOT NULL, name text PRIMARY KEY, …)
    // internal/dbsqlc/river_leader.sql: elect after DELETE … WHERE expires_at < now(); reelect
    // SET expires_at = now() + ttl; resign DELETEs. internal/leadership/elector.go: reelect every
    // 5 s (+1 s jitter), TTL 15 s. Server clock.
    LeaseTableConfig c;
    c.table = QStringLiteral("river_leader");
    c.holderColumn = QStringLiteral("leader_id");
    c.takenAtColumn = QStringLiteral("elected_at");
    c.scheme = QStringLiteral("river");
    c.library = QStringLiteral("River");
    c.holderFormat = LeaseTableConfig::HolderFormat::RiverClientId;
    c.renewShare = 0.4;
    c.staleMeaning = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", "the leader stopped re-electing and no other client was elected: no "
                                    "River client is doing leader work (the next elector deletes the row)"));
    return c;
}

LeaseTableConfig oban()
{
    // oban-bg/oban 2.23, lib/oban/migrations/postgres/v11.ex: oban_peers(name text primary key,
    // node text, started_at utc_datetime_usec, expires_at utc_datetime_usec) — naive UTC
    // timestamps written from the application's clock (DateTime.utc_now()).
    // lib/oban/peers/database.ex: each election deletes expired peers, then INSERT … ON CONFLICT
    // (name) DO UPDATE SET expires_at WHERE node = $node; the leader renews every 15 s of a 30 s
    // lease; shutdown DELETEs its row.
    LeaseTableConfig c;
    c.table = QStringLiteral("oban_peers");
    c.holderColumn = QStringLiteral("node");
    c.takenAtColumn = QStringLiteral("started_at");
    c.timeKind = LeaseTableConfig::TimeKind::NaiveUtc;
    c.writerUsesAppClock = true;
    c.scheme = QStringLiteral("oban");
    c.library = QStringLiteral("Oban");
    c.holderFormat = LeaseTableConfig::HolderFormat::Host; // node name, DYNO or host name
    c.renewShare = 0.5;
    c.staleMeaning = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", "the leader's lease ran out and no other node was elected: no Oban node "
                                    "is doing leader work (plugins, pruning, rescues)"));
    return c;
}

LeaseTableConfig quartz()
{
    // quartz-scheduler/quartz, tables_postgres.sql: QRTZ_SCHEDULER_STATE(SCHED_NAME VARCHAR(120),
    // INSTANCE_NAME VARCHAR(200), LAST_CHECKIN_TIME BIGINT, CHECKIN_INTERVAL BIGINT) — epoch ms from
    // the application's clock. JobStoreSupport.calcFailedIfAfter: an instance has failed once
    // now > last_checkin_time + max(checkin_interval, …) + 7500 ms; a live clustered node then
    // recovers its triggers and deletes the row (clusterRecover). Check-in every checkin_interval.
    LeaseTableConfig c;
    c.table = QStringLiteral("qrtz_scheduler_state");
    c.nameColumn = QStringLiteral("instance_name");
    c.holderColumn = QStringLiteral("instance_name");
    c.takenAtColumn.clear();
    c.expiresAtColumn = QStringLiteral("last_checkin_time");
    c.exprs.name = "sched_name::text || ' / ' || instance_name::text";
    c.exprs.holder = "instance_name::text";
    c.exprs.takenAt = "NULL::timestamptz";
    c.exprs.expiresAt = "to_timestamp((last_checkin_time + checkin_interval + 7500) / 1000.0)";
    c.signature = {{QStringLiteral("sched_name"), QStringLiteral("text")},
                   {QStringLiteral("instance_name"), QStringLiteral("text")},
                   {QStringLiteral("last_checkin_time"), QStringLiteral("int")},
                   {QStringLiteral("checkin_interval"), QStringLiteral("int")}};
    c.writerUsesAppClock = true;
    c.scheme = QStringLiteral("quartz");
    c.library = QStringLiteral("Quartz");
    // SimpleInstanceIdGenerator (AUTO): getLocalHost().getHostName() + System.currentTimeMillis()
    c.holderFormat = LeaseTableConfig::HolderFormat::QuartzInstanceId;
    c.renewShare = 0.5;
    c.forceExpireRefusal = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "Quartz recovers a failed instance itself: a live clustered scheduler repairs its triggers and "
        "deletes its check-in row (JobStoreSupport.clusterRecover). Deleting the row by hand would skip "
        "that repair; start one instance of the cluster instead."));
    c.staleMeaning = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", "missed its check-ins; eligible for recovery by another instance"));
    return c;
}

LeaseTableConfig dbScheduler()
{
    // kagkarlsson/db-scheduler, src/test/resources/postgresql_tables.sql: scheduled_tasks(task_name
    // text, task_instance text, …, picked boolean, picked_by text, last_heartbeat timestamptz,
    // version bigint, …). Scheduler.java: a picked execution is dead once last_heartbeat <= now −
    // heartbeat interval (5 min) × missed heartbeats (6); the scheduler then revives it
    // (ReviveDeadExecution). Only picked rows are held; the others are merely scheduled.
    LeaseTableConfig c;
    c.table = QStringLiteral("scheduled_tasks");
    c.nameColumn = QStringLiteral("task_instance");
    c.holderColumn = QStringLiteral("picked_by");
    c.takenAtColumn.clear();
    c.expiresAtColumn = QStringLiteral("last_heartbeat");
    c.exprs.name = "task_name::text || ' / ' || task_instance::text";
    c.exprs.holder = "picked_by::text";
    c.exprs.takenAt = "NULL::timestamptz";
    c.exprs.expiresAt = "last_heartbeat + interval '30 minutes'";
    c.exprs.where = "picked";
    c.signature = {{QStringLiteral("task_name"), QStringLiteral("text")},
                   {QStringLiteral("task_instance"), QStringLiteral("text")},
                   {QStringLiteral("picked"), QStringLiteral("bool")},
                   {QStringLiteral("picked_by"), QStringLiteral("text")},
                   {QStringLiteral("last_heartbeat"), QStringLiteral("timestamptz")},
                   {QStringLiteral("execution_time"), QStringLiteral("timestamptz")},
                   {QStringLiteral("version"), QStringLiteral("int")}};
    c.writerUsesAppClock = true;
    c.scheme = QStringLiteral("db-scheduler");
    c.library = QStringLiteral("db-scheduler");
    c.holderFormat = LeaseTableConfig::HolderFormat::Host; // SchedulerName.Hostname
    // Force-expire revives the execution as db-scheduler's default DeadExecutionHandler does
    // (task/DeadExecutionHandler.java, ReviveDeadExecution: reschedule to now), in the form of
    // JdbcTaskRepository.reschedule + jdbc/ExecutionUpdate.java: picked = false, picked_by = null,
    // last_heartbeat = null, execution_time = now, version = version + 1 (WHERE … AND version = ?).
    // The new version makes the old run's heartbeat and completion (both … AND version = ?) miss.
    c.release.set = "picked = FALSE, picked_by = NULL, last_heartbeat = NULL, execution_time = now(), "
                    "version = version + 1";
    c.release.words = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "rescheduled to now as db-scheduler's ReviveDeadExecution does (picked = false, version + 1: the old "
        "run's heartbeat and completion no longer match)"));
    c.staleMeaning = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", "no heartbeat for 30 min: a dead execution"));
    c.staleFix = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "A running scheduler revives it by itself within 10 min (ReviveDeadExecution); if none runs, "
        "force-expire revives it now the same way."));
    c.staleSeverity = 2;
    return c;
}

LeaseTableConfig graphileJobs()
{
    // graphile/worker 0.17, sql/000011.sql + 000016.sql: graphile_worker._private_jobs(id bigint,
    // …, locked_at timestamptz, locked_by text, …). src/sql/getJobs.ts locks with locked_at = now();
    // src/sql/resetLockedAt.ts frees locks older than 4 hours, every 8–10 min. No heartbeat.
    // Completion deletes the row; failure clears locked_at/locked_by.
    LeaseTableConfig c;
    c.schema = QStringLiteral("graphile_worker");
    c.table = QStringLiteral("_private_jobs");
    c.holderColumn = QStringLiteral("locked_by");
    c.takenAtColumn = QStringLiteral("locked_at");
    c.expiresAtColumn = QStringLiteral("locked_at");
    c.exprs.name = "coalesce(key, 'job ' || id::text)";
    c.exprs.holder = "locked_by";
    c.exprs.takenAt = "locked_at";
    c.exprs.expiresAt = "locked_at + interval '4 hours'";
    c.exprs.where = "locked_at IS NOT NULL";
    c.signature = {{QStringLiteral("id"), QStringLiteral("int")},
                   {QStringLiteral("key"), QStringLiteral("text")},
                   {QStringLiteral("job_queue_id"), QStringLiteral("int")},
                   {QStringLiteral("run_at"), QStringLiteral("timestamptz")},
                   {QStringLiteral("locked_at"), QStringLiteral("timestamptz")},
                   {QStringLiteral("locked_by"), QStringLiteral("text")},
                   {QStringLiteral("task_id"), QStringLiteral("int")}};
    c.scheme = QStringLiteral("graphile-worker");
    c.library = QStringLiteral("graphile-worker");
    c.holderFormat = LeaseTableConfig::HolderFormat::Opaque; // pool-<18 hex>
    c.expectRenewals = false;
    // A running pool keeps one session that ran 'LISTEN "jobs:insert"; LISTEN "worker:migrate";' for
    // its life (graphile-worker 0.18.0 dist/main.js listenForChanges(), reconnected within ~0.1 s
    // when it drops); its job connections are pooled and closed when idle, so that session is the
    // one sign of a live worker. 0.13's worker.ts listens on the same channel.
    c.listenChannel = QStringLiteral("jobs:insert");
    // Force-expire frees the job as graphile-worker frees a stale lock itself (src/sql/resetLockedAt.ts:
    // locked_at = null, locked_by = null, run_at = greatest(run_at, now())), and the job's queue
    // with it where the same worker holds it (src/sql/returnJobs.ts: … from j where job_queues.id =
    // j.job_queue_id and job_queues.locked_by = $1), as force_unlock_workers (sql/000016.sql) does
    // for all of a worker's jobs and queues.
    c.release.set = "locked_at = NULL, locked_by = NULL, run_at = greatest(run_at, now())";
    c.release.returning = "l.job_queue_id";
    c.release.also = "UPDATE {schema}._private_job_queues AS q SET locked_at = NULL, locked_by = NULL FROM u "
                     "WHERE q.id = u.job_queue_id AND q.locked_by = {holder}";
    c.release.words = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "unlocked as graphile-worker's own resetLockedAt does (locked_at and locked_by cleared, run_at no "
        "earlier than now), with its queue where the same worker holds it"));
    c.staleMeaning = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", "locked for more than 4 h; graphile-worker frees it within 10 min"));
    c.staleFix = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "graphile-worker frees it by itself within 10 min (resetLockedAt); force-expire frees it now the same "
        "way, or SELECT graphile_worker.force_unlock_workers(ARRAY['<locked_by>']) frees all of a dead "
        "worker's jobs."));
    c.staleSeverity = 2;
    return c;
}

LeaseTableConfig graphileQueues()
{
    // The same files: _private_job_queues(id int, queue_name text, locked_at timestamptz,
    // locked_by text): a queue is locked with its job and freed with it (or after 4 hours).
    LeaseTableConfig c = graphileJobs();
    c.table = QStringLiteral("_private_job_queues");
    c.exprs.name = "'queue ' || queue_name";
    c.signature = {{QStringLiteral("id"), QStringLiteral("int")},
                   {QStringLiteral("queue_name"), QStringLiteral("text")},
                   {QStringLiteral("locked_at"), QStringLiteral("timestamptz")},
                   {QStringLiteral("locked_by"), QStringLiteral("text")}};
    c.scheme = QStringLiteral("graphile-worker-queue");
    // A queue is freed with the job the same worker holds in it (resetLockedAt.ts frees both).
    c.release.set = "locked_at = NULL, locked_by = NULL";
    c.release.returning = "l.id AS queue_id";
    c.release.also = "UPDATE {schema}._private_jobs AS j SET locked_at = NULL, locked_by = NULL, run_at = "
                     "greatest(j.run_at, now()) FROM u WHERE j.job_queue_id = u.queue_id AND j.locked_by = {holder}";
    c.release.words = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "unlocked as graphile-worker's own resetLockedAt does, with the job the same worker holds in it"));
    return c;
}

LeaseTableConfig graphileJobs014()
{
    // graphile-worker 0.14–0.15: the tables of sql/000011.sql before sql/000016.sql renamed them
    // to _private_* (RELEASE_NOTES.md v0.14.0, v0.16.0): jobs(id, job_queue_id, task_id, …, key,
    // locked_at, locked_by), job_queues(id, queue_name, locked_at, locked_by). Same rules.
    LeaseTableConfig c = graphileJobs();
    c.table = QStringLiteral("jobs");
    c.tableOnly = true; // 0.16+ keeps a jobs view over _private_jobs
    c.release.also = "UPDATE {schema}.job_queues AS q SET locked_at = NULL, locked_by = NULL FROM u "
                     "WHERE q.id = u.job_queue_id AND q.locked_by = {holder}";
    c.scheme = QStringLiteral("graphile-worker-0.14");
    return c;
}

LeaseTableConfig graphileQueues014()
{
    LeaseTableConfig c = graphileQueues();
    c.table = QStringLiteral("job_queues");
    c.tableOnly = true;
    c.release.also = "UPDATE {schema}.jobs AS j SET locked_at = NULL, locked_by = NULL, run_at = greatest(j.run_at, "
                     "now()) FROM u WHERE j.job_queue_id = u.queue_id AND j.locked_by = {holder}";
    c.scheme = QStringLiteral("graphile-worker-queue-0.14");
    return c;
}

LeaseTableConfig graphileJobs013()
{
    // graphile-worker up to 0.13: sql/000001.sql + 000002.sql: jobs(id bigserial, queue_name text,
    // task_identifier text, …, key text, locked_at timestamptz, locked_by text), job_queues(
    // queue_name text primary key, job_count int, locked_at, locked_by). get_job (000009.sql) takes
    // a job or queue locked for more than 4 h again; nothing resets it. fail_job (000003.sql)
    // frees a job with `locked_by = null, locked_at = null where id = job_id and locked_by =
    // worker_id` and its queue `where queue_name = v_row.queue_name and locked_by = worker_id`.
    LeaseTableConfig c = graphileJobs();
    c.table = QStringLiteral("jobs");
    c.tableOnly = true;
    c.signature = {{QStringLiteral("id"), QStringLiteral("int")},
                   {QStringLiteral("key"), QStringLiteral("text")},
                   {QStringLiteral("queue_name"), QStringLiteral("text")},
                   {QStringLiteral("task_identifier"), QStringLiteral("text")},
                   {QStringLiteral("run_at"), QStringLiteral("timestamptz")},
                   {QStringLiteral("locked_at"), QStringLiteral("timestamptz")},
                   {QStringLiteral("locked_by"), QStringLiteral("text")}};
    c.release.returning = "l.queue_name";
    c.release.also = "UPDATE {schema}.job_queues AS q SET locked_at = NULL, locked_by = NULL FROM u "
                     "WHERE q.queue_name = u.queue_name AND q.locked_by = {holder}";
    c.release.words = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "unlocked as graphile-worker's own fail_job does (locked_at and locked_by cleared, run_at no earlier "
        "than now; no attempt is added), with its queue where the same worker holds it"));
    c.staleMeaning = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", "locked for more than 4 h; the next worker looking for jobs takes it again"));
    c.staleFix = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "A running worker takes it again at its next look for jobs (get_job); if none runs, force-expire frees "
        "it now."));
    c.scheme = QStringLiteral("graphile-worker-0.13");
    return c;
}

LeaseTableConfig graphileQueues013()
{
    LeaseTableConfig c = graphileJobs013();
    c.table = QStringLiteral("job_queues");
    c.exprs.name = "'queue ' || queue_name";
    c.signature = {{QStringLiteral("queue_name"), QStringLiteral("text")},
                   {QStringLiteral("job_count"), QStringLiteral("int")},
                   {QStringLiteral("locked_at"), QStringLiteral("timestamptz")},
                   {QStringLiteral("locked_by"), QStringLiteral("text")}};
    c.release.set = "locked_at = NULL, locked_by = NULL";
    c.release.returning = "l.queue_name AS qn";
    c.release.also = "UPDATE {schema}.jobs AS j SET locked_at = NULL, locked_by = NULL, run_at = greatest(j.run_at, "
                     "now()) FROM u WHERE j.queue_name = u.qn AND j.locked_by = {holder}";
    c.release.words = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "unlocked as graphile-worker's own fail_job frees a queue, with the job the same worker holds in it"));
    c.scheme = QStringLiteral("graphile-worker-queue-0.13");
    return c;
}

LeaseTableConfig liquibase()
{
    // liquibase/liquibase, CreateDatabaseChangeLogLockTableGenerator.java: databasechangeloglock(
    // ID int, LOCKED boolean, LOCKGRANTED timestamp, LOCKEDBY varchar(255)).
    // LockDatabaseChangeLogGenerator: SET LOCKED = TRUE, LOCKEDBY = 'host (address)', LOCKGRANTED =
    // NOW() WHERE ID = 1 AND LOCKED = FALSE; Unlock…Generator: SET LOCKED = FALSE, LOCKEDBY = NULL,
    // LOCKGRANTED = NULL. NOW() into a timestamp is the writer session's wall time (PgJDBC sets the
    // session's TimeZone to the JVM's): read in this database's time zone, or in the zone set for
    // the table ({zone}). No TTL: waiters give up after 5 min (changelogLockWaitTimeInMinutes), so
    // a lock held for 10 min is stuck.
    LeaseTableConfig c;
    c.table = QStringLiteral("databasechangeloglock");
    c.nameColumn = QStringLiteral("id");
    c.holderColumn = QStringLiteral("lockedby");
    c.takenAtColumn = QStringLiteral("lockgranted");
    c.expiresAtColumn = QStringLiteral("lockgranted");
    c.exprs.name = "'changelog lock ' || id::text";
    c.exprs.holder = "lockedby::text";
    c.exprs.takenAt = "lockgranted AT TIME ZONE {zone}";
    c.exprs.expiresAt = "(lockgranted AT TIME ZONE {zone}) + interval '10 minutes'";
    c.exprs.where = "locked";
    c.signature = {{QStringLiteral("id"), QStringLiteral("int")},
                   {QStringLiteral("locked"), QStringLiteral("bool")},
                   {QStringLiteral("lockgranted"), QStringLiteral("timestamp")},
                   {QStringLiteral("lockedby"), QStringLiteral("text")}};
    c.scheme = QStringLiteral("liquibase");
    c.library = QStringLiteral("Liquibase");
    c.holderFormat = LeaseTableConfig::HolderFormat::HostAddress;
    c.expectRenewals = false;
    // Force-expire is Liquibase's own unlock (UnlockDatabaseChangeLogGenerator.java, what
    // `liquibase release-locks` runs), compared with the holder and the grant time as shown.
    c.release.set = "locked = FALSE, lockgranted = NULL, lockedby = NULL";
    c.release.words = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "unlocked as Liquibase's own release does (what \"liquibase release-locks\" runs: LOCKED = FALSE, "
        "LOCKEDBY and LOCKGRANTED cleared)"));
    c.staleMeaning = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", "held for more than 10 min: a migration that died or hangs"));
    c.staleFix = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "If no migration is running any more (no session from the holder's host), free it with force-expire "
        "or `liquibase release-locks`; Liquibase never frees it by itself."));
    return c;
}

LeaseTableConfig knex()
{
    // knex/knex 3.3.0, lib/migrations/migrate/table-creator.js: knex_migrations_lock(index
    // increments primary key, is_locked integer), one row inserted with is_locked = 0 (the lock table
    // is the migrations table's name + "_lock", table-resolver.js getLockTableName()).
    // Migrator.js _lockMigrations(): UPDATE … SET is_locked = 1 WHERE is_locked = 0, else "Migration
    // table is already locked"; _freeLock(): UPDATE … SET is_locked = 0. Inside the batch's
    // transaction when every migration runs in one (a crash rolls it back, and the flag is never
    // seen set by anyone else); otherwise (disableTransactions, or a migration with
    // config.transaction = false) in its own committed transaction, so a run killed mid-way leaves
    // is_locked = 1 and every later run fails until `knex migrate:unlock`
    // (forceFreeMigrationsLock(): DELETE, then INSERT is_locked 0). No holder, no time.
    LeaseTableConfig c;
    c.table = QStringLiteral("knex_migrations_lock");
    c.nameColumn = QStringLiteral("index");
    c.holderColumn = QStringLiteral("is_locked");
    c.takenAtColumn = QStringLiteral("is_locked");
    c.expiresAtColumn = QStringLiteral("is_locked");
    c.exprs.name = "'migrations lock ' || \"index\"::text";
    c.exprs.holder = "NULL::text";
    c.exprs.takenAt = "NULL::timestamptz";
    c.exprs.expiresAt = "NULL::timestamptz";
    c.exprs.where = "is_locked <> 0";
    c.signature = {{QStringLiteral("index"), QStringLiteral("int")}, {QStringLiteral("is_locked"), QStringLiteral("int")}};
    c.scheme = QStringLiteral("knex");
    c.library = QStringLiteral("knex");
    c.holderFormat = LeaseTableConfig::HolderFormat::Opaque;
    c.expectRenewals = false;
    c.flagOnly = true;
    c.activityTable = QStringLiteral("knex_migrations");
    // Force-expire is knex's own release (_freeLock(), what a finished run does), compared with the
    // flag as shown: only a row still locked is unlocked.
    c.release.set = "is_locked = 0";
    c.release.words = QStringLiteral(QT_TRANSLATE_NOOP("lw::Libraries", 
        "unlocked as knex's own release does (is_locked = 0, what a finished run sets; `knex migrate:unlock` "
        "does the same by deleting and re-inserting the row)"));
    return c;
}

} // namespace

const std::vector<LeaseTableConfig>& leaseSchemes()
{
    static const std::vector<LeaseTableConfig> all = {mission(),      shedlock(),     river(),
                                                      oban(),         quartz(),       dbScheduler(),
                                                      graphileJobs(), graphileQueues(), graphileJobs014(),
                                                      graphileQueues014(), graphileJobs013(), graphileQueues013(),
                                                      liquibase(),    knex()};
    return all;
}

QStringList LeaseTableConfig::presetNames()
{
    QStringList out;
    for (const LeaseTableConfig& c : leaseSchemes())
        out << c.scheme;
    return out;
}

std::optional<LeaseTableConfig> LeaseTableConfig::preset(const QString& name)
{
    for (const LeaseTableConfig& c : leaseSchemes())
        if (c.scheme == name)
            return c;
    return std::nullopt;
}

} // namespace lw
