#pragma once
// Where the application's leases live and how their library writes and releases them: values.
// The statements that read them are built in pg/LeaseQueries.h (every identifier quoted with
// libpq's quoting; every clock comparison against the server's now()).
#include "DbError.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lw {

struct LeaseTableConfig
{
    enum class TimeKind {
        TimestampTz, // timestamptz: an instant
        NaiveUtc,    // timestamp without time zone holding UTC (ShedLock, Oban)
        NaiveZone,   // timestamp without time zone holding wall time of `zone`
    };
    QString schema = QStringLiteral("public");
    QString table = QStringLiteral("leases");
    QString nameColumn = QStringLiteral("name");
    QString holderColumn = QStringLiteral("holder");
    QString takenAtColumn = QStringLiteral("taken_at");
    QString expiresAtColumn = QStringLiteral("expires_at");
    TimeKind timeKind = TimeKind::TimestampTz;
    QString zone;                     // for NaiveZone
    bool writerUsesAppClock = false;  // flag rows whose taken-at lies in the server's future
    std::optional<double> ttlSeconds; // known TTL; otherwise inferred from how expires-at moves
    double expiringSoonShare = 0.25;  // "expiring soon" below this share of the TTL left
    // The library's own rules (see LeasePolicy). ShedLock releases with
    // `UPDATE shedlock SET lock_until = <now> WHERE name = ? AND locked_by = ?` and keeps the row
    // (lukas-krecan/ShedLock, providers/sql/shedlock-sql-support/.../SqlStatementsSource.java;
    // its README: "do not manually delete lock row"): an expired row is free, at rest. It takes a
    // lock for lockAtMostFor and does not renew it (KeepAlive extension is optional).
    QString scheme = QStringLiteral("default"); // the preset it follows: "default", "shedlock", "river"
    bool expiryFrees = false;
    bool expectRenewals = true;
    bool named = false; // chosen by hand (command line): read this table, never look for another
    // The catalogue's reading of a library table (leaseSchemes()): SQL expressions over the table's
    // own columns in place of the four mapped columns, where the library keeps no plain expiry
    // (Quartz: check-in + interval; db-scheduler: heartbeat; graphile-worker: locked_at + 4 h).
    // Empty for a table mapped by columns. Fixed text from the catalogue, never from input.
    struct Exprs
    {
        QByteArray name, holder, takenAt, expiresAt; // text, text, timestamptz, timestamptz
        QByteArray where;                            // rows that are leases at all (picked, locked)
        bool operator==(const Exprs&) const = default;
    };
    Exprs exprs;
    // The columns the expressions use, as (name, kind): kind "text", "int", "bool", "timestamptz"
    // or "timestamp". A table is this library's only when it has them all.
    std::vector<std::pair<QString, QString>> signature;
    bool mappedByExpressions() const { return !exprs.expiresAt.isEmpty(); }
    // Only a table of this name is this entry's, never a view: graphile-worker 0.16+ keeps a `jobs`
    // view (over _private_jobs) with the columns of its 0.13 jobs table.
    bool tableOnly = false;
    // Whether the time kind (and zone) applies: a table mapped by columns, or expressions that
    // read naive wall time through the placeholder {zone} (Liquibase: the writer session's zone,
    // this database's unless set per table: `--time-kind Europe/Berlin`).
    bool timeKindApplies() const { return !mappedByExpressions() || exprs.takenAt.contains("{zone}"); }
    // An expression with {zone} replaced by the zone its naive times are read in: `zoneParam` (a
    // bound "$n") for a named zone, 'UTC', or the session's TimeZone.
    QByteArray zoned(QByteArray expr, const QByteArray& zoneParam) const;
    QString library; // "ShedLock"; empty for the mission's own table
    QString label() const { return library.isEmpty() ? QStringLiteral("leases") : library; }
    // The columns a table needs to be read with this mapping (signature, or the four mapped ones).
    std::vector<std::pair<QString, QString>> requiredColumns() const;
    // How the library's holder string reads: host:pid:token (the mission's), a bare host name
    // (ShedLock, db-scheduler, Oban), River's client id (host_2026_12_01T08_52_38_123456),
    // Liquibase's "host (address)", or an opaque id (graphile-worker's pool-<hex>).
    // Quartz's AUTO instance id is the host name followed by currentTimeMillis.
    enum class HolderFormat { HostPidToken, Host, RiverClientId, HostAddress, QuartzInstanceId, Opaque };
    HolderFormat holderFormat = HolderFormat::HostPidToken;
    // Renewals come every `renewShare` of the TTL (the mission: TTL/4; River every 5 s of 15;
    // Oban and Quartz every half): a renewal is overdue a quarter TTL after that.
    double renewShare = 0.25;
    // Empty: force-expire is offered, done as `release` says or (a table mapped by columns) by
    // setting the expiry column to now, which is how that library frees a lease or how its next
    // taker sees it free. Otherwise why it is not offered and the library's own way.
    QString forceExpireRefusal;
    // A catalogue table's own release, copied from the library's source, for force-expire: the SET
    // list over its own columns, run as a compare-and-set on the row as shown. `returning` adds
    // columns of the released row for `also`, a second UPDATE of the same release in the same
    // statement (graphile-worker frees a job's queue with it) over the released rows `u`, with
    // {schema} for the table's quoted schema and {holder} for the holder as shown. Fixed text from
    // the catalogue, never from input.
    struct Release
    {
        QByteArray set;
        QByteArray returning;
        QByteArray also;
        QString words; // what it does, for the dialog and the outcome: "LOCKED = FALSE, as … does"
        bool operator==(const Release&) const = default;
    };
    Release release;
    bool releasedByLibraryStatement() const { return !release.set.isEmpty(); }
    // The finding's way out when the lease is stale by the library's own rule (empty: wait for
    // the library to take it over).
    QString staleFix;
    // What stale means for it, for the Leases page and the findings ("ran past 4 h: graphile-worker
    // resets it within 10 min").
    QString staleMeaning;
    int staleSeverity = 3; // 2 where the library frees a stale lock itself within minutes
    // Whether a holder's sessions on the server speak for it being alive. ShedLock holds none while
    // a job runs and names the holder by host name only: no matching session says nothing there.
    bool sessionsShowHolder = true;
    // A lock kept as a bare flag, with no holder and no time (knex's knex_migrations_lock.is_locked):
    // who set it is known only from the sessions seen around it (FlagLockWatch). `activityTable` is
    // the table whose statements show the library at work (knex: knex_migrations, and the lock table).
    bool flagOnly = false;
    QString activityTable;
    // A holder that is a process's opaque id (graphile-worker's pool-<hex>), where the process keeps
    // one session LISTENing on this channel for its life: its holder is alive while one of the
    // listening sessions it could own is connected (HolderPresence). Empty: not such a library.
    QString listenChannel;

    // "timestamptz", "utc" (naive UTC) or a zone name (naive wall time of that zone).
    bool setTimeKind(const QString& spec);
    // "name,holder,taken_at,expires_at"
    bool setColumns(const QString& spec);
    QString timeKindSpec() const; // the inverse of setTimeKind()
    QString columnsSpec() const;  // the inverse of setColumns()
    // "[schema.]table"; a bare table keeps the schema.
    void setQualifiedName(const QString& name);

    // The catalogue's entries by name (leaseSchemes() order): "default", "shedlock", "river", "oban",
    // "quartz", "db-scheduler", "graphile-worker", "graphile-worker-queue" (and their 0.14 and 0.13
    // layouts: "graphile-worker-0.14", "graphile-worker-queue-0.14", … "-0.13"), "liquibase".
    static QStringList presetNames();
    static std::optional<LeaseTableConfig> preset(const QString& name);
    QString qualifiedName() const { return schema + QLatin1Char('.') + table; }
    bool operator==(const LeaseTableConfig&) const = default;
    // Nothing set by hand: the console may look for a lease table itself (detectLeaseTable()).
    bool isDefault() const { return *this == LeaseTableConfig{}; }
};

// The catalogue of coordination schemes: one entry per library table, as data (LeaseSchemes.cpp,
// each entry citing the library source its table and statements were read from).
const std::vector<LeaseTableConfig>& leaseSchemes();

// What an empty detection says on the Leases page: information, not a problem.
QString noLeaseTableText();

} // namespace lw
