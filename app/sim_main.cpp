// leasewatch-sim [options] DSN: runs the workload simulator against a database until SIGINT/SIGTERM
// or --duration, then stops cleanly (sessions closed, leases released except the crashed holder's).
#include "sim/Simulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <pthread.h>

namespace {

// Written by the signal handler, polled by main: nothing else happens in the handler.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void onSignal(int sig)
{
    g_signal.store(sig);
}

void installHandlers()
{
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    // A closed stdout (`leasewatch-sim --verbose … | head`) must not kill us before the leases are released.
    std::signal(SIGPIPE, SIG_IGN);
}

// The simulator's threads inherit the mask of the thread that creates them: block the signals
// while they are created so that only main receives them.
void setSignalsBlocked(bool blocked)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &set, nullptr);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("leasewatch-sim"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LEASEWATCH_VERSION));
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral(
            "Produces leases, advisory locks, lock waits, deadlocks and lock-table pressure in the "
            "PostgreSQL database DSN from real client sessions, for Leasewatch to show.\n"
            "Creates its tables (leases, sim_*) if missing. Stop with Ctrl-C or SIGTERM.\n\n") +
        lw::sim::scenarioHelp());
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenarioOpt(
        QStringLiteral("scenario"),
        QStringLiteral("Scenario to run, optionally with parameters (repeatable; default: the demo set)."),
        QStringLiteral("NAME[:k=v,...]"));
    const QCommandLineOption durationOpt(QStringLiteral("duration"),
                                         QStringLiteral("Stop after SECONDS (default: run until stopped)."),
                                         QStringLiteral("SECONDS"), QStringLiteral("0"));
    const QCommandLineOption seedOpt(QStringLiteral("seed"),
                                     QStringLiteral("Seed for every random choice (default 1)."),
                                     QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption verboseOpt(QStringLiteral("verbose"), QStringLiteral("Print a line per event."));
    const QCommandLineOption allowOpt(
        QStringLiteral("allow-existing"),
        QStringLiteral("Run even if public.leases is non-empty and was not created by leasewatch-sim."));
    parser.addOptions({scenarioOpt, durationOpt, seedOpt, verboseOpt, allowOpt});
    parser.addPositionalArgument(
        QStringLiteral("DSN"),
        QStringLiteral("Connection string (key=value, postgresql:// URI or service name)."));
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        err << "leasewatch-sim: expected exactly one DSN (see --help)\n";
        return 2;
    }
    lw::sim::Options o;
    o.dsn = positional.first();
    for (const QString& text : parser.values(scenarioOpt)) {
        QString error;
        auto spec = lw::sim::parseScenario(text, &error);
        if (!spec) {
            err << "leasewatch-sim: " << error << "\n";
            return 2;
        }
        o.scenarios.push_back(*spec);
    }
    if (o.scenarios.empty())
        o.scenarios = lw::sim::demoScenarios();
    bool ok = false;
    o.durationS = parser.value(durationOpt).toDouble(&ok);
    if (!ok || o.durationS < 0) {
        err << "leasewatch-sim: --duration expects a number of seconds\n";
        return 2;
    }
    o.seed = parser.value(seedOpt).toULongLong(&ok);
    if (!ok) {
        err << "leasewatch-sim: --seed expects a non-negative integer\n";
        return 2;
    }
    o.verbose = parser.isSet(verboseOpt);
    o.allowExisting = parser.isSet(allowOpt);
    // Errors are worth a line even without --verbose (stderr, so stdout stays the event stream).
    std::mutex errMutex;
    if (!o.verbose)
        o.onEvent = [&errMutex](const lw::sim::Event& e) {
            if (e.kind != QLatin1String("error") && e.kind != QLatin1String("53200"))
                return;
            const QByteArray line = lw::sim::formatEvent(e).toUtf8() + '\n';
            std::lock_guard lock(errMutex);
            std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
        };

    installHandlers();
    setSignalsBlocked(true);
    lw::sim::Simulator sim(o);
    const auto startError = sim.start();
    setSignalsBlocked(false);
    if (startError) {
        err << "leasewatch-sim: " << *startError << "\n";
        return 1;
    }
    QStringList names;
    for (const auto& s : o.scenarios)
        names << s.name;
    err << "leasewatch-sim: running " << names.join(QStringLiteral(", ")) << " (seed " << o.seed << ")"
        << (o.durationS > 0 ? QStringLiteral(" for %1 s").arg(o.durationS)
                            : QStringLiteral("; Ctrl-C to stop"))
        << "\n";
    err.flush();

    while (g_signal.load() == 0 && !sim.waitFinished(100)) {
    }
    const int sig = g_signal.load();
    sim.stop();
    err << "leasewatch-sim: stopped" << (sig ? QStringLiteral(" on signal %1").arg(sig) : QString())
        << "; sessions closed, leases released\n";
    return 0;
}
