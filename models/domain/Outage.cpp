#include "Outage.h"

#include "SqlText.h"
#include "Wording.h"
#include "Words.h"

namespace lw {

namespace {

using Cause = OutageCause;

bool has(const DbError& e, const char* text)
{
    return e.message.contains(QLatin1String(text), Qt::CaseInsensitive) ||
           e.detail.contains(QLatin1String(text), Qt::CaseInsensitive);
}

Cause causeOfError(const DbError& e)
{
    if (e.sqlstate == QLatin1String("53300") || has(e, "too many clients") || has(e, "connection slots are reserved"))
        return Cause::TooManyConnections;
    if (e.sqlstate == QLatin1String("53100") || has(e, "No space left on device"))
        return Cause::DiskFull;
    if (e.sqlstate == QLatin1String("57P03") || has(e, "is starting up") || has(e, "is shutting down") ||
        has(e, "in recovery mode"))
        return Cause::StartingOrStopping;
    if (e.sqlstate == QLatin1String("57P01") || e.sqlstate == QLatin1String("57P02") ||
        has(e, "terminating connection"))
        return Cause::Terminated;
    if (has(e, "Connection refused") || has(e, "No such file or directory"))
        return Cause::Refused;
    if (e.kind == DbError::Kind::Timeout)
        return has(e, "refresh deadline") ? Cause::RefreshDeadline : Cause::ConnectTimeout;
    if (e.kind == DbError::Kind::ConnectionLost)
        return Cause::Lost;
    return Cause::Other;
}

QString hhmmss(const QDateTime& t)
{
    return t.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

OutageCause outageCauseOf(const OutageView& o)
{
    return causeOfError(o.error.isError() ? o.error : o.began);
}

QString outageCauseKey(OutageCause c)
{
    switch (c) {
    case Cause::RefreshDeadline:
        return QStringLiteral("refresh_deadline");
    case Cause::ConnectTimeout:
        return QStringLiteral("connect_timeout");
    case Cause::Refused:
        return QStringLiteral("refused");
    case Cause::TooManyConnections:
        return QStringLiteral("too_many_connections");
    case Cause::StartingOrStopping:
        return QStringLiteral("starting_or_stopping");
    case Cause::DiskFull:
        return QStringLiteral("disk_full");
    case Cause::Terminated:
        return QStringLiteral("terminated");
    case Cause::Lost:
        return QStringLiteral("connection_lost");
    case Cause::Other:
        return QStringLiteral("other");
    }
    return {};
}

QString outageLine(const OutageView& o)
{
    QString s = OutageWords::tr("The server has not answered for %1 (since %2).")
                    .arg(formatDuration(o.seconds()), hhmmss(o.since));
    const DbError& first = o.began.isError() ? o.began : o.error;
    switch (causeOfError(first)) {
    case Cause::RefreshDeadline:
        s += o.refreshDeadlineMs > 0
                 ? OutageWords::tr(" The refresh was cancelled after its %1 deadline")
                       .arg(formatDuration(o.refreshDeadlineMs / 1000.0))
                 : OutageWords::tr(" The refresh was cancelled at its deadline");
        break;
    case Cause::Lost:
    case Cause::Terminated:
        s += OutageWords::tr(" The connection was lost (%1)").arg(first.headline());
        break;
    default:
        s += QStringLiteral(" %1").arg(first.headline());
        break;
    }
    if (o.reconnectingNow)
        s += OutageWords::tr("; reconnecting now.");
    else if (o.nextAttempt)
        s += OutageWords::tr("; reconnecting in %1.")
                 .arg(formatDuration(std::max<qint64>(0, o.now.msecsTo(*o.nextAttempt)) / 1000.0 + 0.999));
    else
        s += QLatin1Char('.');
    // The latest attempt, when it failed differently from the first failure.
    if (o.began.isError() && o.error.isError() && o.error.message != o.began.message)
        s += OutageWords::tr(" Last attempt: %1.").arg(o.error.headline());
    return s;
}

QString outageCause(const OutageView& o)
{
    const DbError& e = o.error.isError() ? o.error : o.began;
    QString seen;
    switch (causeOfError(e)) {
    case Cause::TooManyConnections:
        seen = OutageWords::tr("The server refuses new connections: every max_connections slot is taken "
                              "(SQLSTATE 53300), and the console, which reconnects, is one of the victims.");
        break;
    case Cause::DiskFull:
        seen = OutageWords::tr("The server reports a full disk (SQLSTATE 53100, \"No space left on device\").");
        break;
    case Cause::StartingOrStopping:
        seen = OutageWords::tr("The server is starting up, shutting down or recovering after a crash "
                              "(SQLSTATE 57P03): it accepts no queries until that ends.");
        break;
    case Cause::Terminated:
        seen = OutageWords::tr("The server ended the console's session (an administrator's "
                              "pg_terminate_backend, or a shutdown), and reconnecting has not succeeded.");
        break;
    case Cause::Refused:
        seen = OutageWords::tr("Nothing accepts connections at the address: the server is down or "
                              "restarting, or listens elsewhere.");
        break;
    case Cause::RefreshDeadline:
    case Cause::ConnectTimeout:
        seen = OutageWords::tr("Connections are accepted or pending but nothing answers: a hung host or "
                              "server (a stopped or swapping process, storage that stalls, which includes "
                              "a disk that has filled up), or a network partition that drops packets. The "
                              "console cannot tell these apart from here.");
        break;
    case Cause::Lost:
        seen = OutageWords::tr("The connection broke (a server crash or restart, or the network), and "
                              "reconnecting has not succeeded.");
        break;
    case Cause::Other:
        seen = OutageWords::tr("Reconnecting fails: %1.").arg(e.headline());
        break;
    }
    if (o.connectionBudget > 0 && o.connectionsUsed >= 0.9 * o.connectionBudget &&
        causeOfError(e) != Cause::TooManyConnections)
        seen += OutageWords::tr(" The last refresh saw %1 of %2 connections in use, so the server may also be "
                               "refusing new ones.")
                    .arg(o.connectionsUsed)
                    .arg(o.connectionBudget);
    return seen;
}

namespace {
// Every slot is taken. A role's or a database's own CONNECTION LIMIT says so in its message; else
// the way for the console to get in next time is a reserved slot: PostgreSQL 16+ keeps
// reserved_connections for members of pg_use_reserved_connections (its refusal names that role),
// older servers keep slots for superusers only.
QString tooManyConnectionsFix(const OutageView& o, const DbError& e)
{
    const QString role = o.role.isEmpty() ? QStringLiteral("<monitoring role>") : sqlIdentifier(o.role);
    if (has(e, "too many connections for role"))
        return OutageWords::tr("The console's role has reached its own CONNECTION LIMIT: end its idle sessions, or "
                              "raise the limit (ALTER ROLE %1 CONNECTION LIMIT <n>;).")
            .arg(role);
    if (has(e, "too many connections for database"))
        return OutageWords::tr("The database has reached its own CONNECTION LIMIT: end idle sessions "
                              "(pg_terminate_backend) or raise it (ALTER DATABASE … CONNECTION LIMIT <n>;).");
    const QString now = OutageWords::tr("End idle sessions (pg_terminate_backend) or lower the applications' pool "
                                       "sizes.");
    if (o.serverVersionNum > 0 && o.serverVersionNum < 160000 && !has(e, "pg_use_reserved_connections"))
        return now + OutageWords::tr(" PostgreSQL %1 keeps slots for superusers only (superuser_reserved_connections); "
                                    "from 16 on, GRANT pg_use_reserved_connections TO %2; with reserved_connections "
                                    "set lets the console in during such a storm.")
                         .arg(o.serverVersionNum / 10000)
                         .arg(role);
    return now + OutageWords::tr(" So that the console still gets in next time (PostgreSQL 16+): GRANT "
                                "pg_use_reserved_connections TO %1; and keep slots for it: ALTER SYSTEM SET "
                                "reserved_connections = 3; (takes effect after a restart; max_connections must "
                                "exceed it plus superuser_reserved_connections).")
                     .arg(role);
}
} // namespace

std::optional<Finding> outageFinding(const OutageView& o, double thresholdS)
{
    if (o.seconds() < thresholdS)
        return std::nullopt;
    Finding f;
    f.kind = FindingKind::ServerNotAnswering;
    f.severity = 3;
    f.subject = QStringLiteral("server");
    f.id = findingKindKey(f.kind);
    f.title = OutageWords::tr("The server has not answered for %1 (since %2)")
                  .arg(formatDuration(o.seconds()), hhmmss(o.since));
    f.explanation = outageCause(o) + OutageWords::tr(" Every other finding is as of the last answer.");
    const DbError& e = o.error.isError() ? o.error : o.began;
    switch (causeOfError(e)) {
    case Cause::TooManyConnections:
        f.fix = tooManyConnectionsFix(o, e);
        break;
    case Cause::DiskFull:
        f.fix = OutageWords::tr("Free space on the server's data and WAL volumes; the server resumes on its "
                               "own.");
        break;
    default:
        f.fix = OutageWords::tr("Check the host (is postgres running, stopped or swapping?), the network "
                               "path, free disk space on the data and WAL volumes, and the connection count "
                               "against max_connections.");
        break;
    }
    return f;
}

} // namespace lw
