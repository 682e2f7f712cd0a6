#pragma once
// Test-side access to the throwaway cluster that ctest's `cluster.start` fixture runs for the whole
// suite (see tests/CMakeLists.txt). Each test works in a database of its own, created here and
// dropped at the end, so tests may run in parallel against one server.
#include "Poller.h"
#include "cluster/ThrowawayCluster.h"
#include "pg/PgConnection.h"

#include <QString>

#include <memory>

namespace lw::test {

// Directory of the suite's cluster (LW_TEST_CLUSTER_DIR); empty if the fixture did not run.
QString suiteClusterDir();
// DSN of the suite's cluster for `dbname`.
QString suiteDsn(const QString& dbname = QStringLiteral("postgres"));
// Options for a private cluster of a test (fault tests that stop/pause the server, TLS, lock-table
// sizes). It lives below the suite's directory so the fixture's cleanup stops it even if the test crashes.
cluster::ClusterOptions privateClusterOptions(const QString& name);

// The console's defaults for `dsn`, refreshing every `intervalMs` (tests wait less).
PollerConfig pollerConfig(const QString& dsn, int intervalMs);

// Runs SQL on a DSN with a plain blocking connection (test set-up only). Throws std::runtime_error.
void execSql(const QString& dsn, const QString& sql);
// First column of the first row as text ("" for NULL); throws on error.
QString queryValue(const QString& dsn, const QString& sql);

struct ProcessResult
{
    int code = -1; // -1: did not finish in time
    QString out;
    QString err;
};
// Runs a program to completion (tests of the real executables). `withDisplay` false removes
// DISPLAY/WAYLAND_DISPLAY/QT_QPA_PLATFORM, as over SSH.
ProcessResult runProcess(const QString& program, const QStringList& args, bool withDisplay = false,
                         int timeoutMs = 60000);

// A session of the test's own (not read-only), as an application would hold one: for locks held
// across statements. Throws std::runtime_error if it cannot connect.
pg::Connection openAppSession(const QString& dsn, const QString& appName);
// One statement on such a session (10 s deadline); throws on error.
void runOn(pg::Connection& c, const QByteArray& sql);

class TestDatabase
{
public:
    // Creates a fresh database on the suite cluster (or on `clusterDsnBase` if given).
    explicit TestDatabase(const QString& tag);
    ~TestDatabase();
    TestDatabase(const TestDatabase&) = delete;
    TestDatabase& operator=(const TestDatabase&) = delete;

    QString name() const { return name_; }
    QString dsn() const { return suiteDsn(name_); }
    void exec(const QString& sql) const { execSql(dsn(), sql); }
    QString value(const QString& sql) const { return queryValue(dsn(), sql); }

private:
    QString name_;
};

} // namespace lw::test
