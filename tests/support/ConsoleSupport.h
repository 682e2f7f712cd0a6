#pragma once
// Shared by the tests that drive the console's models with the real simulator: a fast poller
// configuration with low thresholds, and a running simulator for a list of scenario specs.
#include "Poller.h"
#include "sim/Simulator.h"

#include <QStringList>

#include <memory>

namespace lw::test {

inline PollerConfig fastConfig(const QString& dsn)
{
    PollerConfig c;
    c.connect.dsn = dsn;
    c.intervalMs = 200;
    // No footprint stretching: these tests watch transitions at the configured cadence, and on a
    // loaded machine the server's own time per refresh (the budget's input) grows with CPU waits;
    // stretched to a second or more, a refresh could miss a lease's two-second overdue window.
    c.serverTimeBudget = 0.0;
    c.analysis.thresholds.idleHoldingS = 1;
    c.analysis.thresholds.pinnedMinS = 1;
    c.analysis.thresholds.advisoryWaitS = 1;
    return c;
}

inline std::unique_ptr<sim::Simulator> startSim(const QString& dsn, const QStringList& specs)
{
    sim::Options o;
    o.dsn = dsn;
    o.seed = 7;
    for (const QString& t : specs) {
        QString err;
        auto spec = sim::parseScenario(t, &err);
        if (!spec)
            qFatal("bad scenario %s: %s", qPrintable(t), qPrintable(err));
        o.scenarios.push_back(*spec);
    }
    auto s = std::make_unique<sim::Simulator>(o);
    if (auto e = s->start())
        qFatal("simulator: %s", qPrintable(*e));
    return s;
}

} // namespace lw::test
