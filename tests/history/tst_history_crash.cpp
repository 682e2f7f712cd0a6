// A crash leaves a usable store: a helper writes continuously and is killed with SIGKILL at various
// moments (mid-transaction, most likely); the store must pass PRAGMA integrity_check, read back in
// full, and take new writes.
#include "Programs.h"
#include "HistoryTestSupport.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace lw;
using namespace lw::test;

class TstHistoryCrash : public QObject
{
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void sigkillMidWrite_data()
    {
        QTest::addColumn<int>("minWrites");
        QTest::addColumn<int>("extraMs");
        QTest::newRow("early") << 3 << 0;
        QTest::newRow("mid-a") << 20 << 7;
        QTest::newRow("mid-b") << 40 << 23;
        QTest::newRow("later") << 80 << 41;
    }
    void sigkillMidWrite()
    {
        QFETCH(int, minWrites);
        QFETCH(int, extraMs);
        const QString path = dir_.filePath(QStringLiteral("crash-%1.sqlite").arg(minWrites));
        QProcess p;
        p.start(lw::test::program("LW_HISTORY_CRASH_WRITER"), {path});
        QVERIFY2(p.waitForStarted(10000), qPrintable(p.errorString()));
        qint64 reported = 0;
        QElapsedTimer t;
        t.start();
        while (reported < minWrites && t.elapsed() < 30000) {
            p.waitForReadyRead(200);
            while (p.canReadLine())
                reported = std::max(reported, p.readLine().trimmed().toLongLong());
            QVERIFY2(p.state() == QProcess::Running, qPrintable(p.readAllStandardError()));
        }
        QVERIFY2(reported >= minWrites, qPrintable(p.readAllStandardError()));
        QThread::msleep(ulong(extraMs));
        p.kill(); // SIGKILL
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        p.waitForReadyRead(0);
        while (p.canReadLine())
            reported = std::max(reported, p.readLine().trimmed().toLongLong());

        {
            HistoryReader r(path);
            QVERIFY2(r.isOpen(), qPrintable(r.errorString()));
            QCOMPARE(r.integrityCheck(), QStringLiteral("ok"));
            const auto range = r.range();
            // Everything reported as committed is there (retention may have dropped the oldest).
            QVERIFY2(range.to >= 1e9 + double(reported - 1), qPrintable(QString::number(range.to - 1e9)));
            QVERIFY(range.refreshes >= 1);
            const auto last = r.snapshotAt(range.to);
            QVERIFY(last && last->ok);
            QCOMPARE(last->leases.size(), size_t(400));
            QCOMPARE(last->sessions.size(), size_t(6));
            const auto first = r.snapshotAt(range.from);
            QVERIFY(first);
            QCOMPARE(first->leases.size(), size_t(400));
        }
        // And it takes new writes where it left off.
        HistoryOptions o;
        o.path = path;
        FedWriter w(o);
        QVERIFY2(w.isOpen(), qPrintable(w.errorString()));
        SnapshotSpec sp;
        sp.now = 2e9;
        QVERIFY(w.write(makeSnapshot(sp)));
        HistoryReader r(path);
        QCOMPARE(r.integrityCheck(), QStringLiteral("ok"));
        QCOMPARE(r.range().to, 2e9);
        QCOMPARE(r.snapshotAt(2e9)->leases.size(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TstHistoryCrash)
#include "tst_history_crash.moc"
