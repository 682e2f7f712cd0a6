#include "HistoryWriter.h"
#include "domain/Words.h"
#include "domain/UtcTime.h"

#include "AuditLog.h"
#include "HistoryFormat.h"
#include "domain/Secrets.h"
#include "pg/PollerConfig.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLockFile>
#include <QLoggingCategory>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>

// leasewatch.history: what each refresh wrote (off by default, like every leasewatch.* category).
Q_LOGGING_CATEGORY(lcHistory, "leasewatch.history", QtInfoMsg)

namespace lw {

using namespace history;

namespace {
constexpr std::array<GroupBy, 4> kGroupings = {GroupBy::ClientInstance, GroupBy::ApplicationName,
                                               GroupBy::User, GroupBy::Database};

QString groupSlot(GroupBy by, const QString& key)
{
    return QString::number(int(by)) + QChar(0x1f) + key;
}

std::array<int, 5> countsOf(const PoolGroup& g)
{
    return {g.active, g.idle, g.idleInTransaction, g.waitingOnLock, g.idleHoldingAdvisory};
}

QVariant nullableText(const std::optional<QString>& v)
{
    return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::QString));
}
} // namespace

QString HistoryOptions::defaultPath(const QString& profile)
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/history/") +
           profileFileName(profile) + QStringLiteral(".sqlite");
}

HistoryOptions HistoryOptions::forProfile(const QString& profile, const PollerConfig& cfg)
{
    HistoryOptions o;
    o.profile = profile;
    o.sourceDsn = cfg.connect.dsn;
    o.auditPath = AuditLog::defaultPath();
    o.leasePolicy = leasePolicyFor(cfg);
    o.writerUsesAppClock = cfg.leases.writerUsesAppClock;
    o.analysis = cfg.analysis;
    return o;
}

// ---- HistoryWriter ------------------------------------------------------------------------------

HistoryWriter::HistoryWriter(HistoryOptions o)
    : opts_(std::move(o)),
      pool_(nullptr, 2, 1) // only the latest counts and the deadlock window are read
{
    if (opts_.path.isEmpty())
        opts_.path = HistoryOptions::defaultPath(opts_.profile);
    if (!opts_.wallClockMs)
        opts_.wallClockMs = [] { return QDateTime::currentMSecsSinceEpoch(); };
    pool_.setAnalysisConfig(opts_.analysis);

    if (!QDir().mkpath(QFileInfo(opts_.path).absolutePath())) {
        error_ = ErrorWords::tr("cannot create the history directory %1").arg(QFileInfo(opts_.path).absolutePath());
        return;
    }
    // One writer per store: a recorder (`leasewatch record`) and a window on the same profile
    // would otherwise interleave their change rows. The lock is judged stale only when its
    // process is gone (a recorder runs for days: age says nothing).
    lock_ = std::make_unique<QLockFile>(opts_.path + QStringLiteral(".lock"));
    lock_->setStaleLockTime(0);
    if (!lock_->tryLock(0)) {
        qint64 pid = 0;
        QString host, app;
        lock_->getLockInfo(&pid, &host, &app);
        takenBy_ = pid;
        error_ = lock_->error() == QLockFile::LockFailedError
                     ? ErrorWords::tr("the history store %1 is being written by another Leasewatch (pid %2 on %3): "
                                      "one writer per store")
                           .arg(opts_.path)
                           .arg(pid)
                           .arg(host.isEmpty() ? ErrorWords::tr("this host") : host)
                     : ErrorWords::tr("cannot lock the history store %1").arg(opts_.path);
        lock_.reset();
        return;
    }
    const auto openStore = [this] {
        error_.clear();
        conn_ = std::make_unique<SqliteConnection>(opts_.path, false, QStringLiteral("history-writer"));
        if (!conn_->isOpen()) {
            error_ = conn_->errorString();
            return false;
        }
        QSqlDatabase db = conn_->db();
        return configureWriter(db, &error_) && createSchema(db, &error_);
    };
    if (!openStore()) {
        // A damaged store (not a database, malformed) is never deleted nor written over: it is kept
        // aside for whoever wants to look at it, and recording starts again in a new store.
        const bool damaged = error_.contains(QLatin1String("not a database"), Qt::CaseInsensitive) ||
                             error_.contains(QLatin1String("malformed"), Qt::CaseInsensitive);
        if (!damaged)
            return;
        const QString why = error_;
        conn_.reset();
        const QString aside = opts_.path + QStringLiteral(".damaged-") +
                              QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
        if (!QFile::rename(opts_.path, aside)) {
            error_ = ErrorWords::tr("the history store %1 is damaged (%2) and cannot be moved aside").arg(opts_.path, why);
            return;
        }
        for (const char* suffix : {"-wal", "-shm"})
            QFile::rename(opts_.path + QLatin1String(suffix), aside + QLatin1String(suffix));
        keptAside_ = aside;
        notice_ = ErrorWords::tr("The history store %1 was damaged (%2). It was kept as %3, and recording "
                                 "started again in a new store.")
                      .arg(opts_.path, why, aside);
        if (!openStore())
            return;
    }
    QSqlDatabase db = conn_->db();
    QSqlQuery q(db);
    auto setMeta = [&](const QString& k, const QString& v) {
        q.prepare(QStringLiteral("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"));
        q.addBindValue(k);
        q.addBindValue(v);
        q.exec();
    };
    setMeta(QStringLiteral("kind"), QStringLiteral("store"));
    // Until this writer closes, renewals may be counted that no row holds yet (see the reader).
    setMeta(QStringLiteral("renewals_flushed"), QStringLiteral("0"));
    setMeta(QStringLiteral("profile"), redactDsn(opts_.profile));
    setMeta(QStringLiteral("source_dsn"), redactDsn(opts_.sourceDsn));
    setMeta(QStringLiteral("leasewatch_version"), QStringLiteral(LEASEWATCH_VERSION));
    setMeta(QStringLiteral("analysis_config"),
            QString::fromUtf8(QJsonDocument(analysisConfigToJson(opts_.analysis)).toJson(QJsonDocument::Compact)));
    setMeta(QStringLiteral("lease_policy"),
            QString::fromUtf8(QJsonDocument(leasePolicyToJson(opts_.leasePolicy, opts_.writerUsesAppClock))
                                  .toJson(QJsonDocument::Compact)));
    loadState();
    open_ = error_.isEmpty();
}

HistoryWriter::~HistoryWriter()
{
    // The renewals counted since each lease's last row are written, so a store closed cleanly ends
    // with every lease's exact last values.
    if (open_ && conn_) {
        QSqlDatabase db = conn_->db();
        if (db.transaction()) {
            QSqlQuery q(db);
            if (checkpointRenewals(lastRefreshId_, lastServerNow_, true) &&
                q.exec(QStringLiteral("INSERT OR REPLACE INTO meta (key, value) VALUES ('renewals_flushed', '1')")))
                db.commit();
            else
                db.rollback();
        }
    }
    changeInsert_.reset();
    audit_.reset();
    conn_.reset();
}

qint64 HistoryWriter::nowMs() const
{
    return opts_.wallClockMs();
}

bool HistoryWriter::fail(const QString& what)
{
    error_ = what;
    ++stats_.writeErrors;
    qCWarning(lcHistory, "%s", qPrintable(what));
    return false;
}

// After a restart: what the store already says, so that a lease unchanged across the restart costs
// nothing; findings still open are closed at the last recorded refresh (the gap is not vouched for).
void HistoryWriter::loadState()
{
    leasesFullPass_ = true; // what the store holds now, against every row
    QSqlDatabase db = conn_->db();
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.exec(QStringLiteral("SELECT id, at FROM refresh ORDER BY id DESC LIMIT 1"));
    if (q.next()) {
        lastRefreshId_ = q.value(0).toLongLong();
        lastServerNow_ = q.value(1).toDouble();
    }
    q.exec(QStringLiteral("SELECT id, key FROM lease"));
    while (q.next())
        leaseIds_.insert(q.value(1).toString(), q.value(0).toLongLong());
    q.exec(QStringLiteral(
        "SELECT l.key, c.kind, c.holder, c.taken_at, c.expires_at, c.state, l.id FROM lease l JOIN lease_change c "
        "ON c.id = (SELECT max(x.id) FROM lease_change x WHERE x.lease_id = l.id)"));
    while (q.next()) {
        if (ChangeKind(q.value(1).toInt()) == ChangeKind::Release)
            continue;
        LastLease l;
        l.leaseId = q.value(6).toLongLong();
        if (!q.value(2).isNull())
            l.holder = q.value(2).toString();
        l.takenAt = optionalReal(q.value(3));
        l.expiresAt = optionalReal(q.value(4));
        l.state = q.value(5).toInt();
        l.renewing = ChangeKind(q.value(1).toInt()) == ChangeKind::Renew;
        lastLeases_.insert_or_assign(q.value(0).toString(), l);
    }
    q.exec(QStringLiteral(
        "SELECT g.grouping, g.key, g.id, s.active, s.idle, s.idle_in_transaction, s.waiting_on_lock, "
        "s.idle_holding_advisory FROM pool_group g JOIN group_sample s ON s.id = (SELECT max(x.id) FROM "
        "group_sample x WHERE x.group_id = g.id)"));
    while (q.next()) {
        LastGroup g;
        g.groupId = q.value(2).toLongLong();
        for (int i = 0; i < 5; ++i)
            g.counts[size_t(i)] = q.value(3 + i).toInt();
        lastGroups_.insert(groupSlot(GroupBy(q.value(0).toInt()), q.value(1).toString()), g);
    }
    // Group ids of groups without samples yet.
    q.exec(QStringLiteral("SELECT grouping, key, id FROM pool_group"));
    while (q.next()) {
        const QString slot = groupSlot(GroupBy(q.value(0).toInt()), q.value(1).toString());
        if (!lastGroups_.contains(slot)) {
            LastGroup g;
            g.groupId = q.value(2).toLongLong();
            lastGroups_.insert(slot, g);
        }
    }
    q.exec(QStringLiteral("SELECT id, data FROM blob WHERE kind = %1 ORDER BY id DESC LIMIT 1")
               .arg(int(BlobKind::State)));
    if (q.next()) {
        lastStateBlob_ = q.value(0).toLongLong();
        lastStateBytes_ = q.value(1).toByteArray();
    }
    q.exec(QStringLiteral("SELECT id, data FROM blob WHERE kind = %1 ORDER BY id DESC LIMIT 1")
               .arg(int(BlobKind::KeyNames)));
    if (q.next()) {
        if (auto names = decodeKeyNames(q.value(1).toByteArray())) {
            keyNamesBlob_ = q.value(0).toLongLong();
            lastKeyNames_ = *names;
        }
    }
    q.exec(QStringLiteral("SELECT coalesce(max(id), 0) FROM audit"));
    if (q.next())
        auditMaxId_ = q.value(0).toLongLong();
    q.exec(QStringLiteral("SELECT id FROM audit WHERE outcome_key = 'pending'"));
    while (q.next())
        auditPending_.insert(q.value(0).toLongLong());
    if (lastRefreshId_ > 0) {
        QSqlQuery u(db);
        u.prepare(QStringLiteral("UPDATE finding SET gone_refresh = ?, gone_at = (SELECT at FROM refresh WHERE "
                                 "id = ?) WHERE gone_refresh IS NULL"));
        u.addBindValue(lastRefreshId_);
        u.addBindValue(lastRefreshId_);
        u.exec();
    }
}

qint64 HistoryWriter::leaseId(const QString& key, const QString& name)
{
    if (const auto it = leaseIds_.constFind(key); it != leaseIds_.constEnd())
        return *it;
    QSqlQuery q(conn_->db());
    q.prepare(QStringLiteral("INSERT INTO lease (key, name) VALUES (?, ?)"));
    q.addBindValue(key);
    q.addBindValue(name);
    if (!q.exec())
        return 0;
    const qint64 id = q.lastInsertId().toLongLong();
    leaseIds_.insert(key, id);
    return id;
}

qint64 HistoryWriter::groupId(GroupBy by, const PoolGroup& g)
{
    const QString slot = groupSlot(by, g.key);
    if (const auto it = lastGroups_.constFind(slot); it != lastGroups_.constEnd())
        return it->groupId;
    QSqlQuery q(conn_->db());
    q.prepare(QStringLiteral("INSERT INTO pool_group (grouping, key, application_name, client_addr) "
                             "VALUES (?, ?, ?, ?)"));
    q.addBindValue(int(by));
    q.addBindValue(g.key);
    q.addBindValue(g.applicationName);
    q.addBindValue(g.clientAddr);
    if (!q.exec())
        return 0;
    LastGroup lg;
    lg.groupId = q.lastInsertId().toLongLong();
    lastGroups_.insert(slot, lg);
    return lg.groupId;
}

bool HistoryWriter::write(const Snapshot& s, const LeaseChanges& leases, const std::vector<Finding>& findings)
{
    if (!open_)
        return false;
    QSqlDatabase db = conn_->db();
    if (!db.transaction())
        return fail(db.lastError().text());
    // Snapshot-derived caches (last lease values, blobs) are only committed to memory with the
    // transaction; on failure they are rebuilt from the store.
    bool ok = writeRefresh(s, leases, findings);
    if (ok && s.leaseTables && (!recordedTables_ || *recordedTables_ != *s.leaseTables)) {
        // Detected tables bring their schemes' rules: replays judge each table's rows by them too.
        recordedTables_ = s.leaseTables;
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT OR REPLACE INTO meta (key, value) VALUES ('lease_tables', ?)"));
        q.addBindValue(
            QString::fromUtf8(QJsonDocument(leaseTablesToJson(*s.leaseTables)).toJson(QJsonDocument::Compact)));
        ok = q.exec() || fail(q.lastError().text());
    }
    if (!ok || !db.commit()) {
        const QString why = ok ? db.lastError().text() : error_;
        db.rollback();
        leaseIds_.clear();
        recordedTables_.reset();
        lastLeases_.clear();
        lastGroups_.clear();
        openFindings_.clear();
        lastStateBytes_.clear();
        lastState_.reset();
        lastStateBlob_ = keyNamesBlob_ = 0;
        lastKeyNamesPtr_.reset();
        lastKeyNames_.clear();
        auditPending_.clear();
        renewalQueue_.clear();
        loadState();
        return fail(why);
    }
    ++stats_.refreshes;
    qCDebug(lcHistory) << "refresh" << s.seq << "recorded;" << stats_.refreshes << "this session";
    // Both look at the oldest refreshes: every 10th refresh is soon enough, unless a step left
    // work for the next one.
    if (++sinceUpkeep_ >= 10 || upkeepPending_) {
        sinceUpkeep_ = 0;
        const bool thinned = downsampleStep();
        upkeepPending_ = retentionStep() || thinned;
    }
    return true;
}

bool HistoryWriter::writeRefresh(const Snapshot& s, const LeaseChanges& leases, const std::vector<Finding>& findings)
{
    QSqlDatabase db = conn_->db();
    QSqlQuery q(db);
    QVariant stateBlob(QMetaType(QMetaType::LongLong));
    if (s.ok) {
        // What the state blob holds, as values: the same as last time (the usual refresh, and a
        // pg_locks read handed on is the same vector) is neither encoded nor compressed again.
        StateParts parts{s.server, s.cluster, s.sessions, s.advisoryLocks, s.leasesError};
        const bool same = lastStateBlob_ != 0 && lastState_ && *lastState_ == parts;
        const QByteArray bytes = same ? QByteArray() : encodeState(s);
        lastState_ = std::move(parts);
        if (!same && (bytes != lastStateBytes_ || lastStateBlob_ == 0)) {
            q.prepare(QStringLiteral("INSERT INTO blob (kind, data) VALUES (?, ?)"));
            q.addBindValue(int(BlobKind::State));
            q.addBindValue(bytes);
            if (!q.exec())
                return fail(q.lastError().text());
            lastStateBlob_ = q.lastInsertId().toLongLong();
            lastStateBytes_ = bytes;
            ++stats_.stateBlobs;
        }
        stateBlob = lastStateBlob_;
        // keyNames is shared and rebuilt only when the poller learns new names: compare the pointer
        // first, the contents only when it moved.
        if (s.keyNames && s.keyNames != lastKeyNamesPtr_) {
            lastKeyNamesPtr_ = s.keyNames;
            if (*s.keyNames != lastKeyNames_ || keyNamesBlob_ == 0) {
                q.prepare(QStringLiteral("INSERT INTO blob (kind, data) VALUES (?, ?)"));
                q.addBindValue(int(BlobKind::KeyNames));
                q.addBindValue(encodeKeyNames(*s.keyNames));
                if (!q.exec())
                    return fail(q.lastError().text());
                keyNamesBlob_ = q.lastInsertId().toLongLong();
                lastKeyNames_ = *s.keyNames;
            }
        }
    }
    const qint64 wall = s.receivedWall.isValid() ? s.receivedWall.toMSecsSinceEpoch() : nowMs();
    q.prepare(QStringLiteral(
        "INSERT INTO refresh (at, wall_ms, ok, state_blob, keynames_blob, error) VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(s.serverNow);
    q.addBindValue(wall);
    q.addBindValue(s.ok ? 1 : 0);
    q.addBindValue(stateBlob);
    q.addBindValue(keyNamesBlob_ ? QVariant(keyNamesBlob_) : QVariant(QMetaType(QMetaType::LongLong)));
    q.addBindValue(s.ok ? QString() : s.error.toDisplayString());
    if (!q.exec())
        return fail(q.lastError().text());
    const qint64 refreshId = q.lastInsertId().toLongLong();
    lastRefreshId_ = refreshId;
    lastServerNow_ = s.serverNow;
    if (s.ok) {
        if (!s.leasesError && !recordLeases(s, leases, refreshId))
            return false;
        if (!recordPool(s, refreshId) || !recordFindings(s, findings, refreshId))
            return false;
    }
    return copyAudit();
}

bool HistoryWriter::insertChange(qint64 refreshId, double at, int kind, const LastLease& v)
{
    if (!changeInsert_) {
        changeInsert_ = std::make_unique<QSqlQuery>(conn_->db());
        changeInsert_->prepare(QStringLiteral(
            "INSERT INTO lease_change (refresh_id, at, lease_id, kind, holder, taken_at, expires_at, state, "
            "renewals, first_renewal_at, last_renewal_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    }
    QSqlQuery& q = *changeInsert_;
    q.addBindValue(refreshId);
    q.addBindValue(at);
    q.addBindValue(v.leaseId);
    q.addBindValue(kind);
    q.addBindValue(nullableText(v.holder));
    q.addBindValue(nullableReal(v.takenAt));
    q.addBindValue(nullableReal(v.expiresAt));
    q.addBindValue(v.state);
    const bool counted = v.renewals > 0;
    q.addBindValue(counted ? QVariant(v.renewals) : QVariant(QMetaType(QMetaType::Int)));
    q.addBindValue(counted ? QVariant(v.firstRenewalAt) : QVariant(QMetaType(QMetaType::Double)));
    q.addBindValue(counted ? QVariant(v.lastRenewalAt) : QVariant(QMetaType(QMetaType::Double)));
    ++stats_.leaseRows;
    return q.exec() || fail(q.lastError().text());
}

// The renewals counted since the lease's last row, as one Renew row with the last renewal's values.
bool HistoryWriter::flushRenewals(qint64 refreshId, double at, LastLease& l)
{
    if (l.renewals == 0)
        return true;
    if (!insertChange(refreshId, at, int(ChangeKind::Renew), l))
        return false;
    l.renewals = 0;
    l.renewing = true;
    return true;
}

// Counted renewals older than the interval are written (all of them when closing). At most a few
// thousand rows per refresh, so that an hour's worth of leases seen at once spreads out.
bool HistoryWriter::checkpointRenewals(qint64 refreshId, double at, bool all)
{
    int budget = all ? std::numeric_limits<int>::max() : 2000;
    while (!renewalQueue_.empty() && budget > 0 &&
           (all || renewalQueue_.front().second <= at - opts_.renewalIntervalS)) {
        const auto [key, since] = renewalQueue_.front();
        renewalQueue_.pop_front();
        const auto it = lastLeases_.find(key);
        if (it == lastLeases_.end() || it->second.renewals == 0 || it->second.firstRenewalAt != since)
            continue; // written since (another change of the lease), or gone
        if (!flushRenewals(refreshId, at, it->second))
            return false;
        --budget;
    }
    return true;
}

// One lease as the tracker sees it against the lease's last record: a row when something the
// record keeps changed, of the kind the tracker saw (`seenAs`), renewals on schedule counted.
bool HistoryWriter::recordLease(qint64 refreshId, double at, const LeaseChanges::Lease& e, LeaseChange seenAs)
{
    const int state = int(e.state);
    const auto found = lastLeases_.find(e.key);
    LastLease* last = found == lastLeases_.end() ? nullptr : &found->second;
    if (last)
        last->seen = leaseGeneration_;
    LastLease cur;
    cur.holder = e.row.holder;
    cur.takenAt = e.row.takenAt;
    cur.expiresAt = e.row.expiresAt;
    cur.state = state;
    cur.seen = leaseGeneration_;
    ChangeKind kind = ChangeKind::Modify;
    if (!last) {
        // A take the tracker saw in this refresh; anything else existed before this writer knew it.
        kind = seenAs == LeaseChange::TakeOver ? ChangeKind::TakeOver
               : seenAs == LeaseChange::Take   ? ChangeKind::Take
                                               : ChangeKind::Seen;
        cur.leaseId = leaseId(e.key, e.row.name);
        if (!cur.leaseId)
            return fail(QStringLiteral("cannot intern lease %1").arg(e.key));
    } else {
        LastLease& old = *last;
        cur.leaseId = old.leaseId;
        // The tracker's verdict, as the window showed it. Against a record it cannot vouch for (a
        // refresh this writer missed, a store reopened) "nothing changed" means the row changed
        // while nobody watched: a first sighting, its history unknown.
        const bool same = old.holder == e.row.holder && old.takenAt == e.row.takenAt && old.expiresAt == e.row.expiresAt;
        switch (same ? LeaseChange::None : seenAs == LeaseChange::None ? LeaseChange::Seen : seenAs) {
        case LeaseChange::TakeOver:
            kind = ChangeKind::TakeOver;
            break;
        case LeaseChange::Take:
            kind = ChangeKind::Take;
            break;
        case LeaseChange::Seen:
            kind = ChangeKind::Seen;
            break;
        case LeaseChange::Renew:
            kind = ChangeKind::Renew;
            cur.renewals = old.renewals + 1;
            cur.firstRenewalAt = old.renewals ? old.firstRenewalAt : at;
            cur.lastRenewalAt = at;
            ++stats_.renewalsCounted;
            if (cur.state == old.state && old.renewing) {
                // On schedule: counted, not written (the row comes with the next change or the
                // interval's checkpoint).
                if (old.renewals == 0)
                    renewalQueue_.emplace_back(e.key, at);
                cur.renewing = true;
                old = cur;
                return true;
            }
            break;
        case LeaseChange::Modify:
        case LeaseChange::Release:
            kind = ChangeKind::Modify;
            break;
        case LeaseChange::None:
            if (cur.state == old.state)
                return true;
            kind = ChangeKind::State;
            break;
        }
        // Whatever the renewals counted so far said comes first, with the values they left.
        if (kind != ChangeKind::Renew && !flushRenewals(refreshId, at, old))
            return false;
    }
    if (!insertChange(refreshId, at, int(kind), cur))
        return false;
    cur.renewals = 0;
    cur.renewing = kind == ChangeKind::Renew;
    if (last)
        *last = std::move(cur);
    else
        lastLeases_.insert_or_assign(e.key, std::move(cur));
    return true;
}

bool HistoryWriter::recordRelease(qint64 refreshId, double at, const QString& key)
{
    const auto it = lastLeases_.find(key);
    if (it == lastLeases_.end())
        return true;
    if (!flushRenewals(refreshId, at, it->second))
        return false;
    LastLease gone = it->second;
    gone.state = int(LeaseState::Released);
    if (!insertChange(refreshId, at, int(ChangeKind::Release), gone))
        return false;
    lastLeases_.erase(it);
    return true;
}

bool HistoryWriter::recordLeases(const Snapshot& s, const LeaseChanges& leases, qint64 refreshId)
{
    // The tracker the window uses judged the state and named each change (take, take-over,
    // renewal, release): what it saw change and whose state moved on with the clock is compared
    // with the records; every lease only after the store was opened or rolled back, against what
    // the store holds.
    if (!leases.applied)
        return true; // the rows did not reach the tracker (loading): nothing is known to have changed
    const double at = s.serverNow;
    ++leaseGeneration_;
    if (leases.all) {
        for (const LeaseChanges::Lease& l : leases.leases)
            if (!l.released() && !recordLease(refreshId, at, l, l.change))
                return false; // a released one is gone from the table: its record is released below
        std::vector<QString> gone;
        for (const auto& [key, l] : lastLeases_)
            if (l.seen != leaseGeneration_)
                gone.push_back(key);
        for (const QString& key : gone)
            if (!recordRelease(refreshId, at, key))
                return false;
        leasesFullPass_ = false;
    } else if (leasesFullPass_) {
        return true; // changes against records this writer cannot vouch for: wait for every lease
    } else {
        for (const LeaseChanges::Lease& l : leases.leases) {
            if (l.released() ? !recordRelease(refreshId, at, l.key) : !recordLease(refreshId, at, l, l.change))
                return false;
        }
    }
    return checkpointRenewals(refreshId, at, false);
}

bool HistoryWriter::recordPool(const Snapshot& s, qint64 refreshId)
{
    pool_.setAnalysisConfig(opts_.analysis);
    pool_.add(s);
    const auto c = pool_.lastCluster();
    if (!c || c->t != s.serverNow)
        return true; // PoolHistory skipped it (the server clock stepped back): a gap, as live
    QSqlQuery q(conn_->db());
    q.prepare(QStringLiteral(
        "INSERT INTO cluster_sample (refresh_id, at, connections, connection_budget, lock_table_entries, "
        "lock_table_capacity, advisory_locks, waiting_on_lock, deadlocks, deadlocks_last_minute, counter_reset) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(refreshId);
    q.addBindValue(c->t);
    q.addBindValue(c->connections);
    q.addBindValue(c->connectionBudget);
    q.addBindValue(c->lockTableEntries);
    q.addBindValue(c->lockTableCapacity);
    q.addBindValue(c->advisoryLocks);
    q.addBindValue(c->waitingOnLock);
    q.addBindValue(s.cluster.deadlocks);
    q.addBindValue(c->deadlocksLastMinute);
    q.addBindValue(c->counterReset ? 1 : 0);
    if (!q.exec())
        return fail(q.lastError().text());

    QSqlQuery g(conn_->db());
    g.prepare(QStringLiteral("INSERT INTO group_sample (refresh_id, at, group_id, active, idle, "
                             "idle_in_transaction, waiting_on_lock, idle_holding_advisory) VALUES (?, ?, ?, ?, "
                             "?, ?, ?, ?)"));
    auto insert = [&](qint64 gid, const std::array<int, 5>& n) {
        g.addBindValue(refreshId);
        g.addBindValue(s.serverNow);
        g.addBindValue(gid);
        for (int v : n)
            g.addBindValue(v);
        ++stats_.groupRows;
        return g.exec();
    };
    const GroupBy shown = pool_.groupBy();
    QSet<QString> fed;
    for (GroupBy by : kGroupings) {
        pool_.setGroupBy(by);
        for (const QString& key : pool_.groupKeys()) {
            const PoolHistory::GroupTrack* tr = pool_.group(by, key);
            const std::array<int, 5> n = countsOf(tr->current);
            const QString slot = groupSlot(by, key);
            fed.insert(slot);
            const qint64 gid = groupId(by, tr->current);
            if (!gid)
                return fail(QStringLiteral("cannot intern group %1").arg(key));
            LastGroup& last = lastGroups_[slot];
            if (last.counts == n)
                continue;
            if (!insert(gid, n))
                return fail(g.lastError().text());
            last.counts = n;
        }
    }
    pool_.setGroupBy(shown);
    // Groups PoolHistory forgot: their last counts drop to zero.
    for (auto it = lastGroups_.begin(); it != lastGroups_.end(); ++it) {
        if (fed.contains(it.key()) || it->counts == std::array<int, 5>{})
            continue;
        if (!insert(it->groupId, {}))
            return fail(g.lastError().text());
        it->counts = {};
    }
    return true;
}

bool HistoryWriter::recordFindings(const Snapshot& s, const std::vector<Finding>& findings, qint64 refreshId)
{
    QSqlQuery q(conn_->db());
    QSet<QString> now;
    for (const Finding& f : findings) {
        if (now.contains(f.id))
            continue;
        now.insert(f.id);
        if (openFindings_.contains(f.id))
            continue;
        q.prepare(QStringLiteral("INSERT INTO finding (finding_id, kind, severity, title, subject, explanation, "
                                 "fix, appeared_refresh, appeared_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        q.addBindValue(f.id);
        q.addBindValue(findingKindKey(f.kind));
        q.addBindValue(f.severity);
        q.addBindValue(f.title);
        q.addBindValue(f.subject);
        q.addBindValue(f.explanation);
        q.addBindValue(f.fix);
        q.addBindValue(refreshId);
        q.addBindValue(s.serverNow);
        if (!q.exec())
            return fail(q.lastError().text());
        openFindings_.insert(f.id, q.lastInsertId().toLongLong());
    }
    for (auto it = openFindings_.begin(); it != openFindings_.end();) {
        if (now.contains(it.key())) {
            ++it;
            continue;
        }
        q.prepare(QStringLiteral("UPDATE finding SET gone_refresh = ?, gone_at = ? WHERE id = ?"));
        q.addBindValue(refreshId);
        q.addBindValue(s.serverNow);
        q.addBindValue(*it);
        if (!q.exec())
            return fail(q.lastError().text());
        it = openFindings_.erase(it);
    }
    return true;
}

// New operator actions (and outcomes of pending ones) from the AuditLog file, read through a
// read-only connection of the writer's own: the audit itself is never touched.
bool HistoryWriter::copyAudit()
{
    if (opts_.auditPath.isEmpty())
        return true;
    if (!audit_) {
        if (!QFileInfo::exists(opts_.auditPath))
            return true; // no operator action yet
        audit_ = std::make_unique<SqliteConnection>(opts_.auditPath, true, QStringLiteral("history-audit"));
    }
    if (!audit_->isOpen()) {
        audit_.reset();
        return true;
    }
    QSqlQuery src(audit_->db());
    src.setForwardOnly(true);
    QStringList pending;
    for (qint64 id : std::as_const(auditPending_))
        pending << QString::number(id);
    const QString sql = QStringLiteral("SELECT id, at, os_user, os_host, db_role, database, action, target, "
                                       "before, after, outcome, outcome_key FROM audit WHERE id > %1%2")
                            .arg(auditMaxId_)
                            .arg(pending.isEmpty() ? QString()
                                                   : QStringLiteral(" OR id IN (%1)").arg(pending.join(',')));
    if (!src.exec(sql))
        return true; // no audit table yet (an AuditLog that failed to open): nothing to copy
    QSqlQuery dst(conn_->db());
    while (src.next()) {
        dst.prepare(QStringLiteral("INSERT OR REPLACE INTO audit (id, at, os_user, os_host, db_role, database, "
                                   "action, target, before, after, outcome, outcome_key) VALUES "
                                   "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        for (int i = 0; i < 12; ++i)
            dst.addBindValue(src.value(i));
        if (!dst.exec())
            return fail(dst.lastError().text());
        const qint64 id = src.value(0).toLongLong();
        auditMaxId_ = std::max(auditMaxId_, id);
        if (src.value(11).toString() == QLatin1String("pending"))
            auditPending_.insert(id);
        else
            auditPending_.remove(id);
    }
    return true;
}

qint64 HistoryWriter::usedBytes() const
{
    QSqlQuery q(conn_->db());
    auto pragma = [&](const char* p) {
        return q.exec(QString::fromLatin1(p)) && q.next() ? q.value(0).toLongLong() : 0;
    };
    const qint64 pages = pragma("PRAGMA page_count");
    const qint64 freePages = pragma("PRAGMA freelist_count");
    return (pages - freePages) * pragma("PRAGMA page_size");
}

bool HistoryWriter::retentionStep()
{
    if (!open_)
        return false;
    QSqlDatabase db = conn_->db();
    QSqlQuery q(db);
    auto scalar = [&](const QString& sql, qint64 def = 0) {
        return q.exec(sql) && q.next() && !q.value(0).isNull() ? q.value(0).toLongLong() : def;
    };
    const qint64 oldest = scalar(QStringLiteral("SELECT min(id) FROM refresh"));
    if (!oldest || lastRefreshId_ <= oldest)
        return false;
    // Age: the first refresh young enough; everything before it goes (the newest always stays).
    const qint64 ageLimit = nowMs() - opts_.maxAgeMs;
    qint64 cut = scalar(QStringLiteral("SELECT min(id) FROM refresh WHERE wall_ms >= %1").arg(ageLimit),
                        lastRefreshId_);
    // Size: measured (two cheap pragmas) every few steps while under the bound, after every
    // completed cut above it. Over the bound, the oldest ~1 % of the refreshes go, and the next cut
    // waits until every table has caught up with this one (lease rows may dominate the size).
    if (!retentionPending_ && (sizeOver_ || ++sinceSizeCheck_ >= 2)) {
        sinceSizeCheck_ = 0;
        sizeOver_ = usedBytes() > opts_.maxBytes;
        if (sizeOver_)
            sizeCut_ = std::max(sizeCut_, oldest + std::max<qint64>(10, (lastRefreshId_ - oldest) / 100));
    }
    cut = std::min(std::max(cut, sizeCut_), lastRefreshId_);
    const QString wallCut = utcFromMSecs(ageLimit).toString(Qt::ISODateWithMs);
    if (cut <= oldest && !retentionPending_) {
        // Nothing of the refreshes to drop; old audit copies may still go.
        q.prepare(QStringLiteral("DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE at < ? LIMIT %1)")
                      .arg(opts_.retentionBatchRows));
        q.addBindValue(wallCut);
        q.exec();
        return false;
    }
    const int n = opts_.retentionBatchRows;
    const QString c = QString::number(cut);
    // Change tables keep, per subject, the latest row before the cut (unless it says "gone"): the
    // state at the cut must stay reconstructible.
    const QStringList deletes = {
        QStringLiteral("DELETE FROM lease_change WHERE id IN (SELECT c.id FROM lease_change c WHERE c.refresh_id < "
                       "%1 AND (c.kind = %2 OR EXISTS (SELECT 1 FROM lease_change n WHERE n.lease_id = "
                       "c.lease_id AND n.id > c.id AND n.refresh_id < %1)) ORDER BY c.refresh_id LIMIT %3)")
            .arg(c)
            .arg(int(ChangeKind::Release))
            .arg(n),
        QStringLiteral(
            "DELETE FROM group_sample WHERE id IN (SELECT s.id FROM group_sample s WHERE s.refresh_id < %1 AND "
            "((s.active + s.idle + s.idle_in_transaction + s.waiting_on_lock + s.idle_holding_advisory) = 0 OR "
            "EXISTS (SELECT 1 FROM group_sample n WHERE n.group_id = s.group_id AND n.id > s.id AND "
            "n.refresh_id < %1)) ORDER BY s.refresh_id LIMIT %2)")
            .arg(c)
            .arg(n),
        QStringLiteral("DELETE FROM cluster_sample WHERE refresh_id IN (SELECT refresh_id FROM cluster_sample "
                       "WHERE refresh_id < %1 ORDER BY refresh_id LIMIT %2)")
            .arg(c)
            .arg(n),
        QStringLiteral("DELETE FROM finding WHERE id IN (SELECT id FROM finding WHERE gone_refresh < %1 "
                       "LIMIT %2)")
            .arg(c)
            .arg(n),
        QStringLiteral("DELETE FROM refresh WHERE id IN (SELECT id FROM refresh WHERE id < %1 ORDER BY id "
                       "LIMIT %2)")
            .arg(c)
            .arg(n),
        // Blobs are referenced in id order: whatever is older than the oldest refresh's is unused.
        QStringLiteral("DELETE FROM blob WHERE id IN (SELECT id FROM blob WHERE kind = %1 AND id < (SELECT "
                       "state_blob FROM refresh WHERE state_blob IS NOT NULL ORDER BY id LIMIT 1) LIMIT %2)")
            .arg(int(BlobKind::State))
            .arg(n),
        QStringLiteral("DELETE FROM blob WHERE id IN (SELECT id FROM blob WHERE kind = %1 AND id < (SELECT "
                       "keynames_blob FROM refresh WHERE keynames_blob IS NOT NULL ORDER BY id LIMIT 1) "
                       "LIMIT %2)")
            .arg(int(BlobKind::KeyNames))
            .arg(n),
    };
    if (!db.transaction())
        return false;
    bool more = false;
    for (const QString& sql : deletes) {
        if (!q.exec(sql)) {
            db.rollback();
            fail(q.lastError().text());
            return false;
        }
        const int deleted = q.numRowsAffected();
        stats_.deletedRows += deleted;
        more = more || deleted >= n;
    }
    q.prepare(QStringLiteral("DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE at < ? LIMIT %1)").arg(n));
    q.addBindValue(wallCut);
    q.exec();
    if (!db.commit()) {
        db.rollback();
        return false;
    }
    retentionPending_ = more;
    // Hand freed pages back to the file system a little at a time.
    q.exec(QStringLiteral("PRAGMA incremental_vacuum(256)"));
    while (q.next()) {
    }
    return more;
}

// Pool and cluster samples beyond the full-resolution window, thinned to about one per minute, one
// minute-aligned chunk per step: per minute the first refresh, the ones with the most connections,
// lock-table entries and lock waits, every failed refresh and the first good one after it; per
// pool group and minute its largest and its last change row (the value carried into the next
// minute). State blobs nothing refers to any more go with them. Lease changes and findings are
// never thinned (they are changes already).
bool HistoryWriter::downsampleStep()
{
    if (opts_.fullResolutionS <= 0 || lastServerNow_ <= 0)
        return false;
    QSqlDatabase db = conn_->db();
    QSqlQuery q(db);
    auto scalar = [&](const QString& sql, qint64 def = 0) {
        return q.exec(sql) && q.next() && !q.value(0).isNull() ? q.value(0).toLongLong() : def;
    };
    if (downsampledTo_ < 0)
        downsampledTo_ = std::max<qint64>(
            0, scalar(QStringLiteral("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'downsampled_to'"),
                      scalar(QStringLiteral("SELECT min(id) FROM refresh"), 1) - 1));
    // Whole minutes only, so that a minute is thinned once with all its refreshes.
    const double cutoff = std::floor((lastServerNow_ - opts_.fullResolutionS) / 60.0) * 60.0;
    const qint64 lo = downsampledTo_;
    const QString c = QString::number(cutoff, 'f', 3);
    const qint64 first = scalar(QStringLiteral("SELECT min(id) FROM refresh WHERE id > %1").arg(lo));
    if (!first)
        return false;
    // At most 15 minutes per step, ending on a minute boundary before the cutoff.
    const qint64 firstMinute = scalar(QStringLiteral("SELECT CAST(at / 60 AS INTEGER) FROM refresh WHERE id = %1").arg(first));
    const double chunkEnd = std::min(cutoff, double(firstMinute + 15) * 60.0);
    const qint64 hi = scalar(QStringLiteral("SELECT max(id) FROM refresh WHERE id > %1 AND at < %2")
                                 .arg(lo)
                                 .arg(QString::number(chunkEnd, 'f', 3)));
    if (!hi || hi <= lo)
        return false;
    const QString l = QString::number(lo), h = QString::number(hi);
    const qint64 minBlob = scalar(QStringLiteral("SELECT min(state_blob) FROM refresh WHERE id > %1 AND id <= %2").arg(l, h));
    const qint64 maxBlob = scalar(QStringLiteral("SELECT max(state_blob) FROM refresh WHERE id > %1 AND id <= %2").arg(l, h));
    const QString in = QStringLiteral("id > %1 AND id <= %2").arg(l, h);
    const QString keep = QStringLiteral(
        "SELECT id FROM refresh WHERE %1 AND ok = 0 "
        "UNION SELECT r.id FROM refresh r WHERE r.id > %2 AND r.id <= %3 AND r.ok = 1 AND "
        "(SELECT p.ok FROM refresh p WHERE p.id < r.id ORDER BY p.id DESC LIMIT 1) = 0 "
        "UNION SELECT min(id) FROM refresh WHERE %1 GROUP BY CAST(at / 60 AS INTEGER) "
        "UNION SELECT refresh_id FROM (SELECT refresh_id, max(connections) FROM cluster_sample WHERE refresh_id > %2 "
        "AND refresh_id <= %3 GROUP BY CAST(at / 60 AS INTEGER)) "
        "UNION SELECT refresh_id FROM (SELECT refresh_id, max(lock_table_entries) FROM cluster_sample WHERE "
        "refresh_id > %2 AND refresh_id <= %3 GROUP BY CAST(at / 60 AS INTEGER)) "
        "UNION SELECT refresh_id FROM (SELECT refresh_id, max(waiting_on_lock) FROM cluster_sample WHERE "
        "refresh_id > %2 AND refresh_id <= %3 GROUP BY CAST(at / 60 AS INTEGER))")
                             .arg(in, l, h);
    const QString groupIn = QStringLiteral("refresh_id > %1 AND refresh_id <= %2").arg(l, h);
    const QStringList deletes = {
        QStringLiteral("CREATE TEMP TABLE IF NOT EXISTS keep_refresh (id INTEGER PRIMARY KEY)"),
        QStringLiteral("DELETE FROM keep_refresh"),
        QStringLiteral("INSERT OR IGNORE INTO keep_refresh %1").arg(keep),
        QStringLiteral("DELETE FROM cluster_sample WHERE refresh_id > %1 AND refresh_id <= %2 AND refresh_id NOT IN "
                       "(SELECT id FROM keep_refresh)")
            .arg(l, h),
        QStringLiteral("DELETE FROM refresh WHERE %1 AND id NOT IN (SELECT id FROM keep_refresh)").arg(in),
        QStringLiteral("DELETE FROM group_sample WHERE %1 AND id NOT IN (SELECT max(id) FROM group_sample WHERE %1 "
                       "GROUP BY group_id, CAST(at / 60 AS INTEGER) UNION SELECT id FROM (SELECT id, max(active + "
                       "idle + idle_in_transaction + waiting_on_lock + idle_holding_advisory) FROM group_sample WHERE "
                       "%1 GROUP BY group_id, CAST(at / 60 AS INTEGER)))")
            .arg(groupIn),
        QStringLiteral("DELETE FROM blob WHERE kind = %1 AND id >= %2 AND id <= %3 AND id NOT IN (SELECT state_blob "
                       "FROM refresh WHERE state_blob >= %2 AND state_blob <= %3)")
            .arg(int(BlobKind::State))
            .arg(minBlob)
            .arg(maxBlob),
        QStringLiteral("INSERT OR REPLACE INTO meta (key, value) VALUES ('downsampled_to', '%1')").arg(h),
    };
    if (!db.transaction())
        return false;
    const qint64 before = scalar(QStringLiteral("SELECT count(*) FROM refresh WHERE %1").arg(in));
    for (const QString& sql : deletes) {
        if (!q.exec(sql)) {
            const QString why = q.lastError().text();
            db.rollback();
            return fail(why);
        }
        if (sql.startsWith(QLatin1String("DELETE FROM")) && !sql.startsWith(QLatin1String("DELETE FROM keep")))
            stats_.thinnedRows += q.numRowsAffected();
    }
    const qint64 after = scalar(QStringLiteral("SELECT count(*) FROM refresh WHERE %1").arg(in));
    if (!db.commit()) {
        db.rollback();
        return false;
    }
    stats_.thinnedRefreshes += before - after;
    downsampledTo_ = hi;
    return true;
}

// ---- HistoryRecorder ----------------------------------------------------------------------------

HistoryRecorder::HistoryRecorder(HistoryOptions o, QObject* parent) : QObject(parent), maxQueued_(o.maxQueued)
{
    qRegisterMetaType<lw::Snapshot>();
    thread_.setObjectName(QStringLiteral("leasewatch-history"));
    worker_ = new QObject;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.start(QThread::LowPriority);
    // The writer and its connection are created on the writer thread and only used there.
    QMetaObject::invokeMethod(
        worker_,
        [this, o = std::move(o)]() mutable {
            writer_ = std::make_unique<HistoryWriter>(std::move(o));
            open_ = writer_->isOpen();
            error_ = writer_->errorString();
            path_ = writer_->path();
            notice_ = writer_->notice();
            takenBy_ = writer_->takenBy();
        },
        Qt::BlockingQueuedConnection);
}

HistoryRecorder::~HistoryRecorder()
{
    QMetaObject::invokeMethod(worker_, [this] { writer_.reset(); }, Qt::BlockingQueuedConnection);
    thread_.quit();
    thread_.wait();
}

void HistoryRecorder::record(const Snapshot& s, const LeaseTracker& leases, const std::vector<Finding>& findings)
{
    if (!open_)
        return;
    if (queued_.load() >= maxQueued_) {
        // The change tables compare with what was last written: the next refresh that gets through
        // records every lease against its record, only the intermediate steps are lost.
        skipped_.fetch_add(1);
        wantsAll_ = true;
        return;
    }
    queued_.fetch_add(1);
    LeaseChanges changes = changes_.read(leases, wantsAll_.exchange(false));
    QMetaObject::invokeMethod(
        worker_,
        [this, s, changes = std::move(changes), findings] {
            const bool ok = writer_->write(s, changes, findings);
            if (writer_->wantsAllLeases())
                wantsAll_ = true;
            queued_.fetch_sub(1);
            if (ok != writing_) {
                writing_ = ok;
                Q_EMIT recordingChanged(ok, ok ? QString() : writer_->errorString());
            }
        },
        Qt::QueuedConnection);
}

void HistoryRecorder::flush()
{
    QMetaObject::invokeMethod(worker_, [] {}, Qt::BlockingQueuedConnection);
}

HistoryWriter::Stats HistoryRecorder::stats()
{
    HistoryWriter::Stats st;
    QMetaObject::invokeMethod(
        worker_, [this, &st] { st = writer_ ? writer_->stats() : HistoryWriter::Stats{}; },
        Qt::BlockingQueuedConnection);
    return st;
}

} // namespace lw
