#pragma once
// Colours of the domain's states, for the item models' roles and the widgets: one place, so the
// Leases page, its summary, the timelines and the fleet say "stale" in the same colour. The domain
// itself has none (QtCore only).
#include "domain/LeaseStateKind.h"

#include <QColor>

namespace lw {

QColor leaseStateColor(LeaseState s);

} // namespace lw
