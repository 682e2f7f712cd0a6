#pragma once
// Work that must not hold the UI thread (a force-expire behind a row lock, a cancel/terminate, a
// profile test): it runs on its own thread and finishes on its own, whether or not the window that
// started it still exists. Closing a window never waits for it; only the process, at exit and
// with every window already hidden, waits a bounded time so that outcomes still reach the audit log.
#include <chrono>
#include <functional>

namespace lw {

// Runs `body` on a new detached thread, counted until it returns. `body` must not touch objects it
// does not own: results go back through a queued call guarded by a QPointer.
void runInBackground(std::function<void()> body);

// How many such threads are running now.
int backgroundWorkRunning();

// Waits until none runs or `timeout` passes; true when none runs.
bool waitForBackgroundWork(std::chrono::milliseconds timeout);

} // namespace lw
