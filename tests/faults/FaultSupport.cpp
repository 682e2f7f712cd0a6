#include "FaultSupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTest>

#include <arpa/inet.h>
#include <exception>
#include <mutex>
#include <netinet/in.h>
#include <set>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lw::fault {

namespace {
// Every process any PrivateServer froze, for the last-resort thaw when the process dies on an
// uncaught exception (no destructor runs then). The fixture's cleanup only SIGCONTs postmasters.
std::mutex frozenMutex;
std::set<pid_t>& allFrozen()
{
    static std::set<pid_t> s;
    return s;
}
[[noreturn]] void thawThenTerminate()
{
    for (pid_t p : allFrozen())
        ::kill(p, SIGCONT);
    std::abort();
}
} // namespace

PrivateServer::PrivateServer(cluster::ClusterOptions opts) : opts_(opts), c_(std::move(opts))
{
    static std::once_flag once;
    std::call_once(once, [] { std::set_terminate(thawThenTerminate); });
}

PrivateServer::~PrivateServer()
{
    thawAll(); // a stopped postmaster would make pg_ctl stop wait for its full timeout
    c_.stop();
}

std::optional<QString> PrivateServer::start()
{
    return c_.start();
}

std::optional<QString> PrivateServer::stopImmediate()
{
    QString out;
    const int rc = cluster::runAsClusterUser(
        cluster::ThrowawayCluster::findBinDir() + QStringLiteral("/pg_ctl"),
        {QStringLiteral("-D"), dataDir(), QStringLiteral("-m"), QStringLiteral("immediate"),
         QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("30"), QStringLiteral("stop")},
        c_.directory(), 40000, &out);
    if (rc != 0)
        return QStringLiteral("pg_ctl stop -m immediate failed (%1): %2").arg(rc).arg(out.trimmed());
    return std::nullopt;
}

pid_t PrivateServer::postmasterPid() const
{
    QFile f(dataDir() + QStringLiteral("/postmaster.pid"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return pid_t(f.readLine().trimmed().toLongLong());
}

bool PrivateServer::isUp() const
{
    const pid_t pm = postmasterPid();
    return pm > 0 && processExists(pm);
}

std::vector<pid_t> PrivateServer::childPids() const
{
    std::vector<pid_t> out;
    const pid_t pm = postmasterPid();
    if (pm <= 0)
        return out;
    const QDir proc(QStringLiteral("/proc"));
    for (const QString& e : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const pid_t pid = pid_t(e.toLongLong(&ok));
        if (!ok)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid …": comm may contain spaces, so parse after the last ')'.
        const QByteArray line = stat.readAll();
        const auto close = line.lastIndexOf(')');
        if (close < 0)
            continue;
        const QList<QByteArray> f = line.mid(close + 2).split(' ');
        if (f.size() > 1 && pid_t(f[1].toLongLong()) == pm)
            out.push_back(pid);
    }
    return out;
}

void PrivateServer::freeze(const std::vector<pid_t>& pids)
{
    const std::lock_guard lock(frozenMutex);
    for (pid_t p : pids) {
        if (p > 1 && ::kill(p, SIGSTOP) == 0) {
            frozen_.push_back(p);
            allFrozen().insert(p);
        }
    }
}

void PrivateServer::thawAll()
{
    const std::lock_guard lock(frozenMutex);
    for (pid_t p : frozen_) {
        ::kill(p, SIGCONT);
        allFrozen().erase(p);
    }
    frozen_.clear();
}

LoopLatencyProbe::LoopLatencyProbe()
{
    timer_.setInterval(10);
    timer_.setTimerType(Qt::PreciseTimer);
    QObject::connect(&timer_, &QTimer::timeout, this, [this] {
        maxGap_ = std::max(maxGap_, last_.restart());
        ++ticks_;
    });
}

void LoopLatencyProbe::start()
{
    maxGap_ = 0;
    ticks_ = 0;
    last_.start();
    timer_.start();
}

void LoopLatencyProbe::stop()
{
    if (timer_.isActive())
        maxGap_ = std::max(maxGap_, last_.elapsed()); // a block just before stop counts too
    timer_.stop();
}

int freeTcpPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd); // nobody listens on it now; the kernel does not hand it out again right away
    return port;
}

int threadCount()
{
    return int(QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}

bool processExists(pid_t pid)
{
    // kill(0) also succeeds for zombies; a zombie postmaster child is gone for our purposes.
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const auto close = line.lastIndexOf(')');
    return close >= 0 && line.size() > close + 2 && line[close + 2] != 'Z';
}

bool waitFor(const std::function<bool()>& pred, int timeoutMs)
{
    return QTest::qWaitFor(pred, timeoutMs);
}

pg::Connection openSession(const QString& dsn, const QString& appName)
{
    pg::Connection c;
    pg::ConnectOptions o;
    o.dsn = dsn;
    o.readOnly = false;
    o.applicationName = appName;
    o.statementTimeoutMs = 30000;
    if (!c.connect(o).isError())
        PQsetnonblocking(c.raw(), 0);
    return c;
}

std::optional<QString> query(const QString& dsn, const QString& sql, QString* error)
{
    pg::Connection c;
    pg::ConnectOptions o;
    o.dsn = dsn;
    o.readOnly = false;
    o.applicationName = QStringLiteral("leasewatch-test");
    o.connectTimeoutS = 5;
    if (const DbError e = c.connect(o); e.isError()) {
        if (error)
            *error = e.toDisplayString();
        return std::nullopt;
    }
    PQsetnonblocking(c.raw(), 0);
    pg::ResultPtr r(PQexec(c.raw(), sql.toUtf8().constData()));
    const auto st = PQresultStatus(r.get());
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        if (error)
            *error = pg::errorFromResult(r.get(), c.raw()).toDisplayString();
        return std::nullopt;
    }
    if (st != PGRES_TUPLES_OK || PQntuples(r.get()) == 0 || PQgetisnull(r.get(), 0, 0))
        return QString();
    return QString::fromUtf8(PQgetvalue(r.get(), 0, 0));
}

bool exec(const QString& dsn, const QString& sql)
{
    QString error;
    if (query(dsn, sql, &error))
        return true;
    qWarning("%s: %s", qPrintable(sql.left(120)), qPrintable(error));
    return false;
}

int consoleBackends(const QString& dsn)
{
    const auto n = query(dsn, QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                             "'leasewatch'"));
    return n ? n->toInt() : -1;
}

} // namespace lw::fault
