#include "LeaseQueries.h"
#include "domain/Words.h"

#include "Cells.h"
#include "domain/SqlText.h"

#include <QHash>

#include <algorithm>

namespace lw {

namespace {
// A column's type (regtype's name) as the kind a signature asks for.
QString typeKind(const QString& t)
{
    static const QStringList textTypes = {QStringLiteral("text"),      QStringLiteral("character varying"),
                                          QStringLiteral("character"), QStringLiteral("name"),
                                          QStringLiteral("uuid"),      QStringLiteral("citext")};
    if (textTypes.contains(t))
        return QStringLiteral("text");
    if (t == QLatin1String("integer") || t == QLatin1String("bigint") || t == QLatin1String("smallint"))
        return QStringLiteral("int");
    if (t == QLatin1String("boolean"))
        return QStringLiteral("bool");
    if (t == QLatin1String("timestamp with time zone"))
        return QStringLiteral("timestamptz");
    if (t == QLatin1String("timestamp without time zone"))
        return QStringLiteral("timestamp");
    return t;
}

// What is missing or of another kind, in words; empty when the table has every column.
QStringList signatureProblems(const LeaseTableConfig& c, const QHash<QString, QString>& types)
{
    QStringList problems;
    static const char* const roles[] = {" (the name column)", " (the holder column)", " (the taken-at column)",
                                        " (the expires-at column)"};
    const auto cols = c.requiredColumns();
    for (size_t i = 0; i < cols.size(); ++i) {
        const auto& [col, kind] = cols[i];
        const QString role = c.mappedByExpressions() || i >= 4 ? QString() : QString::fromLatin1(roles[i]);
        if (!types.contains(col))
            problems << QStringLiteral("column \"%1\"%2 is missing").arg(col, role);
        else if (typeKind(types.value(col)) != kind)
            problems << QStringLiteral("column \"%1\"%2 is %3, expected %4").arg(col, role, types.value(col), kind);
    }
    return problems;
}
} // namespace

pg::Statement leaseTableDetection()
{
    // One catalogue read: relations named like a catalogue table, in any schema (public first),
    // with whether this role may read them and their columns (name U+001E type, U+001F between).
    // Readable or not: a lease table the role cannot read is a problem to be told (with the
    // GRANT), not a table that is not there.
    QByteArray sql =
        "SELECT n.nspname::text, c.relname::text, c.relkind IN ('r', 'p', 'm'), "
        "has_table_privilege(c.oid, 'SELECT'), current_user::text, "
        "(SELECT string_agg(a.attname::text || chr(30) || a.atttypid::regtype::text, chr(31)) "
        "FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) "
        "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relname = ANY($1::text[]) "
        "AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
        "ORDER BY n.nspname <> 'public', n.nspname, c.relname";
    QByteArray names = "{";
    for (const LeaseTableConfig& c : leaseSchemes()) {
        if (names.size() > 1)
            names += ',';
        names += c.table.toUtf8();
    }
    return {sql, {names + "}"}};
}

DetectedLeaseTables detectedLeaseTables(const PGresult* r)
{
    DetectedLeaseTables out;
    struct Hit
    {
        int rank;
        LeaseTableConfig table;
    };
    std::vector<Hit> hits;
    const auto& schemes = leaseSchemes();
    for (int i = 0; r && i < PQntuples(r); ++i) {
        const QString schema = QString::fromUtf8(PQgetvalue(r, i, 0));
        const QString table = QString::fromUtf8(PQgetvalue(r, i, 1));
        const bool isTable = PQgetvalue(r, i, 2)[0] == 't'; // not a view: has row versions
        const bool readable = PQgetvalue(r, i, 3)[0] == 't';
        const QString role = QString::fromUtf8(PQgetvalue(r, i, 4));
        QHash<QString, QString> types;
        for (const QString& col : QString::fromUtf8(PQgetvalue(r, i, 5)).split(QChar(31), Qt::SkipEmptyParts)) {
            const auto sep = col.indexOf(QChar(30));
            if (sep > 0)
                types.insert(col.left(sep), col.mid(sep + 1));
        }
        // Several entries may share a table name (graphile-worker's layouts): the relation is the
        // first one's whose columns it has; it differs only when it is none's.
        std::vector<size_t> named;
        for (size_t k = 0; k < schemes.size(); ++k)
            if (schemes[k].table == table && (isTable || !schemes[k].tableOnly))
                named.push_back(k);
        for (size_t k : named)
            if (signatureProblems(schemes[k], types).isEmpty()) {
                named = {k};
                break;
            }
        if (!named.empty())
            named.resize(1);
        for (size_t k : named) {
            LeaseTableConfig c = schemes[k];
            c.schema = schema;
            const QString what = QStringLiteral("%1 (%2)").arg(c.qualifiedName(), c.label());
            const QStringList problems = signatureProblems(c, types);
            const bool mission = c.scheme == QLatin1String("default");
            if (!problems.isEmpty()) {
                // Another application's table of that name is not this library's: said, not read.
                // The mission's own table with wrong columns is a problem to be fixed.
                out.found << ErrorWords::tr("%1: not read, its columns differ (%2)")
                                 .arg(what, problems.join(QStringLiteral("; ")));
                if (mission && !out.problem) {
                    DbError e;
                    e.kind = DbError::Kind::Schema;
                    e.message = ErrorWords::tr("%1 does not match the profile: %2")
                                    .arg(c.qualifiedName(), problems.join(QStringLiteral("; ")));
                    e.hint = ErrorWords::tr("fix the column mapping in the profile's leases-table settings "
                                            "(or --columns, --time-kind)");
                    e.sqlstate = QStringLiteral("42703");
                    out.problem = e;
                }
                continue;
            }
            if (!readable) {
                out.found << ErrorWords::tr("%1: not read, no SELECT privilege").arg(what);
                if (!out.problem) {
                    DbError e;
                    e.kind = DbError::Kind::Schema;
                    // "(ShedLock's table)"; the application's own needs no such word.
                    e.message = c.library.isEmpty()
                                    ? ErrorWords::tr("permission denied: no SELECT on %1").arg(c.qualifiedName())
                                    : ErrorWords::tr("permission denied: no SELECT on %1 (%2's table)")
                                          .arg(c.qualifiedName(), c.library);
                    e.hint = QStringLiteral("GRANT SELECT ON %1 TO %2;")
                                 .arg(sqlQualifiedName(c.schema, c.table),
                                      role.isEmpty() ? QStringLiteral("<monitoring role>") : sqlIdentifier(role));
                    e.sqlstate = QStringLiteral("42501");
                    out.problem = e;
                }
                continue;
            }
            out.found << what;
            hits.push_back({int(k) * 2 + (schema == QLatin1String("public") ? 0 : 1), c});
        }
    }
    std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.rank < b.rank; });
    for (Hit& h : hits)
        out.tables.push_back(std::move(h.table));
    return out;
}


namespace {
// The column as an instant (timestamptz), whatever its storage.
QByteArray asInstant(const QByteArray& quotedCol, LeaseTableConfig::TimeKind kind, int zoneParam)
{
    switch (kind) {
    case LeaseTableConfig::TimeKind::TimestampTz:
        return quotedCol;
    case LeaseTableConfig::TimeKind::NaiveUtc:
        return "(" + quotedCol + " AT TIME ZONE 'UTC')";
    case LeaseTableConfig::TimeKind::NaiveZone:
        return "(" + quotedCol + " AT TIME ZONE $" + QByteArray::number(zoneParam) + ")";
    }
    return quotedCol;
}
} // namespace

namespace {
// The four columns as a select list: name::text, holder::text, taken-at and expires-at as epochs.
// `zoneParam` is the placeholder number of this table's zone, when it has one.
QByteArray leaseColumns(const pg::Connection& conn, const LeaseTableConfig& cfg, int zoneParam)
{
    if (cfg.mappedByExpressions()) {
        const QByteArray zone = "$" + QByteArray::number(zoneParam);
        return "(" + cfg.exprs.name + ")::text, (" + cfg.exprs.holder + ")::text, date_part('epoch', " +
               cfg.zoned(cfg.exprs.takenAt, zone) + "), date_part('epoch', " + cfg.zoned(cfg.exprs.expiresAt, zone) +
               ")";
    }
    const QByteArray taken = asInstant(conn.quoteIdentifier(cfg.takenAtColumn), cfg.timeKind, zoneParam);
    const QByteArray expires = asInstant(conn.quoteIdentifier(cfg.expiresAtColumn), cfg.timeKind, zoneParam);
    return conn.quoteIdentifier(cfg.nameColumn) + "::text, " + conn.quoteIdentifier(cfg.holderColumn) +
           "::text, date_part('epoch', " + taken + "), date_part('epoch', " + expires + ")";
}

QByteArray leaseFrom(const pg::Connection& conn, const LeaseTableConfig& cfg)
{
    QByteArray from = " FROM " + conn.quoteIdentifier(cfg.schema) + "." + conn.quoteIdentifier(cfg.table);
    if (!cfg.exprs.where.isEmpty())
        from += " WHERE " + cfg.exprs.where;
    return from;
}
} // namespace

namespace {
// The name column (or expression) as text, for the names-only listing.
QByteArray leaseName(const pg::Connection& conn, const LeaseTableConfig& cfg)
{
    return cfg.mappedByExpressions() ? "(" + cfg.exprs.name + ")::text" : conn.quoteIdentifier(cfg.nameColumn) + "::text";
}
// The table's zone placeholder, added to `s` when its naive times need one; else 0.
int zoneParam(pg::Statement& s, const LeaseTableConfig& t)
{
    if (t.timeKind != LeaseTableConfig::TimeKind::NaiveZone || !t.timeKindApplies())
        return 0;
    s.params.push_back(t.zone.toUtf8());
    return int(s.params.size());
}
// `cond` added to the table's own row filter.
QByteArray fromWhere(const pg::Connection& conn, const LeaseTableConfig& t, const QByteArray& cond)
{
    if (t.exprs.where.isEmpty())
        return leaseFrom(conn, t) + " WHERE " + cond;
    return " FROM " + conn.quoteIdentifier(t.schema) + "." + conn.quoteIdentifier(t.table) + " WHERE (" +
           t.exprs.where + ") AND " + cond;
}
} // namespace

pg::Statement leaseSync(const pg::Connection& conn, const std::vector<LeaseTableConfig>& tables,
                        const std::vector<QByteArray>& since, const std::vector<int>& skip, bool sync)
{
    pg::Statement s;
    for (size_t i = 0; i < tables.size(); ++i) {
        if (std::find(skip.begin(), skip.end(), int(i)) != skip.end())
            continue;
        const LeaseTableConfig& t = tables[i];
        const QByteArray index = QByteArray::number(int(i)) + "::int4";
        const QByteArray cols = leaseColumns(conn, t, zoneParam(s, t));
        if (!s.sql.isEmpty())
            s.sql += " UNION ALL ";
        // Only a table mapped by columns whose name column has a unique index is read by row
        // version: a written row with a held row's name then replaced it (else a deleted row and
        // a second row of a held name would cancel out in the count). Asked in the same statement,
        // so that a dropped key is seen at once. The catalogue's expression-mapped tables are small.
        const bool byVersion = sync && !t.mappedByExpressions();
        QByteArray unique = "NULL::float8";
        if (byVersion) {
            s.params.push_back(conn.quoteIdentifier(t.schema) + "." + conn.quoteIdentifier(t.table));
            s.params.push_back(t.nameColumn.toUtf8());
            unique = "(SELECT count(*) FROM pg_index x JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = "
                     "x.indkey[0] WHERE x.indrelid = to_regclass($" + QByteArray::number(int(s.params.size()) - 1) +
                     ") AND x.indisunique AND x.indpred IS NULL AND x.indexprs IS NULL AND x.indnkeyatts = 1 AND "
                     "a.attname = $" + QByteArray::number(int(s.params.size())) + ")::float8";
        }
        if (!byVersion || i >= since.size() || since[i].isEmpty()) {
            s.sql += "(SELECT " + cols + ", " + index + ", 0::int4" + leaseFrom(conn, t) + ")";
            if (byVersion)
                s.sql += " UNION ALL (SELECT NULL::text, NULL::text, NULL::float8, " + unique + ", " + index +
                         ", 1::int4)";
            continue;
        }
        // age() counts back from the same next xid for both sides within the statement: a version
        // is new when it is no older than the snapshot's xmin (wraparound-safe; a frozen version's
        // age is INT_MAX). Old versions are counted, not sent.
        s.params.push_back(since[i]);
        const QByteArray newer = "age(xmin) <= age($" + QByteArray::number(int(s.params.size())) + "::xid)";
        s.sql += "(SELECT " + cols + ", " + index + ", 0::int4" + fromWhere(conn, t, newer) + ") UNION ALL " +
                 "(SELECT NULL::text, NULL::text, count(*)::float8, " + unique + ", " + index + ", 1::int4" +
                 fromWhere(conn, t, "NOT (" + newer + ")") + ")";
    }
    // Of the statement's own snapshot: every row version it could not see is newer than its xmin.
    if (sync)
        s.sql += " UNION ALL (SELECT NULL::text, (pg_snapshot_xmin(pg_current_snapshot())::text::int8 % 4294967296)"
                 "::text, NULL::float8, NULL::float8, -1::int4, 2::int4)";
    // Binary: text arrives as it would (in the client encoding), the epochs as 8-byte float8 — the
    // server skips float8out, a fifth of a whole read's time at 100 000 rows.
    s.binaryResults = true;
    return s;
}

namespace {
qint32 cellInt4(const PGresult* r, int row, int col)
{
    return PQgetlength(r, row, col) == 4 ? qFromBigEndian<qint32>(PQgetvalue(r, row, col)) : -1;
}
} // namespace

LeaseSyncAnswer readLeaseSync(const PGresult* r)
{
    LeaseSyncAnswer a;
    const int n = PQntuples(r);
    a.rows.reserve(size_t(n));
    for (int i = 0; i < n; ++i) {
        const qint32 kind = cellInt4(r, i, 5);
        if (kind == 1) {
            LeaseSyncAnswer::Table t;
            t.table = cellInt4(r, i, 4);
            t.unchanged = qint64(pg::cellOptDouble(r, i, 2).value_or(-1));
            t.uniqueNames = pg::cellOptDouble(r, i, 3).value_or(0) > 0;
            a.tables.push_back(t);
        } else if (kind == 2) {
            a.snapshotXmin = QByteArray(PQgetvalue(r, i, 1), PQgetlength(r, i, 1));
        } else {
            LeaseRow row;
            row.name = pg::cellText(r, i, 0);
            a.nullName = a.nullName || PQgetisnull(r, i, 0);
            if (!PQgetisnull(r, i, 1))
                row.holder = pg::cellText(r, i, 1);
            row.takenAt = pg::cellOptDouble(r, i, 2);
            row.expiresAt = pg::cellOptDouble(r, i, 3);
            row.source = cellInt4(r, i, 4);
            a.rows.push_back(std::move(row));
        }
    }
    return a;
}

pg::Statement leaseNames(const pg::Connection& conn, const std::vector<LeaseTableConfig>& all,
                         const std::vector<int>& tables)
{
    pg::Statement s;
    for (int i : tables) {
        const LeaseTableConfig& t = all[size_t(i)];
        if (!s.sql.isEmpty())
            s.sql += " UNION ALL ";
        s.sql += "(SELECT " + leaseName(conn, t) + ", " + QByteArray::number(i) + "::int4" + leaseFrom(conn, t) + ")";
    }
    s.binaryResults = true;
    return s;
}

std::vector<std::pair<int, QString>> readLeaseNames(const PGresult* r, bool& nullName)
{
    std::vector<std::pair<int, QString>> out;
    const int n = PQntuples(r);
    out.reserve(size_t(n));
    for (int i = 0; i < n; ++i) {
        nullName = nullName || PQgetisnull(r, i, 0);
        out.emplace_back(cellInt4(r, i, 1), pg::cellText(r, i, 0));
    }
    return out;
}

pg::Statement tableLocksSelect(const std::vector<LeaseTableConfig>& tables)
{
    // to_regclass() looks the name up without locking the table. Only ACCESS EXCLUSIVE conflicts
    // with the read's ACCESS SHARE; one queued (not granted) holds up every later reader too.
    pg::Statement s;
    QByteArray rows;
    for (size_t i = 0; i < tables.size(); ++i) {
        const QByteArray at = QByteArray::number(int(s.params.size()) + 1);
        rows += (i ? ", (" : "(") + QByteArray::number(int(i)) + ", $" + at + "::text, $" +
                QByteArray::number(int(s.params.size()) + 2) + "::text)";
        s.params.push_back(tables[i].schema.toUtf8());
        s.params.push_back(tables[i].table.toUtf8());
    }
    s.sql = QByteArray("SELECT n.i::int4, ") + kLockHolderColumns + " FROM (VALUES " + rows + ") AS n(i, nsp, rel) "
            "JOIN pg_locks l ON l.locktype = 'relation' AND l.relation = to_regclass(format('%I.%I', n.nsp, n.rel))::oid "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.mode = 'AccessExclusiveLock' AND l.pid <> pg_backend_pid() "
            "LEFT JOIN pg_stat_activity a ON a.pid = l.pid ORDER BY 1, 2 DESC, 3";
    return s;
}

std::vector<std::pair<int, TableLock>> readTableLocks(const PGresult* r, const std::vector<LeaseTableConfig>& tables)
{
    std::vector<std::pair<int, TableLock>> out;
    for (int i = 0; r && i < PQntuples(r); ++i) {
        const int table = int(pg::cellInt64(r, i, 0));
        if (table < 0 || table >= int(tables.size()))
            continue;
        out.emplace_back(table, lockHolderAt(r, i, tables[size_t(table)].qualifiedName()));
    }
    return out;
}

TableLock lockHolderAt(const PGresult* r, int row, QString table)
{
    TableLock l;
    l.table = std::move(table);
    l.granted = pg::cellTrue(r, row, 1);
    l.pid = int(pg::cellInt64(r, row, 2));
    l.applicationName = pg::cellText(r, row, 3);
    l.state = pg::cellText(r, row, 4);
    l.xactAgeS = pg::cellOptDouble(r, row, 5);
    l.query = pg::cellText(r, row, 6);
    return l;
}

std::vector<pg::Statement> leaseTableCheck(const LeaseTableConfig& cfg)
{
    // to_regclass takes a (possibly quoted) name; format('%I.%I') quotes on the server side.
    const QByteArray rel = "to_regclass(format('%I.%I', $1::text, $2::text))";
    pg::Statement exists;
    exists.sql =
        "SELECT r IS NOT NULL, CASE WHEN r IS NULL THEN NULL ELSE has_table_privilege(r, 'SELECT') END, "
        "CASE WHEN r IS NULL THEN NULL ELSE has_table_privilege(r, 'UPDATE') END, "
        "to_regnamespace(quote_ident($1::text)) IS NOT NULL, "
        "(SELECT c.relkind IN ('r', 'p', 'm') FROM pg_class c WHERE c.oid = r), current_user::text "
        "FROM (SELECT " +
        rel + " AS r) t";
    exists.params = {cfg.schema.toUtf8(), cfg.table.toUtf8()};
    pg::Statement cols;
    cols.sql = "SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), a.atttypid::regtype::text "
               "FROM pg_attribute a WHERE a.attrelid = " +
               rel + " AND a.attnum > 0 AND NOT a.attisdropped";
    cols.params = {cfg.schema.toUtf8(), cfg.table.toUtf8()};
    return {exists, cols};
}

std::optional<DbError> interpretLeaseTableCheck(const LeaseTableConfig& cfg,
                                                    const std::vector<pg::StatementResult>& results)
{
    auto schemaError = [&](const QString& msg, const QString& hint, const QString& state = {}) {
        DbError e;
        e.kind = DbError::Kind::Schema;
        e.message = msg;
        e.hint = hint;
        e.sqlstate = state;
        return e;
    };
    if (results.size() != 2)
        return schemaError(ErrorWords::tr("could not check the leases table"), QString());
    for (const auto& r : results)
        if (r.error.isError())
            return r.error;
    const PGresult* ex = results[0].result.get();
    if (!ex || PQntuples(ex) != 1)
        return schemaError(ErrorWords::tr("could not check the leases table"), QString());
    auto flag = [&](int col) { return !PQgetisnull(ex, 0, col) && PQgetvalue(ex, 0, col)[0] == 't'; };
    if (!flag(0)) {
        if (!flag(3))
            return schemaError(
                ErrorWords::tr("schema \"%1\" does not exist").arg(cfg.schema),
                ErrorWords::tr("set the leases table's schema in the profile or with --table (or create it)"),
                QStringLiteral("3F000"));
        return schemaError(
            ErrorWords::tr("leases table %1 does not exist").arg(cfg.qualifiedName()),
            ErrorWords::tr("set the leases table in the profile (schema, table) or with --table, or "
                           "choose a preset (--preset default, shedlock, river)"),
            QStringLiteral("42P01"));
    }
    if (!flag(1)) {
        // The statement to run, ready to paste: this connection's role by name.
        const QString role = PQnfields(ex) > 5 ? QString::fromUtf8(PQgetvalue(ex, 0, 5)) : QString();
        return schemaError(
            ErrorWords::tr("permission denied: no SELECT on %1").arg(cfg.qualifiedName()),
            QStringLiteral("GRANT SELECT ON %1 TO %2;")
                .arg(sqlQualifiedName(cfg.schema, cfg.table),
                     role.isEmpty() ? QStringLiteral("<monitoring role>") : sqlIdentifier(role)),
            QStringLiteral("42501"));
    }

    QHash<QString, QString> types; // column -> base type name
    QHash<QString, QString> shown; // column -> formatted type
    const PGresult* cr = results[1].result.get();
    for (int i = 0; cr && i < PQntuples(cr); ++i) {
        const QString col = QString::fromUtf8(PQgetvalue(cr, i, 0));
        shown.insert(col, QString::fromUtf8(PQgetvalue(cr, i, 1)));
        types.insert(col, QString::fromUtf8(PQgetvalue(cr, i, 2)));
    }
    if (cfg.mappedByExpressions()) {
        // A catalogue entry named by hand: the library's columns, as its source declares them.
        const QStringList problems = signatureProblems(cfg, types);
        if (problems.isEmpty())
            return std::nullopt;
        return schemaError(ErrorWords::tr("%1 is not %2's table: %3")
                               .arg(cfg.qualifiedName(), cfg.label(), problems.join(QStringLiteral("; "))),
                           ErrorWords::tr("name the library's table with --table, or choose another --preset"),
                           QStringLiteral("42703"));
    }
    static const QStringList textTypes = {QStringLiteral("text"),      QStringLiteral("character varying"),
                                          QStringLiteral("character"), QStringLiteral("name"),
                                          QStringLiteral("uuid"),      QStringLiteral("citext")};
    const bool tz = cfg.timeKind == LeaseTableConfig::TimeKind::TimestampTz;
    const QString timeType =
        tz ? QStringLiteral("timestamp with time zone") : QStringLiteral("timestamp without time zone");
    struct Want
    {
        QString role;
        QString column;
        bool text;
    };
    const Want wants[] = {{QStringLiteral("name"), cfg.nameColumn, true},
                          {QStringLiteral("holder"), cfg.holderColumn, true},
                          {QStringLiteral("taken-at"), cfg.takenAtColumn, false},
                          {QStringLiteral("expires-at"), cfg.expiresAtColumn, false}};
    QStringList problems;
    for (const Want& w : wants) {
        if (!types.contains(w.column)) {
            problems << ErrorWords::tr("column \"%1\" (the %2 column) is missing").arg(w.column, w.role);
            continue;
        }
        const QString t = types.value(w.column);
        if (w.text ? !textTypes.contains(t) : t != timeType) {
            QString expect = w.text ? ErrorWords::tr("a text type") : timeType;
            QString fix;
            if (!w.text && t == QLatin1String("timestamp without time zone"))
                fix =
                    ErrorWords::tr(" (choose \"naive UTC\" or a zone for the expiry column in the profile)");
            else if (!w.text && t == QLatin1String("timestamp with time zone"))
                fix = ErrorWords::tr(" (choose \"timestamptz\" for the expiry column in the profile)");
            problems << ErrorWords::tr("column \"%1\" (the %2 column) is %3, expected %4%5")
                            .arg(w.column, w.role, shown.value(w.column), expect, fix);
        }
    }
    if (!problems.isEmpty())
        return schemaError(
            ErrorWords::tr("%1 does not match the profile: %2")
                .arg(cfg.qualifiedName(), problems.join(QStringLiteral("; "))),
            ErrorWords::tr("fix the column mapping in the profile's leases-table settings (or --columns, "
                           "--time-kind)"),
            QStringLiteral("42703"));
    return std::nullopt;
}

// Name, holder, taken-at and expires-at (float8 epochs, binary), and with several tables a fifth
// column, the index of the row's table (int4, binary).
} // namespace lw
