#include "PgError.h"

#include <QRegularExpression>
#include <QStringList>

namespace lw::pg {

namespace {
QString field(const PGresult* res, int code)
{
    const char* v = res ? PQresultErrorField(res, code) : nullptr;
    return v ? QString::fromUtf8(v).trimmed() : QString();
}

QString firstLine(QString s)
{
    s = s.trimmed();
    const auto nl = s.indexOf(QLatin1Char('\n'));
    return nl < 0 ? s : s.left(nl).trimmed();
}
} // namespace

PgError errorFromResult(const PGresult* res, const PGconn* conn)
{
    PgError e;
    e.kind = PgError::Kind::Query;
    e.sqlstate = field(res, PG_DIAG_SQLSTATE);
    e.message = firstLine(field(res, PG_DIAG_MESSAGE_PRIMARY));
    e.detail = field(res, PG_DIAG_MESSAGE_DETAIL);
    e.hint = field(res, PG_DIAG_MESSAGE_HINT);
    if (e.message.isEmpty() && res)
        e.message = firstLine(QString::fromUtf8(PQresultErrorMessage(res)));
    if (e.message.isEmpty() && conn)
        e.message = firstLine(QString::fromUtf8(PQerrorMessage(conn)));
    const QString severity = field(res, PG_DIAG_SEVERITY_NONLOCALIZED);
    if (isConnectionLossState(e.sqlstate, severity) || (conn && PQstatus(conn) == CONNECTION_BAD))
        e.kind = PgError::Kind::ConnectionLost;
    return e;
}

PgError errorFromConnection(const PGconn* conn, PgError::Kind kind)
{
    PgError e;
    e.kind = kind;
    // libpq (14+) reports each attempt (host, address) on a line starting "connection to server …"
    // and follows it with hints, mostly tab-indented but not all ("Either provide the file …",
    // "password retrieved from file …"): the cause of the final attempt is the last attempt line.
    // Without one (name resolution, client-side failures) it is the last unindented line.
    const QString msg = conn ? QString::fromUtf8(PQerrorMessage(conn)) : QStringLiteral("out of memory");
    static const QRegularExpression passfileRe(QStringLiteral("^password retrieved from file \"(.*)\"$"));
    QString lastAttempt, lastLine, passfile;
    for (const QString& line : msg.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString t = line.trimmed();
        if (line.startsWith(QLatin1Char('\t')) || t.isEmpty())
            continue;
        if (const auto m = passfileRe.match(t); m.hasMatch()) {
            passfile = m.captured(1);
            continue;
        }
        if (t.startsWith(QLatin1String("connection to server")))
            lastAttempt = t;
        lastLine = t;
    }
    e.message = lastAttempt.isEmpty() ? lastLine : lastAttempt;
    if (e.message.isEmpty())
        e.message = QStringLiteral("connection failed");
    // The server's severity tag inside libpq's text ("… failed: FATAL:  password …") says nothing to
    // the operator.
    static const QRegularExpression severityRe(QStringLiteral("(^|: )(?:FATAL|PANIC|ERROR):\\s+"));
    e.message.replace(severityRe, QStringLiteral("\\1"));
    if (e.message.contains(QLatin1String("password authentication failed")))
        e.sqlstate = QStringLiteral("28P01");
    else if (e.message.contains(QLatin1String("database \"")) &&
             e.message.contains(QLatin1String("does not exist")))
        e.sqlstate = QStringLiteral("3D000");
    else if (e.message.contains(QLatin1String("too many clients")) ||
             e.message.contains(QLatin1String("remaining connection slots")) ||
             e.message.contains(QLatin1String("too many connections for")))
        e.sqlstate = QStringLiteral("53300");
    else if (e.message.contains(QLatin1String("the database system is")))
        e.sqlstate = QStringLiteral("57P03");
    else if (e.message.contains(QLatin1String("no pg_hba.conf entry")) ||
             (e.message.contains(QLatin1String("role \"")) &&
              e.message.contains(QLatin1String("does not exist"))))
        e.sqlstate = QStringLiteral("28000");
    if (e.sqlstate == QLatin1String("28P01") && !passfile.isEmpty())
        e.hint =
            QStringLiteral("check the user name and the password for it in \"%1\" (the password file used)")
                .arg(passfile);
    return e;
}

} // namespace lw::pg
