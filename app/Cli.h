#pragma once
#include "Poller.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace lw::app {

// What the command line asked for, parsed before any QApplication exists (the headless commands
// must not need a display).
struct Invocation
{
    enum class Mode { Gui, GuiAsk /* no DSN: ask in the window */, Demo, Snapshot, Help, Version, Error };
    Mode mode = Mode::Gui;
    QString dsn;
    bool json = false;
    PollerConfig config;
    QString screenshotDir; // --screenshots DIR: save every page after --quit-after seconds
    double quitAfterS = 0; // --quit-after S: quit by itself (demo capture, smoke checks)
    QString error;         // Mode::Error: one line
    QString helpText;
};

Invocation parseCommandLine(const QStringList& args);

// `leasewatch snapshot`: one refresh through the same poller and models as the window.
int runSnapshot(const Invocation& inv);

} // namespace lw::app
