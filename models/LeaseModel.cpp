#include "LeaseModel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QSet>
#include <QTimeZone>

#include <cmath>

namespace lw {

QString formatDuration(double seconds)
{
    if (!std::isfinite(seconds))
        return QStringLiteral("∞");
    qint64 s = qint64(std::floor(std::abs(seconds)));
    if (s < 60)
        return QStringLiteral("%1 s").arg(s);
    if (s < 3600)
        return s % 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60)
                      : QStringLiteral("%1 min").arg(s / 60);
    if (s < 86400)
        return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
    if (s < 86400LL * 365 * 2)
        return QStringLiteral("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
    return QStringLiteral("%1 years").arg(s / (86400LL * 365));
}

QString formatCountdown(double left)
{
    if (left >= 0)
        return QStringLiteral("in ") + formatDuration(left);
    return QStringLiteral("expired ") + formatDuration(-left) + QStringLiteral(" ago");
}

namespace {
QString formatInstant(double epoch)
{
    if (!std::isfinite(epoch) || std::abs(epoch) > 1e13)
        return QStringLiteral("(out of range)");
    return QDateTime::fromMSecsSinceEpoch(qint64(epoch * 1000.0), Qt::UTC)
        .toLocalTime()
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

// Control characters (a name with a newline, a NUL) must not break a row's layout.
QString printable(const QString& s)
{
    QString out;
    out.reserve(std::min<qsizetype>(s.size(), 512));
    for (QChar c : s) {
        if (out.size() >= 500) {
            out += QStringLiteral("…");
            break;
        }
        out += (c.category() == QChar::Other_Control) ? QChar(0xFFFD) : c;
    }
    return out;
}

} // namespace

LeaseModel::LeaseModel(QObject* parent, MonotonicClock clock)
    : QAbstractTableModel(parent), clock_(std::move(clock))
{
}

int LeaseModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int LeaseModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double LeaseModel::serverNowEstimate() const
{
    if (!haveSnapshot_)
        return 0;
    return serverNow_ + double(clock_() - receivedMs_) / 1000.0;
}

double LeaseModel::dataAgeSeconds() const
{
    return haveSnapshot_ ? double(clock_() - receivedMs_) / 1000.0 : 0.0;
}

LeaseState LeaseModel::stateAt(int row) const
{
    return classifyLease(rows_[size_t(row)].track, serverNowEstimate(), policy_);
}

std::array<int, kLeaseStateCount> LeaseModel::stateCounts() const
{
    std::array<int, kLeaseStateCount> counts{};
    const double now = serverNowEstimate();
    for (const Entry& e : rows_)
        ++counts[size_t(classifyLease(e.track, now, policy_))];
    return counts;
}

bool LeaseModel::clockSkewAt(int row) const
{
    const auto& t = rows_[size_t(row)].track;
    // One second of slack: the writer's statement and our refresh are not the same instant.
    return writerClockCheck_ && t.row.takenAt && !t.releasedAt && *t.row.takenAt > serverNow_ + 1.0;
}

QString LeaseModel::display(const Entry& e, int column, double now) const
{
    const LeaseRow& r = e.track.row;
    switch (column) {
    case Name:
        return printable(r.name);
    case Host:
        if (!r.holder)
            return QStringLiteral("(no holder)");
        return printable(e.holder.structured ? e.holder.host : *r.holder);
    case Pid:
        return e.holder.structured ? QString::number(e.holder.pid) : QString();
    case Token:
        return e.holder.structured ? e.holder.token : QString();
    case TakenAt:
        return r.takenAt ? formatInstant(*r.takenAt) : QStringLiteral("—");
    case HeldFor:
        return r.takenAt ? formatDuration(std::max(0.0, now - *r.takenAt)) : QStringLiteral("—");
    case ExpiresIn: {
        if (!r.expiresAt)
            return QStringLiteral("—");
        QString s = formatCountdown(*r.expiresAt - now);
        if (!live_)
            s += QStringLiteral(" (unverified)");
        return s;
    }
    case State: {
        const LeaseState st = classifyLease(e.track, now, policy_);
        QString s = leaseStateText(st);
        if (st == LeaseState::TakenOver && !e.track.previousHolder.isEmpty())
            s += QStringLiteral(" from ") + printable(e.track.previousHolder);
        return s;
    }
    default:
        return {};
    }
}

QVariant LeaseModel::sortValue(const Entry& e, int column, double now) const
{
    const LeaseRow& r = e.track.row;
    switch (column) {
    case Pid:
        return e.holder.structured ? e.holder.pid : -1;
    case TakenAt:
        return r.takenAt.value_or(-1e300);
    case HeldFor:
        return r.takenAt ? now - *r.takenAt : -1e300;
    case ExpiresIn:
        return r.expiresAt ? *r.expiresAt - now : 1e300;
    case State:
        return leaseStateSeverity(classifyLease(e.track, now, policy_));
    default:
        return display(e, column, now);
    }
}

QVariant LeaseModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size()))
        return {};
    const Entry& e = rows_[size_t(index.row())];
    const double now = serverNowEstimate();
    switch (role) {
    case Qt::DisplayRole:
        return display(e, index.column(), now);
    case SortRole:
        return sortValue(e, index.column(), now);
    case StateRole:
        return int(classifyLease(e.track, now, policy_));
    case FilterRole:
        return e.track.row.name + QLatin1Char(' ') + e.track.row.holder.value_or(QString());
    case SecondsLeftRole:
        return e.track.row.expiresAt ? QVariant(*e.track.row.expiresAt - now) : QVariant();
    case KeyRole:
        return e.key;
    case Qt::ToolTipRole:
        if (index.column() == Host || index.column() == Name)
            return e.track.row.holder
                       ? QStringLiteral("%1\nholder: %2").arg(e.track.row.name, *e.track.row.holder)
                       : e.track.row.name;
        if (index.column() == State) {
            QString tip = leaseStateText(classifyLease(e.track, now, policy_));
            if (const auto since = secondsSinceRenewal(e.track, now))
                tip += QStringLiteral("\nlast renewal seen: %1 ago").arg(formatDuration(*since));
            if (e.track.ttl)
                tip +=
                    QStringLiteral("\nTTL (%1): %2")
                        .arg(e.track.ttlExact ? QStringLiteral("from the take") : QStringLiteral("inferred"),
                             formatDuration(*e.track.ttl));
            if (clockSkewAt(index.row()))
                tip += QStringLiteral("\ntaken-at lies in the server's future: the writer's clock is ahead");
            return tip;
        }
        return {};
    case Qt::ForegroundRole: {
        const LeaseState st = classifyLease(e.track, now, policy_);
        if (st == LeaseState::Released || !live_)
            return QBrush(QColor(0x9e, 0x9e, 0x9e));
        if (index.column() == State || index.column() == ExpiresIn)
            return QBrush(leaseStateColor(st));
        return {};
    }
    case Qt::TextAlignmentRole:
        if (index.column() == Pid || index.column() == HeldFor || index.column() == ExpiresIn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant LeaseModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    static const char* names[] = {"Lease",    "Holder host", "PID",     "Token",
                                  "Taken at", "Held for",    "Expires", "State"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

void LeaseModel::rebuildIndex()
{
    index_.clear();
    index_.reserve(qsizetype(rows_.size()));
    for (int i = 0; i < int(rows_.size()); ++i)
        index_.insert(rows_[size_t(i)].key, i);
}

void LeaseModel::setLive(bool live)
{
    if (live_ == live)
        return;
    live_ = live;
    if (!rows_.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    Q_EMIT summaryChanged();
}

void LeaseModel::tick()
{
    if (!rows_.empty())
        Q_EMIT dataChanged(index(0, HeldFor), index(rowCount() - 1, State),
                           {Qt::DisplayRole, SortRole, StateRole, Qt::ForegroundRole, SecondsLeftRole});
    Q_EMIT summaryChanged();
}

void LeaseModel::applySnapshot(const Snapshot& s)
{
    if (!s.ok) {
        setLive(false);
        return;
    }
    prevServerNow_ = haveSnapshot_ ? serverNow_ : 0;
    serverNow_ = s.serverNow;
    receivedMs_ = s.receivedMonotonicMs ? s.receivedMonotonicMs : clock_();
    const bool first = !haveSnapshot_;
    haveSnapshot_ = true;
    live_ = true;
    if (s.leasesError) {
        // The table is unreadable this time: keep the rows, but they are not current.
        live_ = false;
        if (!rows_.empty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        Q_EMIT summaryChanged();
        return;
    }

    std::vector<char> seen(rows_.size(), 0);
    std::vector<Entry> added;
    // Keys are unique per snapshot: the n-th row with the same name (a mapped column that is not
    // unique) gets name + U+0001 + n, which no sane lease name contains.
    // Only names met twice in this snapshot pay for a counter; the common case is one lookup.
    QHash<QString, int> duplicates;
    QSet<QString> addedKeys;
    auto used = [&](const QString& k) {
        const auto it = index_.constFind(k);
        return (it != index_.constEnd() && seen[size_t(*it)]) || addedKeys.contains(k);
    };
    int minChanged = int(rows_.size()), maxChanged = -1;
    for (const LeaseRow& row : s.leases) {
        QString key = row.name;
        if (used(key)) {
            int& n = duplicates[row.name];
            n = std::max(n, 1);
            do
                key = row.name + QChar(1) + QString::number(++n);
            while (used(key));
        }
        const auto it = index_.constFind(key);
        if (it == index_.constEnd()) {
            Entry e;
            e.key = key;
            observeLease(e.track, row, s.serverNow, prevServerNow_,
                         first ? Sighting::FirstRefresh : Sighting::NewRow);
            e.holder = splitHolder(row.holder.value_or(QString()));
            addedKeys.insert(key);
            added.push_back(std::move(e));
            continue;
        }
        const int i = *it;
        seen[size_t(i)] = 1;
        Entry& e = rows_[size_t(i)];
        const bool wasReleased = e.track.releasedAt.has_value();
        const LeaseRow before = e.track.row;
        observeLease(e.track, row, s.serverNow, prevServerNow_, Sighting::Existing);
        if (!(before == row) || wasReleased) {
            if (before.holder != row.holder)
                e.holder = splitHolder(row.holder.value_or(QString()));
            minChanged = std::min(minChanged, i);
            maxChanged = std::max(maxChanged, i);
        }
    }

    // Rows gone from the table: released (kept greyed for a while), then removed.
    std::vector<int> toRemove;
    for (int i = 0; i < int(rows_.size()); ++i) {
        if (seen[size_t(i)])
            continue;
        Entry& e = rows_[size_t(i)];
        if (!e.track.releasedAt) {
            observeMissing(e.track, s.serverNow);
            minChanged = std::min(minChanged, i);
            maxChanged = std::max(maxChanged, i);
        } else if (s.serverNow - *e.track.releasedAt > policy_.releasedLingerS) {
            toRemove.push_back(i);
        }
    }
    if (maxChanged >= minChanged)
        Q_EMIT dataChanged(index(minChanged, 0), index(maxChanged, ColumnCount - 1));

    // Remove from the bottom up, one signal per contiguous range.
    for (int j = int(toRemove.size()) - 1; j >= 0;) {
        int last = toRemove[size_t(j)], firstRow = last;
        while (j > 0 && toRemove[size_t(j - 1)] == firstRow - 1)
            firstRow = toRemove[size_t(--j)];
        --j;
        beginRemoveRows({}, firstRow, last);
        rows_.erase(rows_.begin() + firstRow, rows_.begin() + last + 1);
        endRemoveRows();
    }
    if (!toRemove.empty())
        rebuildIndex();

    if (!added.empty()) {
        const int start = int(rows_.size());
        beginInsertRows({}, start, start + int(added.size()) - 1);
        for (Entry& e : added) {
            index_.insert(e.key, int(rows_.size()));
            rows_.push_back(std::move(e));
        }
        endInsertRows();
    }
    Q_EMIT summaryChanged();
}

} // namespace lw
