// The profiles dialog and several profiles open at once, offscreen against the test cluster: bad
// input is named and nothing typed is lost, "Test connection" answers without blocking the UI, each
// open profile has exactly one monitoring connection, and closing its window closes it.
#include "Consoles.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "ProfilesDialog.h"
#include "TestCluster.h"
#include "itemmodels/LeaseModel.h"

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QRegularExpression>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QScrollArea>
#include <QTest>

using namespace lw;

namespace {
constexpr char kLeases[] = "CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
                           "expires_at timestamptz)";

int consoleBackends(const test::TestDatabase& db)
{
    return db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'leasewatch' AND datname = "
                    "current_database() AND pid <> pg_backend_pid()")
        .toInt();
}

QString testAndWait(ui::ProfilesDialog& d)
{
    QSignalSpy done(&d, &ui::ProfilesDialog::testFinished);
    d.findChild<QPushButton*>("testConnection")->click();
    // The UI thread keeps running while the connection is tried.
    [&] { QVERIFY(done.wait(20000)); }();
    return d.messageText();
}
} // namespace

class TestProfilesGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void badInputIsNamedAndKept()
    {
        QTemporaryDir dir;
        ProfileStore store(dir.path() + "/profiles.json");
        ui::ProfilesDialog d(&store);
        d.show();
        auto* name = d.findChild<QLineEdit*>("profileName");
        auto* dsn = d.findChild<QLineEdit*>("profileDsn");
        name->setText("prod");
        dsn->setText("host=db1 dbname=app password=hunter2");
        d.findChild<QPushButton*>("saveProfile")->click();
        QVERIFY2(d.messageText().contains("~/.pgpass"), qPrintable(d.messageText()));
        QCOMPARE(dsn->text(), QStringLiteral("host=db1 dbname=app password=hunter2")); // nothing lost
        QVERIFY(!QFile::exists(store.path()));                                           // nothing written

        dsn->setText("host='unterminated");
        d.findChild<QPushButton*>("testConnection")->click();
        QVERIFY2(d.messageText().contains("invalid connection string"), qPrintable(d.messageText()));
        QCOMPARE(dsn->text(), QStringLiteral("host='unterminated"));
    }

    void testConnectionSaysWhatItFound()
    {
        test::TestDatabase db("prof_test");
        db.exec(kLeases);
        db.exec("INSERT INTO leases VALUES ('sweep', 'a:1:b', now(), now() + interval '1 min')");
        QTemporaryDir dir;
        ProfileStore store(dir.path() + "/profiles.json");
        ui::ProfilesDialog d(&store);
        d.show();
        d.findChild<QLineEdit*>("profileName")->setText("stage");
        d.findChild<QLineEdit*>("profileDsn")->setText(db.dsn());
        QString msg = testAndWait(d);
        // Whichever PostgreSQL the release has (15 on Debian 12, 17 on 13).
        QVERIFY2(QRegularExpression("^Connected: PostgreSQL \\d+").match(msg).hasMatch(), qPrintable(msg));
        QVERIFY2(msg.contains("public.leases: 1 lease"), qPrintable(msg));

        d.findChild<QLineEdit*>("profileTable")->setText("public.nope");
        msg = testAndWait(d);
        QVERIFY2(msg.contains("public.nope does not exist"), qPrintable(msg));

        d.findChild<QLineEdit*>("profileDsn")->setText(test::suiteDsn("no_such_db"));
        msg = testAndWait(d);
        QVERIFY2(msg.contains("no_such_db") && msg.contains("3D000"), qPrintable(msg));

        // Save, reopen: the profile is there as typed; Open hands it over.
        d.findChild<QLineEdit*>("profileDsn")->setText(db.dsn());
        d.findChild<QLineEdit*>("profileTable")->setText("public.leases");
        d.findChild<QLineEdit*>("profileLockNames")->setText("nightly, export-%Y");
        d.findChild<QPushButton*>("saveProfile")->click();
        QVERIFY2(d.messageText().startsWith("Saved"), qPrintable(d.messageText()));
        ProfileStore again(store.path());
        QCOMPARE(again.load(), std::nullopt);
        QVERIFY(again.find("stage"));
        QCOMPARE(again.find("stage")->lockNames, (QStringList{"nightly", "export-%Y"}));
        d.findChild<QPushButton*>("openProfile")->click();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.chosen().name, QStringLiteral("stage"));

        QDir().mkpath("/tmp/lw-shots");
        d.grab().save("/tmp/lw-shots/profiles-dialog.png");
        // The monitoring part, down to "Via recorder" (issue 49).
        auto* via = d.findChild<QLineEdit*>("profileViaRecorder");
        QVERIFY(via);
        if (auto* area = d.findChild<QScrollArea*>())
            area->ensureWidgetVisible(via);
        d.grab().save("/tmp/lw-shots/profiles-dialog-monitoring.png");
    }

    void severalProfilesOneConnectionEach()
    {
        test::TestDatabase a("prof_a"), b("prof_b");
        a.exec(kLeases);
        b.exec(kLeases);
        b.exec("INSERT INTO leases VALUES ('only-in-b', 'x:2:c', now(), now() + interval '1 min')");
        QTemporaryDir dir;
        ProfileStore store(dir.path() + "/profiles.json");
        app::Consoles consoles(&store, nullptr);
        QTemporaryDir historyDir;
        consoles.setHistoryDir(historyDir.path());
        auto open = [&](const test::TestDatabase& db) {
            Profile p;
            p.name = db.name();
            p.dsn = db.dsn();
            PollerConfig cfg = p.toPollerConfig();
            cfg.intervalMs = 200;
            return consoles.open(cfg, p.name);
        };
        ui::MainWindow* wa = open(a);
        open(b);
        QCOMPARE(consoles.count(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(consoles.monitor(1)->lastSnapshot().ok, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(consoles.monitor(0)->lastSnapshot().ok, 15000);
        QCOMPARE(consoles.monitor(1)->leases()->rowCount(), 1);
        QCOMPARE(consoles.monitor(0)->leases()->rowCount(), 0);
        QVERIFY(wa->windowTitle() != consoles.window(1)->windowTitle());
        QTRY_COMPARE_WITH_TIMEOUT(consoleBackends(a), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(consoleBackends(b), 1, 10000);

        // Closing a window ends its monitoring; the other goes on.
        wa->close();
        QTRY_COMPARE_WITH_TIMEOUT(consoles.count(), 1, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(consoleBackends(a), 0, 10000);
        QCOMPARE(consoleBackends(b), 1);
    }
};

QTEST_MAIN(TestProfilesGui)
#include "tst_profiles_gui.moc"
