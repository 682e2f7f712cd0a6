#pragma once
// Advisory keys that coordination libraries derive their own way, not with hashtext(): a held key
// reads "Rails migration lock (database app)" instead of a bare number. Formulas copied from each
// library's source (see the .cpp). Keys whose formula is SQL are computed on the monitored server
// (libraryKeysSql(), pg-boss's sha224); those that are not SQL (zlib crc32, Java's
// String.hashCode) are computed here, per lock, from the lock's own database.
#include "Snapshot.h"

#include <QByteArrayView>
#include <QHash>
#include <QString>

namespace lw {

// key → name, for keys computed on the server (and Flyway's, for the history tables found there).
using LibraryKeyNames = QHash<qint64, QString>;

// node-pg-migrate: `export const PG_MIGRATE_LOCK_ID = 7_241_865_325_823_964;` (salsita/node-pg-migrate,
// src/runner.ts), session-level, taken before its BEGIN.
inline constexpr qint64 kNodePgMigrateLockKey = 7241865325823964;
// Constant keys of the other migration tools, each read in the library's source:
// Kysely 0.29.9, src/dialect/postgres/postgres-adapter.ts: LOCK_ID = 3853314791062309107, a
// session-level pg_advisory_lock (lock_timeout 1 h) on the connection the migrations run on.
inline constexpr qint64 kKyselyLockKey = 3853314791062309107;
// Prisma Migrate (prisma-engines, schema-engine/connectors/sql-schema-connector/src/flavour/
// postgres.rs, acquire_lock()): SELECT pg_advisory_lock(72707369), given up after 10 s.
inline constexpr qint64 kPrismaLockKey = 72707369;
// postgres-migrations 5.3.0, src/with-lock.ts: pg_try_advisory_lock(-8525285245963000605) retried
// every second, so a second run never shows as a lock wait.
inline constexpr qint64 kPostgresMigrationsLockKey = -8525285245963000605;
// graphile-migrate 1.4.1, src/pgReal.ts: ADVISORY_LOCK_MIGRATE = 4727445306447283 ("GRAPHILE
// MIGRATE" on a phone keypad), pg_try_advisory_lock: a second run fails at once.
inline constexpr qint64 kGraphileMigrateLockKey = 4727445306447283;

quint32 zlibCrc32(QByteArrayView bytes);      // IEEE 802.3, as Ruby's Zlib.crc32
qint32 javaStringHashCode(const QString& s); // Java's String.hashCode over UTF-16 code units
// Rails: MIGRATOR_SALT (2053462845) * Zlib.crc32(current_database) (activerecord/lib/active_record/migration.rb).
qint64 railsMigratorLockKey(const QString& database);
// Flyway: 77431708279161 ("Flyway" in ASCII) + "\"schema\".\"table\"".hashCode()
// (flyway-database-postgresql, PostgreSQLAdvisoryLockTemplate.java, PostgreSQLConnection.lock).
qint64 flywayLockKey(const QString& schema, const QString& table);

// One statement, at connect: Flyway's history tables (schema, table) and pg-boss's keys for each
// schema that holds its tables, computed with pg-boss's own SQL (timgit/pg-boss, src/plans.ts,
// advisoryLock(): sha224 since v10, md5 before). Columns: kind, label, key (NULL for Flyway).
QByteArray libraryKeysSql();
// The same statement also lists the schemas holding GoodJob's tables (kind "goodjob", label the
// schema, key 1 when good_job_processes is there too, else 0): their keys are md5 of a row's id,
// known only for the rows, so they are resolved per refresh (goodJobLockSql), not here.
// Adds one row of that statement's result (a "goodjob" row adds no key).
void addLibraryKey(LibraryKeyNames& into, const QString& kind, const QString& label, const std::optional<qint64>& key);

// GoodJob (bensheldon/good_job 4.19, app/models/concerns/good_job/advisory_lockable.rb,
// advisory_lock_bigint_sql with the default md5 hash function): a job's session-level lock is
// pg_try_advisory_lock(('x' || substr(md5('good_jobs' || '-' || id::text), 1, 16))::bit(64)::bigint),
// a process's the same over 'good_job_processes'. One statement for the schemas given (already
// quoted) joins this database's advisory locks held or awaited now with the running jobs only
// (GoodJob's own `running` scope, app/models/good_job/job.rb: performed_at IS NOT NULL AND
// finished_at IS NULL), never the whole jobs table, and with the processes. Columns: what
// ("job" / "process"), id, schema, key.
struct GoodJobSchema
{
    QByteArray quotedSchema;
    QString schema;
    bool processes = false;
};
QByteArray goodJobLockSql(const std::vector<GoodJobSchema>& schemas);
QString goodJobLockName(const QString& what, const QString& id, const QString& schema);

// The library lock this bigint key is in its database, or an empty string.
QString libraryLockName(const AdvisoryLockRow& l, const LibraryKeyNames& serverKeys);
// Whether a resolved name is a library's migration lock (advice: a migration run that died or hangs).
bool isMigrationLockName(const QString& name);

} // namespace lw
