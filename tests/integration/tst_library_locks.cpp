// Issue 25: the advisory locks of real migration tools and job queues are named, not bare numbers,
// in `snapshot --json` and in the Locks page's model: node-pg-migrate's constant, Rails' key for
// the database, pg-boss's sha224 key for a schema holding its tables (computed with pg-boss's own
// SQL, timgit/pg-boss src/plans.ts advisoryLock()), Flyway's key for a history table found. The
// holders take them as the libraries do (pg_try_advisory_lock / pg_advisory_xact_lock).
#include "Monitor.h"
#include "TestCluster.h"
#include "domain/LibraryKeys.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace lw;

using test::openAppSession;
using test::runOn;

class TstLibraryLocks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void libraryLocksAreNamed()
    {
        test::TestDatabase db("libkeys");
        db.exec("CREATE SCHEMA pgboss; CREATE TABLE pgboss.version(version int); CREATE TABLE pgboss.job(id uuid)");
        db.exec("CREATE SCHEMA billing; CREATE TABLE billing.flyway_schema_history(installed_rank int primary key)");
        // node-pg-migrate (src/runner.ts): SELECT pg_try_advisory_lock(${lockValue}), on a session
        // without application_name (node-postgres sets none by default).
        pg::Connection npm = openAppSession(db.dsn(), QString());
        runOn(npm, "SELECT pg_try_advisory_lock(7241865325823964)");
        // Rails (postgresql_adapter.rb): SELECT pg_try_advisory_lock(#{lock_id}), lock_id for this database.
        pg::Connection rails = openAppSession(db.dsn(), "rails-migrate");
        runOn(rails, "SELECT pg_try_advisory_lock(" + QByteArray::number(railsMigratorLockKey(db.name())) + ")");
        // pg-boss: a transaction-level lock inside its maintenance transaction, left open here.
        pg::Connection boss = openAppSession(db.dsn(), "pgboss");
        runOn(boss, "BEGIN");
        runOn(boss, "SELECT pg_advisory_xact_lock(('x' || encode(sha224((current_database() || "
                  "'.pgboss.pgboss')::bytea), 'hex'))::bit(64)::bigint)");
        // Flyway (PostgreSQLAdvisoryLockTemplate): pg_try_advisory_lock(77431708279161 + hashCode).
        pg::Connection flyway = openAppSession(db.dsn(), "flyway");
        runOn(flyway, "SELECT pg_try_advisory_lock(" + QByteArray::number(flywayLockKey("billing", "flyway_schema_history")) + ")");

        const QString rails_ = QStringLiteral("Rails migration lock (database %1)").arg(db.name());
        const QString npm_ = QStringLiteral("node-pg-migrate migration lock (database %1)").arg(db.name());
        const QString boss_ = QStringLiteral("pg-boss maintenance lock (schema pgboss)");
        const QString flyway_ = QStringLiteral("Flyway migration lock (\"billing\".\"flyway_schema_history\")");

        const auto r = test::runProcess(QStringLiteral(LEASEWATCH_BIN), {"snapshot", db.dsn(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QMap<int, QString> byPid;
        for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8())["advisory_locks"].toArray())
            byPid[v.toObject()["pid"].toInt()] = v.toObject()["name"].toString();
        QCOMPARE(byPid.value(npm.backendPid()), npm_);
        QCOMPARE(byPid.value(rails.backendPid()), rails_);
        QCOMPARE(byPid.value(boss.backendPid()), boss_);
        QCOMPARE(byPid.value(flyway.backendPid()), flyway_);

        // The Locks page: the same names in its model, and the idle migration locks' finding
        // speaks of a migration run, naming the session without application_name by its address.
        Monitor m(test::pollerConfig(db.dsn(), 200));
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(m.locks()->rowCount() >= 4, 10000);
        QStringList shown;
        for (int i = 0; i < m.locks()->rowCount(); ++i)
            for (int c = 0; c < m.locks()->columnCount(); ++c)
                shown << m.locks()->index(i, c).data().toString();
        for (const QString& n : {npm_, rails_, boss_, flyway_})
            QVERIFY2(shown.contains(n), qPrintable(n));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int i = 0; i < m.findings()->rowCount(); ++i) {
                    const Finding& f = m.findings()->finding(i);
                    if (f.kind == FindingKind::IdleHoldingAdvisory && f.subject == QString::number(npm.backendPid()))
                        return f.explanation.contains("migration") && f.title.contains("no application_name");
                }
                return false;
            }(),
            20000);
    }
};

QTEST_MAIN(TstLibraryLocks)
#include "tst_library_locks.moc"
