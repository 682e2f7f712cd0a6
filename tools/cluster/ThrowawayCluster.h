#pragma once
// A private PostgreSQL cluster for tests, the demo and the benchmark: initdb into a directory,
// Unix socket in that directory, tuned for speed (fsync=off), started as the `postgres` system user
// when we run as root (the server refuses root) and as the current user otherwise.
#include <QString>
#include <QStringList>

#include <optional>

namespace lw::cluster {

struct ClusterOptions
{
    QString directory; // empty: a fresh directory under the system temp dir
    int port = 5432;   // names the socket file; also the TCP port when tcp is true
    bool tcp = false;  // listen on 127.0.0.1 as well
    int maxConnections = 100;
    int maxLocksPerTransaction = 64;
    QStringList extraSettings; // extra postgresql.conf lines
};

class ThrowawayCluster
{
public:
    explicit ThrowawayCluster(ClusterOptions opts = {});
    ~ThrowawayCluster(); // stops the server and removes the directory unless detach() was called
    ThrowawayCluster(const ThrowawayCluster&) = delete;
    ThrowawayCluster& operator=(const ThrowawayCluster&) = delete;

    // initdb (if needed) + start. Returns an error message, or nullopt on success.
    std::optional<QString> start();
    void stop();
    // Leave the server running after this object dies (used by the ctest fixture's setup step).
    void detach();

    // A cluster made in a fresh temp directory records its owner (pid and start time): if the
    // owner dies without stopping it (SIGKILL, a crash), the next reapOrphans() stops it and removes
    // the directory. Looks at lw-pg-* below `parent`; returns how many it removed. Directories
    // without an owner record (detached, or given by the caller) are left alone.
    static int reapOrphans(const QString& parent = {});

    QString directory() const { return dir_; }
    QString socketDir() const { return dir_; }
    int port() const { return opts_.port; }
    // "host=<dir> port=<port> user=<superuser> dbname=<db>"
    QString dsn(const QString& dbname = QStringLiteral("postgres")) const;
    QString superuser() const { return superuser_; }
    bool isRunning() const;

    // Stop a cluster left in `dir` by someone else (the fixture's cleanup step) and remove it.
    static void stopAndRemove(const QString& dir);
    // PG_BINDIR, else the newest /usr/lib/postgresql/*/bin (below PG_ROOT when that is set).
    static QString findBinDir();

private:
    std::optional<QString> run(const QString& program, const QStringList& args, int timeoutMs,
                               QString* output = nullptr) const;
    ClusterOptions opts_;
    QString dir_;
    QString superuser_;
    bool ownsDir_ = false;
    bool started_ = false;
    bool detached_ = false;
};

// PG_ROOT: a Debian root holding the server to use instead of this machine's (scripts/test-servers).
// Its programs run through `chroot` as root's postgres uid; clusters stay under /tmp, which the
// root must share (a bind mount), so their sockets are reachable from here. Empty: this machine's.
QString serverRoot();

// Runs `program args` as the cluster's system user (postgres when we are root), inside PG_ROOT
// when that is set. Returns exit code.
int runAsClusterUser(const QString& program, const QStringList& args, const QString& workDir, int timeoutMs,
                     QString* output);

} // namespace lw::cluster
