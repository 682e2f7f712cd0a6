#pragma once
// The record of operator actions (issue 7, point 5).
//
// Local: every action (force-expire, and later cancel/terminate of the locks view) is written to an
// SQLite file through Qt Sql's QSQLITE driver, in WAL mode (a reader such as the audit view never
// blocks a writer). A record is written when the action is sent ("sent, no answer yet") and updated
// with the outcome, so even a crash mid-action leaves a trace. One instance owns one uniquely named
// QSqlDatabase connection and must be used from the thread that created it (the GUI thread).
//
// Server-side (optional, per profile): a table on the monitored server that the write transaction
// itself fills, so the change and its record commit or fail together. Only applied changes are
// recorded there (a compare-and-set that changed nothing, or failed, writes nothing server-side);
// all attempts are in the local log.
#include "SqliteConnection.h"
#include "pg/PgConnection.h"

#include <QDateTime>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QSqlQuery;

namespace lw {

// OS user and host name of this console, for audit records.
QString localOsUser();
QString localHostName();

struct AuditRecord
{
    qint64 id = 0;
    QDateTime at; // UTC; set by append() when invalid
    QString osUser;
    QString osHost;
    QString dbRole;     // role of the connection that acted ("" when it never connected)
    QString database;   // which server/database: "dbname on host"
    QString action;     // "force-expire", "cancel-backend", "terminate-backend", …
    QString target;     // "public.leases/job-7", "pid 4242"
    QString before;     // JSON text: the values the operator saw
    QString after;      // JSON text: the values after (or as found when nothing changed)
    QString outcome;    // words, as shown to the operator
    QString outcomeKey; // stable key ("expired", "changed_hands", … "pending")
};

// The columns of an audit row, in the order auditRecordFromRow() reads them (the local audit log
// and its copy in the history share the table layout).
constexpr char kAuditColumns[] =
    "id, at, os_user, os_host, db_role, database, action, target, before, after, outcome, outcome_key";
AuditRecord auditRecordFromRow(const QSqlQuery& q);

class AuditLog : public QObject
{
    Q_OBJECT
public:
    // Opens (creating if needed) the SQLite file at `path`; empty = defaultPath().
    explicit AuditLog(const QString& path = QString(), QObject* parent = nullptr);
    ~AuditLog() override; // closes and removes its QSqlDatabase connection

    // QStandardPaths::AppDataLocation + "/audit.sqlite"
    static QString defaultPath();

    bool isOpen() const { return open_; }
    QString path() const { return path_; }
    QString errorString() const { return error_; }
    QString journalMode() const; // "wal" once opened

    // Appends a record (fills id, at, osUser/osHost when empty); returns false on failure.
    bool append(AuditRecord& r);
    // Sets the after-values and the outcome of a record written before the answer came.
    bool complete(qint64 id, const QString& after, const QString& outcome, const QString& outcomeKey,
                  const QString& dbRole = QString());
    // Newest first.
    std::vector<AuditRecord> records(int limit = 1000) const;

Q_SIGNALS:
    void changed();

private:
    QString path_;
    std::unique_ptr<SqliteConnection> conn_;
    QString error_;
    bool open_ = false;
};

// ---- Server-side audit table --------------------------------------------------------------------

struct ServerAuditTable
{
    QString schema = QStringLiteral("public");
    QString table;
    // "[schema.]table"; nullopt when empty or malformed.
    static std::optional<ServerAuditTable> parse(const QString& spec);
    QString qualified() const { return schema + QLatin1Char('.') + table; }
    QByteArray quoted(const pg::Connection& conn) const;
};

// CREATE TABLE IF NOT EXISTS for the audit table (identifiers quoted with libpq).
QByteArray serverAuditTableDdl(const pg::Connection& conn, const ServerAuditTable& t);

struct CreateAuditTableResult
{
    DbError error;
    bool existed = false; // it was there already: nothing was created
    bool created = false;
    QString statement;       // the statement that was run
    QString message() const; // "created table public.lw_audit (columns …)" / "… already existed" / error
};

// Creates the server-side audit table on request (a write: refused without operator mode). Runs
// on a short-lived connection of its own; blocks (call it off the UI thread).
CreateAuditTableResult createServerAuditTable(const pg::ConnectOptions& opts, const QString& auditTable,
                                              bool operatorMode);

} // namespace lw
