// A demo that is killed leaves its throwaway server running; the next demo stops and removes it.
// A cluster whose owner is alive, or that has no owner record, is never touched. Everything runs
// with TMPDIR below the suite's directory, so the fixture's cleanup stops whatever a failure leaves.
#include "Programs.h"
#include "TestCluster.h"
#include "cluster/ThrowawayCluster.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <cerrno>
#include <csignal>

using namespace lw;

namespace {

bool processAlive(qint64 pid)
{
    return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
}

// The postmaster pid of the first lw-pg-* cluster below `tmp` that is up, or 0.
qint64 runningPostmaster(const QString& tmp, QString* dir = nullptr)
{
    for (const QString& name : QDir(tmp).entryList({QStringLiteral("lw-pg-*")}, QDir::Dirs)) {
        QFile pidFile(tmp + QLatin1Char('/') + name + QStringLiteral("/data/postmaster.pid"));
        if (!pidFile.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> lines = pidFile.readAll().split('\n');
        // The last lines are written when the server is ready to accept connections.
        if (lines.size() < 8 || !lines[7].trimmed().startsWith("ready"))
            continue;
        if (dir)
            *dir = tmp + QLatin1Char('/') + name;
        return lines[0].trimmed().toLongLong();
    }
    return 0;
}

QProcess* startDemo(const QString& tmp, const QStringList& extra, QObject* parent)
{
    auto* p = new QProcess(parent);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TMPDIR"), tmp);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p->setProcessEnvironment(env);
    p->setProcessChannelMode(QProcess::SeparateChannels);
    p->start(lw::test::leasewatchBin(), QStringList{QStringLiteral("--demo")} + extra);
    return p;
}

} // namespace

class TestDemoOrphans : public QObject
{
    Q_OBJECT
    QString tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        // TMPDIR for the demos: the fixture's cleanup stops lw-pg-* clusters found there.
        tmp_ = test::privateClusterOptions(QStringLiteral("orphans")).directory;
        QVERIFY(QDir().mkpath(tmp_));
    }
    void cleanupTestCase()
    {
        // Whatever a failed step left: owners are dead by now (or never recorded), stop them all.
        for (const QString& name : QDir(tmp_).entryList({QStringLiteral("lw-pg-*")}, QDir::Dirs))
            cluster::ThrowawayCluster::stopAndRemove(tmp_ + QLatin1Char('/') + name);
    }

    void killedDemoIsReapedByTheNext()
    {
        QProcess* first = startDemo(tmp_, {}, this);
        QVERIFY(first->waitForStarted(10000));
        QString dir;
        QTRY_VERIFY_WITH_TIMEOUT(runningPostmaster(tmp_, &dir) > 0, 90000);
        const qint64 postmaster = runningPostmaster(tmp_);
        QVERIFY(QFile::exists(dir + QStringLiteral("/owner")));
        first->kill(); // SIGKILL: no destructor runs
        QVERIFY(first->waitForFinished(10000)); // gone: its children are orphans now
        QVERIFY2(processAlive(postmaster), "the killed demo's server is still up: what the reaper is for");

        QProcess* second = startDemo(tmp_, {QStringLiteral("--quit-after"), QStringLiteral("2")}, this);
        QVERIFY(second->waitForFinished(120000));
        const QString err = QString::fromUtf8(second->readAllStandardError());
        QCOMPARE(second->exitCode(), 0);
        QVERIFY2(err.contains(QLatin1String("stopped and removed 1 demo cluster")), qPrintable(err));
        QVERIFY(!QFile::exists(dir));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(postmaster), 10000);
        // The second demo quit normally: nothing of it is left either.
        QCOMPARE(QDir(tmp_).entryList({QStringLiteral("lw-pg-*")}, QDir::Dirs), QStringList());
    }

    void liveOrUnrecordedOwnersAreLeftAlone()
    {
        // A cluster of this (live) process, made in a fresh temp directory below tmp_.
        const QByteArray oldTmp = qgetenv("TMPDIR");
        qputenv("TMPDIR", tmp_.toUtf8());
        cluster::ThrowawayCluster mine;
        const auto err = mine.start();
        qputenv("TMPDIR", oldTmp);
        QVERIFY2(!err, qPrintable(err.value_or(QString())));
        QVERIFY(mine.directory().startsWith(tmp_));
        // A directory without an owner record (a detached cluster, or an older version's).
        const QString foreign = tmp_ + QStringLiteral("/lw-pg-foreign");
        QVERIFY(QDir().mkpath(foreign + QStringLiteral("/data")));

        QCOMPARE(cluster::ThrowawayCluster::reapOrphans(tmp_), 0);
        QVERIFY(mine.isRunning());
        QVERIFY(QFile::exists(foreign));

        // The same record with a dead owner (a pid that is no process) is reaped.
        QFile owner(mine.directory() + QStringLiteral("/owner"));
        QVERIFY(owner.open(QIODevice::WriteOnly | QIODevice::Truncate));
        owner.write("2147483000 12345\n");
        owner.close();
        QCOMPARE(cluster::ThrowawayCluster::reapOrphans(tmp_), 1);
        QVERIFY(!QFile::exists(mine.directory()));
        QVERIFY(QFile::exists(foreign));
        QDir(foreign).removeRecursively();
    }
};

QTEST_GUILESS_MAIN(TestDemoOrphans)
#include "tst_demo_orphans.moc"
