#include "Demo.h"
#include "domain/Words.h"

#include "pg/PgConnection.h"
#include "sim/Simulator.h"

#include <QTextStream>

namespace lw::app {

Demo::Demo() = default;

Demo::~Demo()
{
    if (sim_)
        sim_->stop(); // before the cluster goes: the simulator's sessions end cleanly
    sim_.reset();
    cluster_.reset();
}

QString Demo::dsn() const
{
    return cluster_ ? cluster_->dsn(QStringLiteral("leasewatch_demo")) : QString();
}

void Demo::configure(PollerConfig& cfg) const
{
    // The simulated billing-api runs jobs billing-job-1…4 under pg_try_advisory_lock(hashtext(name))
    // with a pool of 4; the nightly export uses a dated name.
    cfg.lockNames << QStringLiteral("billing-job-1") << QStringLiteral("billing-job-2")
                  << QStringLiteral("billing-job-3") << QStringLiteral("billing-job-4")
                  << QStringLiteral("nightly-report-job") << QStringLiteral("billing-export-%Y-%m-%d");
    cfg.analysis.poolSizes.insert(QStringLiteral("billing-api"), 4);
    // Demo thresholds, so every kind of finding shows on a small throwaway cluster within a minute:
    // the simulated lock-table pressure takes 30 % of the nominal capacity for a few seconds, and
    // the simulator's ~25 sessions fill most of the demo's 40 connections.
    cfg.analysis.thresholds.lockTableShare = 0.25;
    cfg.analysis.thresholds.connectionShare = 0.55;
    // One simulated lease worker writes taken_at from its own clock, 90 s fast: flag such rows.
    cfg.leases.writerUsesAppClock = true;
    // Two names that collide under hashtext() on this server (found at start): a real bug of a key scheme.
    cfg.lockNames << collidingNames_;
}

std::optional<QString> Demo::start(const QString& clusterDir)
{
    // A demo that was killed (or crashed) left its server running: stop it before starting another.
    if (const int n = cluster::ThrowawayCluster::reapOrphans())
        QTextStream(stderr) << TerminalWords::tr("leasewatch: stopped and removed %1 demo cluster(s) left by a console "
                                                 "that did not quit")
                                   .arg(n)
                            << "\n";
    cluster::ClusterOptions o;
    o.directory = clusterDir;
    o.maxConnections = 40;
    cluster_ = std::make_unique<cluster::ThrowawayCluster>(o);
    if (auto e = cluster_->start())
        return TerminalWords::tr("cannot start the demo cluster: %1").arg(*e);

    pg::Connection c;
    pg::ConnectOptions co;
    co.dsn = cluster_->dsn();
    co.readOnly = false;
    co.applicationName = QStringLiteral("leasewatch-demo-setup");
    if (auto e = c.connect(co); e.isError())
        return TerminalWords::tr("cannot connect to the demo cluster: %1").arg(e.toDisplayString());
    pg::ResultPtr r;
    const auto deadline = pg::Clock::now() + std::chrono::seconds(30);
    if (auto e = c.exec({"CREATE DATABASE leasewatch_demo", {}}, r, deadline); e.isError())
        return TerminalWords::tr("cannot create the demo database: %1").arg(e.toDisplayString());
    // hashtext() is the server's: find a colliding pair here (about 0.3 s) for the demo's lock names.
    if (auto e = c.exec({"SELECT n FROM (SELECT 'report-' || i AS n FROM generate_series(1, 400000) i) s "
                         "WHERE hashtext(n) = (SELECT hashtext(n2) FROM (SELECT 'report-' || i AS n2 FROM "
                         "generate_series(1, 400000) i) t GROUP BY 1 HAVING count(*) > 1 LIMIT 1) ORDER BY n",
                         {}},
                        r, deadline);
        !e.isError())
        for (int i = 0; i < PQntuples(r.get()); ++i)
            collidingNames_ << QString::fromUtf8(PQgetvalue(r.get(), i, 0));
    c.close();

    sim::Options so;
    so.dsn = dsn();
    so.scenarios = sim::demoScenarios();
    so.seed = 42;
    sim_ = std::make_unique<sim::Simulator>(so);
    if (auto e = sim_->start())
        return TerminalWords::tr("cannot start the simulated workload: %1").arg(*e);
    return std::nullopt;
}

} // namespace lw::app
