#include "LeaseTimelineModel.h"
#include "domain/Words.h"
#include "domain/UtcTime.h"
#include "Palette.h"

#include "domain/Wording.h"
#include "LeaseModel.h"

#include <QBrush>
#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace lw {

QString formatServerTime(double epoch)
{
    if (!std::isfinite(epoch) || std::abs(epoch) > 1e13)
        return QStringLiteral("(out of range)");
    return utcFromMSecs(qint64(std::llround(epoch * 1000.0)))
        .toLocalTime()
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

LeaseTimelineModel::LeaseTimelineModel(QObject* parent) : QAbstractTableModel(parent) {}

int LeaseTimelineModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(events_.size());
}

int LeaseTimelineModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void LeaseTimelineModel::setEvents(QString lease, std::vector<LeaseTimelineEvent> events)
{
    beginResetModel();
    lease_ = std::move(lease);
    events_ = std::move(events);
    endResetModel();
}

void LeaseTimelineModel::load(const HistoryReader& reader, const QString& lease)
{
    setEvents(lease, reader.timeline(lease));
}

int LeaseTimelineModel::rowAt(double t) const
{
    const auto it = std::upper_bound(events_.begin(), events_.end(), t,
                                     [](double v, const LeaseTimelineEvent& e) { return v < e.at; });
    return int(it - events_.begin()) - 1;
}

void LeaseTimelineModel::setJoinedAt(double serverTime)
{
    joinedAt_ = serverTime;
    if (!events_.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::BackgroundRole, BeforeJoinRole});
}

QVariant LeaseTimelineModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(events_.size()))
        return {};
    using K = LeaseTimelineEvent::Kind;
    const LeaseTimelineEvent& e = events_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case When:
            return formatServerTime(e.at);
        case Event:
            return timelineKindText(e.kind);
        case Holder:
            return e.holder ? *e.holder : TableWords::tr("(no holder)");
        case Details: {
            QStringList parts;
            if (e.kind == K::Renewals) {
                parts << (e.renewals == 1 ? TableWords::tr("1 renewal")
                                          : TableWords::tr("%1 renewals over %2")
                                                .arg(e.renewals)
                                                .arg(formatDuration(e.lastRenewal - e.firstRenewal)));
                if (e.renewals > 1)
                    parts << TableWords::tr("last at %1").arg(formatServerTime(e.lastRenewal));
            } else if (!e.detail.isEmpty()) {
                parts << e.detail;
            }
            if (e.expiresAt && e.kind != K::Released)
                parts << TableWords::tr("expires %1").arg(formatServerTime(*e.expiresAt));
            return parts.join(QStringLiteral(" · "));
        }
        case Operator:
            return e.operatorName;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return e.auditId ? TableWords::tr("audit record #%1").arg(e.auditId) : QVariant();
    case Qt::ForegroundRole:
        switch (e.kind) {
        case K::Expired:
            return QBrush(leaseStateColor(LeaseState::Stale));
        case K::Overdue:
            return QBrush(leaseStateColor(LeaseState::RenewalOverdue));
        case K::TakeOver:
            return QBrush(leaseStateColor(LeaseState::TakenOver));
        case K::Released:
            return QBrush(leaseStateColor(LeaseState::Released));
        case K::ForcedExpiry:
            return QBrush(QColor(0xc6, 0x28, 0x28));
        default:
            return {};
        }
    case Qt::BackgroundRole:
        // A translucent grey reads as "before" on light and dark palettes alike.
        return e.at <= joinedAt_ ? QBrush(QColor(128, 128, 128, 40)) : QVariant();
    case BeforeJoinRole:
        // joinedAt_ is the recorder's last refresh before the window: what it recorded then is before.
        return e.at <= joinedAt_;
    case KindRole:
        return int(e.kind);
    case TimeRole:
        return e.at;
    case SortRole:
        return index.column() == When ? QVariant(e.at) : data(index, Qt::DisplayRole);
    default:
        return {};
    }
}

QVariant LeaseTimelineModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    static const char* names[] = {QT_TRANSLATE_NOOP("lw::Tables", "When (server time)"),
                                  QT_TRANSLATE_NOOP("lw::Tables", "Event"), QT_TRANSLATE_NOOP("lw::Tables", "Holder"),
                                  QT_TRANSLATE_NOOP("lw::Tables", "Details"),
                                  QT_TRANSLATE_NOOP("lw::Tables", "Operator")};
    return section >= 0 && section < ColumnCount ? TableWords::tr(names[section]) : QVariant();
}

} // namespace lw
