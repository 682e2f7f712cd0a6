// Library advisory keys (issue 25): the console's own computations of the formulas that are not SQL,
// against values worked out independently (Python's zlib.crc32 and a Java-style 32-bit hash, see
// the libraries' notes), and the names a held key gets.
#include "domain/Analysis.h"
#include "domain/LibraryKeys.h"

#include <QtTest>

using namespace lw;

class TstLibraryKeys : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formulasMatchTheLibraries()
    {
        QCOMPARE(zlibCrc32("app"), 3379458255u);
        QCOMPARE(railsMigratorLockKey("app"), Q_INT64_C(6939591962871035475));
        QCOMPARE(railsMigratorLockKey("postgres"), Q_INT64_C(737815420147457505));
        QCOMPARE(railsMigratorLockKey("myapp_production"), Q_INT64_C(8572362244439197575));
        QCOMPARE(javaStringHashCode("\"public\".\"flyway_schema_history\""), 2125624436);
        QCOMPARE(flywayLockKey("public", "flyway_schema_history"), Q_INT64_C(77433833903597));
        QCOMPARE(flywayLockKey("app", "flyway_schema_history"), Q_INT64_C(77431436970681));
        QCOMPARE(kNodePgMigrateLockKey, Q_INT64_C(7241865325823964));
        // Kysely's key as pg_locks shows it (classid, objid): the pair its issues quote.
        QCOMPARE(kKyselyLockKey >> 32, Q_INT64_C(897169763));
        QCOMPARE(kKyselyLockKey & 0xffffffff, Q_INT64_C(17238259));
    }

    void heldKeysAreNamed()
    {
        AdvisoryLockRow l;
        l.database = "app";
        l.key = kNodePgMigrateLockKey;
        QCOMPARE(libraryLockName(l, {}), QStringLiteral("node-pg-migrate migration lock (database app)"));
        l.key = railsMigratorLockKey("app");
        QCOMPARE(libraryLockName(l, {}), QStringLiteral("Rails migration lock (database app)"));
        l.database = "other"; // the same number in another database is not that database's Rails lock
        QVERIFY(libraryLockName(l, {}).isEmpty());
        LibraryKeyNames server;
        addLibraryKey(server, "pg-boss", "pgboss create-queue", Q_INT64_C(-4562718475563713975));
        addLibraryKey(server, "flyway", "billing.flyway_schema_history", std::nullopt);
        l.key = Q_INT64_C(-4562718475563713975);
        QCOMPARE(libraryLockName(l, server), QStringLiteral("pg-boss create-queue lock (schema pgboss)"));
        l.key = flywayLockKey("billing", "flyway_schema_history");
        QCOMPARE(libraryLockName(l, server), QStringLiteral("Flyway migration lock (\"billing\".\"flyway_schema_history\")"));
        QVERIFY(isMigrationLockName(libraryLockName(l, server)));
        // pg-boss 12's per-table keys name the job table.
        addLibraryKey(server, "pg-boss", "pgboss failJobsByTimeout job", Q_INT64_C(42));
        l.key = 42;
        QCOMPARE(libraryLockName(l, server), QStringLiteral("pg-boss failJobsByTimeout lock (schema pgboss, table job)"));
        // The migration tools' constant keys.
        const std::pair<qint64, const char*> tools[] = {
            {kKyselyLockKey, "Kysely migration lock (database app)"},
            {kPrismaLockKey, "Prisma Migrate migration lock (database app)"},
            {kPostgresMigrationsLockKey, "postgres-migrations migration lock (database app)"},
            {kGraphileMigrateLockKey, "graphile-migrate migration lock (database app)"}};
        l.database = "app";
        for (const auto& [key, name] : tools) {
            l.key = key;
            QCOMPARE(libraryLockName(l, {}), QString::fromLatin1(name));
            QVERIFY(isMigrationLockName(libraryLockName(l, {})));
        }
    }

    void sessionsWithoutApplicationNameAreNamedByAddress()
    {
        SessionRow s;
        s.pid = 22134;
        s.clientAddr = "10.0.0.7";
        QCOMPARE(sessionName(22134, &s, true), QStringLiteral("pid 22134 from 10.0.0.7, no application_name"));
        s.clientAddr.clear();
        QCOMPARE(sessionName(22134, &s, true), QStringLiteral("pid 22134 (local, no application_name)"));
        s.applicationName = "billing-api";
        s.clientAddr = "10.0.0.7";
        QCOMPARE(sessionName(22134, &s, true, "idle"), QStringLiteral("pid 22134 (billing-api on 10.0.0.7, idle)"));
        QCOMPARE(sessionName(22134, nullptr, true), QStringLiteral("pid 22134"));
    }
};

QTEST_GUILESS_MAIN(TstLibraryKeys)
#include "tst_librarykeys.moc"
