// A profile that names a PgBouncer admin console opens a window with a PgBouncer page fed by it,
// beside the database's own pages, and the slots' findings join the window's Overview; one without
// opens none.
#include "BouncerSupport.h"
#include "Consoles.h"
#include "MainWindow.h"
#include "OverviewView.h"
#include "Monitor.h"
#include "Layouts.h"
#include "TestCluster.h"
#include "pgbouncer/PgBouncerMonitor.h"
#include "pgbouncer/PgBouncerPoolModel.h"

#include <QDir>
#include <QListView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace lw;

class TestPgBouncerConsole : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void profileWithABouncerHasItsPage()
    {
        test::TestDatabase db("pgb_console");
        test::BouncerOptions o;
        o.databases = {QStringLiteral("txdb = dbname=%1 pool_mode=transaction").arg(db.name())};
        test::BouncerProcess bouncer(o);
        ProfileStore store(QDir::tempPath() + "/lw-unused-profiles.json");
        app::Consoles consoles(&store, nullptr);
        QTemporaryDir historyDir;
        consoles.setHistoryDir(historyDir.path());
        Profile with;
        with.name = "with";
        with.dsn = db.dsn();
        with.pgbouncerDsn = bouncer.adminDsn();
        Profile without = with;
        without.name = "without";
        without.pgbouncerDsn.clear();

        ui::MainWindow* w = consoles.open(with);
        ui::MainWindow* plain = consoles.open(without);
        auto tabTitles = [](ui::MainWindow* win) {
            QStringList t;
            for (int i = 0; i < win->tabs()->count(); ++i)
                t << win->tabs()->tabText(i);
            return t;
        };
        QVERIFY2(tabTitles(w).contains("PgBouncer"), qPrintable(tabTitles(w).join(", ")));
        QVERIFY(!tabTitles(plain).contains("PgBouncer"));

        // A client through PgBouncer makes a pool appear on that page.
        test::BouncerClient client(bouncer.dsn(db.name()));
        QCOMPARE(client.exec("SELECT 1"), QStringLiteral("1"));
        auto* bm = w->findChild<bouncer::PgBouncerMonitor*>();
        QVERIFY(bm);
        QTRY_VERIFY_WITH_TIMEOUT(bm->pools()->rowCount() >= 1, 15000);

        // A session-level advisory lock taken through a transaction-pooled database: the slot's
        // finding is on the Overview, among the database's own; not in the window without PgBouncer.
        test::BouncerClient tx(bouncer.dsn(QStringLiteral("txdb")));
        tx.exec(QStringLiteral("SELECT pg_advisory_lock(4242)"));
        const int holder = db.value(QStringLiteral("SELECT pid FROM pg_locks WHERE locktype = 'advisory' "
                                                   "AND objid = 4242 AND granted"))
                               .toInt();
        QVERIFY(holder > 0);
        auto slotCard = [](ui::MainWindow* win) -> QModelIndex {
            const QAbstractItemModel* cards = win->overviewView()->list()->model();
            for (int r = 0; r < cards->rowCount(); ++r) {
                const QModelIndex i = cards->index(r, 0);
                if (i.data(FindingsModel::KindRole).toString() == QLatin1String("bouncer_slot_holds_lock"))
                    return i;
            }
            return {};
        };
        QTRY_VERIFY_WITH_TIMEOUT(slotCard(w).isValid(), 15000);
        QCOMPARE(slotCard(w).data(FindingsModel::SubjectRole).toString(), QString::number(holder));
        QVERIFY2(slotCard(w).data().toString().contains(QLatin1String("txdb")),
                 qPrintable(slotCard(w).data().toString()));
        QCOMPARE(slotCard(w).data(FindingsModel::SeverityRole).toInt(), 3);
        QVERIFY(w->overviewView()->shortStatus().contains(QLatin1String("problem")));
        QVERIFY(!slotCard(plain).isValid());
        w->resize(1200, 720);
        w->tabs()->setCurrentWidget(w->overviewView());
        w->overviewView()->list()->setCurrentIndex(slotCard(w));
        test::settleLayouts(); // around the selected card's detail
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        QVERIFY(w->grab().save(shots + "/test-pgbouncer-overview.png"));
        // Unlocked: the card goes with the next join.
        tx.exec(QStringLiteral("SELECT pg_advisory_unlock_all()"));
        QTRY_VERIFY_WITH_TIMEOUT(!slotCard(w).isValid(), 15000);
    }
};

QTEST_MAIN(TestPgBouncerConsole)
#include "tst_pgbouncer_console.moc"
