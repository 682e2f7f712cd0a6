#pragma once
// Plain values handed from the polling worker to the GUI thread: one Snapshot per refresh.
#include "pg/PgError.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace lw {

// Monotonic milliseconds (steady clock). Countdowns advance on this between refreshes, never on the
// desktop's wall clock, which may be skewed or jump.
qint64 monotonicMs();

struct ServerInfo
{
    QString version;    // e.g. "15.18"
    int versionNum = 0; // server_version_num
    QString database;
    QString user;
    int backendPid = 0; // the console's own backend
    bool operator==(const ServerInfo&) const = default;
};

struct LeaseRow
{
    QString name;
    std::optional<QString> holder;
    std::optional<double> takenAt;   // epoch seconds (UTC), as the server reads the column
    std::optional<double> expiresAt; // epoch seconds (UTC); compare with Snapshot::serverNow only
    bool operator==(const LeaseRow&) const = default;
};

struct Snapshot
{
    quint64 generation = 0; // bumped when the configuration changes: older results are dropped
    quint64 seq = 0;        // refresh counter within a generation
    bool ok = false;
    pg::PgError error; // why this refresh failed (ok == false)

    double serverNow = 0;           // the server's now() for this refresh, epoch seconds
    qint64 receivedMonotonicMs = 0; // monotonicMs() when the result arrived
    QDateTime receivedWall;         // for display only ("last refresh at …")

    ServerInfo server;
    std::vector<LeaseRow> leases;
    std::optional<pg::PgError> leasesError; // table missing / wrong columns / no privilege

    // Cost of this refresh, for the status bar and the benchmark.
    int roundTrips = 0;
    qint64 bytesReceived = 0;
    double clientWaitMs = 0; // send → last byte received
    double decodeMs = 0;     // libpq result → values
};

} // namespace lw

Q_DECLARE_METATYPE(lw::Snapshot)
