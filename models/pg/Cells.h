#pragma once
// Reading one cell of a result: text-format unless said otherwise; NULL reads as 0 or empty.
#include <libpq-fe.h>

#include <QString>
#include <QtEndian>

#include <bit>
#include <cstdlib>
#include <optional>

namespace lw::pg {

inline double cellDouble(const PGresult* r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0.0 : std::strtod(PQgetvalue(r, row, col), nullptr);
}

inline qint64 cellInt64(const PGresult* r, int row, int col)
{
    return qint64(std::strtoll(PQgetvalue(r, row, col), nullptr, 10));
}

inline QString cellText(const PGresult* r, int row, int col)
{
    return QString::fromUtf8(PQgetvalue(r, row, col), PQgetlength(r, row, col));
}

inline bool cellTrue(const PGresult* r, int row, int col)
{
    return PQgetvalue(r, row, col)[0] == 't';
}

// A float8 in text or binary format (big-endian IEEE 754); nullopt for NULL or no result.
inline std::optional<double> cellOptDouble(const PGresult* r, int row, int col)
{
    if (!r || PQgetisnull(r, row, col))
        return std::nullopt;
    if (PQfformat(r, col) == 1 && PQgetlength(r, row, col) == 8)
        return std::bit_cast<double>(qFromBigEndian<quint64>(PQgetvalue(r, row, col)));
    return std::strtod(PQgetvalue(r, row, col), nullptr);
}

} // namespace lw::pg
