#include "AuditLog.h"
#include "domain/Words.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QSysInfo>

#include <pwd.h>
#include <unistd.h>

namespace lw {

QString localOsUser()
{
    // The effective user, not $USER (which sudo and su may leave pointing at someone else).
    if (const passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_name)
        return QString::fromLocal8Bit(pw->pw_name);
    const QString env = qEnvironmentVariable("USER");
    return env.isEmpty() ? QStringLiteral("uid %1").arg(::geteuid()) : env;
}

QString localHostName()
{
    return QSysInfo::machineHostName();
}

namespace {
const char* kSchema = "CREATE TABLE IF NOT EXISTS audit ("
                      "id INTEGER PRIMARY KEY AUTOINCREMENT, "
                      "at TEXT NOT NULL, "
                      "os_user TEXT, os_host TEXT, db_role TEXT, database TEXT, "
                      "action TEXT NOT NULL, target TEXT NOT NULL, "
                      "before TEXT, after TEXT, outcome TEXT, outcome_key TEXT)";
} // namespace

QString AuditLog::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/audit.sqlite");
}

AuditLog::AuditLog(const QString& path, QObject* parent)
    : QObject(parent), path_(path.isEmpty() ? defaultPath() : path)
{
    QDir().mkpath(QFileInfo(path_).absolutePath());
    // Another console (or the audit view of another window) may write at the same moment: the
    // connection waits for a busy database.
    conn_ = std::make_unique<SqliteConnection>(path_, false, QStringLiteral("audit"));
    if (!conn_->isOpen()) {
        error_ = conn_->errorString();
        return;
    }
    QSqlDatabase db = conn_->db();
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !q.next() ||
        q.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0) {
        error_ = ErrorWords::tr("cannot switch %1 to WAL mode: %2").arg(path_, q.lastError().text());
        return;
    }
    // WAL with synchronous=NORMAL is durable across application crashes, which is what matters here.
    q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    if (!q.exec(QString::fromLatin1(kSchema))) {
        error_ = q.lastError().text();
        return;
    }
    open_ = true;
}

AuditLog::~AuditLog() = default;

QString AuditLog::journalMode() const
{
    QSqlQuery q(conn_->db());
    if (!q.exec(QStringLiteral("PRAGMA journal_mode")) || !q.next())
        return {};
    return q.value(0).toString().toLower();
}

bool AuditLog::append(AuditRecord& r)
{
    if (!open_)
        return false;
    if (!r.at.isValid())
        r.at = QDateTime::currentDateTimeUtc();
    if (r.osUser.isEmpty())
        r.osUser = localOsUser();
    if (r.osHost.isEmpty())
        r.osHost = localHostName();
    QSqlQuery q(conn_->db());
    q.prepare(QStringLiteral("INSERT INTO audit (at, os_user, os_host, db_role, database, action, target, "
                             "before, after, outcome, outcome_key) VALUES (?,?,?,?,?,?,?,?,?,?,?)"));
    q.addBindValue(r.at.toUTC().toString(Qt::ISODateWithMs));
    q.addBindValue(r.osUser);
    q.addBindValue(r.osHost);
    q.addBindValue(r.dbRole);
    q.addBindValue(r.database);
    q.addBindValue(r.action);
    q.addBindValue(r.target);
    q.addBindValue(r.before);
    q.addBindValue(r.after);
    q.addBindValue(r.outcome);
    q.addBindValue(r.outcomeKey);
    if (!q.exec()) {
        error_ = q.lastError().text();
        return false;
    }
    r.id = q.lastInsertId().toLongLong();
    Q_EMIT changed();
    return true;
}

bool AuditLog::complete(qint64 id, const QString& after, const QString& outcome, const QString& outcomeKey,
                        const QString& dbRole)
{
    if (!open_)
        return false;
    QSqlQuery q(conn_->db());
    q.prepare(QStringLiteral("UPDATE audit SET after = ?, outcome = ?, outcome_key = ?, "
                             "db_role = CASE WHEN ? = '' THEN db_role ELSE ? END WHERE id = ?"));
    q.addBindValue(after);
    q.addBindValue(outcome);
    q.addBindValue(outcomeKey);
    q.addBindValue(dbRole);
    q.addBindValue(dbRole);
    q.addBindValue(id);
    if (!q.exec() || q.numRowsAffected() != 1) {
        error_ = q.lastError().isValid() ? q.lastError().text() : ErrorWords::tr("no record %1").arg(id);
        return false;
    }
    Q_EMIT changed();
    return true;
}

std::vector<AuditRecord> AuditLog::records(int limit) const
{
    std::vector<AuditRecord> out;
    if (!open_)
        return out;
    QSqlQuery q(conn_->db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM audit ORDER BY id DESC LIMIT ?").arg(QLatin1String(kAuditColumns)));
    q.addBindValue(limit);
    if (!q.exec())
        return out;
    while (q.next())
        out.push_back(auditRecordFromRow(q));
    return out;
}

AuditRecord auditRecordFromRow(const QSqlQuery& q)
{
    AuditRecord r;
    r.id = q.value(0).toLongLong();
    r.at = QDateTime::fromString(q.value(1).toString(), Qt::ISODateWithMs);
    r.osUser = q.value(2).toString();
    r.osHost = q.value(3).toString();
    r.dbRole = q.value(4).toString();
    r.database = q.value(5).toString();
    r.action = q.value(6).toString();
    r.target = q.value(7).toString();
    r.before = q.value(8).toString();
    r.after = q.value(9).toString();
    r.outcome = q.value(10).toString();
    r.outcomeKey = q.value(11).toString();
    return r;
}

// ---- Server-side audit table --------------------------------------------------------------------

std::optional<ServerAuditTable> ServerAuditTable::parse(const QString& spec)
{
    const QString s = spec.trimmed();
    if (s.isEmpty())
        return std::nullopt;
    const QStringList parts = s.split(QLatin1Char('.'));
    ServerAuditTable t;
    if (parts.size() == 1) {
        t.table = parts[0];
    } else if (parts.size() == 2) {
        t.schema = parts[0];
        t.table = parts[1];
    } else {
        return std::nullopt;
    }
    if (t.schema.isEmpty() || t.table.isEmpty())
        return std::nullopt;
    return t;
}

QByteArray ServerAuditTable::quoted(const pg::Connection& conn) const
{
    return conn.quoteIdentifier(schema) + "." + conn.quoteIdentifier(table);
}

QByteArray serverAuditTableDdl(const pg::Connection& conn, const ServerAuditTable& t)
{
    // Who and where are filled by the server from the writing session itself (defaults), so a
    // console cannot claim another role; os_user/os_host come from the console.
    return "CREATE TABLE IF NOT EXISTS " + t.quoted(conn) +
           " (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), "
           "db_role text NOT NULL DEFAULT current_user, "
           "application_name text DEFAULT current_setting('application_name'), "
           "client_addr inet DEFAULT inet_client_addr(), os_user text, os_host text, "
           "action text NOT NULL, target text NOT NULL, before jsonb, after jsonb, outcome text)";
}

QString CreateAuditTableResult::message() const
{
    if (error.isError())
        return ErrorWords::tr("could not create the server-side audit table: %1")
            .arg(error.toDisplayString());
    if (existed)
        return ErrorWords::tr("the server-side audit table already existed; nothing was created");
    return ErrorWords::tr("created the server-side audit table with: %1").arg(statement);
}

CreateAuditTableResult createServerAuditTable(const pg::ConnectOptions& opts, const QString& auditTable,
                                              bool operatorMode)
{
    CreateAuditTableResult r;
    const auto t = ServerAuditTable::parse(auditTable);
    if (!t) {
        r.error.kind = DbError::Kind::Query;
        r.error.message = ErrorWords::tr("no valid audit table name in the profile (\"%1\")").arg(auditTable);
        r.error.hint = ErrorWords::tr("name it as [schema.]table");
        return r;
    }
    if (!operatorMode) {
        r.error.kind = DbError::Kind::Query;
        r.error.message = ErrorWords::tr("not sent: operator mode is off for this connection profile");
        r.error.hint = ErrorWords::tr("start with --operator to create the audit table");
        return r;
    }
    pg::ConnectOptions o = opts;
    o.readOnly = false;
    o.applicationName = QStringLiteral("leasewatch-operator");
    pg::Connection conn;
    r.error = conn.connect(o);
    if (r.error.isError())
        return r;
    const auto deadline = pg::Clock::now() + std::chrono::milliseconds(o.statementTimeoutMs + 3000);
    r.statement = QString::fromUtf8(serverAuditTableDdl(conn, *t));
    std::vector<pg::StatementResult> res;
    const std::vector<pg::Statement> stmts = {
        {"BEGIN READ WRITE", {}},
        {"SELECT to_regclass(format('%I.%I', $1::text, $2::text)) IS NOT NULL",
         {t->schema.toUtf8(), t->table.toUtf8()}},
        {r.statement.toUtf8(), {}},
        {"COMMIT", {}},
    };
    r.error = conn.runPipeline(stmts, res, deadline);
    if (!r.error.isError() && res[1].result && PQntuples(res[1].result.get()) == 1)
        r.existed = PQgetvalue(res[1].result.get(), 0, 0)[0] == 't';
    r.created = !r.error.isError() && !r.existed;
    return r;
}

} // namespace lw
