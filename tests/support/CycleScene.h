#pragma once
// Issue 52's cycle with real statements, for the tests that look at it: deploy 1 holds its
// migration lock (advisory 4242) on one idle session and builds an index concurrently on another;
// deploy 2's migrator, in a transaction that read the table, waits for the lock. The build waits
// for deploy 2's snapshot; PostgreSQL sees a chain, not a cycle, and never breaks it.
#include "TestCluster.h"

#include <QProcess>
#include <QTest>

namespace lw::test {

class CycleScene
{
public:
    explicit CycleScene(const TestDatabase& db)
        : db_(db), lock_(openAppSession(db.dsn(), QStringLiteral("deploy-1")))
    {
        db.exec("CREATE TABLE orders(id int PRIMARY KEY, customer_id int); "
                "INSERT INTO orders SELECT g, g % 100 FROM generate_series(1, 1000) g");
        runOn(lock_, "SELECT pg_advisory_lock(4242)");
        lockPid = lock_.backendPid();
    }
    ~CycleScene()
    {
        for (QProcess* p : {&migrator, &build}) {
            p->kill();
            p->waitForFinished();
        }
    }
    // Starts both waits; false (with the reason in `why`) if they did not come to wait in time.
    bool start(QString* why)
    {
        psql(migrator, "deploy-2", {"BEGIN", "SELECT count(*) FROM orders", "SELECT pg_advisory_lock(4242)"});
        if (!QTest::qWaitFor([&] { return (migratorPid = pidOf("deploy-2", "advisory")) > 0; }, 10000)) {
            *why = QStringLiteral("deploy 2 did not wait for the lock");
            return false;
        }
        psql(build, "deploy-1", {"CREATE INDEX CONCURRENTLY orders_customer ON orders (customer_id)"});
        if (!QTest::qWaitFor([&] { return (buildPid = pidOf("deploy-1", "virtualxid")) > 0; }, 10000)) {
            *why = QStringLiteral("the build did not wait for deploy 2's snapshot");
            return false;
        }
        return true;
    }
    // The build ended by itself (after the cycle was freed), its index valid: empty, or what happened.
    QString buildFinished(int ms = 20000)
    {
        if (build.state() != QProcess::NotRunning && !build.waitForFinished(ms))
            return QStringLiteral("the build still runs");
        const QString valid =
            db_.value("SELECT coalesce((SELECT indisvalid::text FROM pg_index WHERE indexrelid = "
                      "to_regclass('orders_customer')), 'no index')");
        if (build.exitCode() != 0 || (valid != QLatin1String("true") && valid != QLatin1String("t")))
            return QStringLiteral("the build ended with %1 (index valid: %2): %3")
                .arg(build.exitCode())
                .arg(valid, QString::fromUtf8(build.readAllStandardError()));
        return {};
    }

    int lockPid = 0, migratorPid = 0, buildPid = 0;
    QProcess migrator, build;

private:
    void psql(QProcess& p, const char* app, const QStringList& statements)
    {
        QStringList args{db_.dsn() + QStringLiteral(" application_name=") + QLatin1String(app)};
        for (const QString& st : statements)
            args << QStringLiteral("-c") << st;
        p.start(QStringLiteral("psql"), args);
        p.waitForStarted();
    }
    int pidOf(const char* app, const char* waitEvent) const
    {
        return db_.value(QStringLiteral("SELECT coalesce(max(pid), 0) FROM pg_stat_activity WHERE datname = "
                                        "current_database() AND application_name = '%1' AND wait_event = '%2'")
                             .arg(QLatin1String(app), QLatin1String(waitEvent)))
            .toInt();
    }

    const TestDatabase& db_;
    pg::Connection lock_;
};

} // namespace lw::test
