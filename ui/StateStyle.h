#pragma once
// How a lease state looks: colour, a shape icon (so colour is never the only cue) and text.
#include "domain/LeaseStateKind.h"

#include <QIcon>
#include <QStyledItemDelegate>

namespace lw::ui {

QIcon stateIcon(LeaseState s); // drawn, not loaded: distinct shapes per state

// Draws the state icon in front of the state text (reads LeaseModel::StateRole).
class StateDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace lw::ui
