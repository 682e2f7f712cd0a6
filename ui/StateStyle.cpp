#include "StateStyle.h"
#include "itemmodels/Palette.h"

#include "itemmodels/LeaseModel.h"

#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace lw::ui {

QIcon stateIcon(LeaseState s)
{
    static QHash<int, QIcon> cache;
    if (auto it = cache.constFind(int(s)); it != cache.constEnd())
        return *it;
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor c = leaseStateColor(s);
    p.setPen(QPen(c.darker(130), 2));
    p.setBrush(c);
    switch (s) {
    case LeaseState::Held: // filled circle
        p.drawEllipse(QRectF(5, 5, 22, 22));
        break;
    case LeaseState::ExpiringSoon: { // half-filled circle (hourglass-ish)
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QRectF(5, 5, 22, 22));
        p.setBrush(c);
        p.drawPie(QRectF(5, 5, 22, 22), 90 * 16, -180 * 16);
        break;
    }
    case LeaseState::RenewalOverdue: { // warning triangle
        QPainterPath path;
        path.moveTo(16, 3);
        path.lineTo(30, 28);
        path.lineTo(2, 28);
        path.closeSubpath();
        p.drawPath(path);
        p.setPen(QPen(Qt::white, 3));
        p.drawLine(QPointF(16, 11), QPointF(16, 20));
        p.drawPoint(QPointF(16, 24));
        break;
    }
    case LeaseState::Stale: { // cross in a square
        p.drawRoundedRect(QRectF(4, 4, 24, 24), 4, 4);
        p.setPen(QPen(Qt::white, 3));
        p.drawLine(QPointF(10, 10), QPointF(22, 22));
        p.drawLine(QPointF(22, 10), QPointF(10, 22));
        break;
    }
    case LeaseState::TakenOver: { // arrow
        QPainterPath path;
        path.moveTo(4, 12);
        path.lineTo(18, 12);
        path.lineTo(18, 5);
        path.lineTo(29, 16);
        path.lineTo(18, 27);
        path.lineTo(18, 20);
        path.lineTo(4, 20);
        path.closeSubpath();
        p.drawPath(path);
        break;
    }
    case LeaseState::Released: // hollow circle
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QRectF(6, 6, 20, 20));
        break;
    case LeaseState::Free: // hollow square: the row is there, nobody holds it
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(7, 7, 18, 18));
        break;
    case LeaseState::Unknown: // question mark
        p.setFont(QFont(QStringLiteral("Sans"), 20, QFont::Bold));
        p.drawText(QRectF(0, 0, 32, 32), Qt::AlignCenter, QStringLiteral("?"));
        break;
    }
    p.end();
    QIcon icon(pm);
    cache.insert(int(s), icon);
    return icon;
}

void StateDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QVariant st = index.data(LeaseModel::StateRole);
    if (!st.isValid())
        return;
    option->icon = stateIcon(LeaseState(st.toInt()));
    option->features |= QStyleOptionViewItem::HasDecoration;
    option->decorationSize = QSize(14, 14);
}

} // namespace lw::ui
