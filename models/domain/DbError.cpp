#include "DbError.h"

#include "Wording.h"
#include "Words.h"

#include <QStringList>

#include <algorithm>

namespace lw {

bool isConnectionLossState(const QString& sqlstate, const QString& severity)
{
    if (severity == QLatin1String("FATAL") || severity == QLatin1String("PANIC"))
        return true;
    if (sqlstate.startsWith(QLatin1String("08")))
        return true;
    // 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, 57P04 database dropped
    return sqlstate.startsWith(QLatin1String("57P"));
}

QString adviceFor(const QString& sqlstate, const QString& message)
{
    if (sqlstate == QLatin1String("28P01") ||
        message.contains(QLatin1String("password authentication failed")))
        return ErrorWords::tr(
            "check the user name and the password in ~/.pgpass, PGPASSFILE or the service file");
    if ((sqlstate.isEmpty() || sqlstate == QLatin1String("28000")) &&
        message.contains(QLatin1String("role \"")) && message.contains(QLatin1String("does not exist")))
        return ErrorWords::tr(
            "check the user name (user=…) in the connection string: no such role on this server");
    if (message.contains(QLatin1String("no password supplied")))
        return ErrorWords::tr(
            "the server asks for a password and none was found: add it to ~/.pgpass, PGPASSFILE "
            "or the service file");
    if (sqlstate == QLatin1String("28000") || message.contains(QLatin1String("no pg_hba.conf entry")))
        return ErrorWords::tr(
            "the server's pg_hba.conf does not admit this user/host; ask the DBA for an entry");
    if (sqlstate == QLatin1String("3D000") ||
        (message.contains(QLatin1String("does not exist")) && message.contains(QLatin1String("database"))))
        return ErrorWords::tr("check the database name (dbname=…) in the connection string");
    if (sqlstate == QLatin1String("42P01"))
        return ErrorWords::tr("check the schema and table configured for the leases table in the profile");
    if (sqlstate == QLatin1String("42703"))
        return ErrorWords::tr("check the column names configured for the leases table in the profile");
    if (sqlstate == QLatin1String("42501"))
        return ErrorWords::tr(
            "grant the monitoring role SELECT on the table (and pg_monitor for other sessions)");
    if (sqlstate == QLatin1String("53300"))
        return ErrorWords::tr("the server has no free connection slot; wait or ask the DBA to free one");
    // Connection loss: say why if we know, and that nothing needs doing.
    if (sqlstate == QLatin1String("57P01"))
        return ErrorWords::tr(
            "an administrator or a server shutdown ended the session; the console reconnects "
            "by itself");
    if (sqlstate == QLatin1String("57P02"))
        return ErrorWords::tr("the server is restarting after a crash; the console reconnects by itself");
    if (message.contains(QLatin1String("server closed the connection unexpectedly")))
        return ErrorWords::tr("the server ended the session (restart, crash or administrator); the console "
                              "reconnects by itself");
    if (message.contains(QLatin1String("did not answer within the refresh deadline")))
        return ErrorWords::tr("the server or the network hangs; the console reconnects with backoff");
    if (sqlstate == QLatin1String("57P03"))
        return ErrorWords::tr("the server is starting up or recovering; the console retries by itself");
    if (sqlstate == QLatin1String("55P03"))
        return ErrorWords::tr(
            "another session holds a lock that blocks this statement (ALTER TABLE, VACUUM FULL, "
            "TRUNCATE, LOCK TABLE: a migration, or a transaction left idle); the console does not "
            "queue behind it (lock_timeout)");
    if (sqlstate == QLatin1String("57014"))
        return ErrorWords::tr("the statement hit its timeout; the server may be overloaded");
    if (message.contains(QLatin1String("Connection refused")))
        return ErrorWords::tr("is the server running and accepting connections on that host and port?");
    if (message.contains(QLatin1String("No such file or directory")) &&
        message.contains(QLatin1String("socket")))
        return ErrorWords::tr("no server listens on that Unix socket; check host= and port=");
    if (message.contains(QLatin1String("could not translate host name")))
        return ErrorWords::tr("the host name does not resolve; check host= in the connection string");
    // TLS with sslmode=verify-ca/verify-full (libpq's own words).
    if (message.contains(QLatin1String("certificate verify failed")))
        return ErrorWords::tr("the server's certificate is not signed by the CA in sslrootcert=…; point "
                              "sslrootcert at the CA that issued it");
    if (message.contains(QLatin1String("does not match host name")))
        return ErrorWords::tr("the server's certificate does not name this host: connect with a host name it "
                              "names (host=…) or have the certificate reissued");
    if (message.contains(QLatin1String("root certificate file")) &&
        message.contains(QLatin1String("does not exist")))
        return ErrorWords::tr("certificate verification needs the issuing CA: set sslrootcert=… to its file "
                              "(default ~/.postgresql/root.crt)");
    if (message.contains(QLatin1String("timeout expired")))
        return ErrorWords::tr("the server did not answer in time; check the network and the server");
    return {};
}

QString DbError::toDisplayString() const
{
    if (kind == Kind::None)
        return {};
    QString s = headline();
    if (const QString what = advice(); !what.isEmpty())
        s += QStringLiteral(" — ") + what;
    return s;
}

QString DbError::headline() const
{
    return sqlstate.isEmpty() ? message : ErrorWords::tr("%1 (SQLSTATE %2)").arg(message, sqlstate);
}

QString DbError::advice() const
{
    return hint.isEmpty() ? adviceFor(sqlstate, message) : hint;
}

namespace {
// "public.shedlock is locked ACCESS EXCLUSIVE by pid 4411 (deploy: idle in transaction, …)", one per lock.
QStringList lockSentences(const std::vector<TableLock>& locks)
{
    QStringList said;
    for (const TableLock& l : locks) {
        QString who = ErrorWords::tr("pid %1").arg(l.pid);
        QStringList about;
        if (!l.applicationName.isEmpty())
            about << l.applicationName;
        if (!l.state.isEmpty())
            about << (l.xactAgeS ? ErrorWords::tr("%1, transaction open %2").arg(l.state, formatDuration(*l.xactAgeS))
                                 : l.state);
        QString query = l.query.simplified();
        if (query.size() > 80)
            query = query.left(79) + QChar(0x2026);
        if (!query.isEmpty())
            about << QLatin1Char('"') + query + QLatin1Char('"');
        if (!about.isEmpty())
            who += QStringLiteral(" (") + about.join(QStringLiteral(": ")) + QLatin1Char(')');
        said << (l.granted ? ErrorWords::tr("%1 is locked ACCESS EXCLUSIVE by %2").arg(l.table, who)
                           : ErrorWords::tr("%1 is queued for ACCESS EXCLUSIVE on %2, and every reader of it queues "
                                            "behind that")
                                 .arg(who, l.table));
    }
    return said;
}
} // namespace

DbError tableLockError(const std::vector<TableLock>& locks)
{
    const QStringList said = lockSentences(locks);
    DbError e;
    e.kind = DbError::Kind::Query;
    e.sqlstate = QStringLiteral("55P03");
    e.message = said.join(QStringLiteral("; ")) + ErrorWords::tr(" — not read: the console does not queue behind it");
    e.hint = ErrorWords::tr("the table is read again as soon as the lock is gone; the rest is shown meanwhile. If "
                            "that session is stuck (a migration that hangs, a transaction left open), end it "
                            "(COMMIT/ROLLBACK there, or cancel it)");
    return e;
}

DbError catalogLockError(const std::vector<TableLock>& locks, bool restShown)
{
    DbError e;
    e.kind = DbError::Kind::Query;
    e.sqlstate = QStringLiteral("55P03");
    e.message = lockSentences(locks).join(QStringLiteral("; ")) +
                (restShown ? ErrorWords::tr(" — the console does not queue behind it: the rest is read without it")
                           : ErrorWords::tr(" — every refresh reads it, and the console does not queue behind it: "
                                            "nothing new is shown until it is free"));
    // Connecting reads pg_database and pg_authid: locked, they keep every new session out.
    const bool noneGetIn = std::any_of(locks.begin(), locks.end(), [](const TableLock& l) {
        return l.table == QLatin1String("pg_catalog.pg_database") || l.table == QLatin1String("pg_catalog.pg_authid");
    });
    e.hint = noneGetIn ? ErrorWords::tr("end that session (COMMIT/ROLLBACK there, or cancel it) from a connection "
                                        "already open: while pg_database or pg_authid is locked this way, no new "
                                        "connection gets in, psql neither. The console reads again as soon as the "
                                        "lock is gone")
                       : ErrorWords::tr("end that session (COMMIT/ROLLBACK there, or cancel it) if it is stuck; the "
                                        "console reads again as soon as the lock is gone");
    return e;
}

} // namespace lw
