// The leasewatch-sim executable: command line, the existing-table refusal, --duration, and a clean
// stop on SIGTERM / SIGINT (sessions closed, leases released except the crashed holder's).
#include "Programs.h"
#include "SimTestSupport.h"

#include <QProcess>
#include <QtTest>

#include <csignal>

using namespace lw;
using namespace lw::test;

namespace {
QString simExe()
{
    return lw::test::program("LW_SIM_EXE");
}

struct Run
{
    int exitCode = -1;
    bool normalExit = false;
    QString out;
    QString err;
};

Run runSim(const QStringList& args, int timeoutMs = 20000)
{
    QProcess p;
    p.start(simExe(), args);
    Run r;
    if (!p.waitForStarted(5000) || !p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        r.err = QStringLiteral("did not finish");
        return r;
    }
    r.exitCode = p.exitCode();
    r.normalExit = p.exitStatus() == QProcess::NormalExit;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}
} // namespace

class TstSimExe : public QObject
{
    Q_OBJECT
private slots:
    void helpListsScenarios()
    {
        const Run r = runSim({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        for (const QString& name : sim::scenarioNames())
            QVERIFY2(r.out.contains(name), qPrintable(name));
        for (const char* opt : {"--scenario", "--duration", "--seed", "--verbose", "--allow-existing",
                                "pool=4", "fraction=0.3"})
            QVERIFY2(r.out.contains(QLatin1String(opt)), opt);
    }

    void rejectsBadArguments()
    {
        Run r = runSim({QStringLiteral("--scenario"), QStringLiteral("nope"), QStringLiteral("dbname=x")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("unknown scenario")), qPrintable(r.err));
        r = runSim({QStringLiteral("--scenario"), QStringLiteral("deadlocks")});
        QCOMPARE(r.exitCode, 2);
    }

    void refusesExistingTableUnlessAllowed()
    {
        TestDatabase db(QStringLiteral("sim_exe_existing"));
        db.exec(QStringLiteral(
            "CREATE TABLE public.leases (name text PRIMARY KEY, holder text, taken_at timestamptz, "
            "expires_at timestamptz); INSERT INTO public.leases VALUES ('app-lock', 'app:1:x', "
            "now(), now() + interval '1 hour')"));
        const QStringList common = {QStringLiteral("--scenario"),
                                    QStringLiteral("lease-workers:instances=1,kinds=1,interval=0.1,work=5"),
                                    db.dsn()};
        Run r = runSim(common);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("--allow-existing")), qPrintable(r.err));
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM public.leases")), QStringLiteral("1"));

        // Allowed: runs for its --duration, takes job-1 meanwhile, releases it and exits on its own.
        r = runSim(QStringList{QStringLiteral("--allow-existing"), QStringLiteral("--verbose"),
                               QStringLiteral("--duration"), QStringLiteral("1.5")} +
                   common);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral(" took job-1")), qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("released job-1 on shutdown")), qPrintable(r.out));
        QCOMPARE(db.value(QStringLiteral("SELECT string_agg(name, ',') FROM public.leases")),
                 QStringLiteral("app-lock"));
    }

    void sigtermReleasesLeases_data()
    {
        QTest::addColumn<int>("sig");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }
    void sigtermReleasesLeases()
    {
        QFETCH(int, sig);
        TestDatabase db(QStringLiteral("sim_exe_signal"));
        QProcess p;
        // Long TTLs and long work: every lease is still held when the signal comes.
        p.start(simExe(),
                {QStringLiteral("--verbose"), QStringLiteral("--seed"), QStringLiteral("5"),
                 QStringLiteral("--scenario"),
                 QStringLiteral("lease-workers:instances=2,kinds=3,ttl=60,work=60,interval=0.1"),
                 QStringLiteral("--scenario"),
                 QStringLiteral("crashed-holder:ttl=60,crash_after=0.3,interval=0.1,flaky=0,every=120"),
                 QStringLiteral("--scenario"), QStringLiteral("pinned-pool:pool=3"),
                 QStringLiteral("--scenario"), QStringLiteral("lock-waits:depth=3,hold=60,kind=advisory"),
                 db.dsn()});
        QVERIFY(p.waitForStarted(5000));
        QString out;
        QVERIFY2(waitUntil(
                     [&] {
                         // No event loop here: let QProcess read the pipe.
                         p.waitForReadyRead(20);
                         out += QString::fromUtf8(p.readAllStandardOutput());
                         return out.contains(QStringLiteral(" crashed ")) &&
                                out.contains(QStringLiteral("pinned")) &&
                                db.value(QStringLiteral("SELECT count(*) FROM public.leases")) ==
                                    QLatin1String("4") &&
                                db.value(QStringLiteral(
                                    "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                    "current_database() AND wait_event_type = 'Lock'")) == QLatin1String("2");
                     },
                     15000),
                 qPrintable(out + QString::fromUtf8(p.readAllStandardError())));
        const QString crashedHolder =
            db.value(QStringLiteral("SELECT holder FROM public.leases WHERE name = 'crashed-job'"));
        QVERIFY(!crashedHolder.isEmpty());

        QElapsedTimer t;
        t.start();
        ::kill(pid_t(p.processId()), sig);
        QVERIFY(p.waitForFinished(5000));
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        out += QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("stopped on signal")));

        // Only the crashed holder's lease is left; every session is gone and no lock is held.
        QCOMPARE(db.value(QStringLiteral("SELECT string_agg(name || ' ' || holder, ',') FROM public.leases")),
                 QStringLiteral("crashed-job ") + crashedHolder);
        QVERIFY(waitUntil(
            [&] {
                return db.value(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                               "current_database() AND pid <> pg_backend_pid()")) ==
                       QLatin1String("0");
            },
            3000));
        QCOMPARE(db.value(QStringLiteral(
                     "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = "
                     "(SELECT oid FROM pg_database WHERE datname = current_database())")),
                 QStringLiteral("0"));
        QVERIFY(out.contains(QStringLiteral("on shutdown")));
    }
};

QTEST_GUILESS_MAIN(TstSimExe)
#include "tst_sim_exe.moc"
