#pragma once
// RAII owners for every libpq handle: a PGconn, PGresult or PGcancel can never leak, whatever path
// (error, deadline, exception) leaves the scope.
#include <libpq-fe.h>

#include <memory>

namespace lw::pg {

struct ConnDeleter
{
    void operator()(PGconn* c) const noexcept { PQfinish(c); }
};
struct ResultDeleter
{
    void operator()(PGresult* r) const noexcept { PQclear(r); }
};
struct CancelDeleter
{
    void operator()(PGcancel* c) const noexcept { PQfreeCancel(c); }
};
struct ConninfoDeleter
{
    void operator()(PQconninfoOption* o) const noexcept { PQconninfoFree(o); }
};
struct PqMemDeleter
{
    void operator()(void* p) const noexcept { PQfreemem(p); }
};

using ConnPtr = std::unique_ptr<PGconn, ConnDeleter>;
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;
using CancelPtr = std::unique_ptr<PGcancel, CancelDeleter>;
using ConninfoPtr = std::unique_ptr<PQconninfoOption, ConninfoDeleter>;
using PqString = std::unique_ptr<char, PqMemDeleter>;

} // namespace lw::pg
