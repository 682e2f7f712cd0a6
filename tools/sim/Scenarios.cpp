#include "sim/Scenarios.h"

namespace lw::sim::detail {

namespace {
ParamDef num(const char* key, const char* def, const char* help, double min, double max = 1e9)
{
    return ParamDef{
        QString::fromLatin1(key), QString::fromLatin1(def), QString::fromUtf8(help), true, min, max, {}};
}
ParamDef text(const char* key, const char* def, const char* help, QStringList choices = {})
{
    return ParamDef{QString::fromLatin1(key), QString::fromLatin1(def), QString::fromUtf8(help), false, 0, 0,
                    std::move(choices)};
}
} // namespace

ScenarioParams::ScenarioParams(const std::vector<ParamDef>& defs, const QMap<QString, QString>& given)
{
    for (const ParamDef& d : defs)
        values_.insert(d.key, given.value(d.key, d.defaultValue));
}

double ScenarioParams::num(const QString& key) const
{
    return values_.value(key).toDouble();
}

const std::vector<ScenarioDef>& scenarioCatalogue()
{
    static const std::vector<ScenarioDef> catalogue = {
        {QStringLiteral("lease-workers"),
         QStringLiteral(
             "N instances × K kinds of work: each instance tries every interval to take each lease, "
             "renews every TTL/4 while it works, releases when done"),
         {num("instances", "3", "application instances (sessions sim-lease-worker-<i>)", 1, 100),
          num("kinds", "2", "kinds of work, one lease each: <prefix>-1 … <prefix>-K", 1, 1000),
          num("ttl", "6", "lease TTL in seconds", 0.2, 86400),
          num("work", "4", "seconds of work per take (±25 %)", 0, 86400),
          num("interval", "1", "seconds between take attempts (±25 %)", 0.05, 86400),
          num("skew", "0",
              "seconds the last instance's clock runs ahead of the database's (it writes taken_at from its "
              "own clock)",
              -86400, 86400),
          text("prefix", "job", "lease name prefix")},
         {},
         makeLeaseWorkers},
        {QStringLiteral("crashed-holder"),
         QStringLiteral("a holder that stops renewing without releasing, and one that loses the database for "
                        "longer than the TTL; a standby takes both leases over once they expire"),
         {num("ttl", "5", "lease TTL in seconds", 0.2, 86400),
          num("crash_after", "3", "seconds the crashing holder renews before it crashes", 0, 86400),
          num("interval", "0.5", "seconds between take attempts", 0.05, 86400),
          num("work", "3", "seconds the standby works on a lease it took over", 0, 86400),
          num("every", "30", "seconds between incidents", 0.1, 86400),
          num("outage", "2", "database outage of the flaky holder, in TTLs (> 1 loses the lease)", 0, 1000),
          num("flaky", "1", "1: also run the holder that loses the database; 0: only the crash", 0, 1),
          text("lease", "crashed-job", "lease of the crashing holder"),
          text("flaky_lease", "flaky-job", "lease of the holder that loses the database")},
         {},
         makeCrashedHolder},
        {QStringLiteral("pinned-pool"),
         QStringLiteral(
             "an application with a pool of P connections whose jobs take session-level advisory locks "
             "(pg_try_advisory_lock(hashtext(name))) and leave every connection idle holding one, while "
             "their further work waits for a connection"),
         {num("pool", "4", "connections in the pool", 1, 200),
          num("waiters", "2", "further jobs waiting for a connection", 0, 10000),
          num("hold", "0", "seconds the pool stays pinned before its checkout timeout (0: until stopped)", 0,
              86400),
          num("pause", "10", "seconds before the pool pins itself again after a timeout", 0, 86400),
          text("prefix", "billing-job", "job name prefix: <prefix>-1 … <prefix>-P"),
          text("app", "billing-api", "application_name of the pool's connections")},
         {},
         makePinnedPool},
        {QStringLiteral("lock-waits"),
         QStringLiteral(
             "chains of sessions waiting on advisory locks and on row locks, each link waiting for the "
             "previous one, so that a blocking tree exists"),
         {num("depth", "3", "sessions per chain (the head plus depth-1 waiters)", 2, 50),
          text("kind", "both", "which locks",
               {QStringLiteral("both"), QStringLiteral("advisory"), QStringLiteral("row")}),
          num("hold", "8", "seconds the head keeps its lock", 0.1, 86400),
          num("pause", "2", "seconds between chains", 0, 86400)},
         {QStringLiteral("sim_rows")},
         makeLockWaits},
        {QStringLiteral("deadlocks"),
         QStringLiteral("pairs of transactions that update two rows in opposite order, so that PostgreSQL's "
                        "deadlock detector aborts one (pg_stat_database.deadlocks grows)"),
         {num("pairs", "1", "pairs of sessions", 1, 50),
          num("every", "10", "seconds between deadlocks", 0.05, 86400)},
         {QStringLiteral("sim_accounts")},
         makeDeadlocks},
        {QStringLiteral("ingestion"),
         QStringLiteral(
             "idempotent ingestion: workers take pg_advisory_xact_lock(hashtext(key)) for a batch of keys "
             "in sorted order and insert with ON CONFLICT DO NOTHING"),
         {num("workers", "2", "concurrent workers (sessions sim-ingest-<i>)", 1, 100),
          num("batch", "20", "keys per batch", 1, 10000),
          num("rate", "2", "batches per second per worker", 0.01, 10000),
          num("keys", "60", "width of the key window a batch draws from (overlap between workers)", 1,
              1000000),
          text("prefix", "order", "key prefix")},
         {QStringLiteral("sim_ingested"), QStringLiteral("sim_ingest_log")},
         makeIngestion},
        {QStringLiteral("lock-pressure"),
         QStringLiteral(
             "a transaction that takes many advisory locks at once: a fraction of the nominal lock-table "
             "capacity max_locks_per_transaction × (max_connections + max_prepared_transactions); above "
             "1 it keeps going until out of shared memory (53200) or the cap. Above 1 every session of the "
             "server may fail with 53200 for a moment: never on a server that matters"),
         {num("fraction", "0.3", "fraction of the nominal capacity", 0.0001, 1000),
          num("hold", "3", "seconds the locks are held", 0, 86400),
          num("every", "20", "seconds between runs (0: once)", 0, 86400),
          num("cap", "10", "with fraction > 1: stop at this multiple of the nominal capacity", 1, 1000)},
         {},
         makeLockPressure},
    };
    return catalogue;
}

const ScenarioDef* findScenario(const QString& name)
{
    for (const ScenarioDef& d : scenarioCatalogue())
        if (d.name == name)
            return &d;
    return nullptr;
}

const QMap<QString, QByteArray>& tableDefinitions()
{
    static const QMap<QString, QByteArray> defs = {
        {QStringLiteral("leases"),
         "CREATE TABLE IF NOT EXISTS public.leases (name text PRIMARY KEY, holder text, "
         "taken_at timestamptz, expires_at timestamptz)"},
        {QStringLiteral("sim_rows"), "CREATE TABLE IF NOT EXISTS public.sim_rows (id int PRIMARY KEY, "
                                     "touched_at timestamptz, touched_by text)"},
        {QStringLiteral("sim_accounts"),
         "CREATE TABLE IF NOT EXISTS public.sim_accounts (id int PRIMARY KEY, "
         "balance bigint NOT NULL DEFAULT 0)"},
        {QStringLiteral("sim_ingested"),
         "CREATE TABLE IF NOT EXISTS public.sim_ingested (key text PRIMARY KEY, "
         "worker text NOT NULL, ingested_at timestamptz NOT NULL DEFAULT now())"},
        {QStringLiteral("sim_ingest_log"), "CREATE TABLE IF NOT EXISTS public.sim_ingest_log (id bigint "
                                           "GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                                           "key text NOT NULL, worker text NOT NULL, logged_at timestamptz "
                                           "NOT NULL DEFAULT clock_timestamp())"},
    };
    return defs;
}

} // namespace lw::sim::detail
