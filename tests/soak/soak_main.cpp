// leasewatch-soak: the console's polling and models against a throwaway cluster running the demo
// workload, for a long time, with its backend terminated now and then. Samples the process's
// resident memory and the console's backends on the server; reports growth. Issue 8, point 8:
// "runs for a day without growth in memory or connections; after quitting, no backend remains".
#include "../support/ProcessStats.h"
#include "Monitor.h"
#include "cluster/ThrowawayCluster.h"
#include "pg/PgConnection.h"
#include "sim/Simulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QTimer>

#include <cstdio>
#include <unistd.h>

using namespace lw;

namespace {


// A short-lived admin connection per question: the soak must not keep sessions of its own open.
QString adminValue(const QString& dsn, const QByteArray& sql)
{
    pg::Connection c;
    pg::ConnectOptions o;
    o.dsn = dsn;
    o.readOnly = false;
    o.applicationName = QStringLiteral("leasewatch-soak");
    if (c.connect(o).isError())
        return {};
    pg::ResultPtr r;
    if (c.exec({sql, {}}, r, pg::Clock::now() + std::chrono::seconds(10)).isError() || PQntuples(r.get()) < 1)
        return {};
    return QString::fromUtf8(PQgetvalue(r.get(), 0, 0));
}

constexpr char kConsoleBackends[] =
    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'leasewatch'";
constexpr char kTerminateConsole[] =
    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'leasewatch'";

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Soak test: the console polling a busy throwaway cluster."));
    p.addHelpOption();
    const QCommandLineOption minutes(QStringLiteral("minutes"), QStringLiteral("How long (default 60)."),
                                     QStringLiteral("m"), QStringLiteral("60"));
    const QCommandLineOption interval(QStringLiteral("interval-ms"), QStringLiteral("Refresh interval (250)."),
                                      QStringLiteral("ms"), QStringLiteral("250"));
    const QCommandLineOption killEvery(QStringLiteral("kill-every"),
                                       QStringLiteral("Terminate the console's backend every S seconds (120)."),
                                       QStringLiteral("s"), QStringLiteral("120"));
    const QCommandLineOption sampleEvery(QStringLiteral("sample-every"),
                                         QStringLiteral("Seconds between samples (30)."), QStringLiteral("s"),
                                         QStringLiteral("30"));
    const QCommandLineOption maxGrowth(QStringLiteral("max-growth-mib"),
                                       QStringLiteral("Fail above this RSS growth after warm-up (8)."),
                                       QStringLiteral("mib"), QStringLiteral("8"));
    const QCommandLineOption clusterDir(QStringLiteral("cluster-dir"),
                                        QStringLiteral("Directory of the throwaway cluster (default: temp)."),
                                        QStringLiteral("dir"));
    p.addOptions({minutes, interval, killEvery, sampleEvery, maxGrowth, clusterDir});
    p.process(app);
    QTextStream out(stdout);

    cluster::ClusterOptions co;
    co.directory = p.value(clusterDir);
    co.maxConnections = 60;
    cluster::ThrowawayCluster cluster(co);
    if (auto e = cluster.start()) {
        out << "soak: cannot start the cluster: " << *e << "\n";
        return 2;
    }
    const QString admin = cluster.dsn();
    adminValue(admin, "CREATE DATABASE soak");
    const QString dsn = cluster.dsn(QStringLiteral("soak"));

    sim::Options so;
    so.dsn = dsn;
    so.scenarios = sim::demoScenarios();
    so.seed = 7;
    auto simulator = std::make_unique<sim::Simulator>(so);
    if (auto e = simulator->start()) {
        out << "soak: cannot start the simulator: " << *e << "\n";
        return 2;
    }

    PollerConfig cfg;
    cfg.connect.dsn = dsn;
    cfg.intervalMs = p.value(interval).toInt();
    auto monitor = std::make_unique<Monitor>(cfg);
    quint64 refreshes = 0;
    QObject::connect(monitor.get(), &Monitor::refreshed, [&](const Snapshot& s) { refreshes += s.ok ? 1 : 0; });
    monitor->start();

    const double totalS = p.value(minutes).toDouble() * 60;
    const double warmS = std::min(120.0, totalS / 4); // allocator and caches settle first
    QElapsedTimer clock;
    clock.start();
    double warmRss = -1, lastRss = 0, maxRss = 0;
    int maxBackends = 0, kills = 0;
    out << "   time  refreshes  rss MiB  console backends\n";
    auto sample = [&] {
        const double t = clock.elapsed() / 1000.0;
        lastRss = lw::test::residentMiB();
        maxRss = std::max(maxRss, lastRss);
        if (warmRss < 0 && t >= warmS)
            warmRss = lastRss;
        const int backends = adminValue(admin, kConsoleBackends).toInt();
        maxBackends = std::max(maxBackends, backends);
        out << QStringLiteral("%1 s %2 %3 %4\n")
                   .arg(qRound(t), 6)
                   .arg(refreshes, 10)
                   .arg(lastRss, 8, 'f', 1)
                   .arg(backends, 17);
        out.flush();
    };
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, sample);
    sampler.start(p.value(sampleEvery).toInt() * 1000);
    QTimer killer;
    QObject::connect(&killer, &QTimer::timeout, [&] { kills += adminValue(admin, kTerminateConsole).toInt(); });
    killer.start(p.value(killEvery).toInt() * 1000);
    QTimer::singleShot(int(totalS * 1000), &app, &QCoreApplication::quit);
    app.exec();
    sample();

    monitor.reset(); // the console quits: its backend must go with it
    int leftAfterQuit = -1;
    for (int i = 0; i < 50 && leftAfterQuit != 0; ++i) {
        leftAfterQuit = adminValue(admin, kConsoleBackends).toInt();
        if (leftAfterQuit != 0)
            ::usleep(100 * 1000);
    }
    simulator->stop();
    simulator.reset();
    cluster.stop(); // the destructor removes the directory

    const double growth = warmRss < 0 ? 0 : lastRss - warmRss;
    const double hours = std::max(1e-9, (totalS - warmS) / 3600);
    out << QStringLiteral("\nsoak: %1 min, %2 refreshes, %3 backend kills; RSS after warm-up %4 MiB, at the end "
                          "%5 MiB (growth %6 MiB, %7 MiB/h), max %8 MiB; console backends at most %9, after "
                          "quitting %10\n")
               .arg(totalS / 60, 0, 'f', 1)
               .arg(refreshes)
               .arg(kills)
               .arg(warmRss, 0, 'f', 1)
               .arg(lastRss, 0, 'f', 1)
               .arg(growth, 0, 'f', 1)
               .arg(growth / hours, 0, 'f', 2)
               .arg(maxRss, 0, 'f', 1)
               .arg(maxBackends)
               .arg(leftAfterQuit);
    const bool ok = refreshes > 0 && maxBackends <= 1 && leftAfterQuit == 0 &&
                    growth <= p.value(maxGrowth).toDouble();
    out << (ok ? "soak: PASS\n" : "soak: FAIL\n");
    return ok ? 0 : 1;
}
