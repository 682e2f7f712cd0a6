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

// Reading the lease tables in proportion to what changed (issue 49). One statement reads every
// table not skipped: a table with no `since` whole, a table with one only its row versions written
// since that snapshot (xmin not older than the snapshot's xmin: every version the snapshot could
// not see, and a few it could), with the count of its other rows, which tells whether any row the
// console holds was deleted meanwhile. The statement's own snapshot comes back for the next read.
// Only tables mapped by columns whose name column has a unique index (asked in the statement).
// Columns: name, holder, taken-at, expires-at (epochs), the table's index, and the row's kind.
// `since[i]` is table i's last snapshot xmin (a 32-bit xid as text), empty for a whole read.
// `sync` false: whole reads and no snapshot (a view, or a server without xmin or pg_current_snapshot()).
pg::Statement leaseSync(const pg::Connection& conn, const std::vector<LeaseTableConfig>& tables,
                        const std::vector<QByteArray>& since, const std::vector<int>& skip = {},
                        bool sync = true);
struct LeaseSyncAnswer
{
    std::vector<LeaseRow> rows; // whole tables' rows and changed tables' written rows
    bool nullName = false;      // a row without a name: the rows cannot be matched by key
    QByteArray snapshotXmin;    // the statement's snapshot, for the next read's `since`
    // Per table that may be read by row version (mapped by columns).
    struct Table
    {
        int table = -1;
        qint64 unchanged = -1;    // read with a `since`: how many of its rows are older (unchanged since)
        bool uniqueNames = false; // a unique index on its name column, now
    };
    std::vector<Table> tables;
    const Table* table(int t) const
    {
        for (const Table& x : tables)
            if (x.table == t)
                return &x;
        return nullptr;
    }
};
LeaseSyncAnswer readLeaseSync(const PGresult* r);
// The names every row of `tables` (indexes into `all`) has now, with their table's index: after a
// read found rows gone, which ones.
pg::Statement leaseNames(const pg::Connection& conn, const std::vector<LeaseTableConfig>& all,
                         const std::vector<int>& tables);
// Its answer: (table, name) per row; `nullName` set when a name is NULL.
std::vector<std::pair<int, QString>> readLeaseNames(const PGresult* r, bool& nullName);

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

// The statements that check the table at connect: existence + privileges, then the columns.
std::vector<pg::Statement> leaseTableCheck(const LeaseTableConfig& cfg);
// Interprets the results of leaseTableCheck(); returns a Schema error naming exactly what is wrong.
std::optional<DbError> interpretLeaseTableCheck(const LeaseTableConfig& cfg,
                                                    const std::vector<pg::StatementResult>& results);

} // namespace lw
