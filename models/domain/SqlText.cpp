#include "SqlText.h"

#include <QSet>

namespace lw {

namespace {
// PostgreSQL 15's keywords that quote_ident() quotes: the reserved ones and those that cannot be a
// column or type name (src/include/parser/kwlist.h: RESERVED_KEYWORD, TYPE_FUNC_NAME_KEYWORD).
const QSet<QString>& quotedKeywords()
{
    static const QSet<QString> words = [] {
        QSet<QString> s;
        for (const char* w :
             {"all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization",
              "binary", "both", "case", "cast", "check", "collate", "collation", "column", "concurrently",
              "constraint", "create", "cross", "current_catalog", "current_date", "current_role",
              "current_schema", "current_time", "current_timestamp", "current_user", "default", "deferrable",
              "desc", "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign", "freeze",
              "from", "full", "grant", "group", "having", "ilike", "in", "initially", "inner", "intersect",
              "into", "is", "isnull", "join", "lateral", "leading", "left", "like", "limit", "localtime",
              "localtimestamp", "natural", "not", "notnull", "null", "offset", "on", "only", "or", "order",
              "outer", "overlaps", "placing", "primary", "references", "returning", "right", "select",
              "session_user", "similar", "some", "symmetric", "system_user", "table", "tablesample", "then",
              "to", "trailing", "true", "union", "unique", "user", "using", "variadic", "verbose", "when",
              "where", "window", "with"})
            s.insert(QString::fromLatin1(w));
        return s;
    }();
    return words;
}

bool isPlain(const QString& ident)
{
    if (ident.isEmpty())
        return false;
    const QChar first = ident.front();
    if (!((first >= QLatin1Char('a') && first <= QLatin1Char('z')) || first == QLatin1Char('_')))
        return false;
    for (QChar c : ident)
        if (!((c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
              c == QLatin1Char('_')))
            return false;
    return !quotedKeywords().contains(ident);
}
} // namespace

QString sqlIdentifier(const QString& ident)
{
    if (isPlain(ident))
        return ident;
    QString q = ident;
    q.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString sqlQualifiedName(const QString& schema, const QString& table)
{
    return sqlIdentifier(schema) + QLatin1Char('.') + sqlIdentifier(table);
}

QString sqlLiteral(const QString& text)
{
    QString out = text;
    return QLatin1Char('\'') + out.replace(QLatin1Char('\''), QLatin1String("''")) + QLatin1Char('\'');
}

} // namespace lw
