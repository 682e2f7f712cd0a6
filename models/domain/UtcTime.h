#pragma once
// A UTC QDateTime from epoch milliseconds, on Qt 6.4 (Debian 12) and 6.8 (Debian 13) alike. Qt 6.5+
// deprecates the Qt::TimeSpec overloads (an error with warnings as errors); QTimeZone::utc() is a
// zone rather than the UTC spec, and its ISO strings end in "+00:00" where the JSON output and the
// history store have always written "Z".
#include <QDateTime>
#include <QTimeZone>

namespace lw {

inline QDateTime utcFromMSecs(qint64 msecsSinceEpoch)
{
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    return QDateTime::fromMSecsSinceEpoch(msecsSinceEpoch, QTimeZone(QTimeZone::UTC));
#else
    return QDateTime::fromMSecsSinceEpoch(msecsSinceEpoch, Qt::UTC);
#endif
}

} // namespace lw
