#pragma once
// SQL the console suggests for the operator to paste (GRANTs): identifiers quoted exactly where the
// server needs it, as quote_ident() does, so that `GRANT SELECT ON public."Leases ""2026""" TO
// "Mon-Itor";` runs as shown. Statements the console itself sends use libpq's quoting and bound
// parameters instead (pg::Connection::quoteIdentifier).
#include <QString>

namespace lw {

// `ident` as the server reads it: unchanged when it is a lower-case plain name that is not a
// reserved word, else in double quotes with inner quotes doubled.
QString sqlIdentifier(const QString& ident);
// schema.table, each part quoted as needed.
QString sqlQualifiedName(const QString& schema, const QString& table);
// `text` as a string literal: in single quotes, inner quotes doubled.
QString sqlLiteral(const QString& text);

} // namespace lw
