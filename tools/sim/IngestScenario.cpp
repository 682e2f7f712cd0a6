// Scenario 6: idempotent ingestion. Workers ingest overlapping batches of keys; each batch takes
// transaction-level advisory locks on its keys in one global order (hashtext, ascending — the safe
// pattern: no two batches can deadlock), inserts with ON CONFLICT DO NOTHING and records in
// sim_ingest_log exactly the keys it inserted, so a key logged twice would be a key ingested twice.
#include "sim/Scenarios.h"

#include <algorithm>
#include <numeric>

namespace lw::sim::detail {

std::vector<ThreadBody> makeIngestion(const ScenarioEnv& env, const ScenarioParams& p)
{
    const int workers = p.integer(QStringLiteral("workers"));
    const int batch = p.integer(QStringLiteral("batch"));
    const double rate = p.num(QStringLiteral("rate"));
    const int window = std::max(batch, p.integer(QStringLiteral("keys")));
    const QString prefix = p.str(QStringLiteral("prefix"));
    Runtime* rt = env.rt;
    std::vector<ThreadBody> out;
    for (int w = 1; w <= workers; ++w) {
        const int ordinal = rt->nextOrdinal(QStringLiteral("ingest"));
        out.push_back([=] {
            Session s(*rt, QStringLiteral("sim-ingest-%1").arg(ordinal));
            std::mt19937_64 rng = rt->rng(env.stream(quint64(w)));
            const auto period = std::chrono::microseconds(qint64(1e6 / rate));
            auto next = Clock::now();
            std::vector<qint64> candidates(size_t(window), 0);
            for (qint64 n = 0; !rt->stopping(); ++n) {
                if (!ensureConnected(*rt, s, env.scenario))
                    continue;
                // Batches of every worker slide over the same key space, half a batch per round, so
                // that concurrent batches overlap.
                std::iota(candidates.begin(), candidates.end(), n * batch / 2);
                std::vector<qint64> picked;
                std::sample(candidates.begin(), candidates.end(), std::back_inserter(picked), batch, rng);
                QStringList keys;
                for (qint64 k : picked)
                    keys << QStringLiteral("%1-%2").arg(prefix).arg(k, 8, 10, QLatin1Char('0'));
                keys.sort();
                const QByteArray array = textArray(keys);
                const QByteArray worker = s.who().toUtf8();

                Res r = s.exec("BEGIN");
                if (r.ok)
                    r = s.exec("SELECT count(pg_advisory_xact_lock(h)) FROM "
                               "(SELECT DISTINCT hashtext(k) AS h FROM unnest($1::text[]) AS k ORDER BY 1) "
                               "AS ordered",
                               {array});
                Res ins;
                if (r.ok) {
                    ins = s.exec("WITH ins AS (INSERT INTO public.sim_ingested(key, worker) "
                                 "SELECT k, $2 FROM unnest($1::text[]) AS k ORDER BY k "
                                 "ON CONFLICT (key) DO NOTHING RETURNING key) "
                                 "INSERT INTO public.sim_ingest_log(key, worker) SELECT key, $2 FROM ins",
                                 {array, worker});
                    r = ins.ok ? s.exec("COMMIT", {}, false) : std::move(ins);
                }
                if (!r.ok) {
                    if (s.isOpen())
                        s.exec("ROLLBACK", {}, false);
                    if (r.stopped || rt->stopping())
                        break;
                    env.error(s.who(), QStringLiteral("%1: %2").arg(s.who(), r.describe()));
                    if (r.lost)
                        s.close();
                    rt->sleepFor(1.0);
                    next = Clock::now();
                    continue;
                }
                const qint64 inserted = ins.affected();
                env.emitEvent(QStringLiteral("ingested"), {}, s.who(),
                              QStringLiteral("%1 ingested batch %2: %3 new of %4 keys (%5 already present)")
                                  .arg(s.who())
                                  .arg(n + 1)
                                  .arg(inserted)
                                  .arg(keys.size())
                                  .arg(keys.size() - inserted));
                next += period;
                if (next < Clock::now())
                    next = Clock::now(); // behind schedule: do not burst to catch up
                rt->sleepUntil(next);
            }
        });
    }
    return out;
}

} // namespace lw::sim::detail
