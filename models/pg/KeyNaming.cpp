#include "KeyNaming.h"
#include "domain/UtcTime.h"

#include "Cells.h"

#include <QDateTime>

#include <algorithm>

namespace lw {

namespace {
// A text[] literal for a bound parameter: {"a","b\"c"}.
QByteArray textArrayLiteral(const QStringList& items)
{
    QByteArray out = "{";
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (i)
            out += ',';
        out += '"';
        for (char c : items[i].toUtf8()) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

pg::Statement hashStatement(const QStringList& names)
{
    // hashtext() on the monitored server itself: it changed between versions and follows collation.
    // In the order sent: the names are the console's own strings (shared with the lease rows).
    return {"SELECT hashtext(n)::int8 FROM unnest($1::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i",
            {textArrayLiteral(names)}};
}
} // namespace

QStringList lockNameCandidates(const PollerConfig& cfg, const QStringList& leaseNames, double serverNow)
{
    QStringList names = leaseNames;
    const QDate today = utcFromMSecs(qint64(serverNow * 1000)).date();
    for (const QString& n : cfg.lockNames) {
        if (!n.contains(QLatin1Char('%'))) {
            names << n;
            continue;
        }
        for (int d = 0; d < std::max(1, cfg.patternDays); ++d) {
            const QDate day = today.addDays(-d);
            QString v = n;
            v.replace(QLatin1String("%Y"), day.toString(QStringLiteral("yyyy")));
            v.replace(QLatin1String("%m"), day.toString(QStringLiteral("MM")));
            v.replace(QLatin1String("%d"), day.toString(QStringLiteral("dd")));
            names << v;
        }
    }
    const QStringList base = names;
    for (const QString& prefix : cfg.lockNamePrefixes)
        for (const QString& n : base)
            names << prefix + n;
    names.removeDuplicates();
    return names;
}

void KeyNaming::reset()
{
    hashCache_.clear();
    queued_.clear(); // the next read of the leases queues every name again
    sent_.clear();
    refreshesSinceTrim_ = 0;
    goodJobNames_.clear();
    goodJobMissed_.clear();
    goodJobLookup_ = true;
    keyNames_ = std::make_shared<const KeyNames>();
    keyCollisions_ = std::make_shared<const KeyNames>();
}

std::optional<pg::Statement> KeyNaming::hashKnownNames()
{
    sent_ = lockNameCandidates(cfg_, {}, double(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
    if (sent_.isEmpty())
        return std::nullopt;
    return hashStatement(sent_);
}

std::optional<pg::Statement> KeyNaming::hashNewNames(double serverNow)
{
    constexpr qsizetype kMaxPerRefresh = 20000;
    sent_.clear();
    QSet<QString> pending;
    auto consider = [&](const QString& n) {
        if (sent_.size() < kMaxPerRefresh && !hashCache_.contains(n) && !pending.contains(n)) {
            pending.insert(n);
            sent_ << n;
        }
    };
    for (const QString& n : lockNameCandidates(cfg_, {}, serverNow))
        consider(n);
    qsizetype taken = 0;
    for (; taken < queued_.size() && sent_.size() < kMaxPerRefresh; ++taken) {
        consider(queued_[taken]);
        for (const QString& prefix : cfg_.lockNamePrefixes)
            consider(prefix + queued_[taken]);
    }
    queued_.remove(0, taken);
    if (queued_.isEmpty())
        queued_ = QStringList(); // a first read queues 100 000 names: its capacity is megabytes
    if (sent_.isEmpty())
        return std::nullopt;
    return hashStatement(sent_);
}

void KeyNaming::hashesAnswered(const PGresult* r)
{
    const QStringList names = std::exchange(sent_, {});
    if (!r || PQntuples(r) != names.size())
        return;
    std::vector<std::pair<QString, qint64>> added;
    for (int i = 0; i < PQntuples(r); ++i) {
        const QString& name = names[i];
        if (!hashCache_.contains(name)) {
            const qint64 key = pg::cellInt64(r, i, 0);
            hashCache_.insert(name, key);
            added.emplace_back(name, key);
        }
    }
    updateKeyNames(added, {});
}

void KeyNaming::updateKeyNames(const std::vector<std::pair<QString, qint64>>& added,
                               const std::vector<std::pair<QString, qint64>>& dropped)
{
    // The published maps are shared with snapshots on other threads: changed as copies (Qt's
    // implicit sharing), only at the keys these names hash to.
    if (added.empty() && dropped.empty())
        return;
    KeyNames names = *keyNames_, collisions = *keyCollisions_;
    QSet<qint64> touched;
    for (const auto& [name, key] : dropped) {
        const auto it = names.find(key);
        if (it != names.end() && it->removeOne(name) && it->isEmpty())
            names.erase(it);
        touched.insert(key);
    }
    for (const auto& [name, key] : added) {
        names[key] << name;
        touched.insert(key);
    }
    for (qint64 key : std::as_const(touched)) {
        const auto it = names.find(key);
        if (it != names.end())
            it->sort();
        if (it != names.end() && it->size() > 1)
            collisions.insert(key, *it);
        else
            collisions.remove(key);
    }
    keyNames_ = std::make_shared<const KeyNames>(std::move(names));
    keyCollisions_ = std::make_shared<const KeyNames>(std::move(collisions));
}

void KeyNaming::trim(const Snapshot& s)
{
    // Every 100 refreshes, once the cache holds far more than the leases read now, only these
    // stay: the leases' names (with the profile's prefixes), the configured names, and every name
    // whose key is held or awaited now.
    if (++refreshesSinceTrim_ < 100)
        return;
    refreshesSinceTrim_ = 0;
    const qsizetype live = s.leases.size() * (1 + cfg_.lockNamePrefixes.size());
    if (hashCache_.size() <= 2 * live + 1000)
        return;
    QSet<QString> keep;
    keep.reserve(live);
    for (const LeaseRow& r : s.leases) {
        keep.insert(r.name);
        for (const QString& prefix : cfg_.lockNamePrefixes)
            keep.insert(prefix + r.name);
    }
    for (const QString& n : lockNameCandidates(cfg_, {}, s.serverNow))
        keep.insert(n);
    QSet<qint64> held;
    for (const AdvisoryLockRow& l : s.advisoryLocks) {
        held.insert(l.key);
        if (l.twoKeys) {
            held.insert(l.key1);
            held.insert(l.key2);
        }
    }
    std::vector<std::pair<QString, qint64>> dropped;
    for (auto it = hashCache_.begin(); it != hashCache_.end();) {
        if (keep.contains(it.key()) || held.contains(it.value())) {
            ++it;
        } else {
            dropped.emplace_back(it.key(), it.value());
            it = hashCache_.erase(it);
        }
    }
    updateKeyNames({}, dropped);
}

void KeyNaming::libraryKeysAnswered(const PGresult* keys, const pg::Connection& conn)
{
    LibraryKeyNames names;
    std::vector<GoodJobSchema> goodJob;
    for (int i = 0; keys && i < PQntuples(keys); ++i) {
        const QString kind = pg::cellText(keys, i, 0), label = pg::cellText(keys, i, 1);
        const std::optional<qint64> key =
            PQgetisnull(keys, i, 2) ? std::nullopt : std::optional<qint64>(pg::cellInt64(keys, i, 2));
        if (kind == QLatin1String("goodjob"))
            goodJob.push_back({conn.quoteIdentifier(label), label, key.value_or(0) != 0});
        else
            addLibraryKey(names, kind, label, key);
    }
    if (goodJob.size() != goodJobSchemas_.size())
        goodJobLookup_ = true; // GoodJob appeared: look at what it holds
    goodJobSchemas_ = std::move(goodJob);
    libraryKeysFound_ = std::move(names);
    publishLibraryKeys();
}

std::optional<pg::Statement> KeyNaming::goodJobStatement() const
{
    if (goodJobSchemas_.empty() || !goodJobLookup_)
        return std::nullopt;
    return pg::Statement{goodJobLockSql(goodJobSchemas_), {}};
}

void KeyNaming::locksRead(const Snapshot& s, const pg::StatementResult* answer)
{
    if (answer && answer->error.isError())
        goodJobSchemas_.clear(); // gone or not readable: found again, or not, at the next check
    else
        updateGoodJobNames(answer ? answer->result.get() : nullptr, s);
}

void KeyNaming::publishLibraryKeys()
{
    LibraryKeyNames all = libraryKeysFound_;
    for (auto it = goodJobNames_.constBegin(); it != goodJobNames_.constEnd(); ++it)
        all.insert(it.key(), it.value());
    if (!libraryKeys_ || *libraryKeys_ != all)
        libraryKeys_ = std::make_shared<const LibraryKeyNames>(std::move(all));
}

void KeyNaming::updateGoodJobNames(const PGresult* r, const Snapshot& s)
{
    if (goodJobSchemas_.empty())
        return;
    bool changed = false;
    for (int i = 0; r && i < PQntuples(r); ++i) {
        const qint64 key = pg::cellInt64(r, i, 3);
        const QString name = goodJobLockName(pg::cellText(r, i, 0), pg::cellText(r, i, 1), pg::cellText(r, i, 2));
        if (goodJobNames_.value(key) != name) {
            goodJobNames_.insert(key, name);
            changed = true;
        }
    }
    // Kept while held. The next refresh looks again when a key held here is nameless and was not
    // looked for yet (a job just started), or every 10 refreshes while some stay nameless (another
    // library's key, or a job locked before it was marked performed).
    QSet<qint64> held, nameless;
    for (const AdvisoryLockRow& l : s.advisoryLocks) {
        if (!l.inMonitoredDb || l.twoKeys)
            continue;
        held.insert(l.key);
        if (!goodJobNames_.contains(l.key) && !keyNames_->contains(l.key) &&
            !libraryKeysFound_.contains(l.key) && libraryLockName(l, {}).isEmpty())
            nameless.insert(l.key);
    }
    for (auto it = goodJobNames_.begin(); it != goodJobNames_.end();)
        if (!held.contains(it.key())) {
            it = goodJobNames_.erase(it);
            changed = true;
        } else {
            ++it;
        }
    if (r) {
        goodJobMissed_ = nameless;
        refreshesSinceGoodJob_ = 0;
    } else {
        ++refreshesSinceGoodJob_;
    }
    const bool fresh = std::any_of(nameless.cbegin(), nameless.cend(), [&](qint64 k) { return !goodJobMissed_.contains(k); });
    goodJobLookup_ = fresh || (!nameless.isEmpty() && refreshesSinceGoodJob_ >= 10);
    if (changed)
        publishLibraryKeys();
}

void KeyNaming::publishInto(Snapshot& s) const
{
    s.keyNames = keyNames_;
    s.keyCollisions = keyCollisions_;
    s.libraryKeys = libraryKeys_;
}

} // namespace lw
