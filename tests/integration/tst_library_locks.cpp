// Issue 25: the advisory locks of real migration tools and job queues are named, not bare numbers,
// in `snapshot --json` and in the Locks page's model: node-pg-migrate's constant, Rails' key for
// the database, pg-boss's sha224 key for a schema holding its tables (computed with pg-boss's own
// SQL, timgit/pg-boss src/plans.ts advisoryLock()), Flyway's key for a history table found. The
// holders take them as the libraries do (pg_try_advisory_lock / pg_advisory_xact_lock). GoodJob's
// per-job and per-process keys, named from the rows that can hold one.
#include "Programs.h"
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

        // Prisma Migrate (prisma-engines, sql-schema-connector/src/flavour/postgres.rs acquire_lock()):
        // its engines download at install and cannot run here, so its own statement, as it sends it.
        pg::Connection prisma = openAppSession(db.dsn(), "prisma-migrate");
        runOn(prisma, "SELECT pg_advisory_lock(72707369)");
        // pg-boss 12 (dist/plans.js failJobsByTimeout()): a job table's own maintenance key.
        pg::Connection boss12 = openAppSession(db.dsn(), "pgboss12");
        runOn(boss12, "BEGIN");
        runOn(boss12, "SELECT pg_advisory_xact_lock(('x' || encode(sha224((current_database() || "
                      "'.pgboss.pgboss' || 'job' || 'failJobsByTimeout')::bytea), 'hex'))::bit(64)::bigint)");

        const QString rails_ = QStringLiteral("Rails migration lock (database %1)").arg(db.name());
        const QString npm_ = QStringLiteral("node-pg-migrate migration lock (database %1)").arg(db.name());
        const QString boss_ = QStringLiteral("pg-boss maintenance lock (schema pgboss)");
        const QString flyway_ = QStringLiteral("Flyway migration lock (\"billing\".\"flyway_schema_history\")");

        const auto r = test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QMap<int, QString> byPid;
        for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8())["advisory_locks"].toArray())
            byPid[v.toObject()["pid"].toInt()] = v.toObject()["name"].toString();
        QCOMPARE(byPid.value(npm.backendPid()), npm_);
        QCOMPARE(byPid.value(rails.backendPid()), rails_);
        QCOMPARE(byPid.value(boss.backendPid()), boss_);
        QCOMPARE(byPid.value(flyway.backendPid()), flyway_);
        QCOMPARE(byPid.value(prisma.backendPid()), QStringLiteral("Prisma Migrate migration lock (database %1)").arg(db.name()));
        QCOMPARE(byPid.value(boss12.backendPid()), QStringLiteral("pg-boss failJobsByTimeout lock (schema pgboss, table job)"));

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

    // GoodJob: its session-level locks are md5 of a row's id, so they are named from the rows that
    // can hold one, joined with the keys held now: a running job (GoodJob's `running` scope) and a
    // process. Tables as GoodJob's install migration creates them (the columns this uses; bensheldon/
    // good_job lib/generators/good_job/templates/install/migrations/create_good_jobs.rb.erb), locks as
    // it takes them (app/models/concerns/good_job/advisory_lockable.rb, default md5 function).
    void goodJobLocksAreNamedFromTheirRows()
    {
        test::TestDatabase db("goodjob");
        db.exec("CREATE SCHEMA jobs");
        db.exec("CREATE TABLE jobs.good_jobs (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), queue_name text, "
                "priority integer, serialized_params jsonb, scheduled_at timestamp(6), performed_at timestamp(6), "
                "finished_at timestamp(6), error text, created_at timestamp(6) NOT NULL DEFAULT now(), "
                "updated_at timestamp(6) NOT NULL DEFAULT now(), active_job_id uuid, concurrency_key text, "
                "job_class text)");
        db.exec("CREATE INDEX index_good_jobs_on_scheduled_at ON jobs.good_jobs (scheduled_at) WHERE finished_at IS NULL");
        db.exec("CREATE TABLE jobs.good_job_processes (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), "
                "created_at timestamp(6) NOT NULL DEFAULT now(), updated_at timestamp(6) NOT NULL DEFAULT now(), "
                "state jsonb)");
        db.exec("INSERT INTO jobs.good_jobs (queue_name, job_class, scheduled_at, performed_at) VALUES "
                "('default', 'NightlyReportJob', now(), now())");
        db.exec("INSERT INTO jobs.good_jobs (queue_name, job_class, scheduled_at, performed_at, finished_at) "
                "SELECT 'default', 'DoneJob', now(), now(), now() FROM generate_series(1, 1000)");
        db.exec("INSERT INTO jobs.good_job_processes (state) VALUES ('{}')");
        const QString job = db.value("SELECT id::text FROM jobs.good_jobs WHERE finished_at IS NULL");
        const QString process = db.value("SELECT id::text FROM jobs.good_job_processes");

        pg::Connection worker = openAppSession(db.dsn(), "good_job");
        runOn(worker, "SELECT pg_try_advisory_lock(('x' || substr(md5('good_jobs' || '-' || '" + job.toUtf8() +
                          "'::uuid::text), 1, 16))::bit(64)::bigint)");
        pg::Connection proc = openAppSession(db.dsn(), "good_job");
        runOn(proc, "SELECT pg_try_advisory_lock(('x' || substr(md5('good_job_processes' || '-' || '" +
                        process.toUtf8() + "'::uuid::text), 1, 16))::bit(64)::bigint)");
        const QString jobName = QStringLiteral("GoodJob job %1 (schema jobs)").arg(job);
        const QString processName = QStringLiteral("GoodJob process %1 (schema jobs)").arg(process);

        // One refresh (a one-shot snapshot) names them already.
        const auto r = test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QMap<int, QString> byPid;
        for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8())["advisory_locks"].toArray())
            byPid[v.toObject()["pid"].toInt()] = v.toObject()["name"].toString();
        QCOMPARE(byPid.value(worker.backendPid()), jobName);
        QCOMPARE(byPid.value(proc.backendPid()), processName);

        // The window: named while held; a job that starts later is named on the next refreshes.
        Monitor m(test::pollerConfig(db.dsn(), 200));
        m.start();
        auto shown = [&] {
            QStringList out;
            for (int i = 0; i < m.locks()->rowCount(); ++i)
                for (int c = 0; c < m.locks()->columnCount(); ++c)
                    out << m.locks()->index(i, c).data().toString();
            return out;
        };
        QTRY_VERIFY_WITH_TIMEOUT(shown().contains(jobName) && shown().contains(processName), 10000);
        db.exec("INSERT INTO jobs.good_jobs (queue_name, job_class, scheduled_at, performed_at) VALUES "
                "('default', 'LateJob', now(), now())");
        const QString late = db.value("SELECT id::text FROM jobs.good_jobs WHERE job_class = 'LateJob'");
        pg::Connection worker2 = openAppSession(db.dsn(), "good_job");
        runOn(worker2, "SELECT pg_try_advisory_lock(('x' || substr(md5('good_jobs' || '-' || '" + late.toUtf8() +
                           "'::uuid::text), 1, 16))::bit(64)::bigint)");
        // Within a few refreshes, not when the locks gate next reads pg_locks anyway (10 s).
        QTRY_VERIFY_WITH_TIMEOUT(shown().contains(QStringLiteral("GoodJob job %1 (schema jobs)").arg(late)), 4000);
    }
};

QTEST_MAIN(TstLibraryLocks)
#include "tst_library_locks.moc"
