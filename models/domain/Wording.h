#pragma once
// Durations in the words every view, terminal line and finding shares (QtCore only).
#include <QString>

namespace lw {

QString formatDuration(double seconds);      // "1 min 12 s", "3 h 4 min", "12 s"
QString formatCountdown(double secondsLeft); // "in 12 s" / "expired 12 s ago"
QString severityWord(int severity);
// A decimal as the chosen language writes it ("1,5" in German): QLocale's default, which --lang de sets.
QString formatDecimal(double value, int decimals);          // a finding's: "CRITICAL", "WARNING", "NOTE"

} // namespace lw
