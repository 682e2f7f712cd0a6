#include "Headless.h"

#include "AuditLog.h"
#include "ForceExpire.h"
#include "Findings.h"
#include "LeaseModel.h"
#include "SnapshotFormat.h"
#include "domain/Outage.h"
#include "pgbouncer/PgBouncerSource.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>
#include <unistd.h>

namespace lw::app {

namespace {

std::atomic<bool> g_stop{false};

// The models one refresh goes through, as in the window.
struct Views
{
    explicit Views(const PollerConfig& cfg)
    {
        leases.setPolicy(leasePolicyFor(cfg));
        leases.setWriterUsesAppClock(cfg.leases.writerUsesAppClock);
    }
    LeaseModel leases;
    DeadlockWindow deadlocks;

    std::vector<Finding> apply(const Snapshot& s)
    {
        leases.applySnapshot(s);
        deadlocks.add(s.serverNow, s.cluster.deadlocks, s.cluster.statsReset);
        return collectFindings(s, leases, &deadlocks);
    }
};

// The PgBouncer in front (--pgbouncer, or the profile's), read at each refresh: its server slots
// joined with the refresh's advisory locks give the same findings as the window's PgBouncer page.
// When it cannot be read the cluster's output goes on, and stderr says why (once per new error).
class BouncerFindings
{
public:
    explicit BouncerFindings(const Invocation& inv)
    {
        if (inv.pgbouncerDsn.trimmed().isEmpty())
            return;
        bouncer::BouncerConfig c;
        c.dsn = inv.pgbouncerDsn.trimmed();
        c.intervalMs = inv.config.intervalMs;
        source_ = std::make_unique<bouncer::PgBouncerSource>(std::move(c));
    }
    void addTo(const Snapshot& s, std::vector<Finding>& findings, QTextStream& err)
    {
        if (!source_)
            return;
        const bouncer::BouncerSnapshot b = source_->refreshOnce();
        if (!b.ok) {
            const QString e = b.error.toDisplayString();
            if (e != lastError_)
                err << "leasewatch: PgBouncer: " << e << "\n";
            err.flush();
            lastError_ = e;
            return;
        }
        lastError_.clear();
        for (Finding& f : bouncer::slotFindings(bouncer::slotHolds(b, s)))
            findings.push_back(std::move(f));
        sortWorstFirst(findings);
    }

private:
    std::unique_ptr<bouncer::PgBouncerSource> source_;
    QString lastError_;
};

QString render(const Snapshot& s, const LeaseModel& leases, const std::vector<Finding>& findings, bool json,
               QJsonDocument::JsonFormat format)
{
    if (json)
        return QString::fromUtf8(QJsonDocument(snapshotToJson(s, leases, findings)).toJson(format));
    return snapshotToText(s, leases, findings);
}

// The exit code of a one-shot command whose refresh cannot be used (the error said on stderr), or
// nullopt. `needLeases`: the leases table must be readable too.
std::optional<int> unusable(const Snapshot& s, QTextStream& err, bool needLeases)
{
    if (!s.ok) {
        err << "leasewatch: " << s.error.toDisplayString() << "\n";
        return 1;
    }
    if (needLeases && s.leasesError) {
        err << "leasewatch: " << s.leasesError->toDisplayString() << "\n";
        return 3;
    }
    return std::nullopt;
}

// Sleeps up to `ms`, waking early when asked to stop.
void sleepInterruptibly(int ms)
{
    using namespace std::chrono;
    const auto until = steady_clock::now() + milliseconds(ms);
    while (!g_stop.load() && steady_clock::now() < until)
        std::this_thread::sleep_for(std::min<steady_clock::duration>(milliseconds(50), until - steady_clock::now()));
}

} // namespace

int runSnapshot(const Invocation& inv)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    Poller poller(inv.config);
    Views views(inv.config);
    BouncerFindings bouncer(inv);
    const Snapshot s = poller.refreshOnce();
    if (auto rc = unusable(s, err, false))
        return *rc;
    std::vector<Finding> findings = views.apply(s);
    bouncer.addTo(s, findings, err);
    out << render(s, views.leases, findings, inv.json, QJsonDocument::Indented);
    out.flush();
    // The rest is printed even when the leases table is unusable; the exit code says so.
    return unusable(s, err, true).value_or(0);
}

int runWatch(const Invocation& inv)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    g_stop.store(false);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        std::signal(sig, [](int) { g_stop.store(true); });
    const bool terminal = ::isatty(STDOUT_FILENO) == 1;
    Poller poller(inv.config);
    Views views(inv.config);
    BouncerFindings bouncer(inv);
    int failures = 0;
    int rc = 0;
    QDateTime lastAnswer, firstFailure; // the outage: since the last answer (or the first failure)
    pg::PgError outageBegan;
    std::pair<int, int> lastConnections{0, 0};
    for (int n = 1; !g_stop.load(); ++n) {
        const Snapshot s = poller.refreshOnce();
        const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
        if (terminal)
            out << "\x1b[H\x1b[2J"; // redraw in place
        int waitMs = inv.config.intervalMs;
        if (s.ok) {
            failures = 0;
            lastAnswer = QDateTime::currentDateTime();
            firstFailure = {};
            outageBegan = {};
            if (s.analysis)
                lastConnections = {s.analysis->connectionsUsed, s.analysis->connectionBudget};
            std::vector<Finding> findings = views.apply(s);
            bouncer.addTo(s, findings, err);
            if (!inv.json && !terminal)
                out << "=== refresh " << n << " at " << stamp << " ===\n";
            out << render(s, views.leases, findings, inv.json,
                          terminal ? QJsonDocument::Indented : QJsonDocument::Compact);
            if (inv.json && !terminal)
                out << "\n"; // JSON Lines: one refresh per line
            rc = 0;
        } else {
            // Keep watching through an outage, backing off like the window does (capped at 30 s),
            // in the Overview's words: what happened, since when, what comes next, and the causes.
            ++failures;
            waitMs = std::min(30000, inv.config.intervalMs << std::min(failures, 5));
            if (!outageBegan.isError())
                outageBegan = s.error;
            OutageView o;
            o.now = QDateTime::currentDateTime();
            o.since = lastAnswer.isValid() ? lastAnswer : firstFailure.isValid() ? firstFailure : o.now;
            if (!firstFailure.isValid())
                firstFailure = o.now;
            o.began = outageBegan;
            o.error = s.error;
            o.nextAttempt = o.now.addMSecs(waitMs);
            o.refreshDeadlineMs = inv.config.refreshDeadlineMs;
            o.connectionsUsed = lastConnections.first;
            o.connectionBudget = lastConnections.second;
            if (inv.json) {
                QJsonObject j;
                j.insert(QStringLiteral("live"), false);
                j.insert(QStringLiteral("not_answering_s"), o.seconds());
                j.insert(QStringLiteral("since"), o.since.toUTC().toString(Qt::ISODateWithMs));
                j.insert(QStringLiteral("cause"), outageCauseKey(outageCauseOf(o)));
                j.insert(QStringLiteral("message"), outageLine(o));
                j.insert(QStringLiteral("error"), s.error.toDisplayString());
                j.insert(QStringLiteral("retry_in_s"), waitMs / 1000.0);
                out << QJsonDocument(j).toJson(terminal ? QJsonDocument::Indented : QJsonDocument::Compact);
                if (!terminal)
                    out << "\n";
            } else {
                out << "leasewatch: " << stamp << " NOT ANSWERING: " << outageLine(o) << " " << outageCause(o)
                    << "\n";
            }
            rc = 1;
        }
        out.flush();
        if (inv.watchCount > 0 && n >= inv.watchCount)
            break;
        sleepInterruptibly(waitMs);
    }
    return rc;
}

int runExpire(const Invocation& inv, const QString& auditPath)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    const QString where = inv.profile ? QStringLiteral("profile \"%1\"").arg(inv.profile->name)
                                      : auditDatabaseLabel(inv.config.connect.dsn);
    if (!inv.config.operatorMode) {
        err << "leasewatch: refused: operator mode is off for " << where
            << "; nothing was sent (enable operator mode in the profile, or pass --operator with a DSN)\n";
        return 4;
    }
    // Read the lease as the window would show it, with the evidence about its holder.
    Poller poller(inv.config);
    Views views(inv.config);
    const Snapshot s = poller.refreshOnce();
    if (auto rc = unusable(s, err, true))
        return *rc;
    views.apply(s);
    const std::vector<int> named = views.leases.rowsNamed(inv.leaseName);
    if (named.empty()) {
        err << "leasewatch: no lease named \"" << inv.leaseName << "\" in "
            << (views.leases.tableName().isEmpty() ? QStringLiteral("any lease table") : views.leases.tableName())
            << "; nothing was sent\n";
        return 1;
    }
    if (named.size() > 1) {
        QStringList where;
        for (int r : named)
            if (const LeaseTableConfig* t = views.leases.tableAt(r))
                where << t->qualifiedName();
        err << "leasewatch: several leases are named \"" << inv.leaseName << "\" (in " << where.join(QStringLiteral(", "))
            << "); name the table with --table; nothing was sent\n";
        return 1;
    }
    const int row = named.front();
    const LeaseTableConfig* table = views.leases.tableAt(row);
    if (table && !table->forceExpireRefusal.isEmpty()) {
        err << "leasewatch: force-expire is not offered for " << table->label() << " (" << table->qualifiedName()
            << "): " << table->forceExpireRefusal << " Nothing was sent.\n";
        return 1;
    }
    const LeaseModel::Entry& e = views.leases.entry(row);
    const std::optional<QString>& holderNow = e.track.row.holder;
    if (holderNow.value_or(QString()) != inv.holder) {
        err << "leasewatch: lease \"" << inv.leaseName << "\" is held by "
            << (holderNow ? QStringLiteral("\"%1\"").arg(*holderNow) : QStringLiteral("nobody (NULL)"))
            << ", not \"" << inv.holder << "\"; nothing was sent\n";
        return 1;
    }
    const HolderEvidence ev = assessHolder(e, s.sessions, true, s.serverNow, views.leases.policyAt(row), table);
    out << "holder " << inv.holder << ": " << ev.summary() << "\n";
    if (ev.looksAlive && !inv.evenIfAlive) {
        err << "leasewatch: refused: the holder may be alive, and expiring its lease would let a second "
               "instance run the same work; nothing was sent. Check the evidence above and rerun with "
               "--even-if-alive to expire it anyway (it still only expires the lease if \""
            << inv.holder << "\" holds it).\n";
        return 5;
    }
    const ForceExpireTarget target = targetFor(e, ev);
    ForceExpireRequest req = forceExpireRequestFor(inv.config);
    if (table)
        req.table = *table; // the table the lease was read from (found by detection, maybe)

    AuditLog audit(auditPath);
    const std::vector<qint64> ids =
        auditForceExpireSent(&audit, req, {target}, auditDatabaseLabel(inv.config.connect.dsn, s.server.database));
    const std::vector<ForceExpireOutcome> outcomes = forceExpire(req, {target});
    const bool logged = auditForceExpireOutcomes(&audit, outcomes, ids);
    const ForceExpireOutcome& o = outcomes.front();
    out << o.text() << "\n";
    if (!logged)
        err << "leasewatch: WARNING: the local audit log " << audit.path()
            << " could not record this: " << audit.errorString() << "\n";
    out.flush();
    return o.changed() ? 0 : 1;
}

} // namespace lw::app
