// `leasewatch record DSN`, the real binary against a real database, as systemd would run it: it
// records the history store continuously, logs one line per state change (not per refresh), keeps
// a second writer off its store, goes on through a terminated session, and on SIGTERM finishes its
// writes and exits 0 with the refreshes in the store.
#include "Profile.h"
#include "Programs.h"
#include "TestCluster.h"
#include "store/HistoryReader.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace {
QProcessEnvironment envFor(const QTemporaryDir& home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("leasewatch.record.info=true"));
    return env;
}
// `leasewatch record DSN --interval 200` with `home` as its XDG home, until it says it connected.
bool startRecorder(QProcess& rec, const QTemporaryDir& home, const QString& dsn, QString& log,
                   const QStringList& more = {})
{
    rec.setProcessEnvironment(envFor(home));
    rec.start(lw::test::leasewatchBin(), QStringList{"record", dsn, "--interval", "200"} + more);
    return rec.waitForStarted(10000) && QTest::qWaitFor(
                                            [&] {
                                                log += QString::fromUtf8(rec.readAllStandardError());
                                                return log.contains("] connected: ");
                                            },
                                            15000);
}

// The mission's table with one lease held for an hour.
void oneLease(const lw::test::TestDatabase& db)
{
    db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at timestamptz)");
    db.exec("INSERT INTO leases VALUES ('sweep', 'app-1:10:aa', now(), now() + interval '1 h')");
}
} // namespace

class TestRecord : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void recordsThroughALossAndStopsCleanly()
    {
        lw::test::TestDatabase db("record_cli");
        oneLease(db);
        QTemporaryDir home;
        QProcess rec;
        QString log;
        const auto readLog = [&] { log += QString::fromUtf8(rec.readAllStandardError()); };
        QVERIFY2(startRecorder(rec, home, db.dsn(), log), qPrintable(log));

        // A second recorder (or window) on the same store is turned away, naming who writes it.
        QProcess second;
        second.setProcessEnvironment(envFor(home));
        second.start(lw::test::leasewatchBin(), {"record", db.dsn()});
        QVERIFY(second.waitForFinished(20000));
        QCOMPARE(second.exitCode(), 4);
        const QString secondLog = QString::fromUtf8(second.readAllStandardError());
        QVERIFY2(secondLog.contains(QString::number(rec.processId())), qPrintable(secondLog));

        // The recorder's session is terminated: it says so once, and once that it answers again.
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                           "AND application_name = 'leasewatch'"),
                                  QStringLiteral("1"), 10000);
        QCOMPARE(db.value("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = "
                          "current_database() AND application_name = 'leasewatch'"),
                 QStringLiteral("1"));
        QTRY_VERIFY2_WITH_TIMEOUT((readLog(), log.contains("] answering again")), qPrintable(log), 20000);
        // Three more refreshes (200 ms apart) go by: the recorder's session starts a statement
        // 0.6 s of the server's time after it answered again.
        const QString answered = db.value("SELECT now()::text");
        QTRY_COMPARE_WITH_TIMEOUT(db.value(QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND "
                                                          "application_name = 'leasewatch' AND query_start > "
                                                          "'%1'::timestamptz + interval '0.6 s'")
                                               .arg(answered)),
                                  QStringLiteral("1"), 60000); // a loaded machine stretches the interval (footprint budget)
        readLog();
        QCOMPARE(log.count("] not answering: "), 1);
        QCOMPARE(log.count("] connected: "), 1); // one line per change, not per refresh

        // An incident bundle cut from the store while the recorder writes it.
        const QString bundle = home.filePath("incident.lwbundle");
        QProcess cut;
        cut.setProcessEnvironment(envFor(home));
        cut.start(lw::test::leasewatchBin(), {"bundle", db.dsn(), bundle, "--minutes", "5"});
        QVERIFY(cut.waitForFinished(20000));
        QVERIFY2(cut.exitCode() == 0, cut.readAllStandardError().constData());
        {
            lw::HistoryReader b(bundle);
            QVERIFY2(b.isOpen(), qPrintable(b.errorString()));
            QVERIFY(!b.range().isEmpty());
            const auto s = b.snapshotAt(b.range().to);
            QVERIFY(s && s->ok);
            QCOMPARE(s->leases.size(), size_t(1));
        }
        // Nothing recorded for a database: said, naming the recorder, nothing written.
        cut.start(lw::test::leasewatchBin(), {"bundle", "host=/nonexistent dbname=none", home.filePath("none.lwbundle")});
        QVERIFY(cut.waitForFinished(20000));
        QCOMPARE(cut.exitCode(), 1);
        QVERIFY(QString::fromUtf8(cut.readAllStandardError()).contains("leasewatch record"));
        QVERIFY(!QFile::exists(home.filePath("none.lwbundle")));

        ::kill(pid_t(rec.processId()), SIGTERM);
        QVERIFY(rec.waitForFinished(20000));
        readLog();
        QCOMPARE(rec.exitStatus(), QProcess::NormalExit);
        QCOMPARE(rec.exitCode(), 0);
        QVERIFY2(log.contains("stopped"), qPrintable(log));

        // What it recorded: the store the window reads for this DSN, refreshes before and after.
        const QStringList stores =
            QDir(home.filePath("data/Leasewatch/leasewatch/history")).entryList({"*.sqlite"}, QDir::Files);
        QCOMPARE(stores.size(), 1);
        lw::HistoryReader r(home.filePath("data/Leasewatch/leasewatch/history/") + stores.front());
        QVERIFY2(r.isOpen(), qPrintable(r.errorString()));
        const auto range = r.range();
        QVERIFY(!range.isEmpty());
        QVERIFY(range.to - range.from >= 2);
        const auto last = r.snapshotAt(range.to);
        QVERIFY(last && last->ok);
        QCOMPARE(last->leases.size(), size_t(1));
        QVERIFY2(!log.contains("password", Qt::CaseInsensitive), qPrintable(log));
    }

    // One collector, many viewers (issue 49): a recorder, two `watch --json` and five windows on
    // the same database cost it one connection; the viewers say whose refreshes they show; the
    // recorder killed, they say the database is not answering at once (never all clear).
    void viewersOfARecorderCostTheDatabaseOneConnection()
    {
        lw::test::TestDatabase db("record_feed");
        oneLease(db);
        QTemporaryDir home;
        QProcess rec;
        QString log;
        QVERIFY2(startRecorder(rec, home, db.dsn(), log), qPrintable(log));
        QVERIFY2(log.contains("live feed"), qPrintable(log));
        const QString others = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                               "AND pid <> pg_backend_pid()";
        QCOMPARE(db.value(others), QStringLiteral("1"));

        std::vector<std::unique_ptr<QProcess>> watches;
        for (int i = 0; i < 2; ++i) {
            auto w = std::make_unique<QProcess>();
            w->setProcessEnvironment(envFor(home));
            w->start(lw::test::leasewatchBin(), {"watch", db.dsn(), "--json"});
            QVERIFY(w->waitForStarted(10000));
            watches.push_back(std::move(w));
        }
        // Five engineers open a window each.
        std::vector<std::unique_ptr<QProcess>> windows;
        QProcessEnvironment wenv = envFor(home);
        wenv.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        for (int i = 0; i < 5; ++i) {
            auto w = std::make_unique<QProcess>();
            w->setProcessEnvironment(wenv);
            w->start(lw::test::leasewatchBin(), {db.dsn(), "--quit-after", "120"});
            QVERIFY(w->waitForStarted(10000));
            windows.push_back(std::move(w));
        }

        std::vector<QString> outs(watches.size());
        const auto readWatches = [&] {
            for (size_t i = 0; i < watches.size(); ++i)
                outs[i] += QString::fromUtf8(watches[i]->readAllStandardOutput());
        };
        // Each watch prints refreshes that say they are the recorder's.
        const QString recPid = QStringLiteral("\"pid\":%1").arg(rec.processId());
        QTRY_VERIFY2_WITH_TIMEOUT((readWatches(), outs[0].count("via_recorder") >= 3 && outs[1].count("via_recorder") >= 3),
                                  qPrintable(outs[0].left(400)), 20000);
        QVERIFY2(outs[0].contains(recPid), qPrintable(outs[0].left(400)));
        QVERIFY(outs[0].contains("\"sweep\""));
        // The windows are up (each would have connected within its first second): still one connection.
        QTest::qWait(4000);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(db.value(others), QStringLiteral("1"));
            QTest::qWait(300);
        }
        for (auto& w : windows)
            QCOMPARE(w->state(), QProcess::Running);

        // --direct connects anyway.
        const auto direct = lw::test::runProcess(lw::test::leasewatchBin(), {"watch", db.dsn(), "--json", "--count", "1",
                                                                              "--direct"});
        QCOMPARE(direct.code, 0);
        QVERIFY(!direct.out.contains("via_recorder"));

        // The recorder killed: the watches say "not answering" at once, naming the feed.
        readWatches();
        const std::vector<qsizetype> before{outs[0].size(), outs[1].size()};
        ::kill(pid_t(rec.processId()), SIGKILL);
        QVERIFY(rec.waitForFinished(10000));
        QTRY_VERIFY2_WITH_TIMEOUT((readWatches(), outs[0].mid(before[0]).contains("\"live\":false") &&
                                                      outs[1].mid(before[1]).contains("\"live\":false")),
                                  qPrintable(outs[0].mid(before[0])), 3000);
        QVERIFY2(outs[0].mid(before[0]).contains("recorder"), qPrintable(outs[0].mid(before[0])));
        QVERIFY(!outs[0].mid(before[0]).contains("\"live\":true"));
        for (auto& w : watches) {
            ::kill(pid_t(w->processId()), SIGTERM);
            QVERIFY(w->waitForFinished(10000));
        }
        for (auto& w : windows) {
            w->kill();
            QVERIFY(w->waitForFinished(10000));
        }
    }

    // record --serve: viewers on other machines read the feed over TCP with the token it wrote
    // (owner-only); a wrong token gets no data, said; the database still sees one connection.
    void servesItsFeedOverTcpToTokenHolders()
    {
        lw::test::TestDatabase db("record_serve");
        oneLease(db);
        QTemporaryDir home;
        const QString token = home.filePath("feed.token");
        QProcess rec;
        QString log;
        QVERIFY2(startRecorder(rec, home, db.dsn(), log, {"--serve", "127.0.0.1:0", "--token", token}), qPrintable(log));
        const QRegularExpressionMatch m = QRegularExpression("live feed over TCP at 127\\.0\\.0\\.1:(\\d+)").match(log);
        QVERIFY2(m.hasMatch(), qPrintable(log));
        const QString url = "feed://127.0.0.1:" + m.captured(1);
        QCOMPARE(QFile(token).permissions() & ~(QFile::ReadUser | QFile::WriteUser), QFile::ReadOwner | QFile::WriteOwner);

        auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"watch", url, "--json", "--count", "2", "--token", token});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out.left(300)));
        QCOMPARE(r.out.count("via_recorder"), 2);
        QVERIFY(r.out.contains("\"sweep\""));
        QCOMPARE(db.value("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> "
                          "pg_backend_pid()"),
                 QStringLiteral("1"));

        QFile wrong(home.filePath("wrong.token"));
        QVERIFY(wrong.open(QIODevice::WriteOnly));
        wrong.write(QByteArray(32, 'x'));
        wrong.close();
        r = lw::test::runProcess(lw::test::leasewatchBin(),
                                 {"watch", url, "--json", "--count", "1", "--token", wrong.fileName()});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains("wrong token") && !r.out.contains("\"sweep\""), qPrintable(r.out));

        // A profile "via recorder" reads the feed, its DSN kept for operator actions.
        {
            lw::ProfileStore store(home.filePath("config/Leasewatch/leasewatch/profiles.json"));
            lw::Profile p;
            p.name = "remote";
            p.dsn = db.dsn();
            p.viaRecorder = url;
            store.upsert(p);
            QCOMPARE(store.save(), std::nullopt);
        }
        QProcess viaProfile;
        viaProfile.setProcessEnvironment(envFor(home));
        viaProfile.start(lw::test::leasewatchBin(), {"watch", "remote", "--json", "--count", "1", "--token", token});
        QVERIFY(viaProfile.waitForFinished(20000));
        const QString profileOut = QString::fromUtf8(viaProfile.readAllStandardOutput());
        QVERIFY2(viaProfile.exitCode() == 0 && profileOut.contains("via_recorder"),
                 qPrintable(profileOut.left(300) + viaProfile.readAllStandardError()));

        ::kill(pid_t(rec.processId()), SIGTERM);
        QVERIFY(rec.waitForFinished(20000));
        QCOMPARE(rec.exitCode(), 0);
    }

    // kill -9 mid-write (no signal handler runs, the lock file stays behind): the store passes
    // PRAGMA integrity_check, and a recorder started again takes the store over (its holder is
    // gone) and goes on recording into it.
    void killedRecorderRestartsOnItsStore()
    {
        lw::test::TestDatabase db("record_kill");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at "
                "timestamptz)");
        db.exec("INSERT INTO leases SELECT 'job-' || g, 'app-1:10:aa', now(), now() + interval '1 h' "
                "FROM generate_series(1, 500) g");
        QTemporaryDir home;
        const QString historyDir = home.filePath("data/Leasewatch/leasewatch/history");
        const auto storeRange = [&] {
            const QStringList stores = QDir(historyDir).entryList({"*.sqlite"}, QDir::Files);
            if (stores.size() != 1)
                return std::pair<double, double>{0, 0};
            lw::HistoryReader r(historyDir + QLatin1Char('/') + stores.front());
            const auto range = r.range();
            return std::pair<double, double>{range.from, range.to};
        };
        for (int round = 0; round < 2; ++round) {
            QProcess rec;
            rec.setProcessEnvironment(envFor(home));
            rec.start(lw::test::leasewatchBin(), {"record", db.dsn(), "--interval", "100"});
            QVERIFY(rec.waitForStarted(10000));
            const double before = storeRange().second;
            // Renewals keep the writer busy; killed while it writes them.
            QTRY_VERIFY_WITH_TIMEOUT((db.exec("UPDATE leases SET expires_at = now() + interval '1 h'"),
                                      storeRange().second > before + 1.0),
                                     20000);
            ::kill(pid_t(rec.processId()), SIGKILL);
            QVERIFY(rec.waitForFinished(10000));
            QCOMPARE(rec.exitStatus(), QProcess::CrashExit);
            const QString err = QString::fromUtf8(rec.readAllStandardError());
            QVERIFY2(round == 0 || !err.contains("taken", Qt::CaseInsensitive), qPrintable(err));
            const QStringList stores = QDir(historyDir).entryList({"*.sqlite"}, QDir::Files);
            QCOMPARE(stores.size(), 1); // the same store both times, never a second one
            lw::HistoryReader r(historyDir + QLatin1Char('/') + stores.front());
            QVERIFY2(r.isOpen(), qPrintable(r.errorString()));
            QCOMPARE(r.integrityCheck(), QStringLiteral("ok"));
        }
    }
};

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
