#pragma once
// Diagnostic categories, off by default (debug messages are not shown unless enabled):
//   QT_LOGGING_RULES="leasewatch.*.debug=true" leasewatch …
// leasewatch.connection (in pg/PgConnection.cpp): connects, failures, cancels (never the DSN: host,
// port and database only); leasewatch.poller: each refresh's timings and sizes; leasewatch.history (in
// store/HistoryWriter.cpp): what each refresh wrote;
// leasewatch.forceexpire: each attempt and its outcome; leasewatch.feed (in feed/FeedServer.cpp): the
// recorder's live feed, viewers joining (debug), dropped or refused and why (info).
// Warnings (a failed write) are always shown.
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcPoller)
Q_DECLARE_LOGGING_CATEGORY(lcForceExpire)
