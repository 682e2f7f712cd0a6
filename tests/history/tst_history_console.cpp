// The history as the window uses it: a live console records its refreshes; an incident bundle
// exported from it opens offline, read-only, with the "recorded, not live" banner, the same leases
// and a lease's timeline.
#include "Programs.h"
#include "Consoles.h"
#include "HistoryTestSupport.h"
#include "itemmodels/LeaseModel.h"
#include "LeasesView.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "Layouts.h"
#include "TestCluster.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"
#include "domain/PoolHistory.h"
#include "PoolView.h"
#include "charts/ChartPanel.h"
#include "itemmodels/LeaseTimelineModel.h"
#include "history/LeaseTimelineView.h"
#include "history/RecordedBar.h"

#include <QDir>
#include <QProcess>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace lw;

namespace {
QStringList leaseRows(Monitor* m)
{
    QStringList rows;
    for (int i = 0; i < m->leases()->rowCount(); ++i) {
        const auto& e = m->leases()->entry(i);
        rows << e.track.row.name + QLatin1Char('=') + e.track.row.holder.value_or(QStringLiteral("NULL"));
    }
    rows.sort();
    return rows;
}
} // namespace

class TestHistoryConsole : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Issue 27: `leasewatch record` already writes this profile's store (it holds the store's
    // lock). A window opened on the profile does not write a second history: it says who records
    // and shows what was recorded, from before it opened.
    void windowReadsTheRecordersStore()
    {
        test::TestDatabase db("hist_recorded");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        db.exec("INSERT INTO leases VALUES ('sweep', 'app-1:10:aa', now(), now() + interval '1 h')");
        QTemporaryDir dir;
        // The real recorder, with its data directory in the test's.
        QProcess rec;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath("data"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath("config"));
        rec.setProcessEnvironment(env);
        rec.start(lw::test::leasewatchBin(), {"record", db.dsn(), "--interval", "200"});
        QVERIFY(rec.waitForStarted(10000));
        const QString historyDir = dir.filePath("data/Leasewatch/leasewatch/history");
        // What the recorder has written of `holder`'s hold on the lease.
        const auto recordedHolder = [&](const char* holder) {
            const QStringList stores = QDir(historyDir).entryList({"*.sqlite"}, QDir::Files);
            if (stores.isEmpty())
                return false;
            const HistoryReader reader(QDir(historyDir).filePath(stores.front()));
            for (const LeaseTimelineEvent& e : reader.timeline(QStringLiteral("sweep")))
                if (e.holder == QLatin1String(holder))
                    return true;
            return false;
        };
        // The first holder recorded, so that the next one is a take the recorder saw.
        QTRY_VERIFY_WITH_TIMEOUT(recordedHolder("app-1:10:aa"), 15000);
        db.exec("UPDATE leases SET holder = 'app-2:20:bb', taken_at = now() WHERE name = 'sweep'");
        // The recorder has written the take before the window opens.
        const auto recordedTake = [&] { return recordedHolder("app-2:20:bb"); };
        // The window opens at once: the recorder's last refresh is then often the one that recorded
        // the take, which is before the window joined all the same.
        QTRY_VERIFY_WITH_TIMEOUT(recordedTake(), 15000);

        ProfileStore store(dir.filePath("profiles.json"));
        app::Consoles consoles(&store, nullptr);
        consoles.setHistoryDir(historyDir);
        PollerConfig cfg;
        cfg.connect.dsn = db.dsn();
        cfg.intervalMs = 200;
        ui::MainWindow* w = consoles.open(cfg, db.dsn());
        // The window is up before the recorded hour is replayed into its pool charts (in slices,
        // between events), and its own refreshes start after it.
        QVERIFY(w->isVisible());
        QVERIFY(!w->poolView()->history()->hasSamples());
        QVERIFY(!consoles.recorder(0)); // no second writer
        // (Said before any alert can take the notice's place: the cluster is shared by other tests.)
        QVERIFY2(w->noticeText().contains(QString::number(rec.processId())), qPrintable(w->noticeText()));
        QTRY_VERIFY_WITH_TIMEOUT(w->poolView()->history()->hasSamples(), 5000);
        QVERIFY(w->poolView()->history()->startedAt() < w->poolView()->chart(ui::PoolView::GroupTab)->markerTime().value_or(0));
        QTRY_VERIFY_WITH_TIMEOUT(consoles.monitor(0)->hasRefreshed(), 15000);
        auto* tl = w->findChild<ui::LeaseTimelineView*>("leaseTimeline");
        QVERIFY(tl); // the recorded past is there
        w->showLease(QStringLiteral("sweep"));
        w->tabs()->setCurrentWidget(tl);
        QTRY_VERIFY_WITH_TIMEOUT(tl->findChild<QTableView*>() && tl->findChild<QTableView*>()->model()->rowCount() >= 2,
                                 5000); // taken by app-1, then by app-2: both before the window opened
        // …and marked so: the events are shaded as recorded before the window, and every pool
        // chart marks the moment the window joined, after them.
        QAbstractItemModel* events = tl->findChild<QTableView*>()->model();
        const double lastEvent = events->index(events->rowCount() - 1, 0).data(LeaseTimelineModel::TimeRole).toDouble();
        for (int r = 0; r < events->rowCount(); ++r)
            QVERIFY(events->index(r, 0).data(LeaseTimelineModel::BeforeJoinRole).toBool());
        for (auto tab : {ui::PoolView::GroupTab, ui::PoolView::BudgetTab, ui::PoolView::LockTableTab,
                         ui::PoolView::TroubleTab}) {
            const std::optional<double> mark = w->poolView()->chart(tab)->markerTime();
            QVERIFY(mark && *mark >= lastEvent);
        }
        w->tabs()->setCurrentWidget(w->poolView());
        test::settleLayouts();
        const QString poolShots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(poolShots);
        w->grab().save(poolShots + "/window-joins-recorder-pool.png");
        w->tabs()->setCurrentWidget(tl);
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        w->grab().save(shots + "/window-reads-recorder.png");
        rec.terminate(); // SIGTERM
        QVERIFY(rec.waitForFinished(20000));
        QCOMPARE(rec.exitCode(), 0);
    }

    void recordExportAndReopen()
    {
        test::TestDatabase db("hist_console");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        db.exec("INSERT INTO leases VALUES ('sweep', 'app-1:10:aa', now(), now() + interval '1 h'), "
                "('alerts', 'app-2:20:bb', now(), now() + interval '1 h')");
        QTemporaryDir dir;
        ProfileStore store(dir.filePath("profiles.json"));
        app::Consoles consoles(&store, nullptr);
        consoles.setHistoryDir(dir.filePath("history"));
        PollerConfig cfg;
        cfg.connect.dsn = db.dsn();
        cfg.intervalMs = 200;
        ui::MainWindow* live = consoles.open(cfg, QStringLiteral("hist-console"));
        QVERIFY(consoles.recorder(0) && consoles.recorder(0)->isOpen());
        QVERIFY(QFile::exists(consoles.recorder(0)->path()));
        QTRY_COMPARE_WITH_TIMEOUT(consoles.monitor(0)->leases()->rowCount(), 2, 15000);
        // A takeover, then a release, recorded as they happen.
        db.exec("UPDATE leases SET holder = 'app-3:30:cc', taken_at = now() WHERE name = 'sweep'");
        QTRY_COMPARE_WITH_TIMEOUT(leaseRows(consoles.monitor(0)),
                                  (QStringList{"alerts=app-2:20:bb", "sweep=app-3:30:cc"}), 15000);
        consoles.recorder(0)->flush(); // what the window saw is in the store
        const QStringList liveRows = leaseRows(consoles.monitor(0));

        // The live window has a lease history page that follows the selected lease.
        auto* tl = live->findChild<ui::LeaseTimelineView*>("leaseTimeline");
        QVERIFY(tl);
        QVERIFY(!live->poolView()->chart(ui::PoolView::GroupTab)->markerTime()); // it saw everything itself
        consoles.recorder(0)->flush();
        // Opened with nothing selected: the store is read again and the first lease shown.
        live->tabs()->setCurrentWidget(tl);
        QVERIFY(tl->findChild<QTableView*>()->model()->rowCount() >= 1);
        live->showLease(QStringLiteral("sweep"));
        QTRY_VERIFY_WITH_TIMEOUT(tl->findChild<QTableView*>() &&
                                     tl->findChild<QTableView*>()->model()->rowCount() >= 2,
                                 5000); // taken by app-1, then by app-3

        const QString bundle = dir.filePath("incident.lwbundle");
        QString err;
        HistoryReader store0(consoles.recorder(0)->path());
        QVERIFY(consoles.exportBundle(0, bundle, store0.range().from, 1e12, &err));
        QVERIFY2(err.isEmpty(), qPrintable(err));

        ui::MainWindow* rec = consoles.openBundle(bundle, &err);
        QVERIFY2(rec, qPrintable(err));
        Monitor* m = consoles.monitor(1);
        QVERIFY(m->isRecorded());
        auto* bar = rec->findChild<ui::RecordedBar*>("recordedBar");
        QVERIFY(bar);
        QVERIFY2(bar->text()->text().contains("Recorded, not live"), qPrintable(bar->text()->text()));
        QCOMPARE(leaseRows(m), liveRows);
        auto* rtl = rec->findChild<ui::LeaseTimelineView*>("leaseTimeline");
        QVERIFY(rtl);
        QVERIFY(rtl->findChild<QTableView*>()->model()->rowCount() >= 1); // the first lease, shown at once
        QVERIFY2(rec->connectionText().contains("recorded"), qPrintable(rec->connectionText()));

        QDir().mkpath("/tmp/lw-shots");
        rec->resize(1200, 720);
        for (const QString& f : rec->saveScreenshots("/tmp/lw-shots/bundle"))
            QVERIFY(QFile::exists(f));

        // The live store itself opens the same way (any recorded time, offline).
        ui::MainWindow* browsed = consoles.browseHistory(0, &err);
        QVERIFY2(browsed, qPrintable(err));
        QVERIFY(consoles.monitor(2)->isRecorded());
        QCOMPARE(leaseRows(consoles.monitor(2)), liveRows);

        // Not a bundle: one clear message, no window.
        QFile junk(dir.filePath("junk.lwbundle"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("not sqlite at all");
        junk.close();
        QVERIFY(!consoles.openBundle(junk.fileName(), &err));
        QVERIFY2(!err.isEmpty(), "an error message is expected");
        QCOMPARE(consoles.count(), 3);
    }
};

QTEST_MAIN(TestHistoryConsole)
#include "tst_history_console.moc"
