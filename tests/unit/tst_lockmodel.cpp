// AdvisoryLockModel across refreshes, under QAbstractItemModelTester (attached before any data):
// a refresh that reuses the previous pg_locks read (read every N) updates the same rows in place,
// and the rows stay right after the locks themselves change.
#include "LocksModels.h"
#include "../support/DomainRows.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lw;

namespace {

constexpr double kNow = 1'800'000'000.0;

SessionRow session(int pid, const QString& state)
{
    return test::sessionRow(pid, QStringLiteral("app-%1").arg(pid), state, kNow - 30);
}

AdvisoryLockRow lock(int pid, qint64 key)
{
    return test::advisoryLock(pid, key);
}

Snapshot refresh(double now, std::vector<SessionRow> sessions, const CowVector<AdvisoryLockRow>& locks)
{
    Snapshot s;
    s.ok = true;
    s.serverNow = now;
    s.cluster.maxConnections = 100;
    s.sessions = std::move(sessions);
    s.advisoryLocks = locks;
    s.analysis = std::make_shared<const Analysis>(analyze(s, {}));
    return s;
}

// pid of each row → its session state column, keyed by the lock's key.
QMap<qint64, QString> stateByKey(const AdvisoryLockModel& m)
{
    QMap<qint64, QString> out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.insert(m.row(r).view.lock.key,
                   m.index(r, AdvisoryLockModel::SessionState).data().toString().section(QLatin1Char(' '), 0, 0));
    return out;
}

} // namespace

class TestLockModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void reusedReadUpdatesRowsInPlace()
    {
        AdvisoryLockModel m;
        new QAbstractItemModelTester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest, &m);

        CowVector<AdvisoryLockRow> read1 = {lock(101, 1), lock(101, 2), lock(202, 3)};
        m.applySnapshot(refresh(kNow, {session(101, "idle"), session(202, "idle")}, read1));
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(stateByKey(m), (QMap<qint64, QString>{{1, "idle"}, {2, "idle"}, {3, "idle"}}));

        // The poller reused read1 (same storage); pid 202 went active.
        QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&m, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        const CowVector<AdvisoryLockRow> reused = read1;
        QVERIFY(reused.sharesStorageWith(read1));
        m.applySnapshot(refresh(kNow + 1, {session(101, "idle"), session(202, "active")}, reused));
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(stateByKey(m), (QMap<qint64, QString>{{1, "idle"}, {2, "idle"}, {3, "active"}}));
        bool wholeRowOf202 = false;
        for (const auto& args : changed) {
            const QModelIndex tl = args.at(0).value<QModelIndex>(), br = args.at(1).value<QModelIndex>();
            wholeRowOf202 = wholeRowOf202 || (tl.row() <= 2 && br.row() >= 2 && tl.column() == 0);
        }
        QVERIFY(wholeRowOf202);

        // A new read: key 1 gone, key 4 new, in another order than the rows; then that read
        // reused with pid 101 active.
        CowVector<AdvisoryLockRow> read2 = {lock(101, 4), lock(202, 3), lock(101, 2)};
        m.applySnapshot(refresh(kNow + 2, {session(101, "idle"), session(202, "active")}, read2));
        QCOMPARE(stateByKey(m), (QMap<qint64, QString>{{2, "idle"}, {3, "active"}, {4, "idle"}}));
        m.applySnapshot(refresh(kNow + 3, {session(101, "active"), session(202, "idle")}, read2));
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(stateByKey(m), (QMap<qint64, QString>{{2, "active"}, {3, "idle"}, {4, "active"}}));
        // Held since the console first saw it: reuse keeps the first sighting.
        for (int r = 0; r < m.rowCount(); ++r)
            if (m.row(r).view.lock.key == 2)
                QCOMPARE(m.row(r).firstSeen, kNow);
    }
};

QTEST_GUILESS_MAIN(TestLockModel)
#include "tst_lockmodel.moc"
