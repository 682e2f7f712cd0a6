#pragma once
// Connection profiles: one per monitored database, with everything the console needs to watch it
// (where the leases live, known lock names, pool sizes, thresholds, operator mode). Stored as JSON in
// the user's config directory. Passwords are never stored: libpq reads them from ~/.pgpass /
// PGPASSFILE or the service file at connect time.
#include "Poller.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace lw {

struct Profile
{
    QString name;
    // Either a libpq connection string / postgresql:// URI / service name in `dsn`, or the fields
    // below (used when `dsn` is empty). Both end up as one conninfo string.
    QString dsn;
    QString host, port, dbname, user, service;
    QString sslmode; // "", disable, allow, prefer, require, verify-ca, verify-full
    QString sslrootcert, sslcert, sslkey;

    QString leasePreset = QStringLiteral("default"); // the base for the fields below
    LeaseTableConfig leases;
    // With `leases` left at its defaults, look for the catalogue's tables (ShedLock, Quartz, …).
    bool detectLeaseTables = true;
    int intervalMs = 1000;
    QStringList lockNames, lockNamePrefixes;
    int patternDays = 7;
    AnalysisConfig analysis;
    bool operatorMode = false;
    QString auditTable;
    QString pgbouncerDsn;   // optional PgBouncer admin console (SHOW POOLS …)
    // "Via recorder": feed://HOST:PORT[/NAME], another machine's `leasewatch record --serve`, read
    // instead of connecting (issue 49); the DSN above is then for operator actions only. Empty: this
    // machine's recorder of the profile, when one runs.
    QString viaRecorder;
    int historyDays = 7;    // history retention by age
    int historyMb = 200;    // … and by size
    bool alerts = true;     // desktop notifications for findings crossing their thresholds
    double alertStaleAfterS = 30; // … a stale lease after it has been stale this long

    // The libpq conninfo this profile connects with (values quoted as libpq expects).
    QString conninfo() const;
    // One line naming what is wrong (empty name, unparsable connection string, a password in it…).
    std::optional<QString> validate() const;
    // Applies the profile over `base` (whose defaults come from the command line).
    PollerConfig toPollerConfig(PollerConfig base = {}) const;

    QJsonObject toJson() const;
    static Profile fromJson(const QJsonObject& o);
    bool operator==(const Profile&) const = default;
};

// "billing-api=4" → {"billing-api", 4}; nullopt unless NAME=N with N > 0 (command line and dialog).
std::optional<std::pair<QString, int>> parsePoolSize(const QString& spec);

// True if a conninfo string or URI carries a password (which a profile must not store).
bool conninfoHasPassword(const QString& dsn);

class ProfileStore
{
public:
    // $XDG_CONFIG_HOME/leasewatch/profiles.json (QStandardPaths::AppConfigLocation).
    static QString defaultPath();
    explicit ProfileStore(QString path = defaultPath());

    const QString& path() const { return path_; }
    // Reads the file; a missing file is an empty store. Returns a one-line error otherwise. A file
    // that is not valid profile JSON (corrupt, truncated) is never overwritten: it is moved aside to
    // "<path>.broken-<yyyyMMdd-HHmmss>" (keptAside()) and the store starts empty; if it cannot be
    // moved, save() refuses until it is fixed.
    std::optional<QString> load();
    // Writes atomically (QSaveFile); refuses a profile that fails validate().
    std::optional<QString> save() const;
    QString keptAside() const { return keptAside_; }

    const QList<Profile>& profiles() const { return profiles_; }
    std::optional<Profile> find(const QString& name) const;
    void upsert(const Profile& p); // replaces the profile of the same name, or appends
    bool remove(const QString& name);

private:
    QString path_;
    QList<Profile> profiles_;
    QString keptAside_;
    QString unsaveable_; // why save() refuses (a broken file that could not be moved aside)
};

} // namespace lw
