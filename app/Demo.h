#pragma once
#include "Poller.h"
#include "cluster/ThrowawayCluster.h"

#include <QString>

#include <memory>
#include <optional>

namespace lw::sim {
class Simulator;
}

namespace lw::app {

// The embedded demo: a throwaway cluster in a private directory, the demo database and schema, and
// the simulator's scenarios running against it. Everything is removed when this object dies.
class Demo
{
public:
    Demo();
    ~Demo();
    // Error message on failure. `clusterDir`: where the throwaway cluster lives (default: a fresh
    // directory under the system temp dir); tests put it below the suite's cluster, whose cleanup
    // stops it even if the test crashes.
    std::optional<QString> start(const QString& clusterDir = {});
    QString dsn() const;
    // What a profile for the demo's application would say: its known lock names and pool sizes.
    void configure(PollerConfig& cfg) const;

private:
    std::unique_ptr<cluster::ThrowawayCluster> cluster_;
    std::unique_ptr<sim::Simulator> sim_;
    QStringList collidingNames_;
};

} // namespace lw::app
