// Issue 26, point 5: the history store on a disk that fills up (ENOSPC, a real tmpfs of 1 MB):
// recording pauses and says why, nothing else waits for it, and it resumes by itself once space
// returns — the refreshes recorded after that are in the store.
#include "store/AuditLog.h"
#include "HistoryTestSupport.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>

using namespace lw;
using namespace lw::test;

namespace {
// A 1 MB tmpfs, unmounted whatever way the test ends.
class SmallDisk
{
public:
    explicit SmallDisk(const QString& dir) : dir_(QFile::encodeName(dir))
    {
        mounted_ = ::mount("tmpfs", dir_.constData(), "tmpfs", 0, "size=1m,mode=0700") == 0;
        error_ = mounted_ ? QString() : QString::fromLocal8Bit(strerror(errno));
    }
    ~SmallDisk()
    {
        if (mounted_)
            ::umount2(dir_.constData(), MNT_DETACH);
    }
    bool mounted() const { return mounted_; }
    QString error() const { return error_; }

private:
    QByteArray dir_;
    bool mounted_ = false;
    QString error_;
};
} // namespace

class TestHistoryDisk : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fullDiskPausesAndResumes()
    {
        QTemporaryDir dir;
        SmallDisk disk(dir.path());
        // The tests run as root (README); a machine that forbids mounting cannot run this one.
        QVERIFY2(disk.mounted(), qPrintable(QStringLiteral("mount tmpfs: ") + disk.error()));
        // Most of the disk taken by something else.
        QFile filler(dir.filePath("filler"));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        QVERIFY(filler.write(QByteArray(700 * 1024, 'x')) == 700 * 1024);
        filler.close();

        HistoryOptions o;
        o.profile = QStringLiteral("disk");
        o.path = dir.filePath("store.sqlite");
        o.wallClockMs = [] { return qint64(20'000'000); };
        FedRecorder rec(o);
        QVERIFY2(rec.isOpen(), qPrintable(rec.errorString()));
        QSignalSpy changed(&rec, &HistoryRecorder::recordingChanged);

        // New leases every refresh until the disk is full.
        SnapshotSpec sp;
        int n = 0;
        for (; n < 400 && changed.isEmpty(); ++n) {
            sp.now = 1000 + n;
            for (int i = 0; i < 50; ++i)
                sp.leases.push_back(lease(QStringLiteral("lease-%1-%2-with-a-long-name-to-fill-pages").arg(n).arg(i),
                                          "h:1:aa", sp.now, sp.now + 600));
            rec.record(makeSnapshot(sp));
            rec.flush();
            QCoreApplication::processEvents();
        }
        QTRY_COMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toBool(), false);
        const QString why = changed.at(0).at(1).toString();
        QVERIFY2(why.contains("full", Qt::CaseInsensitive), qPrintable(why)); // SQLITE_FULL: "database or disk is full"

        // Further refreshes are tried, and skipped, without blocking anyone.
        sp.now += 1;
        rec.record(makeSnapshot(sp));
        rec.flush();
        QCoreApplication::processEvents();
        QCOMPARE(changed.count(), 1);

        // Space returns: the next refresh is recorded, and it says so.
        QVERIFY(QFile::remove(dir.filePath("filler")));
        sp.now += 1;
        const double resumedAt = sp.now;
        sp.leases.resize(10);
        rec.record(makeSnapshot(sp));
        rec.flush();
        QTRY_COMPARE(changed.count(), 2);
        QCOMPARE(changed.at(1).at(0).toBool(), true);

        HistoryReader r(o.path);
        QVERIFY2(r.isOpen(), qPrintable(r.errorString()));
        const auto got = r.snapshotAt(resumedAt);
        QVERIFY(got && got->ok);
        QCOMPARE(got->serverNow, resumedAt);
        QCOMPARE(got->leases.size(), size_t(10));
    }

    // A data directory that cannot be created or written (as root, permissions do not stop us:
    // below /proc nothing can be created): the store and the audit log say so; nothing crashes.
    void unwritableDataDirectorySaysSo()
    {
        HistoryOptions o;
        o.profile = QStringLiteral("nowhere");
        o.path = QStringLiteral("/proc/leasewatch-none/history/store.sqlite");
        FedRecorder rec(o);
        QVERIFY(!rec.isOpen());
        QVERIFY2(rec.errorString().contains("/proc/leasewatch-none/history"), qPrintable(rec.errorString()));
        rec.record(makeSnapshot(SnapshotSpec{})); // ignored, not a crash
        AuditLog audit(QStringLiteral("/proc/leasewatch-none/audit.sqlite"));
        QVERIFY(!audit.isOpen());
        QVERIFY(!audit.errorString().isEmpty());
        AuditRecord r;
        r.action = QStringLiteral("force-expire");
        r.target = QStringLiteral("public.leases/x");
        QVERIFY(!audit.append(r)); // refused, and the caller says so (see LeaseActions)
    }
};

QTEST_GUILESS_MAIN(TestHistoryDisk)
#include "tst_history_disk.moc"
