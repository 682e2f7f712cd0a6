#pragma once
// The QDataStream form of the values that both the history's state blobs and the recorder's live
// feed carry: one form each, so a recorded refresh and a fed one never disagree.
#include "domain/DbError.h"

#include <QDataStream>

#include <optional>

namespace lw::history {

inline void put(QDataStream& ds, const std::optional<double>& v)
{
    ds << bool(v.has_value()) << v.value_or(0.0);
}
inline void get(QDataStream& ds, std::optional<double>& v)
{
    bool has = false;
    double d = 0;
    ds >> has >> d;
    v = has ? std::optional<double>(d) : std::nullopt;
}
inline void put(QDataStream& ds, const DbError& e)
{
    ds << qint32(e.kind) << e.sqlstate << e.message << e.detail << e.hint;
}
inline void get(QDataStream& ds, DbError& e)
{
    qint32 k = 0;
    ds >> k >> e.sqlstate >> e.message >> e.detail >> e.hint;
    // A kind this build does not know (a newer writer's) reads as a failed statement.
    e.kind = k >= 0 && k <= qint32(DbError::Kind::Schema) ? DbError::Kind(k) : DbError::Kind::Query;
}

} // namespace lw::history
