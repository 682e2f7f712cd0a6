#pragma once
// SIGINT, SIGTERM and SIGHUP quit the event loop cleanly (the demo cluster is removed, the
// recorder finishes its writes): the handler only writes a byte to a socket pair
// (async-signal-safe); the event loop reads it, runs `beforeQuit` and quits.
#include <functional>

namespace lw::app {

void quitOnTerminationSignals(std::function<void()> beforeQuit = {});

} // namespace lw::app
