#include "LeaseStripView.h"
#include "itemmodels/Palette.h"

#include "domain/LeaseState.h"
#include "itemmodels/LeaseTimelineModel.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace lw::ui {

namespace {
constexpr int kRowH = 18;
constexpr int kLabelW = 200;
constexpr int kAxisH = 20;

// The lease palette (domain/LeaseState), so a state has one colour on every page.
QColor colourOf(StripSegment::State s)
{
    switch (s) {
    case StripSegment::State::Held:
        return leaseStateColor(LeaseState::Held);
    case StripSegment::State::Overdue:
        return leaseStateColor(LeaseState::RenewalOverdue);
    case StripSegment::State::Stale:
        return leaseStateColor(LeaseState::Stale);
    case StripSegment::State::Forced:
        return QColor(0xc6, 0x28, 0x28); // as the timeline's forced expiries
    case StripSegment::State::Released:
        return leaseStateColor(LeaseState::Released);
    }
    return {};
}
// Two holders at work is as bad as a stale lease: its colour, as a dashed frame over the held span.
QColor overlapColour()
{
    return leaseStateColor(LeaseState::Stale);
}
} // namespace

QString LeaseStripView::legendHtml()
{
    QString html;
    for (auto st : {StripSegment::State::Held, StripSegment::State::Overdue, StripSegment::State::Stale,
                    StripSegment::State::Forced, StripSegment::State::Released})
        html += QStringLiteral("<span style=\"color:%1\">■</span> %2%3 &nbsp; ")
                    .arg(colourOf(st).name(), stripStateText(st),
                         st == StripSegment::State::Forced ? tr(" (hatched)") : QString());
    return html + tr("<span style=\"color:%1\">▍</span> taken over &nbsp; "
                     "<span style=\"color:%2\">┅</span> both may have run it")
                      .arg(leaseStateColor(LeaseState::TakenOver).name(), overlapColour().name());
}

LeaseStripView::LeaseStripView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void LeaseStripView::setRows(std::vector<Row> rows, double t0, double t1)
{
    rows_ = std::move(rows);
    t0_ = t0;
    t1_ = std::max(t1, t0 + 1);
    updateGeometry();
    update();
}

QSize LeaseStripView::sizeHint() const
{
    return {kLabelW + 600, kAxisH + std::max<int>(1, int(rows_.size())) * kRowH + 4};
}

QSize LeaseStripView::minimumSizeHint() const
{
    return {kLabelW + 200, sizeHint().height()};
}

int LeaseStripView::xOf(double t) const
{
    const int w = std::max(1, width() - kLabelW - 8);
    return kLabelW + int(std::lround((t - t0_) / (t1_ - t0_) * w));
}

double LeaseStripView::timeAt(int x) const
{
    const int w = std::max(1, width() - kLabelW - 8);
    return t0_ + double(x - kLabelW) / w * (t1_ - t0_);
}

int LeaseStripView::rowAt(int y) const
{
    const int r = (y - kAxisH) / kRowH;
    return y >= kAxisH && r < int(rows_.size()) ? r : -1;
}

const StripSegment* LeaseStripView::segmentAt(int row, double t) const
{
    if (row < 0 || row >= int(rows_.size()))
        return nullptr;
    for (const StripSegment& s : rows_[size_t(row)].segments)
        if (t >= s.from && t <= s.to)
            return &s;
    return nullptr;
}

QString LeaseStripView::describe(int row, double t) const
{
    const StripSegment* s = segmentAt(row, t);
    if (!s)
        return {};
    const QString& lease = rows_[size_t(row)].lease;
    const QString state = stripStateText(s->state);
    QString text = !s->holder ? tr("%1: %2").arg(lease, state)
                   : s->state == StripSegment::State::Held ? tr("%1: %2 by %3").arg(lease, state, *s->holder)
                                                           : tr("%1: %2, last held by %3").arg(lease, state, *s->holder);
    if (s->takenOver)
        text += tr(" (taken over)");
    text += QStringLiteral("\n%1 → %2").arg(formatServerTime(s->from), formatServerTime(s->to));
    for (const Overlap& o : rows_[size_t(row)].overlaps)
        if (t >= o.first && t <= o.second)
            text += tr("\nthe previous holder may still have run it (its sessions stayed busy), %1 → %2")
                        .arg(formatServerTime(o.first), formatServerTime(o.second));
    return text;
}

std::vector<LeaseStripView::AxisTick> LeaseStripView::axisTicks(double t0, double t1, int most)
{
    // Round steps; a window recorded over 2 s labelled at fifths of it read "03:12:40" five times.
    static constexpr double kSteps[] = {0.1,  0.2,   0.5,   1,     2,     5,      10,    15,
                                        30,   60,    120,   300,   600,   900,    1800,  3600,
                                        7200, 10800, 21600, 43200, 86400, 172800, 604800};
    std::vector<AxisTick> ticks;
    if (!(t1 > t0) || most < 1)
        return ticks;
    // Round in local time: an hour step in a +05:30 zone labels 06:00, not 06:30.
    const double offset = QDateTime::fromMSecsSinceEpoch(qint64(t0 * 1000)).offsetFromUtc();
    const auto count = [&](double step) {
        return std::floor((t1 + offset) / step) - std::ceil((t0 + offset) / step) + 1;
    };
    double step = kSteps[std::size(kSteps) - 1];
    for (double s : kSteps) {
        if (count(s) <= most) {
            step = s;
            break;
        }
    }
    const bool days = QDateTime::fromMSecsSinceEpoch(qint64(t0 * 1000)).date() !=
                      QDateTime::fromMSecsSinceEpoch(qint64(t1 * 1000)).date();
    const QString fmt = step < 1        ? QStringLiteral("HH:mm:ss.zzz")
                        : step < 60     ? QStringLiteral("HH:mm:ss")
                        : step >= 86400 ? QStringLiteral("dd MMM")
                        : days          ? QStringLiteral("dd MMM HH:mm")
                                        : QStringLiteral("HH:mm");
    for (double k = std::ceil((t0 + offset) / step); k * step - offset <= t1; k += 1) {
        const double t = k * step - offset;
        ticks.push_back({t, QDateTime::fromMSecsSinceEpoch(qint64(std::llround(t * 1000))).toString(fmt)});
    }
    return ticks;
}

void LeaseStripView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::Text);
    p.setPen(text);
    for (const AxisTick& tick : axisTicks(t0_, t1_)) {
        const int x = xOf(tick.t);
        // Centred on its line, kept inside the strips' area at either end.
        const int left = std::clamp(x - 60, kLabelW, std::max(kLabelW, width() - 120));
        p.drawText(QRect(left, 0, 120, kAxisH), Qt::AlignCenter, tick.label);
        QColor grid = text;
        grid.setAlphaF(0.15f);
        p.setPen(grid);
        p.drawLine(x, kAxisH, x, height());
        p.setPen(text);
    }
    for (int r = 0; r < int(rows_.size()); ++r) {
        const int y = kAxisH + r * kRowH;
        const Row& row = rows_[size_t(r)];
        p.setPen(text);
        p.drawText(QRect(4, y, kLabelW - 8, kRowH), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(row.lease, Qt::ElideMiddle, kLabelW - 8));
        for (const StripSegment& s : row.segments) {
            const int x0 = xOf(s.from), x1 = std::max(xOf(s.to), x0 + 1);
            const QRect bar(x0, y + 3, x1 - x0, kRowH - 6);
            if (s.state == StripSegment::State::Forced) // hatched: not to be read as "overdue"
                p.fillRect(bar, QBrush(colourOf(s.state), Qt::BDiagPattern));
            else
                p.fillRect(bar, colourOf(s.state));
            if (s.takenOver) { // a takeover: a tick across the row
                p.fillRect(QRect(x0 - 1, y, 3, kRowH), leaseStateColor(LeaseState::TakenOver));
            }
        }
        for (const Overlap& o : row.overlaps) { // both may have run it: a dashed frame over the span
            const int x0 = xOf(o.first), x1 = std::max(xOf(o.second), x0 + 2);
            p.setPen(QPen(overlapColour(), 2, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRect(x0, y + 1, x1 - x0, kRowH - 3));
        }
    }
}

bool LeaseStripView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* h = static_cast<QHelpEvent*>(e);
        const QString t = describe(rowAt(h->pos().y()), timeAt(h->pos().x()));
        if (t.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(h->globalPos(), t, this);
        return true;
    }
    return QWidget::event(e);
}

void LeaseStripView::mousePressEvent(QMouseEvent* e)
{
    const int r = rowAt(int(e->position().y()));
    if (r >= 0)
        Q_EMIT leaseClicked(rows_[size_t(r)].lease);
    QWidget::mousePressEvent(e);
}

} // namespace lw::ui
