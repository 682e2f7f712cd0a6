#include "Wording.h"
#include "Words.h"

#include <QLocale>

#include <cmath>

namespace lw {

QString formatDuration(double seconds)
{
    if (!std::isfinite(seconds))
        return QStringLiteral("∞");
    qint64 s = qint64(std::floor(std::abs(seconds)));
    if (s < 60)
        return Words::tr("%1 s").arg(s);
    if (s < 3600)
        return s % 60 ? Words::tr("%1 min %2 s").arg(s / 60).arg(s % 60)
                      : Words::tr("%1 min").arg(s / 60);
    if (s < 86400)
        return Words::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
    if (s < 86400LL * 365 * 2)
        return Words::tr("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
    return Words::tr("%1 years").arg(s / (86400LL * 365));
}

QString formatCountdown(double left)
{
    if (left >= 0)
        return Words::tr("in %1").arg(formatDuration(left));
    return Words::tr("expired %1 ago").arg(formatDuration(-left));
}

QString formatDecimal(double value, int decimals)
{
    return QLocale().toString(value, 'f', decimals);
}

QString severityWord(int severity)
{
    return severity >= 3   ? Words::tr("CRITICAL")
           : severity == 2 ? Words::tr("WARNING")
                           : Words::tr("NOTE");
}

} // namespace lw
