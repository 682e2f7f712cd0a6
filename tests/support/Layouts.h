#pragma once
// Before a screenshot or a size check: the widgets' pending layouts done now. Layout requests are
// posted events; delivering them may post the parents' in turn, hence a few passes (no sleeping).
#include <QCoreApplication>
#include <QEvent>

namespace lw::test {

inline void settleLayouts()
{
    for (int pass = 0; pass < 4; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
}

} // namespace lw::test
