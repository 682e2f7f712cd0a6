#pragma once
// A real PgBouncer (Debian's /usr/sbin/pgbouncer) in front of the suite's cluster, owned by a test:
// own directory (below the suite cluster's, so the fixture's cleanup removes it whatever happens),
// own ini and Unix socket, auth_type=trust. Run in the foreground as a child process, as the
// cluster's system user when we are root (PgBouncer refuses to run as root). The destructor stops
// it, also when a test fails; a crashed test takes it along (PR_SET_PDEATHSIG).
#include "TestCluster.h"
#include "pg/PgHandles.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QThread>

#include <libpq-fe.h>

#include <atomic>
#include <cerrno>
#include <grp.h>
#include <memory>
#include <pwd.h>
#include <signal.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace lw::test {

struct BouncerOptions
{
    QString poolMode = QStringLiteral("session");
    int defaultPoolSize = 2;
    // Extra [databases] entries ("name = dbname=… pool_mode=…", the cluster's host/port are added);
    // every other database name is forwarded to the suite's cluster by a wildcard entry.
    QStringList databases;
    QStringList settings; // extra [pgbouncer] lines
};

class BouncerProcess
{
public:
    explicit BouncerProcess(BouncerOptions o = {}) : opts_(std::move(o))
    {
        static std::atomic<int> counter{0};
        const QString base = suiteClusterDir().isEmpty() ? QDir::tempPath() : suiteClusterDir();
        dir_ = QStringLiteral("%1/own/pgb-%2-%3").arg(base).arg(::getpid()).arg(counter++);
        QDir(dir_).removeRecursively();
        QDir().mkpath(dir_);
        user_ = cluster::ThrowawayCluster().superuser();
        start();
    }
    ~BouncerProcess()
    {
        stop();
        QDir(dir_).removeRecursively();
    }
    BouncerProcess(const BouncerProcess&) = delete;
    BouncerProcess& operator=(const BouncerProcess&) = delete;

    QString adminDsn() const { return dsn(QStringLiteral("pgbouncer")); }
    QString dsn(const QString& db) const
    {
        return QStringLiteral("host=%1 port=%2 user=%3 dbname=%4").arg(dir_).arg(kPort).arg(user_, db);
    }
    qint64 pid() const { return pid_; }
    QString log() const
    {
        QFile f(dir_ + QStringLiteral("/pgbouncer.log"));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }
    // Stops PgBouncer (SIGTERM: immediate shutdown in 1.18), SIGKILL if it lingers; reaps it.
    void stop()
    {
        if (!proc_)
            return;
        if (proc_->state() != QProcess::NotRunning) {
            proc_->terminate();
            if (!proc_->waitForFinished(5000)) {
                proc_->kill();
                proc_->waitForFinished(5000);
            }
        }
        proc_.reset();
    }
    // Starts it again with the same ini, socket and port (a restart as the console sees it).
    void start()
    {
        writeConfig();
        proc_ = std::make_unique<QProcess>();
        proc_->setProgram(QStringLiteral("/usr/sbin/pgbouncer"));
        proc_->setArguments({dir_ + QStringLiteral("/pgbouncer.ini")});
        proc_->setWorkingDirectory(dir_);
        proc_->setProcessChannelMode(QProcess::MergedChannels);
        uid_t uid = ::geteuid();
        gid_t gid = ::getegid();
        const bool asRoot = uid == 0;
        if (asRoot) {
            const passwd* pw = ::getpwnam("postgres");
            if (!pw)
                throw std::runtime_error("running as root without a `postgres` user to run PgBouncer as");
            uid = pw->pw_uid;
            gid = pw->pw_gid;
            chownAll(uid, gid);
        }
        // In the forked child before exec: async-signal-safe calls only. The death signal is set
        // after setuid (a credential change clears it).
        proc_->setChildProcessModifier([asRoot, uid, gid]() {
            if (asRoot && (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0))
                ::_exit(126);
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        });
        proc_->start();
        if (!proc_->waitForStarted(10000))
            throw std::runtime_error("cannot start pgbouncer: " + proc_->errorString().toStdString());
        pid_ = proc_->processId();
        // Ready when the admin console answers.
        for (int i = 0; i < 100; ++i) {
            if (proc_->state() == QProcess::NotRunning)
                break;
            PGconn* c = PQconnectdb(adminDsn().toUtf8().constData());
            const bool ok = PQstatus(c) == CONNECTION_OK;
            PQfinish(c);
            if (ok)
                return;
            QThread::msleep(100);
        }
        const QString out = QString::fromUtf8(proc_->readAll());
        stop();
        throw std::runtime_error(("pgbouncer did not come up: " + out + "\n" + log()).toStdString());
    }
    // True when no process is left under the pid PgBouncer had (it was reaped by stop()).
    bool gone() const { return pid_ <= 0 || (::kill(pid_t(pid_), 0) != 0 && errno == ESRCH); }

    static constexpr int kPort = 6432;

private:
    void writeConfig() const
    {
        const QString cluster = suiteClusterDir();
        QStringList ini = {QStringLiteral("[databases]")};
        for (const QString& d : opts_.databases)
            ini << QStringLiteral("%1 host=%2 port=5432").arg(d, cluster);
        ini << QStringLiteral("* = host=%1 port=5432").arg(cluster) << QStringLiteral("[pgbouncer]")
            << QStringLiteral("listen_addr =") << QStringLiteral("listen_port = %1").arg(kPort)
            << QStringLiteral("unix_socket_dir = %1").arg(dir_) << QStringLiteral("auth_type = trust")
            << QStringLiteral("auth_file = %1/userlist.txt").arg(dir_)
            << QStringLiteral("admin_users = %1").arg(user_)
            << QStringLiteral("pool_mode = %1").arg(opts_.poolMode)
            << QStringLiteral("default_pool_size = %1").arg(opts_.defaultPoolSize)
            << QStringLiteral("max_client_conn = 100")
            << QStringLiteral("logfile = %1/pgbouncer.log").arg(dir_)
            << QStringLiteral("server_reset_query = DISCARD ALL");
        ini << opts_.settings;
        write(QStringLiteral("pgbouncer.ini"), ini.join(QLatin1Char('\n')) + QLatin1Char('\n'));
        write(QStringLiteral("userlist.txt"), QStringLiteral("\"%1\" \"\"\n").arg(user_));
    }
    void write(const QString& name, const QString& text) const
    {
        QFile f(dir_ + QLatin1Char('/') + name);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text.toUtf8()) < 0)
            throw std::runtime_error("cannot write " + f.fileName().toStdString());
    }
    void chownAll(uid_t uid, gid_t gid) const
    {
        for (const QString& p :
             {dir_, dir_ + QStringLiteral("/pgbouncer.ini"), dir_ + QStringLiteral("/userlist.txt"),
              dir_ + QStringLiteral("/pgbouncer.log")})
            if (QFile::exists(p)) {
                [[maybe_unused]] int r = ::chown(QFile::encodeName(p).constData(), uid, gid);
            }
    }

    BouncerOptions opts_;
    QString dir_;
    QString user_;
    std::unique_ptr<QProcess> proc_;
    qint64 pid_ = 0;
};

// One client connection through PgBouncer (blocking libpq, test side only).
class BouncerClient
{
public:
    explicit BouncerClient(const QString& dsn) : c_(PQconnectdb(dsn.toUtf8().constData()))
    {
        if (PQstatus(c_.get()) != CONNECTION_OK)
            throw std::runtime_error("client through pgbouncer: " + std::string(PQerrorMessage(c_.get())));
    }
    // First value of the first row ("" if none); throws on error.
    QString exec(const QString& sql)
    {
        pg::ResultPtr r(PQexec(c_.get(), sql.toUtf8().constData()));
        const auto st = PQresultStatus(r.get());
        if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
            throw std::runtime_error(sql.toStdString() + ": " + PQerrorMessage(c_.get()));
        return PQntuples(r.get()) > 0 ? QString::fromUtf8(PQgetvalue(r.get(), 0, 0)) : QString();
    }

private:
    pg::ConnPtr c_;
};

// `n` clients, each on its own thread and connection, running one statement (pg_sleep) through
// PgBouncer at once; joined on destruction, so no thread outlives a failed test.
class BusyClients
{
public:
    BusyClients(const QString& dsn, int n, const QString& sql)
    {
        for (int i = 0; i < n; ++i)
            threads_.emplace_back([this, dsn = dsn.toUtf8(), sql = sql.toUtf8()] {
                pg::ConnPtr c(PQconnectdb(dsn.constData()));
                if (PQstatus(c.get()) != CONNECTION_OK)
                    return;
                pg::ResultPtr r(PQexec(c.get(), sql.constData()));
                if (PQresultStatus(r.get()) == PGRES_TUPLES_OK)
                    ++succeeded_;
            });
    }
    ~BusyClients() { join(); }
    void join()
    {
        for (auto& t : threads_)
            if (t.joinable())
                t.join();
    }
    int succeeded() const { return succeeded_.load(); }

private:
    std::vector<std::thread> threads_;
    std::atomic<int> succeeded_{0};
};

} // namespace lw::test
