#pragma once
// Helpers for the fault tests: a private PostgreSQL server that is always thawed (SIGCONT) and
// stopped when the test ends, whatever way it ends; an event-loop latency probe; process facts.
#include "cluster/ThrowawayCluster.h"
#include "pg/PgConnection.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <sys/types.h>
#include <vector>

namespace lw::fault {

// A private cluster below the suite's directory (see test::privateClusterOptions: the fixture's
// cleanup stops it even if the test process crashes). The destructor SIGCONTs every process this
// object stopped and then stops the server, so a failing QVERIFY cannot leave a frozen postgres.
class PrivateServer
{
public:
    explicit PrivateServer(cluster::ClusterOptions opts);
    ~PrivateServer();
    PrivateServer(const PrivateServer&) = delete;
    PrivateServer& operator=(const PrivateServer&) = delete;

    std::optional<QString> start();         // initdb on first use, then pg_ctl start -w
    std::optional<QString> stopImmediate(); // pg_ctl stop -m immediate (a crash, as far as clients see)
    bool isUp() const;                      // postmaster.pid present and the process exists
    QString dsn(const QString& db = QStringLiteral("postgres")) const { return c_.dsn(db); }
    QString directory() const { return c_.directory(); }
    QString dataDir() const { return c_.directory() + QStringLiteral("/data"); }
    int port() const { return opts_.port; }
    QString superuser() const { return c_.superuser(); }

    pid_t postmasterPid() const;
    std::vector<pid_t> childPids() const; // every process whose parent is the postmaster

    // SIGSTOP / SIGCONT, remembered so the destructor can undo it.
    void freeze(const std::vector<pid_t>& pids);
    void thawAll();

private:
    cluster::ClusterOptions opts_;
    cluster::ThrowawayCluster c_;
    std::vector<pid_t> frozen_;
};

// Measures how late a 10 ms QTimer on the calling (GUI) thread fires: the longest gap between two
// ticks while running is how long that thread's event loop was blocked.
class LoopLatencyProbe : public QObject
{
public:
    LoopLatencyProbe();
    void start(); // resets the maximum
    void stop();
    qint64 maxGapMs() const { return maxGap_; }
    int ticks() const { return ticks_; }

private:
    QTimer timer_;
    QElapsedTimer last_;
    qint64 maxGap_ = 0;
    int ticks_ = 0;
};

int freeTcpPort(); // a port on 127.0.0.1 nobody listens on right now
int threadCount(); // entries in /proc/self/task
bool processExists(pid_t pid);
// Polls `pred` while the event loop runs (the probe keeps ticking); true if it became true in time.
bool waitFor(const std::function<bool()>& pred, int timeoutMs);
// Runs `sql` on a fresh superuser connection (simple protocol): the first value ("" for none), or
// nullopt on any failure. Never throws: an exception escaping a test function ends the process
// without running the RAII guards.
std::optional<QString> query(const QString& dsn, const QString& sql, QString* error = nullptr);
// query() for statements: false (and the error as a warning in the test log) on failure.
bool exec(const QString& dsn, const QString& sql);
// Backends with application_name = 'leasewatch' on the server of `dsn`; -1 if it cannot tell.
int consoleBackends(const QString& dsn);
// A plain session for the test itself (not read-only); isOpen() is false if it failed.
pg::Connection openSession(const QString& dsn, const QString& appName = QStringLiteral("leasewatch-test"));

} // namespace lw::fault
