// A profile that names a PgBouncer admin console opens a window with a PgBouncer page fed by it,
// beside the database's own pages; one without opens none.
#include "BouncerSupport.h"
#include "Consoles.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "TestCluster.h"
#include "pgbouncer/PgBouncerMonitor.h"
#include "pgbouncer/PgBouncerPoolModel.h"

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
        test::BouncerProcess bouncer;
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
    }
};

QTEST_MAIN(TestPgBouncerConsole)
#include "tst_pgbouncer_console.moc"
