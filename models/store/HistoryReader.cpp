#include "HistoryReader.h"
#include "domain/Words.h"
#include "LeaseReplay.h"
#include "domain/UtcTime.h"

#include "domain/Secrets.h"

#include "pg/PollerConfig.h"
#include "domain/PoolHistory.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSet>
#include <QSqlQuery>

#include <cmath>

namespace lw {

using namespace history;

QString timelineKindText(LeaseTimelineEvent::Kind k)
{
    using K = LeaseTimelineEvent::Kind;
    switch (k) {
    case K::Seen:
        return StateWords::tr("held (recording began)");
    case K::Take:
        return StateWords::tr("taken");
    case K::TakeOver:
        return StateWords::tr("taken over");
    case K::Renewals:
        return StateWords::tr("renewed");
    case K::Overdue:
        return StateWords::tr("renewal overdue");
    case K::Expired:
        return StateWords::tr("expired (stale)");
    case K::ForcedExpiry:
        return StateWords::tr("force-expired");
    case K::Changed:
        return StateWords::tr("changed");
    case K::Released:
        return StateWords::tr("released");
    }
    return {};
}

namespace {
QString sqlReal(double v)
{
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("-1e308") : QStringLiteral("1e308");
    return QString::number(v, 'g', 17);
}

LeaseChangeRow changeFromQuery(const QSqlQuery& q)
{
    // Columns: id, refresh_id, at, key, name, kind, holder, taken_at, expires_at, state
    LeaseChangeRow r;
    r.id = q.value(0).toLongLong();
    r.refreshId = q.value(1).toLongLong();
    r.at = q.value(2).toDouble();
    r.key = q.value(3).toString();
    r.name = q.value(4).toString();
    r.kind = ChangeKind(q.value(5).toInt());
    if (!q.value(6).isNull())
        r.holder = q.value(6).toString();
    r.takenAt = optionalReal(q.value(7));
    r.expiresAt = optionalReal(q.value(8));
    r.state = LeaseState(q.value(9).toInt());
    if (!q.value(10).isNull()) {
        r.renewals = q.value(10).toInt();
        r.firstRenewalAt = q.value(11).toDouble();
        r.lastRenewalAt = q.value(12).toDouble();
    } else if (r.kind == ChangeKind::Renew) {
        r.renewals = 1; // schema 1: a row per renewal
        r.firstRenewalAt = r.lastRenewalAt = r.at;
    }
    return r;
}

} // namespace

HistoryReader::HistoryReader(const QString& path) : path_(path)
{
    if (!QFileInfo::exists(path)) {
        error_ = ErrorWords::tr("%1: no such file").arg(path);
        return;
    }
    conn_ = std::make_unique<SqliteConnection>(path, true, QStringLiteral("history-reader"));
    if (!conn_->isOpen()) {
        error_ = conn_->errorString();
        return;
    }
    QSqlQuery q(conn_->db());
    if (!q.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schema_version'")) || !q.next()) {
        error_ = ErrorWords::tr("%1 is not a Leasewatch history (%2)").arg(path, q.lastError().text());
        return;
    }
    if (q.value(0).toInt() > kSchemaVersion) {
        error_ = ErrorWords::tr("%1 was written by a newer Leasewatch (history schema %2)")
                     .arg(path, q.value(0).toString());
        return;
    }
    if (QSqlQuery t(conn_->db());
        t.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'lease_tables'")) && t.next()) {
        auto tables = leaseTablesFromJson(QJsonDocument::fromJson(t.value(0).toString().toUtf8()).array());
        if (!tables.empty())
            leaseTables_ = std::make_shared<const std::vector<LeaseTableConfig>>(std::move(tables));
    }
    const bool counted = hasRenewalCounts(conn_->db());
    changeColumns_ = QStringLiteral("c.id, c.refresh_id, c.at, l.key, l.name, c.kind, c.holder, c.taken_at, "
                                    "c.expires_at, c.state, %1")
                         .arg(counted ? QStringLiteral("c.renewals, c.first_renewal_at, c.last_renewal_at")
                                      : QStringLiteral("NULL, NULL, NULL"));
    const QMap<QString, QString> meta = metadata();
    // A store being written (or whose writer died) may have renewals counted that no row holds.
    tailRenewing_ = counted && meta.value(QStringLiteral("renewals_flushed")) == QLatin1String("0");
    analysis_ = analysisConfigFromJson(
        QJsonDocument::fromJson(meta.value(QStringLiteral("analysis_config")).toUtf8()).object());
    recordedPolicy_ =
        leasePolicyFromJson(QJsonDocument::fromJson(meta.value(QStringLiteral("lease_policy")).toUtf8()).object());
    open_ = true;
}

HistoryReader::~HistoryReader() = default;

QMap<QString, QString> HistoryReader::metadata() const
{
    QMap<QString, QString> m;
    if (!conn_)
        return m;
    QSqlQuery q(conn_->db());
    q.exec(QStringLiteral("SELECT key, value FROM meta"));
    while (q.next())
        m.insert(q.value(0).toString(), q.value(1).toString());
    return m;
}

bool HistoryReader::isBundle() const
{
    return metadata().value(QStringLiteral("kind")) == QLatin1String("bundle");
}

QString HistoryReader::integrityCheck() const
{
    if (!conn_ || !conn_->isOpen())
        return error_;
    QSqlQuery q(conn_->db());
    if (!q.exec(QStringLiteral("PRAGMA integrity_check")))
        return q.lastError().text();
    QStringList out;
    while (q.next())
        out << q.value(0).toString();
    return out.join(QLatin1Char('\n'));
}

HistoryReader::Range HistoryReader::range() const
{
    Range r;
    if (!open_)
        return r;
    QSqlQuery q(conn_->db());
    if (q.exec(QStringLiteral("SELECT min(at), max(at), count(*) FROM refresh")) && q.next()) {
        r.from = q.value(0).toDouble();
        r.to = q.value(1).toDouble();
        r.refreshes = q.value(2).toLongLong();
    }
    return r;
}

std::optional<HistoryReader::LastRefresh> HistoryReader::lastRefresh() const
{
    if (!open_)
        return std::nullopt;
    QSqlQuery q(conn_->db());
    if (!q.exec(QStringLiteral("SELECT at, wall_ms, ok, error FROM refresh ORDER BY id DESC LIMIT 1")) || !q.next())
        return std::nullopt;
    return LastRefresh{q.value(0).toDouble(), q.value(1).toLongLong(), q.value(2).toInt() != 0, q.value(3).toString()};
}

std::vector<double> HistoryReader::refreshTimes(double t0, double t1) const
{
    std::vector<double> out;
    if (!open_)
        return out;
    QSqlQuery q(conn_->db());
    q.setForwardOnly(true);
    q.exec(QStringLiteral("SELECT at FROM refresh WHERE at >= %1 AND at <= %2 ORDER BY id")
               .arg(sqlReal(t0), sqlReal(t1)));
    while (q.next())
        out.push_back(q.value(0).toDouble());
    return out;
}

AnalysisConfig HistoryReader::analysisConfig() const
{
    return analysis_;
}

PollerConfig HistoryReader::recordedConfig() const
{
    const auto meta = metadata();
    PollerConfig c;
    c.connect.dsn = meta.value(QStringLiteral("source_dsn"));
    c.analysis = analysis_;
    bool appClock = false;
    const LeasePolicy p = leasePolicyFromJson(
        QJsonDocument::fromJson(meta.value(QStringLiteral("lease_policy")).toUtf8()).object(), &appClock);
    c.intervalMs = int(std::lround(p.refreshIntervalS * 1000));
    c.leases.ttlSeconds = p.ttlOverride;
    c.leases.expiringSoonShare = p.expiringSoonShare;
    c.leases.writerUsesAppClock = appClock;
    c.leases.expiryFrees = p.expiryFrees;
    c.leases.expectRenewals = p.expectRenewals;
    return c;
}

std::vector<HistoryReader::Refresh> HistoryReader::refreshes(double t0, double t1) const
{
    std::vector<Refresh> out;
    QSqlQuery q(conn_->db());
    q.setForwardOnly(true);
    q.exec(QStringLiteral("SELECT id, at, wall_ms, ok, state_blob, keynames_blob, error FROM refresh WHERE at >= "
                          "%1 AND at <= %2 ORDER BY id")
               .arg(sqlReal(t0), sqlReal(t1)));
    while (q.next()) {
        Refresh r;
        r.id = q.value(0).toLongLong();
        r.at = q.value(1).toDouble();
        r.wallMs = q.value(2).toLongLong();
        r.ok = q.value(3).toInt() != 0;
        r.stateBlob = q.value(4).toLongLong();
        r.keyNamesBlob = q.value(5).toLongLong();
        r.error = q.value(6).toString();
        out.push_back(std::move(r));
    }
    return out;
}

QMap<QString, LeaseChangeRow> HistoryReader::leasesAt(qint64 refreshId) const
{
    QMap<QString, LeaseChangeRow> out;
    QSqlQuery q(conn_->db());
    q.setForwardOnly(true);
    // Per lease, its latest change up to the refresh (an index lookup per lease, not a scan).
    q.exec(QStringLiteral("SELECT %1 FROM lease l JOIN lease_change c ON c.id = (SELECT max(x.id) FROM "
                          "lease_change x WHERE x.lease_id = l.id AND x.id <= (SELECT coalesce(max(id), 0) FROM "
                          "lease_change WHERE refresh_id <= %2)) WHERE c.kind <> %3")
               .arg(changeColumns_)
               .arg(refreshId)
               .arg(int(ChangeKind::Release)));
    while (q.next()) {
        LeaseChangeRow c = changeFromQuery(q);
        const QString key = c.key;
        out.insert(key, std::move(c));
    }
    return out;
}

bool HistoryReader::fillSnapshot(const Refresh& r, Snapshot& s, qint64& cachedState, Snapshot& stateCache,
                                 qint64& cachedNames, std::shared_ptr<const KeyNames>& namesCache) const
{
    QSqlQuery q(conn_->db());
    if (r.stateBlob && r.stateBlob != cachedState) {
        q.exec(QStringLiteral("SELECT data FROM blob WHERE id = %1").arg(r.stateBlob));
        Snapshot parts;
        if (q.next() && decodeState(q.value(0).toByteArray(), parts)) {
            stateCache = std::move(parts);
            cachedState = r.stateBlob;
        }
    }
    if (r.keyNamesBlob && r.keyNamesBlob != cachedNames) {
        q.exec(QStringLiteral("SELECT data FROM blob WHERE id = %1").arg(r.keyNamesBlob));
        if (q.next())
            if (auto names = decodeKeyNames(q.value(0).toByteArray())) {
                namesCache = std::make_shared<const KeyNames>(std::move(*names));
                cachedNames = r.keyNamesBlob;
            }
    }
    s.seq = quint64(r.id);
    s.serverNow = r.at;
    s.receivedWall = QDateTime::fromMSecsSinceEpoch(r.wallMs);
    s.ok = r.ok;
    if (!r.ok) {
        s.error.kind = DbError::Kind::ConnectionLost;
        s.error.message = r.error;
        return true;
    }
    if (!r.stateBlob || cachedState != r.stateBlob)
        return false; // the blob is missing or unreadable: not a refresh that can be shown
    s.server = stateCache.server;
    s.cluster = stateCache.cluster;
    s.sessions = stateCache.sessions;
    s.advisoryLocks = stateCache.advisoryLocks;
    s.leasesError = stateCache.leasesError;
    s.error = stateCache.error;
    s.keyNames = namesCache ? namesCache : std::make_shared<const KeyNames>();
    s.analysis = std::make_shared<const Analysis>(analyze(s, analysis_));
    return true;
}

std::optional<Snapshot> HistoryReader::snapshotAt(double t) const
{
    if (!open_)
        return std::nullopt;
    QSqlQuery q(conn_->db());
    q.exec(QStringLiteral("SELECT at FROM refresh WHERE at <= %1 ORDER BY at DESC, id DESC LIMIT 1").arg(sqlReal(t)));
    if (!q.next())
        return std::nullopt;
    const double at = q.value(0).toDouble();
    std::optional<Snapshot> out;
    forEachSnapshot(at, at, [&](const Snapshot& s) {
        out = s;
        return true; // the last refresh at that instant wins
    });
    return out;
}

void HistoryReader::forEachSnapshot(double t0, double t1, const std::function<bool(const Snapshot&)>& fn,
                                    LeaseDetail detail) const
{
    if (!open_)
        return;
    const std::vector<Refresh> rs = refreshes(t0, t1);
    if (rs.empty())
        return;
    std::optional<LeaseReplay> replay;
    if (detail == LeaseDetail::Full)
        replay.emplace(recordedLeases(rs.front().id, rs.back().id), leaseTables_, recordedPolicy_, tailRenewing_);
    qint64 cachedState = 0, cachedNames = 0;
    Snapshot stateCache;
    std::shared_ptr<const KeyNames> namesCache;
    for (const Refresh& r : rs) {
        if (replay)
            replay->advanceTo(r.id);
        Snapshot s;
        if (!fillSnapshot(r, s, cachedState, stateCache, cachedNames, namesCache))
            continue;
        if (replay && s.ok && !s.leasesError)
            replay->fill(r.at, s);
        s.leaseTables = leaseTables_;
        if (!fn(s))
            return;
    }
}

RecordedLeases HistoryReader::recordedLeases(qint64 firstRefresh, qint64 lastRefresh) const
{
    RecordedLeases rec;
    rec.base = leasesAt(firstRefresh);
    QSqlQuery c(conn_->db());
    c.setForwardOnly(true);
    c.exec(QStringLiteral("SELECT %1 FROM lease_change c JOIN lease l ON l.id = c.lease_id WHERE c.refresh_id > %2 "
                          "AND c.refresh_id <= %3 ORDER BY c.id")
               .arg(changeColumns_)
               .arg(firstRefresh)
               .arg(lastRefresh));
    while (c.next())
        rec.changes.push_back(changeFromQuery(c));
    // For each lease still held at the range's end, its first row after it (an index seek each).
    QSqlQuery seek(conn_->db());
    seek.setForwardOnly(true);
    seek.prepare(QStringLiteral("SELECT %1 FROM lease_change c JOIN lease l ON l.id = c.lease_id WHERE c.id = "
                                "(SELECT min(x.id) FROM lease_change x WHERE x.lease_id = (SELECT id FROM lease "
                                "WHERE key = ?) AND x.refresh_id > ?)")
                     .arg(changeColumns_));
    QSet<QString> looked;
    auto lookAhead = [&](const LeaseChangeRow& last) {
        if (!LeaseReplay::isHeld(last.state) || last.kind == ChangeKind::Release || looked.contains(last.key))
            return;
        looked.insert(last.key);
        seek.addBindValue(last.key);
        seek.addBindValue(lastRefresh);
        if (seek.exec() && seek.next())
            rec.after.push_back(changeFromQuery(seek));
        seek.finish();
    };
    QHash<QString, const LeaseChangeRow*> lastOf;
    for (const LeaseChangeRow& row : rec.changes)
        lastOf.insert(row.key, &row);
    for (auto it = rec.base.cbegin(); it != rec.base.cend(); ++it)
        if (!lastOf.contains(it.key()))
            lookAhead(*it);
    for (const LeaseChangeRow* row : std::as_const(lastOf))
        lookAhead(*row);
    return rec;
}

QStringList HistoryReader::leaseNames() const
{
    QStringList out;
    if (!open_)
        return out;
    QSqlQuery q(conn_->db());
    q.exec(QStringLiteral("SELECT DISTINCT name FROM lease ORDER BY name"));
    while (q.next())
        out << q.value(0).toString();
    return out;
}

std::vector<LeaseChangeRow> HistoryReader::leaseChanges(const QString& name, double t0, double t1) const
{
    std::vector<LeaseChangeRow> out;
    if (!open_)
        return out;
    QSqlQuery q(conn_->db());
    q.setForwardOnly(true);
    // A bundle holds each lease's next row after its range for the replay; it is not shown.
    q.prepare(QStringLiteral("SELECT %1 FROM lease_change c JOIN lease l ON l.id = c.lease_id WHERE %2 c.at >= %3 "
                             "AND c.at <= %4 AND c.refresh_id <= (SELECT max(id) FROM refresh) ORDER BY c.id")
                  .arg(changeColumns_,
                       // By the lease's ids, then its rows by (lease_id, id): a store without
                       // the name index (older ones, bundles cut by them) scans only `lease`.
                       name.isEmpty() ? QString()
                                      : QStringLiteral("c.lease_id IN (SELECT id FROM lease WHERE name = ?) AND"),
                       sqlReal(t0), sqlReal(t1)));
    if (!name.isEmpty())
        q.addBindValue(name);
    q.exec();
    while (q.next())
        out.push_back(changeFromQuery(q));
    return out;
}

std::vector<AuditRecord> HistoryReader::audit() const
{
    std::vector<AuditRecord> out;
    if (!open_)
        return out;
    QSqlQuery q(conn_->db());
    q.setForwardOnly(true);
    q.exec(QStringLiteral("SELECT %1 FROM audit ORDER BY id").arg(QLatin1String(kAuditColumns)));
    while (q.next())
        out.push_back(auditRecordFromRow(q));
    return out;
}

std::vector<LeaseTimelineEvent> HistoryReader::timeline(const QString& name) const
{
    using K = LeaseTimelineEvent::Kind;
    std::vector<LeaseTimelineEvent> out;
    if (!open_)
        return out;
    // Forced expiries of this lease that took effect, from the copied audit.
    struct Forced
    {
        AuditRecord rec;
        std::optional<double> newExpiry;
        bool used = false;
    };
    std::vector<Forced> forced;
    for (const AuditRecord& a : audit()) {
        if (a.action != QLatin1String("force-expire") || a.outcomeKey != QLatin1String("expired") ||
            !a.target.endsWith(QLatin1Char('/') + name))
            continue;
        Forced f{a, std::nullopt, false};
        const QJsonObject after = QJsonDocument::fromJson(a.after.toUtf8()).object();
        if (after.contains(QStringLiteral("expires_at_epoch")))
            f.newExpiry = after.value(QStringLiteral("expires_at_epoch")).toDouble();
        forced.push_back(std::move(f));
    }
    auto operatorOf = [](const AuditRecord& a) {
        QString who = a.osUser;
        if (!a.osHost.isEmpty())
            who += QLatin1Char('@') + a.osHost;
        if (!a.dbRole.isEmpty())
            who += TableWords::tr(" (role %1)").arg(a.dbRole);
        return who;
    };

    std::optional<QString> lastHolder;
    for (const LeaseChangeRow& c : leaseChanges(name)) {
        LeaseTimelineEvent e;
        e.at = c.at;
        e.key = c.key;
        e.holder = c.holder;
        e.takenAt = c.takenAt;
        e.expiresAt = c.expiresAt;
        switch (c.kind) {
        case ChangeKind::Seen:
            e.kind = K::Seen;
            break;
        case ChangeKind::Take:
            e.kind = K::Take;
            if (lastHolder && lastHolder != c.holder) {
                e.previousHolder = lastHolder->isEmpty() ? QString() : *lastHolder;
                e.detail = TableWords::tr("replaced %1 before its lease expired").arg(e.previousHolder);
            }
            break;
        case ChangeKind::TakeOver:
            e.kind = K::TakeOver;
            e.previousHolder = lastHolder.value_or(QString());
            e.detail = TableWords::tr("from %1").arg(e.previousHolder);
            break;
        case ChangeKind::Renew:
            if (!out.empty() && out.back().kind == K::Renewals && out.back().holder == c.holder &&
                out.back().key == c.key) {
                LeaseTimelineEvent& r = out.back();
                r.renewals += c.renewals;
                r.lastRenewal = c.lastRenewalAt;
                r.expiresAt = c.expiresAt;
                r.detail = TableWords::tr("%1 renewals").arg(r.renewals);
                lastHolder = c.holder;
                continue;
            }
            e.kind = K::Renewals;
            e.renewals = c.renewals;
            e.firstRenewal = c.firstRenewalAt;
            e.lastRenewal = c.lastRenewalAt;
            e.at = c.firstRenewalAt;
            e.detail = c.renewals == 1 ? TableWords::tr("1 renewal") : TableWords::tr("%1 renewals").arg(c.renewals);
            break;
        case ChangeKind::State:
            if (c.state == LeaseState::Stale)
                e.kind = K::Expired;
            else if (c.state == LeaseState::RenewalOverdue)
                e.kind = K::Overdue;
            else
                continue; // held ↔ expiring soon, taken over → held: the holder's events say it
            break;
        case ChangeKind::Modify: {
            e.kind = K::Changed;
            // A forced expiry: the audit says the expiry was set to what this change shows.
            Forced* best = nullptr;
            for (Forced& f : forced) {
                if (f.used)
                    continue;
                if (f.newExpiry && c.expiresAt && std::abs(*f.newExpiry - *c.expiresAt) < 0.5) {
                    best = &f;
                    break;
                }
                const double dt = double(f.rec.at.toMSecsSinceEpoch()) / 1000.0 - c.at;
                if (!f.newExpiry && dt < 5 && dt > -120)
                    best = &f;
            }
            if (best) {
                best->used = true;
                e.kind = K::ForcedExpiry;
                e.operatorName = operatorOf(best->rec);
                e.auditId = best->rec.id;
                e.detail = best->rec.outcome;
            } else {
                e.detail = TableWords::tr("taken at / expiry changed by the same holder");
            }
            break;
        }
        case ChangeKind::Release:
            e.kind = K::Released;
            break;
        }
        // After a release the lease is gone: whoever takes it next replaces nobody.
        if (c.kind == ChangeKind::Release)
            lastHolder.reset();
        else
            lastHolder = c.holder;
        out.push_back(std::move(e));
    }
    // Forced expiries the refreshes did not catch as a change (re-taken within one interval).
    for (const Forced& f : forced) {
        if (f.used)
            continue;
        LeaseTimelineEvent e;
        e.kind = K::ForcedExpiry;
        e.at = double(f.rec.at.toMSecsSinceEpoch()) / 1000.0;
        e.key = name;
        e.operatorName = operatorOf(f.rec);
        e.auditId = f.rec.id;
        e.expiresAt = f.newExpiry;
        e.detail = f.rec.outcome + TableWords::tr(" (from the audit log; local clock)");
        out.push_back(std::move(e));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const LeaseTimelineEvent& a, const LeaseTimelineEvent& b) { return a.at < b.at; });
    return out;
}

std::vector<RecordedFinding> HistoryReader::findings(double t0, double t1) const
{
    std::vector<RecordedFinding> out;
    if (!open_)
        return out;
    QSqlQuery q(conn_->db());
    q.setForwardOnly(true);
    q.exec(QStringLiteral("SELECT finding_id, kind, severity, title, subject, appeared_at, gone_at FROM finding "
                          "WHERE appeared_at <= %2 AND (gone_at IS NULL OR gone_at >= %1) ORDER BY id")
               .arg(sqlReal(t0), sqlReal(t1)));
    while (q.next()) {
        RecordedFinding f;
        f.findingId = q.value(0).toString();
        f.kind = q.value(1).toString();
        f.severity = q.value(2).toInt();
        f.title = q.value(3).toString();
        f.subject = q.value(4).toString();
        f.appearedAt = q.value(5).toDouble();
        f.goneAt = optionalReal(q.value(6));
        out.push_back(std::move(f));
    }
    return out;
}

RecordedPoolSamples HistoryReader::poolSamples(double t0, double t1) const
{
    RecordedPoolSamples out;
    if (!open_)
        return out;
    QSqlQuery q(conn_->db());
    q.setForwardOnly(true);
    q.exec(QStringLiteral("SELECT refresh_id, at, connections, connection_budget, lock_table_entries, "
                          "lock_table_capacity, advisory_locks, waiting_on_lock, deadlocks_last_minute, "
                          "counter_reset FROM cluster_sample WHERE at >= %1 AND at <= %2 ORDER BY refresh_id")
               .arg(sqlReal(t0), sqlReal(t1)));
    std::vector<qint64> ids;
    while (q.next()) {
        ClusterSample c;
        ids.push_back(q.value(0).toLongLong());
        c.t = q.value(1).toDouble();
        c.connections = q.value(2).toInt();
        c.connectionBudget = q.value(3).toInt();
        c.lockTableEntries = q.value(4).toInt();
        c.lockTableCapacity = q.value(5).toInt();
        c.advisoryLocks = q.value(6).toInt();
        c.waitingOnLock = q.value(7).toInt();
        c.deadlocksLastMinute = q.value(8).toInt();
        c.counterReset = q.value(9).toInt() != 0;
        out.t.push_back(c.t);
        out.cluster.push_back(c);
    }
    if (ids.empty())
        return out;
    // Each group's counts carried forward from its latest change at or before each refresh.
    struct Track
    {
        size_t index;
        GroupSample current;
    };
    QHash<qint64, Track> tracks;
    auto apply = [&](const QSqlQuery& r) {
        const qint64 gid = r.value(0).toLongLong();
        auto it = tracks.find(gid);
        if (it == tracks.end()) {
            RecordedPoolSamples::Group g;
            g.by = GroupBy(r.value(1).toInt());
            g.key = r.value(2).toString();
            out.groups.push_back(std::move(g));
            it = tracks.insert(gid, Track{out.groups.size() - 1, {}});
        }
        it->current.active = r.value(3).toInt();
        it->current.idle = r.value(4).toInt();
        it->current.idleInTransaction = r.value(5).toInt();
        it->current.waitingOnLock = r.value(6).toInt();
        it->current.idleHoldingAdvisory = r.value(7).toInt();
    };
    const QString cols = QStringLiteral("g.id, g.grouping, g.key, s.active, s.idle, s.idle_in_transaction, "
                                        "s.waiting_on_lock, s.idle_holding_advisory");
    q.exec(QStringLiteral("SELECT %1 FROM pool_group g JOIN group_sample s ON s.id = (SELECT max(x.id) FROM "
                          "group_sample x WHERE x.group_id = g.id AND x.refresh_id <= %2)")
               .arg(cols)
               .arg(ids.front()));
    while (q.next())
        apply(q);
    q.exec(QStringLiteral("SELECT %1, s.refresh_id FROM group_sample s JOIN pool_group g ON g.id = s.group_id "
                          "WHERE s.refresh_id > %2 AND s.refresh_id <= %3 ORDER BY s.id")
               .arg(cols)
               .arg(ids.front())
               .arg(ids.back()));
    bool have = q.next();
    for (size_t i = 0; i < ids.size(); ++i) {
        while (have && q.value(8).toLongLong() <= ids[i]) {
            apply(q);
            have = q.next();
        }
        for (auto it = tracks.begin(); it != tracks.end(); ++it) {
            auto& samples = out.groups[it->index].samples;
            samples.resize(i); // zeros before the group's first sample
            GroupSample g = it->current;
            g.t = out.t[i];
            samples.push_back(g);
        }
    }
    for (auto& g : out.groups)
        for (size_t i = g.samples.size(); i < ids.size(); ++i) {
            GroupSample z;
            z.t = out.t[i];
            g.samples.push_back(z);
        }
    return out;
}

bool HistoryReader::exportBundle(const QString& file, double t0, double t1, const BundleInfo& info,
                                 QString* error) const
{
    auto failWith = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (!open_)
        return failWith(error_);
    const std::vector<Refresh> rs = refreshes(t0, t1);
    if (rs.empty())
        return failWith(ErrorWords::tr("nothing was recorded between those times"));
    const qint64 r0 = rs.front().id, r1 = rs.back().id;
    const QMap<QString, QString> srcMeta = metadata();

    const QString tmp = file + QStringLiteral(".part");
    QFile::remove(tmp);
    QDir().mkpath(QFileInfo(file).absolutePath());
    QString why;
    {
        SqliteConnection out(tmp, false, QStringLiteral("history-bundle"));
        if (!out.isOpen())
            return failWith(out.errorString());
        QSqlDatabase db = out.db();
        QSqlQuery q(db);
        // A bundle is one file: no WAL beside it.
        q.exec(QStringLiteral("PRAGMA journal_mode=DELETE"));
        if (!createSchema(db, &why))
            return failWith(why);
        q.prepare(QStringLiteral("ATTACH DATABASE ? AS src"));
        q.addBindValue(path_);
        if (!q.exec())
            return failWith(q.lastError().text());
        const QString a = QString::number(r0), b = QString::number(r1);
        const qint64 wall0 = rs.front().wallMs - 60'000, wall1 = rs.back().wallMs + 60'000;
        const QStringList copies = {
            QStringLiteral("INSERT INTO refresh SELECT * FROM src.refresh WHERE id BETWEEN %1 AND %2"),
            QStringLiteral("INSERT INTO blob SELECT * FROM src.blob WHERE id IN (SELECT state_blob FROM "
                           "main.refresh UNION SELECT keynames_blob FROM main.refresh)"),
            QStringLiteral("INSERT INTO lease SELECT * FROM src.lease"),
            // What the first refresh needs: each lease's latest change before the range.
            QStringLiteral("INSERT INTO lease_change SELECT %3 FROM src.lease_change WHERE id IN (SELECT max(id) "
                           "FROM src.lease_change WHERE refresh_id < %1 GROUP BY lease_id) AND kind <> 5"),
            QStringLiteral("INSERT INTO lease_change SELECT %3 FROM src.lease_change WHERE refresh_id BETWEEN %1 "
                           "AND %2"),
            // The first row of each lease after the range (not shown: beyond the last refresh): the
            // renewals it counted run into the range, and any row says none went unwritten.
            QStringLiteral("INSERT INTO lease_change SELECT %3 FROM src.lease_change WHERE id IN (SELECT min(id) "
                           "FROM src.lease_change WHERE refresh_id > %2 GROUP BY lease_id)"),
            QStringLiteral("INSERT INTO pool_group SELECT * FROM src.pool_group"),
            QStringLiteral("INSERT INTO group_sample SELECT * FROM src.group_sample WHERE id IN (SELECT max(id) "
                           "FROM src.group_sample WHERE refresh_id < %1 GROUP BY group_id)"),
            QStringLiteral("INSERT INTO group_sample SELECT * FROM src.group_sample WHERE refresh_id BETWEEN %1 "
                           "AND %2"),
            QStringLiteral("INSERT INTO cluster_sample SELECT * FROM src.cluster_sample WHERE refresh_id BETWEEN "
                           "%1 AND %2"),
            QStringLiteral("INSERT INTO finding SELECT * FROM src.finding WHERE appeared_refresh <= %2 AND "
                           "(gone_refresh IS NULL OR gone_refresh >= %1)"),
        };
        if (!db.transaction())
            return failWith(db.lastError().text());
        for (const QString& sql : copies) {
            // A schema-1 source has no renewal counts: one renewal per row.
            const QString columns = hasRenewalCounts(db, QStringLiteral("src")) ? QStringLiteral("*")
                                                                                : QStringLiteral("*, NULL, NULL, NULL");
            if (!q.exec(QString(sql)
                            .replace(QLatin1String("%1"), a)
                            .replace(QLatin1String("%2"), b)
                            .replace(QLatin1String("%3"), columns))) {
                why = q.lastError().text();
                db.rollback();
                return failWith(why);
            }
        }
        q.prepare(QStringLiteral("INSERT INTO audit SELECT * FROM src.audit WHERE at >= ? AND at <= ?"));
        q.addBindValue(utcFromMSecs(wall0).toString(Qt::ISODateWithMs));
        q.addBindValue(utcFromMSecs(wall1).toString(Qt::ISODateWithMs));
        if (!q.exec()) {
            why = q.lastError().text();
            db.rollback();
            return failWith(why);
        }
        QMap<QString, QString> meta;
        for (const char* k : {"analysis_config", "lease_policy", "renewals_flushed"})
            meta.insert(QLatin1String(k), srcMeta.value(QLatin1String(k)));
        meta.insert(QStringLiteral("kind"), QStringLiteral("bundle"));
        meta.insert(QStringLiteral("profile"),
                    redactDsn(info.profile.isEmpty() ? srcMeta.value(QStringLiteral("profile")) : info.profile));
        meta.insert(QStringLiteral("source_dsn"),
                    redactDsn(info.sourceDsn.isEmpty() ? srcMeta.value(QStringLiteral("source_dsn"))
                                                                : info.sourceDsn));
        meta.insert(QStringLiteral("exported_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
        meta.insert(QStringLiteral("range_from"), QString::number(rs.front().at, 'f', 6));
        meta.insert(QStringLiteral("range_to"), QString::number(rs.back().at, 'f', 6));
        meta.insert(QStringLiteral("leasewatch_version"), QStringLiteral(LEASEWATCH_VERSION));
        meta.insert(QStringLiteral("recorded_with_version"), srcMeta.value(QStringLiteral("leasewatch_version")));
        for (auto it = meta.begin(); it != meta.end(); ++it) {
            q.prepare(QStringLiteral("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"));
            q.addBindValue(it.key());
            q.addBindValue(it.value());
            if (!q.exec()) {
                why = q.lastError().text();
                db.rollback();
                return failWith(why);
            }
        }
        if (!db.commit())
            return failWith(db.lastError().text());
        q.exec(QStringLiteral("DETACH DATABASE src"));
        q.exec(QStringLiteral("VACUUM"));
    }
    QFile::remove(file);
    if (!QFile::rename(tmp, file))
        return failWith(ErrorWords::tr("cannot move the bundle into place at %1").arg(file));
    return true;
}

int loadPoolHistory(const HistoryReader& reader, PoolHistory& into, double t0, double t1)
{
    int n = 0;
    into.setAnalysisConfig(reader.analysisConfig());
    // Blobs repeat while nothing changes and are decoded once; leases play no part in pools.
    reader.forEachSnapshot(
        t0, t1,
        [&](const Snapshot& s) {
            into.add(s);
            ++n;
            return true;
        },
        HistoryReader::LeaseDetail::None);
    return n;
}

} // namespace lw
