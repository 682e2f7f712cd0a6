#include "LeaseTracker.h"
#include "Words.h"
#include "domain/UtcTime.h"

#include "Wording.h"

#include <QDateTime>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lw {

namespace {
QString formatInstant(double epoch)
{
    if (!std::isfinite(epoch) || std::abs(epoch) > 1e13)
        return QStringLiteral("(out of range)");
    return utcFromMSecs(qint64(epoch * 1000.0))
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

LeaseTracker::LeaseTracker(MonotonicClock clock) : clock_(std::move(clock)) {}

double LeaseTracker::serverNowEstimate() const
{
    if (!haveSnapshot_)
        return 0;
    return serverNow_ + double(clock_() - receivedMs_) / 1000.0;
}

double LeaseTracker::dataAgeSeconds() const
{
    return haveSnapshot_ ? double(clock_() - receivedMs_) / 1000.0 : 0.0;
}

void LeaseTracker::setPolicy(const LeasePolicy& p)
{
    rules_.policy = p;
    applyTables(rules_.tables);
}

void LeaseTracker::setWriterUsesAppClock(bool on)
{
    rules_.writerClockCheck = on;
    applyTables(rules_.tables);
}

void LeaseTracker::applyTables(std::shared_ptr<const std::vector<LeaseTableConfig>> tables)
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

const std::vector<LeaseTableConfig>& LeaseTracker::tables() const
{
    static const std::vector<LeaseTableConfig> none;
    return rules_.tables ? *rules_.tables : none;
}

const LeaseTableConfig* LeaseTracker::tableAt(int row) const
{
    return tableOf(rows_[size_t(row)]);
}

const LeasePolicy& LeaseTracker::policyAt(int row) const
{
    return policyOf(rows_[size_t(row)]);
}

std::vector<int> LeaseTracker::rowsNamed(const QString& name) const
{
    std::vector<int> out;
    if (const int r = rowOfKey(name); r >= 0)
        out.push_back(r);
    for (int i = 0; i < int(rows_.size()); ++i)
        if (rows_[size_t(i)].track.row.name == name && rows_[size_t(i)].key != name)
            out.push_back(i);
    return out;
}

const LeaseTableConfig* LeaseTracker::Rules::tableFor(const LeaseRow& r) const
{
    return tables && r.source >= 0 && size_t(r.source) < tables->size() ? &(*tables)[size_t(r.source)] : nullptr;
}

QString LeaseTracker::Rules::keyOf(const LeaseRow& r) const
{
    // The first table's rows by name; another table's name with its table: names are unique per
    // table, not across them (a ShedLock job and a lease may share one).
    const LeaseTableConfig* t = r.source == 0 ? nullptr : tableFor(r);
    return t ? r.name + QChar(2) + t->qualifiedName() : r.name;
}

HolderParts LeaseTracker::Rules::holderOf(const LeaseRow& r) const
{
    const LeaseTableConfig* t = tableFor(r);
    return splitHolder(r.holder.value_or(QString()), t ? t->holderFormat : LeaseTableConfig::HolderFormat::HostPidToken);
}

LeaseTracker::Brief LeaseTracker::Rules::briefOf(const Entry& e) const
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

std::array<int, kLeaseStateCount> LeaseTracker::stateCounts(double now) const
{
    std::array<int, kLeaseStateCount> counts{};
    for (const Brief& b : brief_)
        ++counts[size_t(b.when.at(now))];
    return counts;
}

std::vector<LeaseTableMetrics> LeaseTracker::tableMetrics(double now) const
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

std::vector<int> LeaseTracker::rowsStaleOrSkewed(double now) const
{
    std::vector<int> out;
    for (size_t i = 0; i < staleFrom_.size(); ++i)
        if (now >= staleFrom_[i] || brief_[i].skew != 0 || brief_[i].takenAt > serverNow_ + 1.0)
            out.push_back(int(i));
    return out;
}

double LeaseTracker::writerSkewAt(int row) const
{
    const Brief& b = brief_[size_t(row)];
    if (b.skew != 0)
        return b.skew;
    // One second of slack: the writer's statement and our refresh are not the same instant.
    return b.takenAt > serverNow_ + 1.0 ? b.takenAt - serverNow_ : 0.0;
}

double LeaseTracker::heldUntil(int row, double now) const
{
    const Entry& e = rows_[size_t(row)];
    if (e.track.releasedAt)
        return *e.track.releasedAt;
    if (policyOf(e).expiryFrees && e.track.row.expiresAt && *e.track.row.expiresAt < now)
        return *e.track.row.expiresAt;
    return now;
}

QString LeaseTracker::cellText(int row, int column, double now, bool live) const
{
    const Entry& e = rows_[size_t(row)];
    const LeaseRow& r = e.track.row;
    switch (column) {
    case LeaseColumns::Name:
        return printable(r.name);
    case LeaseColumns::Host:
        if (!r.holder)
            return TableWords::tr("(no holder)");
        return printable(e.holder.structured ? e.holder.host : *r.holder);
    case LeaseColumns::Pid:
        return e.holder.structured && e.holder.pid > 0 ? QString::number(e.holder.pid) : QString();
    case LeaseColumns::Token:
        return e.holder.structured ? e.holder.token : QString();
    case LeaseColumns::TakenAt:
        return r.takenAt ? formatInstant(*r.takenAt) : QStringLiteral("—");
    case LeaseColumns::HeldFor:
        return r.takenAt ? formatDuration(std::max(0.0, heldUntil(row, now) - *r.takenAt)) : QStringLiteral("—");
    case LeaseColumns::ExpiresIn: {
        const std::optional<double> expiry = liveExpiry(e);
        if (!expiry)
            return QStringLiteral("—");
        QString s = formatCountdown(*expiry - now);
        if (!live)
            s += TableWords::tr(" (unverified)");
        return s;
    }
    case LeaseColumns::Scheme: {
        const LeaseTableConfig* t = tableOf(e);
        return t ? t->label() : QString();
    }
    case LeaseColumns::State: {
        const LeaseState st = stateAt(row, now);
        QString s = leaseStateText(st);
        if (st == LeaseState::TakenOver && !e.track.previousHolder.isEmpty())
            s = TableWords::tr("%1 from %2").arg(s, printable(e.track.previousHolder));
        else if (st == LeaseState::Released && e.track.releasedAt)
            s = TableWords::tr("%1 %2 ago").arg(s, formatDuration(std::max(0.0, now - *e.track.releasedAt)));
        else if (st == LeaseState::Free && r.expiresAt)
            s = TableWords::tr("free since %1").arg(formatDuration(std::max(0.0, now - *r.expiresAt)));
        return s;
    }
    default:
        return {};
    }
}

QString LeaseTracker::stateTip(int row, double now) const
{
    const Entry& e = rows_[size_t(row)];
    {
        const LeaseState st = stateAt(row, now);
        QString tip = leaseStateText(st);
        if (const LeaseTableConfig* t = tableOf(e); t && st == LeaseState::Stale && !t->staleMeaning.isEmpty())
            tip += QStringLiteral(" (%1): %2").arg(t->label(), libraryWords(t->staleMeaning));
        if (const auto since = secondsSinceRenewal(e.track, now))
            tip += TableWords::tr("\nlast renewal seen: %1 ago").arg(formatDuration(*since));
        if (e.track.ttl)
            tip += TableWords::tr("\nTTL (%1): %2")
                       .arg(e.track.ttlExact ? TableWords::tr("from the take") : TableWords::tr("inferred"),
                            formatDuration(*e.track.ttl));
        if (e.track.releasedAt) {
            tip += TableWords::tr("\nrow gone from the table, seen at %1").arg(formatInstant(*e.track.releasedAt));
            if (e.track.row.expiresAt)
                tip += TableWords::tr("; its expiry was %1").arg(formatInstant(*e.track.row.expiresAt));
        }
        if (const double skew = writerSkewAt(row); skew > 0)
            tip += TableWords::tr("\nthe writer's clock runs at least %1 ahead of the server's").arg(formatDuration(skew));
        else if (skew < 0)
            tip += TableWords::tr("\nthe writer's clock runs at least %1 behind the server's: its leases look "
                                  "expired that much early")
                       .arg(formatDuration(-skew));
        return tip;
    }
}

QString leaseColumnTitle(int column)
{
    static const char* names[] = {
        QT_TRANSLATE_NOOP("lw::Tables", "Lease"),    QT_TRANSLATE_NOOP("lw::Tables", "Holder host"),
        QT_TRANSLATE_NOOP("lw::Tables", "PID"),      QT_TRANSLATE_NOOP("lw::Tables", "Token"),
        QT_TRANSLATE_NOOP("lw::Tables", "Taken at"), QT_TRANSLATE_NOOP("lw::Tables", "Held for"),
        QT_TRANSLATE_NOOP("lw::Tables", "Expires"),  QT_TRANSLATE_NOOP("lw::Tables", "State"),
        QT_TRANSLATE_NOOP("lw::Tables", "Scheme")};
    return column >= 0 && column < LeaseColumns::ColumnCount ? TableWords::tr(names[column]) : QString();
}

QStringView LeaseTracker::sortText(const Entry& e, int column)
{
    const LeaseRow& r = e.track.row;
    switch (column) {
    case LeaseColumns::Name:
        return r.name;
    case LeaseColumns::Host:
        if (!r.holder)
            return u"(no holder)";
        return e.holder.structured ? QStringView(e.holder.host) : QStringView(*r.holder);
    case LeaseColumns::Token:
        return e.holder.structured ? QStringView(e.holder.token) : QStringView();
    default:
        return {};
    }
}

void LeaseTracker::rebuildIndex()
{
    index_.clear();
    index_.reserve(qsizetype(rows_.size()));
    for (int i = 0; i < int(rows_.size()); ++i)
        index_.insert(rows_[size_t(i)].key, i);
}

LeaseTracker::Begun LeaseTracker::begin(const Snapshot& s)
{
    Begun b;
    if (!s.ok)
        return b;
    prevServerNow_ = haveSnapshot_ ? serverNow_ : 0;
    serverNow_ = s.serverNow;
    receivedMs_ = s.receivedMonotonicMs ? s.receivedMonotonicMs : clock_();
    const bool first = !haveSnapshot_;
    haveSnapshot_ = true;
    tableProblem_ = s.leasesError     ? s.leasesError->toDisplayString()
                    : s.leasesPartial ? s.leasesPartial->toDisplayString()
                                      : QString();
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
    b.first = first;
    b.newRows = continuous ? Sighting::NewRow : Sighting::FirstRefresh;
    if (s.leasesError) {
        // The table is unreadable this time: keep the rows, but they are not current.
        deltaSource_ = 0;
        b.outcome = Outcome::Unreadable;
        return b;
    }
    b.outcome = Outcome::Rows;
    return b;
}

LeaseTracker::Outcome LeaseTracker::apply(const Snapshot& s, Listener* listener)
{
    const Begun b = begin(s);
    if (b.outcome == Outcome::Rows)
        applyRows(s, b, listener);
    return b.outcome;
}

void LeaseTracker::skipRows(const Snapshot& s)
{
    deltaSource_ = s.leaseDelta ? s.leaseDelta->source : 0;
    lastSeq_ = s.seq;
    lastGen_ = s.generation;
}

void LeaseTracker::applyRows(const Snapshot& s, const Begun& b, Listener* listener)
{
    Update u;
    u.listener = listener;
    startApplied(serverNow_);
    const LeaseDelta* d = s.leaseDelta.get();
    const bool incremental = !b.first && d && d->baseSeq != 0 && d->source == deltaSource_ &&
                             d->baseSeq == lastSeq_ && s.generation == lastGen_ && applyDelta(s, *d, u);
    if (!incremental)
        applyFull(s, b.newRows, u);
    skipRows(s);

    // Rows gone from the table for longer than the linger: removed, bottom up, one step per
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
        if (listener)
            listener->aboutToRemove(firstRow, last);
        rows_.erase(rows_.begin() + firstRow, rows_.begin() + last + 1);
        brief_.erase(brief_.begin() + firstRow, brief_.begin() + last + 1);
        staleFrom_.erase(staleFrom_.begin() + firstRow, staleFrom_.begin() + last + 1);
        const int n = last - firstRow + 1;
        std::erase_if(lastChanges_, [&](const auto& c) { return c.first >= firstRow && c.first <= last; });
        for (auto& c : lastChanges_)
            if (c.first > last)
                c.first -= n;
        if (listener)
            listener->removed(firstRow, last);
    }
    if (!toRemove.empty()) {
        releasedCount_ -= int(toRemove.size());
        rebuildIndex();
    }

    if (!u.added.empty()) {
        const int start = int(rows_.size());
        const int last = start + int(u.added.size()) - 1;
        rows_.reserve(rows_.size() + u.added.size());
        brief_.reserve(rows_.capacity());
        staleFrom_.reserve(rows_.capacity());
        if (listener)
            listener->aboutToAppend(start, last);
        for (Entry& e : u.added) {
            index_.insert(e.key, int(rows_.size()));
            brief_.push_back(rules_.briefOf(e));
            staleFrom_.push_back(staleFrom(brief_.back()));
            rows_.push_back(std::move(e));
        }
        for (int i = start; i <= last; ++i)
            lastChanges_.emplace_back(i, u.addedAs[size_t(i - start)]);
        if (listener) {
            listener->appended(start, last);
            for (int i = start; i <= last; ++i)
                listener->observed(i, u.addedAs[size_t(i - start)]);
        }
    }
}

void LeaseTracker::observeExisting(int i, const LeaseRow& row, Update& u)
{
    Entry& e = rows_[size_t(i)];
    const bool wasReleased = e.track.releasedAt.has_value();
    if (wasReleased)
        --releasedCount_;
    const bool holderChanged = e.track.row.holder != row.holder;
    const bool same = !wasReleased && e.track.row == row;
    const LeaseChange change = observeLease(e.track, row, serverNow_, prevServerNow_, Sighting::Existing);
    retime(i);
    if (!same) {
        if (holderChanged)
            e.holder = rules_.holderOf(row);
        lastChanges_.emplace_back(i, change);
        if (u.listener)
            u.listener->observed(i, change);
    }
}

void LeaseTracker::observeGone(int i, Update& u)
{
    Entry& e = rows_[size_t(i)];
    if (e.track.releasedAt)
        return;
    observeMissing(e.track, serverNow_);
    retime(i);
    ++releasedCount_;
    lastChanges_.emplace_back(i, LeaseChange::Release);
    if (u.listener)
        u.listener->observed(i, LeaseChange::Release);
}

bool LeaseTracker::applyDelta(const Snapshot& s, const LeaseDelta& d, Update& u)
{
    // Every key is checked before anything changes: a gone or changed key must be a row here, and
    // a new one must not be a live row; else (it cannot happen, but never guess) every row is
    // compared instead.
    std::vector<int> gone, changed;
    gone.reserve(d.gone.size());
    changed.reserve(d.changed.size());
    for (const LeaseRow& row : d.gone) {
        const int i = index_.value(rules_.keyOf(row), -1);
        if (i < 0)
            return false;
        gone.push_back(i);
    }
    for (int k : d.changed) {
        const int i = index_.value(rules_.keyOf(s.leases[size_t(k)]), -1);
        if (i < 0 || rows_[size_t(i)].track.releasedAt)
            return false;
        changed.push_back(i);
    }
    std::vector<QString> addedKeys;
    addedKeys.reserve(d.added.size());
    for (int k : d.added) {
        addedKeys.push_back(rules_.keyOf(s.leases[size_t(k)]));
        const int i = index_.value(addedKeys.back(), -1);
        if (i >= 0 && !rows_[size_t(i)].track.releasedAt)
            return false;
    }
    for (int i : gone)
        observeGone(i, u);
    for (size_t n = 0; n < changed.size(); ++n)
        observeExisting(changed[n], s.leases[size_t(d.changed[n])], u);
    for (size_t n = 0; n < addedKeys.size(); ++n) {
        const LeaseRow& row = s.leases[size_t(d.added[n])];
        const int i = index_.value(addedKeys[n], -1);
        if (i >= 0) // released earlier, back now
            observeExisting(i, row, u);
        else
            addEntry(addedKeys[n], row, Sighting::NewRow, u);
    }
    return true;
}

void LeaseTracker::addEntry(const QString& key, const LeaseRow& row, Sighting sighting, Update& u)
{
    Entry e;
    e.key = key;
    u.addedAs.push_back(observeLease(e.track, row, serverNow_, prevServerNow_, sighting));
    e.holder = rules_.holderOf(row);
    u.added.push_back(std::move(e));
}

void LeaseTracker::applyFull(const Snapshot& s, Sighting newRows, Update& u)
{
    std::vector<char> seen(rows_.size(), 0);
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
        const QString base = rules_.keyOf(row);
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
            addEntry(key, row, newRows, u);
            continue;
        }
        const int i = *it;
        seen[size_t(i)] = 1;
        observeExisting(i, row, u);
    }
    // Rows gone from the table: released (kept a while), then removed.
    for (int i = 0; i < int(rows_.size()); ++i)
        if (!seen[size_t(i)])
            observeGone(i, u);
}

std::unique_ptr<LeaseTracker::Prepared> LeaseTracker::prepareFrom(const Snapshot& s, Sighting sighting) const
{
    auto p = std::make_unique<Prepared>();
    p->leases = s.leases;
    p->rules = rules_;
    p->sighting = sighting;
    p->now = serverNow_;
    p->prevNow = prevServerNow_;
    p->rulesVersion = rulesVersion_;
    return p;
}

void LeaseTracker::prepare(Prepared& f, const Order& order, const std::stop_token& stop)
{
    // What applyFull does for an empty tracker, on a copy of the rules: every row new, keys made
    // unique per snapshot the same way (the n-th row with one name gets name + U+0001 + n).
    const LeaseRows& leases = f.leases;
    const Rules& rules = f.rules;
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
        observeLease(e.track, row, f.now, f.prevNow, f.sighting);
        e.holder = rules.holderOf(row);
    }
    // In the view's order (stable, as the view's own sort), so that each slice a view inserts
    // lands at its end.
    std::vector<int> order_(n);
    std::iota(order_.begin(), order_.end(), 0);
    if (order)
        std::stable_sort(order_.begin(), order_.end(),
                         [&](int a, int b) { return order(made[size_t(a)], made[size_t(b)]); });
    if (stop.stop_requested())
        return;
    f.rows.reserve(n);
    f.brief.reserve(n);
    std::vector<int> rowOf(n, -1); // snapshot row → row
    for (size_t i = 0; i < n; ++i) {
        const int k = order_[i];
        rowOf[size_t(k)] = int(i);
        f.rows.push_back(std::move(made[size_t(k)]));
        f.brief.push_back(rules.briefOf(f.rows.back()));
    }
    for (auto it = index.begin(); it != index.end(); ++it)
        it.value() = rowOf[size_t(it.value())];
    f.index = std::move(index);
}

void LeaseTracker::adopt(Prepared&& f)
{
    rows_ = std::move(f.rows);
    brief_ = std::move(f.brief);
    index_ = std::move(f.index);
    releasedCount_ = 0;
    // A reader of lastChanges() sees it missed the rows' refresh (all of them are listed then), and
    // what each was: taken since the refresh before, or a first look.
    startApplied(f.now);
    if (f.sighting == Sighting::NewRow)
        for (int i = 0; i < int(rows_.size()); ++i)
            lastChanges_.emplace_back(i, LeaseChange::Take);
    staleFrom_.resize(brief_.size());
    for (size_t i = 0; i < brief_.size(); ++i)
        staleFrom_[i] = staleFrom(brief_[i]);
    if (f.rulesVersion != rulesVersion_) // the policy or the tables changed while it was prepared
        for (int i = 0; i < int(rows_.size()); ++i)
            retime(i);
}

} // namespace lw
