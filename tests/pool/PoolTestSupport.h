#pragma once
// Synthetic snapshots for the pool tests that need no database.
#include "domain/Analysis.h"
#include "domain/Snapshot.h"

#include <memory>

namespace lw::test {

inline SessionRow session(int pid, const QString& app, const QString& state, const QString& addr = {},
                          bool waitingOnLock = false)
{
    SessionRow s;
    s.pid = pid;
    s.applicationName = app;
    s.state = state;
    s.clientAddr = addr;
    s.user = QStringLiteral("app");
    s.database = QStringLiteral("appdb");
    s.stateChange = 0;
    if (waitingOnLock)
        s.waitEventType = QStringLiteral("Lock");
    return s;
}

// A successful refresh at time t; pids in `holding` hold one granted advisory lock each.
inline Snapshot snapshot(double t, std::vector<SessionRow> sessions, const std::vector<int>& holding = {},
                         qint64 deadlocks = 0, std::optional<double> statsReset = 1.0)
{
    Snapshot s;
    s.ok = true;
    s.serverNow = t;
    s.cluster.maxConnections = 100;
    s.cluster.superuserReservedConnections = 3;
    s.cluster.maxLocksPerTransaction = 64;
    s.cluster.maxPreparedTransactions = 0;
    s.cluster.deadlocks = deadlocks;
    s.cluster.statsReset = statsReset;
    s.sessions = std::move(sessions);
    std::vector<AdvisoryLockRow> locks;
    for (int pid : holding) {
        AdvisoryLockRow l;
        l.pid = pid;
        l.granted = true;
        l.key = pid;
        l.inMonitoredDb = true;
        locks.push_back(l);
    }
    s.advisoryLocks = std::move(locks);
    s.cluster.lockTableEntries = int(holding.size()) + 5;
    s.cluster.totalLocks = s.cluster.lockTableEntries + 10;
    s.analysis = std::make_shared<const Analysis>(analyze(s, {})); // as the poller does
    return s;
}

} // namespace lw::test
