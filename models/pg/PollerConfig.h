#pragma once
// What one monitored database is watched with: how to connect, which lease tables, how often, the
// analysis' thresholds and the footprint budget. A profile stores it; the poller, the history
// store (what a recording was made with) and the operator's writes read it.
#include "domain/Analysis.h"
#include "domain/LeaseTable.h"
#include "pg/PgConnection.h"

#include <QStringList>

namespace lw {

struct PollerConfig
{
    pg::ConnectOptions connect;
    LeaseTableConfig leases;
    int intervalMs = 1000;
    int refreshDeadlineMs = 5000; // a refresh that takes longer is cancelled and the connection dropped
    int backoffInitialMs = 500;
    int backoffMaxMs = 30000;
    // Operator mode: the console may send writes (force-expire, cancel/terminate), always on a
    // separate short-lived connection; the monitoring session stays read-only. Off by default.
    bool operatorMode = false;
    QString auditTable; // optional server-side audit table ([schema.]table), written with the change
    // Candidate names for resolving advisory keys (hashtext() computed on the server, cached):
    // plain names, or patterns with %Y %m %d expanded for the last `patternDays` days.
    QStringList lockNames;
    QStringList lockNamePrefixes; // also try prefix + name for every candidate
    int patternDays = 7;
    AnalysisConfig analysis; // thresholds, grouping, pool sizes
    // With `leases` left at its defaults, look for a known lease table in every schema at connect
    // (see detectedLeaseTables()); a database without one is information, not a problem.
    bool detectLeaseTable = true;
    // Footprint budget: the console's server time stays under this share of wall time; a refresh
    // that costs more stretches the interval (0 disables). See stretchedIntervalMs().
    double serverTimeBudget = 0.01;
    // pg_locks is read at most every `locksEveryNMax` refreshes when its last read returned at least
    // `locksManyRows` rows and dominated the refresh (see locksEveryN()).
    int locksManyRows = 10000;
    int locksEveryNMax = 5;
};

// The lease policy the models use for a configuration (TTL, thresholds, refresh interval).
struct LeasePolicy;
LeasePolicy leasePolicyFor(const PollerConfig& cfg); // domain/LeaseState.h

} // namespace lw
