#include "Palette.h"

namespace lw {

QColor leaseStateColor(LeaseState s)
{
    switch (s) {
    case LeaseState::Held:
        return QColor(0x2e, 0x7d, 0x32);
    case LeaseState::ExpiringSoon:
        return QColor(0xe0, 0x82, 0x00);
    case LeaseState::RenewalOverdue:
        return QColor(0xd3, 0x2f, 0x2f);
    case LeaseState::Stale:
        return QColor(0x8e, 0x24, 0xaa);
    case LeaseState::TakenOver:
        return QColor(0x15, 0x65, 0xc0);
    case LeaseState::Released:
        return QColor(0x9e, 0x9e, 0x9e);
    case LeaseState::Unknown:
        return QColor(0x75, 0x75, 0x75);
    case LeaseState::Free:
        return QColor(0x60, 0x7d, 0x8b);
    }
    return {};
}

} // namespace lw
