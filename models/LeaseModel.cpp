#include "LeaseModel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QSet>
#include <QTimeZone>
#include <QPointer>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lw {

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

namespace {
// Rows a refresh must bring to an empty model for it to be prepared on a worker thread (below, the
// per-row work takes tens of milliseconds), and rows inserted per turn of the event loop after.
constexpr size_t kBackgroundFillRows = 20000;
constexpr int kFillSliceRows = 25000;
} // namespace

LeaseModel::LeaseModel(QObject* parent, MonotonicClock clock)
    : QAbstractTableModel(parent), clock_(std::move(clock))
{
}

LeaseModel::~LeaseModel()
{
    fillThread_.request_stop(); // a fill still being prepared gives up within a few thousand rows
}

int LeaseModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size()) - hidden_;
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
    return stateAt(row, serverNowEstimate());
}

LeaseState LeaseModel::stateAt(int row, double now) const
{
    return brief_[size_t(row)].when.at(now);
}

void LeaseModel::setPolicy(const LeasePolicy& p)
{
    rules_.policy = p;
    applyTables(rules_.tables);
}

void LeaseModel::applyTables(std::shared_ptr<const std::vector<LeaseTableConfig>> tables)
{
    // Each table's scheme over the profile's policy: one rule set per table, read per row.
    rules_.tables = std::move(tables);
    rules_.policies.clear();
    ++rulesVersion_;
    QStringList names;
    if (rules_.tables)
        for (const LeaseTableConfig& t : *rules_.tables) {
            rules_.policies.push_back(policyForTable(rules_.policy, t));
            names << QStringLiteral("%1 (%2)").arg(t.qualifiedName(), t.label());
        }
    tableName_ = names.join(QStringLiteral(", "));
    for (int i = 0; i < int(rows_.size()); ++i)
        retime(i);
}

std::vector<int> LeaseModel::rowsNamed(const QString& name) const
{
    std::vector<int> out;
    if (const int r = rowOfKey(name); r >= 0)
        out.push_back(r);
    for (int i = 0; i < int(rows_.size()); ++i)
        if (rows_[size_t(i)].track.row.name == name && rows_[size_t(i)].key != name)
            out.push_back(i);
    return out;
}

const LeaseTableConfig* LeaseModel::Rules::tableFor(const LeaseRow& r) const
{
    return tables && r.source >= 0 && size_t(r.source) < tables->size() ? &(*tables)[size_t(r.source)] : nullptr;
}

QString LeaseModel::Rules::keyOf(const LeaseRow& r) const
{
    // The first table's rows by name; another table's name with its table: names are unique per
    // table, not across them (a ShedLock job and a lease may share one).
    const LeaseTableConfig* t = r.source == 0 ? nullptr : tableFor(r);
    return t ? r.name + QChar(2) + t->qualifiedName() : r.name;
}

HolderParts LeaseModel::Rules::holderOf(const LeaseRow& r) const
{
    const LeaseTableConfig* t = tableFor(r);
    return splitHolder(r.holder.value_or(QString()), t ? t->holderFormat : LeaseTableConfig::HolderFormat::HostPidToken);
}

LeaseModel::Brief LeaseModel::Rules::briefOf(const Entry& e) const
{
    Brief b;
    b.when = leaseTimeline(e.track, policyOf(e.track.row));
    const LeaseTableConfig* t = tableFor(e.track.row);
    // Only a writer on the application's clock can put its taken-at in the server's future.
    if (e.track.row.takenAt && !e.track.releasedAt && (writerClockCheck || (t && t->writerUsesAppClock))) {
        b.takenAt = *e.track.row.takenAt;
        b.skew = writerClockSkew(e.track);
    }
    return b;
}

std::array<int, kLeaseStateCount> LeaseModel::stateCounts() const
{
    std::array<int, kLeaseStateCount> counts{};
    const double now = serverNowEstimate();
    for (const Brief& b : brief_)
        ++counts[size_t(b.when.at(now))];
    return counts;
}

std::vector<LeaseTableMetrics> LeaseModel::tableMetrics(double now) const
{
    std::vector<LeaseTableMetrics> out;
    if (!rules_.tables)
        return out;
    for (const LeaseTableConfig& t : *rules_.tables)
        out.push_back({t.scheme, t.qualifiedName(), {}, 0});
    for (size_t i = 0; i < rows_.size(); ++i) {
        const LeaseRow& r = rows_[i].track.row;
        if (r.source < 0 || size_t(r.source) >= out.size())
            continue;
        LeaseTableMetrics& t = out[size_t(r.source)];
        const LeaseState st = brief_[i].when.at(now);
        ++t.byState[size_t(st)];
        if (st == LeaseState::Stale && r.expiresAt)
            t.oldestStaleS = std::max(t.oldestStaleS, now - *r.expiresAt);
    }
    return out;
}

std::vector<int> LeaseModel::rowsStaleOrSkewed(double now) const
{
    std::vector<int> out;
    for (size_t i = 0; i < staleFrom_.size(); ++i)
        if (now >= staleFrom_[i] || brief_[i].skew != 0 || brief_[i].takenAt > serverNow_ + 1.0)
            out.push_back(int(i));
    return out;
}

double LeaseModel::writerSkewAt(int row) const
{
    const Brief& b = brief_[size_t(row)];
    if (b.skew != 0)
        return b.skew;
    // One second of slack: the writer's statement and our refresh are not the same instant.
    return b.takenAt > serverNow_ + 1.0 ? b.takenAt - serverNow_ : 0.0;
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
        return e.holder.structured && e.holder.pid > 0 ? QString::number(e.holder.pid) : QString();
    case Token:
        return e.holder.structured ? e.holder.token : QString();
    case TakenAt:
        return r.takenAt ? formatInstant(*r.takenAt) : QStringLiteral("—");
    case HeldFor:
        return r.takenAt ? formatDuration(std::max(0.0, heldUntil(e, now) - *r.takenAt)) : QStringLiteral("—");
    case ExpiresIn: {
        const std::optional<double> expiry = liveExpiry(e);
        if (!expiry)
            return QStringLiteral("—");
        QString s = formatCountdown(*expiry - now);
        if (!live_)
            s += QStringLiteral(" (unverified)");
        return s;
    }
    case Scheme: {
        const LeaseTableConfig* t = tableOf(e);
        return t ? t->label() : QString();
    }
    case State: {
        const LeaseState st = classifyLease(e.track, now, policyOf(e));
        QString s = leaseStateText(st);
        if (st == LeaseState::TakenOver && !e.track.previousHolder.isEmpty())
            s += QStringLiteral(" from ") + printable(e.track.previousHolder);
        else if (st == LeaseState::Released && e.track.releasedAt)
            s += QLatin1Char(' ') + formatDuration(std::max(0.0, now - *e.track.releasedAt)) + QStringLiteral(" ago");
        else if (st == LeaseState::Free && r.expiresAt)
            s = QStringLiteral("free since %1").arg(formatDuration(std::max(0.0, now - *r.expiresAt)));
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
        return e.holder.structured && e.holder.pid > 0 ? e.holder.pid : -1;
    case TakenAt:
        return r.takenAt.value_or(-1e300);
    case HeldFor:
        return r.takenAt ? heldUntil(e, now) - *r.takenAt : -1e300;
    case ExpiresIn:
        return liveExpiry(e) ? *liveExpiry(e) - now : 1e300;
    case State:
        return leaseStateSeverity(classifyLease(e.track, now, policyOf(e)));
    case Scheme:
        return display(e, Scheme, now);
    default:
        return sortText(e, column).toString();
    }
}

QStringView LeaseModel::sortText(const Entry& e, int column)
{
    // The raw values: display() only masks control characters (and cuts very long texts).
    const LeaseRow& r = e.track.row;
    switch (column) {
    case Name:
        return r.name;
    case Host:
        if (!r.holder)
            return u"(no holder)";
        return e.holder.structured ? QStringView(e.holder.host) : QStringView(*r.holder);
    case Token:
        return e.holder.structured ? QStringView(e.holder.token) : QStringView();
    default:
        return {};
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
    auto expires = [](const Entry& e) { return liveExpiry(e).value_or(1e300); };
    auto pid = [](const Entry& e) { return e.holder.structured && e.holder.pid > 0 ? e.holder.pid : qint64(-1); };
    switch (column) {
    case Pid:
        return pid(a) < pid(b);
    case TakenAt:
        return taken(a) < taken(b);
    case ExpiresIn:
        return expires(a) < expires(b);
    default:
        return sortText(a, column).compare(sortText(b, column), cs) < 0;
    }
}

bool LeaseModel::lessThan(int left, int right, int column, Qt::CaseSensitivity cs) const
{
    const Entry& a = rows_[size_t(left)];
    const Entry& b = rows_[size_t(right)];
    if (clockFreeColumn(column))
        return lessClockFree(a, b, column, cs);
    switch (column) {
    case HeldFor: {
        if (!a.track.releasedAt && !b.track.releasedAt && !policyOf(a).expiryFrees &&
            !policyOf(b).expiryFrees) // both held: now cancels
            return (a.track.row.takenAt ? -*a.track.row.takenAt : -1e300) <
                   (b.track.row.takenAt ? -*b.track.row.takenAt : -1e300);
        // A released row's hold stopped at its release: the clock is needed (few rows, 30 s each).
        const double now = serverNowEstimate();
        auto held = [this, now](const Entry& e) {
            return e.track.row.takenAt ? heldUntil(e, now) - *e.track.row.takenAt : -1e300;
        };
        return held(a) < held(b);
    }
    case State: {
        const double now = serverNowEstimate();
        return leaseStateSeverity(stateAt(left, now)) < leaseStateSeverity(stateAt(right, now));
    }
    case Scheme: {
        const LeaseTableConfig* ta = tableOf(a);
        const LeaseTableConfig* tb = tableOf(b);
        return (ta ? ta->label() : QString()).compare(tb ? tb->label() : QString(), cs) < 0;
    }
    default:
        return false;
    }
}

bool LeaseModel::matchesFilter(int row, const QString& text, Qt::CaseSensitivity cs) const
{
    const LeaseRow& r = rows_[size_t(row)].track.row;
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
    const Entry& e = rows_[size_t(index.row())];
    const double now = serverNowEstimate();
    switch (role) {
    case Qt::DisplayRole:
        return display(e, index.column(), now);
    case SortRole:
        return sortValue(e, index.column(), now);
    case StateRole:
        return int(classifyLease(e.track, now, policyOf(e)));
    case FilterRole:
        return e.track.row.name + QLatin1Char(' ') + e.track.row.holder.value_or(QString());
    case SecondsLeftRole:
        return liveExpiry(e) ? QVariant(*liveExpiry(e) - now) : QVariant();
    case KeyRole:
        return e.key;
    case Qt::ToolTipRole:
        if (index.column() == Host || index.column() == Name)
            return e.track.row.holder
                       ? QStringLiteral("%1\nholder: %2").arg(e.track.row.name, *e.track.row.holder)
                       : e.track.row.name;
        if (index.column() == State) {
            const LeaseState st = classifyLease(e.track, now, policyOf(e));
            QString tip = leaseStateText(st);
            if (const LeaseTableConfig* t = tableOf(e); t && st == LeaseState::Stale && !t->staleMeaning.isEmpty())
                tip += QStringLiteral(" (%1): %2").arg(t->label(), t->staleMeaning);
            if (const auto since = secondsSinceRenewal(e.track, now))
                tip += QStringLiteral("\nlast renewal seen: %1 ago").arg(formatDuration(*since));
            if (e.track.ttl)
                tip +=
                    QStringLiteral("\nTTL (%1): %2")
                        .arg(e.track.ttlExact ? QStringLiteral("from the take") : QStringLiteral("inferred"),
                             formatDuration(*e.track.ttl));
            if (e.track.releasedAt) {
                tip += QStringLiteral("\nrow gone from the table, seen at %1").arg(formatInstant(*e.track.releasedAt));
                if (e.track.row.expiresAt)
                    tip += QStringLiteral("; its expiry was %1").arg(formatInstant(*e.track.row.expiresAt));
            }
            if (const double skew = writerSkewAt(index.row()); skew > 0)
                tip += QStringLiteral("\nthe writer's clock runs at least %1 ahead of the server's").arg(formatDuration(skew));
            else if (skew < 0)
                tip += QStringLiteral("\nthe writer's clock runs at least %1 behind the server's: its leases look "
                                      "expired that much early")
                           .arg(formatDuration(-skew));
            return tip;
        }
        return {};
    case Qt::ForegroundRole: {
        const LeaseState st = classifyLease(e.track, now, policyOf(e));
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
    static const char* names[] = {"Lease",    "Holder host", "PID",     "Token", "Taken at",
                                  "Held for", "Expires",     "State",   "Scheme"};
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
        const auto st = qint8(brief_[size_t(i)].when.at(now));
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

void LeaseModel::applySnapshot(const Snapshot& s)
{
    finishFill();
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
    tableProblem_ = s.leasesError     ? s.leasesError->toDisplayString()
                    : s.leasesPartial ? s.leasesPartial->toDisplayString()
                                      : QString(); // said by summaryChanged()
    tableNote_ = s.leasesAbsent;
    // Each table's scheme decides what an expired row means (ShedLock: free) and whether renewals
    // are expected; a detected table brings its rules with it.
    // Rows new to this refresh were taken since the previous one only if that one read the same
    // tables on the same connection; otherwise they merely became visible (a table found, a GRANT,
    // a reconfigure) and are first sightings: no take time, no writer clock to infer from them.
    bool continuous = !first && s.generation == lastGen_ && lastReadAll_;
    if (s.leaseTables && (!rules_.tables || *rules_.tables != *s.leaseTables)) {
        applyTables(s.leaseTables);
        continuous = false;
    }
    lastReadAll_ = !s.leasesError && !s.leasesPartial;
    tablesFound_ = s.leasesFound;
    if (s.leasesError) {
        // The table is unreadable this time: keep the rows, but they are not current.
        live_ = false;
        deltaSource_ = 0;
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        Q_EMIT summaryChanged();
        return;
    }

    if (fillInBackground_ && rows_.empty() && s.leases.size() >= kBackgroundFillRows) {
        startFill(s, continuous ? Sighting::NewRow : Sighting::FirstRefresh);
        deltaSource_ = s.leaseDelta ? s.leaseDelta->source : 0;
        lastSeq_ = s.seq;
        lastGen_ = s.generation;
        Q_EMIT summaryChanged();
        return;
    }

    Update u;
    u.minChanged = int(rows_.size());
    const LeaseDelta* d = s.leaseDelta.get();
    const bool incremental = !first && d && d->baseSeq != 0 && d->source == deltaSource_ &&
                             d->baseSeq == lastSeq_ && s.generation == lastGen_ &&
                             d->baseSize == snapRow_.size() && applyDelta(s, *d, u);
    if (!incremental)
        applyFull(s, !continuous, u);
    deltaSource_ = d ? d->source : 0;
    lastSeq_ = s.seq;
    lastGen_ = s.generation;

    if (u.maxChanged >= u.minChanged)
        Q_EMIT dataChanged(index(u.minChanged, 0), index(u.maxChanged, ColumnCount - 1));

    // Rows gone from the table for longer than the linger: removed, bottom up, one signal per
    // contiguous range. Only released rows qualify: no scan while there are none.
    std::vector<int> toRemove;
    if (releasedCount_ > 0)
        for (int i = 0; i < int(rows_.size()); ++i) {
            const auto& rel = rows_[size_t(i)].track.releasedAt;
            if (rel && s.serverNow - *rel > rules_.policy.releasedLingerS)
                toRemove.push_back(i);
        }
    for (int j = int(toRemove.size()) - 1; j >= 0;) {
        int last = toRemove[size_t(j)], firstRow = last;
        while (j > 0 && toRemove[size_t(j - 1)] == firstRow - 1)
            firstRow = toRemove[size_t(--j)];
        --j;
        beginRemoveRows({}, firstRow, last);
        rows_.erase(rows_.begin() + firstRow, rows_.begin() + last + 1);
        brief_.erase(brief_.begin() + firstRow, brief_.begin() + last + 1);
        staleFrom_.erase(staleFrom_.begin() + firstRow, staleFrom_.begin() + last + 1);
        endRemoveRows();
    }
    if (!toRemove.empty()) {
        releasedCount_ -= int(toRemove.size());
        // Snapshot rows → model rows, past the removed ones.
        std::vector<int> shift(rows_.size() + toRemove.size(), 0);
        for (size_t k = 0, removed = 0; k < shift.size(); ++k) {
            if (removed < toRemove.size() && toRemove[removed] == int(k)) {
                ++removed;
                shift[k] = -1;
            } else {
                shift[k] = int(k - removed);
            }
        }
        for (int& r : snapRow_)
            if (r >= 0)
                r = shift[size_t(r)];
        rebuildIndex();
    }

    if (!u.added.empty()) {
        const int start = int(rows_.size());
        rows_.reserve(rows_.size() + u.added.size());
        brief_.reserve(rows_.capacity());
        staleFrom_.reserve(rows_.capacity());
        for (int& r : snapRow_)
            if (r < 0)
                r = start + (-r - 1); // the n-th added row
        beginInsertRows({}, start, start + int(u.added.size()) - 1);
        for (Entry& e : u.added) {
            index_.insert(e.key, int(rows_.size()));
            brief_.push_back(briefOf(e));
            staleFrom_.push_back(staleFrom(brief_.back()));
            rows_.push_back(std::move(e));
        }
        endInsertRows();
    }
    Q_EMIT summaryChanged();
}

void LeaseModel::observeExisting(int i, const LeaseRow& row, Update& u)
{
    Entry& e = rows_[size_t(i)];
    const bool wasReleased = e.track.releasedAt.has_value();
    if (wasReleased)
        --releasedCount_;
    const bool holderChanged = e.track.row.holder != row.holder;
    const bool same = !wasReleased && e.track.row == row;
    observeLease(e.track, row, serverNow_, prevServerNow_, Sighting::Existing);
    retime(i);
    if (!same) {
        if (holderChanged)
            e.holder = holderOf(row);
        u.minChanged = std::min(u.minChanged, i);
        u.maxChanged = std::max(u.maxChanged, i);
    }
}

void LeaseModel::observeGone(int i, Update& u)
{
    Entry& e = rows_[size_t(i)];
    if (e.track.releasedAt)
        return;
    observeMissing(e.track, serverNow_);
    retime(i);
    ++releasedCount_;
    u.minChanged = std::min(u.minChanged, i);
    u.maxChanged = std::max(u.maxChanged, i);
}

bool LeaseModel::applyDelta(const Snapshot& s, const LeaseDelta& d, Update& u)
{
    // New names first, before anything changes: a name the model shows as a live row (not
    // released) cannot be new; if it is, fall back to comparing every row.
    for (size_t k = d.appendedFrom; k < s.leases.size(); ++k) {
        const int i = index_.value(keyOf(s.leases[k]), -1);
        if (i >= 0 && !rows_[size_t(i)].track.releasedAt)
            return false;
    }
    for (const auto& [hole, from] : d.moves) {
        if (from != int(snapRow_.size()) - 1 || hole > from)
            return false; // not the poller's swap-remove: cannot happen, but never guess
        observeGone(snapRow_[size_t(hole)], u);
        snapRow_[size_t(hole)] = snapRow_[size_t(from)];
        snapRow_.pop_back();
    }
    for (int k : d.changed)
        observeExisting(snapRow_[size_t(k)], s.leases[size_t(k)], u);
    for (size_t k = d.appendedFrom; k < s.leases.size(); ++k) {
        const LeaseRow& row = s.leases[k];
        const QString key = keyOf(row);
        const int i = index_.value(key, -1);
        if (i >= 0) { // released earlier, back now
            observeExisting(i, row, u);
            snapRow_.push_back(i);
            continue;
        }
        addEntry(key, row, Sighting::NewRow, u);
    }
    return true;
}

void LeaseModel::addEntry(const QString& key, const LeaseRow& row, Sighting sighting, Update& u)
{
    Entry e;
    e.key = key;
    observeLease(e.track, row, serverNow_, prevServerNow_, sighting);
    e.holder = holderOf(row);
    u.added.push_back(std::move(e));
    snapRow_.push_back(-int(u.added.size())); // resolved once the added rows have their place
}

void LeaseModel::applyFull(const Snapshot& s, bool first, Update& u)
{
    std::vector<char> seen(rows_.size(), 0);
    snapRow_.clear();
    snapRow_.reserve(s.leases.size());
    // Keys are unique per snapshot: the n-th row with the same name (a mapped column that is not
    // unique) gets name + U+0001 + n, which no sane lease name contains.
    // Only names met twice in this snapshot pay for a counter; the common case is one lookup.
    QHash<QString, int> duplicates;
    QSet<QString> addedKeys;
    auto used = [&](const QString& k) {
        const auto it = index_.constFind(k);
        return (it != index_.constEnd() && seen[size_t(*it)]) || addedKeys.contains(k);
    };
    for (const LeaseRow& row : s.leases) {
        const QString base = keyOf(row);
        QString key = base;
        if (used(key)) {
            int& n = duplicates[base];
            n = std::max(n, 1);
            do
                key = base + QChar(1) + QString::number(++n);
            while (used(key));
        }
        const auto it = index_.constFind(key);
        if (it == index_.constEnd()) {
            addedKeys.insert(key);
            addEntry(key, row, first ? Sighting::FirstRefresh : Sighting::NewRow, u);
            continue;
        }
        const int i = *it;
        seen[size_t(i)] = 1;
        snapRow_.push_back(i);
        observeExisting(i, row, u);
    }
    // Rows gone from the table: released (kept greyed for a while), then removed.
    for (int i = 0; i < int(rows_.size()); ++i)
        if (!seen[size_t(i)])
            observeGone(i, u);
}

void LeaseModel::prepareFill(Fill& f, const LeaseRows& leases, const Rules& rules, Sighting sighting, double now,
                             double prevNow, FillOrder order, const std::stop_token& stop)
{
    // What applyFull does for an empty model, on a copy of the rules: every row new, keys made
    // unique per snapshot the same way (the n-th row with one name gets name + U+0001 + n).
    const size_t n = leases.size();
    std::vector<Entry> made(n);
    QHash<QString, int> index; // key -> snapshot row, for now
    index.reserve(qsizetype(n));
    QHash<QString, int> duplicates;
    for (size_t k = 0; k < n; ++k) {
        if ((k & 4095) == 0 && stop.stop_requested())
            return;
        const LeaseRow& row = leases[k];
        const QString base = rules.keyOf(row);
        QString key = base;
        if (index.contains(key)) {
            int& c = duplicates[base];
            c = std::max(c, 1);
            do
                key = base + QChar(1) + QString::number(++c);
            while (index.contains(key));
        }
        index.insert(key, int(k));
        Entry& e = made[k];
        e.key = key;
        observeLease(e.track, row, now, prevNow, sighting);
        e.holder = rules.holderOf(row);
    }
    // In the sorted view's order (stable, as the view's own sort), so that each slice inserted
    // lands at its end; a column that needs the clock stays in the table's order.
    std::vector<int> order_(n);
    std::iota(order_.begin(), order_.end(), 0);
    if (clockFreeColumn(order.column)) {
        const bool desc = order.order == Qt::DescendingOrder;
        std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
            return desc ? lessClockFree(made[size_t(b)], made[size_t(a)], order.column, order.cs)
                        : lessClockFree(made[size_t(a)], made[size_t(b)], order.column, order.cs);
        });
    }
    if (stop.stop_requested())
        return;
    f.rows.reserve(n);
    f.brief.reserve(n);
    f.snapRow.assign(n, -1);
    for (size_t i = 0; i < n; ++i) {
        const int k = order_[i];
        f.snapRow[size_t(k)] = int(i);
        f.rows.push_back(std::move(made[size_t(k)]));
        f.brief.push_back(rules.briefOf(f.rows.back()));
    }
    for (auto it = index.begin(); it != index.end(); ++it)
        it.value() = f.snapRow[size_t(it.value())];
    f.index = std::move(index);
}

void LeaseModel::startFill(const Snapshot& s, Sighting sighting)
{
    fill_ = std::make_unique<Fill>();
    fill_->rulesVersion = rulesVersion_;
    filling_ = true;
    fillRows_ = int(s.leases.size());
    QPointer<LeaseModel> self(this);
    fillThread_ = std::jthread([self, f = fill_.get(), leases = s.leases, rules = rules_, sighting, now = serverNow_,
                                prevNow = prevServerNow_, order = fillOrder_](std::stop_token stop) {
        prepareFill(*f, leases, rules, sighting, now, prevNow, order, stop);
        if (!stop.stop_requested())
            // Posted to the model's thread; a model gone by then took the event with it (its
            // destructor asked this thread to stop and joined it first).
            QMetaObject::invokeMethod(self.data(), &LeaseModel::takeFill, Qt::QueuedConnection);
    });
}

void LeaseModel::takeFill()
{
    if (!filling_)
        return; // finishFill() took it already
    if (fillThread_.joinable())
        fillThread_.join(); // it has posted this call: it is done, or about to return
    filling_ = false;
    Fill f = std::move(*fill_);
    fill_.reset();
    rows_ = std::move(f.rows);
    brief_ = std::move(f.brief);
    snapRow_ = std::move(f.snapRow);
    index_ = std::move(f.index);
    staleFrom_.resize(brief_.size());
    for (size_t i = 0; i < brief_.size(); ++i)
        staleFrom_[i] = staleFrom(brief_[i]);
    if (f.rulesVersion != rulesVersion_) // the policy or the tables changed while it was prepared
        for (int i = 0; i < int(rows_.size()); ++i)
            retime(i);
    hidden_ = int(rows_.size());
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

void LeaseModel::finishFill()
{
    if (filling_)
        takeFill(); // waits for the worker; the takeFill() it posts then finds nothing to do
    if (hidden_ > 0) {
        beginInsertRows({}, rowCount(), int(rows_.size()) - 1);
        hidden_ = 0;
        endInsertRows();
        Q_EMIT filled();
    }
}

} // namespace lw
