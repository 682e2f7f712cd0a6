#pragma once
// Workload simulator: produces leases, advisory locks, lock waits, deadlocks and lock-table pressure
// in a real PostgreSQL database from real libpq sessions, so that the console (and its tests and
// benchmarks) has something genuine to show. Used by `leasewatch-sim`, `leasewatch --demo` and tests.
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace lw::sim {

// One notable thing that happened. `kind` is one of: took, took-over, renewed, released, lost,
// crashed, disconnected, pinned, waiting, deadlock, ingested, pressure, 53200, error.
struct Event
{
    QString scenario;
    QString kind;
    QString lease;  // lease or lock name, if any
    QString holder; // holder string or "application (pid N)", if any
    QString text;   // one human line
};

// "name" or "name:k=v,k=v".
struct ScenarioSpec
{
    QString name;
    QMap<QString, QString> params;
};

// Parses and validates (known scenario, known parameters, numeric values in range).
std::optional<ScenarioSpec> parseScenario(const QString& text, QString* error);
// Every scenario by name with its parameters and their defaults (for --help).
QString scenarioHelp();
// Names of every scenario, in help order.
QStringList scenarioNames();
// "12:00:01.234 [scenario] kind lease holder: text"
QString formatEvent(const Event& e);

struct Options
{
    QString dsn;
    std::vector<ScenarioSpec> scenarios;
    quint64 seed = 1;
    bool verbose = false;       // without onEvent: print every event to stdout
    bool allowExisting = false; // run against a non-empty leases table the simulator did not create
    double durationS = 0;       // 0 = until stop()
    // Called from simulator threads, concurrently: must be thread-safe. Must not call stop().
    std::function<void(const Event&)> onEvent;
};

// The set `leasewatch --demo` runs: every incident visible within a minute, short TTLs, lock-table
// pressure at a harmless fraction.
std::vector<ScenarioSpec> demoScenarios();

class Simulator
{
public:
    explicit Simulator(Options o);
    ~Simulator(); // stop()
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    // Creates the schema, checks the existing-leases-table rule, starts the threads.
    // Returns an error message, or nullopt when running.
    std::optional<QString> start();
    // Cancels sessions blocked in lock waits, joins the threads, closes the sessions and releases
    // the leases (except the crashed holder's). Idempotent; returns within ~2 s.
    void stop();
    bool isRunning() const;
    // True once every thread has finished (after --duration or stop()); false on timeout.
    bool waitFinished(int timeoutMs);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace lw::sim
