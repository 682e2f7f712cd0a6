// Leasewatch entry point: parses the command line before creating any QApplication, so that the
// headless commands (snapshot, --help, --version) never need a display.
#include "store/AuditLog.h"
#include "Cli.h"
#include "Consoles.h"
#include "Demo.h"
#include "FleetView.h"
#include "Headless.h"
#include "Language.h"
#include "LeaseActions.h"
#include "MainWindow.h"
#include "QuitOnSignals.h"
#include "Recorder.h"
#include "Monitor.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QMessageBox>
#include <QTextStream>

#include <QTemporaryDir>
#include <QTimer>

namespace {

bool displayAvailable()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (!platform.isEmpty())
        return true; // e.g. offscreen, or an explicit choice the user made
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

void setIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Leasewatch"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("leasewatch.github.io"));
    QCoreApplication::setApplicationName(QStringLiteral("leasewatch"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LEASEWATCH_VERSION));
}

} // namespace

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    QTextStream out(stdout);
    QTextStream err(stderr);
    setIdentity(); // before the profile store is located (QStandardPaths uses the names)
    lw::ProfileStore profiles;
    const std::optional<QString> profilesError = profiles.load();
    const lw::app::Invocation inv = lw::app::parseCommandLine(args, &profiles);

    switch (inv.mode) {
    case lw::app::Invocation::Mode::Help:
    case lw::app::Invocation::Mode::Error: {
        // Parsed again in the chosen language: the translators need a QCoreApplication, which the
        // first parse (before any, so that the window can make its QApplication) had not.
        // argv[0] as the usage line says it ("Usage: leasewatch …", not the path it was started by).
        int n = 1;
        char name[] = "leasewatch";
        char* shown[] = {name, nullptr};
        QCoreApplication app(n, shown);
        setIdentity();
        lw::installLanguage(lw::chooseLanguage(inv.language));
        const lw::app::Invocation said = lw::app::parseCommandLine(args, &profiles);
        if (said.mode == lw::app::Invocation::Mode::Help) {
            out << said.helpText;
            return 0;
        }
        err << "leasewatch: " << said.error << "\n";
        return 2;
    }
    case lw::app::Invocation::Mode::Version:
        out << "leasewatch " << LEASEWATCH_VERSION << "\n";
        return 0;
    case lw::app::Invocation::Mode::Record:
    case lw::app::Invocation::Mode::CutBundle:
    case lw::app::Invocation::Mode::Snapshot:
    case lw::app::Invocation::Mode::Watch:
    case lw::app::Invocation::Mode::Expire: {
        QCoreApplication app(argc, argv);
        setIdentity();
        lw::installLanguage(lw::chooseLanguage(inv.language));
        if (profilesError)
            err << "leasewatch: " << *profilesError << "\n";
        err.flush();
        if (inv.mode == lw::app::Invocation::Mode::Record)
            return lw::app::runRecord(inv);
        if (inv.mode == lw::app::Invocation::Mode::CutBundle)
            return lw::app::runCutBundle(inv);
        if (inv.mode == lw::app::Invocation::Mode::Watch)
            return lw::app::runWatch(inv);
        if (inv.mode == lw::app::Invocation::Mode::Expire)
            return lw::app::runExpire(inv);
        return lw::app::runSnapshot(inv);
    }
    case lw::app::Invocation::Mode::Gui:
    case lw::app::Invocation::Mode::GuiAsk:
    case lw::app::Invocation::Mode::Fleet:
    case lw::app::Invocation::Mode::Demo:
    case lw::app::Invocation::Mode::Bundle:
        break;
    }

    if (!displayAvailable()) {
        err << "leasewatch: no display (DISPLAY and WAYLAND_DISPLAY are unset); for a terminal use "
               "`leasewatch snapshot DSN`\n";
        return 3;
    }
    QApplication app(argc, argv);
    setIdentity();
    lw::installLanguage(lw::chooseLanguage(inv.language));
    QApplication::setDesktopFileName(QStringLiteral("io.github.leasewatch.Leasewatch"));

    std::unique_ptr<lw::app::Demo> demo;
    lw::PollerConfig cfg = inv.config;
    QString title = inv.dsn;
    if (inv.profile)
        title = inv.profile->name;
    if (inv.mode == lw::app::Invocation::Mode::Demo) {
        demo = std::make_unique<lw::app::Demo>();
        if (auto e = demo->start()) {
            err << "leasewatch: " << *e << "\n";
            return 1;
        }
        cfg.connect.dsn = demo->dsn();
        demo->configure(cfg);
        title = QStringLiteral("demo (throwaway cluster)");
    }
    // Quit cleanly on SIGINT/SIGTERM so the demo cluster is removed.
    lw::app::quitOnTerminationSignals();

    int rc = 0;
    {
        // The demo's history is as throwaway as its cluster. Declared before the consoles so that
        // their stores (and the stores' lock files) close before the directory goes.
        QTemporaryDir demoHistory;
        lw::AuditLog audit; // AppDataLocation/audit.sqlite: every operator action, whatever its outcome
        lw::app::Consoles consoles(&profiles, &audit);
        if (profilesError)
            QMessageBox::warning(nullptr, QStringLiteral("Leasewatch"), *profilesError);
        // Started without a database (e.g. from the desktop menu): choose a profile first.
        if (demo)
            consoles.setHistoryDir(demoHistory.path());
        consoles.setDirect(inv.direct);
        lw::ui::FleetView* fleet = nullptr;
        if (inv.mode == lw::app::Invocation::Mode::GuiAsk) {
            if (!consoles.chooseAndOpen())
                return 0;
        } else if (inv.mode == lw::app::Invocation::Mode::Fleet) {
            fleet = consoles.showFleet();
        } else if (inv.mode == lw::app::Invocation::Mode::Bundle) {
            QString bundleError;
            if (!consoles.openBundle(inv.bundleFile, &bundleError)) {
                err << "leasewatch: " << bundleError << "\n";
                return 1;
            }
        } else {
            if (inv.feed)
                consoles.openNextViaFeed(*inv.feed);
            consoles.open(cfg, title,
                          inv.profile && inv.mode == lw::app::Invocation::Mode::Gui
                              ? lw::app::alertConfigFor(*inv.profile)
                              : lw::ui::AlertConfig{},
                          inv.pgbouncerDsn, inv.profile ? inv.profile->historyDays : 7,
                          inv.profile ? inv.profile->historyMb : 200);
        }
        if (inv.quitAfterS > 0)
            QTimer::singleShot(int(inv.quitAfterS * 1000), &app, [&] {
                if (!inv.screenshotDir.isEmpty() && consoles.count() > 0)
                    for (const QString& f : consoles.window(0)->saveScreenshots(inv.screenshotDir))
                        out << "saved " << f << "\n";
                if (!inv.screenshotDir.isEmpty() && fleet) {
                    QDir().mkpath(inv.screenshotDir);
                    const QString f = QDir(inv.screenshotDir).filePath(QStringLiteral("fleet.png"));
                    if (fleet->grab().save(f))
                        out << "saved " << f << "\n";
                }
                out.flush();
                QCoreApplication::quit();
            });
        rc = app.exec();
        // An operator action still running (a force-expire behind a row lock) finishes on its own
        // thread, bounded by its timeouts; the windows go at once.
        lw::ui::finishOperatorWorkAtExit(err, std::chrono::seconds(15));
    } // the monitors' connections close before the demo cluster stops
    demo.reset();
    return rc;
}
