#pragma once
// The console as a user runs it, measured from outside: the real `leasewatch` process (the window,
// offscreen, or the recorder) against the benchmark's cluster while an application renews 1 % of
// the leases every second; its share of one core and its resident memory (issue 24 point 5).
#include <QString>
#include <QStringList>

namespace lw::bench {

struct ProcessFigures
{
    int leases = 0;
    double seconds = 0;      // measured wall time (after the warm-up)
    double cpuSeconds = 0;   // utime + stime over it
    double cpuPercent = 0;   // of one core
    double residentMiB = 0;  // at the end
    double storeMiB = 0;     // the history the process wrote
    qint64 refreshes = 0;    // refreshes over the measured time (the footprint budget may space them)
};

// Runs `program args… DSN` with its own home (config, history) and, for the window, the offscreen
// platform; renews 1 % of `leases` every second for `warmupS` then `seconds`, and reads the
// process' CPU time from /proc around the second part. Throws std::runtime_error if it stops.
ProcessFigures measureConsoleProcess(const QString& program, const QStringList& args, int leases, int warmupS,
                                     int seconds, const QString& clusterDir);

} // namespace lw::bench
