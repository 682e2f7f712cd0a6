// leasewatch-bench [--scale smoke|full] [--json] [--refreshes N] [--cluster-dir DIR] [--only POINT,…]
// leasewatch-bench --process [--leases N,…] [--warmup S] [--seconds S] [--cluster-dir DIR]
//
// Issue 11's benchmark: the console's real refresh (Poller::refreshOnce) and the model updates of
// Monitor::onSnapshot against a throwaway cluster loaded to several scale points, one dimension
// varied at a time. Server time comes from pg_stat_statements, reset and read around every refresh
// from a separate session; the floor (plain SELECTs of the same rows and columns) and the raw decode
// run in the same refresh window. Exit code 0 unless the benchmark could not run (2) or crashed;
// targets are printed, not enforced. With --json the JSON goes to stdout and the tables to stderr.
#include "../support/ProcessStats.h"
#include "BenchReport.h"
#include "BenchWorkload.h"
#include "ProcessBudget.h"

#include "domain/RefreshJudge.h"
#include "itemmodels/LeaseModel.h"
#include "LeasesView.h"
#include "itemmodels/LocksModels.h"
#include "DatabaseWatch.h"
#include "Poller.h"
#include "domain/PoolHistory.h"
#include "feed/FeedServer.h"

#include <QApplication>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLineEdit>
#include <QScrollBar>
#include <QFile>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

using namespace lw;
using namespace lw::bench;

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

volatile std::sig_atomic_t g_interrupted = 0;
void checkInterrupted()
{
    // Unwinding (not exiting) runs the destructors that stop the throwaway cluster.
    if (g_interrupted)
        throw std::runtime_error("interrupted");
}

struct ScalePoint
{
    QString name;
    int leases, locks, backends;
};

// Baseline, then one dimension at a time; within a dimension ascending (RSS is then comparable).
std::vector<ScalePoint> scalePoints(bool smoke)
{
    const ScalePoint base{QStringLiteral("base"), 1000, 100, 10};
    if (smoke)
        return {base};
    return {base,
            {QStringLiteral("leases-10k"), 10000, 100, 10},
            {QStringLiteral("leases-100k"), 100000, 100, 10},
            {QStringLiteral("locks-2k"), 1000, 2000, 10},
            {QStringLiteral("locks-20k"), 1000, 20000, 10},
            {QStringLiteral("backends-100"), 1000, 100, 100},
            {QStringLiteral("backends-400"), 1000, 100, 400},
            // Issue 49's load, measured beside pg_activity: 10 000 leases, 2 000 locks, 55 sessions.
            {QStringLiteral("incident"), 10000, 2000, 55}};
}


// The console's own statements (Poller's sql::), for the raw decode; each point also checks by
// pg_stat_statements query id that they are the ones the console ran.
// Functions, not namespace-scope copies: no dependency on another file's static initialization.
QByteArray consoleMetaSql()
{
    return lw::sql::meta();
}
QByteArray consoleActivitySql()
{
    return lw::sql::activity();
}
QByteArray consoleLocksSql(int serverVersionNum)
{
    return lw::sql::locks(serverVersionNum);
}

// The floor: plain SELECTs of the same rows and columns, no casts, no extract(), no CTE. The
// blockers column is kept (the console needs it and this is its cheapest form); pg_locks is read
// whole, as the console's scan must, and the client could count it.
std::vector<pg::Statement> floorStatements(int serverVersionNum)
{
    const QByteArray waitStart = serverVersionNum >= 140000 ? ", waitstart" : ""; // came in 14
    return {
        {"SELECT now(), current_setting('server_version'), current_setting('server_version_num'), "
         "current_database(), current_user, pg_backend_pid(), current_setting('max_connections'), "
         "current_setting('superuser_reserved_connections'), current_setting('max_locks_per_transaction'), "
         "current_setting('max_prepared_transactions'), d.deadlocks, d.stats_reset, "
         "current_setting('is_superuser') FROM pg_stat_database d WHERE d.datname = current_database()",
         {}},
        {"SELECT pid, datname, usename, application_name, client_addr, client_port, backend_start, "
         "xact_start, "
         "query_start, state_change, state, wait_event_type, wait_event, query, "
         "CASE WHEN wait_event_type = 'Lock' THEN pg_blocking_pids(pid) END "
         "FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
         {}},
        {"SELECT locktype, database, classid, objid, objsubid, pid, mode, granted, fastpath" + waitStart +
             " FROM pg_locks",
         {}},
        {"SELECT name, holder, taken_at, expires_at FROM public.leases", {}},
    };
}

// pg_activity's blocking view, the statement its refresh runs for it (pg_activity 3.0.3,
// pgactivity/queries/get_blocking_post_090600.sql, read from Debian's pg-activity package as
// installed; durations by query start, no filter), its parameters as literals, as psycopg2 (its
// driver in Debian) sends them. Empty when the package is not installed.
pg::Statement pgActivityBlocking()
{
    QFile f(QStringLiteral("/usr/lib/python3/dist-packages/pgactivity/queries/get_blocking_post_090600.sql"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QByteArray sql = f.readAll();
    sql.replace("{duration_column}", "query_start");
    sql.replace("%(min_duration)s", "0");
    sql.replace("%(dbname_filter)s", "NULL");
    return {sql, {}};
}

// Which of the console's statements a pg_stat_statements text is (same words for the floor's).
QString statementKind(const QString& q)
{
    if (q.contains(QLatin1String("hashtext(")))
        return QStringLiteral("hash");
    if (q.contains(QLatin1String("pg_locks")))
        return QStringLiteral("locks");
    if (q.contains(QLatin1String("pg_stat_activity")))
        return QStringLiteral("activity");
    // pg_stat_statements normalises the settings' names away; with or without pg_stat_database
    if (q.contains(QLatin1String("current_database(), current_user")))
        return QStringLiteral("meta");
    if (q.contains(QLatin1String("leases")))
        return QStringLiteral("leases");
    return {};
}

// The bytes the server sent for these results, message by message (the extended protocol's
// ParseComplete, BindComplete, RowDescription, DataRows, CommandComplete): libpq does not count what
// it reads, and PQresultMemorySize (Snapshot::bytesReceived) is its allocation, not the wire.
qint64 wireBytes(const std::vector<pg::StatementResult>& results)
{
    qint64 bytes = 6; // ReadyForQuery after the pipeline's Sync
    for (const auto& r : results) {
        const PGresult* g = r.result.get();
        if (!g)
            continue;
        const int rows = PQntuples(g), cols = PQnfields(g);
        bytes += 5 + 5; // ParseComplete, BindComplete
        bytes += 7;     // RowDescription: type, length, field count
        for (int c = 0; c < cols; ++c)
            bytes += qint64(std::strlen(PQfname(g, c))) + 1 + 18;
        for (int row = 0; row < rows; ++row) {
            bytes += 7; // DataRow: type, length, column count
            for (int c = 0; c < cols; ++c)
                bytes += 4 + (PQgetisnull(g, row, c) ? 0 : PQgetlength(g, row, c));
        }
        bytes += 5 + qint64(std::strlen(PQcmdStatus(const_cast<PGresult*>(g)))) + 1; // CommandComplete
    }
    return bytes;
}

pg::ConnectOptions helperOptions(const QByteArray& conninfo, const char* appName)
{
    pg::ConnectOptions o;
    o.dsn = QString::fromUtf8(conninfo);
    o.applicationName = QString::fromLatin1(appName);
    return o;
}

struct Models
{
    RefreshJudge judge; // before the lease model that views it
    LeaseModel leases{judge};
    AdvisoryLockModel locks;
    BlockingTreeModel blocking;
    FindingsModel findings;
    PoolHistory poolHistory; // PoolView's, fed by Monitor::refreshed
    Snapshot last;           // Monitor::last_
    // The re-run of analyze() gets what the poller's got: the analysis of the refresh before.
    std::shared_ptr<const Analysis> previousAnalysis;
};

// Monitor::onSnapshot, timed by part. The queued signal's copy and Monitor::last_ are the handoff.
void applyToModels(Models& m, const Snapshot& fromWorker, Sample& out)
{
    auto t = Clock::now();
    const Snapshot s = fromWorker; // the argument copy a queued connection makes
    m.last = s;
    out.handoffMs = msSince(t);
    t = Clock::now();
    m.judge.apply(s); // the lease rows through the model, then deadlocks, holders, findings
    out.leaseModelMs = msSince(t);
    t = Clock::now();
    m.locks.applySnapshot(s);
    m.blocking.applySnapshot(s);
    out.lockModelsMs = msSince(t);
    t = Clock::now();
    if (s.ok)
        m.findings.setFindings(m.judge.findings(), s.serverNow);
    out.findingsMs = msSince(t);
    t = Clock::now();
    m.poolHistory.add(s); // PoolView::onRefreshed, whether the page is shown or not
    out.poolHistoryMs = msSince(t);
}

// The client side of one refresh: the models updated (timed by part), analyze() timed again (it
// ran inside refreshOnce after decodeMs was taken; it is pure, and gets the previous refresh's
// analysis as the poller's run did), and their sum as clientMs. Returns
// the findings count, for the caller's sink (the analysis must not be optimized away).
qint64 measureClient(Models& m, const Snapshot& s, const AnalysisConfig& cfg, Sample& smp)
{
    applyToModels(m, s, smp);
    const auto ta = Clock::now();
    auto again = std::make_shared<const Analysis>(analyze(s, cfg, m.previousAnalysis.get()));
    smp.analyzeMs = msSince(ta);
    m.previousAnalysis = again;
    smp.decodeMs = s.decodeMs;
    smp.clientMs =
        s.decodeMs + smp.analyzeMs + smp.handoffMs + smp.leaseModelMs + smp.lockModelsMs + smp.findingsMs +
        smp.poolHistoryMs;
    return qint64(again->findings.size());
}

// Refresh-to-paint at this point: the Leases page (LeasesView: the proxy and the QTableView the
// window uses) shown offscreen over the model, each step timed until it has painted.
void measurePaint(Workload& w, Poller& poller, Models& m, PaintResult& out)
{
    ui::LeasesView view(&m.leases);
    view.resize(1200, 720);
    view.show();
    auto settle = [&] {
        QCoreApplication::processEvents();
        view.repaint(); // synchronous: the visible rows are painted before the clock stops
    };
    settle();
    auto timed = [&](auto&& step) {
        const auto t = Clock::now();
        step();
        settle();
        return msSince(t);
    };
    QTableView* table = view.table();
    for (int rep = 0; rep < 5; ++rep) {
        checkInterrupted();
        w.renewSome();
        const Snapshot s = poller.refreshOnce();
        Sample ignored;
        out.refreshMs.push_back(timed([&] { applyToModels(m, s, ignored); }));
        out.tickMs.push_back(timed([&] { m.leases.tick(); }));
        out.sortMs.push_back(timed([&] {
            table->horizontalHeader()->setSortIndicator(LeaseModel::ExpiresIn, Qt::AscendingOrder);
        }));
        out.sortedTickMs.push_back(timed([&] { m.leases.tick(); }));
        out.unsortMs.push_back(timed([&] {
            table->horizontalHeader()->setSortIndicator(LeaseModel::Name, Qt::AscendingOrder);
        }));
        out.filterMs.push_back(timed([&] { view.filterEdit()->setText(QStringLiteral("lease-0012")); }));
        out.clearFilterMs.push_back(timed([&] { view.filterEdit()->clear(); }));
        out.scrollEndMs.push_back(timed([&] { table->scrollToBottom(); }));
        out.scrollTopMs.push_back(timed([&] { table->scrollToTop(); }));
    }
    out.rows = m.leases.rowCount();
    out.proxyRows = view.proxy()->rowCount();
}

PointResult runPoint(Workload& w, const ScalePoint& sp, int refreshes, bool paint)
{
    const auto pointStart = Clock::now();
    PointResult pr;
    pr.name = sp.name;
    pr.leases = sp.leases;
    pr.locks = sp.locks;
    pr.backends = sp.backends;
    std::fprintf(stderr, "[bench] %s: loading (%d leases, %d advisory locks, %d idle backends)\n",
                 sp.name.toUtf8().constData(), sp.leases, sp.locks, sp.backends);
    w.setLeases(sp.leases);
    w.setLocks(sp.locks);
    w.setBackends(sp.backends);
    ::malloc_trim(0); // the previous point's models are gone: give their memory back before measuring
    pr.rssBeforeMiB = lw::test::residentMiB();

    PollerConfig cfg; // the console's defaults: default leases table, 1 s interval, 5 s deadline
    cfg.connect = helperOptions(w.conninfo(kConsoleRole), "leasewatch");
    Poller poller(cfg);
    auto models = std::make_unique<Models>();
    models->judge.setPolicy(leasePolicyFor(cfg));
    models->poolHistory.setAnalysisConfig(cfg.analysis);
    QObject::connect(&models->leases, &QAbstractItemModel::modelReset, [&pr] { ++pr.leaseModelResets; });

    pg::Connection floorConn, rawConn, pgaConn;
    for (auto [conn, role, app] : {std::tuple{&floorConn, kFloorRole, "leasewatch-bench-floor"},
                                   std::tuple{&rawConn, kRawRole, "leasewatch-bench-raw"},
                                   std::tuple{&pgaConn, kPgActivityRole, "pg_activity"}})
        if (const DbError e = conn->connect(helperOptions(w.conninfo(role), app)); e.isError())
            throw std::runtime_error(
                ("connect " + QByteArray(role) + ": " + e.message.toUtf8()).toStdString());
    const int versionNum = w.serverVersionNum();
    const std::vector<pg::Statement> floorStmts = floorStatements(versionNum);
    // The lease statement is the refresh's own (it reads what was written since the read before).
    const auto rawStatements = [&](const Poller& p, bool withLocks) {
        std::vector<pg::Statement> st = {{consoleMetaSql(), {}}, {consoleActivitySql(), {}}};
        // A refresh that reused its previous pg_locks read did not receive it: its raw decode does
        // not read it either (the raw decode is of the refresh's results, nothing more, nothing less).
        if (withLocks)
            st.push_back({consoleLocksSql(versionNum), {}});
        st.push_back(p.lastLeaseRead());
        return st;
    };

    // Warm-up: the first refresh fills the models; the next ones hash the new lease names
    // (at most 20 000 per refresh). Measured refreshes start once a refresh hashed nothing.
    for (int i = 0; i < 12; ++i) {
        checkInterrupted();
        w.renewSome();
        w.resetStatements();
        const auto t0 = Clock::now();
        const Snapshot s = poller.refreshOnce();
        const double wall = msSince(t0);
        Sample tmp;
        const auto t1 = Clock::now();
        applyToModels(*models, s, tmp);
        if (i == 0) {
            pr.coldWallMs = wall;
            pr.coldClientMs = s.decodeMs + msSince(t1);
        }
        ++pr.warmups;
        if (!s.ok)
            ++pr.failedRefreshes;
        bool hashed = false;
        for (const StatementStat& st : w.readStatements())
            hashed = hashed || (st.role == QLatin1String(kConsoleRole) &&
                                statementKind(st.query) == QLatin1String("hash"));
        if (i >= 1 && !hashed && s.ok)
            break;
    }

    QSet<qint64> consoleIds, rawIds;
    volatile qint64 sink = 0; // keeps the raw decode loop from being optimized away
    auto runFloor = [&] {
        std::vector<pg::StatementResult> res;
        if (const DbError e = floorConn.runPipeline(floorStmts, res, Clock::now() + std::chrono::seconds(30));
            e.isError())
            throw std::runtime_error(("floor: " + e.message.toUtf8()).toStdString());
    };
    const pg::Statement pga = pgActivityBlocking();
    pr.pgActivity = !pga.sql.isEmpty();
    if (!pr.pgActivity)
        std::fprintf(stderr, "[bench] pg_activity's statements not found: apt-get install pg-activity to compare\n");
    for (int i = 0; i < refreshes; ++i) {
        checkInterrupted();
        w.renewSome();
        w.resetStatements();
        // The console and the floor take turns at reading first after the writer's renewals: the
        // first reader of freshly updated rows pays for their hint bits and pruning.
        const bool floorFirst = i % 2 == 1;
        if (floorFirst)
            runFloor();
        Sample smp;
        const auto t0 = Clock::now();
        const Snapshot s = poller.refreshOnce();
        smp.wallMs = msSince(t0);
        if (!s.ok) {
            ++pr.failedRefreshes;
            std::fprintf(stderr, "[bench] %s: refresh failed: %s\n", sp.name.toUtf8().constData(),
                         s.error.toDisplayString().toUtf8().constData());
            continue;
        }
        sink = sink + measureClient(*models, s, cfg.analysis, smp);
        smp.roundTrips = s.roundTrips;
        smp.waitMs = s.clientWaitMs;
        smp.prepMs = std::max(0.0, smp.wallMs - s.clientWaitMs - s.decodeMs - smp.analyzeMs);
        smp.endToEndMs =
            smp.wallMs + smp.handoffMs + smp.leaseModelMs + smp.lockModelsMs + smp.findingsMs + smp.poolHistoryMs;

        if (!floorFirst)
            runFloor();
        if (pr.pgActivity) {
            std::vector<pg::StatementResult> res;
            if (const DbError e = pgaConn.runPipeline({pga}, res, Clock::now() + std::chrono::seconds(30)); e.isError())
                throw std::runtime_error(("pg_activity: " + e.message.toUtf8()).toStdString());
        }
        std::vector<pg::StatementResult> res;
        const auto deadline = Clock::now() + std::chrono::seconds(30);
        if (s.locksReused)
            ++pr.locksReused;
        pr.locksEveryN = std::max(pr.locksEveryN, s.locksEveryN);
        if (const DbError e = rawConn.runPipeline(rawStatements(poller, !s.locksReused), res, deadline);
            e.isError())
            throw std::runtime_error(("raw: " + e.message.toUtf8()).toStdString());
        {
            const auto tr = Clock::now();
            qint64 acc = 0;
            for (const auto& r : res) {
                const PGresult* g = r.result.get();
                const int rows = PQntuples(g), cols = PQnfields(g);
                for (int row = 0; row < rows; ++row)
                    for (int col = 0; col < cols; ++col)
                        acc += PQgetlength(g, row, col) + PQgetvalue(g, row, col)[0];
            }
            smp.rawMs = msSince(tr);
            sink = sink + acc;
        }
        // The same statements' results a moment later: their size on the wire stands for the
        // refresh's (the console's own results are consumed inside the poller).
        smp.bytes = double(wireBytes(res));

        for (const StatementStat& st : w.readStatements()) {
            const QString kind = statementKind(st.query);
            if (st.role == QLatin1String(kConsoleRole)) {
                if (kind.isEmpty()) {
                    ++pr.unmatchedConsoleStatements;
                    continue;
                }
                smp.serverMs += st.execMs;
                smp.consoleStmtMs[kind] += st.execMs;
                if (kind == QLatin1String("hash"))
                    ++pr.hashRefreshesMeasured;
                else
                    consoleIds.insert(st.queryId);
            } else if (st.role == QLatin1String(kFloorRole) && !kind.isEmpty()) {
                smp.floorMs += st.execMs;
                smp.floorStmtMs[kind] += st.execMs;
            } else if (st.role == QLatin1String(kPgActivityRole)) {
                smp.pgActivityMs += st.execMs;
            } else if (st.role == QLatin1String(kRawRole)) {
                rawIds.insert(st.queryId);
            }
        }
        pr.sessionsSeen = int(s.sessions.size());
        pr.advisoryRows = int(s.advisoryLocks.size());
        pr.leaseRows = int(s.leases.size());
        smp.leaseRowsSent = s.leaseRowsSent;
        pr.findings = models->findings.rowCount();
        pr.samples.push_back(std::move(smp));
    }
    pr.rawSameStatements = !consoleIds.isEmpty() && consoleIds == rawIds;
    pr.rssMiB = lw::test::residentMiB();
    if (paint) {
        std::fprintf(stderr, "[bench] %s: refresh-to-paint\n", sp.name.toUtf8().constData());
        pr.paint.emplace();
        measurePaint(w, poller, *models, *pr.paint);
    }
    std::fprintf(stderr, "[bench] %s: %d warm-up + %zu measured refreshes in %.1f s\n",
                 sp.name.toUtf8().constData(), pr.warmups, pr.samples.size(), msSince(pointStart) / 1000.0);
    (void)sink;
    return pr;
}

// Cost growth with both lease tables present: a refresh of the small one, then of the large one,
// in turn, each with its own poller and models (the console's code, as in runPoint).
GrowthPair measureGrowthPair(Workload& w, int small, int refreshes)
{
    std::fprintf(stderr, "[bench] growth: %d and %d leases, refreshes in turn\n", small, w.leases());
    GrowthPair gp;
    gp.small = small;
    gp.large = w.leases();
    w.addSmallTable(small);
    PollerConfig large;
    large.connect = helperOptions(w.conninfo(kConsoleRole), "leasewatch");
    PollerConfig smallCfg = large;
    smallCfg.leases.table = QStringLiteral("leases_small");
    struct Side
    {
        std::unique_ptr<Poller> poller;
        std::unique_ptr<Models> models;
        std::vector<double>*server, *client;
    };
    Side sides[2] = {{std::make_unique<Poller>(smallCfg), std::make_unique<Models>(), &gp.smallServerMs,
                      &gp.smallClientMs},
                     {std::make_unique<Poller>(large), std::make_unique<Models>(), &gp.largeServerMs,
                      &gp.largeClientMs}};
    for (Side& side : sides) {
        side.models->judge.setPolicy(leasePolicyFor(large));
        side.models->poolHistory.setAnalysisConfig(large.analysis);
    }
    auto refresh = [&](Side& side, bool measured) {
        checkInterrupted();
        w.renewSome();
        w.resetStatements();
        const Snapshot s = side.poller->refreshOnce();
        if (!s.ok)
            throw std::runtime_error("growth refresh: " + s.error.toDisplayString().toStdString());
        Sample smp;
        measureClient(*side.models, s, large.analysis, smp);
        if (!measured)
            return;
        double server = 0;
        for (const StatementStat& st : w.readStatements())
            if (st.role == QLatin1String(kConsoleRole) && !statementKind(st.query).isEmpty())
                server += st.execMs;
        side.server->push_back(server);
        side.client->push_back(smp.clientMs);
    };
    for (int i = 0; i < 12; ++i) // as runPoint: new names hashed, models filled
        for (Side& side : sides)
            refresh(side, false);
    for (int i = 0; i < refreshes; ++i)
        for (Side& side : sides)
            refresh(side, true);
    w.dropSmallTable();
    return gp;
}

int usage()
{
    std::fprintf(stderr, "usage: leasewatch-bench [--scale smoke|full] [--json] [--refreshes N] "
                         "[--cluster-dir DIR] [--only POINT,…]\n"
                         "       leasewatch-bench --process [--leases N,…] [--warmup S] [--seconds S] "
                         "[--cluster-dir DIR]\n"
                         "       leasewatch-bench --paced SECONDS [--cluster-dir DIR]\n"
                         "       leasewatch-bench --viewers SECONDS [--cluster-dir DIR]\n");
    return 2;
}

// Issue 24 point 5: the console as a user runs it (the real `leasewatch` window, offscreen, with
// its history recording), measured from outside while 1 % of the leases renew every second, at
// the configured 1 s refresh (the footprint budget may space refreshes out: counted).
// The server's time per refresh at the console's own pace (one refresh a second), not back to back:
// before PostgreSQL 15 what a statement costs depends on how long ago the statistics collector's
// file was read (issue 57). Base point (1 000 leases, 100 advisory locks, 10 idle backends); every
// statement the console's role ran, from pg_stat_statements.
// The cluster started and loaded to the base point (1 000 leases, 100 advisory locks, 10 idle
// backends); the console's configuration for it.
PollerConfig startBasePoint(Workload& w)
{
    w.start();
    w.setLeases(1000);
    w.setLocks(100);
    w.setBackends(10);
    PollerConfig cfg;
    cfg.connect = helperOptions(w.conninfo(kConsoleRole), "leasewatch");
    return cfg;
}

int runPaced(int seconds, const QString& clusterDir)
{
    Workload w(clusterDir);
    const PollerConfig cfg = startBasePoint(w);
    Poller poller(cfg);
    int refreshes = 0, failed = 0;
    const auto paced = [&](int forSeconds) {
        const auto start = Clock::now();
        while (Clock::now() - start < std::chrono::seconds(forSeconds)) {
            checkInterrupted();
            const auto next = Clock::now() + std::chrono::milliseconds(cfg.intervalMs);
            w.renewSome();
            const Snapshot s = poller.refreshOnce();
            ++(s.ok ? refreshes : failed);
            std::this_thread::sleep_until(next);
        }
    };
    // Warm-up: connect, detect the table, hash the names; and, before 15, the 10 s of counters
    // read after the workload's waiting session was first seen (a new wait, see Poller).
    paced(15);
    w.resetStatements();
    refreshes = failed = 0;
    paced(seconds);
    QMap<QString, double> byKind;
    double total = 0;
    for (const StatementStat& st : w.readStatements()) {
        if (st.role != QLatin1String(kConsoleRole))
            continue;
        const QString kind = statementKind(st.query);
        byKind[kind.isEmpty() ? QStringLiteral("other") : kind] += st.execMs;
        total += st.execMs;
    }
    std::printf("PostgreSQL %s, one refresh every %d ms for %d s: %d refreshes (%d failed)\n",
                qPrintable(w.serverVersion().section(QLatin1Char(' '), 1, 1)), cfg.intervalMs, seconds,
                refreshes, failed);
    std::printf("server ms per refresh: %.2f\n", refreshes ? total / refreshes : 0.0);
    for (auto it = byKind.cbegin(); it != byKind.cend(); ++it)
        std::printf("  %-8s %.2f\n", qPrintable(it.key()), refreshes ? it.value() / refreshes : 0.0);
    return failed ? 1 : 0;
}

// Issue 49 point 4: what N open windows cost the watched database, with and without a recorder's
// live feed: one console; six consoles each polling; one recorder whose feed five viewers read (the
// real DatabaseWatch, FeedServer and FeedClient, in this process). Base point, 1 % of the leases
// renewed a second; every statement of the consoles' role from pg_stat_statements, their backends
// from pg_stat_activity.
int runViewers(int seconds, const QString& clusterDir)
{
    Workload w(clusterDir);
    const PollerConfig cfg = startBasePoint(w);
    pg::ConnPtr counter(PQconnectdb(w.conninfo(kFloorRole).constData()));
    QTemporaryDir dir;
    struct Figures
    {
        int connections = 0;
        double serverMsPerS = 0;
        double shownPerS = 0; // refreshes shown, all windows together
    };
    const auto run = [&](int direct, int viewers) {
        std::vector<std::unique_ptr<DatabaseWatch>> watches;
        std::unique_ptr<feed::FeedServer> server;
        int shown = 0;
        for (int i = 0; i < direct; ++i)
            watches.push_back(std::make_unique<DatabaseWatch>(cfg));
        if (viewers > 0) {
            server = std::make_unique<feed::FeedServer>(QStringLiteral("bench"));
            const QString path = dir.filePath(QStringLiteral("bench.feed"));
            if (!server->listenLocal(path))
                throw std::runtime_error(server->errorString().toStdString());
            QObject::connect(watches.front().get(), &DatabaseWatch::refreshed, server.get(),
                             [&server](const Snapshot& s) { server->publish(s); });
            QObject::connect(watches.front().get(), &DatabaseWatch::statusChanged, server.get(),
                             [&server](const ConnectionStatus& st) { server->publishStatus(st); });
            for (int i = 0; i < viewers; ++i) {
                watches.push_back(std::make_unique<DatabaseWatch>(cfg));
                watches.back()->readFeed(feed::FeedSource::local(path));
            }
        }
        for (auto& x : watches) {
            QObject::connect(x.get(), &DatabaseWatch::refreshed, x.get(), [&shown](const Snapshot& s) { shown += s.ok; });
            x->start();
        }
        const auto pump = [&](int forSeconds) {
            for (int i = 0; i < forSeconds; ++i) {
                checkInterrupted();
                w.renewSome();
                QEventLoop loop;
                QTimer::singleShot(1000, &loop, &QEventLoop::quit);
                loop.exec();
            }
        };
        pump(15); // connect, find the tables, hash the names, fill the viewers
        w.resetStatements();
        shown = 0;
        pump(seconds);
        Figures f;
        f.shownPerS = double(shown) / seconds;
        for (const StatementStat& st : w.readStatements())
            if (st.role == QLatin1String(kConsoleRole))
                f.serverMsPerS += st.execMs / seconds;
        // While they all run: the backends the consoles' role holds.
        const pg::ResultPtr n =
            execOrThrow(counter.get(), "SELECT count(*) FROM pg_stat_activity WHERE usename = 'lw_monitor'");
        f.connections = QByteArray(PQgetvalue(n.get(), 0, 0)).toInt();
        return f;
    };
    std::printf("What open windows cost the database (issue 49), PostgreSQL %s: 1 000 leases (1 %% renewed a "
                "second), 100 advisory locks, 10 idle backends; %d s each after 15 s of warm-up\n",
                qPrintable(w.serverVersion().section(QLatin1Char(' '), 1, 1)), seconds);
    std::printf("%-30s  %11s  %12s  %17s\n", "", "connections", "server ms/s", "refreshes shown/s");
    const std::pair<const char*, Figures> rows[] = {{"one console", run(1, 0)},
                                                    {"6 consoles", run(6, 0)},
                                                    {"1 recorder + 5 viewers (feed)", run(1, 5)}};
    for (const auto& [label, f] : rows)
        std::printf("%-30s  %11d  %12.2f  %17.1f\n", label, f.connections, f.serverMsPerS, f.shownPerS);
    return 0;
}

int runProcessBudgets(const QList<int>& leases, int warmupS, int seconds, const QString& clusterDir)
{
    struct Budget
    {
        int leases;
        double cpuPercent;
        double residentMiB; // 0: none
    };
    // Ceilings that must not regress (issue 48): a window at 1-3 % of a core and ~200 MB at 100 000
    // leases is not what a user notices; the 1 % / 150 MB targets before them were withdrawn.
    const Budget budgets[] = {{10000, 2.0, 0}, {100000, 3.0, 250}};
    std::printf("Whole process: leasewatch DSN (window offscreen, history recording), 1 %% of the leases "
                "renewed per second; warm-up %d s, measured %d s\n",
                warmupS, seconds);
    std::printf("%8s  %10s  %10s  %9s  %11s  %9s\n", "leases", "CPU s", "% of core", "refreshes", "resident MiB",
                "store MiB");
    QStringList verdicts;
    for (int n : leases) {
        checkInterrupted();
        std::fprintf(stderr, "[bench] %d leases: warm-up %d s, then %d s measured\n", n, warmupS, seconds);
        const ProcessFigures f =
            measureConsoleProcess(QStringLiteral(LEASEWATCH_BIN), {}, n, warmupS, seconds, clusterDir);
        std::printf("%8d  %10.2f  %10.2f  %9lld  %11.1f  %9.1f\n", n, f.cpuSeconds, f.cpuPercent,
                    qlonglong(f.refreshes), f.residentMiB, f.storeMiB);
        std::fflush(stdout);
        for (const Budget& b : budgets) {
            if (b.leases != n)
                continue;
            verdicts << QStringLiteral("  %1 CPU <= %2 % of one core at %3 leases: %4 % (%5 refreshes in %6 s)")
                            .arg(f.cpuPercent <= b.cpuPercent ? QStringLiteral("PASS") : QStringLiteral("FAIL"))
                            .arg(b.cpuPercent)
                            .arg(n)
                            .arg(f.cpuPercent, 0, 'f', 2)
                            .arg(f.refreshes)
                            .arg(f.seconds, 0, 'f', 0);
            if (b.residentMiB > 0)
                verdicts << QStringLiteral("  %1 resident <= %2 MB at %3 leases: %4 MiB")
                                .arg(f.residentMiB * 1.048576 <= b.residentMiB ? QStringLiteral("PASS")
                                                                               : QStringLiteral("FAIL"))
                                .arg(b.residentMiB)
                                .arg(n)
                                .arg(f.residentMiB, 0, 'f', 1);
        }
    }
    std::printf("\nCeilings\n%s\n", qPrintable(verdicts.join(QLatin1Char('\n'))));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    // The refresh-to-paint figures use real widgets: offscreen unless a platform was chosen.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    bool smoke = false, json = false;
    QStringList only;
    int refreshes = -1;
    QString clusterDir;
    bool process = false;
    int pacedS = 0;
    int viewersS = 0;
    QList<int> processLeases{10000, 100000};
    int warmupS = 130, measureS = 60; // warm-up: past one round of renewals (1 % a second)
    const QStringList args = app.arguments().mid(1);
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == QLatin1String("--scale") && i + 1 < args.size()) {
            const QString v = args[++i];
            if (v != QLatin1String("smoke") && v != QLatin1String("full"))
                return usage();
            smoke = v == QLatin1String("smoke");
        } else if (a == QLatin1String("--json")) {
            json = true;
        } else if (a == QLatin1String("--refreshes") && i + 1 < args.size()) {
            bool ok = false;
            refreshes = args[++i].toInt(&ok);
            if (!ok || refreshes < 1)
                return usage();
        } else if (a == QLatin1String("--cluster-dir") && i + 1 < args.size()) {
            clusterDir = args[++i];
        } else if (a == QLatin1String("--only") && i + 1 < args.size()) {
            only = args[++i].split(QLatin1Char(','));
        } else if (a == QLatin1String("--process")) {
            process = true;
        } else if (a == QLatin1String("--paced") && i + 1 < args.size()) {
            pacedS = std::max(1, args[++i].toInt());
        } else if (a == QLatin1String("--viewers") && i + 1 < args.size()) {
            viewersS = std::max(1, args[++i].toInt());
        } else if (a == QLatin1String("--leases") && i + 1 < args.size()) {
            processLeases.clear();
            for (const QString& v : args[++i].split(QLatin1Char(',')))
                processLeases << v.toInt();
        } else if (a == QLatin1String("--warmup") && i + 1 < args.size()) {
            warmupS = args[++i].toInt();
        } else if (a == QLatin1String("--seconds") && i + 1 < args.size()) {
            measureS = std::max(1, args[++i].toInt());
        } else {
            return usage();
        }
    }
    if (refreshes < 0)
        refreshes = smoke ? 3 : 30;
    std::signal(SIGINT, [](int) { g_interrupted = 1; });
    std::signal(SIGTERM, [](int) { g_interrupted = 1; });
    if (viewersS > 0) {
        try {
            return runViewers(viewersS, clusterDir);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "leasewatch-bench: %s\n", e.what());
            return 2;
        }
    }
    if (pacedS > 0) {
        try {
            return runPaced(pacedS, clusterDir);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "leasewatch-bench: %s\n", e.what());
            return 2;
        }
    }
    if (process) {
        try {
            return runProcessBudgets(processLeases, warmupS, measureS, clusterDir);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "leasewatch-bench: %s\n", e.what());
            return 2;
        }
    }
    // Tables go where a human reads them: stdout, or stderr when stdout carries the JSON.
    FILE* tableOut = json ? stderr : stdout;

    const auto started = Clock::now();
    RunInfo run;
    run.scale = smoke ? QStringLiteral("smoke") : QStringLiteral("full");
    run.refreshes = refreshes;
    std::vector<PointResult> points;
    std::optional<GrowthPair> pair;
    try {
        Workload w(clusterDir);
        std::fprintf(stderr, "[bench] starting a throwaway cluster\n");
        w.start();
        const QString version = w.serverVersion().section(QLatin1Char(' '), 0, 1);
        run.machine = QStringLiteral("%1 cores, %2").arg(std::thread::hardware_concurrency()).arg(version);
        std::vector<ScalePoint> sps;
        for (const ScalePoint& sp : scalePoints(smoke))
            if (only.isEmpty() || only.contains(sp.name))
                sps.push_back(sp);
        // Refresh-to-paint at the largest leases table of the run (100 000 at full scale).
        int paintAt = 0;
        for (const ScalePoint& sp : sps)
            paintAt = std::max(paintAt, sp.leases);
        // The growth target's pair, when the run has both lease points: measured while the large
        // table is loaded (right after its point).
        const auto hasLeases = [&](int n) {
            return std::any_of(sps.begin(), sps.end(), [&](const ScalePoint& sp) { return sp.leases == n; });
        };
        const bool pairWanted = hasLeases(10000) && hasLeases(100000);
        for (const ScalePoint& sp : sps) {
            points.push_back(runPoint(w, sp, refreshes, sp.leases == paintAt && std::exchange(paintAt, -1) > 0));
            if (pairWanted && sp.leases == 100000 && !pair)
                pair = measureGrowthPair(w, 10000, refreshes);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "leasewatch-bench: %s\n", e.what());
        return 2;
    }
    run.durationS = std::chrono::duration<double>(Clock::now() - started).count();

    const bool judged = !smoke;
    const std::vector<Target> targets = judge(points, pair);
    printTables(tableOut, run, points);
    printTargets(tableOut, targets, judged);
    std::fprintf(tableOut, "\nduration %.1f s (cluster start and load included)\n", run.durationS);
    if (json)
        std::fprintf(
            stdout, "%s",
            QJsonDocument(toJson(run, points, targets, judged)).toJson(QJsonDocument::Indented).constData());
    return 0;
}
