#include "PollerConfig.h"

#include "domain/LeaseState.h"

namespace lw {

LeasePolicy leasePolicyFor(const PollerConfig& cfg)
{
    LeasePolicy p;
    p.refreshIntervalS = cfg.intervalMs / 1000.0;
    return policyForTable(p, cfg.leases);
}

} // namespace lw
