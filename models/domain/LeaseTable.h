#pragma once
// Where the application's leases live and how to read them. Every identifier is quoted with libpq's
// quoting when the SQL is built; every clock comparison is against the server's now().
#include "pg/PgConnection.h"

#include <QString>
#include <QStringList>

#include <optional>

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

    // "timestamptz", "utc" (naive UTC) or a zone name (naive wall time of that zone).
    bool setTimeKind(const QString& spec);
    // "name,holder,taken_at,expires_at"
    bool setColumns(const QString& spec);
    QString timeKindSpec() const; // the inverse of setTimeKind()
    QString columnsSpec() const;  // the inverse of setColumns()
    // "[schema.]table"; a bare table keeps the schema.
    void setQualifiedName(const QString& name);

    static QStringList presetNames(); // "default", "shedlock", "river"
    static std::optional<LeaseTableConfig> preset(const QString& name);
    QString qualifiedName() const { return schema + QLatin1Char('.') + table; }
    bool operator==(const LeaseTableConfig&) const = default;
    // Nothing set by hand: the console may look for a lease table itself (detectLeaseTable()).
    bool isDefault() const { return *this == LeaseTableConfig{}; }
};

// Without configuration: the lease tables the console knows, looked for in every schema in one
// catalogue query at connect (tables the role can read). detectedLeaseTable() picks one:
// public.leases first, then the library presets' tables in presetNames() order; nullopt when
// none is there. `found` lists every candidate ("schema.table (preset)") for the Leases page.
pg::Statement leaseTableDetection();
std::optional<LeaseTableConfig> detectedLeaseTable(const PGresult* detection, QStringList* found = nullptr);
// What an empty detection says on the Leases page: information, not a problem.
QString noLeaseTableText();

// The SELECT for one refresh; needs an open connection for identifier quoting. With rowVersion the
// first column is the row's xmin: a lease row's name and xmin identify its contents (an UPDATE
// always writes a new version with its own transaction's xmin), so an unchanged row is known
// without comparing the rest of it. Only tables have it (see leaseTableHasRowVersions()).
pg::Statement leaseSelect(const pg::Connection& conn, const LeaseTableConfig& cfg, bool rowVersion = false);

// The statements that check the table at connect: existence + privileges, then the columns.
std::vector<pg::Statement> leaseTableCheck(const LeaseTableConfig& cfg);
// Interprets the results of leaseTableCheck(); returns a Schema error naming exactly what is wrong.
// Whether the checked relation has row versions (a table, partitioned table or materialized view;
// not a view or a foreign table).
bool leaseTableHasRowVersions(const std::vector<pg::StatementResult>& results);
std::optional<pg::PgError> interpretLeaseTableCheck(const LeaseTableConfig& cfg,
                                                    const std::vector<pg::StatementResult>& results);

} // namespace lw
