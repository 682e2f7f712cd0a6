#include "LibraryKeys.h"

#include <array>

namespace lw {

quint32 zlibCrc32(QByteArrayView bytes)
{
    static const std::array<quint32, 256> table = [] {
        std::array<quint32, 256> t{};
        for (quint32 i = 0; i < 256; ++i) {
            quint32 c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    quint32 c = 0xFFFFFFFFu;
    for (char ch : bytes)
        c = table[(c ^ quint8(ch)) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

qint32 javaStringHashCode(const QString& s)
{
    quint32 h = 0;
    for (QChar c : s)
        h = 31 * h + c.unicode();
    return qint32(h);
}

qint64 railsMigratorLockKey(const QString& database)
{
    // Ruby integers do not overflow; 2053462845 * (2^32 - 1) < 2^63, so int64 is exact here.
    return qint64(2053462845) * qint64(zlibCrc32(database.toUtf8()));
}

qint64 flywayLockKey(const QString& schema, const QString& table)
{
    // SchemaObject.toString() = database.quote(schema, table): each part in double quotes, inner
    // quotes doubled (PostgreSQLDatabase.doQuote).
    auto quote = [](QString s) { return QLatin1Char('"') + s.replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"'); };
    return qint64(77431708279161LL) + qint64(javaStringHashCode(quote(schema) + QLatin1Char('.') + quote(table)));
}

QByteArray libraryKeysSql()
{
    // pg-boss's keys: locked(schema, …, key) calls in src/plans.ts ('' for install and migrations),
    // for each schema that holds its tables and for its default schema, 'pgboss' (pg-boss 10.4.2
    // src/plans.js:1 DEFAULT_SCHEMA, src/attorney.js:182 config.schema || DEFAULT_SCHEMA), whose
    // key its first install takes before any table exists (src/plans.js:95 create() returns
    // locked(schema, commands), the first command CREATE SCHEMA IF NOT EXISTS): a second instance
    // starting meanwhile waits on it. pg-boss 12 (12.38.1 dist/plans.js) adds 'bamClaim' and, per
    // job table (queue.table_name: 'job_common' for the shared table, 'job' without partitioning,
    // 'j' || sha224(queue name) for a queue with its own partition),
    // table + 'failJobsByTimeout' / 'failJobsByHeartbeat' / 'deletion' / 'cleanupDependencies'; the
    // job tables are read from the catalogue, which needs no privilege on pg-boss's own.
    return "WITH boss(nspname) AS (SELECT n.nspname::text FROM pg_namespace n "
           "WHERE EXISTS (SELECT 1 FROM pg_class j WHERE j.relnamespace = n.oid AND j.relname = 'job') "
           "AND EXISTS (SELECT 1 FROM pg_class v WHERE v.relnamespace = n.oid AND v.relname = 'version') "
           "UNION SELECT 'pgboss') "
           "SELECT 'flyway', n.nspname::text || '.' || c.relname::text, NULL::int8 "
           "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
           "WHERE c.relname = 'flyway_schema_history' AND c.relkind IN ('r', 'p') "
           "UNION ALL "
           "SELECT 'pg-boss', n.nspname || CASE WHEN k = '' THEN '' ELSE ' ' || k END, "
           "('x' || encode(sha224((current_database() || '.pgboss.' || n.nspname || k)::bytea), 'hex'))::bit(64)::int8 "
           "FROM boss n CROSS JOIN unnest(ARRAY['', 'create-queue', 'delete-queue', 'queue-stats-insert', "
           "'queue-stats', 'bamClaim']) AS k "
           "UNION ALL "
           "SELECT 'pg-boss', n.nspname || ' ' || k || ' ' || c.relname::text, "
           "('x' || encode(sha224((current_database() || '.pgboss.' || n.nspname || c.relname::text || k)::bytea), "
           "'hex'))::bit(64)::int8 "
           "FROM boss n JOIN pg_namespace s ON s.nspname = n.nspname JOIN pg_class c ON c.relnamespace = s.oid "
           "AND c.relkind IN ('r', 'p') AND (c.relname IN ('job', 'job_common') OR c.relname ~ '^j[0-9a-f]{56}$') "
           "CROSS JOIN unnest(ARRAY['failJobsByTimeout', 'failJobsByHeartbeat', 'deletion', 'cleanupDependencies']) "
           "AS k "
           "UNION ALL "
           "SELECT 'pg-boss', n.nspname || ' (before v10)', "
           "('x' || md5(current_database() || '.pgboss.' || n.nspname))::bit(64)::int8 "
           "FROM boss n "
           "UNION ALL "
           "SELECT 'goodjob', n.nspname::text, CASE WHEN EXISTS (SELECT 1 FROM pg_class p WHERE p.relnamespace = "
           "n.oid AND p.relname = 'good_job_processes' AND p.relkind IN ('r', 'p') AND "
           "has_table_privilege(p.oid, 'SELECT')) THEN 1 ELSE 0 END::int8 "
           "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
           "WHERE c.relname = 'good_jobs' AND c.relkind IN ('r', 'p') "
           "AND has_table_privilege(c.oid, 'SELECT')";
}

QByteArray goodJobLockSql(const std::vector<GoodJobSchema>& schemas)
{
    // The held keys first (few), then only the rows that can hold one: a running job, a process.
    QByteArray sql = "WITH held AS (SELECT DISTINCT (l.classid::int8 << 32) | l.objid::int8 AS k FROM pg_locks l "
                     "WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.database = "
                     "(SELECT oid FROM pg_database WHERE datname = current_database())) ";
    QByteArrayList parts;
    for (const GoodJobSchema& g : schemas) {
        const QByteArray lit = "'" + g.schema.toUtf8().replace('\'', "''") + "'";
        parts << "SELECT 'job', j.id::text, " + lit + ", held.k FROM " + g.quotedSchema +
                     ".good_jobs j JOIN held ON held.k = ('x' || substr(md5('good_jobs' || '-' || j.id::text), 1, "
                     "16))::bit(64)::int8 WHERE j.performed_at IS NOT NULL AND j.finished_at IS NULL";
        if (g.processes)
            parts << "SELECT 'process', p.id::text, " + lit + ", held.k FROM " + g.quotedSchema +
                         ".good_job_processes p JOIN held ON held.k = ('x' || substr(md5('good_job_processes' || "
                         "'-' || p.id::text), 1, 16))::bit(64)::int8";
    }
    return sql + parts.join(" UNION ALL ");
}

QString goodJobLockName(const QString& what, const QString& id, const QString& schema)
{
    return what == QLatin1String("process") ? QStringLiteral("GoodJob process %1 (schema %2)").arg(id, schema)
                                            : QStringLiteral("GoodJob job %1 (schema %2)").arg(id, schema);
}

void addLibraryKey(LibraryKeyNames& into, const QString& kind, const QString& label, const std::optional<qint64>& key)
{
    if (kind == QLatin1String("flyway")) {
        const qsizetype dot = label.indexOf(QLatin1Char('.'));
        const QString schema = label.left(dot), table = label.mid(dot + 1);
        into.insert(flywayLockKey(schema, table),
                    QStringLiteral("Flyway migration lock (\"%1\".\"%2\")").arg(schema, table));
    } else if (kind == QLatin1String("pg-boss") && key) {
        const qsizetype sp = label.indexOf(QLatin1Char(' '));
        const QString schema = sp < 0 ? label : label.left(sp);
        const QString what = sp < 0 ? QString() : label.mid(sp + 1);
        const qsizetype tableSp = what.startsWith(QLatin1Char('(')) ? -1 : what.indexOf(QLatin1Char(' '));
        into.insert(*key, what.isEmpty() || what.startsWith(QLatin1Char('('))
                              ? QStringLiteral("pg-boss maintenance lock (schema %1%2)")
                                    .arg(schema, what.isEmpty() ? QString() : QLatin1Char(' ') + what)
                          : tableSp > 0 // a job table's: "failJobsByTimeout job"
                              ? QStringLiteral("pg-boss %1 lock (schema %2, table %3)")
                                    .arg(what.left(tableSp), schema, what.mid(tableSp + 1))
                              : QStringLiteral("pg-boss %1 lock (schema %2)").arg(what, schema));
    }
}

QString libraryLockName(const AdvisoryLockRow& l, const LibraryKeyNames& serverKeys)
{
    if (l.twoKeys)
        return {};
    if (const auto it = serverKeys.constFind(l.key); it != serverKeys.constEnd())
        return *it;
    if (l.key == kNodePgMigrateLockKey)
        return QStringLiteral("node-pg-migrate migration lock (database %1)").arg(l.database);
    if (l.key == kKyselyLockKey)
        return QStringLiteral("Kysely migration lock (database %1)").arg(l.database);
    if (l.key == kPrismaLockKey)
        return QStringLiteral("Prisma Migrate migration lock (database %1)").arg(l.database);
    if (l.key == kPostgresMigrationsLockKey)
        return QStringLiteral("postgres-migrations migration lock (database %1)").arg(l.database);
    if (l.key == kGraphileMigrateLockKey)
        return QStringLiteral("graphile-migrate migration lock (database %1)").arg(l.database);
    if (!l.database.isEmpty() && l.key == railsMigratorLockKey(l.database))
        return QStringLiteral("Rails migration lock (database %1)").arg(l.database);
    // Flyway's default history table, also where the console cannot see the catalogue.
    if (l.key == flywayLockKey(QStringLiteral("public"), QStringLiteral("flyway_schema_history")))
        return QStringLiteral("Flyway migration lock (\"public\".\"flyway_schema_history\")");
    return {};
}

bool isMigrationLockName(const QString& name)
{
    return name.contains(QLatin1String(" migration lock ("));
}

} // namespace lw
