#pragma once
// What the recorder's /metrics serves (issue 27): each recorded database's state as plain numbers,
// and their rendering in the Prometheus text exposition format (version 0.0.4). QtCore only.
//
// Label sets are bounded: database (the profile name), scheme and table (the lease tables found),
// state (a LeaseState key), pool (a client instance: address and application_name, never a pid),
// kind and severity (a finding's). No query text, lease name or pid is ever a label.
#include "Analysis.h"
#include "LeaseStateKind.h"
#include "Snapshot.h"

#include <QByteArray>
#include <QString>

#include <array>
#include <map>
#include <optional>
#include <vector>

namespace lw {

struct LeaseTableMetrics
{
    QString scheme; // "default", "shedlock", …
    QString table;  // schema.table
    std::array<int, kLeaseStateCount> byState{};
    double oldestStaleS = 0; // how long ago the longest-stale lease expired (0: none stale)
};

// Pools named in the metrics at most (the others are summed as pool="other").
inline constexpr int kMetricsPools = 50;

struct PoolMetrics
{
    QString pool; // the group key: "10.0.0.7 billing-api"
    // Each connection in one state (the pool chart's): waiting on a lock, active, idle holding an
    // advisory lock (pinned), idle, idle in transaction; the rest (starting, fastpath…) is "other".
    int total = 0, waitingOnLock = 0, active = 0, pinnedConnections = 0, idle = 0, idleInTransaction = 0;
    std::optional<int> size;   // configured in the profile
    bool pinned = false;       // the Overview's "pool pinned" card
};

struct DatabaseMetrics
{
    QString database;          // the profile's name (or the DSN without its password)
    bool up = false;           // the last refresh answered and the server is answering now
    bool everAnswered = false; // false: nothing below was ever measured
    double lastAnswerAgeS = 0; // since the last good refresh (the values below are from it)
    double serverNow = 0;      // the server's clock at the last good refresh (epoch seconds)
    double refreshS = 0;       // the last good refresh, sent → last byte received
    double refreshServerS = 0; // … of which the server's share (an upper bound)

    std::vector<LeaseTableMetrics> leases; // every lease table read, with zeros where nothing is
    std::vector<PoolMetrics> pools;
    int idleAdvisoryHolders = 0; // sessions idle (or idle in transaction) holding advisory locks
    double longestIdleHoldS = 0;
    int lockWaiters = 0; // sessions waiting on any lock
    double longestLockWaitS = 0;
    int lockTableEntries = 0, lockTableCapacity = 0; // capacity: max_locks × (max_connections + prepared)
    int connections = 0, connectionLimit = 0;        // limit: max_connections − superuser-reserved
    qint64 deadlocks = -1;                           // pg_stat_database.deadlocks; -1 unknown
    // Current findings (the Overview's cards) by kind key and severity (3 critical … 1 notice).
    std::map<std::pair<QString, int>, int> findings;
};

// Everything but the leases and findings, from one good refresh and its analysis.
DatabaseMetrics measureRefresh(const Snapshot& s, const Analysis& a);
// Counts findings into m.findings (replacing what was there).
void countFindings(DatabaseMetrics& m, const std::vector<Finding>& findings);

// The exposition text: each family's HELP and TYPE once, then its samples for every database.
QByteArray prometheusText(const std::vector<DatabaseMetrics>& dbs);

} // namespace lw
