#include "ProcessBudget.h"

#include "../support/ProcessStats.h"
#include "BenchWorkload.h"

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace lw::bench {

namespace {
double mibOfFiles(const QString& dir)
{
    qint64 bytes = 0;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        bytes += it.fileInfo().size();
    }
    return double(bytes) / (1024.0 * 1024.0);
}

// Refreshes the console ran: calls of its clock statement (one per refresh; two texts before
// PostgreSQL 15, with and without pg_stat_database) by its role (its constants are normalised away:
// matched by what it reads).
qint64 consoleRefreshes(Workload& load)
{
    qint64 calls = 0;
    for (const StatementStat& st : load.readStatements())
        if (st.role == QLatin1String(kConsoleRole) && st.query.contains(QLatin1String("current_database(), current_user")))
            calls += st.calls;
    return calls;
}
} // namespace

ProcessFigures measureConsoleProcess(const QString& program, const QStringList& args, int leases, int warmupS,
                                     int seconds, const QString& clusterDir)
{
    using Clock = std::chrono::steady_clock;
    Workload load(clusterDir);
    load.start();
    load.setLeases(leases);
    load.setLocks(100);
    load.setBackends(10);
    QTemporaryDir home;
    QProcess console;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home.path());
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")); // the window: drawn, not shown
    console.setProcessEnvironment(env);
    console.setProcessChannelMode(QProcess::MergedChannels);
    console.setStandardOutputFile(home.filePath(QStringLiteral("console.log")));
    QStringList argv = QStringList(args) << QString::fromUtf8(load.conninfo(kConsoleRole));
    // LW_BENCH_PREFIX="heaptrack -o /tmp/lw" (or perf, valgrind) runs the console through a tool:
    // its figures are then the tool's process', its report is what counts.
    const QStringList prefix = qEnvironmentVariable("LW_BENCH_PREFIX").split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (prefix.isEmpty())
        console.start(program, argv);
    else
        console.start(prefix.front(), prefix.mid(1) << program << argv);
    if (!console.waitForStarted(10000))
        throw std::runtime_error("leasewatch did not start");
    const qint64 pid = console.processId();
    auto renewFor = [&](int s) {
        for (int i = 0; i < s; ++i) {
            const auto next = Clock::now() + std::chrono::seconds(1);
            load.renewSome();
            std::this_thread::sleep_until(next);
            if (console.state() != QProcess::Running)
                throw std::runtime_error("leasewatch stopped");
        }
    };
    renewFor(warmupS);
    load.resetStatements();
    const double c0 = test::cpuSecondsOf(pid);
    const auto t0 = Clock::now();
    renewFor(seconds);
    const double c1 = test::cpuSecondsOf(pid);
    ProcessFigures f;
    f.leases = leases;
    f.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    f.refreshes = consoleRefreshes(load);
    f.residentMiB = test::residentMiBOf(pid);
    console.terminate();
    console.waitForFinished(20000);
    f.cpuSeconds = c1 - c0;
    f.cpuPercent = 100.0 * f.cpuSeconds / f.seconds;
    f.storeMiB = mibOfFiles(home.filePath(QStringLiteral("data")));
    return f;
}

} // namespace lw::bench
