#pragma once
// libpq's errors as the domain's DbError: the one place that reads PGresult's and PGconn's fields.
#include "domain/DbError.h"

#include <libpq-fe.h>

namespace lw::pg {

using PgError = lw::DbError;
using lw::adviceFor;
using lw::isConnectionLossState;

PgError errorFromResult(const PGresult* res, const PGconn* conn);
PgError errorFromConnection(const PGconn* conn, PgError::Kind kind);

} // namespace lw::pg
