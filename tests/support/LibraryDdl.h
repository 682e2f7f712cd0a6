#pragma once
// The libraries' own tables, for the tests that create them. Every DDL is copied from the library's
// source (file named with it; the SQL facts and commits are in models/domain/LeaseSchemes.cpp).

namespace lw::test {

// lukas-krecan/ShedLock, README.md "Postgres"
inline constexpr const char* kShedLockDdl = "CREATE TABLE shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL, "
                           "locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))";
// riverqueue/river, riverdriver/riverpgxv5/migration/main/002_initial_schema.up.sql, then 004's
// ALTER (name DEFAULT 'default', CHECK (name = 'default'))
inline constexpr const char* kRiverDdl = "CREATE UNLOGGED TABLE river_leader(elected_at timestamptz NOT NULL, expires_at timestamptz "
                        "NOT NULL, leader_id text NOT NULL, name text PRIMARY KEY DEFAULT 'default', CONSTRAINT "
                        "name_length CHECK (name = 'default'), CONSTRAINT leader_id_length CHECK "
                        "(char_length(leader_id) > 0 AND char_length(leader_id) < 128))";
// oban-bg/oban, lib/oban/migrations/postgres/v11.ex (Ecto: :utc_datetime_usec is timestamp)
inline constexpr const char* kObanDdl = "CREATE UNLOGGED TABLE oban_peers(name text NOT NULL, node text NOT NULL, started_at "
                       "timestamp NOT NULL, expires_at timestamp NOT NULL, PRIMARY KEY (name))";
// quartz-scheduler/quartz, quartz/src/main/resources/org/quartz/impl/jdbcjobstore/tables_postgres.sql
inline constexpr const char* kQuartzDdl = "CREATE TABLE QRTZ_SCHEDULER_STATE (SCHED_NAME VARCHAR(120) NOT NULL, INSTANCE_NAME "
                         "VARCHAR(200) NOT NULL, LAST_CHECKIN_TIME BIGINT NOT NULL, CHECKIN_INTERVAL BIGINT NOT "
                         "NULL, PRIMARY KEY (SCHED_NAME,INSTANCE_NAME))";
// kagkarlsson/db-scheduler, db-scheduler/src/test/resources/postgresql_tables.sql
inline constexpr const char* kDbSchedulerDdl =
    "create table scheduled_tasks (task_name text not null, task_instance text not null, task_data bytea, "
    "execution_time timestamp with time zone not null, picked BOOLEAN not null, picked_by text, last_success "
    "timestamp with time zone, last_failure timestamp with time zone, consecutive_failures INT, last_heartbeat "
    "timestamp with time zone, version BIGINT not null, priority SMALLINT, PRIMARY KEY (task_name, task_instance))";
// graphile/worker, sql/000011.sql (tables), renamed to _private_* by sql/000016.sql
inline constexpr const char* kGraphileDdl =
    "create schema graphile_worker; "
    "create table graphile_worker._private_job_queues (id int primary key generated always as identity, "
    "queue_name text not null unique check (length(queue_name) <= 128), locked_at timestamptz, locked_by text, "
    "is_available boolean generated always as ((locked_at is null)) stored not null); "
    "create table graphile_worker._private_jobs (id bigint primary key generated always as identity, job_queue_id "
    "int null, task_id int not null, payload json default '{}'::json not null, priority smallint default 0 not "
    "null, run_at timestamptz default now() not null, attempts smallint default 0 not null, max_attempts smallint "
    "default 25 not null constraint jobs_max_attempts_check check (max_attempts >= 1), last_error text, "
    "created_at timestamptz default now() not null, updated_at timestamptz default now() not null, key text "
    "unique constraint jobs_key_check check (length(key) > 0 and length(key) <= 512), locked_at timestamptz, "
    "locked_by text, revision integer default 0 not null, flags jsonb, is_available boolean generated always as "
    "(((locked_at is null) and (attempts < max_attempts))) stored not null)";
// graphile-worker up to 0.13, sql/000001.sql with 000002.sql's key, locked_at, locked_by and
// 000003.sql's nullable queue_name; get_job's locking updates (sql/000009.sql) for one job.
inline constexpr const char* kGraphile013Ddl =
    "create schema gw13; create table gw13.job_queues (queue_name text not null primary key, job_count int not "
    "null, locked_at timestamptz, locked_by text); create table gw13.jobs (id bigserial primary key, queue_name "
    "text, task_identifier text not null, payload json default '{}'::json not null, priority int default 0 not "
    "null, run_at timestamptz default now() not null, attempts int default 0 not null, max_attempts int default 25 "
    "not null, last_error text, created_at timestamp with time zone not null default now(), updated_at timestamp "
    "with time zone not null default now(), key text unique check(length(key) > 0), locked_at timestamptz, "
    "locked_by text)";
QString graphile013Take(const QString& key, const QString& queue, const QString& workerId, int agoS)
{
    return QStringLiteral("insert into gw13.job_queues (queue_name, job_count) values ('%2', 1); insert into gw13.jobs "
                          "(queue_name, task_identifier, key) values ('%2', 'send', '%1'); update gw13.job_queues set "
                          "locked_by = '%3', locked_at = now() - make_interval(secs => %4) where job_queues.queue_name "
                          "= '%2'; update gw13.jobs set attempts = attempts + 1, locked_by = '%3', locked_at = now() - "
                          "make_interval(secs => %4) where key = '%1'")
        .arg(key, queue, workerId)
        .arg(agoS);
}

// liquibase/liquibase, CreateDatabaseChangeLogLockTableGenerator.java as rendered on PostgreSQL, and
// InitializeDatabaseChangeLogLockTableGenerator's row
inline constexpr const char* kLiquibaseDdl = "CREATE TABLE public.databasechangeloglock (ID INTEGER NOT NULL, LOCKED BOOLEAN NOT "
                            "NULL, LOCKGRANTED TIMESTAMP WITHOUT TIME ZONE, LOCKEDBY VARCHAR(255), CONSTRAINT "
                            "databasechangeloglock_pkey PRIMARY KEY (ID)); "
                            "DELETE FROM public.databasechangeloglock; "
                            "INSERT INTO public.databasechangeloglock (ID, LOCKED) VALUES (1, FALSE)";

} // namespace lw::test
