#pragma once
// What the advisory keys held are called: the hashtext() of the lock names (the profile's, and
// every lease's with the profile's prefixes) computed on the monitored server itself, the
// libraries' keys computed there at the lease-table check (LibraryKeys.h), and GoodJob's running
// jobs, looked up while some key held has no name. The poller puts the statements asked for here
// into its one round trip and hands their answers back; the names go out with each snapshot.
#include "domain/LibraryKeys.h"
#include "domain/Snapshot.h"
#include "pg/PgConnection.h"
#include "pg/PollerConfig.h"

#include <QHash>
#include <QSet>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace lw {

// Candidates for key resolution: lease names, configured names/patterns, prefixed variants.
QStringList lockNameCandidates(const PollerConfig& cfg, const QStringList& leaseNames, double serverNow);

class KeyNaming
{
public:
    explicit KeyNaming(const PollerConfig& cfg) : cfg_(cfg) {} // the poller's: outlives this
    // A new connection, maybe to another server: hashtext() differs between versions and follows
    // collation, and the libraries there are others. Everything is looked up again.
    void reset();

    // At the lease-table check: the profile's names, so that even a one-shot snapshot resolves
    // them. Each refresh: names not hashed yet on this server, at most 20 000 a refresh (lease
    // names are queued as they first appear: no per-refresh pass over every lease). Either
    // statement's answer goes to hashesAnswered() (null: it failed).
    std::optional<pg::Statement> hashKnownNames();
    std::optional<pg::Statement> hashNewNames(double serverNow);
    void hashesAnswered(const PGresult* r);
    void leaseNameAppeared(const QString& name) { queued_ << name; }

    // libraryKeysSql()'s answer (null: it failed), read at the lease-table check.
    void libraryKeysAnswered(const PGresult* r, const pg::Connection& conn);

    // GoodJob's running jobs: sent with a pg_locks read while some key held has no name.
    std::optional<pg::Statement> goodJobStatement() const;
    // After a pg_locks read into s (or the last read, reused); `answer`: goodJobStatement()'s, if sent.
    void locksRead(const Snapshot& s, const pg::StatementResult* answer);

    // Names hashed for leases long gone (unique per run: job-<uuid>) would pile up for as long as
    // the console runs (a recorder runs for weeks): called with each full read of the leases and
    // the locks, it keeps only what is read or held now, every 100 refreshes.
    void trim(const Snapshot& s);

    void publishInto(Snapshot& s) const; // shared: copied when they change, never in place
    int hashedNames() const { return int(hashCache_.size()); }

private:
    void updateKeyNames(const std::vector<std::pair<QString, qint64>>& added,
                        const std::vector<std::pair<QString, qint64>>& dropped);
    void updateGoodJobNames(const PGresult* r, const Snapshot& s);
    void publishLibraryKeys();

    const PollerConfig& cfg_;
    QHash<QString, qint64> hashCache_; // name -> hashtext(name), computed on this server
    QStringList queued_;               // lease names not yet considered for hashing
    QStringList sent_;                 // the names of the hash statement last asked for
    int refreshesSinceTrim_ = 0;
    // key -> names (sorted), as the cache changes; and its keys with several names. Never null.
    std::shared_ptr<const KeyNames> keyNames_ = std::make_shared<const KeyNames>();
    std::shared_ptr<const KeyNames> keyCollisions_ = std::make_shared<const KeyNames>();
    std::shared_ptr<const QHash<qint64, QString>> libraryKeys_; // the two below, merged
    LibraryKeyNames libraryKeysFound_; // computed on the server at the lease-table check
    // GoodJob's schemas, the names of the keys it holds now (dropped once released: bounded by
    // what is held), and whether the next refresh looks (a key held in this database that nothing
    // names yet).
    std::vector<GoodJobSchema> goodJobSchemas_;
    LibraryKeyNames goodJobNames_;
    QSet<qint64> goodJobMissed_; // nameless when last looked for
    int refreshesSinceGoodJob_ = 0;
    bool goodJobLookup_ = true;
};

} // namespace lw
