#include "LeaseReplay.h"

#include "domain/LeaseState.h"

#include <atomic>
#include <cmath>
#include <limits>

namespace lw {

using history::ChangeKind;
using history::leaseSourceOfKey;

// The renewals the next row counted, replayed one by one evenly between its first and last.
bool LeaseReplay::Lease::interpolates() const
{
    return next && next->kind == ChangeKind::Renew && next->renewals > 0 && next->holder == row->holder &&
           next->expiresAt && row->expiresAt;
}

// Nothing written after this renewal yet (the recorder is counting the next ones, or was
// stopped without closing): the writer writes a row whenever the state changes, so a lease
// renewing and still held at its last row went on renewing on schedule, every `period()`.
bool LeaseReplay::Lease::extrapolates() const
{
    return !next && tailRenewing && row->kind == ChangeKind::Renew && isHeld(row->state) && expectRenewals &&
           row->expiresAt && period() > 0;
}

double LeaseReplay::Lease::period() const
{
    if (row->renewals > 1 && row->lastRenewalAt > row->firstRenewalAt)
        return (row->lastRenewalAt - row->firstRenewalAt) / (row->renewals - 1);
    return renewShare * (*row->expiresAt - row->lastRenewalAt); // renewed just then: a TTL left
}

// Renewals of the next row replayed by t (interpolation).
int LeaseReplay::Lease::replayedBy(double t) const
{
    const int n = next->renewals;
    if (t < next->firstRenewalAt)
        return 0;
    const double span = next->lastRenewalAt - next->firstRenewalAt;
    if (n == 1 || span <= 0 || t >= next->lastRenewalAt)
        return n;
    return std::min(n, 1 + int(std::floor((t - next->firstRenewalAt) / (span / (n - 1)))));
}

std::optional<double> LeaseReplay::Lease::expiresAt(double t) const
{
    const std::optional<double> e0 = row->expiresAt;
    if (interpolates())
        return *e0 + (*next->expiresAt - *e0) * replayedBy(t) / next->renewals;
    if (extrapolates() && t > row->lastRenewalAt)
        return *e0 + period() * std::floor((t - row->lastRenewalAt) / period());
    return e0;
}

// When expiresAt() next changes after t (infinity: not before the lease's next row).
double LeaseReplay::Lease::nextChange(double t) const
{
    constexpr double never = std::numeric_limits<double>::infinity();
    if (interpolates()) {
        const int i = replayedBy(t), n = next->renewals;
        if (i >= n)
            return never;
        if (n == 1 || next->lastRenewalAt <= next->firstRenewalAt)
            return next->firstRenewalAt;
        return next->firstRenewalAt + i * (next->lastRenewalAt - next->firstRenewalAt) / (n - 1);
    }
    if (extrapolates())
        return row->lastRenewalAt + period() * (std::floor(std::max(0.0, t - row->lastRenewalAt) / period()) + 1);
    return never;
}

LeaseReplay::LeaseReplay(RecordedLeases recorded, std::shared_ptr<const std::vector<LeaseTableConfig>> tables,
                         LeasePolicy policy, bool tailRenewing)
    : rec_(std::move(recorded)), tables_(std::move(tables)), policy_(std::move(policy)), tailRenewing_(tailRenewing)
{
    static std::atomic<quint64> replaySources{0};
    source_ = (quint64(1) << 63) | ++replaySources; // never a poller's
    // Each row's successor: the next change of the same lease in the range, else its first row
    // after the range.
    for (const LeaseChangeRow& a : rec_.after)
        aheadOf_.insert(a.key, &a);
    nextOf_.assign(rec_.changes.size(), nullptr);
    QHash<QString, const LeaseChangeRow*> firstOf;
    for (size_t i = rec_.changes.size(); i-- > 0;) {
        auto& slot = firstOf[rec_.changes[i].key];
        nextOf_[i] = slot;
        slot = &rec_.changes[i];
    }
    for (auto it = rec_.base.cbegin(); it != rec_.base.cend(); ++it) {
        Lease l;
        l.row = &*it;
        l.next = firstOf.value(it.key(), aheadOf_.value(it.key()));
        setUp(it.key(), l);
        leases_.emplace(it.key(), l);
    }
}

void LeaseReplay::setUp(const QString& key, Lease& l)
{
    // Its table's rules: whether and how often its scheme renews (the recorded policy under them).
    const int src = tables_ ? leaseSourceOfKey(key, *tables_) : -1;
    const LeaseTableConfig* table = src >= 0 && src < int(tables_->size()) ? &(*tables_)[size_t(src)] : nullptr;
    l.expectRenewals = !table || table->expectRenewals;
    l.renewShare = table ? policyForTable(policy_, *table).renewShare : policy_.renewShare;
    l.tailRenewing = tailRenewing_;
    l.version = ++versions_;
}

void LeaseReplay::schedule(const QString& key, const Lease& l, double t)
{
    const double at = l.nextChange(t);
    if (std::isfinite(at))
        due_.push({at, l.version, key});
}

LeaseRow LeaseReplay::rowAt(const QString& key, const Lease& l, double t) const
{
    LeaseRow row;
    row.name = l.row->name;
    row.holder = l.row->holder;
    row.takenAt = l.row->takenAt;
    row.expiresAt = l.expiresAt(t);
    if (tables_)
        row.source = leaseSourceOfKey(key, *tables_);
    return row;
}

void LeaseReplay::advanceTo(qint64 refreshId)
{
    for (; nextChange_ < rec_.changes.size() && rec_.changes[nextChange_].refreshId <= refreshId; ++nextChange_) {
        const LeaseChangeRow& ch = rec_.changes[nextChange_];
        touched_.insert(ch.key);
        if (ch.kind == ChangeKind::Release) {
            leases_.erase(ch.key); // its slot goes at the next fill
            continue;
        }
        Lease& l = leases_[ch.key];
        l.row = &ch;
        l.next = nextOf_[nextChange_] ? nextOf_[nextChange_] : aheadOf_.value(ch.key);
        setUp(ch.key, l);
    }
}

void LeaseReplay::fill(double at, Snapshot& s)
{
    auto d = std::make_shared<LeaseDelta>();
    d->source = source_;
    if (lastSeq_ == 0) {
        fillFirst(at); // no base: the tracker compares every row
    } else {
        d->baseSeq = lastSeq_;
        fillNext(at, *d);
    }
    touched_.clear();
    s.leases = rows_;
    s.leaseDelta = std::move(d);
    lastSeq_ = s.seq;
}

void LeaseReplay::fillFirst(double at)
{
    for (auto& [key, l] : leases_) {
        slotOf_.insert(key, int(nodes_.size()));
        nodes_.push_back(&l);
        keys_.push_back(key);
        rows_.push_back(rowAt(key, l, at));
        schedule(key, l, at);
    }
}

void LeaseReplay::fillNext(double at, LeaseDelta& d)
{
    QStringList added, look;
    for (const QString& key : std::as_const(touched_)) {
        const auto live = leases_.find(key);
        const auto slot = slotOf_.constFind(key);
        if (live == leases_.end() && slot != slotOf_.constEnd()) {
            // Gone: the last slot moves into its hole.
            const int hole = *slot, from = int(rows_.size()) - 1;
            d.gone.push_back(rows_[size_t(hole)]);
            slotOf_.remove(key);
            if (hole != from) {
                rows_[size_t(hole)] = rows_[size_t(from)];
                nodes_[size_t(hole)] = nodes_[size_t(from)];
                keys_[size_t(hole)] = keys_[size_t(from)];
                slotOf_.insert(keys_[size_t(hole)], hole);
            }
            rows_.pop_back();
            nodes_.pop_back();
            keys_.pop_back();
        } else if (live != leases_.end() && slot == slotOf_.constEnd()) {
            added << key;
        } else if (live != leases_.end()) {
            nodes_[size_t(*slot)] = &live->second; // released and taken again: a new node
            look << key;
        }
    }
    // The replayed renewals due by now.
    while (!due_.empty() && due_.top().at <= at) {
        const Due e = due_.top();
        due_.pop();
        const auto live = leases_.find(e.key);
        if (live != leases_.end() && live->second.version == e.version && slotOf_.contains(e.key))
            look << e.key;
    }
    std::sort(look.begin(), look.end());
    look.erase(std::unique(look.begin(), look.end()), look.end());
    for (const QString& key : std::as_const(look)) {
        const int i = slotOf_.value(key);
        const Lease& l = *nodes_[size_t(i)];
        const LeaseRow now = rowAt(key, l, at);
        if (!(now == rows_[size_t(i)])) {
            rows_[size_t(i)] = now;
            d.changed.push_back(i);
        }
        schedule(key, l, at);
    }
    std::sort(d.changed.begin(), d.changed.end());
    added.sort();
    for (const QString& key : std::as_const(added)) {
        Lease& l = leases_.find(key)->second;
        d.added.push_back(int(rows_.size()));
        slotOf_.insert(key, int(nodes_.size()));
        nodes_.push_back(&l);
        keys_.push_back(key);
        rows_.push_back(rowAt(key, l, at));
        schedule(key, l, at);
    }
}

} // namespace lw
