#include "LeaseModel.h"
#include "Palette.h"

#include <QBrush>
#include <QColor>
#include <QPointer>
#include <QTimer>

#include <algorithm>

namespace lw {

namespace {
// Rows a refresh must bring to an empty model for it to be prepared on a worker thread (below, the
// per-row work takes tens of milliseconds), and rows inserted per turn of the event loop after.
constexpr size_t kBackgroundFillRows = 20000;
constexpr int kFillSliceRows = 25000;
} // namespace

LeaseModel::LeaseModel(RefreshJudge& judge, QObject* parent)
    : QAbstractTableModel(parent), judge_(judge), tracker_(judge.attach(this))
{
}

LeaseModel::~LeaseModel()
{
    fillThread_.request_stop(); // a fill still being prepared gives up within a few thousand rows
    judge_.attach(nullptr);
}

int LeaseModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : tracker_.size() - hidden_;
}

int LeaseModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LeaseModel::sortValue(int row, int column, double now) const
{
    const Entry& e = tracker_.entry(row);
    const LeaseRow& r = e.track.row;
    switch (column) {
    case Pid:
        return e.holder.structured && e.holder.pid > 0 ? e.holder.pid : -1;
    case TakenAt:
        return r.takenAt.value_or(-1e300);
    case HeldFor:
        return r.takenAt ? tracker_.heldUntil(row, now) - *r.takenAt : -1e300;
    case ExpiresIn:
        return LeaseTracker::liveExpiry(e) ? *LeaseTracker::liveExpiry(e) - now : 1e300;
    case State:
        return leaseStateSeverity(tracker_.stateAt(row, now));
    case Scheme:
        return tracker_.cellText(row, Scheme, now, live_);
    default:
        return LeaseTracker::sortText(e, column).toString();
    }
}

bool LeaseModel::clockFreeColumn(int column)
{
    return column == Name || column == Host || column == Pid || column == Token || column == TakenAt ||
           column == ExpiresIn;
}

bool LeaseModel::lessClockFree(const Entry& a, const Entry& b, int column, Qt::CaseSensitivity cs)
{
    // The keys sortValue() gives, less the server time where it cancels out (a - now < b - now):
    // a sort makes millions of comparisons, and a clock reading each would triple a name sort's time.
    auto taken = [](const Entry& e) { return e.track.row.takenAt.value_or(-1e300); };
    auto expires = [](const Entry& e) { return LeaseTracker::liveExpiry(e).value_or(1e300); };
    auto pid = [](const Entry& e) { return e.holder.structured && e.holder.pid > 0 ? e.holder.pid : qint64(-1); };
    switch (column) {
    case Pid:
        return pid(a) < pid(b);
    case TakenAt:
        return taken(a) < taken(b);
    case ExpiresIn:
        return expires(a) < expires(b);
    default:
        return LeaseTracker::sortText(a, column).compare(LeaseTracker::sortText(b, column), cs) < 0;
    }
}

bool LeaseModel::lessThan(int left, int right, int column, Qt::CaseSensitivity cs) const
{
    const Entry& a = tracker_.entry(left);
    const Entry& b = tracker_.entry(right);
    if (clockFreeColumn(column))
        return lessClockFree(a, b, column, cs);
    switch (column) {
    case HeldFor: {
        if (!a.track.releasedAt && !b.track.releasedAt && !tracker_.policyAt(left).expiryFrees &&
            !tracker_.policyAt(right).expiryFrees) // both held: now cancels
            return (a.track.row.takenAt ? -*a.track.row.takenAt : -1e300) <
                   (b.track.row.takenAt ? -*b.track.row.takenAt : -1e300);
        // A released row's hold stopped at its release: the clock is needed (few rows, 30 s each).
        const double now = serverNowEstimate();
        auto held = [this, now](int row) {
            const auto& taken = tracker_.entry(row).track.row.takenAt;
            return taken ? tracker_.heldUntil(row, now) - *taken : -1e300;
        };
        return held(left) < held(right);
    }
    case State: {
        const double now = serverNowEstimate();
        return leaseStateSeverity(stateAt(left, now)) < leaseStateSeverity(stateAt(right, now));
    }
    case Scheme: {
        const LeaseTableConfig* ta = tracker_.tableAt(left);
        const LeaseTableConfig* tb = tracker_.tableAt(right);
        return (ta ? ta->label() : QString()).compare(tb ? tb->label() : QString(), cs) < 0;
    }
    default:
        return false;
    }
}

bool LeaseModel::matchesFilter(int row, const QString& text, Qt::CaseSensitivity cs) const
{
    const LeaseRow& r = tracker_.entry(row).track.row;
    if (r.name.contains(text, cs) || (r.holder && r.holder->contains(text, cs)))
        return true;
    // Only a text with a space can match across the two.
    return text.contains(QLatin1Char(' ')) &&
           (r.name + QLatin1Char(' ') + r.holder.value_or(QString())).contains(text, cs);
}

QVariant LeaseModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const Entry& e = tracker_.entry(row);
    const double now = serverNowEstimate();
    switch (role) {
    case Qt::DisplayRole:
        return tracker_.cellText(row, index.column(), now, live_);
    case SortRole:
        return sortValue(row, index.column(), now);
    case StateRole:
        return int(tracker_.stateAt(row, now));
    case FilterRole:
        return e.track.row.name + QLatin1Char(' ') + e.track.row.holder.value_or(QString());
    case SecondsLeftRole:
        return LeaseTracker::liveExpiry(e) ? QVariant(*LeaseTracker::liveExpiry(e) - now) : QVariant();
    case KeyRole:
        return e.key;
    case Qt::ToolTipRole:
        if (index.column() == Host || index.column() == Name)
            return e.track.row.holder
                       ? QStringLiteral("%1\nholder: %2").arg(e.track.row.name, *e.track.row.holder)
                       : e.track.row.name;
        if (index.column() == State)
            return tracker_.stateTip(row, now);
        return {};
    case Qt::ForegroundRole: {
        const LeaseState st = tracker_.stateAt(row, now);
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
    return section >= 0 && section < ColumnCount ? leaseColumnTitle(section) : QVariant();
}

void LeaseModel::setLive(bool live)
{
    if (live_ == live)
        return;
    live_ = live;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    Q_EMIT summaryChanged();
}

void LeaseModel::tick()
{
    if (rowCount() == 0) {
        Q_EMIT summaryChanged();
        return;
    }
    // The countdown columns' text moves; their sort order does not (every row shifts by the same
    // time), so SortRole is left out and a proxy sorted by them does not re-sort 100 000 rows
    // twice a second. A state, though, changes at its own moment: only rows whose state changed
    // since the last tick get the roles a sort or filter by state depends on.
    Q_EMIT dataChanged(index(0, HeldFor), index(rowCount() - 1, ExpiresIn),
                       {Qt::DisplayRole, Qt::ForegroundRole, SecondsLeftRole});
    const double now = serverNowEstimate();
    const int shown = rowCount();
    tickStates_.resize(size_t(shown), -1);
    int lo = -1, hi = -1;
    auto flush = [&] {
        if (lo >= 0)
            Q_EMIT dataChanged(index(lo, 0), index(hi, ColumnCount - 1));
        lo = hi = -1;
    };
    for (int i = 0; i < shown; ++i) {
        const auto st = qint8(tracker_.stateAt(i, now));
        if (tickStates_[size_t(i)] == st)
            continue;
        tickStates_[size_t(i)] = st;
        if (hi == i - 1 && lo >= 0) {
            hi = i;
            continue;
        }
        flush();
        lo = hi = i;
    }
    flush();
    Q_EMIT summaryChanged();
}

void LeaseModel::observed(int row, LeaseChange)
{
    if (appendingFrom_ >= 0 && row >= appendingFrom_)
        return; // inserted, not changed
    minChanged_ = std::min(minChanged_, row);
    maxChanged_ = std::max(maxChanged_, row);
}

void LeaseModel::flushChanged()
{
    if (maxChanged_ >= minChanged_)
        Q_EMIT dataChanged(index(minChanged_, 0), index(maxChanged_, ColumnCount - 1));
    minChanged_ = std::numeric_limits<int>::max();
    maxChanged_ = -1;
}

void LeaseModel::aboutToRemove(int first, int last)
{
    flushChanged(); // before the rows move
    beginRemoveRows({}, first, last);
}

void LeaseModel::removed(int, int)
{
    endRemoveRows();
}

void LeaseModel::aboutToAppend(int first, int last)
{
    flushChanged();
    appendingFrom_ = first;
    beginInsertRows({}, first, last);
}

void LeaseModel::appended(int, int)
{
    endInsertRows();
}

bool LeaseModel::takeRows(const Snapshot& s, const LeaseTracker::Begun& b)
{
    if (b.outcome == LeaseTracker::Outcome::Failed) {
        setLive(false);
        return true;
    }
    if (b.outcome == LeaseTracker::Outcome::Unreadable) {
        // The table is unreadable this time: the rows stay, but they are not current.
        live_ = false;
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        Q_EMIT summaryChanged();
        return true;
    }
    live_ = true;
    if (fillInBackground_ && tracker_.size() == 0 && s.leases.size() >= kBackgroundFillRows) {
        startFill(s, b.newRows);
        tracker_.skipRows(s);
        Q_EMIT summaryChanged();
        return false;
    }
    minChanged_ = std::numeric_limits<int>::max();
    maxChanged_ = -1;
    tracker_.applyRows(s, b, this);
    flushChanged();
    appendingFrom_ = -1;
    Q_EMIT summaryChanged();
    return true;
}

void LeaseModel::startFill(const Snapshot& s, Sighting sighting)
{
    fill_ = tracker_.prepareFrom(s, sighting);
    filling_ = true;
    fillRows_ = int(s.leases.size());
    // In the sorted view's order, so that each slice inserted lands at its end; a column that
    // needs the clock stays in the table's order.
    LeaseTracker::Order order;
    if (clockFreeColumn(fillOrder_.column)) {
        const FillOrder o = fillOrder_;
        order = [o](const Entry& a, const Entry& b) {
            return o.order == Qt::DescendingOrder ? lessClockFree(b, a, o.column, o.cs)
                                                  : lessClockFree(a, b, o.column, o.cs);
        };
    }
    QPointer<LeaseModel> self(this);
    fillThread_ = std::jthread([self, f = fill_.get(), order](std::stop_token stop) {
        LeaseTracker::prepare(*f, order, stop);
        if (!stop.stop_requested())
            // Posted to the model's thread; a model gone by then took the event with it (its
            // destructor asked this thread to stop and joined it first).
            QMetaObject::invokeMethod(self.data(), &LeaseModel::takeFill, Qt::QueuedConnection);
    });
}

void LeaseModel::takeFill()
{
    if (!filling_)
        return; // finishLoading() took it already
    if (fillThread_.joinable())
        fillThread_.join(); // it has posted this call: it is done, or about to return
    filling_ = false;
    std::unique_ptr<LeaseTracker::Prepared> f = std::move(fill_);
    hidden_ = int(f->rows.size()); // in the tracker, not yet in the model
    tracker_.adopt(std::move(*f));
    insertNextSlice();
}

void LeaseModel::insertNextSlice()
{
    if (hidden_ == 0)
        return;
    const int first = rowCount();
    const int count = std::min(hidden_, kFillSliceRows);
    beginInsertRows({}, first, first + count - 1);
    hidden_ -= count;
    endInsertRows();
    if (hidden_ > 0)
        QTimer::singleShot(0, this, &LeaseModel::insertNextSlice);
    Q_EMIT summaryChanged();
    if (hidden_ == 0)
        Q_EMIT filled();
}

void LeaseModel::finishLoading()
{
    if (filling_)
        takeFill(); // waits for the worker; the takeFill() it posts then finds nothing to do
    if (hidden_ > 0) {
        beginInsertRows({}, rowCount(), tracker_.size() - 1);
        hidden_ = 0;
        endInsertRows();
        Q_EMIT filled();
    }
}

} // namespace lw
