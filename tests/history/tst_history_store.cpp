// The history store on synthetic refreshes (no database, no widgets): changes only, what each change
// row says, reconstruction of full snapshots, retention by age and size, bundles, the recorded
// Monitor and the timeline model.
#include "store/AuditLog.h"
#include "domain/UtcTime.h"
#include "HistoryTestSupport.h"
#include "itemmodels/LeaseModel.h"
#include "Monitor.h"
#include "domain/PoolHistory.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"
#include "itemmodels/LeaseTimelineModel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace lw;
using namespace lw::test;
using history::ChangeKind;

namespace {

std::vector<SessionRow> someSessions()
{
    return {session(101, QStringLiteral("billing"), QStringLiteral("idle")),
            session(102, QStringLiteral("billing"), QStringLiteral("active"), QStringLiteral("UPDATE t")),
            session(103, QStringLiteral("reports"), QStringLiteral("idle in transaction"))};
}

std::vector<ChangeKind> kindsOf(const std::vector<LeaseChangeRow>& rows)
{
    std::vector<ChangeKind> out;
    for (const auto& r : rows)
        out.push_back(r.kind);
    return out;
}

QString kindsText(const std::vector<ChangeKind>& ks)
{
    QStringList out;
    for (ChangeKind k : ks)
        out << history::changeKindKey(k);
    return out.join(QLatin1Char(' '));
}

// What the leases of a snapshot say, order-independent.
QMap<QString, LeaseRow> byName(const std::vector<LeaseRow>& rows)
{
    QMap<QString, LeaseRow> m;
    for (const LeaseRow& r : rows)
        m.insert(r.name, r);
    return m;
}

void compareSnapshots(const Snapshot& got, const Snapshot& want)
{
    QCOMPARE(got.ok, want.ok);
    QCOMPARE(got.serverNow, want.serverNow);
    QVERIFY(byName(got.leases.vec()) == byName(want.leases.vec()));
    QVERIFY(got.sessions == want.sessions);
    QVERIFY(got.advisoryLocks == want.advisoryLocks);
    QVERIFY(got.cluster == want.cluster);
    QVERIFY(got.server == want.server);
    QVERIFY(got.keyNames && want.keyNames);
    QVERIFY(*got.keyNames == *want.keyNames);
    QVERIFY(got.analysis);
    QCOMPARE(got.analysis->locks.size(), want.analysis->locks.size());
    QCOMPARE(got.analysis->groups().size(), want.analysis->groups().size());
    QCOMPARE(got.receivedWall.toMSecsSinceEpoch(), want.receivedWall.toMSecsSinceEpoch());
}

} // namespace

class TstHistoryStore : public QObject
{
    Q_OBJECT
    QTemporaryDir dir_;
    QString file(const QString& name) const { return dir_.filePath(name); }

private Q_SLOTS:
    void storeIsWalWithTheSchema()
    {
        const QString path = file(QStringLiteral("schema.sqlite"));
        {
            FedWriter w(options(path));
            QVERIFY2(w.isOpen(), qPrintable(w.errorString()));
            QVERIFY(w.write(makeSnapshot({})));
        }
        StorePeek p(path);
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM refresh")), 1);
        HistoryReader r(path);
        QVERIFY2(r.isOpen(), qPrintable(r.errorString()));
        const auto meta = r.metadata();
        QCOMPARE(meta.value(QStringLiteral("profile")), QStringLiteral("test/profile"));
        QVERIFY(!meta.value(QStringLiteral("source_dsn")).contains(QStringLiteral("s3cret")));
        QVERIFY(meta.value(QStringLiteral("source_dsn")).contains(QStringLiteral("host=db1")));
        QVERIFY(!r.isBundle());
        QCOMPARE(r.integrityCheck(), QStringLiteral("ok"));
    }

    void defaultPathIsPerProfile()
    {
        const QString p = HistoryOptions::defaultPath(QStringLiteral("prod/app:1"));
        QVERIFY2(p.endsWith(QStringLiteral("/history/prod_app_1.sqlite")), qPrintable(p));
        QCOMPARE(history::profileFileName(QStringLiteral("../x")), QStringLiteral("_._x"));
    }

    void unchangedLeaseAddsNoRows_data()
    {
        QTest::addColumn<int>("refreshes");
        QTest::newRow("1") << 1;
        QTest::newRow("10") << 10;
        QTest::newRow("300") << 300;
    }
    void unchangedLeaseAddsNoRows()
    {
        QFETCH(int, refreshes);
        const QString path = file(QStringLiteral("unchanged-%1.sqlite").arg(refreshes));
        FedWriter w(options(path));
        QVERIFY(w.isOpen());
        SnapshotSpec sp;
        // Expires in an hour, taken a minute ago: held for the whole test, no renewal due.
        sp.leases = {lease(QStringLiteral("payroll"), QStringLiteral("h1:7:abc"), 940, 4600)};
        sp.sessions = someSessions();
        for (int i = 0; i < refreshes; ++i) {
            sp.now = 1000 + i;
            QVERIFY(w.write(makeSnapshot(sp)));
        }
        StorePeek p(path);
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM lease_change")), 1); // the first sighting
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM blob WHERE kind = 1")), 1);
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM refresh")), refreshes);
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM cluster_sample")), refreshes);
        const qint64 groupRows = p.value(QStringLiteral("SELECT count(*) FROM group_sample"));
        QVERIFY2(groupRows <= 8, qPrintable(QString::number(groupRows))); // the first counts per grouping
        QCOMPARE(w.stats().leaseRows, 1);
    }

    void changeRowsSayWhatHappened()
    {
        const QString path = file(QStringLiteral("changes.sqlite"));
        const QString auditPath = file(QStringLiteral("changes-audit.sqlite"));
        HistoryOptions o = options(path);
        o.auditPath = auditPath;
        o.wallClockMs = [] { return qint64(1100 * 1000); };
        AuditLog audit(auditPath);
        QVERIFY(audit.isOpen());
        FedWriter w(o);
        QVERIFY(w.isOpen());
        const QString h1 = QStringLiteral("app-1:11:aaaa"), h2 = QStringLiteral("app-2:22:bbbb"),
                      h3 = QStringLiteral("app-3:33:cccc");
        auto at = [&](double now, std::vector<LeaseRow> leases) {
            SnapshotSpec sp;
            sp.now = now;
            sp.leases = std::move(leases);
            return w.write(makeSnapshot(sp));
        };
        QVERIFY(at(1000, {lease("job-a", h1, 990, 1010)}));           // seen (held before recording)
        QVERIFY(at(1001, {lease("job-a", h1, 990, 1010)}));           // nothing
        QVERIFY(at(1002, {lease("job-a", h1, 990, 1012)}));           // renew
        QVERIFY(at(1003, {lease("job-a", h1, 990, 1013)}));           // renew
        QVERIFY(at(1004, {lease("job-a", h1, 990, 1013)}));           // nothing (or a state change)
        QVERIFY(at(1020, {lease("job-a", h1, 990, 1013)}));           // state: stale
        QVERIFY(at(1021, {lease("job-a", h2, 1021, 1031)}));          // take over
        QVERIFY(at(1022, {lease("job-a", h2, 1021, 1031), lease("job-b", h3, 1022, 1032)})); // take
        AuditRecord rec;
        rec.action = QStringLiteral("force-expire");
        rec.target = QStringLiteral("public.leases/job-a");
        rec.osUser = QStringLiteral("alice");
        rec.osHost = QStringLiteral("desk-7");
        rec.at = utcFromMSecs(1022500);
        rec.outcomeKey = QStringLiteral("pending");
        QVERIFY(audit.append(rec));
        QVERIFY(at(1023, {lease("job-a", h2, 1021, 1022.9), lease("job-b", h3, 1022, 1032)})); // forced
        QVERIFY(audit.complete(rec.id, QStringLiteral(R"({"holder":"app-2:22:bbbb","expires_at_epoch":1022.9})"),
                               QStringLiteral("expired"), QStringLiteral("expired"), QStringLiteral("ops")));
        QVERIFY(at(1024, {lease("job-b", h3, 1022, 1032)})); // job-a released
        QVERIFY(at(1025, {lease("job-b", h3, 1022, 1032)}));

        HistoryReader r(path);
        QVERIFY(r.isOpen());
        const auto a = r.leaseChanges(QStringLiteral("job-a"));
        // The first renewal, the next one (counted, written before the stale expiry), the
        // takeover, the forced expiry and the release; state rows only where the state the console
        // shows changed.
        std::vector<ChangeKind> want = {ChangeKind::Seen,  ChangeKind::Renew,    ChangeKind::Renew,
                                        ChangeKind::State, ChangeKind::TakeOver, ChangeKind::Modify,
                                        ChangeKind::Release};
        std::vector<ChangeKind> got = kindsOf(a);
        // The 1004 refresh may legitimately record "expiring soon" (less than a quarter of the TTL left).
        std::erase_if(got, [&, i = 0](ChangeKind k) mutable {
            const bool drop = k == ChangeKind::State && a[size_t(i)].state != LeaseState::Stale;
            ++i;
            return drop;
        });
        QVERIFY2(got == want, qPrintable(kindsText(kindsOf(a))));
        const auto stale = std::find_if(a.begin(), a.end(), [](const LeaseChangeRow& c) {
            return c.kind == ChangeKind::State && c.state == LeaseState::Stale;
        });
        QVERIFY(stale != a.end());
        QCOMPARE(stale->at, 1020.0);
        QCOMPARE(a.back().holder, std::optional<QString>(h2));
        const auto b = r.leaseChanges(QStringLiteral("job-b"));
        QCOMPARE(b.size(), size_t(1));
        QCOMPARE(b.front().kind, ChangeKind::Take);

        // The timeline: renewals collapsed, the takeover from h1, the forced expiry with its operator.
        const auto tl = r.timeline(QStringLiteral("job-a"));
        using K = LeaseTimelineEvent::Kind;
        QStringList kinds;
        for (const auto& e : tl)
            if (e.kind != K::Overdue)
                kinds << timelineKindText(e.kind);
        QCOMPARE(kinds, QStringList({"held (recording began)", "renewed", "expired (stale)", "taken over",
                                     "force-expired", "released"}));
        const auto renewals = std::find_if(tl.begin(), tl.end(), [](const auto& e) { return e.kind == K::Renewals; });
        QCOMPARE(renewals->renewals, 2);
        QCOMPARE(renewals->firstRenewal, 1002.0);
        QCOMPARE(renewals->lastRenewal, 1003.0);
        const auto takeover = std::find_if(tl.begin(), tl.end(), [](const auto& e) { return e.kind == K::TakeOver; });
        QCOMPARE(takeover->previousHolder, h1);
        const auto forced = std::find_if(tl.begin(), tl.end(), [](const auto& e) { return e.kind == K::ForcedExpiry; });
        QVERIFY2(forced->operatorName.startsWith(QStringLiteral("alice@desk-7")), qPrintable(forced->operatorName));
        QVERIFY(forced->operatorName.contains(QStringLiteral("ops")));
        QCOMPARE(forced->at, 1023.0);

        // The timeline model under the model tester, and what it shows.
        LeaseTimelineModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.load(r, QStringLiteral("job-a"));
        QCOMPARE(m.rowCount(), int(tl.size()));
        const int fr = int(forced - tl.begin());
        QCOMPARE(m.index(fr, LeaseTimelineModel::Operator).data().toString(), forced->operatorName);
        QVERIFY(m.index(int(renewals - tl.begin()), LeaseTimelineModel::Details)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("2 renewals")));
        QCOMPARE(m.rowAt(1021.5), int(takeover - tl.begin()));
        QCOMPARE(m.rowAt(10), -1);
        m.load(r, QStringLiteral("job-b"));
        QCOMPARE(m.rowCount(), 1);
    }

    // A take after a release replaced nobody: the lease was gone. A holder change while the lease
    // was still valid (no release seen) is told as a replacement.
    void takeAfterReleaseReplacesNobody()
    {
        const QString path = file(QStringLiteral("retake.sqlite"));
        FedWriter w(options(path));
        QVERIFY(w.isOpen());
        const QString h1 = QStringLiteral("app-1:11:aaaa"), h2 = QStringLiteral("app-2:22:bbbb");
        auto at = [&](double now, std::vector<LeaseRow> leases) {
            SnapshotSpec sp;
            sp.now = now;
            sp.leases = std::move(leases);
            return w.write(makeSnapshot(sp));
        };
        QVERIFY(at(1000, {lease("job", h1, 995, 1010)}));
        QVERIFY(at(1001, {}));                           // released by h1
        QVERIFY(at(1002, {lease("job", h2, 1002, 1012)})); // taken afresh by h2
        QVERIFY(at(1003, {lease("job", h1, 1003, 1013)})); // h1 in place of h2, which had not expired

        using K = LeaseTimelineEvent::Kind;
        const auto tl = HistoryReader(path).timeline(QStringLiteral("job"));
        QStringList shown;
        for (const auto& e : tl)
            shown << timelineKindText(e.kind) + QStringLiteral(" | ") + e.detail;
        QCOMPARE(int(tl.size()), 4);
        QCOMPARE(tl[1].kind, K::Released);
        QCOMPARE(tl[2].kind, K::Take);
        QVERIFY2(tl[2].detail.isEmpty() && tl[2].previousHolder.isEmpty(), qPrintable(shown.join("; ")));
        QCOMPARE(tl[3].kind, K::Take);
        QCOMPARE(tl[3].previousHolder, h2);
        QCOMPARE(tl[3].detail, QStringLiteral("replaced app-2:22:bbbb before its lease expired"));
    }

    void reconstructsFullSnapshots_data()
    {
        QTest::addColumn<int>("index");
        for (int i : {0, 1, 5, 9, 14, 19})
            QTest::newRow(qPrintable(QString::number(i))) << i;
    }
    void reconstructsFullSnapshots()
    {
        QFETCH(int, index);
        const QString path = file(QStringLiteral("reconstruct-%1.sqlite").arg(index));
        auto w = std::make_unique<FedWriter>(options(path));
        std::vector<Snapshot> written;
        auto names = std::make_shared<const KeyNames>(KeyNames{{42, {QStringLiteral("sweep")}}});
        for (int i = 0; i < 20; ++i) {
            SnapshotSpec sp;
            sp.now = 5000 + i * 0.5;
            sp.sessions = someSessions();
            if (i % 4 == 0) // sessions change every other second
                sp.sessions.push_back(session(200 + i, QStringLiteral("batch"), QStringLiteral("active")));
            sp.locks = {advisoryLock(101, 42), advisoryLock(102, 42, false)};
            if (i >= 10) {
                names = std::make_shared<const KeyNames>(
                    KeyNames{{42, {QStringLiteral("sweep")}}, {7, {QStringLiteral("other")}}});
                sp.locks.push_back(advisoryLock(103, 7));
            }
            sp.keyNames = names;
            sp.deadlocks = i / 5;
            for (int k = 0; k < 5; ++k)
                if ((k + i) % 7 != 0) // leases come and go
                    sp.leases.push_back(lease(QStringLiteral("job-%1").arg(k), QStringLiteral("h:%1:x").arg(k),
                                              4990, 5010 + (i / 3) * (k + 1)));
            written.push_back(makeSnapshot(sp));
            QVERIFY(w->write(written.back()));
        }
        // Closed: the renewals counted since each lease's last row are written (while it records,
        // the last ones are extrapolated; see renewalsOnScheduleAreCountedNotWritten).
        w.reset();
        HistoryReader r(path);
        const auto got = r.snapshotAt(written[size_t(index)].serverNow + 0.1);
        QVERIFY(got);
        compareSnapshots(*got, written[size_t(index)]);
        // The same through a replay of the whole range.
        int n = 0;
        r.forEachSnapshot(5000, 6000, [&](const Snapshot& s) {
            if (n == index)
                compareSnapshots(s, written[size_t(index)]);
            ++n;
            return true;
        });
        QCOMPARE(n, 20);
        QCOMPARE(r.range().refreshes, 20);
        QCOMPARE(r.refreshTimes().size(), size_t(20));
    }

    // Several tables recorded together: a replay gives each row back its table, so a ShedLock row
    // past its lock_until replays as free and the mission's lease of the same name as stale.
    void severalTablesReplayByTheirOwnRules()
    {
        const QString path = file(QStringLiteral("schemes.sqlite"));
        auto tables = std::make_shared<const std::vector<LeaseTableConfig>>(
            std::vector<LeaseTableConfig>{LeaseTableConfig{}, *LeaseTableConfig::preset("shedlock")});
        std::vector<Snapshot> written;
        {
            FedWriter w(options(path));
            for (int i = 0; i < 3; ++i) {
                SnapshotSpec sp;
                sp.now = 7000 + i;
                sp.leases = {lease(QStringLiteral("report"), QStringLiteral("app-1:10:aa"), 6900, 6990),
                             lease(QStringLiteral("report"), QStringLiteral("web-1"), 6900, 6990)};
                sp.leases[1].source = 1;
                Snapshot snap = makeSnapshot(sp);
                snap.leaseTables = tables;
                written.push_back(snap);
                QVERIFY(w.write(written.back()));
            }
        }
        HistoryReader r(path);
        const auto got = r.snapshotAt(7002.1);
        QVERIFY(got);
        QVERIFY(got->leaseTables);
        QCOMPARE(got->leaseTables->size(), size_t(2));
        QCOMPARE(got->leaseTables->at(1).scheme, QStringLiteral("shedlock"));
        RefreshJudge judge;
        LeaseModel m(judge);
        QAbstractItemModelTester mTester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        judge.apply(*got);
        QCOMPARE(m.rowCount(), 2);
        QMap<QString, LeaseState> states;
        for (int i = 0; i < m.rowCount(); ++i)
            states.insert(m.tableAt(i)->label(), m.stateAt(i, got->serverNow));
        QCOMPARE(states.value(QStringLiteral("ShedLock")), LeaseState::Free);
        QCOMPARE(states.value(QStringLiteral("leases")), LeaseState::Stale);
    }

    // A damaged store (garbage, or a real store cut short) is kept aside, byte for byte, and
    // recording goes on in a new one; a damaged bundle says what it is and is left alone.
    void damagedStoreIsKeptAsideAndReplaced()
    {
        // A real store, then cut to its first page: the schema points at pages that are gone.
        const QString real = file(QStringLiteral("real.sqlite"));
        {
            FedWriter w(options(real));
            SnapshotSpec sp;
            for (int i = 0; i < 200; ++i)
                sp.leases.push_back(lease(QStringLiteral("job-%1").arg(i), "h:1:a", 990, 4000));
            QVERIFY(w.write(makeSnapshot(sp)));
        }
        QFile cut(real);
        QVERIFY(cut.open(QIODevice::ReadOnly));
        const QByteArray firstPage = cut.read(4096);
        cut.close();
        QFile::remove(real + "-wal");
        QFile::remove(real + "-shm");

        for (const QByteArray& bytes : {QByteArray("this is not a database, just text\n").repeated(300), firstPage}) {
            const QString path = file(QStringLiteral("damaged.sqlite"));
            QFile::remove(path);
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
            f.close();
            HistoryReader bundle(path); // opened as a bundle: says so, touches nothing
            QVERIFY(!bundle.isOpen());
            QVERIFY(!bundle.errorString().isEmpty());
            QVERIFY(QFile::exists(path));

            FedWriter w(options(path));
            QVERIFY2(w.isOpen(), qPrintable(w.errorString()));
            QVERIFY(w.keptAside().startsWith(path + ".damaged-"));
            QFile kept(w.keptAside());
            QVERIFY(kept.open(QIODevice::ReadOnly));
            QCOMPARE(kept.readAll(), bytes);
            SnapshotSpec sp;
            sp.leases = {lease("job", "h:1:a", 990, 4000)};
            QVERIFY(w.write(makeSnapshot(sp)));
            QFile::remove(w.keptAside());
        }
    }

    void failedRefreshIsAGap()
    {
        const QString path = file(QStringLiteral("failed.sqlite"));
        FedWriter w(options(path));
        SnapshotSpec sp;
        sp.leases = {lease("job", "h:1:a", 990, 4000)};
        QVERIFY(w.write(makeSnapshot(sp)));
        sp.now = 1001;
        sp.ok = false;
        QVERIFY(w.write(makeSnapshot(sp)));
        sp.now = 1002;
        sp.ok = true;
        QVERIFY(w.write(makeSnapshot(sp)));
        HistoryReader r(path);
        const auto failed = r.snapshotAt(1001.5);
        QVERIFY(failed && !failed->ok);
        QVERIFY(failed->error.message.contains(QStringLiteral("closed")));
        QCOMPARE(r.snapshotAt(1002)->leases.size(), size_t(1));
        QCOMPARE(r.leaseChanges().size(), size_t(1)); // the failure released nothing
    }

    void retentionByAge()
    {
        const QString path = file(QStringLiteral("age.sqlite"));
        const qint64 day = 24 * 3600 * 1000LL, base = 1'700'000'000'000LL;
        HistoryOptions o = options(path);
        o.retentionBatchRows = 7; // many small batches
        qint64 now = base;
        o.wallClockMs = [&now] { return now; };
        FedWriter w(o);
        // Ten days, one refresh every 2.4 hours: "old-job" lives through all of it unchanged,
        // "early-job" is released on day 1.
        for (int i = 0; i < 100; ++i) {
            now = base + i * day / 10;
            SnapshotSpec sp;
            sp.now = double(now) / 1000.0;
            sp.wallMs = now;
            sp.leases = {lease("old-job", "h:1:a", 1.0, 4e9)};
            if (i < 10)
                sp.leases.push_back(lease("early-job", "h:2:b", 1.0, 4e9));
            sp.sessions = {session(100 + i, QStringLiteral("app-%1").arg(i % 3), QStringLiteral("idle"))};
            QVERIFY(w.write(makeSnapshot(sp)));
        }
        while (w.retentionStep()) {
        }
        HistoryReader r(path);
        const auto range = r.range();
        // Refreshes not older than 7 days at "now" (day 9.9): i >= 29.
        QCOMPARE(range.refreshes, 71);
        QCOMPARE(range.from, double(base + 29 * day / 10) / 1000.0);
        // The unchanged lease is still there at the oldest kept refresh; the early one left no rows.
        const auto first = r.snapshotAt(range.from);
        QVERIFY(first);
        QCOMPARE(first->leases.size(), size_t(1));
        QCOMPARE(first->leases.front().name, QStringLiteral("old-job"));
        QCOMPARE(r.leaseChanges(QStringLiteral("early-job")).size(), size_t(0));
        QCOMPARE(r.leaseChanges(QStringLiteral("old-job")).size(), size_t(1));
        StorePeek p(path);
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM cluster_sample")), 71);
        // Blobs older than the oldest kept refresh's are gone.
        QCOMPARE(p.value(QStringLiteral("SELECT count(*) FROM blob WHERE kind = 1")), 71);
        QVERIFY(w.stats().deletedRows > 0);
    }

    void retentionBySize()
    {
        const QString path = file(QStringLiteral("size.sqlite"));
        HistoryOptions o = options(path);
        o.maxBytes = 400 * 1024;
        auto w = std::make_unique<FedWriter>(o);
        qint64 maxUsed = 0;
        // Sessions that change every refresh (a new blob each time) and 50 renewing leases.
        for (int i = 0; i < 2500; ++i) {
            SnapshotSpec sp;
            sp.now = 10000 + i;
            for (int s = 0; s < 8; ++s)
                sp.sessions.push_back(session(100 + s, QStringLiteral("app"), QStringLiteral("active"),
                                              QStringLiteral("SELECT %1 /* %2 */").arg(i * 31 + s).arg(s)));
            for (int k = 0; k < 50; ++k)
                sp.leases.push_back(lease(QStringLiteral("job-%1").arg(k), QStringLiteral("h:%1:x").arg(k),
                                          10000, 10010 + i));
            QVERIFY(w->write(makeSnapshot(sp)));
            if (i > 1500)
                maxUsed = std::max(maxUsed, w->usedBytes());
        }
        // Retention keeps up in small batches: the store stays near the bound while it is written.
        QVERIFY2(maxUsed < o.maxBytes * 12 / 10, qPrintable(QString::number(maxUsed)));
        w.reset(); // closed: the last renewals counted are written, the last refresh is exact
        HistoryReader r(path);
        const auto range = r.range();
        QVERIFY2(range.refreshes < 2500 && range.refreshes > 50, qPrintable(QString::number(range.refreshes)));
        QCOMPARE(range.to, 12499.0);
        // Both ends still reconstruct in full.
        QCOMPARE(r.snapshotAt(range.from)->leases.size(), size_t(50));
        QCOMPARE(r.snapshotAt(range.to)->leases.front().expiresAt, std::optional<double>(10010 + 2499));
        // The file itself shrinks back (incremental vacuum), not just its used pages.
        QVERIFY2(QFileInfo(path).size() < o.maxBytes * 2, qPrintable(QString::number(QFileInfo(path).size())));
    }

    void bundleHoldsTheRangeAndReopensLikeAStore()
    {
        const QString path = file(QStringLiteral("src.sqlite"));
        FedWriter w(options(path));
        std::vector<Snapshot> written;
        for (int i = 0; i < 40; ++i) {
            SnapshotSpec sp;
            sp.now = 7000 + i;
            sp.sessions = someSessions();
            sp.locks = {advisoryLock(101, 9)};
            sp.leases = {lease("steady", "h:1:a", 6000, 90000)};
            if (i >= 5 && i < 30)
                sp.leases.push_back(lease("short", QStringLiteral("h:2:%1").arg(i / 10), 7000 + (i / 10) * 10,
                                          7000 + i + 5));
            written.push_back(makeSnapshot(sp));
            QVERIFY(w.write(written.back()));
        }
        HistoryReader store(path);
        const QString bundle = file(QStringLiteral("incident.lwbundle"));
        QString err;
        QVERIFY2(store.exportBundle(bundle, 7010, 7020, {}, &err), qPrintable(err));
        QVERIFY(QFile::exists(bundle));
        QVERIFY(!QFile::exists(bundle + QStringLiteral("-wal")));
        QVERIFY(!QFile::exists(bundle + QStringLiteral(".part")));
        HistoryReader b(bundle);
        QVERIFY2(b.isOpen(), qPrintable(b.errorString()));
        QVERIFY(b.isBundle());
        QCOMPARE(b.integrityCheck(), QStringLiteral("ok"));
        const auto meta = b.metadata();
        QCOMPARE(meta.value(QStringLiteral("profile")), QStringLiteral("test/profile"));
        QCOMPARE(meta.value(QStringLiteral("range_from")).toDouble(), 7010.0);
        QCOMPARE(meta.value(QStringLiteral("range_to")).toDouble(), 7020.0);
        QCOMPARE(meta.value(QStringLiteral("leasewatch_version")), QStringLiteral(LEASEWATCH_VERSION));
        QVERIFY(!meta.value(QStringLiteral("source_dsn")).contains(QStringLiteral("s3cret")));
        QVERIFY(QDateTime::fromString(meta.value(QStringLiteral("exported_at")), Qt::ISODateWithMs).isValid());
        QCOMPARE(b.range().refreshes, 11);
        // Every refresh of the range is the same snapshot as in the store (the first one included,
        // whose leases were last changed before the range).
        for (double t = 7010; t <= 7020; t += 1) {
            const auto fromBundle = b.snapshotAt(t);
            QVERIFY(fromBundle);
            compareSnapshots(*fromBundle, written[size_t(t - 7000)]);
        }
        QVERIFY(!b.snapshotAt(7009.5));
        QCOMPARE(b.poolSamples(0, 1e12).cluster.size(), size_t(11));
        QString again;
        QVERIFY(!store.exportBundle(file(QStringLiteral("empty.lwbundle")), 1, 2, {}, &again));
        QVERIFY(!again.isEmpty());
    }

    void recordedMonitorAppliesLikeLive()
    {
        const QString path = file(QStringLiteral("recorded.sqlite"));
        FedWriter w(options(path));
        PollerConfig cfg;
        RefreshJudge referenceJudge([] { return qint64(1); });
        LeaseModel reference(referenceJudge);
        QAbstractItemModelTester referenceTester(&reference, QAbstractItemModelTester::FailureReportingMode::QtTest);
        referenceJudge.setPolicy(leasePolicyFor(cfg));
        const QString h1 = QStringLiteral("a:1:x"), h2 = QStringLiteral("b:2:y");
        for (int i = 0; i < 30; ++i) {
            SnapshotSpec sp;
            sp.now = 3000 + i;
            sp.sessions = someSessions();
            sp.locks = {advisoryLock(101, 5)};
            // Renewed every 2 s until 3010, then stale, then taken over at 3020.
            const double exp = i <= 10 ? 3000 + (i / 2) * 2 + 4 : 3014;
            sp.leases = {lease("job", i < 20 ? h1 : h2, i < 20 ? 2999 : 3020, i < 20 ? exp : 3030)};
            Snapshot s = makeSnapshot(sp);
            QVERIFY(w.write(s));
            s.receivedMonotonicMs = 1;
            referenceJudge.apply(s);
        }
        HistoryReader r(path);
        auto m = Monitor::recorded(r.recordedConfig(), path);
        QVERIFY(m->isRecorded());
        QCOMPARE(m->recordedSource(), path);
        QAbstractItemModelTester t1(m->leases(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(m->locks(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(m->findings(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy refreshed(m.get(), &Monitor::refreshed);
        m->start(); // no poller: nothing happens
        r.forEachSnapshot(0, 1e12, [&](const Snapshot& s) {
            m->showRecorded(s);
            return true;
        });
        QCOMPARE(refreshed.count(), 30);
        QCOMPARE(m->recordedTime(), 3029.0);
        QCOMPARE(m->leases()->rowCount(), 1);
        QCOMPARE(m->leases()->stateAt(0), reference.stateAt(0));
        QCOMPARE(m->leases()->entry(0).track.previousHolder, h1);
        QCOMPARE(m->leases()->serverNowEstimate(), 3029.0); // frozen at the recorded instant
        QCOMPARE(m->locks()->rowCount(), 1);

        // Jumping back: reset, then a warm-up stretch up to the target.
        m->resetRecorded();
        QCOMPARE(m->leases()->rowCount(), 0);
        QCOMPARE(m->locks()->rowCount(), 0);
        r.forEachSnapshot(3010, 3016, [&](const Snapshot& s) {
            m->showRecorded(s);
            return true;
        });
        QCOMPARE(m->leases()->rowCount(), 1);
        QCOMPARE(m->leases()->stateAt(0), LeaseState::Stale);
        QCOMPARE(m->leases()->entry(0).track.row.holder, std::optional<QString>(h1));
        QVERIFY(m->findings()->rowCount() >= 1); // the stale lease
    }

    void recorderWritesOffTheGuiThread()
    {
        const QString path = file(QStringLiteral("recorder.sqlite"));
        FedRecorder rec(options(path));
        QVERIFY2(rec.isOpen(), qPrintable(rec.errorString()));
        QCOMPARE(rec.path(), path);
        for (int i = 0; i < 50; ++i) {
            SnapshotSpec sp;
            sp.now = 100 + i;
            sp.leases = {lease("job", "h:1:a", 90, 110 + i)};
            rec.record(makeSnapshot(sp));
        }
        rec.flush();
        const auto st = rec.stats();
        QCOMPARE(st.refreshes + rec.skipped(), 50);
        QCOMPARE(st.writeErrors, 0);
        HistoryReader r(path);
        QCOMPARE(r.range().refreshes, st.refreshes);
    }

    void restartKeepsUnchangedLeasesFree()
    {
        const QString path = file(QStringLiteral("restart.sqlite"));
        SnapshotSpec sp;
        sp.leases = {lease("job", "h:1:a", 900, 9000)};
        for (int run = 0; run < 3; ++run) {
            FedWriter w(options(path));
            for (int i = 0; i < 5; ++i) {
                sp.now = 1000 + run * 10 + i;
                QVERIFY(w.write(makeSnapshot(sp)));
            }
        }
        HistoryReader r(path);
        QCOMPARE(r.range().refreshes, 15);
        QCOMPARE(r.leaseChanges().size(), size_t(1));
    }
    // What changed while nothing recorded (the console closed) was seen by no tracker: the store
    // says the lease was found so, not that it was taken over or renewed.
    void changesWhileNotRecordingAreFirstSightings()
    {
        const QString path = file(QStringLiteral("gap.sqlite"));
        const QString h1 = QStringLiteral("app-1:11:aaaa"), h2 = QStringLiteral("app-2:22:bbbb");
        auto run = [&](double from, std::vector<LeaseRow> leases) {
            FedWriter w(options(path));
            SnapshotSpec sp;
            sp.leases = std::move(leases);
            for (int i = 0; i < 3; ++i) {
                sp.now = from + i;
                if (!w.write(makeSnapshot(sp)))
                    return false;
            }
            return true;
        };
        QVERIFY(run(1000, {lease("job-a", h1, 990, 1010), lease("job-b", h1, 995, 1030)}));
        // An hour later: job-a taken over by h2 long ago, job-b renewed by h1 all along.
        QVERIFY(run(4600, {lease("job-a", h2, 1020, 4630), lease("job-b", h1, 995, 4620)}));
        HistoryReader r(path);
        QCOMPARE(kindsText(kindsOf(r.leaseChanges(QStringLiteral("job-a")))), QStringLiteral("seen seen"));
        QCOMPARE(kindsText(kindsOf(r.leaseChanges(QStringLiteral("job-b")))), QStringLiteral("seen seen"));
        QCOMPARE(r.leaseChanges(QStringLiteral("job-a")).back().holder, std::optional<QString>(h2));
    }

    // The writer looks only at the leases the tracker saw change (and those whose state moved on
    // with the clock). Over a long random workload — takes, renewals on and off schedule, takeovers
    // of expired leases, forced expiries, releases and re-takes, leases left to go stale, pauses
    // longer than a TTL — it records exactly what comparing every lease with its record at every
    // refresh records.
    void incrementalRecordMatchesComparingEveryLease()
    {
        const QString incPath = file(QStringLiteral("incremental.sqlite"));
        const QString fullPath = file(QStringLiteral("every-lease.sqlite"));
        HistoryOptions fullOpts = options(fullPath);
        fullOpts.renewalIntervalS = 40; // counted renewals are checkpointed within the run too
        HistoryOptions incOpts = options(incPath);
        incOpts.renewalIntervalS = 40;
        {
            FedWriter inc(incOpts);
            FedWriter full(fullOpts, true); // every lease handed at every refresh
            QVERIFY(inc.isOpen() && full.isOpen());
            const quint32 seed = QRandomGenerator::global()->generate();
            QRandomGenerator rng(seed);
            struct Held
            {
                QString holder;
                double taken = 0, ttl = 10, expires = 0;
                bool renewing = true;
            };
            std::map<QString, Held> table;
            double now = 1000;
            int holderN = 0;
            auto newHolder = [&] {
                const int n = holderN++;
                return QStringLiteral("app-%1:%2:%3").arg(n % 7).arg(100 + n).arg(n);
            };
            for (int refresh = 0; refresh < 400; ++refresh) {
                now += rng.bounded(10) == 0 ? 5 + rng.bounded(20) : 1; // now and then a long pause
                for (int k = 0; k < 4; ++k) {
                    const QString name = QStringLiteral("job-%1").arg(rng.bounded(40));
                    auto it = table.find(name);
                    const int what = int(rng.bounded(100));
                    if (it == table.end()) {
                        if (what < 30) {
                            const double ttl = 5 + rng.bounded(20);
                            table[name] = {newHolder(), now, ttl, now + ttl, rng.bounded(4) != 0};
                        }
                    } else if (it->second.expires < now && what < 40) { // taken over
                        const double ttl = 5 + rng.bounded(20);
                        it->second = {newHolder(), now, ttl, now + ttl, true};
                    } else if (what < 8) { // released
                        table.erase(it);
                    } else if (what < 12) { // forced expiry
                        it->second.expires = now - 0.5;
                        it->second.renewing = false;
                    } else if (what < 15) { // the holder stops renewing (crashed)
                        it->second.renewing = false;
                    }
                }
                SnapshotSpec sp;
                sp.now = now;
                for (auto& [name, h] : table) {
                    if (h.renewing && h.expires - now < h.ttl * 0.75)
                        h.expires = now + h.ttl;
                    sp.leases.push_back(lease(name, h.holder, h.taken, h.expires));
                }
                // Row order moves as a table's physical order does.
                std::shuffle(sp.leases.begin(), sp.leases.end(), rng);
                const Snapshot snap = makeSnapshot(sp);
                QVERIFY(inc.write(snap));
                QVERIFY(full.write(snap));
            }
            qInfo("seed %u: %lld change rows", seed, (long long)full.stats().leaseRows);
            QVERIFY(full.stats().leaseRows > 300);
        }
        const auto rows = [](const QString& path) {
            HistoryReader r(path);
            QStringList out;
            for (const LeaseChangeRow& c : r.leaseChanges())
                out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8")
                           .arg(c.at)
                           .arg(c.key, changeKindKey(c.kind), c.holder.value_or(QStringLiteral("-")))
                           .arg(c.takenAt.value_or(-1))
                           .arg(c.expiresAt.value_or(-1))
                           .arg(leaseStateKey(c.state))
                           .arg(c.renewals);
            std::sort(out.begin(), out.end()); // within one refresh, in row order: the table's
            return out;
        };
        const QStringList want = rows(fullPath);
        const QStringList got = rows(incPath);
        QCOMPARE(got.size(), want.size());
        for (qsizetype i = 0; i < want.size(); ++i)
            QCOMPARE(got[i], want[i]);
    }
};

QTEST_GUILESS_MAIN(TstHistoryStore)
#include "tst_history_store.moc"
