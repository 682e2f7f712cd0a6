#pragma once
// Synthetic refreshes for the history tests: a Snapshot as the poller would hand it over (analysis
// computed), with leases, sessions, advisory locks and key names under the test's control.
#include "domain/Analysis.h"
#include "domain/UtcTime.h"
#include "domain/Snapshot.h"
#include "../support/DomainRows.h"
#include "store/HistoryWriter.h"
#include "domain/RefreshJudge.h"
#include "domain/LeaseChanges.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <atomic>
#include <memory>

namespace lw::test {

inline SessionRow session(int pid, const QString& app, const QString& state, const QString& query = {})
{
    SessionRow r;
    r.pid = pid;
    r.database = QStringLiteral("app");
    r.user = QStringLiteral("svc");
    r.applicationName = app;
    r.clientAddr = QStringLiteral("10.0.0.7");
    r.clientPort = 40000 + pid;
    r.backendStart = 1000.0;
    r.stateChange = 1000.5;
    r.state = state;
    r.query = query.isEmpty() ? QStringLiteral("SELECT 1") : query;
    return r;
}

// A store of the tests' own: a password in the DSN (never stored), and a wall clock after every
// synthetic refresh's time but within 7 days of it (retention by age keeps them).
inline HistoryOptions options(const QString& path)
{
    HistoryOptions o;
    o.profile = QStringLiteral("test/profile");
    o.path = path;
    o.sourceDsn = QStringLiteral("host=db1 dbname=app user=monitor password=s3cret");
    o.wallClockMs = [] { return qint64(20'000'000); };
    return o;
}

struct SnapshotSpec
{
    double now = 1000;
    qint64 wallMs = 0; // 0: now × 1000
    std::vector<LeaseRow> leases;
    std::vector<SessionRow> sessions;
    std::vector<AdvisoryLockRow> locks;
    std::shared_ptr<const KeyNames> keyNames;
    qint64 deadlocks = 0;
    bool ok = true;
};

inline Snapshot makeSnapshot(const SnapshotSpec& sp, const AnalysisConfig& cfg = {})
{
    Snapshot s;
    s.ok = sp.ok;
    s.serverNow = sp.now;
    s.receivedMonotonicMs = qint64(sp.now * 1000);
    s.receivedWall = utcFromMSecs(sp.wallMs ? sp.wallMs : qint64(sp.now * 1000));
    if (!sp.ok) {
        s.error.kind = DbError::Kind::ConnectionLost;
        s.error.message = QStringLiteral("server closed the connection unexpectedly");
        return s;
    }
    s.server = {QStringLiteral("15.20"), 150020, QStringLiteral("app"), QStringLiteral("monitor"), 4242};
    s.cluster.maxConnections = 100;
    s.cluster.superuserReservedConnections = 3;
    s.cluster.maxLocksPerTransaction = 64;
    s.cluster.lockTableEntries = int(sp.locks.size()) + 3;
    s.cluster.totalLocks = int(sp.locks.size()) + 5;
    s.cluster.deadlocks = sp.deadlocks;
    s.cluster.statsReset = 900.0;
    s.sessions = sp.sessions;
    s.advisoryLocks = sp.locks;
    s.leases = sp.leases;
    s.keyNames = sp.keyNames ? sp.keyNames : std::make_shared<const KeyNames>();
    s.analysis = std::make_shared<const Analysis>(analyze(s, cfg));
    return s;
}

// A read-only look at a store with plain SQL (row counts), closed on destruction.
class StorePeek
{
public:
    explicit StorePeek(const QString& path)
        : name_(QStringLiteral("peek-%1").arg(counter().fetch_add(1)))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name_);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        db.open();
    }
    ~StorePeek()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(name_, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(name_);
    }
    qint64 value(const QString& sql) const
    {
        QSqlQuery q(QSqlDatabase::database(name_, false));
        return q.exec(sql) && q.next() ? q.value(0).toLongLong() : -1;
    }

private:
    static std::atomic<int>& counter()
    {
        static std::atomic<int> c{0};
        return c;
    }
    QString name_;
};

// A writer fed as a Monitor feeds its recorder: a tracker with the options' policy applies each
// refresh, and the writer is handed what it saw change and its findings. `everyLease`: every lease
// is handed at every refresh (the reference the incremental path is compared with).
class FedWriter : public HistoryWriter
{
public:
    explicit FedWriter(const HistoryOptions& o, bool everyLease = false)
        : HistoryWriter(o), judge_(o.leasePolicy, o.writerUsesAppClock), everyLease_(everyLease)
    {
    }
    using HistoryWriter::write;
    bool write(const Snapshot& s)
    {
        const std::vector<Finding> findings = judge_.apply(s);
        return HistoryWriter::write(s, reader_.read(judge_.leases(), everyLease_ || wantsAllLeases()), findings);
    }
    const LeaseTracker& tracker() const { return judge_.leases(); }

private:
    RefreshJudge judge_;
    LeaseChangeReader reader_;
    bool everyLease_;
};

// A recorder fed the same way, from the test's thread.
class FedRecorder : public HistoryRecorder
{
public:
    explicit FedRecorder(const HistoryOptions& o) : HistoryRecorder(o), judge_(o.leasePolicy, o.writerUsesAppClock) {}
    using HistoryRecorder::record;
    void record(const Snapshot& s)
    {
        const std::vector<Finding> findings = judge_.apply(s);
        HistoryRecorder::record(s, judge_.leases(), findings);
    }

private:
    RefreshJudge judge_;
};

} // namespace lw::test
