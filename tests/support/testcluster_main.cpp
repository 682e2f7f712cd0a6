// ctest fixture helper: `leasewatch-testcluster start DIR` before the suite, `stop DIR` after it
// (ctest runs the cleanup step even when tests fail or crash). `stop` also stops the private
// clusters that tests started below DIR/own, so no postgres process outlives the suite.
#include "cluster/ThrowawayCluster.h"

#include <QCoreApplication>
#include <QDir>
#include <QTextStream>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    QTextStream err(stderr);
    if (args.size() != 3 || (args[1] != QLatin1String("start") && args[1] != QLatin1String("stop"))) {
        err << "usage: leasewatch-testcluster start|stop DIR\n";
        return 2;
    }
    const QString dir = QDir(args[2]).absolutePath();
    auto stopAll = [&]() {
        const QDir own(dir + QStringLiteral("/own"));
        for (const QString& sub : own.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            // A test that ran the console with TMPDIR there: its demo clusters sit one level down.
            const QDir tmp(own.filePath(sub));
            for (const QString& demo : tmp.entryList({QStringLiteral("lw-pg-*")}, QDir::Dirs))
                lw::cluster::ThrowawayCluster::stopAndRemove(tmp.filePath(demo));
            lw::cluster::ThrowawayCluster::stopAndRemove(own.filePath(sub));
        }
        lw::cluster::ThrowawayCluster::stopAndRemove(dir);
    };
    if (args[1] == QLatin1String("stop")) {
        stopAll();
        QTextStream(stdout) << "stopped and removed " << dir << "\n";
        return 0;
    }
    stopAll(); // a cluster left by a killed earlier run
    lw::cluster::ClusterOptions o;
    o.directory = dir;
    o.maxConnections = 200;
    o.maxLocksPerTransaction = 128;
    lw::cluster::ThrowawayCluster c(o);
    if (auto e = c.start()) {
        err << "cannot start the test cluster: " << *e << "\n";
        return 1;
    }
    c.detach();
    QTextStream(stdout) << "test cluster running: " << c.dsn() << "\n";
    return 0;
}
