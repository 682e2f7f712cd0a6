#include "ThrowawayCluster.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <cerrno>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lw::cluster {

namespace {
constexpr char kOwnerFile[] = "/owner";

// A process's start time (clock ticks since boot, /proc/PID/stat field 22): with the pid it names
// one process, not whichever later reuses the pid. 0 when the process does not exist.
quint64 processStartTime(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray stat = f.readAll();
    const qsizetype paren = stat.lastIndexOf(')'); // the command name may contain spaces
    if (paren < 0)
        return 0;
    const QList<QByteArray> fields = stat.mid(paren + 2).split(' '); // fields[0] is field 3
    return fields.size() > 19 ? fields[19].toULongLong() : 0;
}

struct SystemUser
{
    bool switchUser = false;
    uid_t uid = 0;
    gid_t gid = 0;
    QString name;
    QString home;
};

SystemUser clusterUser()
{
    SystemUser u;
    if (::geteuid() == 0) {
        if (const passwd* pw = ::getpwnam("postgres")) {
            u.switchUser = true;
            u.uid = pw->pw_uid;
            u.gid = pw->pw_gid;
            u.name = QString::fromLocal8Bit(pw->pw_name);
            u.home = QString::fromLocal8Bit(pw->pw_dir);
        }
        return u;
    }
    if (const passwd* pw = ::getpwuid(::geteuid())) {
        u.name = QString::fromLocal8Bit(pw->pw_name);
        u.home = QString::fromLocal8Bit(pw->pw_dir);
    }
    return u;
}

void chownTree(const QString& path, const SystemUser& u)
{
    if (!u.switchUser)
        return;
    [[maybe_unused]] int r = ::chown(QFile::encodeName(path).constData(), u.uid, u.gid);
}
} // namespace

int runAsClusterUser(const QString& program, const QStringList& args, const QString& workDir, int timeoutMs,
                     QString* output)
{
    const SystemUser u = clusterUser();
    QProcess p;
    const QString root = serverRoot();
    if (!root.isEmpty() && u.switchUser) {
        // A server of another Debian release (scripts/test-servers): chroot switches to the same
        // uid inside, so the cluster's files belong to postgres on both sides.
        p.setProgram(QStringLiteral("chroot"));
        p.setArguments(QStringList{QStringLiteral("--userspec=%1:%2").arg(u.uid).arg(u.gid), root, program} + args);
    } else {
        p.setProgram(program);
        p.setArguments(args);
    }
    p.setWorkingDirectory(workDir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    if (u.switchUser) {
        env.insert(QStringLiteral("HOME"), u.home);
        env.insert(QStringLiteral("USER"), u.name);
        env.insert(QStringLiteral("LOGNAME"), u.name);
    }
    if (u.switchUser && root.isEmpty()) {
        const uid_t uid = u.uid;
        const gid_t gid = u.gid;
        // Runs in the forked child before exec: only async-signal-safe calls here.
        p.setChildProcessModifier([uid, gid]() {
            if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)
                ::_exit(126);
        });
    }
    p.setProcessEnvironment(env);
    p.start();
    if (!p.waitForStarted(10000)) {
        if (output)
            *output = QStringLiteral("cannot start %1: %2").arg(program, p.errorString());
        return -1;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        if (output)
            *output = QStringLiteral("%1 did not finish within %2 ms").arg(program).arg(timeoutMs);
        return -1;
    }
    if (output)
        *output = QString::fromLocal8Bit(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

QString serverRoot()
{
    return qEnvironmentVariable("PG_ROOT");
}

QString ThrowawayCluster::findBinDir()
{
    const QString env = qEnvironmentVariable("PG_BINDIR");
    if (!env.isEmpty())
        return env;
    const QString root = serverRoot();
    QDir base(root + QStringLiteral("/usr/lib/postgresql"));
    QStringList versions = base.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    std::sort(versions.begin(), versions.end(),
              [](const QString& a, const QString& b) { return a.toInt() > b.toInt(); });
    for (const QString& v : versions) {
        const QString bin = QStringLiteral("/usr/lib/postgresql/%1/bin").arg(v);
        if (QFile::exists(root + bin + QStringLiteral("/initdb")))
            return bin; // a path inside PG_ROOT when that is set
    }
    return {};
}

ThrowawayCluster::ThrowawayCluster(ClusterOptions opts) : opts_(std::move(opts))
{
    superuser_ = clusterUser().name;
    if (superuser_.isEmpty())
        superuser_ = QStringLiteral("postgres");
}

ThrowawayCluster::~ThrowawayCluster()
{
    if (!detached_)
        stop();
}

QString ThrowawayCluster::dsn(const QString& dbname) const
{
    return QStringLiteral("host=%1 port=%2 user=%3 dbname=%4")
        .arg(dir_)
        .arg(opts_.port)
        .arg(superuser_, dbname);
}

std::optional<QString> ThrowawayCluster::run(const QString& program, const QStringList& args, int timeoutMs,
                                             QString* output) const
{
    QString out;
    const int rc = runAsClusterUser(findBinDir() + QLatin1Char('/') + program, args, dir_, timeoutMs, &out);
    if (output)
        *output = out;
    if (rc == 0)
        return std::nullopt;
    return QStringLiteral("%1 failed (exit %2): %3").arg(program).arg(rc).arg(out.trimmed().right(800));
}

std::optional<QString> ThrowawayCluster::start()
{
    const SystemUser u = clusterUser();
    if (!serverRoot().isEmpty() && !u.switchUser)
        return QStringLiteral("PG_ROOT (a server of another Debian release) needs root: chroot runs it");
    if (::geteuid() == 0 && !u.switchUser)
        return QStringLiteral("running as root but there is no `postgres` system user to run the server as "
                              "(install Debian's postgresql package)");
    if (findBinDir().isEmpty())
        return QStringLiteral(
            "PostgreSQL server binaries not found (install Debian's postgresql package, or set PG_BINDIR)");
    if (opts_.directory.isEmpty()) {
        // Short path: the socket path must stay under ~107 bytes.
        QTemporaryDir tmp(QDir::tempPath() + QStringLiteral("/lw-pg-XXXXXX"));
        if (!tmp.isValid())
            return QStringLiteral("cannot create a temporary directory: %1").arg(tmp.errorString());
        tmp.setAutoRemove(false);
        dir_ = tmp.path();
        QFile owner(dir_ + QLatin1String(kOwnerFile));
        if (owner.open(QIODevice::WriteOnly))
            owner.write(QByteArray::number(qint64(::getpid())) + ' ' +
                        QByteArray::number(processStartTime(::getpid())) + '\n');
    } else {
        dir_ = QDir(opts_.directory).absolutePath();
        QDir().mkpath(dir_);
    }
    ownsDir_ = true;
    ::chmod(QFile::encodeName(dir_).constData(), 0700);
    chownTree(dir_, u);
    const QString data = dir_ + QStringLiteral("/data");

    if (!QFile::exists(data + QStringLiteral("/PG_VERSION"))) {
        if (auto err = run(QStringLiteral("initdb"),
                           {QStringLiteral("-D"), data, QStringLiteral("-U"), superuser_,
                            QStringLiteral("-A"), QStringLiteral("trust"), QStringLiteral("-E"),
                            QStringLiteral("UTF8"), QStringLiteral("--locale=C.UTF-8"),
                            // Not --no-instructions: PostgreSQL 13's initdb has no such option,
                            // and run() keeps the output for an error message only.
                            QStringLiteral("--no-sync")},
                           120000))
            return err;
        QFile conf(data + QStringLiteral("/postgresql.conf"));
        if (!conf.open(QIODevice::Append | QIODevice::Text))
            return QStringLiteral("cannot write %1").arg(conf.fileName());
        QStringList lines = {
            QStringLiteral("listen_addresses = '%1'")
                .arg(opts_.tcp ? QStringLiteral("127.0.0.1") : QString()),
            QStringLiteral("port = %1").arg(opts_.port),
            QStringLiteral("unix_socket_directories = '%1'").arg(dir_),
            QStringLiteral("max_connections = %1").arg(opts_.maxConnections),
            QStringLiteral("max_locks_per_transaction = %1").arg(opts_.maxLocksPerTransaction),
            // Throwaway data: durability buys nothing here and costs seconds per test.
            QStringLiteral("fsync = off"),
            QStringLiteral("synchronous_commit = off"),
            QStringLiteral("full_page_writes = off"),
            QStringLiteral("shared_buffers = 32MB"),
            QStringLiteral("deadlock_timeout = 200ms"),
            QStringLiteral("logging_collector = off"),
            QStringLiteral("log_min_messages = warning"),
        };
        lines += opts_.extraSettings;
        conf.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
    }
    if (auto err =
            run(QStringLiteral("pg_ctl"),
                {QStringLiteral("-D"), data, QStringLiteral("-l"), dir_ + QStringLiteral("/server.log"),
                 QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("60"), QStringLiteral("start")},
                90000)) {
        QFile log(dir_ + QStringLiteral("/server.log"));
        QString tail;
        if (log.open(QIODevice::ReadOnly))
            tail = QString::fromUtf8(log.readAll()).right(600);
        return *err + QStringLiteral("\nserver log: ") + tail;
    }
    started_ = true;
    return std::nullopt;
}

bool ThrowawayCluster::isRunning() const
{
    return started_ && QFile::exists(dir_ + QStringLiteral("/data/postmaster.pid"));
}

void ThrowawayCluster::stopAndRemove(const QString& dir)
{
    const QString data = dir + QStringLiteral("/data");
    if (QFile::exists(data + QStringLiteral("/postmaster.pid"))) {
        QString out;
        const QString pgctl = findBinDir() + QStringLiteral("/pg_ctl");
        if (runAsClusterUser(pgctl,
                             {QStringLiteral("-D"), data, QStringLiteral("-m"), QStringLiteral("fast"),
                              QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("20"),
                              QStringLiteral("stop")},
                             dir, 30000, &out) != 0) {
            runAsClusterUser(pgctl,
                             {QStringLiteral("-D"), data, QStringLiteral("-m"), QStringLiteral("immediate"),
                              QStringLiteral("-w"), QStringLiteral("stop")},
                             dir, 30000, &out);
        }
        // Last resort: a postmaster that ignored pg_ctl (e.g. it was SIGSTOPped by a fault test).
        QFile pidFile(data + QStringLiteral("/postmaster.pid"));
        if (pidFile.open(QIODevice::ReadOnly)) {
            const pid_t pid = pid_t(pidFile.readLine().trimmed().toLongLong());
            if (pid > 1) {
                ::kill(pid, SIGCONT);
                ::kill(pid, SIGKILL);
            }
        }
    }
    QDir(dir).removeRecursively();
}

void ThrowawayCluster::detach()
{
    detached_ = true;
    QFile::remove(dir_ + QLatin1String(kOwnerFile)); // its new owner stops it, not the reaper
}

int ThrowawayCluster::reapOrphans(const QString& parent)
{
    const QDir base(parent.isEmpty() ? QDir::tempPath() : parent);
    int reaped = 0;
    for (const QString& name : base.entryList({QStringLiteral("lw-pg-*")}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString dir = base.filePath(name);
        QFile owner(dir + QLatin1String(kOwnerFile));
        if (!owner.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> parts = owner.readAll().trimmed().split(' ');
        owner.close();
        if (parts.size() != 2)
            continue;
        const qint64 pid = parts[0].toLongLong();
        const quint64 started = parts[1].toULongLong();
        if (pid <= 0)
            continue;
        const quint64 now = processStartTime(pid);
        const bool alive = started ? now == started : (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
        if (alive)
            continue;
        stopAndRemove(dir);
        ++reaped;
    }
    return reaped;
}

void ThrowawayCluster::stop()
{
    if (dir_.isEmpty())
        return;
    if (ownsDir_)
        stopAndRemove(dir_);
    started_ = false;
    ownsDir_ = false;
}

} // namespace lw::cluster
