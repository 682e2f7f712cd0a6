#pragma once
// Helpers of the simulator's integration tests: a thread-safe event log fed by Options::onEvent,
// polling with a deadline, and an audit trigger that records every change the simulator makes to
// the leases table (so the tests judge what the database saw, not what the simulator says).
#include "TestCluster.h"
#include "sim/Simulator.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QThread>

#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace lw::test {

class EventLog
{
public:
    std::function<void(const sim::Event&)> sink()
    {
        return [this](const sim::Event& e) {
            std::lock_guard lock(m_);
            events_.push_back(e);
        };
    }
    std::vector<sim::Event> all() const
    {
        std::lock_guard lock(m_);
        return events_;
    }
    std::vector<sim::Event> of(const QString& kind, const QString& lease = {}) const
    {
        std::vector<sim::Event> out;
        for (const sim::Event& e : all())
            if (e.kind == kind && (lease.isEmpty() || e.lease == lease))
                out.push_back(e);
        return out;
    }
    int count(const QString& kind, const QString& lease = {}) const { return int(of(kind, lease).size()); }
    QString dump() const
    {
        QString s;
        for (const sim::Event& e : all())
            s += sim::formatEvent(e) + QLatin1Char('\n');
        return s;
    }

private:
    mutable std::mutex m_;
    std::vector<sim::Event> events_;
};

inline bool waitUntil(const std::function<bool()>& done, int timeoutMs, int stepMs = 50)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QThread::msleep(stepMs);
    }
    return true;
}

inline sim::ScenarioSpec spec(const QString& text)
{
    QString error;
    auto s = sim::parseScenario(text, &error);
    if (!s)
        qFatal("bad scenario in test: %s", qPrintable(error));
    return *s;
}

inline sim::Options simOptions(const QString& dsn, const QStringList& scenarios, EventLog* log = nullptr,
                               quint64 seed = 1)
{
    sim::Options o;
    o.dsn = dsn;
    for (const QString& s : scenarios)
        o.scenarios.push_back(spec(s));
    o.seed = seed;
    if (log)
        o.onEvent = log->sink();
    return o;
}

// Lets the simulator create its schema (a start and an immediate stop), then records every insert,
// update and delete on public.leases in lease_audit.
inline void installLeaseAudit(const TestDatabase& db)
{
    {
        sim::Simulator s(simOptions(db.dsn(), {QStringLiteral("lease-workers:instances=1,interval=100")}));
        if (auto e = s.start())
            qFatal("cannot create the simulator's schema: %s", qPrintable(*e));
        s.stop();
    }
    db.exec(QStringLiteral(
        "CREATE TABLE lease_audit (id bigserial PRIMARY KEY, op text, name text, old_holder text, new_holder "
        "text, "
        "old_expires timestamptz, new_taken timestamptz, new_expires timestamptz, "
        "at timestamptz DEFAULT clock_timestamp());"
        "CREATE FUNCTION lease_audit_fn() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "IF TG_OP = 'INSERT' THEN INSERT INTO lease_audit(op, name, new_holder, new_taken, new_expires) "
        "  VALUES ('INSERT', NEW.name, NEW.holder, NEW.taken_at, NEW.expires_at); "
        "ELSIF TG_OP = 'UPDATE' THEN INSERT INTO lease_audit(op, name, old_holder, new_holder, old_expires, "
        "  new_taken, new_expires) VALUES ('UPDATE', NEW.name, OLD.holder, NEW.holder, OLD.expires_at, "
        "  NEW.taken_at, NEW.expires_at); "
        "ELSE INSERT INTO lease_audit(op, name, old_holder, old_expires) "
        "  VALUES ('DELETE', OLD.name, OLD.holder, OLD.expires_at); END IF; RETURN NULL; END $$;"
        "CREATE TRIGGER lease_audit AFTER INSERT OR UPDATE OR DELETE ON public.leases "
        "FOR EACH ROW EXECUTE FUNCTION lease_audit_fn();"));
}

// Sessions of the simulator still connected to the test database.
inline int simSessions(const TestDatabase& db, const QString& appLike = QStringLiteral("sim-%"))
{
    return db
        .value(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                              "AND pid <> pg_backend_pid() AND application_name LIKE '%1'")
                   .arg(appLike))
        .toInt();
}

} // namespace lw::test
