#pragma once
// Operator actions of the locks page: cancel a backend's query or terminate the backend. Sent on a
// short-lived connection of its own (never the read-only monitoring session), only in operator mode.
#include "pg/PgConnection.h"

#include <QString>
#include <QStringList>

namespace lw {

enum class BackendSignal { Cancel, Terminate };

struct BackendSignalOutcome
{
    bool sent = false; // the server accepted the signal
    QString text;      // in words, as shown to the operator
    QString key; // "cancelled", "terminated", "no_such_backend", "permission_denied", "error", "refused"
    DbError error;
    QString dbRole;
};

QString backendSignalName(BackendSignal s); // "cancel-backend" / "terminate-backend" (audit action)
// What will follow, for the confirmation: which locks are released, what the client sees.
QString backendSignalConsequences(BackendSignal s, int pid, const QStringList& heldLocks,
                                  const QString& applicationName);
// The audit record's "before" for a signal: what the operator saw of the backend, as JSON built
// from the values (an application_name may contain quotes, braces, anything).
QString backendSignalAuditBefore(int pid, const QString& applicationName, const QStringList& heldLocks);
// Blocks up to the connection's timeouts: call it off the UI thread.
BackendSignalOutcome signalBackend(const pg::ConnectOptions& monitorOptions, bool operatorMode,
                                   BackendSignal s, int pid);

} // namespace lw
