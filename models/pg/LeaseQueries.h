#pragma once
// The statements that find, check and read the lease tables, and what their results say: built
// with libpq's identifier quoting on an open connection, as bound parameters, binary results.
#include "domain/LeaseTable.h"
#include "domain/Snapshot.h"
#include "pg/PgConnection.h"

#include <optional>
#include <vector>

namespace lw {

// Without configuration: the catalogue's tables, looked for in every schema in one catalogue query
// at connect, recognised by table name and by their columns' names and types. Every one found is
// read (an application may use ShedLock and Liquibase side by side).
pg::Statement leaseTableDetection();
struct DetectedLeaseTables
{
    std::vector<LeaseTableConfig> tables; // readable and matching: read each refresh
    QStringList found;                    // "public.shedlock (ShedLock)", for the Leases page
    // A table found that cannot be read (no SELECT: with the GRANT), or the mission's leases table
    // with columns that do not match: a problem to be told, not a table that is not there.
    std::optional<DbError> problem;
};
DetectedLeaseTables detectedLeaseTables(const PGresult* detection);

// Row i of leaseSelect()'s or leaseSelectAll()'s answer (the latter's with its table's index).
LeaseRow leaseRowAt(const PGresult* r, int i);

// Several tables in one statement: each row tagged with its table's index (a fifth column).
// `skip`: indexes of tables left out (not read this time); at least one must remain.
pg::Statement leaseSelectAll(const pg::Connection& conn, const std::vector<LeaseTableConfig>& tables,
                             const std::vector<int>& skip = {});

// Who holds, or queues for, ACCESS EXCLUSIVE on any of `tables` (other sessions than the console's),
// and reading its answer: the table's index in `tables` with each lock.
pg::Statement tableLocksSelect(const std::vector<LeaseTableConfig>& tables);
std::vector<std::pair<int, TableLock>> readTableLocks(const PGresult* r, const std::vector<LeaseTableConfig>& tables);
// The columns after the first that tableLocksSelect() and sql::catalogLocks() both give for a lock
// (l: its pg_locks row, a: its session's pg_stat_activity row), and their reader.
inline constexpr char kLockHolderColumns[] =
    "l.granted, l.pid, coalesce(a.application_name, ''), coalesce(a.state, ''), "
    "date_part('epoch', now() - a.xact_start), coalesce(left(a.query, 200), '')";
TableLock lockHolderAt(const PGresult* r, int row, QString table);

// The SELECT of one table for one refresh (name, holder, taken-at, expires-at; binary results);
// needs an open connection for identifier quoting.
pg::Statement leaseSelect(const pg::Connection& conn, const LeaseTableConfig& cfg);

// The statements that check the table at connect: existence + privileges, then the columns.
std::vector<pg::Statement> leaseTableCheck(const LeaseTableConfig& cfg);
// Interprets the results of leaseTableCheck(); returns a Schema error naming exactly what is wrong.
std::optional<DbError> interpretLeaseTableCheck(const LeaseTableConfig& cfg,
                                                    const std::vector<pg::StatementResult>& results);

} // namespace lw
