#include "LeaseTable.h"

#include "SqlText.h"

#include <QHash>

namespace lw {

QString LeaseTableConfig::timeKindSpec() const
{
    switch (timeKind) {
    case TimeKind::TimestampTz:
        return QStringLiteral("timestamptz");
    case TimeKind::NaiveUtc:
        return QStringLiteral("utc");
    case TimeKind::NaiveZone:
        return zone;
    }
    return {};
}

QString LeaseTableConfig::columnsSpec() const
{
    return QStringList{nameColumn, holderColumn, takenAtColumn, expiresAtColumn}.join(QLatin1Char(','));
}

void LeaseTableConfig::setQualifiedName(const QString& name)
{
    const QString t = name.trimmed();
    const auto dot = t.indexOf(QLatin1Char('.'));
    if (dot > 0) {
        schema = t.left(dot);
        table = t.mid(dot + 1);
    } else if (!t.isEmpty()) {
        table = t;
    }
}

QStringList LeaseTableConfig::presetNames()
{
    return {QStringLiteral("default"), QStringLiteral("shedlock"), QStringLiteral("river")};
}

std::optional<LeaseTableConfig> LeaseTableConfig::preset(const QString& name)
{
    LeaseTableConfig c;
    if (name == QLatin1String("default"))
        return c;
    if (name == QLatin1String("shedlock")) {
        c.table = QStringLiteral("shedlock");
        c.nameColumn = QStringLiteral("name");
        c.holderColumn = QStringLiteral("locked_by");
        c.takenAtColumn = QStringLiteral("locked_at");
        c.expiresAtColumn = QStringLiteral("lock_until");
        c.timeKind = TimeKind::NaiveUtc;
        c.writerUsesAppClock = true; // ShedLock writes from the application's clock unless told otherwise
        c.scheme = QStringLiteral("shedlock");
        c.expiryFrees = true;
        c.expectRenewals = false;
        return c;
    }
    if (name == QLatin1String("river")) {
        c.table = QStringLiteral("river_leader");
        c.holderColumn = QStringLiteral("leader_id");
        c.takenAtColumn = QStringLiteral("elected_at");
        c.expiresAtColumn = QStringLiteral("expires_at");
        c.scheme = QStringLiteral("river");
        return c;
    }
    return std::nullopt;
}

pg::Statement leaseTableDetection()
{
    // One catalogue read: tables (and views) named like a known lease table, in any schema; public
    // first. Readable or not: a lease table the role cannot read is a problem to be told (with the
    // GRANT), not a table that is not there.
    QByteArray sql =
        "SELECT n.nspname::text, c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relname = ANY($1::text[]) "
        "AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
        "ORDER BY n.nspname <> 'public', n.nspname, c.relname";
    QByteArray names = "{";
    for (const QString& p : LeaseTableConfig::presetNames()) {
        if (names.size() > 1)
            names += ',';
        names += LeaseTableConfig::preset(p)->table.toUtf8();
    }
    return {sql, {names + "}"}};
}

std::optional<LeaseTableConfig> detectedLeaseTable(const PGresult* r, QStringList* found)
{
    std::optional<LeaseTableConfig> best;
    int bestRank = 1 << 30;
    const QStringList presets = LeaseTableConfig::presetNames();
    for (int i = 0; r && i < PQntuples(r); ++i) {
        const QString schema = QString::fromUtf8(PQgetvalue(r, i, 0));
        const QString table = QString::fromUtf8(PQgetvalue(r, i, 1));
        for (int k = 0; k < presets.size(); ++k) {
            LeaseTableConfig c = *LeaseTableConfig::preset(presets[k]);
            if (c.table != table)
                continue;
            c.schema = schema;
            if (found)
                *found << QStringLiteral("%1 (%2)").arg(c.qualifiedName(), presets[k]);
            const int rank = k * 2 + (schema == QLatin1String("public") ? 0 : 1);
            if (rank < bestRank) {
                bestRank = rank;
                best = c;
            }
        }
    }
    return best;
}

QString noLeaseTableText()
{
    QStringList looked;
    for (const QString& p : LeaseTableConfig::presetNames())
        looked << QStringLiteral("%1 (%2)").arg(LeaseTableConfig::preset(p)->table, p);
    return QStringLiteral("No lease table found: looked in every schema for %1. Advisory locks, sessions and "
                          "pools are shown as usual; name a table with --table/--preset or in the profile.")
        .arg(looked.join(QStringLiteral(", ")));
}

bool LeaseTableConfig::setTimeKind(const QString& spec)
{
    const QString s = spec.trimmed();
    if (s.isEmpty())
        return false;
    if (s == QLatin1String("timestamptz")) {
        timeKind = TimeKind::TimestampTz;
    } else if (s.compare(QLatin1String("utc"), Qt::CaseInsensitive) == 0) {
        timeKind = TimeKind::NaiveUtc;
    } else {
        timeKind = TimeKind::NaiveZone; // the server validates the zone name
        zone = s;
    }
    return true;
}

bool LeaseTableConfig::setColumns(const QString& spec)
{
    const QStringList parts = spec.split(QLatin1Char(','));
    if (parts.size() != 4)
        return false;
    for (const QString& p : parts)
        if (p.trimmed().isEmpty())
            return false;
    nameColumn = parts[0].trimmed();
    holderColumn = parts[1].trimmed();
    takenAtColumn = parts[2].trimmed();
    expiresAtColumn = parts[3].trimmed();
    return true;
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

pg::Statement leaseSelect(const pg::Connection& conn, const LeaseTableConfig& cfg, bool rowVersion)
{
    const QByteArray table = conn.quoteIdentifier(cfg.schema) + "." + conn.quoteIdentifier(cfg.table);
    const QByteArray taken = asInstant(conn.quoteIdentifier(cfg.takenAtColumn), cfg.timeKind, 1);
    const QByteArray expires = asInstant(conn.quoteIdentifier(cfg.expiresAtColumn), cfg.timeKind, 1);
    pg::Statement s;
    // xmin first: with the name, it tells an unchanged row without reading the rest of it.
    s.sql = QByteArray("SELECT ") + (rowVersion ? "xmin, " : "") + conn.quoteIdentifier(cfg.nameColumn) + "::text, " +
            conn.quoteIdentifier(cfg.holderColumn) + "::text, date_part('epoch', " + taken +
            "), date_part('epoch', " + expires + ") FROM " + table;
    if (cfg.timeKind == LeaseTableConfig::TimeKind::NaiveZone)
        s.params.push_back(cfg.zone.toUtf8());
    // Binary: text arrives as it would (in the client encoding), the epochs as 8-byte float8 — the
    // server skips float8out, a fifth of this statement's time at 100 000 rows.
    s.binaryResults = true;
    return s;
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

bool leaseTableHasRowVersions(const std::vector<pg::StatementResult>& results)
{
    const PGresult* ex = results.empty() ? nullptr : results[0].result.get();
    return ex && PQntuples(ex) == 1 && PQnfields(ex) > 4 && !PQgetisnull(ex, 0, 4) && PQgetvalue(ex, 0, 4)[0] == 't';
}

std::optional<pg::PgError> interpretLeaseTableCheck(const LeaseTableConfig& cfg,
                                                    const std::vector<pg::StatementResult>& results)
{
    auto schemaError = [&](const QString& msg, const QString& hint, const QString& state = {}) {
        pg::PgError e;
        e.kind = pg::PgError::Kind::Schema;
        e.message = msg;
        e.hint = hint;
        e.sqlstate = state;
        return e;
    };
    if (results.size() != 2)
        return schemaError(QStringLiteral("could not check the leases table"), QString());
    for (const auto& r : results)
        if (r.error.isError())
            return r.error;
    const PGresult* ex = results[0].result.get();
    if (!ex || PQntuples(ex) != 1)
        return schemaError(QStringLiteral("could not check the leases table"), QString());
    auto flag = [&](int col) { return !PQgetisnull(ex, 0, col) && PQgetvalue(ex, 0, col)[0] == 't'; };
    if (!flag(0)) {
        if (!flag(3))
            return schemaError(
                QStringLiteral("schema \"%1\" does not exist").arg(cfg.schema),
                QStringLiteral("set the leases table's schema in the profile or with --table (or create it)"),
                QStringLiteral("3F000"));
        return schemaError(
            QStringLiteral("leases table %1 does not exist").arg(cfg.qualifiedName()),
            QStringLiteral("set the leases table in the profile (schema, table) or with --table, or "
                           "choose a preset (--preset default, shedlock, river)"),
            QStringLiteral("42P01"));
    }
    if (!flag(1)) {
        // The statement to run, ready to paste: this connection's role by name.
        const QString role = PQnfields(ex) > 5 ? QString::fromUtf8(PQgetvalue(ex, 0, 5)) : QString();
        return schemaError(
            QStringLiteral("permission denied: no SELECT on %1").arg(cfg.qualifiedName()),
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
            problems << QStringLiteral("column \"%1\" (the %2 column) is missing").arg(w.column, w.role);
            continue;
        }
        const QString t = types.value(w.column);
        if (w.text ? !textTypes.contains(t) : t != timeType) {
            QString expect = w.text ? QStringLiteral("a text type") : timeType;
            QString fix;
            if (!w.text && t == QLatin1String("timestamp without time zone"))
                fix =
                    QStringLiteral(" (choose \"naive UTC\" or a zone for the expiry column in the profile)");
            else if (!w.text && t == QLatin1String("timestamp with time zone"))
                fix = QStringLiteral(" (choose \"timestamptz\" for the expiry column in the profile)");
            problems << QStringLiteral("column \"%1\" (the %2 column) is %3, expected %4%5")
                            .arg(w.column, w.role, shown.value(w.column), expect, fix);
        }
    }
    if (!problems.isEmpty())
        return schemaError(
            QStringLiteral("%1 does not match the profile: %2")
                .arg(cfg.qualifiedName(), problems.join(QStringLiteral("; "))),
            QStringLiteral("fix the column mapping in the profile's leases-table settings (or --columns, "
                           "--time-kind)"),
            QStringLiteral("42703"));
    return std::nullopt;
}

} // namespace lw
