#include "TestCluster.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>

#include <atomic>
#include <stdexcept>
#include <unistd.h>

namespace lw::test {

QString suiteClusterDir()
{
    return qEnvironmentVariable("LW_TEST_CLUSTER_DIR");
}

QString suiteDsn(const QString& dbname)
{
    const QString dir = suiteClusterDir();
    if (dir.isEmpty())
        throw std::runtime_error("LW_TEST_CLUSTER_DIR is not set: run the tests through ctest "
                                 "(the cluster.start fixture starts the server)");
    cluster::ThrowawayCluster probe; // only for the superuser name
    return QStringLiteral("host=%1 port=5432 user=%2 dbname=%3").arg(dir, probe.superuser(), dbname);
}

PollerConfig pollerConfig(const QString& dsn, int intervalMs)
{
    PollerConfig c;
    c.connect.dsn = dsn;
    c.intervalMs = intervalMs;
    return c;
}

cluster::ClusterOptions privateClusterOptions(const QString& name)
{
    cluster::ClusterOptions o;
    const QString base = suiteClusterDir().isEmpty() ? QDir::tempPath() : suiteClusterDir();
    o.directory = base + QStringLiteral("/own/") + name + QLatin1Char('-') + QString::number(::getpid());
    return o;
}

namespace {
pg::Connection connectBlocking(const QString& dsn)
{
    pg::Connection c;
    pg::ConnectOptions o;
    o.dsn = dsn;
    o.readOnly = false;
    o.applicationName = QStringLiteral("leasewatch-test");
    o.statementTimeoutMs = 60000;
    o.lockTimeoutMs = 30000;
    const DbError e = c.connect(o);
    if (e.isError())
        throw std::runtime_error(("connect " + dsn + ": " + e.toDisplayString()).toStdString());
    return c;
}
} // namespace

void execSql(const QString& dsn, const QString& sql)
{
    pg::Connection c = connectBlocking(dsn);
    // Simple-query protocol so that several statements (and CREATE DATABASE) work in one call.
    PQsetnonblocking(c.raw(), 0);
    pg::ResultPtr r(PQexec(c.raw(), sql.toUtf8().constData()));
    const auto st = PQresultStatus(r.get());
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        throw std::runtime_error(("SQL failed: " + sql.left(200) + ": " +
                                  pg::errorFromResult(r.get(), c.raw()).toDisplayString())
                                     .toStdString());
}

QString queryValue(const QString& dsn, const QString& sql)
{
    pg::Connection c = connectBlocking(dsn);
    PQsetnonblocking(c.raw(), 0);
    pg::ResultPtr r(PQexec(c.raw(), sql.toUtf8().constData()));
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK)
        throw std::runtime_error(("query failed: " + sql.left(200) + ": " +
                                  pg::errorFromResult(r.get(), c.raw()).toDisplayString())
                                     .toStdString());
    if (PQntuples(r.get()) == 0 || PQgetisnull(r.get(), 0, 0))
        return {};
    return QString::fromUtf8(PQgetvalue(r.get(), 0, 0));
}

ProcessResult runProcess(const QString& program, const QStringList& args, bool withDisplay, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!withDisplay) {
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    }
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("timeout");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

TestDatabase::TestDatabase(const QString& tag)
{
    static std::atomic<int> counter{0};
    QString clean = tag.toLower();
    for (QChar& ch : clean)
        if (!ch.isLetterOrNumber())
            ch = QLatin1Char('_');
    name_ = QStringLiteral("t_%1_%2_%3").arg(clean.left(30)).arg(::getpid()).arg(counter++);
    execSql(suiteDsn(), QStringLiteral("CREATE DATABASE %1").arg(name_));
}

TestDatabase::~TestDatabase()
{
    try {
        execSql(suiteDsn(), QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(name_));
    } catch (...) {
        // The fixture's cleanup removes the whole cluster anyway.
    }
}

pg::Connection openAppSession(const QString& dsn, const QString& appName)
{
    pg::Connection c;
    pg::ConnectOptions o;
    o.dsn = dsn;
    o.applicationName = appName;
    o.readOnly = false;
    const DbError e = c.connect(o);
    if (e.isError())
        throw std::runtime_error(e.toDisplayString().toStdString());
    return c;
}

void runOn(pg::Connection& c, const QByteArray& sql)
{
    pg::ResultPtr r;
    const DbError e = c.exec({sql, {}}, r, pg::Clock::now() + std::chrono::seconds(10));
    if (e.isError())
        throw std::runtime_error(e.toDisplayString().toStdString());
}

} // namespace lw::test
