// AdvisoryLockModel across refreshes, under QAbstractItemModelTester (attached before any data):
// a refresh that reuses the previous pg_locks read (read every N) updates the same rows in place,
// and the rows stay right after the locks themselves change.
#include "itemmodels/LocksModels.h"
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

Snapshot refresh(double now, std::vector<SessionRow> sessions, const SharedRows<AdvisoryLockRow>& locks)
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

        SharedRows<AdvisoryLockRow> read1 = {lock(101, 1), lock(101, 2), lock(202, 3)};
        m.applySnapshot(refresh(kNow, {session(101, "idle"), session(202, "idle")}, read1));
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(stateByKey(m), (QMap<qint64, QString>{{1, "idle"}, {2, "idle"}, {3, "idle"}}));

        // The poller reused read1 (same storage); pid 202 went active.
        QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&m, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        const SharedRows<AdvisoryLockRow> reused = read1;
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
        SharedRows<AdvisoryLockRow> read2 = {lock(101, 4), lock(202, 3), lock(101, 2)};
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

    // The poller reused the previous refresh's lock views (same read, same holders' states): the
    // model keeps its rows and still shows the sessions' new values and the clock's new durations.
    void reusedViewsFollowSessionsAndClock()
    {
        AdvisoryLockModel m;
        new QAbstractItemModelTester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest, &m);
        const SharedRows<AdvisoryLockRow> read = {lock(101, 1), lock(101, 2), lock(202, 3)};
        Snapshot s1 = refresh(kNow, {session(101, "idle"), session(202, "active")}, read);
        m.applySnapshot(s1);
        QCOMPARE(m.rowCount(), 3);
        const int row1 = m.rowOfKey(AdvisoryLockModel::keyOf(lock(101, 1)));
        QCOMPARE(m.index(row1, AdvisoryLockModel::Finding).data().toString(),
                 QStringLiteral("idle 30 s holding this lock: the connection is out of its pool"));

        Snapshot s2 = s1;
        s2.serverNow = kNow + 20;
        std::vector<SessionRow> sessions = s2.sessions.vec();
        sessions[0].query = QStringLiteral("SELECT pg_sleep(1)");
        s2.sessions = std::move(sessions);
        s2.analysis = std::make_shared<const Analysis>(analyze(s2, {}, s1.analysis.get()));
        QVERIFY(s2.analysis->locks.sharesStorageWith(s1.analysis->locks));
        QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&m, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        m.applySnapshot(s2);
        QCOMPARE(inserted.count() + removed.count(), 0);
        QCOMPARE(m.index(row1, AdvisoryLockModel::Query).data().toString(), QStringLiteral("SELECT pg_sleep(1)"));
        QCOMPARE(m.index(row1, AdvisoryLockModel::Finding).data().toString(),
                 QStringLiteral("idle 50 s holding this lock: the connection is out of its pool"));
        QCOMPARE(m.index(row1, AdvisoryLockModel::SessionState).data().toString(), QStringLiteral("idle 50 s"));
        bool queryColumn = false;
        for (const auto& args : changed) {
            const QModelIndex tl = args.at(0).value<QModelIndex>(), br = args.at(1).value<QModelIndex>();
            queryColumn = queryColumn || (tl.row() <= row1 && br.row() >= row1 && tl.column() <= AdvisoryLockModel::Query &&
                                          br.column() >= AdvisoryLockModel::Query);
        }
        QVERIFY(queryColumn);
        const int row3 = m.rowOfKey(AdvisoryLockModel::keyOf(lock(202, 3)));
        QCOMPARE(m.row(row3).session().state, QStringLiteral("active"));
    }

    // Each header names what its column shows.
    void headersNameTheirColumns()
    {
        AdvisoryLockModel m;
        QAbstractItemModelTester mTester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.applySnapshot(refresh(kNow, {session(101, "idle")}, {lock(101, 1)}));
        auto header = [&](int c) { return m.headerData(c, Qt::Horizontal).toString(); };
        auto cell = [&](int c) { return m.index(0, c).data().toString(); };
        QCOMPARE(header(AdvisoryLockModel::Finding), QStringLiteral("Finding"));
        QVERIFY2(cell(AdvisoryLockModel::Finding).startsWith(QLatin1String("idle 30 s holding")),
                 qPrintable(cell(AdvisoryLockModel::Finding)));
        QCOMPARE(header(AdvisoryLockModel::SessionState), QStringLiteral("Session"));
        QCOMPARE(cell(AdvisoryLockModel::SessionState), QStringLiteral("idle 30 s"));
        QCOMPARE(header(AdvisoryLockModel::Application), QStringLiteral("Application"));
        QCOMPARE(cell(AdvisoryLockModel::Application), QStringLiteral("app-101"));
        QCOMPARE(header(AdvisoryLockModel::Query), QStringLiteral("Last query"));
        QCOMPARE(header(AdvisoryLockModel::Duration), QStringLiteral("Held / waited"));
        for (int c = 0; c < AdvisoryLockModel::ColumnCount; ++c)
            QVERIFY2(!header(c).isEmpty(), qPrintable(QString::number(c)));
    }
};

QTEST_GUILESS_MAIN(TestLockModel)
#include "tst_lockmodel.moc"
