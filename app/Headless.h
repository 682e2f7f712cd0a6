#pragma once
// The terminal commands: `snapshot`, `watch`, `expire`. No QApplication with a GUI platform: they
// run over SSH. Same poller, models and findings as the window, so the words are the same.
#include "Cli.h"

namespace lw::app {

// One refresh, printed as a table or JSON. Exit 0, 1 on connection error, 3 when the leases table
// is unusable (the rest is still printed).
int runSnapshot(const Invocation& inv);
// The same at every refresh until SIGINT/SIGTERM (or --count): redrawn in a terminal, appended
// (JSON: one document per line) when stdout is not a terminal.
int runWatch(const Invocation& inv);
// The window's compare-and-set force-expire of one lease held by inv.holder, recorded in the audit
// log. Exit 0 only when the lease was expired; 4 when operator mode is off (nothing sent).
int runExpire(const Invocation& inv, const QString& auditPath = {});
// `bundle PROFILE|DSN FILE`: the last inv.bundleMinutes of that database's history store (the one
// `leasewatch record` or a window writes) as an incident bundle, without stopping the writer.
// Exit 0 written; 1 nothing recorded, the store unreadable, or the file not written.
int runCutBundle(const Invocation& inv);

} // namespace lw::app
