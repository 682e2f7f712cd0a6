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
};

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
