#include "Logging.h"

Q_LOGGING_CATEGORY(lcPoller, "leasewatch.poller", QtInfoMsg)
Q_LOGGING_CATEGORY(lcForceExpire, "leasewatch.forceexpire", QtInfoMsg)
