#pragma once
// The scenario catalogue: names, parameters with defaults and ranges, the tables each needs, and a
// factory that turns a validated spec into the bodies of the threads that run it.
#include "sim/Runtime.h"

#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace lw::sim::detail {

struct ParamDef
{
    QString key;
    QString defaultValue;
    QString help;
    bool numeric = true;
    double min = 0;
    double max = 1e9;
    QStringList choices; // for text parameters with a fixed set of values
};

class ScenarioParams
{
public:
    ScenarioParams(const std::vector<ParamDef>& defs, const QMap<QString, QString>& given);
    double num(const QString& key) const;
    int integer(const QString& key) const { return int(num(key) + 0.5); }
    QString str(const QString& key) const { return values_.value(key); }

private:
    QMap<QString, QString> values_;
};

// What a scenario thread gets: the runtime, its scenario label for events, and its parameters.
struct ScenarioEnv
{
    Runtime* rt = nullptr;
    QString scenario;
    int specIndex = 0; // position of the spec in Options::scenarios (key spaces, RNG streams)

    void emitEvent(const QString& kind, const QString& lease, const QString& holder,
                   const QString& text) const
    {
        rt->emitEvent({scenario, kind, lease, holder, text});
    }
    void error(const QString& who, const QString& text) const
    {
        emitEvent(QStringLiteral("error"), {}, who, text);
    }
    quint64 stream(quint64 role) const { return (quint64(specIndex) << 32) | role; }
};

using ThreadBody = std::function<void()>;

struct ScenarioDef
{
    QString name;
    QString summary;
    std::vector<ParamDef> params;
    QStringList tables; // besides public.leases, created if missing
    std::function<std::vector<ThreadBody>(const ScenarioEnv&, const ScenarioParams&)> make;
};

const std::vector<ScenarioDef>& scenarioCatalogue();
const ScenarioDef* findScenario(const QString& name);

// DDL for each simulator table (CREATE TABLE IF NOT EXISTS …), keyed by table name.
const QMap<QString, QByteArray>& tableDefinitions();

// Factories, one file per group of scenarios.
std::vector<ThreadBody> makeLeaseWorkers(const ScenarioEnv& env, const ScenarioParams& p);
std::vector<ThreadBody> makeCrashedHolder(const ScenarioEnv& env, const ScenarioParams& p);
std::vector<ThreadBody> makePinnedPool(const ScenarioEnv& env, const ScenarioParams& p);
std::vector<ThreadBody> makeLockWaits(const ScenarioEnv& env, const ScenarioParams& p);
std::vector<ThreadBody> makeDeadlocks(const ScenarioEnv& env, const ScenarioParams& p);
std::vector<ThreadBody> makeIngestion(const ScenarioEnv& env, const ScenarioParams& p);
std::vector<ThreadBody> makeLockPressure(const ScenarioEnv& env, const ScenarioParams& p);

} // namespace lw::sim::detail
