// Issue 51: the language a user reads. The German translation is complete and sound for every
// word marked translatable (lupdate over the sources finds nothing new or unfinished; numerus
// forms and placeholders match), the language is chosen by --lang, the window's setting and the
// locale in that order, and a window opened in German shows German menus and tabs.
#include "Language.h"
#include "ForceExpire.h"
#include "domain/Analysis.h"
#include "domain/DbError.h"
#include "domain/Holders.h"
#include "domain/LeaseTracker.h"
#include "domain/LeaseState.h"
#include "domain/LeaseTable.h"
#include "domain/SnapshotFormat.h"
#include "domain/Wording.h"
#include "domain/Words.h"
#include "ForceExpireDialog.h"
#include "FleetView.h"
#include "Fleet.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "Profile.h"
#include "Programs.h"
#include "TestCluster.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <clocale>

using namespace lw;

namespace {

struct Message
{
    QString context, source, comment;
    bool numerus = false, unfinished = false, vanished = false;
    QStringList translations; // one, or the numerus forms
};

std::vector<Message> readTs(const QString& path, QString* error)
{
    std::vector<Message> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.errorString();
        return out;
    }
    QXmlStreamReader x(&f);
    QString context;
    Message m;
    while (!x.atEnd()) {
        x.readNext();
        if (!x.isStartElement())
            continue;
        if (x.name() == QLatin1String("name")) {
            context = x.readElementText();
        } else if (x.name() == QLatin1String("message")) {
            m = Message{};
            m.context = context;
            m.numerus = x.attributes().value("numerus") == QLatin1String("yes");
        } else if (x.name() == QLatin1String("source")) {
            m.source = x.readElementText();
        } else if (x.name() == QLatin1String("translation")) {
            const QString type = x.attributes().value("type").toString();
            m.unfinished = type == QLatin1String("unfinished");
            m.vanished = type == QLatin1String("vanished") || type == QLatin1String("obsolete");
            if (!m.numerus) {
                m.translations << x.readElementText();
                out.push_back(m);
            } else {
                while (x.readNextStartElement())
                    m.translations << x.readElementText();
                out.push_back(m);
            }
        }
    }
    if (x.hasError())
        *error = x.errorString();
    return out;
}

// %1 … %9 and %n: a translation must use the same ones, or the words shown lose a value.
QSet<QString> placeholders(const QString& s)
{
    QSet<QString> out;
    static const QRegularExpression re(QStringLiteral("%(\\d|n)"));
    for (auto it = re.globalMatch(s); it.hasNext();)
        out.insert(it.next().captured(0));
    return out;
}

QString where(const Message& m)
{
    return m.context + QStringLiteral(": \"") + m.source.left(80) + QLatin1Char('"');
}

// A refresh of database billing whose 10 connections are all in use (9 sessions and the console's).
Snapshot connectionsAllUsed()
{
    Snapshot s;
    s.ok = true;
    s.server.database = QStringLiteral("billing");
    s.serverNow = 1000;
    s.cluster.maxConnections = 10;
    s.cluster.hasMonitorPrivilege = true;
    std::vector<SessionRow> sessions;
    for (int i = 0; i < 9; ++i) {
        SessionRow r;
        r.pid = 100 + i;
        r.state = QStringLiteral("active");
        sessions.push_back(r);
    }
    s.sessions = std::move(sessions);
    return s;
}

} // namespace

class TstLanguage : public QObject
{
    Q_OBJECT
    QTemporaryDir config_;

    // The real program's environment under a German locale (LANG only, as a German desktop sets
    // it), with this test's configuration and `dataDir` for its stores.
    QProcessEnvironment germanLocale(const QString& dataDir) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("LC_ALL"));
        env.remove(QStringLiteral("LC_MESSAGES"));
        env.remove(QStringLiteral("LANGUAGE"));
        env.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config_.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), dataDir);
        return env;
    }
private Q_SLOTS:
    void initTestCase()
    {
        // The window's setting lives in the user's configuration: a private one here.
        qputenv("XDG_CONFIG_HOME", config_.path().toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("Leasewatch"));
        QCoreApplication::setApplicationName(QStringLiteral("leasewatch"));
    }

    void theGermanTranslationIsCompleteAndSound()
    {
        const QString ts = qEnvironmentVariable("LW_SOURCE_DIR") + "/resources/translations/leasewatch_de.ts";
        QString error;
        const std::vector<Message> messages = readTs(ts, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(messages.size() > 400);
        QStringList bad;
        for (const Message& m : messages) {
            if (m.unfinished || m.vanished)
                bad << (m.vanished ? "vanished " : "unfinished ") + where(m);
            else if (m.numerus && m.translations.size() != 2)
                bad << QStringLiteral("%1 plural forms (German has 2) ").arg(m.translations.size()) + where(m);
            for (const QString& t : m.translations) {
                if (t.trimmed().isEmpty() && !m.source.trimmed().isEmpty())
                    bad << "empty " + where(m);
                else if (placeholders(t) != placeholders(m.source) &&
                         !(m.numerus && placeholders(t) + QSet<QString>{"%n"} == placeholders(m.source)))
                    bad << "placeholders differ in \"" + t.left(80) + "\" for " + where(m);
            }
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // lupdate over the same sources as the build's (models/, ui/, app/) finds no word that the
    // .ts does not have translated: a new tr() without its German fails here.
    void everyMarkedWordIsInTheTranslation()
    {
        const QString lupdate = QStringLiteral(LW_LUPDATE);
        QVERIFY2(QFile::exists(lupdate), "lupdate (qt6-l10n-tools) is not installed");
        QTemporaryDir tmp;
        const QString src = qEnvironmentVariable("LW_SOURCE_DIR");
        const QString copy = tmp.filePath(QStringLiteral("leasewatch_de.ts"));
        QVERIFY(QFile::copy(src + "/resources/translations/leasewatch_de.ts", copy));
        QProcess p;
        p.setWorkingDirectory(src);
        p.start(lupdate, {QStringLiteral("models"), QStringLiteral("ui"), QStringLiteral("app"),
                          QStringLiteral("-extensions"), QStringLiteral("cpp,h"), QStringLiteral("-no-obsolete"),
                          QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-ts"), copy});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QString error;
        QStringList missing;
        for (const Message& m : readTs(copy, &error))
            if (m.unfinished)
                missing << where(m);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(missing.isEmpty(),
                 qPrintable("not translated (cmake --build build --target update_translations, then translate):\n" +
                            missing.join(QLatin1Char('\n'))));
    }

    void theLanguageIsChosenByFlagThenSettingThenLocale()
    {
        QCOMPARE(languageCode(QStringLiteral("de_DE.UTF-8")), QStringLiteral("de"));
        QCOMPARE(languageCode(QStringLiteral("de-AT")), QStringLiteral("de"));
        QCOMPARE(languageCode(QStringLiteral("en_GB.UTF-8")), QStringLiteral("en"));
        QCOMPARE(languageCode(QStringLiteral("C.UTF-8")), QStringLiteral("en"));
        QCOMPARE(languageCode(QStringLiteral("fr_FR.UTF-8")), QString()); // none of ours: the next source decides
        saveLanguage(QStringLiteral("de"));
        QCOMPARE(chooseLanguage(QString()), QStringLiteral("de"));
        QCOMPARE(chooseLanguage(QStringLiteral("en")), QStringLiteral("en")); // --lang wins
        saveLanguage(QString());
        QCOMPARE(savedLanguage(), QString());
    }

    // The real program: LANG=de_DE.UTF-8 opens a German window; --lang en and the window's
    // setting outrank it. What the window showed, by its pages' titles (--screenshots names the
    // files by them).
    void theProgramFollowsTheLocaleUnlessTold_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("setting");
        QTest::addColumn<QString>("page");
        QTest::newRow("LANG=de_DE") << QStringList{} << QString() << QStringLiteral("window-lease-verlauf.png");
        QTest::newRow("--lang en") << QStringList{"--lang", "en"} << QString() << QStringLiteral("window-lease-history.png");
        QTest::newRow("setting en") << QStringList{} << QStringLiteral("en") << QStringLiteral("window-lease-history.png");
    }
    void theProgramFollowsTheLocaleUnlessTold()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, setting);
        QFETCH(QString, page);
        saveLanguage(setting);
        QTemporaryDir shots, data;
        QProcess p;
        QProcessEnvironment env = germanLocale(data.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(test::leasewatchBin(), QStringList{QStringLiteral("host=/nonexistent-lw dbname=x"),
                                                   QStringLiteral("--quit-after"), QStringLiteral("1"),
                                                   QStringLiteral("--screenshots"), shots.path()} +
                                           extra);
        QVERIFY(p.waitForFinished(60000));
        saveLanguage(QString());
        const QStringList files = QDir(shots.path()).entryList(QDir::Files);
        QVERIFY2(files.contains(page), qPrintable(files.join(", ") + " / " + p.readAllStandardError()));
    }

    void aGermanWindowShowsGermanMenusAndPages()
    {
        QVERIFY(installLanguage(QStringLiteral("de")));
        Monitor monitor(test::pollerConfig(QStringLiteral("host=/nonexistent-lw dbname=x"), 200));
        ui::MainWindow w(&monitor, QStringLiteral("test"));
        QStringList menus, pages;
        for (QAction* a : w.menuBar()->actions())
            menus << a->text();
        for (int i = 0; i < w.tabs()->count(); ++i)
            pages << w.tabs()->tabText(i);
        QCOMPARE(menus, (QStringList{"&Datei", "&Ansicht", "&Leases", "&Sitzungen", "&Hilfe"}));
        QVERIFY2(pages.contains(QStringLiteral("Pool-Belegung")) && pages.contains(QStringLiteral("Advisory-Sperren && Sitzungen")),
                 qPrintable(pages.join(", ")));
        QVERIFY2(pages.first().startsWith(QStringLiteral("Überblick")), qPrintable(pages.join(", ")));
        QCOMPARE(QLocale().language(), QLocale::German); // numbers and dates as a German reader writes them
        // The words built below the widgets (models/domain): states, kinds, durations, findings.
        QCOMPARE(leaseStateText(LeaseState::Stale), QStringLiteral("verwaist (abgelaufen, nicht übernommen)"));
        QCOMPARE(findingKindTitle(QStringLiteral("pool_pinned")), QStringLiteral("Pool blockiert"));
        QCOMPARE(formatCountdown(-75), QStringLiteral("abgelaufen vor 1 min 15 s"));
        QCOMPARE(severityWord(3), QStringLiteral("KRITISCH"));
        Snapshot s = connectionsAllUsed();
        const Analysis a = analyze(s, AnalysisConfig{});
        QStringList titles;
        for (const Finding& f : a.findings)
            titles << f.title;
        QVERIFY2(titles.contains(QStringLiteral("10 von 10 Verbindungen belegt (max_connections 10 − 0 reserviert)")),
                 qPrintable(titles.join(" | ")));
        // The tables' columns and the force-expire dialog's evidence.
        QCOMPARE(leaseColumnTitle(LeaseColumns::HeldFor), QStringLiteral("Gehalten seit"));
        HolderEvidence ev;
        ev.looksAlive = false;
        ev.forDead << QStringLiteral("x");
        QCOMPARE(ev.summary(), QStringLiteral("wirkt tot: x"));
    }

    // What a German reader gets below the window: an error's advice, a library's own rule, a
    // force-expire outcome and the terminal's snapshot; --json keeps its keys and kinds.
    void errorsLibrariesOutcomesAndTheTerminalAreGerman()
    {
        QVERIFY(installLanguage(QStringLiteral("de")));
        QCOMPARE(adviceFor(QStringLiteral("3D000"), QString()),
                 QStringLiteral("prüfen Sie den Datenbanknamen (dbname=…) in der Verbindungsangabe"));
        // libpq's own words stay English, so the advice chosen by them is found whatever the locale.
        QCOMPARE(QByteArray(std::setlocale(LC_MESSAGES, nullptr)), QByteArray("C"));
        const auto dbScheduler = LeaseTableConfig::preset(QStringLiteral("db-scheduler"));
        QVERIFY(dbScheduler);
        QCOMPARE(libraryWords(dbScheduler->staleMeaning), QStringLiteral("seit 30 min kein Heartbeat: eine tote Ausführung"));
        QVERIFY(dbScheduler->staleMeaning.startsWith(QLatin1String("no heartbeat"))); // kept English as data
        QCOMPARE(formatDecimal(1.5, 1), QStringLiteral("1,5")); // the status bar's seconds and kB, the pools' shares
        Profile unnamed;
        QCOMPARE(unnamed.validate().value_or(QString()), QStringLiteral("das Profil braucht einen Namen"));
        ForceExpireOutcome gone;
        gone.kind = ForceExpireOutcome::Kind::Gone;
        QCOMPARE(gone.text(), QStringLiteral("nicht geändert: Die Lease gibt es nicht mehr, oder sie wird nicht mehr gehalten"));
        QCOMPARE(gone.key(), QStringLiteral("gone"));

        Snapshot s = connectionsAllUsed();
        s.analysis = std::make_shared<Analysis>(analyze(s, AnalysisConfig{}));
        LeaseTracker leases;
        const QString text = snapshotToText(s, leases, s.analysis->findings);
        for (const char* german : {"Datenbank billing", "\n1 PROBLEM\n", "[KRIT] 10 von 10 Verbindungen belegt",
                                   "Abhilfe:", "CLUSTER Verbindungen 10/10", "ADVISORY-SPERREN (0)", "POOLS (aktiv/"})
            QVERIFY2(text.contains(QString::fromUtf8(german)), qPrintable(german + QStringLiteral(" in:\n") + text));
        const QJsonObject json = snapshotToJson(s, leases, s.analysis->findings);
        const QJsonObject finding = json[QStringLiteral("findings")].toArray().first().toObject();
        QCOMPARE(finding[QStringLiteral("kind")].toString(), QStringLiteral("connections_near_limit"));
        QVERIFY(finding[QStringLiteral("title")].toString().contains(QStringLiteral("Verbindungen belegt")));
    }

    // The force-expire dialog over a Liquibase lock and the fleet, in German: the library's own
    // release in its words, the outcome, the fleet's columns and states (screenshots for a look).
    void germanDialogAndFleet()
    {
        QVERIFY(installLanguage(QStringLiteral("de")));
        const auto liquibase = LeaseTableConfig::preset(QStringLiteral("liquibase"));
        QVERIFY(liquibase);
        ui::ForceExpireDialog::Item item;
        item.entry.key = QStringLiteral("changelog lock 1");
        item.entry.track.row.name = QStringLiteral("changelog lock 1");
        item.entry.track.row.holder = QStringLiteral("ci-runner (10.0.0.9)");
        item.entry.track.row.takenAt = 1000 - 1500;
        item.entry.track.row.expiresAt = 1000 - 900;
        item.evidence.state = LeaseState::Stale;
        item.evidence.looksAlive = false;
        item.evidence.sessionsKnown = true;
        item.evidence.forDead << QStringLiteral("keine Sitzung von Host 10.0.0.9 ist verbunden");
        item.target.name = item.entry.track.row.name;
        item.target.holder = item.entry.track.row.holder;
        ui::ForceExpireDialog dialog({item}, 1000, *liquibase);
        dialog.resize(760, 560);
        dialog.show();
        QString labels; // what will follow: the library's own release, in German
        for (const QLabel* l : dialog.findChildren<QLabel*>())
            labels += l->text() + QLatin1Char('\n');
        QVERIFY2(labels.contains(QStringLiteral("entsperrt, wie es Liquibases eigene Freigabe tut")), qPrintable(labels));
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        dialog.grab().save(shots + "/de-force-expire-liquibase.png");
        ForceExpireOutcome done;
        done.kind = ForceExpireOutcome::Kind::Expired;
        done.target = item.target;
        done.releasedAs = libraryWords(liquibase->release.words);
        dialog.showOutcomes({done});
        QVERIFY2(dialog.outcomeText().contains(QStringLiteral("freigegeben: entsperrt, wie es Liquibases")),
                 qPrintable(dialog.outcomeText()));
        dialog.grab().save(shots + "/de-force-expire-liquibase-done.png");

        FleetModel fleet;
        FleetEntry billing, reports;
        billing.profile = QStringLiteral("billing");
        billing.source = FleetEntry::Source::Window;
        billing.answering = true;
        billing.counts.critical = 1;
        billing.worst = QStringLiteral("billing-api (local): 4 von 4 Pool-Verbindungen …");
        reports.profile = QStringLiteral("reports");
        fleet.setEntries({billing, reports});
        QCOMPARE(fleet.headerData(FleetModel::Worst, Qt::Horizontal).toString(), QStringLiteral("Schlimmster Befund"));
        QCOMPARE(fleet.index(0, FleetModel::Watched).data().toString(), QStringLiteral("offenes Fenster"));
        QCOMPARE(fleet.index(1, FleetModel::State).data().toString(), QStringLiteral("nicht beobachtet"));
        ui::FleetView view;
        view.resize(900, 300);
        view.show();
        view.grab().save(shots + "/de-fleet.png");
    }

    // The real program in a terminal under a German locale: the error and what to do, the command
    // line's own errors and --help, in German unless --lang en says otherwise.
    void theTerminalFollowsTheLocale_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        const QString nowhere = QStringLiteral("host=/nonexistent-lw dbname=x");
        QTest::newRow("LANG=de_DE") << QStringList{"snapshot", nowhere} << QStringLiteral("an diesem Unix-Socket lauscht kein Server");
        QTest::newRow("--lang en") << QStringList{"snapshot", nowhere, "--lang", "en"}
                                   << QStringLiteral("no server listens on that Unix socket");
        QTest::newRow("bad option") << QStringList{"snapshot", nowhere, "--interval", "5"}
                                    << QStringLiteral("--interval muss eine Zahl von Millisekunden >= 100 sein");
        QTest::newRow("bad option, --lang en") << QStringList{"snapshot", nowhere, "--interval", "5", "--lang", "en"}
                                               << QStringLiteral("--interval must be a number of milliseconds >= 100");
        QTest::newRow("--help") << QStringList{"snapshot", "--help"}
                                << QStringLiteral("eine Aktualisierung jeder Datenbank ausgeben und enden");
        QTest::newRow("--help --lang en") << QStringList{"snapshot", "--help", "--lang", "en"}
                                          << QStringLiteral("print one refresh of each database and exit");
        QTest::newRow("unknown option") << QStringList{"snapshot", "--bogus"} << QStringLiteral("(siehe leasewatch --help)");
        QTest::newRow("the recorder's log") << QStringList{"record", nowhere}
                                            << QStringLiteral("] keine Verbindung: ");
    }
    void theTerminalFollowsTheLocale()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        QProcess p;
        QTemporaryDir data; // the recorder's store
        p.setProcessEnvironment(germanLocale(data.path()));
        p.start(test::leasewatchBin(), args);
        QString all; // until it has said it or ended (the recorder runs until stopped)
        QElapsedTimer t;
        t.start();
        while (!all.contains(said) && p.state() != QProcess::NotRunning && t.elapsed() < 60000) {
            p.waitForReadyRead(200);
            all += QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        }
        p.waitForFinished(p.state() == QProcess::NotRunning ? 0 : 100);
        if (p.state() != QProcess::NotRunning) {
            p.terminate();
            p.waitForFinished(10000);
        }
        all += QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        QVERIFY2(all.contains(said), qPrintable(all));
    }
};

QTEST_MAIN(TstLanguage)
#include "tst_language.moc"
