#include "sim/Simulator.h"

#include "sim/Runtime.h"
#include "sim/Scenarios.h"

#include <QTextStream>
#include <QTime>

#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

namespace lw::sim {

using namespace detail;

namespace {

// Marks the tables the simulator created: only those may be non-empty without --allow-existing.
constexpr const char* kMark = "leasewatch-sim";

QString wrap(const QString& text, int width, const QString& indent)
{
    QString out;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
            out += indent + line + QLatin1Char('\n');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        out += indent + line + QLatin1Char('\n');
    return out;
}

} // namespace

std::optional<ScenarioSpec> parseScenario(const QString& text, QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<ScenarioSpec> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const QString t = text.trimmed();
    const qsizetype colon = t.indexOf(QLatin1Char(':'));
    ScenarioSpec spec;
    spec.name = (colon < 0 ? t : t.left(colon)).trimmed();
    const ScenarioDef* def = findScenario(spec.name);
    if (!def)
        return fail(QStringLiteral("unknown scenario '%1' (known: %2)")
                        .arg(spec.name, scenarioNames().join(QStringLiteral(", "))));
    if (colon < 0)
        return spec;
    for (const QString& part : t.mid(colon + 1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return fail(
                QStringLiteral("parameter '%1' of scenario %2: expected key=value").arg(part, spec.name));
        const QString key = part.left(eq).trimmed();
        const QString value = part.mid(eq + 1).trimmed();
        const auto it = std::find_if(def->params.begin(), def->params.end(),
                                     [&](const ParamDef& p) { return p.key == key; });
        if (it == def->params.end()) {
            QStringList known;
            for (const ParamDef& p : def->params)
                known << p.key;
            return fail(QStringLiteral("unknown parameter '%1' of scenario %2 (known: %3)")
                            .arg(key, spec.name, known.join(QStringLiteral(", "))));
        }
        if (it->numeric) {
            bool ok = false;
            const double v = value.toDouble(&ok);
            if (!ok || v < it->min || v > it->max)
                return fail(QStringLiteral("%1:%2=%3: expected a number from %4 to %5")
                                .arg(spec.name, key, value)
                                .arg(it->min)
                                .arg(it->max));
        } else if (value.isEmpty() || (!it->choices.isEmpty() && !it->choices.contains(value))) {
            return fail(QStringLiteral("%1:%2=%3: expected %4")
                            .arg(spec.name, key, value,
                                 it->choices.isEmpty() ? QStringLiteral("a non-empty value")
                                                       : it->choices.join(QStringLiteral(" | "))));
        }
        spec.params.insert(key, value);
    }
    return spec;
}

QStringList scenarioNames()
{
    QStringList names;
    for (const ScenarioDef& d : scenarioCatalogue())
        names << d.name;
    return names;
}

QString scenarioHelp()
{
    QString out;
    QTextStream s(&out);
    s << "Scenarios (--scenario NAME or NAME:key=value,key=value; repeatable, several run at once):\n";
    for (const ScenarioDef& d : scenarioCatalogue()) {
        s << "\n  " << d.name << "\n" << wrap(d.summary, 90, QStringLiteral("      "));
        for (const ParamDef& p : d.params) {
            const QString kv = QStringLiteral("%1=%2").arg(p.key, p.defaultValue);
            s << "      " << kv.leftJustified(22) << " " << p.help;
            if (!p.choices.isEmpty())
                s << " (" << p.choices.join(QStringLiteral(" | ")) << ")";
            s << "\n";
        }
    }
    s << "\nDemo set (leasewatch --demo, and leasewatch-sim without --scenario):\n";
    for (const ScenarioSpec& spec : demoScenarios()) {
        QStringList kv;
        for (auto it = spec.params.begin(); it != spec.params.end(); ++it)
            kv << it.key() + QLatin1Char('=') + it.value();
        s << "  --scenario " << spec.name
          << (kv.isEmpty() ? QString() : QLatin1Char(':') + kv.join(QLatin1Char(','))) << "\n";
    }
    return out;
}

QString formatEvent(const Event& e)
{
    QString line = QStringLiteral("%1 %2 %3: %4")
                       .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss.zzz")),
                            e.scenario.leftJustified(14), e.kind.leftJustified(9), e.text);
    if (!e.holder.isEmpty() && !e.text.contains(e.holder))
        line += QStringLiteral(" [%1]").arg(e.holder);
    return line;
}

std::vector<ScenarioSpec> demoScenarios()
{
    auto spec = [](const char* name, std::initializer_list<std::pair<const char*, const char*>> kv) {
        ScenarioSpec s;
        s.name = QString::fromLatin1(name);
        for (const auto& [k, v] : kv)
            s.params.insert(QString::fromLatin1(k), QString::fromLatin1(v));
        return s;
    };
    return {
        spec("lease-workers",
             {{"instances", "3"}, {"kinds", "3"}, {"ttl", "6"}, {"work", "4"}, {"interval", "1"}, {"skew", "90"}}),
        // The standby retries slowly so that the stale lease (expired, not yet taken over) stays
        // visible for a while, as in the incident.
        spec("crashed-holder", {{"ttl", "6"},
                                {"crash_after", "3"},
                                {"interval", "15"},
                                {"work", "4"},
                                {"every", "40"},
                                {"outage", "2"}}),
        spec("pinned-pool", {{"pool", "4"}, {"waiters", "2"}, {"hold", "90"}, {"pause", "10"}}),
        spec("lock-waits", {{"depth", "3"}, {"kind", "both"}, {"hold", "15"}, {"pause", "3"}}),
        spec("deadlocks", {{"pairs", "1"}, {"every", "10"}}),
        spec("ingestion", {{"workers", "2"}, {"batch", "20"}, {"rate", "2"}}),
        // A harmless fraction: held a few seconds, periodically.
        spec("lock-pressure", {{"fraction", "0.3"}, {"hold", "4"}, {"every", "20"}}),
    };
}

struct Simulator::Impl
{
    Options opts;
    std::unique_ptr<Runtime> rt;
    std::vector<std::thread> workers;
    std::thread supervisor;
    std::mutex m;
    std::condition_variable cv;
    int active = 0;
    bool started = false;
    bool stopRequested = false;
    bool finished = false;
    std::mutex printMutex;

    std::optional<QString> prepareDatabase(const QStringList& tables);
    void supervise();
};

std::optional<QString> Simulator::Impl::prepareDatabase(const QStringList& tables)
{
    Session s(*rt, QStringLiteral("leasewatch-sim-setup"));
    if (auto err = s.connect())
        return QStringLiteral("cannot connect: %1").arg(*err);
    auto failed = [](const Res& r) {
        return QStringLiteral("cannot prepare the database: %1").arg(r.describe());
    };
    Res r = s.exec("BEGIN", {}, false);
    // Serializes simulators that start at the same time against one database.
    if (r.ok)
        r = s.exec("SELECT pg_advisory_xact_lock(hashtext($1))", {"leasewatch-sim schema"}, false);
    if (!r.ok)
        return failed(r);
    for (const QString& table : tables) {
        Res found =
            s.exec("SELECT c.oid, coalesce(obj_description(c.oid, 'pg_class'), '') FROM pg_class c "
                   "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2",
                   {"public", table.toUtf8()}, false);
        if (!found.ok)
            return failed(found);
        if (found.rows() == 0) {
            Res c = s.exec(tableDefinitions().value(table).constData(), {}, false);
            if (c.ok) {
                // COMMENT takes no parameters: the table name and the mark are constants of ours.
                const QByteArray comment =
                    "COMMENT ON TABLE public." + table.toUtf8() + " IS '" + QByteArray(kMark) + "'";
                c = s.exec(comment.constData(), {}, false);
            }
            if (!c.ok)
                return failed(c);
            continue;
        }
        if (table != QLatin1String("leases") || found.text(0, 1) == QLatin1String(kMark))
            continue;
        // A leases table that someone else made: it must fit the protocol, and must be empty unless
        // the user said otherwise (we would take, renew and delete rows in a live application's table).
        Res cols = s.exec("SELECT count(*) FROM pg_attribute WHERE attrelid = $1::oid AND NOT attisdropped "
                          "AND attname = ANY ('{name,holder,taken_at,expires_at}'::name[])",
                          {found.text(0, 0).toUtf8()}, false);
        if (!cols.ok)
            return failed(cols);
        if (cols.text(0, 0).toInt() != 4)
            return QStringLiteral("public.leases exists but does not have the columns the simulator needs: "
                                  "leases(name text primary key, holder text, taken_at timestamptz, "
                                  "expires_at timestamptz)");
        Res rows =
            s.exec("SELECT count(*) FROM (SELECT 1 FROM public.leases LIMIT 1000) AS sample", {}, false);
        if (!rows.ok)
            return failed(rows);
        const int n = rows.text(0, 0).toInt();
        if (n > 0 && !opts.allowExisting)
            return QStringLiteral(
                       "public.leases holds %1%2 row(s) and was not created by leasewatch-sim: refusing to "
                       "take, renew and delete leases in a table that may belong to a live application "
                       "(use --allow-existing to run anyway)")
                .arg(n >= 1000 ? QStringLiteral("at least ") : QString())
                .arg(n);
    }
    r = s.exec("COMMIT", {}, false);
    if (!r.ok)
        return failed(r);
    return std::nullopt;
}

void Simulator::Impl::supervise()
{
    {
        std::unique_lock lock(m);
        auto done = [this] { return stopRequested || active == 0; };
        if (opts.durationS > 0)
            cv.wait_until(lock, Clock::now() + std::chrono::milliseconds(qint64(opts.durationS * 1000)),
                          done);
        else
            cv.wait(lock, done);
    }
    rt->requestStop();
    // Threads blocked in a lock wait (or any statement) do not see the flag: cancel their statements
    // until every thread has left; a cancel that raced with a statement's start is simply repeated.
    for (;;) {
        rt->cancelBusySessions();
        std::unique_lock lock(m);
        if (cv.wait_for(lock, std::chrono::milliseconds(100), [this] { return active == 0; }))
            break;
    }
    for (std::thread& t : workers)
        t.join();
    {
        std::lock_guard lock(m);
        finished = true;
    }
    cv.notify_all();
}

Simulator::Simulator(Options o) : d(std::make_unique<Impl>())
{
    d->opts = std::move(o);
}

Simulator::~Simulator()
{
    stop();
}

std::optional<QString> Simulator::start()
{
    if (d->started)
        return QStringLiteral("the simulator was already started");
    if (d->opts.scenarios.empty())
        return QStringLiteral("no scenario selected");
    QStringList tables{QStringLiteral("leases")};
    for (const ScenarioSpec& spec : d->opts.scenarios) {
        // Re-validate: specs may have been built in code rather than parsed.
        QString text = spec.name;
        QStringList kv;
        for (auto it = spec.params.begin(); it != spec.params.end(); ++it)
            kv << it.key() + QLatin1Char('=') + it.value();
        if (!kv.isEmpty())
            text += QLatin1Char(':') + kv.join(QLatin1Char(','));
        QString error;
        if (!parseScenario(text, &error))
            return error;
        for (const QString& t : findScenario(spec.name)->tables)
            if (!tables.contains(t))
                tables << t;
    }

    const bool verbose = d->opts.verbose;
    auto userSink = d->opts.onEvent;
    Impl* impl = d.get();
    d->rt = std::make_unique<Runtime>(d->opts.dsn, d->opts.seed, [impl, verbose, userSink](const Event& e) {
        if (userSink)
            userSink(e);
        if (verbose) {
            const QByteArray line = formatEvent(e).toUtf8() + '\n';
            std::lock_guard lock(impl->printMutex);
            std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
            std::fflush(stdout);
        }
    });
    if (auto err = d->prepareDatabase(tables))
        return err;

    std::vector<std::pair<QString, ThreadBody>> bodies;
    for (size_t i = 0; i < d->opts.scenarios.size(); ++i) {
        const ScenarioSpec& spec = d->opts.scenarios[i];
        const ScenarioDef* def = findScenario(spec.name);
        ScenarioEnv env;
        env.rt = d->rt.get();
        env.scenario = spec.name;
        env.specIndex = int(i);
        for (ThreadBody& b : def->make(env, ScenarioParams(def->params, spec.params)))
            bodies.emplace_back(spec.name, std::move(b));
    }
    d->started = true;
    d->active = int(bodies.size());
    for (auto& [scenario, body] : bodies) {
        d->workers.emplace_back([impl, scenario = scenario, body = std::move(body)] {
            try {
                body();
            } catch (const std::exception& ex) {
                impl->rt->emitEvent(
                    {scenario,
                     QStringLiteral("error"),
                     {},
                     {},
                     QStringLiteral("scenario thread failed: %1").arg(QString::fromUtf8(ex.what()))});
            }
            {
                std::lock_guard lock(impl->m);
                --impl->active;
            }
            impl->cv.notify_all();
        });
    }
    d->supervisor = std::thread([impl] { impl->supervise(); });
    return std::nullopt;
}

void Simulator::stop()
{
    if (!d->started)
        return;
    {
        std::lock_guard lock(d->m);
        d->stopRequested = true;
    }
    d->cv.notify_all();
    if (d->supervisor.joinable() && d->supervisor.get_id() != std::this_thread::get_id())
        d->supervisor.join();
}

bool Simulator::isRunning() const
{
    std::lock_guard lock(d->m);
    return d->started && !d->finished;
}

bool Simulator::waitFinished(int timeoutMs)
{
    std::unique_lock lock(d->m);
    if (!d->started)
        return true;
    return d->cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return d->finished; });
}

} // namespace lw::sim
