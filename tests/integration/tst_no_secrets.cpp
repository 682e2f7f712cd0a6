// Issue 23: a password given in a command-line DSN is written nowhere. It is planted in the DSN of a
// live window (history recording, an alert, a bundle export) and of `snapshot`, `watch` and
// `expire`; afterwards every file under the temporary HOME, every window title, every alert and
// everything printed is searched for it: zero hits. libpq's own messages quote the connection
// string (a malformed URI is echoed whole), so bad DSNs are tried too.
#include "Alerts.h"
#include "store/AuditLog.h"
#include "Consoles.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "Profile.h"
#include "TestCluster.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"

#include <QDirIterator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

using namespace lw;

class TstNoSecrets : public QObject
{
    Q_OBJECT
    QTemporaryDir home_;
    QString password_;

    // Files under HOME whose name or bytes contain the password.
    QStringList filesWithPassword() const
    {
        QStringList hits;
        const QByteArray pw = password_.toUtf8();
        QDirIterator it(home_.path(), QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString f = it.next();
            QFile file(f);
            if (f.contains(password_) || (file.open(QIODevice::ReadOnly) && file.readAll().contains(pw)))
                hits << f;
        }
        return hits;
    }
    static int filesUnder(const QString& dir)
    {
        int n = 0;
        QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext())
            it.next(), ++n;
        return n;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(home_.isValid());
        // Everything the console writes goes below HOME (config, data, cache, state), for this
        // process and the commands it runs.
        qputenv("HOME", home_.path().toUtf8());
        for (const char* v : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "PGPASSFILE"})
            qunsetenv(v);
        password_ = QStringLiteral("LwPw") + QUuid::createUuid().toString(QUuid::Id128).left(20);
    }

    void plantedPasswordIsWrittenNowhere()
    {
        test::TestDatabase db("nosecret");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        // A stale lease: a finding, an alert, and something for `expire` to do.
        db.exec("INSERT INTO leases VALUES ('stuck', 'app-1:1:aa', now() - interval '2 h', now() - interval '1 h')");
        // The suite's cluster trusts local connections: the password is carried, never checked.
        const QString dsn = db.dsn() + QStringLiteral(" password=") + password_;
        QStringList seen; // every title, alert and output line a user could read

        {
            AuditLog audit; // the default place, below HOME
            ProfileStore profiles;
            app::Consoles consoles(&profiles, &audit);
            PollerConfig cfg = test::pollerConfig(dsn, 200);
            cfg.operatorMode = true;
            ui::AlertConfig alerts;
            alerts.enabled = true;
            alerts.staleLeaseAfterS = 0;
            ui::MainWindow* w = consoles.open(cfg, dsn, alerts); // as main() does for a DSN argument
            QSignalSpy alerted(consoles.alerts(0), &ui::Alerts::alerted);
            QTRY_VERIFY_WITH_TIMEOUT(alerted.count() >= 1, 20000);
            for (const auto& args : alerted)
                seen << args.at(1).toString();
            QVERIFY(consoles.recorder(0) && consoles.recorder(0)->isOpen());
            QVERIFY2(consoles.recorder(0)->path().startsWith(home_.path()), qPrintable(consoles.recorder(0)->path()));
            QSignalSpy refreshed(consoles.monitor(0), &Monitor::refreshed);
            QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 3, 10000); // a few refreshes recorded
            consoles.recorder(0)->flush();
            seen << w->windowTitle() << w->connectionText() << w->refreshText() << w->noticeText();
            HistoryReader store(consoles.recorder(0)->path());
            QString err;
            QVERIFY2(consoles.exportBundle(0, home_.filePath("incident.lwbundle"), store.range().from, 1e12, &err),
                     qPrintable(err));
            QVERIFY(QFile::exists(home_.filePath("incident.lwbundle")));
        }

        const QString exe = qEnvironmentVariable("LW_BINARY_DIR") + QStringLiteral("/app/leasewatch");
        const QList<QStringList> runs = {
            {"snapshot", dsn},
            {"snapshot", dsn, "--json"},
            {"watch", dsn, "--count", "2", "--interval", "200"},
            {"watch", dsn, "--json", "--count", "2", "--interval", "200"},
            {"expire", dsn, "stuck", "--holder", "app-1:1:aa", "--operator"},
            // libpq echoes a malformed URI whole, password and all; and names a bad port's value.
            {"snapshot", QStringLiteral("postgresql://mon:%1@[::1/app").arg(password_)},
            {"snapshot", dsn + " port=notaport"},
            {"snapshot", QStringLiteral("host=/nonexistent password=%1 dbname").arg(password_)},
        };
        // With every diagnostic category on (connects, refreshes, force-expire): still nothing.
        qputenv("QT_LOGGING_RULES", "leasewatch.*.debug=true");
        for (const QStringList& args : runs) {
            const test::ProcessResult r = test::runProcess(exe, args);
            QVERIFY2(r.code >= 0, qPrintable(args.join(' ')));
            seen << r.out << r.err;
        }
        qunsetenv("QT_LOGGING_RULES");
        QCOMPARE(runs.size(), 8);
        const QString said = seen.join('\n');
        for (const char* category : {"leasewatch.connection: connected to", "leasewatch.connection: connect failed",
                                     "leasewatch.poller: refresh", "leasewatch.forceexpire:"})
            QVERIFY2(said.contains(QLatin1String(category)), category);

        QStringList leaks;
        for (const QString& s : seen)
            if (s.contains(password_))
                leaks << s.left(300);
        QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join("\n---\n")));
        QVERIFY2(filesUnder(home_.path()) >= 3, "the history store, the audit log and the bundle are expected");
        const QStringList files = filesWithPassword();
        QVERIFY2(files.isEmpty(), qPrintable(files.join('\n')));
        // What was recorded still tells which database it was.
        QVERIFY(!seen.filter(db.name()).isEmpty());
    }
};

QTEST_MAIN(TstNoSecrets)
#include "tst_no_secrets.moc"
