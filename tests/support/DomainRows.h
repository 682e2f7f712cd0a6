#pragma once
// Hand-built rows of a refresh, for tests of the pure domain code, the models and the history.
#include "domain/Snapshot.h"

namespace lw::test {

// A snapshot's rows are immutable once made: a test that builds them row by row makes a new vector.
template <typename T>
void append(SharedRows<T>& rows, T row)
{
    std::vector<T> v = rows.vec();
    v.push_back(std::move(row));
    rows = std::move(v);
}

// A refresh of database "app" that answered at server time `now`, arrived at the monotonic
// millisecond the same number of seconds gives (a judge whose clock reads `monoMs` then
// estimates the server's time as `now`).
inline Snapshot answeredAt(double now, qint64& monoMs)
{
    Snapshot s;
    s.ok = true;
    s.serverNow = now;
    monoMs = qint64(now * 1000);
    s.receivedMonotonicMs = monoMs;
    s.server.database = QStringLiteral("app");
    return s;
}

inline LeaseRow lease(const QString& name, const QString& holder, double taken, double expires)
{
    LeaseRow r;
    r.name = name;
    r.holder = holder;
    r.takenAt = taken;
    r.expiresAt = expires;
    return r;
}

inline AdvisoryLockRow advisoryLock(int pid, qint64 key, bool granted = true)
{
    AdvisoryLockRow l;
    l.pid = pid;
    l.database = QStringLiteral("app");
    l.inMonitoredDb = true;
    l.key = key;
    l.mode = QStringLiteral("ExclusiveLock");
    l.granted = granted;
    return l;
}

// A client backend of database "app", in `state` since `stateChange` (server time).
inline SessionRow sessionRow(int pid, const QString& app, const QString& state, double stateChange)
{
    SessionRow s;
    s.pid = pid;
    s.database = QStringLiteral("app");
    s.user = QStringLiteral("app");
    s.applicationName = app;
    s.state = state;
    s.stateChange = stateChange;
    return s;
}

} // namespace lw::test
