#pragma once
// The headless rendering of one refresh (`leasewatch snapshot`): read from the same models the
// window shows, so the terminal and the window never disagree.
#include "domain/Analysis.h"
#include "domain/Snapshot.h"

#include <QJsonObject>
#include <QString>

namespace lw {

class LeaseTracker;

QJsonObject snapshotToJson(const Snapshot& s, const LeaseTracker& leases, const std::vector<Finding>& findings);
QString snapshotToText(const Snapshot& s, const LeaseTracker& leases, const std::vector<Finding>& findings);
// PostgreSQL 16+ with reserved_connections set: whether the console's role gets in when the
// application has used every other slot, or the GRANT that lets it ("" when nothing is reserved).
QString reservedConnectionsText(const ClusterInfo& c, const QString& user);

} // namespace lw
