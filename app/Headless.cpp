#include "Headless.h"
#include "domain/Words.h"

#include "store/AuditLog.h"
#include "ForceExpire.h"
#include "domain/RefreshJudge.h"
#include "domain/LeaseTracker.h"
#include "domain/SnapshotFormat.h"
#include "domain/Outage.h"
#include "domain/Secrets.h"
#include "domain/Wording.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"
#include "pgbouncer/PgBouncerSource.h"
#include "feed/FeedClient.h"
#include "feed/FeedServer.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
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

// The judge of one database's refreshes, ruled as the window's.
struct Views : RefreshJudge
{
    explicit Views(const PollerConfig& cfg) : RefreshJudge(leasePolicyFor(cfg), cfg.leases.writerUsesAppClock) {}
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

// `via`: the recorder whose live feed this refresh came from (pid 0: this console's own connection).
QString render(const Snapshot& s, const LeaseTracker& leases, const std::vector<Finding>& findings, bool json,
               QJsonDocument::JsonFormat format, const feed::Hello& via = {})
{
    const double ageS = double(monotonicMs() - s.receivedMonotonicMs) / 1000.0;
    if (json) {
        QJsonObject o = snapshotToJson(s, leases, findings);
        if (via.pid > 0)
            o.insert(QStringLiteral("via_recorder"),
                     QJsonObject{{QStringLiteral("pid"), via.pid}, {QStringLiteral("refresh_age_s"), ageS}});
        return QString::fromUtf8(QJsonDocument(o).toJson(format));
    }
    QString text = snapshotToText(s, leases, findings);
    if (via.pid > 0)
        text.prepend(TerminalWords::tr("via recorder (pid %1), refresh %2 s old\n").arg(via.pid).arg(formatDecimal(ageS, 1)));
    return text;
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

// What a watch knows about one database's outage: since its last answer (or its first failure),
// the failure that began it, and the connection counts of the last answer (the causes' evidence).
struct OutageTrack
{
    int failures = 0;
    QDateTime lastAnswer, firstFailure;
    DbError began;
    std::pair<int, int> lastConnections{0, 0};
    ServerInfo server; // of the last answer

    void answered(const Snapshot& s)
    {
        failures = 0;
        lastAnswer = QDateTime::currentDateTime();
        firstFailure = {};
        began = {};
        if (s.analysis)
            lastConnections = {s.analysis->connectionsUsed, s.analysis->connectionBudget};
        server = s.server;
    }
    // A failed refresh, in the Overview's words; `waitMs` becomes the back-off before the next
    // attempt, like the window's (doubling, capped at 30 s).
    OutageView failed(const Snapshot& s, const PollerConfig& cfg, int& waitMs)
    {
        ++failures;
        waitMs = std::min(30000, cfg.intervalMs << std::min(failures, 5));
        if (!began.isError())
            began = s.error;
        OutageView o;
        o.now = QDateTime::currentDateTime();
        o.since = lastAnswer.isValid() ? lastAnswer : firstFailure.isValid() ? firstFailure : o.now;
        if (!firstFailure.isValid())
            firstFailure = o.now;
        o.began = began;
        o.error = s.error;
        o.nextAttempt = o.now.addMSecs(waitMs);
        o.refreshDeadlineMs = cfg.refreshDeadlineMs;
        o.connectionsUsed = lastConnections.first;
        o.connectionBudget = lastConnections.second;
        o.role = server.user;
        o.serverVersionNum = server.versionNum;
        return o;
    }
};

// One database of a snapshot or watch of several.
struct Many
{
    explicit Many(const Invocation::Target& t) : label(t.label), cfg(t.config), poller(t.config), views(t.config) {}
    QString label;
    PollerConfig cfg;
    Poller poller;
    Views views;
    OutageTrack outage;
    Snapshot last;
    std::vector<Finding> findings;
    std::optional<OutageView> down; // the last attempt failed
    int waitMs = 0;
    bool firstLook = true;
    std::chrono::steady_clock::time_point due{}; // the next refresh (a silent one backs off)

    int rank() const // worst first: not answering, then by the worst finding
    {
        if (down)
            return 4;
        return findings.empty() ? 0 : std::clamp(findings.front().severity, 1, 3);
    }
    SeverityCounts counts() const
    {
        SeverityCounts n;
        for (const Finding& f : findings)
            n.add(f.severity);
        return n;
    }
    // The database's one line: its state, its finding counts and the worst one (or why it is silent).
    QString line(int width) const
    {
        const QString name = label.leftJustified(width);
        if (down)
            return QStringLiteral("%1  NOT ANSWERING  %2").arg(name, outageLine(*down));
        const SeverityCounts n = counts();
        QString state = findings.empty() ? QStringLiteral("ok") : severityWord(findings.front().severity);
        QString text = QStringLiteral("%1  %2  %3 critical, %4 warning, %5 notice; %6 lease(s)")
                           .arg(name, state)
                           .arg(n.critical)
                           .arg(n.warning)
                           .arg(n.notice)
                           .arg(views.leases().size());
        if (!findings.empty())
            text += QStringLiteral("; worst: ") + findings.front().title;
        return text;
    }
    QJsonObject summaryJson() const
    {
        QJsonObject o;
        o[QStringLiteral("database")] = label;
        o[QStringLiteral("live")] = !down;
        const SeverityCounts n = counts();
        o[QStringLiteral("critical")] = n.critical;
        o[QStringLiteral("warning")] = n.warning;
        o[QStringLiteral("notice")] = n.notice;
        o[QStringLiteral("worst_severity")] = down ? 3 : findings.empty() ? 0 : findings.front().severity;
        o[QStringLiteral("worst")] = down ? QJsonValue(outageLine(*down))
                                          : findings.empty() ? QJsonValue(QJsonValue::Null) : findings.front().title;
        if (down) {
            o[QStringLiteral("cause")] = outageCauseKey(outageCauseOf(*down));
            o[QStringLiteral("error")] = last.error.toDisplayString();
        }
        return o;
    }
};

// Refreshes every database at once (each on its own thread, so one hung server costs its deadline
// once, not once per database) and prints one line per database, worst first, then each refresh.
// Returns the exit code: 1 when one could not be read, 3 when one's leases table is unusable, 0.
int refreshMany(std::vector<std::unique_ptr<Many>>& dbs, const Invocation& inv, QTextStream& out, bool terminal)
{
    // Only the databases due now: one backing off after failures is not retried at every round.
    const auto now = std::chrono::steady_clock::now();
    std::vector<Many*> due;
    for (auto& d : dbs)
        if (d->due <= now)
            due.push_back(d.get());
    {
        std::vector<std::thread> threads;
        for (Many* m : due)
            threads.emplace_back([m] {
                // The first look names its keys at once (a snapshot has no second refresh).
                m->last = std::exchange(m->firstLook, false) ? m->poller.refreshOnceNamed() : m->poller.refreshOnce();
            });
        for (std::thread& t : threads)
            t.join();
    }
    for (Many* d : due) {
        d->waitMs = d->cfg.intervalMs;
        d->down.reset();
        if (d->last.ok) {
            d->outage.answered(d->last);
            d->findings = d->views.apply(d->last);
        } else {
            d->down = d->outage.failed(d->last, d->cfg, d->waitMs);
            d->findings.clear();
        }
        d->due = std::chrono::steady_clock::now() + std::chrono::milliseconds(d->waitMs);
    }
    bool anyDown = false, anyUnreadable = false;
    for (const auto& d : dbs) {
        anyDown = anyDown || d->down.has_value();
        anyUnreadable = anyUnreadable || (!d->down && d->last.leasesError.has_value());
    }
    std::vector<Many*> order;
    for (auto& d : dbs)
        order.push_back(d.get());
    std::stable_sort(order.begin(), order.end(), [](const Many* a, const Many* b) { return a->rank() > b->rank(); });
    if (inv.json) {
        QJsonArray summary, snapshots;
        for (const Many* d : order) {
            summary.append(d->summaryJson());
            if (!d->down) {
                QJsonObject j = snapshotToJson(d->last, d->views.leases(), d->findings);
                j[QStringLiteral("database")] = d->label;
                snapshots.append(j);
            }
        }
        const QJsonObject root{{QStringLiteral("databases"), summary}, {QStringLiteral("snapshots"), snapshots}};
        out << QJsonDocument(root).toJson(terminal || inv.mode == Invocation::Mode::Snapshot ? QJsonDocument::Indented
                                                                                              : QJsonDocument::Compact);
        if (!terminal && inv.mode == Invocation::Mode::Watch)
            out << "\n"; // JSON Lines: one round per line
    } else {
        int width = 0;
        for (const Many* d : order)
            width = std::max(width, int(d->label.size()));
        for (const Many* d : order)
            out << d->line(width) << "\n";
        for (const Many* d : order) {
            out << "\n=== " << d->label << " ===\n";
            out << (d->down ? QStringLiteral("NOT ANSWERING: %1 %2\n").arg(outageLine(*d->down), outageCause(*d->down))
                            : snapshotToText(d->last, d->views.leases(), d->findings));
        }
    }
    out.flush();
    // A watch goes on through an unreadable lease table, as for one database: only 1 or 0 there.
    return anyDown ? 1 : anyUnreadable && inv.mode == Invocation::Mode::Snapshot ? 3 : 0;
}

} // namespace

int runSnapshot(const Invocation& inv)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (inv.targets.size() > 1) {
        std::vector<std::unique_ptr<Many>> dbs;
        for (const Invocation::Target& t : inv.targets)
            dbs.push_back(std::make_unique<Many>(t));
        return refreshMany(dbs, inv, out, ::isatty(STDOUT_FILENO) == 1);
    }
    Poller poller(inv.config);
    Views views(inv.config);
    BouncerFindings bouncer(inv);
    const Snapshot s = poller.refreshOnceNamed();
    if (auto rc = unusable(s, err, false))
        return *rc;
    std::vector<Finding> findings = views.apply(s);
    bouncer.addTo(s, findings, err);
    out << render(s, views.leases(), findings, inv.json, QJsonDocument::Indented);
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
    if (inv.targets.size() > 1) {
        std::vector<std::unique_ptr<Many>> dbs;
        for (const Invocation::Target& t : inv.targets)
            dbs.push_back(std::make_unique<Many>(t));
        int rc = 0;
        for (int n = 1; !g_stop.load(); ++n) {
            if (terminal)
                out << "\x1b[H\x1b[2J"; // redraw in place
            else if (!inv.json)
                out << TerminalWords::tr("=== refresh %1 at %2 ===")
                           .arg(n)
                           .arg(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")))
                    << "\n";
            rc = refreshMany(dbs, inv, out, terminal);
            if (inv.watchCount > 0 && n >= inv.watchCount)
                break;
            auto next = std::chrono::steady_clock::now() + std::chrono::seconds(30); // the soonest one due
            for (const auto& d : dbs)
                next = std::min(next, d->due);
            sleepInterruptibly(int(std::max<qint64>(
                0, std::chrono::duration_cast<std::chrono::milliseconds>(next - std::chrono::steady_clock::now()).count())));
        }
        return rc;
    }
    // A recorder watching this database offers its live refreshes: read those, so that the
    // database pays for one console (issue 49); --direct connects anyway.
    // feed://HOST:PORT: another machine's recorder, over TCP.
    const feed::FeedSource feedSrc = inv.feed ? *inv.feed
                                              : feed::FeedSource::local(feed::feedPathFor(HistoryOptions::defaultPath(
                                                    inv.profile ? inv.profile->name : dsnStoreName(inv.dsn))));
    std::unique_ptr<feed::FeedClient> viaFeed;
    if (inv.feed || (!inv.direct && feed::feedAnswers(feedSrc.localPath))) {
        viaFeed = std::make_unique<feed::FeedClient>(feedSrc, inv.config);
        viaFeed->start();
        const QString at = inv.feed ? feedSrc.describe() : feedSrc.localPath;
        err << (inv.feed ? TerminalWords::tr("leasewatch: reading the live refreshes of `leasewatch record` at %1, not "
                                             "connecting to the database")
                               .arg(at)
                         : TerminalWords::tr("leasewatch: reading the live refreshes of `leasewatch record` at %1, not "
                                             "connecting to the database (--direct connects)")
                               .arg(at))
            << "\n";
        err.flush();
    }
    Poller poller(inv.config);
    Views views(inv.config);
    BouncerFindings bouncer(inv);
    OutageTrack track;
    int rc = 0;
    for (int n = 1; !g_stop.load(); ++n) {
        std::optional<Snapshot> next;
        if (viaFeed)
            next = viaFeed->waitNext([] { return g_stop.load(); });
        else
            next = n == 1 ? poller.refreshOnceNamed() : poller.refreshOnce();
        if (!next)
            break; // interrupted while waiting for the recorder
        const Snapshot& s = *next;
        const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
        if (terminal)
            out << "\x1b[H\x1b[2J"; // redraw in place
        int waitMs = inv.config.intervalMs;
        if (s.ok) {
            track.answered(s);
            std::vector<Finding> findings = views.apply(s);
            bouncer.addTo(s, findings, err);
            if (!inv.json && !terminal)
                out << TerminalWords::tr("=== refresh %1 at %2 ===").arg(n).arg(stamp) << "\n";
            out << render(s, views.leases(), findings, inv.json,
                          terminal ? QJsonDocument::Indented : QJsonDocument::Compact,
                          viaFeed ? viaFeed->recorder() : feed::Hello{});
            if (inv.json && !terminal)
                out << "\n"; // JSON Lines: one refresh per line
            rc = 0;
        } else {
            // Keep watching through an outage, backing off like the window does (capped at 30 s),
            // in the Overview's words: what happened, since when, what comes next, and the causes.
            const OutageView o = track.failed(s, inv.config, waitMs);
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
                out << TerminalWords::tr("leasewatch: %1 NOT ANSWERING: %2 %3").arg(stamp, outageLine(o), outageCause(o))
                    << "\n";
            }
            rc = 1;
        }
        out.flush();
        if (inv.watchCount > 0 && n >= inv.watchCount)
            break;
        if (!viaFeed) // the feed says when the next refresh is, and backs off by itself
            sleepInterruptibly(waitMs);
    }
    return rc;
}

int runExpire(const Invocation& inv, const QString& auditPath)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    const QString where = inv.profile ? TerminalWords::tr("profile \"%1\"").arg(inv.profile->name)
                                      : auditDatabaseLabel(inv.config.connect.dsn);
    if (!inv.config.operatorMode) {
        err << TerminalWords::tr("leasewatch: refused: operator mode is off for %1; nothing was sent (enable operator "
                                 "mode in the profile, or pass --operator with a DSN)")
                   .arg(where)
            << "\n";
        return 4;
    }
    // Read the lease as the window would show it, with the evidence about its holder.
    Poller poller(inv.config);
    Views views(inv.config);
    const Snapshot s = poller.refreshOnce();
    if (auto rc = unusable(s, err, true))
        return *rc;
    views.apply(s);
    const std::vector<int> named = views.leases().rowsNamed(inv.leaseName);
    if (named.empty()) {
        err << (views.leases().tableName().isEmpty()
                    ? TerminalWords::tr("leasewatch: no lease named \"%1\" in any lease table; nothing was sent")
                          .arg(inv.leaseName)
                    : TerminalWords::tr("leasewatch: no lease named \"%1\" in %2; nothing was sent")
                          .arg(inv.leaseName, views.leases().tableName()))
            << "\n";
        return 1;
    }
    if (named.size() > 1) {
        QStringList where;
        for (int r : named)
            if (const LeaseTableConfig* t = views.leases().tableAt(r))
                where << t->qualifiedName();
        err << TerminalWords::tr("leasewatch: several leases are named \"%1\" (in %2); name the table with --table; "
                                 "nothing was sent")
                   .arg(inv.leaseName, where.join(QStringLiteral(", ")))
            << "\n";
        return 1;
    }
    const int row = named.front();
    const LeaseTableConfig* table = views.leases().tableAt(row);
    if (table && !table->forceExpireRefusal.isEmpty()) {
        err << TerminalWords::tr("leasewatch: force-expire is not offered for %1 (%2): %3 Nothing was sent.")
                   .arg(table->label(), table->qualifiedName(), libraryWords(table->forceExpireRefusal))
            << "\n";
        return 1;
    }
    const LeaseTracker::Entry& e = views.leases().entry(row);
    const std::optional<QString>& holderNow = e.track.row.holder;
    if (holderNow.value_or(QString()) != inv.holder) {
        err << (holderNow ? TerminalWords::tr("leasewatch: lease \"%1\" is held by \"%2\", not \"%3\"; nothing was sent")
                                .arg(inv.leaseName, *holderNow, inv.holder)
                          : TerminalWords::tr("leasewatch: lease \"%1\" is held by nobody (NULL), not \"%2\"; nothing "
                                              "was sent")
                                .arg(inv.leaseName, inv.holder))
            << "\n";
        return 1;
    }
    const HolderEvidence ev = assessHolder(e, s.sessions, true, s.serverNow, views.leases().policyAt(row), table);
    out << TerminalWords::tr("holder %1: %2").arg(inv.holder, ev.summary()) << "\n";
    if (ev.looksAlive && !inv.evenIfAlive) {
        err << TerminalWords::tr("leasewatch: refused: the holder may be alive, and expiring its lease would let a "
                                 "second instance run the same work; nothing was sent. Check the evidence above and "
                                 "rerun with --even-if-alive to expire it anyway (it still only expires the lease if "
                                 "\"%1\" holds it).")
                   .arg(inv.holder)
            << "\n";
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
        err << TerminalWords::tr("leasewatch: WARNING: the local audit log %1 could not record this: %2")
                   .arg(audit.path(), audit.errorString())
            << "\n";
    out.flush();
    return o.changed() ? 0 : 1;
}

int runCutBundle(const Invocation& inv)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    // The store the window and `leasewatch record` write for this profile or DSN.
    const QString name = inv.profile ? inv.profile->name : redactDsn(inv.dsn);
    const QString store = HistoryOptions::defaultPath(inv.profile ? inv.profile->name : dsnStoreName(inv.dsn));
    if (!QFileInfo::exists(store)) {
        err << TerminalWords::tr("leasewatch: nothing is recorded for %1 (no history store at %2); `leasewatch record "
                                 "%3` or a window on it records one")
                   .arg(name, store, inv.profile ? inv.profile->name : QStringLiteral("…"))
            << "\n";
        return 1;
    }
    const HistoryReader reader(store);
    if (!reader.isOpen()) {
        err << TerminalWords::tr("leasewatch: the history store %1 cannot be read: %2").arg(store, reader.errorString())
            << "\n";
        return 1;
    }
    const auto range = reader.range();
    if (range.isEmpty()) {
        err << TerminalWords::tr("leasewatch: the history store of %1 holds no refresh yet").arg(name) << "\n";
        return 1;
    }
    const double t1 = range.to;
    const double t0 = std::max(range.from, t1 - inv.bundleMinutes * 60.0);
    QString error;
    if (!reader.exportBundle(inv.bundleFile, t0, t1, {}, &error)) {
        err << TerminalWords::tr("leasewatch: the bundle was not written: %1").arg(error) << "\n";
        return 1;
    }
    auto hhmm = [](double t) {
        return QDateTime::fromMSecsSinceEpoch(qint64(t * 1000)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    };
    out << TerminalWords::tr("wrote %1: %2 from %3 to %4 (server time); open it with leasewatch --open-bundle %1")
               .arg(inv.bundleFile, name, hhmm(t0), hhmm(t1))
        << "\n";
    return 0;
}

} // namespace lw::app
