#include "SnapshotFormat.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace lw {

namespace {
QJsonValue isoOrNull(const std::optional<double>& epoch)
{
    if (!epoch || !std::isfinite(*epoch) || std::abs(*epoch) > 1e13)
        return QJsonValue::Null;
    return QDateTime::fromMSecsSinceEpoch(qint64(*epoch * 1000.0), Qt::UTC).toString(Qt::ISODateWithMs);
}

QJsonObject errorJson(const pg::PgError& e)
{
    QJsonObject o;
    o[QStringLiteral("message")] = e.message;
    o[QStringLiteral("sqlstate")] = e.sqlstate.isEmpty() ? QJsonValue::Null : QJsonValue(e.sqlstate);
    o[QStringLiteral("text")] = e.toDisplayString();
    return o;
}
} // namespace

QJsonObject snapshotToJson(const Snapshot& s, const LeaseModel& leases)
{
    QJsonObject root;
    QJsonObject server;
    server[QStringLiteral("version")] = s.server.version;
    server[QStringLiteral("version_num")] = s.server.versionNum;
    server[QStringLiteral("database")] = s.server.database;
    server[QStringLiteral("user")] = s.server.user;
    server[QStringLiteral("now")] = isoOrNull(s.serverNow);
    root[QStringLiteral("server")] = server;
    root[QStringLiteral("ok")] = s.ok;
    if (!s.ok)
        root[QStringLiteral("error")] = errorJson(s.error);

    const double now = leases.serverNowEstimate();
    QJsonArray rows;
    for (int i = 0; i < leases.rowCount(); ++i) {
        const auto& e = leases.entry(i);
        const LeaseRow& r = e.track.row;
        const LeaseState st = leases.stateAt(i);
        QJsonObject o;
        o[QStringLiteral("name")] = r.name;
        o[QStringLiteral("holder")] = r.holder ? QJsonValue(*r.holder) : QJsonValue::Null;
        o[QStringLiteral("holder_host")] = e.holder.structured ? QJsonValue(e.holder.host) : QJsonValue::Null;
        o[QStringLiteral("holder_pid")] = e.holder.structured ? QJsonValue(e.holder.pid) : QJsonValue::Null;
        o[QStringLiteral("holder_token")] =
            e.holder.structured ? QJsonValue(e.holder.token) : QJsonValue::Null;
        o[QStringLiteral("taken_at")] = isoOrNull(r.takenAt);
        o[QStringLiteral("expires_at")] = isoOrNull(r.expiresAt);
        o[QStringLiteral("seconds_left")] =
            r.expiresAt && std::isfinite(*r.expiresAt) ? QJsonValue(*r.expiresAt - now) : QJsonValue::Null;
        o[QStringLiteral("held_for_seconds")] = r.takenAt ? QJsonValue(now - *r.takenAt) : QJsonValue::Null;
        o[QStringLiteral("state")] = leaseStateKey(st);
        o[QStringLiteral("state_text")] = leaseStateText(st);
        if (leases.clockSkewAt(i))
            o[QStringLiteral("writer_clock_ahead")] = true;
        rows.append(o);
    }
    QJsonObject leasesObj;
    leasesObj[QStringLiteral("rows")] = rows;
    if (s.leasesError)
        leasesObj[QStringLiteral("error")] = errorJson(*s.leasesError);
    const auto counts = leases.stateCounts();
    QJsonObject summary;
    for (int i = 0; i < kLeaseStateCount; ++i)
        summary[leaseStateKey(LeaseState(i))] = counts[size_t(i)];
    leasesObj[QStringLiteral("summary")] = summary;
    root[QStringLiteral("leases")] = leasesObj;

    QJsonObject cost;
    cost[QStringLiteral("round_trips")] = s.roundTrips;
    cost[QStringLiteral("bytes_received")] = double(s.bytesReceived);
    cost[QStringLiteral("wait_ms")] = s.clientWaitMs;
    root[QStringLiteral("refresh")] = cost;
    return root;
}

QString snapshotToText(const Snapshot& s, const LeaseModel& leases)
{
    QString out;
    if (!s.ok) {
        out += QStringLiteral("error: %1\n").arg(s.error.toDisplayString());
        return out;
    }
    out += QStringLiteral("server %1 · database %2 · user %3 · server time %4\n")
               .arg(s.server.version, s.server.database, s.server.user,
                    QDateTime::fromMSecsSinceEpoch(qint64(s.serverNow * 1000), Qt::UTC)
                        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")));
    out += QStringLiteral("\nLEASES");
    if (s.leasesError) {
        out += QStringLiteral(": %1\n").arg(s.leasesError->toDisplayString());
        return out;
    }
    const auto counts = leases.stateCounts();
    QStringList parts;
    for (int i = 0; i < kLeaseStateCount; ++i)
        if (counts[size_t(i)])
            parts << QStringLiteral("%1 %2").arg(counts[size_t(i)]).arg(leaseStateText(LeaseState(i)));
    out += QStringLiteral(" (%1)%2\n")
               .arg(leases.rowCount())
               .arg(parts.isEmpty() ? QString() : QStringLiteral(": ") + parts.join(QStringLiteral(", ")));
    // Column widths from the content, capped so one long name cannot push the table off screen.
    const int cols[] = {LeaseModel::Name,    LeaseModel::Host,      LeaseModel::Pid,
                        LeaseModel::HeldFor, LeaseModel::ExpiresIn, LeaseModel::State};
    std::vector<int> width;
    for (int c : cols)
        width.push_back(int(leases.headerData(c, Qt::Horizontal).toString().size()));
    std::vector<QStringList> cells;
    for (int r = 0; r < leases.rowCount(); ++r) {
        QStringList row;
        for (size_t k = 0; k < std::size(cols); ++k) {
            QString v = leases.data(leases.index(r, cols[k])).toString();
            if (v.size() > 40)
                v = v.left(39) + QStringLiteral("…");
            width[k] = std::max(width[k], int(v.size()));
            row << v;
        }
        cells.push_back(row);
    }
    auto line = [&](const QStringList& row) {
        QString l;
        for (size_t k = 0; k < std::size(cols); ++k)
            l += row[qsizetype(k)].leftJustified(width[k] + 2);
        return l.trimmed() + QLatin1Char('\n');
    };
    QStringList header;
    for (int c : cols)
        header << leases.headerData(c, Qt::Horizontal).toString().toUpper();
    out += line(header);
    for (const auto& row : cells)
        out += line(row);
    return out;
}

} // namespace lw
