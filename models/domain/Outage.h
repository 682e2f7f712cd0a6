#pragma once
// A server that is not answering, in the words the Overview, the tray, `leasewatch watch` and the
// logs share: what happened, since when, what the console does about it, and, once it has lasted,
// a critical finding naming the causes the console can tell apart from what it saw.
#include "Analysis.h"

#include <QDateTime>

#include <optional>

namespace lw {

struct OutageView
{
    QDateTime since;           // the server's last answer (local wall time)
    QDateTime now;             // local wall time
    DbError began;         // the failure that began it (a refresh's deadline, a lost connection)
    DbError error;         // the latest failure: a refresh's, or a reconnect attempt's
    bool reconnectingNow = false; // an attempt is under way
    std::optional<QDateTime> nextAttempt; // when the next attempt starts (backing off)
    int refreshDeadlineMs = 0;
    // From the last good refresh, for the causes: connections in use against the budget.
    int connectionsUsed = 0;
    int connectionBudget = 0;
    // The role the console connects as and the server's version, as the last good refresh saw
    // them (empty / 0 before any): what to GRANT so that the console still gets in.
    QString role;
    int serverVersionNum = 0;

    double seconds() const { return std::max<qint64>(0, since.msecsTo(now)) / 1000.0; }
};

// What the console can tell from the errors it saw (the latest attempt's, else the first).
enum class OutageCause {
    RefreshDeadline,    // connected, then a refresh got no answer in time
    ConnectTimeout,     // a reconnect got no answer (TCP or startup packet)
    Refused,            // nothing listens at the address
    TooManyConnections, // SQLSTATE 53300: the console is one of the victims
    StartingOrStopping, // SQLSTATE 57P03
    DiskFull,           // SQLSTATE 53100 / ENOSPC in the server's message
    Terminated,         // 57P01/57P02: an administrator or a shutdown ended the session
    Lost,               // the connection broke (crash, restart, network)
    Other,
};
OutageCause outageCauseOf(const OutageView& o);
QString outageCauseKey(OutageCause c); // "too_many_connections", … (JSON, logs, tests)

// "The server has not answered for 19 s (since 08:53:08). The refresh was cancelled after its 5 s
// deadline; reconnecting in 4 s."
QString outageLine(const OutageView& o);

// What the console can tell from what it saw, in one or two sentences.
QString outageCause(const OutageView& o);

inline constexpr double kNotAnsweringCriticalS = 15;

// The critical card, once the outage has lasted `thresholdS`; sinceServer is left 0 (the caller
// knows the server clock).
std::optional<Finding> outageFinding(const OutageView& o, double thresholdS = kNotAnsweringCriticalS);

} // namespace lw
