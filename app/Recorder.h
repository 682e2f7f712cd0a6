#pragma once
// `leasewatch record PROFILE|DSN…`: the headless recorder. Each database gets the window's own
// polling (one monitoring connection, the footprint budget, the same findings) and writes its
// history store continuously, so the hour before anyone opened a window is on record. One line per
// state change goes to the log (QLoggingCategory "leasewatch.record": stderr, journald under
// systemd): connected, not answering (the Overview's words), answering again, findings appearing
// and clearing, recording paused and resumed. SIGTERM/SIGINT finish the current write and exit 0.
#include "Cli.h"

namespace lw::app {

// Each database's refreshes also go live to windows and `watch`es on this machine (issue 49): a
// local socket beside its store ("<store>.feed", owner-only), which they read instead of connecting
// to the database themselves, so N viewers cost it one connection and one refresh.
// With `--metrics [ADDR:]PORT` it also serves /metrics (Prometheus' text format, domain/Metrics.h)
// for every database it records; while a server is silent its series keep the last answer's values
// with leasewatch_up 0, as the Overview keeps its cards greyed "as of" (no alert resolves itself
// because the data stopped).
// Runs until SIGTERM/SIGINT (or `inv.quitAfterS`). Exit codes: 0 stopped by a signal; 4 no store
// could be opened (taken by another writer, or unwritable), or the metrics address cannot be bound.
int runRecord(const Invocation& inv);

} // namespace lw::app
