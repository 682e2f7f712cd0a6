#include "ForceExpire.h"
#include "domain/UtcTime.h"

#include "domain/Wording.h"
#include "domain/Words.h"
#include "domain/SqlText.h"

#include "store/AuditLog.h"
#include "Logging.h"
#include "Poller.h"
#include "pg/Cells.h"
#include "pg/PgHandles.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace lw {

namespace {

QString formatUtc(double epoch)
{
    if (!std::isfinite(epoch) || std::abs(epoch) > 1e13)
        return ForceExpireWords::tr("(out of range)");
    return utcFromMSecs(qint64(std::llround(epoch * 1000.0)))
               .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) +
           QStringLiteral(" UTC");
}

QString relative(std::optional<double> expires, std::optional<double> now)
{
    if (!expires)
        return ForceExpireWords::tr("no expiry (NULL)");
    if (!now)
        return formatUtc(*expires);
    return QStringLiteral("%1 (%2)").arg(formatCountdown(*expires - *now), formatUtc(*expires));
}

QString holderText(const std::optional<QString>& h)
{
    return h ? QStringLiteral("\"%1\"").arg(*h) : ForceExpireWords::tr("(no holder)");
}

// The expiry column as an instant, whatever its storage (same rule as the monitoring SELECT).
QByteArray asInstant(const QByteArray& col, LeaseTableConfig::TimeKind kind, const QByteArray& zoneParam)
{
    switch (kind) {
    case LeaseTableConfig::TimeKind::TimestampTz:
        return col;
    case LeaseTableConfig::TimeKind::NaiveUtc:
        return "(" + col + " AT TIME ZONE 'UTC')";
    case LeaseTableConfig::TimeKind::NaiveZone:
        return "(" + col + " AT TIME ZONE " + zoneParam + "::text)";
    }
    return col;
}

// The server's now() in the column's own type: a naive column gets the wall time of its zone.
QByteArray nowInColumnType(LeaseTableConfig::TimeKind kind, const QByteArray& zoneParam)
{
    switch (kind) {
    case LeaseTableConfig::TimeKind::TimestampTz:
        return "now()";
    case LeaseTableConfig::TimeKind::NaiveUtc:
        return "(now() AT TIME ZONE 'UTC')";
    case LeaseTableConfig::TimeKind::NaiveZone:
        return "(now() AT TIME ZONE " + zoneParam + "::text)";
    }
    return "now()";
}

struct Params
{
    std::vector<std::optional<QByteArray>> values;
    QByteArray add(std::optional<QByteArray> v)
    {
        values.push_back(std::move(v));
        return "$" + QByteArray::number(qsizetype(values.size()));
    }
};

QByteArray qualifiedTable(const pg::Connection& conn, const LeaseTableConfig& cfg)
{
    return conn.quoteIdentifier(cfg.schema) + "." + conn.quoteIdentifier(cfg.table);
}

QString beforeJsonOf(const ForceExpireTarget& t)
{
    QJsonObject o;
    o.insert(QStringLiteral("holder"), t.holder ? QJsonValue(*t.holder) : QJsonValue());
    o.insert(QStringLiteral("taken_at"), t.takenAt ? QJsonValue(formatUtc(*t.takenAt)) : QJsonValue());
    o.insert(QStringLiteral("expires_at"), t.expiresAt ? QJsonValue(formatUtc(*t.expiresAt)) : QJsonValue());
    o.insert(QStringLiteral("expires_at_epoch"), t.expiresAt ? QJsonValue(*t.expiresAt) : QJsonValue());
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

using pg::cellOptDouble;

std::optional<QString> optString(const PGresult* r, int row, int col)
{
    if (!r || PQgetisnull(r, row, col))
        return std::nullopt;
    return QString::fromUtf8(PQgetvalue(r, row, col), PQgetlength(r, row, col));
}

} // namespace

QString ForceExpireTarget::auditBefore() const
{
    return beforeJsonOf(*this);
}

QString ForceExpireOutcome::auditAfter() const
{
    QJsonObject o;
    if (currentHolder || currentExpiresAt || kind == Kind::Gone) {
        o.insert(QStringLiteral("exists"), kind != Kind::Gone);
        o.insert(QStringLiteral("holder"), currentHolder ? QJsonValue(*currentHolder) : QJsonValue());
        o.insert(QStringLiteral("expires_at"),
                 currentExpiresAt ? QJsonValue(formatUtc(*currentExpiresAt)) : QJsonValue());
        o.insert(QStringLiteral("expires_at_epoch"),
                 currentExpiresAt ? QJsonValue(*currentExpiresAt) : QJsonValue());
    }
    o.insert(QStringLiteral("changed"), changed());
    if (serverNow)
        o.insert(QStringLiteral("server_now"), formatUtc(*serverNow));
    if (error.isError()) {
        o.insert(QStringLiteral("sqlstate"), error.sqlstate);
        o.insert(QStringLiteral("error"), error.message);
    }
    if (serverAudited)
        o.insert(QStringLiteral("server_audited"), true);
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString ForceExpireOutcome::key() const
{
    switch (kind) {
    case Kind::Expired:
        return QStringLiteral("expired");
    case Kind::ChangedHands:
        return QStringLiteral("changed_hands");
    case Kind::Renewed:
        return QStringLiteral("renewed");
    case Kind::Retaken:
        return QStringLiteral("retaken");
    case Kind::Duplicates:
        return QStringLiteral("duplicates");
    case Kind::CommitUnknown:
        return QStringLiteral("commit_unknown");
    case Kind::ExpiredAlready:
        return QStringLiteral("expired_already");
    case Kind::Gone:
        return QStringLiteral("gone");
    case Kind::NoPrivilege:
        return QStringLiteral("no_privilege");
    case Kind::LockTimeout:
        return QStringLiteral("lock_timeout");
    case Kind::Timeout:
        return QStringLiteral("timeout");
    case Kind::NotAllowed:
        return QStringLiteral("not_allowed");
    case Kind::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

QString ForceExpireOutcome::text() const
{
    switch (kind) {
    case Kind::Expired:
        if (!releasedAs.isEmpty())
            return ForceExpireWords::tr("released: %1; another instance may take it at its next attempt").arg(releasedAs);
        return ForceExpireWords::tr("expired: its expiry is now the server's now() (%1); another instance may take "
                              "it at its next attempt")
            .arg(currentExpiresAt ? formatUtc(*currentExpiresAt) : QStringLiteral("?"));
    case Kind::ChangedHands:
        return ForceExpireWords::tr("not changed: the lease changed hands since it was shown — now held by %1, "
                              "expires %2")
            .arg(holderText(currentHolder), relative(currentExpiresAt, serverNow));
    case Kind::Renewed:
        return ForceExpireWords::tr("not changed: the holder renewed it since it was shown (so it is alive) — new "
                              "expiry %1")
            .arg(relative(currentExpiresAt, serverNow));
    case Kind::Retaken:
        return ForceExpireWords::tr("not changed: the lease was taken again since it was shown (taken at %1, expires "
                              "%2); its holder string %3 is the same, but a holder string can be shared "
                              "(every instance on one host), so this may be another instance")
            .arg(currentTakenAt ? formatUtc(*currentTakenAt) : QStringLiteral("?"),
                 relative(currentExpiresAt, serverNow), holderText(currentHolder));
    case Kind::Duplicates:
        return ForceExpireWords::tr("not changed: %1 rows are named \"%2\" (holders %3); the name column has no unique "
                              "constraint, so the console cannot tell which row was shown, and the "
                              "transaction was rolled back. Remove the duplicate rows, or add a unique "
                              "constraint on the name column, then try again")
            .arg(duplicateCount)
            .arg(target.name, duplicateHolders.join(QStringLiteral(", ")));
    case Kind::CommitUnknown:
        return ForceExpireWords::tr("outcome unknown: COMMIT was sent and no answer came (%1); the expiry may now be "
                              "the server's now(). Look at the lease before acting again")
            .arg(error.toDisplayString());
    case Kind::ExpiredAlready:
        return ForceExpireWords::tr("not changed: it had already expired (expiry %1; another console may have "
                              "force-expired it)")
            .arg(relative(currentExpiresAt, serverNow));
    case Kind::Gone:
        return ForceExpireWords::tr("not changed: the lease no longer exists or is no longer held");
    case Kind::NoPrivilege:
        return ForceExpireWords::tr("refused for lack of privilege: role %1 needs %2 — %3")
            .arg(dbRole.isEmpty() ? ForceExpireWords::tr("(unknown)") : dbRole, privilegeNeeded,
                 error.toDisplayString());
    case Kind::LockTimeout:
        return ForceExpireWords::tr("timed out waiting for the row lock (another session, probably the holder "
                              "renewing, holds it); nothing was changed — %1")
            .arg(error.toDisplayString());
    case Kind::Timeout:
        return ForceExpireWords::tr("timed out; nothing was changed — %1").arg(error.toDisplayString());
    case Kind::NotAllowed:
        if (!refusal.isEmpty()) // the library frees its locks its own way
            return ForceExpireWords::tr("not sent: %1 Nothing was written.").arg(refusal);
        return ForceExpireWords::tr("not sent: operator mode is off for this connection profile (start with "
                              "--operator); nothing was written");
    case Kind::Failed:
        return ForceExpireWords::tr("failed; nothing was changed — %1").arg(error.toDisplayString());
    }
    return {};
}

QString auditDatabaseLabel(const QString& dsn, const QString& serverDatabase)
{
    const QByteArray utf8 = pg::normalizeDsn(dsn).toUtf8();
    pg::ConninfoPtr opts(PQconninfoParse(utf8.constData(), nullptr));
    QString host, port, db;
    for (auto* o = opts.get(); o && o->keyword; ++o) {
        if (!o->val)
            continue;
        if (qstrcmp(o->keyword, "host") == 0)
            host = QString::fromUtf8(o->val);
        else if (qstrcmp(o->keyword, "port") == 0)
            port = QString::fromUtf8(o->val);
        else if (qstrcmp(o->keyword, "dbname") == 0 || qstrcmp(o->keyword, "service") == 0)
            db = QString::fromUtf8(o->val);
    }
    if (!serverDatabase.isEmpty())
        db = serverDatabase;
    QString where = host.isEmpty() ? QStringLiteral("(default host)") : host;
    if (!port.isEmpty())
        where += QLatin1Char(':') + port;
    return QStringLiteral("%1 on %2").arg(db, where);
}

std::vector<qint64> auditForceExpireSent(AuditLog* audit, const ForceExpireRequest& req,
                                         const std::vector<ForceExpireTarget>& targets,
                                         const QString& databaseLabel)
{
    std::vector<qint64> ids;
    for (const ForceExpireTarget& t : targets) {
        AuditRecord r;
        r.database = databaseLabel;
        r.action = QStringLiteral("force-expire");
        r.target = req.table.qualifiedName() + QLatin1Char('/') + t.name;
        r.before = t.auditBefore();
        r.outcome = QStringLiteral("sent, no answer yet");
        r.outcomeKey = QStringLiteral("pending");
        ids.push_back(audit && audit->append(r) ? r.id : 0);
    }
    return ids;
}

bool auditForceExpireOutcomes(AuditLog* audit, const std::vector<ForceExpireOutcome>& outcomes,
                              const std::vector<qint64>& ids)
{
    bool logged = true;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const ForceExpireOutcome& o = outcomes[i];
        const qint64 id = i < ids.size() ? ids[i] : 0;
        logged = logged && audit && id > 0 && audit->complete(id, o.auditAfter(), o.text(), o.key(), o.dbRole);
    }
    return logged;
}

ForceExpireRequest forceExpireRequestFor(const PollerConfig& cfg)
{
    ForceExpireRequest r;
    r.connect = cfg.connect;
    r.connect.readOnly = false;
    r.connect.applicationName = QStringLiteral("leasewatch-operator");
    r.connect.statementTimeoutMs = r.statementTimeoutMs;
    r.connect.lockTimeoutMs = r.lockTimeoutMs;
    r.table = cfg.leases;
    r.operatorMode = cfg.operatorMode;
    r.auditTable = cfg.auditTable;
    r.osUser = localOsUser();
    r.osHost = localHostName();
    return r;
}

namespace {

// The optional server-side audit row, written in the same statement as the change (`u`): the two
// commit or fail together, and a CAS that changed nothing writes nothing server-side (only applied
// changes are recorded there; every attempt is recorded in the local audit log). Returns what the
// final SELECT reports as "audited".
QByteArray appendServerAudit(QByteArray& sql, Params& p, const pg::Connection& conn, const ForceExpireRequest& req,
                             const ForceExpireTarget& t)
{
    const auto at = ServerAuditTable::parse(req.auditTable);
    if (!at)
        return "0";
    const QByteArray userP = p.add(req.osUser.toUtf8());
    const QByteArray hostP = p.add(req.osHost.toUtf8());
    const QByteArray actionP = p.add(QByteArrayLiteral("force-expire"));
    const QByteArray targetP = p.add((req.table.qualifiedName() + QLatin1Char('/') + t.name).toUtf8());
    const QByteArray beforeP = p.add(t.auditBefore().toUtf8());
    sql += ", a AS (INSERT INTO " + at->quoted(conn) +
           " (os_user, os_host, action, target, before, after, outcome) SELECT " + userP + "::text, " + hostP +
           "::text, " + actionP + "::text, " + targetP + "::text, " + beforeP +
           "::jsonb, jsonb_build_object('holder', u.holder, 'expires_at', u.expires_text, "
           "'expires_at_epoch', u.expires), 'expired' FROM u RETURNING 1)";
    return "(SELECT count(*) FROM a)";
}

// A catalogue table freed by its library's own release statement (LeaseTableConfig::release): the
// same compare-and-set on the row as shown, over the expressions the console reads it with.
pg::Statement libraryReleaseStatement(const pg::Connection& conn, const ForceExpireRequest& req,
                                      const ForceExpireTarget& t)
{
    const LeaseTableConfig& c = req.table;
    Params p;
    const QByteArray nameP = p.add(t.name.toUtf8());
    const QByteArray holderP = p.add(t.holder ? std::optional<QByteArray>(t.holder->toUtf8()) : std::nullopt);
    const QByteArray zoneP =
        c.timeKind == LeaseTableConfig::TimeKind::NaiveZone ? p.add(c.zone.toUtf8()) : QByteArray();
    const QByteArray holder = "(" + c.exprs.holder + ")::text";
    const QByteArray expires = "(" + c.zoned(c.exprs.expiresAt, zoneP) + ")";
    QByteArray cond = "(" + c.exprs.where + ") AND (" + c.exprs.name + ")::text = " + nameP + " AND " + holder +
                      " IS NOT DISTINCT FROM " + holderP + "::text AND ";
    if (t.expiresAt)
        cond += "abs(date_part('epoch', " + expires + ")::float8 - " + p.add(QByteArray::number(*t.expiresAt, 'f', 6)) +
                "::float8) < 0.001";
    else
        cond += expires + " IS NULL";
    if (t.acknowledgedAlive)
        cond += " AND (" + expires + " IS NULL OR " + expires + " > clock_timestamp())";
    QByteArray sql = "WITH u AS (UPDATE " + qualifiedTable(conn, c) + " AS l SET " + c.release.set + " WHERE " +
                     cond + " RETURNING " + holder + " AS holder, date_part('epoch', " + expires +
                     ")::float8 AS expires, " + expires + "::text AS expires_text";
    if (!c.release.returning.isEmpty())
        sql += ", " + c.release.returning;
    sql += ")";
    if (!c.release.also.isEmpty()) {
        QByteArray also = c.release.also;
        also.replace("{schema}", conn.quoteIdentifier(c.schema)).replace("{holder}", holderP + "::text");
        sql += ", also AS (" + also + ")";
    }
    const QByteArray audited = appendServerAudit(sql, p, conn, req, t);
    sql += " SELECT u.holder, u.expires, " + audited + " FROM u";
    return {sql, std::move(p.values)};
}

} // namespace

pg::Statement forceExpireStatement(const pg::Connection& conn, const ForceExpireRequest& req,
                                   const ForceExpireTarget& t)
{
    const LeaseTableConfig& c = req.table;
    if (c.releasedByLibraryStatement())
        return libraryReleaseStatement(conn, req, t);
    Params p;
    const QByteArray nameP = p.add(t.name.toUtf8());
    const QByteArray holderP = p.add(t.holder ? std::optional<QByteArray>(t.holder->toUtf8()) : std::nullopt);
    const QByteArray zoneP =
        c.timeKind == LeaseTableConfig::TimeKind::NaiveZone ? p.add(c.zone.toUtf8()) : QByteArray();
    const QByteArray exp = "l." + conn.quoteIdentifier(c.expiresAtColumn);
    const QByteArray expInstant = asInstant(exp, c.timeKind, zoneP);

    // The expiry as shown is always compared: a renewal or a re-take since then fails the CAS. The
    // console read it as extract(epoch)::float8; compare the same form with a 1 ms tolerance: exact
    // float equality is representation-fragile, and any real renewal moves it by far more than 1 ms.
    QByteArray expiryCond;
    if (t.expiresAt) {
        const QByteArray shownP = p.add(QByteArray::number(*t.expiresAt, 'f', 6));
        expiryCond = "abs(extract(epoch FROM " + expInstant + ")::float8 - " + shownP + "::float8) < 0.001";
    } else {
        expiryCond = exp + " IS NULL";
    }
    if (t.acknowledgedAlive) {
        // An alive holder's lease that ran out meanwhile has nothing left to force. clock_timestamp(),
        // not now(): a second console whose transaction began just before the first one's must still
        // see the first one's value as past.
        expiryCond += " AND (" + exp + " IS NULL OR " + expInstant + " > clock_timestamp())";
    }

    QByteArray sql = "WITH u AS (UPDATE " + qualifiedTable(conn, c) + " AS l SET " +
                     conn.quoteIdentifier(c.expiresAtColumn) + " = " + nowInColumnType(c.timeKind, zoneP) +
                     " WHERE l." + conn.quoteIdentifier(c.nameColumn) + " = " + nameP + " AND l." +
                     conn.quoteIdentifier(c.holderColumn) + "::text IS NOT DISTINCT FROM " + holderP +
                     "::text AND " + expiryCond + " RETURNING l." + conn.quoteIdentifier(c.holderColumn) +
                     "::text AS holder, extract(epoch FROM " + expInstant + ")::float8 AS expires, " + exp +
                     "::text AS expires_text)";
    const QByteArray audited = appendServerAudit(sql, p, conn, req, t);
    sql += " SELECT u.holder, u.expires, " + audited + " FROM u";
    return {sql, std::move(p.values)};
}

namespace {

// The rows of the target's name as they are now (inside the transaction: after our own UPDATE),
// with how many there are: a table without a unique name may hold several.
pg::Statement currentRowStatement(const pg::Connection& conn, const LeaseTableConfig& c, const QString& name)
{
    Params p;
    const QByteArray nameP = p.add(name.toUtf8());
    const QByteArray zoneP =
        c.timeKind == LeaseTableConfig::TimeKind::NaiveZone ? p.add(c.zone.toUtf8()) : QByteArray();
    if (c.releasedByLibraryStatement()) {
        // Only rows that are leases at all (locked, picked): a released one is no longer there.
        pg::Statement s;
        s.sql = "SELECT (" + c.exprs.holder + ")::text, date_part('epoch', " + c.zoned(c.exprs.expiresAt, zoneP) +
                ")::float8, extract(epoch FROM clock_timestamp())::float8, date_part('epoch', " +
                c.zoned(c.exprs.takenAt, zoneP) + ")::float8, count(*) OVER ()::int FROM " + qualifiedTable(conn, c) +
                " AS l WHERE (" + c.exprs.where + ") AND (" + c.exprs.name + ")::text = " + nameP + " LIMIT 5";
        s.params = std::move(p.values);
        return s;
    }
    const QByteArray exp = "l." + conn.quoteIdentifier(c.expiresAtColumn);
    const QByteArray taken =
        c.takenAtColumn.isEmpty()
            ? QByteArray("NULL::float8")
            : "extract(epoch FROM " + asInstant("l." + conn.quoteIdentifier(c.takenAtColumn), c.timeKind, zoneP) +
                  ")::float8";
    pg::Statement s;
    s.sql = "SELECT l." + conn.quoteIdentifier(c.holderColumn) + "::text, extract(epoch FROM " +
            asInstant(exp, c.timeKind, zoneP) +
            ")::float8, extract(epoch FROM clock_timestamp())::float8, " + taken +
            ", count(*) OVER ()::int FROM " + qualifiedTable(conn, c) + " AS l WHERE l." +
            conn.quoteIdentifier(c.nameColumn) + " = " + nameP + " LIMIT 5";
    s.params = std::move(p.values);
    return s;
}

// Classifies a failed statement into the outcome kinds the operator reads.
void classifyError(ForceExpireOutcome& o, const DbError& e, const ForceExpireRequest& req)
{
    o.error = e;
    const auto audit = ServerAuditTable::parse(req.auditTable);
    if (e.sqlstate == QLatin1String("55P03")) {
        o.kind = ForceExpireOutcome::Kind::LockTimeout;
    } else if (e.sqlstate == QLatin1String("57014") || e.kind == DbError::Kind::Timeout) {
        o.kind = ForceExpireOutcome::Kind::Timeout;
    } else if (e.sqlstate == QLatin1String("42501")) {
        o.kind = ForceExpireOutcome::Kind::NoPrivilege;
        if (audit && e.message.contains(QStringLiteral("table %1").arg(audit->table)))
            o.privilegeNeeded =
                QStringLiteral("INSERT on the audit table %1 (GRANT INSERT ON %1 TO %2; "
                               "GRANT USAGE ON SEQUENCE %3 TO %2)")
                    .arg(sqlQualifiedName(audit->schema, audit->table),
                         o.dbRole.isEmpty() ? QStringLiteral("<role>") : sqlIdentifier(o.dbRole),
                         sqlQualifiedName(audit->schema, audit->table + QStringLiteral("_id_seq")));
        else if (req.table.releasedByLibraryStatement())
            o.privilegeNeeded = QStringLiteral("UPDATE on %1, with SELECT on it (GRANT SELECT, UPDATE ON %1 TO %2)")
                                    .arg(sqlQualifiedName(req.table.schema, req.table.table),
                                         o.dbRole.isEmpty() ? QStringLiteral("<role>") : sqlIdentifier(o.dbRole));
        else
            o.privilegeNeeded =
                ForceExpireWords::tr("UPDATE on %1 (at least on column %2), with SELECT on it (GRANT SELECT, "
                               "UPDATE (%2) ON %1 TO %3)")
                    .arg(sqlQualifiedName(req.table.schema, req.table.table),
                         sqlIdentifier(req.table.expiresAtColumn),
                         o.dbRole.isEmpty() ? QStringLiteral("<role>") : sqlIdentifier(o.dbRole));
    } else if (e.sqlstate == QLatin1String("42P01") && audit && e.message.contains(audit->table)) {
        o.kind = ForceExpireOutcome::Kind::Failed;
        o.error.hint = ForceExpireWords::tr("the server-side audit table %1 does not exist: create it from the "
                                      "console (Leases ▸ Create server-side audit table) or remove it from "
                                      "the profile")
                           .arg(audit->qualified());
    } else {
        o.kind = ForceExpireOutcome::Kind::Failed;
    }
}

ForceExpireOutcome runOne(pg::Connection& conn, const ForceExpireRequest& req, const ForceExpireTarget& t)
{
    ForceExpireOutcome o;
    o.target = t;
    std::vector<pg::Statement> stmts;
    // READ COMMITTED on purpose: a concurrent renewal is re-checked against the new row version
    // (and simply does not match) instead of raising a serialization error.
    stmts.push_back({"BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE", {}});
    stmts.push_back(
        {"SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', $2, "
         "true), current_user::text, extract(epoch FROM now())::float8",
         {QByteArray::number(req.lockTimeoutMs) + "ms", QByteArray::number(req.statementTimeoutMs) + "ms"}});
    stmts.push_back(forceExpireStatement(conn, req, t));
    stmts.push_back(currentRowStatement(conn, req.table, t.name));

    const auto deadline = pg::Clock::now() + std::chrono::milliseconds(req.statementTimeoutMs + 3000);
    const auto rollback = [&conn] {
        // Leave no open transaction behind on the connection used for the next lease.
        if (conn.isOpen() && PQtransactionStatus(conn.raw()) != PQTRANS_IDLE) {
            pg::ResultPtr r;
            conn.exec({"ROLLBACK", {}}, r, pg::Clock::now() + std::chrono::seconds(2));
        }
    };
    std::vector<pg::StatementResult> res;
    const DbError first = conn.runPipeline(stmts, res, deadline);
    if (res.size() == stmts.size() && res[1].result && PQntuples(res[1].result.get()) == 1) {
        o.dbRole = optString(res[1].result.get(), 0, 2).value_or(QString());
        o.serverNow = cellOptDouble(res[1].result.get(), 0, 3);
    }
    if (first.isError()) {
        classifyError(o, first, req);
        rollback();
        return o;
    }
    const PGresult* upd = res[2].result.get();
    const PGresult* now = res[3].result.get();
    if (!upd || !now) {
        rollback();
        o.kind = ForceExpireOutcome::Kind::Failed;
        o.error.kind = DbError::Kind::Query;
        o.error.message = ForceExpireWords::tr("the server sent no result for the update");
        return o;
    }
    const int rowsNamed = PQntuples(now) > 0 ? int(cellOptDouble(now, 0, 4).value_or(0)) : 0;
    if (PQntuples(upd) == 1 && rowsNamed <= 1) {
        // Exactly one row changed: only now is the change committed.
        pg::ResultPtr c;
        const DbError e = conn.exec(
            {"COMMIT", {}}, c, pg::Clock::now() + std::chrono::milliseconds(req.statementTimeoutMs));
        if (e.isError()) {
            // Sent, but no answer (a lost connection, a synchronous standby that does not confirm):
            // the change may be committed. Never report "nothing was changed" then.
            o.kind = ForceExpireOutcome::Kind::CommitUnknown;
            o.error = e;
            o.currentHolder = optString(upd, 0, 0);
            o.currentExpiresAt = cellOptDouble(upd, 0, 1);
            rollback();
            return o;
        }
        if (qstrcmp(PQcmdStatus(c.get()), "COMMIT") != 0) { // e.g. ROLLBACK: the server refused it
            o.kind = ForceExpireOutcome::Kind::Failed;
            o.error.kind = DbError::Kind::Query;
            o.error.message = ForceExpireWords::tr("the transaction did not commit");
            return o;
        }
        o.kind = ForceExpireOutcome::Kind::Expired;
        o.releasedAs = libraryWords(req.table.release.words);
        o.currentHolder = optString(upd, 0, 0);
        o.currentExpiresAt = cellOptDouble(upd, 0, 1);
        o.serverAudited = cellOptDouble(upd, 0, 2).value_or(0) > 0;
        return o;
    }
    rollback(); // nothing, or more than one row, matched: nothing is kept
    if (rowsNamed > 1) {
        o.kind = ForceExpireOutcome::Kind::Duplicates;
        o.duplicateCount = rowsNamed;
        for (int i = 0; i < PQntuples(now); ++i)
            o.duplicateHolders << holderText(optString(now, i, 0));
        if (rowsNamed > PQntuples(now))
            o.duplicateHolders << QStringLiteral("…");
        return o;
    }
    // Nothing matched: say why, from the row as it is now.
    if (PQntuples(now) == 0) {
        o.kind = ForceExpireOutcome::Kind::Gone;
        return o;
    }
    o.currentHolder = optString(now, 0, 0);
    o.currentExpiresAt = cellOptDouble(now, 0, 1);
    o.currentTakenAt = cellOptDouble(now, 0, 3);
    // Judged on the clock at the read, not on now(): another console's now() may be later than ours.
    const std::optional<double> readAt = cellOptDouble(now, 0, 2);
    const bool takenAgain = t.takenAt && o.currentTakenAt && std::abs(*o.currentTakenAt - *t.takenAt) >= 0.001;
    if (o.currentHolder != t.holder)
        o.kind = ForceExpireOutcome::Kind::ChangedHands;
    else if (o.currentExpiresAt && readAt && *o.currentExpiresAt <= *readAt)
        o.kind = ForceExpireOutcome::Kind::ExpiredAlready;
    else if (takenAgain)
        o.kind = ForceExpireOutcome::Kind::Retaken;
    else
        o.kind = ForceExpireOutcome::Kind::Renewed;
    return o;
}

} // namespace

std::vector<ForceExpireOutcome> forceExpire(const ForceExpireRequest& req,
                                            const std::vector<ForceExpireTarget>& targets)
{
    std::vector<ForceExpireOutcome> out;
    out.reserve(targets.size());
    if (!req.operatorMode || !req.table.forceExpireRefusal.isEmpty() ||
        (req.table.mappedByExpressions() && !req.table.releasedByLibraryStatement())) {
        // Refuse before connecting: without operator mode no write statement is ever sent, and a
        // library that frees its locks in a way the console does not copy (Quartz's recovery) is
        // never written to behind its back.
        for (const auto& t : targets) {
            ForceExpireOutcome o;
            o.target = t;
            o.kind = ForceExpireOutcome::Kind::NotAllowed;
            if (req.operatorMode)
                o.refusal = req.table.forceExpireRefusal.isEmpty()
                                ? ForceExpireWords::tr("%1 keeps no expiry column to set.").arg(req.table.label())
                                : libraryWords(req.table.forceExpireRefusal);
            out.push_back(std::move(o));
        }
        return out;
    }
    pg::ConnectOptions opts = req.connect;
    opts.readOnly = false;
    if (opts.applicationName.isEmpty() || opts.applicationName == QLatin1String("leasewatch"))
        opts.applicationName = QStringLiteral("leasewatch-operator"); // never mistaken for the monitor
    opts.statementTimeoutMs = req.statementTimeoutMs;
    opts.lockTimeoutMs = req.lockTimeoutMs;
    pg::Connection conn;
    DbError connectError;
    for (const auto& t : targets) {
        // One attempt per lease; a connection lost on one lease is reopened for the next (that is
        // a different lease, not a retry).
        if (!conn.isOpen() && !connectError.isError()) {
            connectError = conn.connect(opts);
        }
        if (connectError.isError()) {
            ForceExpireOutcome o;
            o.target = t;
            o.kind = connectError.kind == DbError::Kind::Timeout ? ForceExpireOutcome::Kind::Timeout
                                                                     : ForceExpireOutcome::Kind::Failed;
            o.error = connectError;
            out.push_back(std::move(o));
            continue;
        }
        out.push_back(runOne(conn, req, t));
        qCDebug(lcForceExpire) << req.table.qualifiedName() << t.name << "->" << out.back().key();
    }
    conn.close(); // short-lived: the write connection never outlives the action
    return out;
}

ForceExpireTarget targetFor(const LeaseTracker::Entry& e, const HolderEvidence& ev)
{
    ForceExpireTarget t;
    t.name = e.track.row.name;
    t.holder = e.track.row.holder;
    t.takenAt = e.track.row.takenAt;
    t.expiresAt = e.track.row.expiresAt;
    // "Still unexpired" is added only for a lease shown unexpired: a stale lease whose host still
    // has sessions looks alive too, yet must stay forceable (its expiry has passed).
    const bool expiredAsShown =
        ev.state == LeaseState::Stale || ev.state == LeaseState::Released || ev.state == LeaseState::Free;
    t.acknowledgedAlive = ev.looksAlive && !expiredAsShown;
    return t;
}

} // namespace lw
