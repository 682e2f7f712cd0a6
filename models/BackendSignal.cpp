#include "BackendSignal.h"
#include "domain/Words.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace lw {

QString backendSignalName(BackendSignal s)
{
    return s == BackendSignal::Cancel ? QStringLiteral("cancel-backend")
                                      : QStringLiteral("terminate-backend");
}

QString backendSignalConsequences(BackendSignal s, int pid, const QStringList& heldLocks,
                                  const QString& applicationName)
{
    const QString app = applicationName.isEmpty() ? SessionActionWords::tr("its client") : applicationName;
    const QString locks = heldLocks.isEmpty()
                              ? SessionActionWords::tr("no advisory lock")
                              : SessionActionWords::tr("advisory locks %1").arg(heldLocks.join(QStringLiteral(", ")));
    if (s == BackendSignal::Cancel)
        return SessionActionWords::tr(
                   "Cancel the running statement of pid %1: %2 gets \"canceling statement due to user "
                   "request\" (SQLSTATE 57014) and its transaction aborts, releasing the "
                   "transaction-level locks. Session-level locks stay held (it holds %3); an idle "
                   "session has nothing to cancel. Leases are rows: none is released.")
            .arg(pid)
            .arg(app, locks);
    return SessionActionWords::tr(
               "Terminate pid %1: its connection closes, %2 sees \"terminating connection due to "
               "administrator command\" (SQLSTATE 57P01) and must reconnect; its open transaction rolls "
               "back and every lock it holds is released (%3). Leases are rows: none is released, they "
               "expire on their own or by force-expire.")
        .arg(pid)
        .arg(app, locks);
}

QString backendSignalAuditBefore(int pid, const QString& applicationName, const QStringList& heldLocks)
{
    QJsonObject o;
    o.insert(QStringLiteral("pid"), pid);
    o.insert(QStringLiteral("application_name"), applicationName);
    o.insert(QStringLiteral("advisory_locks"), QJsonArray::fromStringList(heldLocks));
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

BackendSignalOutcome signalBackend(const pg::ConnectOptions& monitorOptions, bool operatorMode,
                                   BackendSignal s, int pid)
{
    BackendSignalOutcome out;
    if (!operatorMode) {
        out.key = QStringLiteral("refused");
        out.text = SessionActionWords::tr("not sent: operator mode is off for this profile");
        return out;
    }
    pg::ConnectOptions opts = monitorOptions;
    opts.readOnly = false;
    opts.applicationName = QStringLiteral("leasewatch-operator");
    pg::Connection c;
    if (auto e = c.connect(opts); e.isError()) {
        out.key = QStringLiteral("error");
        out.error = e;
        out.text = SessionActionWords::tr("not sent: %1").arg(e.toDisplayString());
        return out;
    }
    const QByteArray fn = s == BackendSignal::Cancel ? "pg_cancel_backend" : "pg_terminate_backend";
    pg::ResultPtr r;
    const auto e = c.exec({"SELECT " + fn + "($1::int), current_user::text", {QByteArray::number(pid)}}, r,
                          pg::Clock::now() + std::chrono::milliseconds(opts.statementTimeoutMs + 1000));
    if (e.isError()) {
        out.error = e;
        if (e.sqlstate == QLatin1String("42501")) {
            out.key = QStringLiteral("permission_denied");
            out.text =
                SessionActionWords::tr("refused by the server: %1 — the console's role needs the privileges of the "
                               "backend's role, or membership in pg_signal_backend (superusers' backends "
                               "need a superuser)")
                    .arg(e.message);
        } else {
            out.key = QStringLiteral("error");
            out.text = SessionActionWords::tr("failed: %1").arg(e.toDisplayString());
        }
        return out;
    }
    out.dbRole = QString::fromUtf8(PQgetvalue(r.get(), 0, 1));
    out.sent = PQgetvalue(r.get(), 0, 0)[0] == 't';
    if (!out.sent) {
        out.key = QStringLiteral("no_such_backend");
        out.text = SessionActionWords::tr("nothing done: pid %1 is no longer a backend of this server").arg(pid);
    } else if (s == BackendSignal::Cancel) {
        out.key = QStringLiteral("cancelled");
        out.text = SessionActionWords::tr("cancel request sent to pid %1").arg(pid);
    } else {
        out.key = QStringLiteral("terminated");
        out.text = SessionActionWords::tr("pid %1 terminated; its locks are released").arg(pid);
    }
    return out;
}

} // namespace lw
