#pragma once
#include <QString>

#include <optional>
#include <vector>

namespace lw {

// One failure of the database or the connection, in the words the user sees, plus what the code
// needs to decide on reconnecting. A plain value: libpq's results become one in pg/PgError.h.
struct DbError
{
    enum class Kind {
        None,
        BadConnectionString, // the DSN itself does not parse
        ConnectFailed,       // could not establish (host, refused, auth, missing db…)
        ConnectionLost,      // was connected, is not any more (FATAL, 08xxx, 57P0x, closed socket)
        Timeout,             // our own deadline fired (hung server, dropped network)
        Query,               // the statement failed, the session is still fine
        Schema,              // the monitored table or columns are not what the profile says
    };
    Kind kind = Kind::None;
    QString sqlstate;
    QString message; // primary message, one line
    QString detail;
    QString hint;

    bool operator==(const DbError&) const = default;
    bool isError() const { return kind != Kind::None; }
    bool needsReconnect() const
    {
        return kind == Kind::ConnectFailed || kind == Kind::ConnectionLost || kind == Kind::Timeout;
    }
    // "message (SQLSTATE xxxxx) — what to do"
    QString toDisplayString() const;
    // "message (SQLSTATE xxxxx)": the problem without the advice.
    QString headline() const;
    // What to do: the server's hint, else ours for the SQLSTATE or message (may be empty).
    QString advice() const;
};

// Whether a SQLSTATE/severity says the session is gone even if PQstatus still reports OK
// (after a fast shutdown a FATAL 57P01 arrives while PQstatus is CONNECTION_OK).
bool isConnectionLossState(const QString& sqlstate, const QString& severity);

// Advice for the operator keyed on SQLSTATE or message; empty if there is nothing specific to say.
QString adviceFor(const QString& sqlstate, const QString& message);

// A session holding, or queued for, ACCESS EXCLUSIVE on a table the console reads: the one lock
// mode its ACCESS SHARE read would queue behind (a queued request holds up every later reader).
struct TableLock
{
    QString table; // schema.table
    bool granted = true;
    int pid = 0;
    QString applicationName, state, query;
    std::optional<double> xactAgeS; // its transaction's age
    bool operator==(const TableLock&) const = default;
};
// Why those tables were not read this refresh (55P03: the console did not wait for the lock).
DbError tableLockError(const std::vector<TableLock>& locks);
// Why a refresh stopped (55P03): a system catalog or view every refresh reads (pg_stat_activity,
// pg_locks, pg_database, …) is locked ACCESS EXCLUSIVE, held or queued for. `restShown`: only one
// statement reads it (pg_locks), and the refresh runs without that one.
DbError catalogLockError(const std::vector<TableLock>& locks, bool restShown = false);

} // namespace lw
