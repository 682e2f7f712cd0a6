#include "PgBouncerSource.h"
#include "domain/Words.h"

#include "domain/Secrets.h"

#include <QDateTime>
#include <QHash>

#include <poll.h>

#include <cerrno>

namespace lw::bouncer {

using pg::Clock;
using pg::PgError;

// --- Connection -----------------------------------------------------------------------------------

PgError BouncerConnection::connect(const BouncerConfig& cfg)
{
    conn_.reset();
    if (auto bad = pg::validateDsn(cfg.dsn))
        return *bad;
    const QByteArray dsn = pg::normalizeDsn(cfg.dsn).toUtf8();
    const QByteArray appName = cfg.applicationName.toUtf8();
    // No `options`: PgBouncer refuses unknown startup parameters ("unsupported startup parameter:
    // options"); application_name it accepts. Keepalives are client-side settings.
    const char* keys[] = {
        "dbname",           "application_name", "keepalives", "keepalives_idle", "keepalives_interval",
        "keepalives_count", "tcp_user_timeout", nullptr};
    const char* vals[] = {dsn.constData(), appName.constData(), "1", "10", "5", "3", "30000", nullptr};
    auto failed = [this, &cfg] {
        PgError e = pg::errorFromConnection(conn_.get(), PgError::Kind::ConnectFailed);
        e.message = scrubDsnSecrets(e.message, cfg.dsn); // libpq's text may quote the DSN
        conn_.reset();
        return e;
    };
    conn_.reset(PQconnectStartParams(keys, vals, 1));
    if (!conn_ || PQstatus(conn_.get()) == CONNECTION_BAD)
        return failed();
    // libpq ignores connect_timeout in a non-blocking connect: our own deadline.
    const auto deadline = Clock::now() + std::chrono::seconds(cfg.connectTimeoutS);
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    while (st != PGRES_POLLING_OK) {
        if (st == PGRES_POLLING_FAILED)
            return failed();
        if (!wait(st == PGRES_POLLING_WRITING, deadline)) {
            conn_.reset();
            PgError e;
            e.kind = PgError::Kind::Timeout;
            e.message = QStringLiteral("timeout expired while connecting to PgBouncer (%1 s)")
                            .arg(cfg.connectTimeoutS);
            return e;
        }
        st = PQconnectPoll(conn_.get());
    }
    PQsetnonblocking(conn_.get(), 1);
    PQsetNoticeReceiver(
        conn_.get(), [](void*, const PGresult*) {}, nullptr);
    return {};
}

bool BouncerConnection::wait(bool forWrite, Clock::time_point deadline) const
{
    for (;;) {
        // Re-read every time: the socket may change between connect polls.
        const int fd = PQsocket(conn_.get());
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (fd < 0 || left <= 0 || (abort_ && abort_->load(std::memory_order_relaxed)))
            return false;
        pollfd p{fd, short(forWrite ? (POLLIN | POLLOUT) : POLLIN), 0};
        // Short slices while an abort flag is set: a stopping worker gives up within ~50 ms.
        const int r = ::poll(&p, 1, int(std::min<long long>(left, abort_ ? 50 : 1000)));
        if (r > 0)
            return true;
        if (r < 0 && errno != EINTR)
            return false;
    }
}

PgError BouncerConnection::lost(const QString& fallback)
{
    PgError e = pg::errorFromConnection(conn_.get(), PgError::Kind::ConnectionLost);
    if (!fallback.isEmpty() && (e.message.isEmpty() || e.message == QLatin1String("connection failed")))
        e.message = fallback;
    conn_.reset();
    return e;
}

PgError BouncerConnection::query(const QByteArray& sql, pg::ResultPtr& out, Clock::time_point deadline)
{
    out.reset();
    if (!isOpen()) {
        PgError e;
        e.kind = PgError::Kind::ConnectionLost;
        e.message = QStringLiteral("not connected");
        return e;
    }
    PGconn* c = conn_.get();
    const QString closed = QStringLiteral("PgBouncer closed the connection unexpectedly");
    auto timedOut = [&] {
        // Nothing to cancel on the admin console: drop the connection, the caller reconnects.
        conn_.reset();
        PgError e;
        e.kind = PgError::Kind::Timeout;
        e.message = QStringLiteral("PgBouncer did not answer within the refresh deadline");
        return e;
    };
    // Simple query protocol: the admin console knows no Parse/Bind (so no pipeline, no parameters).
    if (!PQsendQuery(c, sql.constData()))
        return lost(closed);
    for (int f = PQflush(c); f != 0; f = PQflush(c)) {
        if (f < 0)
            return lost(closed);
        if (!wait(true, deadline))
            return timedOut();
        if (!PQconsumeInput(c))
            return lost(closed);
    }
    PgError err;
    for (;;) {
        while (!PQisBusy(c)) {
            pg::ResultPtr r(PQgetResult(c));
            if (!r) {
                if (err.kind == PgError::Kind::ConnectionLost || PQstatus(c) != CONNECTION_OK)
                    conn_.reset();
                else if (!err.isError() && !out)
                    return lost(closed);
                return err;
            }
            const auto st = PQresultStatus(r.get());
            if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK)
                out = std::move(r);
            else if (!err.isError())
                err = pg::errorFromResult(r.get(), c);
        }
        if (!wait(false, deadline))
            return timedOut();
        if (!PQconsumeInput(c))
            return lost(closed);
    }
}

// --- Decoding -------------------------------------------------------------------------------------

namespace {
// Column access by name: PgBouncer adds and reorders columns between versions.
class Columns
{
public:
    explicit Columns(const PGresult* r) : r_(r) {}
    int col(const char* name) const { return r_ ? PQfnumber(r_, name) : -1; }
    QString text(int row, const char* name) const
    {
        const int c = col(name);
        return c < 0 || PQgetisnull(r_, row, c) ? QString() : QString::fromUtf8(PQgetvalue(r_, row, c));
    }
    std::optional<qint64> number(int row, const char* name) const
    {
        const int c = col(name);
        if (c < 0 || PQgetisnull(r_, row, c))
            return std::nullopt;
        bool ok = false;
        const qint64 v = QByteArray(PQgetvalue(r_, row, c)).toLongLong(&ok);
        return ok ? std::optional<qint64>(v) : std::nullopt;
    }
    int count(int row, const char* name) const { return int(number(row, name).value_or(0)); }
    int rows() const { return r_ ? PQntuples(r_) : 0; }

private:
    const PGresult* r_;
};

// Rows of SHOW POOLS / SHOW SERVERS: every one names its database and user.
template <typename T, typename Fill> std::vector<T> decodeRows(const PGresult* r, Fill fill)
{
    std::vector<T> out;
    const Columns c(r);
    out.reserve(size_t(c.rows()));
    for (int i = 0; i < c.rows(); ++i) {
        T v;
        v.database = c.text(i, "database");
        v.user = c.text(i, "user");
        fill(c, i, v);
        out.push_back(std::move(v));
    }
    return out;
}

bool isAdminPool(const QString& database, const QString& user)
{
    return database == QLatin1String("pgbouncer") && user == QLatin1String("pgbouncer");
}
} // namespace

std::vector<BouncerPool> decodePools(const PGresult* pools, const PGresult* databases)
{
    struct Db
    {
        std::optional<int> poolSize;
        QString database;
        QString poolMode;
    };
    QHash<QString, Db> dbs;
    const Columns d(databases);
    for (int i = 0; i < d.rows(); ++i) {
        Db db;
        if (const auto n = d.number(i, "pool_size"))
            db.poolSize = int(*n);
        db.database = d.text(i, "database");
        db.poolMode = d.text(i, "pool_mode");
        dbs.insert(d.text(i, "name"), db);
    }
    return decodeRows<BouncerPool>(pools, [&dbs](const Columns& p, int i, BouncerPool& b) {
        b.clActive = p.count(i, "cl_active");
        b.clWaiting = p.count(i, "cl_waiting");
        b.svActive = p.count(i, "sv_active");
        b.svIdle = p.count(i, "sv_idle");
        b.svUsed = p.count(i, "sv_used");
        b.maxwaitS = double(p.count(i, "maxwait")) + double(p.count(i, "maxwait_us")) / 1e6;
        b.poolMode = p.text(i, "pool_mode");
        const auto it = dbs.constFind(b.database);
        if (it != dbs.constEnd()) {
            b.poolSize = it->poolSize;
            b.serverDatabase = it->database;
            if (b.poolMode.isEmpty()) // older PgBouncers' SHOW POOLS has no pool_mode column
                b.poolMode = it->poolMode;
        }
    });
}

std::vector<BouncerServer> decodeServers(const PGresult* servers)
{
    return decodeRows<BouncerServer>(servers, [](const Columns& c, int i, BouncerServer& s) {
        s.remotePid = int(c.number(i, "remote_pid").value_or(0));
        s.state = c.text(i, "state");
        s.addr = c.text(i, "addr");
        s.port = c.count(i, "port");
        s.linked = !c.text(i, "link").isEmpty();
        s.applicationName = c.text(i, "application_name");
    });
}

// --- Refresh --------------------------------------------------------------------------------------

BouncerSnapshot PgBouncerSource::refreshOnce()
{
    BouncerSnapshot s;
    s.seq = ++seq_;
    auto finish = [&s]() -> BouncerSnapshot& {
        s.receivedMonotonicMs = monotonicMs();
        s.receivedEpochS = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
        return s;
    };
    if (!conn_.isOpen()) {
        version_.clear();
        s.error = conn_.connect(cfg_);
        if (s.error.isError())
            return finish();
    }
    const auto deadline = Clock::now() + std::chrono::milliseconds(cfg_.refreshDeadlineMs);
    // One statement per query (the console refuses "SHOW POOLS; SHOW SERVERS"): one round trip each.
    auto run = [&](const char* sql, pg::ResultPtr& r) {
        if (s.error.isError())
            return;
        s.error = conn_.query(sql, r, deadline);
        ++s.roundTrips;
        // SHOW POOLS sent to PostgreSQL itself: 42704 unrecognized configuration parameter "pools".
        if (s.error.kind == PgError::Kind::Query && s.error.hint.isEmpty())
            s.error.hint = ErrorWords::tr("connect to PgBouncer's admin console: dbname=pgbouncer, as a user "
                                          "listed in admin_users or stats_users");
        if (!s.error.isError() && (!r || PQresultStatus(r.get()) != PGRES_TUPLES_OK)) {
            s.error.kind = PgError::Kind::Query;
            s.error.message = ErrorWords::tr("%1 returned no rows: is this PgBouncer's admin console "
                                             "(dbname=pgbouncer)?")
                                  .arg(QLatin1String(sql));
        }
    };
    if (version_.isEmpty()) {
        pg::ResultPtr v;
        run("SHOW VERSION", v);
        if (v && PQntuples(v.get()) > 0 && PQnfields(v.get()) > 0)
            version_ = QString::fromUtf8(PQgetvalue(v.get(), 0, 0));
    }
    pg::ResultPtr pools, databases, servers;
    run("SHOW POOLS", pools);
    run("SHOW DATABASES", databases);
    run("SHOW SERVERS", servers);
    if (s.error.isError()) {
        if (s.error.needsReconnect())
            conn_.close();
        return finish();
    }
    s.ok = true;
    s.version = version_;
    s.pools = decodePools(pools.get(), databases.get());
    s.servers = decodeServers(servers.get());
    if (!cfg_.includeAdminPool) {
        std::erase_if(s.pools, [](const BouncerPool& p) { return isAdminPool(p.database, p.user); });
        std::erase_if(s.servers, [](const BouncerServer& v) { return isAdminPool(v.database, v.user); });
    }
    return finish();
}

// --- Join with the cluster's advisory locks -------------------------------------------------------

std::vector<SlotHold> slotHolds(const BouncerSnapshot& b, const Snapshot& s)
{
    std::vector<SlotHold> out;
    if (!b.ok || !s.ok)
        return out;
    QHash<int, std::vector<const AdvisoryLockRow*>> heldByPid;
    for (const AdvisoryLockRow& l : s.advisoryLocks)
        if (l.granted)
            heldByPid[l.pid].push_back(&l);
    if (heldByPid.isEmpty())
        return out;
    QHash<int, const SessionRow*> sessionByPid;
    for (const SessionRow& r : s.sessions)
        sessionByPid.insert(r.pid, &r);
    QHash<QString, const BouncerPool*> poolByKey;
    for (const BouncerPool& p : b.pools)
        poolByKey.insert(p.key(), &p);
    const KeyNames noNames;
    const KeyNames& names = s.keyNames ? *s.keyNames : noNames;

    for (const BouncerServer& v : b.servers) {
        const auto held = heldByPid.constFind(v.remotePid);
        if (v.remotePid <= 0 || held == heldByPid.constEnd())
            continue;
        const BouncerPool* pool = poolByKey.value(v.poolKey(), nullptr);
        const QString db = pool && !pool->serverDatabase.isEmpty() ? pool->serverDatabase : v.database;
        const SessionRow* session = sessionByPid.value(v.remotePid, nullptr);
        // The same pid on another server (PgBouncer in front of a different cluster) is not ours.
        if (session && (session->database != db || session->user != v.user))
            continue;
        SlotHold h;
        for (const AdvisoryLockRow* l : *held) {
            if (l->database != db)
                continue;
            const QString name = resolveLockName(*l, names);
            h.locks << (name.isEmpty() ? advisoryKeyText(*l) : name);
        }
        if (h.locks.isEmpty())
            continue;
        h.server = v;
        if (pool) {
            h.poolMode = pool->poolMode;
            h.poolSize = pool->poolSize;
        }
        // Unlinked, the slot has no transaction open (PgBouncer hands servers back only between
        // transactions); an idle backend has none either. Either way the lock outlives transactions.
        h.sessionLevel = !v.linked || (session && session->state == QLatin1String("idle"));
        h.transactionPooled =
            h.poolMode == QLatin1String("transaction") || h.poolMode == QLatin1String("statement");
        h.leaksToNextClient = !v.linked;
        out.push_back(std::move(h));
    }
    return out;
}

std::vector<Finding> slotFindings(const std::vector<SlotHold>& holds)
{
    std::vector<Finding> out;
    for (const SlotHold& h : holds) {
        Finding f;
        f.kind = FindingKind::BouncerSlotHoldsLock;
        f.subject = QString::number(h.server.remotePid);
        const QString pool = h.server.poolKey();
        f.id = findingKindKey(f.kind) + QLatin1Char(':') + pool + QLatin1Char(':') + f.subject;
        const QString locks =
            (h.locks.size() > 1 ? FindingWords::tr("advisory locks %1") : FindingWords::tr("advisory lock %1"))
                .arg(h.locks.join(QStringLiteral(", ")));
        const QString mode = h.poolMode.isEmpty() ? QStringLiteral("?") : h.poolMode;
        const QString where = FindingWords::tr("PgBouncer pool %1 (%2 pooling): server connection pid %3")
                                  .arg(pool, mode)
                                  .arg(h.server.remotePid);
        if (h.transactionPooled && h.sessionLevel) {
            f.severity = 3;
            f.title = FindingWords::tr("%1 holds session-level %2 — an application bug").arg(where, locks);
            f.explanation = FindingWords::tr(
                "A session-level advisory lock held on a transaction-pooled server connection leaks to "
                "the next client of that slot: after its transaction the client that took it has no "
                "claim on this connection and cannot reliably unlock it, and whoever gets the slot next "
                "holds the lock without knowing. PgBouncer runs no reset between transactions.");
            f.fix = FindingWords::tr(
                        "Use pg_advisory_xact_lock (released at commit) on transaction-pooled connections, "
                        "or take session locks over a session-pooled database or a direct connection. To "
                        "free it now: pg_terminate_backend(%1) (the pool opens a new server connection).")
                        .arg(h.server.remotePid);
        } else if (h.transactionPooled) {
            f.severity = 1;
            f.title = FindingWords::tr("%1 holds %2 inside a client's transaction").arg(where, locks);
            f.explanation = FindingWords::tr(
                "Fine if it is a transaction-level lock (pg_advisory_xact_lock, released at commit). If "
                "the application took it with pg_advisory_lock it stays on this server connection after "
                "the transaction and leaks to the next client of the slot.");
            f.fix = FindingWords::tr("Use pg_advisory_xact_lock on transaction-pooled connections.");
        } else if (h.leaksToNextClient) {
            f.severity = 2;
            f.title = FindingWords::tr("%1 is back in the pool and still holds %2").arg(where, locks);
            f.explanation =
                FindingWords::tr("The client that took the lock has gone and the server reset did not "
                               "release it: the next client of this slot inherits the lock.");
            f.fix = FindingWords::tr("Keep server_reset_query = DISCARD ALL (it releases session advisory "
                                   "locks), or unlock (pg_advisory_unlock_all()) before disconnecting.");
        } else {
            f.severity = 1;
            f.title = (h.sessionLevel ? FindingWords::tr("%1 holds session-level %2 for its client")
                                      : FindingWords::tr("%1 holds %2 for its client"))
                          .arg(where, locks);
            f.explanation = FindingWords::tr(
                "Under session pooling the client keeps this server connection until it disconnects; "
                "PgBouncer's reset (DISCARD ALL) releases session locks then.");
            f.fix = FindingWords::tr("Nothing, unless the lock is held longer than the work needs.");
        }
        out.push_back(std::move(f));
    }
    return out;
}

} // namespace lw::bouncer
