#include "HistoryFormat.h"
#include "domain/Words.h"
#include "StreamValues.h"

#include <QDataStream>
#include <QIODevice>
#include <QJsonArray>
#include <QSqlError>
#include <QSqlQuery>

#include <libpq-fe.h>

#include <memory>

namespace lw::history {

QString changeKindKey(ChangeKind k)
{
    switch (k) {
    case ChangeKind::Seen:
        return QStringLiteral("seen");
    case ChangeKind::Take:
        return QStringLiteral("take");
    case ChangeKind::TakeOver:
        return QStringLiteral("take_over");
    case ChangeKind::Renew:
        return QStringLiteral("renew");
    case ChangeKind::State:
        return QStringLiteral("state");
    case ChangeKind::Release:
        return QStringLiteral("release");
    case ChangeKind::Modify:
        return QStringLiteral("modify");
    }
    return {};
}

namespace {

const char* const kDdl[] = {
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)",
    // at: the server's now() (epoch s); wall_ms: local wall clock when it arrived (retention by age).
    "CREATE TABLE IF NOT EXISTS refresh (id INTEGER PRIMARY KEY, at REAL NOT NULL, wall_ms INTEGER NOT NULL, "
    "ok INTEGER NOT NULL, state_blob INTEGER, keynames_blob INTEGER, error TEXT)",
    "CREATE INDEX IF NOT EXISTS refresh_at ON refresh(at)",
    "CREATE INDEX IF NOT EXISTS refresh_wall ON refresh(wall_ms)",
    "CREATE TABLE IF NOT EXISTS blob (id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, data BLOB NOT NULL)",
    // key: the console's row key (the name, or name + U+0001 + n for a duplicated name).
    "CREATE TABLE IF NOT EXISTS lease (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL)",
    // A lease's events by name (the Lease history page, its strips): without it, a scan per lease.
    "CREATE INDEX IF NOT EXISTS lease_name ON lease(name)",
    "CREATE TABLE IF NOT EXISTS lease_change (id INTEGER PRIMARY KEY, refresh_id INTEGER NOT NULL, "
    "at REAL NOT NULL, lease_id INTEGER NOT NULL, kind INTEGER NOT NULL, holder TEXT, taken_at REAL, "
    "expires_at REAL, state INTEGER, renewals INTEGER, first_renewal_at REAL, last_renewal_at REAL)",
    "CREATE INDEX IF NOT EXISTS lease_change_lease ON lease_change(lease_id, id)",
    "CREATE INDEX IF NOT EXISTS lease_change_refresh ON lease_change(refresh_id)",
    "CREATE TABLE IF NOT EXISTS pool_group (id INTEGER PRIMARY KEY, grouping INTEGER NOT NULL, "
    "key TEXT NOT NULL, application_name TEXT, client_addr TEXT, UNIQUE (grouping, key))",
    // A row when a group's counts changed (all zero: the group has no session any more).
    "CREATE TABLE IF NOT EXISTS group_sample (id INTEGER PRIMARY KEY, refresh_id INTEGER NOT NULL, "
    "at REAL NOT NULL, group_id INTEGER NOT NULL, active INTEGER NOT NULL, idle INTEGER NOT NULL, "
    "idle_in_transaction INTEGER NOT NULL, waiting_on_lock INTEGER NOT NULL, "
    "idle_holding_advisory INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS group_sample_group ON group_sample(group_id, id)",
    "CREATE INDEX IF NOT EXISTS group_sample_refresh ON group_sample(refresh_id)",
    "CREATE TABLE IF NOT EXISTS cluster_sample (refresh_id INTEGER PRIMARY KEY, at REAL NOT NULL, "
    "connections INTEGER, connection_budget INTEGER, lock_table_entries INTEGER, lock_table_capacity INTEGER, "
    "advisory_locks INTEGER, waiting_on_lock INTEGER, deadlocks INTEGER, deadlocks_last_minute INTEGER, "
    "counter_reset INTEGER)",
    "CREATE TABLE IF NOT EXISTS finding (id INTEGER PRIMARY KEY, finding_id TEXT NOT NULL, kind TEXT, "
    "severity INTEGER, title TEXT, subject TEXT, explanation TEXT, fix TEXT, "
    "appeared_refresh INTEGER NOT NULL, appeared_at REAL NOT NULL, gone_refresh INTEGER, gone_at REAL)",
    "CREATE INDEX IF NOT EXISTS finding_open ON finding(gone_refresh)",
    "CREATE INDEX IF NOT EXISTS finding_appeared ON finding(appeared_refresh)",
    // A copy of the local operator audit (AuditLog), same ids and columns.
    "CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY, at TEXT NOT NULL, os_user TEXT, os_host TEXT, "
    "db_role TEXT, database TEXT, action TEXT NOT NULL, target TEXT NOT NULL, before TEXT, after TEXT, "
    "outcome TEXT, outcome_key TEXT)",
    "CREATE INDEX IF NOT EXISTS audit_at ON audit(at)",
};

// The state blob's format version, checked on read (its values' forms: StreamValues.h).
constexpr quint32 kStateMagic = 0x4c57'4831; // "LWH1"

} // namespace

bool configureWriter(QSqlDatabase& db, QString* error)
{
    QSqlQuery q(db);
    // Must precede the first table: afterwards the mode can only change with a full VACUUM.
    q.exec(QStringLiteral("PRAGMA auto_vacuum=INCREMENTAL"));
    if (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !q.next() ||
        q.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0) {
        if (error)
            *error = ErrorWords::tr("cannot switch to WAL mode: %1").arg(q.lastError().text());
        return false;
    }
    // WAL + NORMAL: a crash of the application loses nothing committed; a power cut may lose the
    // last transactions but never corrupts the file.
    q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    return true;
}

bool hasRenewalCounts(const QSqlDatabase& db, const QString& schema)
{
    QSqlQuery q(db);
    q.exec(QStringLiteral("SELECT 1 FROM pragma_table_info('lease_change', '%1') WHERE name = 'renewals'")
               .arg(schema));
    return q.next();
}

bool createSchema(QSqlDatabase& db, QString* error)
{
    QSqlQuery q(db);
    for (const char* ddl : kDdl) {
        if (!q.exec(QString::fromLatin1(ddl))) {
            if (error)
                *error = q.lastError().text();
            return false;
        }
    }
    // Schema 1 stored every renewal as a row; schema 2 counts renewals on schedule (the columns
    // below). A schema-1 store gets the columns and goes on as schema 2.
    if (!hasRenewalCounts(db)) {
        for (const char* col : {"renewals INTEGER", "first_renewal_at REAL", "last_renewal_at REAL"}) {
            if (!q.exec(QStringLiteral("ALTER TABLE lease_change ADD COLUMN %1").arg(QLatin1String(col)))) {
                if (error)
                    *error = q.lastError().text();
                return false;
            }
        }
    }
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)"));
    q.addBindValue(QString::number(kSchemaVersion));
    if (!q.exec()) {
        if (error)
            *error = q.lastError().text();
        return false;
    }
    return true;
}


QByteArray encodeState(const Snapshot& s)
{
    QByteArray raw;
    {
        QDataStream ds(&raw, QIODevice::WriteOnly);
        ds.setVersion(QDataStream::Qt_6_4);
        ds << kStateMagic << s.ok;
        put(ds, s.error);
        ds << s.server.version << qint32(s.server.versionNum) << s.server.database << s.server.user
           << qint32(s.server.backendPid);
        const ClusterInfo& c = s.cluster;
        ds << qint32(c.maxConnections) << qint32(c.superuserReservedConnections)
           << qint32(c.maxLocksPerTransaction) << qint32(c.maxPreparedTransactions)
           << qint32(c.lockTableEntries) << qint32(c.totalLocks) << c.deadlocks << c.hasMonitorPrivilege;
        put(ds, c.statsReset);
        ds << quint32(s.sessions.size());
        for (const SessionRow& r : s.sessions) {
            ds << qint32(r.pid) << r.database << r.user << r.applicationName << r.clientAddr
               << qint32(r.clientPort);
            put(ds, r.backendStart);
            put(ds, r.xactStart);
            put(ds, r.queryStart);
            put(ds, r.stateChange);
            ds << r.state << r.waitEventType << r.waitEvent << r.query << quint32(r.blockedBy.size());
            for (int b : r.blockedBy)
                ds << qint32(b);
        }
        ds << quint32(s.advisoryLocks.size());
        for (const AdvisoryLockRow& l : s.advisoryLocks) {
            ds << qint32(l.pid) << l.database << l.inMonitoredDb << l.twoKeys << l.key << l.key1 << l.key2
               << l.mode << l.granted;
            put(ds, l.waitStart);
        }
        ds << bool(s.leasesError.has_value());
        if (s.leasesError)
            put(ds, *s.leasesError);
        ds << qint32(c.reservedConnections); // appended (PostgreSQL 16): older states end before it
        ds << c.mayUseReserved;              // appended after it: older states end before it
    }
    return qCompress(raw, 6);
}

bool decodeState(const QByteArray& blob, Snapshot& s)
{
    const QByteArray raw = qUncompress(blob);
    if (raw.isEmpty())
        return false;
    QDataStream ds(raw);
    ds.setVersion(QDataStream::Qt_6_4);
    quint32 magic = 0;
    ds >> magic;
    if (magic != kStateMagic)
        return false;
    ds >> s.ok;
    get(ds, s.error);
    qint32 i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0;
    ds >> s.server.version >> i1 >> s.server.database >> s.server.user >> i2;
    s.server.versionNum = i1;
    s.server.backendPid = i2;
    ClusterInfo& c = s.cluster;
    ds >> i1 >> i2 >> i3 >> i4 >> i5 >> i6 >> c.deadlocks >> c.hasMonitorPrivilege;
    c.maxConnections = i1;
    c.superuserReservedConnections = i2;
    c.maxLocksPerTransaction = i3;
    c.maxPreparedTransactions = i4;
    c.lockTableEntries = i5;
    c.totalLocks = i6;
    get(ds, c.statsReset);
    quint32 n = 0;
    ds >> n;
    if (ds.status() != QDataStream::Ok || n > 10'000'000)
        return false;
    std::vector<SessionRow> sessions(n);
    for (SessionRow& r : sessions) {
        qint32 pid = 0, port = 0;
        ds >> pid >> r.database >> r.user >> r.applicationName >> r.clientAddr >> port;
        r.pid = pid;
        r.clientPort = port;
        get(ds, r.backendStart);
        get(ds, r.xactStart);
        get(ds, r.queryStart);
        get(ds, r.stateChange);
        quint32 nb = 0;
        ds >> r.state >> r.waitEventType >> r.waitEvent >> r.query >> nb;
        if (ds.status() != QDataStream::Ok || nb > 100'000)
            return false;
        r.blockedBy.resize(nb);
        for (int& b : r.blockedBy) {
            qint32 v = 0;
            ds >> v;
            b = v;
        }
    }
    s.sessions = std::move(sessions);
    ds >> n;
    if (ds.status() != QDataStream::Ok || n > 10'000'000)
        return false;
    std::vector<AdvisoryLockRow> locks(n);
    for (AdvisoryLockRow& l : locks) {
        qint32 pid = 0;
        ds >> pid >> l.database >> l.inMonitoredDb >> l.twoKeys >> l.key >> l.key1 >> l.key2 >> l.mode >>
            l.granted;
        l.pid = pid;
        get(ds, l.waitStart);
    }
    s.advisoryLocks = std::move(locks);
    bool hasLeasesError = false;
    ds >> hasLeasesError;
    if (hasLeasesError) {
        DbError e;
        get(ds, e);
        s.leasesError = e;
    } else {
        s.leasesError.reset();
    }
    c.reservedConnections = 0;
    if (!ds.atEnd()) {
        qint32 reserved = 0;
        ds >> reserved;
        c.reservedConnections = reserved;
    }
    c.mayUseReserved = false;
    if (!ds.atEnd())
        ds >> c.mayUseReserved;
    return ds.status() == QDataStream::Ok;
}

QByteArray encodeKeyNames(const KeyNames& names)
{
    QByteArray raw;
    {
        QDataStream ds(&raw, QIODevice::WriteOnly);
        ds.setVersion(QDataStream::Qt_6_4);
        ds << kStateMagic << names;
    }
    return qCompress(raw, 6);
}

std::optional<KeyNames> decodeKeyNames(const QByteArray& blob)
{
    const QByteArray raw = qUncompress(blob);
    QDataStream ds(raw);
    ds.setVersion(QDataStream::Qt_6_4);
    quint32 magic = 0;
    KeyNames names;
    ds >> magic >> names;
    if (magic != kStateMagic || ds.status() != QDataStream::Ok)
        return std::nullopt;
    return names;
}

QJsonObject analysisConfigToJson(const AnalysisConfig& c)
{
    QJsonObject th{{QStringLiteral("idle_holding_s"), c.thresholds.idleHoldingS},
                   {QStringLiteral("advisory_wait_s"), c.thresholds.advisoryWaitS},
                   {QStringLiteral("pinned_min_s"), c.thresholds.pinnedMinS},
                   {QStringLiteral("pinned_share"), c.thresholds.pinnedShare},
                   {QStringLiteral("lock_table_share"), c.thresholds.lockTableShare},
                   {QStringLiteral("connection_share"), c.thresholds.connectionShare}};
    QJsonObject sizes;
    for (auto it = c.poolSizes.begin(); it != c.poolSizes.end(); ++it)
        sizes.insert(it.key(), it.value());
    return {{QStringLiteral("thresholds"), th},
            {QStringLiteral("group_by"), int(c.groupBy)},
            {QStringLiteral("pool_sizes"), sizes}};
}

AnalysisConfig analysisConfigFromJson(const QJsonObject& o)
{
    AnalysisConfig c;
    const QJsonObject th = o.value(QStringLiteral("thresholds")).toObject();
    auto d = [&](const char* k, double def) { return th.value(QLatin1String(k)).toDouble(def); };
    c.thresholds.idleHoldingS = d("idle_holding_s", c.thresholds.idleHoldingS);
    c.thresholds.advisoryWaitS = d("advisory_wait_s", c.thresholds.advisoryWaitS);
    c.thresholds.pinnedMinS = d("pinned_min_s", c.thresholds.pinnedMinS);
    c.thresholds.pinnedShare = d("pinned_share", c.thresholds.pinnedShare);
    c.thresholds.lockTableShare = d("lock_table_share", c.thresholds.lockTableShare);
    c.thresholds.connectionShare = d("connection_share", c.thresholds.connectionShare);
    c.groupBy = GroupBy(std::clamp(o.value(QStringLiteral("group_by")).toInt(0), 0, 3));
    const QJsonObject sizes = o.value(QStringLiteral("pool_sizes")).toObject();
    for (auto it = sizes.begin(); it != sizes.end(); ++it)
        c.poolSizes.insert(it.key(), it.value().toInt());
    return c;
}

QJsonObject leasePolicyToJson(const LeasePolicy& p, bool writerUsesAppClock)
{
    QJsonObject o{{QStringLiteral("expiring_soon_share"), p.expiringSoonShare},
                  {QStringLiteral("refresh_interval_s"), p.refreshIntervalS},
                  {QStringLiteral("released_linger_s"), p.releasedLingerS},
                  {QStringLiteral("taken_over_linger_s"), p.takenOverLingerS},
                  {QStringLiteral("writer_uses_app_clock"), writerUsesAppClock},
                  {QStringLiteral("expiry_frees"), p.expiryFrees},
                  {QStringLiteral("expect_renewals"), p.expectRenewals}};
    if (p.ttlOverride)
        o.insert(QStringLiteral("ttl_s"), *p.ttlOverride);
    return o;
}

LeasePolicy leasePolicyFromJson(const QJsonObject& o, bool* writerUsesAppClock)
{
    LeasePolicy p;
    p.expiringSoonShare = o.value(QStringLiteral("expiring_soon_share")).toDouble(p.expiringSoonShare);
    p.refreshIntervalS = o.value(QStringLiteral("refresh_interval_s")).toDouble(p.refreshIntervalS);
    p.releasedLingerS = o.value(QStringLiteral("released_linger_s")).toDouble(p.releasedLingerS);
    p.takenOverLingerS = o.value(QStringLiteral("taken_over_linger_s")).toDouble(p.takenOverLingerS);
    if (o.contains(QStringLiteral("ttl_s")))
        p.ttlOverride = o.value(QStringLiteral("ttl_s")).toDouble();
    p.expiryFrees = o.value(QStringLiteral("expiry_frees")).toBool(p.expiryFrees);
    p.expectRenewals = o.value(QStringLiteral("expect_renewals")).toBool(p.expectRenewals);
    if (writerUsesAppClock)
        *writerUsesAppClock = o.value(QStringLiteral("writer_uses_app_clock")).toBool();
    return p;
}

QJsonArray leaseTablesToJson(const std::vector<LeaseTableConfig>& tables)
{
    QJsonArray out;
    for (const LeaseTableConfig& t : tables)
        out.append(QJsonObject{{QStringLiteral("scheme"), t.scheme},
                               {QStringLiteral("schema"), t.schema},
                               {QStringLiteral("table"), t.table},
                               {QStringLiteral("columns"), t.columnsSpec()},
                               {QStringLiteral("time_kind"), t.timeKindSpec()},
                               {QStringLiteral("expiry_frees"), t.expiryFrees},
                               {QStringLiteral("expect_renewals"), t.expectRenewals},
                               {QStringLiteral("renew_share"), t.renewShare},
                               {QStringLiteral("writer_uses_app_clock"), t.writerUsesAppClock},
                               {QStringLiteral("ttl_seconds"), t.ttlSeconds ? QJsonValue(*t.ttlSeconds) : QJsonValue()},
                               {QStringLiteral("expiring_soon_share"), t.expiringSoonShare}});
    return out;
}

std::vector<LeaseTableConfig> leaseTablesFromJson(const QJsonArray& a)
{
    std::vector<LeaseTableConfig> out;
    for (const QJsonValue& v : a) {
        const QJsonObject o = v.toObject();
        // The catalogue's entry (its expressions and words), where the recording put it; a table
        // mapped by hand keeps its recorded mapping and rules.
        LeaseTableConfig t = LeaseTableConfig::preset(o.value(QStringLiteral("scheme")).toString()).value_or(LeaseTableConfig{});
        t.schema = o.value(QStringLiteral("schema")).toString(t.schema);
        t.table = o.value(QStringLiteral("table")).toString(t.table);
        if (!t.mappedByExpressions())
            t.setColumns(o.value(QStringLiteral("columns")).toString());
        if (t.timeKindApplies())
            t.setTimeKind(o.value(QStringLiteral("time_kind")).toString());
        t.expiryFrees = o.value(QStringLiteral("expiry_frees")).toBool(t.expiryFrees);
        t.expectRenewals = o.value(QStringLiteral("expect_renewals")).toBool(t.expectRenewals);
        t.renewShare = o.value(QStringLiteral("renew_share")).toDouble(t.renewShare);
        t.writerUsesAppClock = o.value(QStringLiteral("writer_uses_app_clock")).toBool(t.writerUsesAppClock);
        if (const QJsonValue ttl = o.value(QStringLiteral("ttl_seconds")); ttl.isDouble())
            t.ttlSeconds = ttl.toDouble();
        t.expiringSoonShare = o.value(QStringLiteral("expiring_soon_share")).toDouble(t.expiringSoonShare);
        out.push_back(std::move(t));
    }
    return out;
}

int leaseSourceOfKey(const QString& key, const std::vector<LeaseTableConfig>& tables)
{
    const auto at = key.indexOf(QChar(2));
    if (at < 0)
        return 0;
    QString table = key.mid(at + 1);
    if (const auto dup = table.indexOf(QChar(1)); dup >= 0)
        table.truncate(dup);
    for (size_t i = 0; i < tables.size(); ++i)
        if (tables[i].qualifiedName() == table)
            return int(i);
    return 0;
}

QString profileFileName(const QString& profile)
{
    QString out;
    for (QChar c : profile.trimmed())
        out += (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.'))
                   ? c
                   : QLatin1Char('_');
    while (out.startsWith(QLatin1Char('.')))
        out[0] = QLatin1Char('_'); // no hidden files, no ".."
    return out.isEmpty() ? QStringLiteral("default") : out.left(120);
}

QVariant nullableReal(const std::optional<double>& v)
{
    return v ? QVariant(*v) : QVariant(QMetaType(QMetaType::Double));
}

std::optional<double> optionalReal(const QVariant& v)
{
    if (v.isNull())
        return std::nullopt;
    return v.toDouble();
}

} // namespace lw::history
