#include "ChartPanel.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace lw::ui {

namespace {
// Shows the exact values of the sample under the cursor.
class HoverView : public QChartView
{
public:
    HoverView(QChart* chart, const ChartPanel* panel, QWidget* parent)
        : QChartView(chart, parent), panel_(panel)
    {
        setMouseTracking(true);
    }

protected:
    void mouseMoveEvent(QMouseEvent* e) override
    {
        const QPointF p = e->position();
        if (chart()->plotArea().contains(p)) {
            const QPointF v = chart()->mapToValue(p);
            const QString text = panel_->valuesText(v.x() / 1000.0);
            if (!text.isEmpty())
                QToolTip::showText(e->globalPosition().toPoint(), text, this);
        } else {
            QToolTip::hideText();
        }
        QChartView::mouseMoveEvent(e);
    }

    // The marked moment (where this window joined the recording): a dashed vertical line, labelled.
    void drawForeground(QPainter* p, const QRectF& rect) override
    {
        QChartView::drawForeground(p, rect);
        const std::optional<double> t = panel_->markerTime();
        const auto* axis = qobject_cast<QDateTimeAxis*>(chart()->axes(Qt::Horizontal).value(0));
        if (!t || !axis)
            return;
        const double lo = double(axis->min().toMSecsSinceEpoch()), hi = double(axis->max().toMSecsSinceEpoch());
        const double ms = *t * 1000.0;
        if (!(hi > lo) || ms < lo || ms > hi)
            return;
        const QRectF plot = chart()->mapRectToScene(chart()->plotArea());
        const double x = plot.left() + (ms - lo) / (hi - lo) * plot.width();
        p->save();
        QColor c = palette().color(QPalette::Text);
        c.setAlphaF(0.7f);
        p->setPen(QPen(c, 1.5, Qt::DashLine));
        p->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        const QString label = panel_->markerLabel();
        if (!label.isEmpty()) {
            const QRectF box = p->fontMetrics().boundingRect(label).adjusted(-3, -1, 3, 1);
            // Left of the line when it sits near the right edge (the usual case: the window just joined).
            const double left = x + box.width() + 4 > plot.right() ? x - box.width() - 4 : x + 4;
            const QRectF at(left, plot.top() + 2, box.width(), box.height());
            QColor bg = palette().color(QPalette::Base);
            bg.setAlphaF(0.85f);
            p->fillRect(at, bg);
            p->drawText(at, Qt::AlignCenter, label);
        }
        p->restore();
    }

private:
    const ChartPanel* panel_;
};

// A round axis maximum (1, 2, 5 × 10^n) so the axis does not creep with every sample.
double niceCeil(double v)
{
    if (v <= 1)
        return 1;
    const double mag = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
        if (m * mag >= v)
            return m * mag;
    return 10 * mag;
}
} // namespace

struct ChartPanel::Impl
{
    QList<SeriesSpec> specs;
    QString unit;
    int maxPoints = 1500;
    ChartData data;
    QChart* chart = nullptr;
    QChartView* view = nullptr;
    std::vector<QLineSeries*> upper; // per spec
    std::vector<QLineSeries*> lower; // per spec; null for lines and the bottom area
    std::vector<QAbstractSeries*> added;
    QDateTimeAxis* x = nullptr;
    QValueAxis* y = nullptr;
    double yMax = -1;
    int replaces = 0;
    std::optional<double> markerTime;
    QString markerLabel;

    // A new QChart for every new set of series: removing series from a chart (and removing its
    // axes) left axes without labels or stale axes drawn over the new ones (Qt Charts 6.4). Series
    // sets change rarely (another group selected, another biggest group), samples every refresh.
    QChart* newChart(const QString& title)
    {
        auto* c = new QChart;
        c->setTitle(title);
        c->setAnimationOptions(QChart::NoAnimation);
        c->legend()->setAlignment(Qt::AlignBottom);
        c->setMargins(QMargins(4, 4, 4, 4));
        x = new QDateTimeAxis;
        x->setFormat(QStringLiteral("HH:mm:ss"));
        x->setTickCount(7);
        y = new QValueAxis;
        y->setLabelFormat(QStringLiteral("%d"));
        y->setRange(0, 1);
        y->setTickCount(2); // whole numbers before the first data too (the default 5 read "0 0 0 0 1")
        c->addAxis(x, Qt::AlignBottom);
        c->addAxis(y, Qt::AlignLeft);
        yMax = -1;
        return c;
    }

    void replace(QLineSeries* s, const QList<QPointF>& pts)
    {
        s->replace(pts);
        ++replaces;
    }
};

ChartPanel::ChartPanel(const QString& title, QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>())
{
    d->chart = d->newChart(title);
    d->view = new HoverView(d->chart, this, this);
    d->view->setRenderHint(QPainter::Antialiasing);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(d->view);
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::setSeries(const QList<SeriesSpec>& series)
{
    if (series == d->specs && !d->upper.empty())
        return;
    // Series and their boundary lines are children of the chart: they go with it.
    QChart* old = d->chart;
    d->chart = d->newChart(old->title());
    d->added.clear();
    d->upper.clear();
    d->lower.clear();
    d->specs = series;
    bool haveBase = false;
    for (const SeriesSpec& s : series) {
        // Parented to the chart: deleted with it whatever QAreaSeries does with its boundaries.
        auto* up = new QLineSeries(d->chart);
        QLineSeries* lo = nullptr;
        QAbstractSeries* shown = up;
        if (s.kind == SeriesSpec::Kind::Stacked) {
            if (haveBase)
                lo = new QLineSeries(d->chart);
            haveBase = true;
            auto* area = new QAreaSeries(up, lo);
            area->setColor(s.color);
            area->setBorderColor(s.color.darker(125));
            shown = area;
        } else {
            QPen pen(s.color, s.kind == SeriesSpec::Kind::Limit ? 2.5 : 2,
                     s.kind == SeriesSpec::Kind::Limit ? Qt::DashLine : Qt::SolidLine);
            up->setPen(pen);
        }
        shown->setName(s.name);
        d->chart->addSeries(shown);
        shown->attachAxis(d->x);
        shown->attachAxis(d->y);
        d->added.push_back(shown);
        d->upper.push_back(up);
        d->lower.push_back(lo);
    }
    d->view->setChart(d->chart); // releases the old chart, which we delete
    delete old;
}

const QList<SeriesSpec>& ChartPanel::series() const
{
    return d->specs;
}

void ChartPanel::setTitle(const QString& title)
{
    if (d->chart->title() != title)
        d->chart->setTitle(title);
}

QString ChartPanel::title() const
{
    return d->chart->title();
}

void ChartPanel::setValueUnit(const QString& unit)
{
    d->unit = unit;
}

void ChartPanel::setMaxPoints(int n)
{
    d->maxPoints = std::max(n, 16);
}

int ChartPanel::maxPoints() const
{
    return d->maxPoints;
}

void ChartPanel::setData(ChartData data, double t0, double t1)
{
    d->data = std::move(data);
    const ChartData& cd = d->data;
    const size_t n = cd.t.size();
    const size_t ns = size_t(d->specs.size());
    auto value = [&](size_t s, size_t i) {
        return s < cd.values.size() && i < cd.values[s].size() ? cd.values[s][i] : 0.0;
    };
    // Height of the stack and of the highest line at each sample: what the axis fits. Thinning keeps
    // each bucket's highest sample of the data itself: a budget or pool-size line above the stack
    // would otherwise make every sample as high as the next and drop a burst.
    std::vector<double> height(n, 0.0), peak(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        double stack = 0, line = 0, limit = 0;
        for (size_t s = 0; s < ns; ++s) {
            const SeriesSpec::Kind kind = d->specs[qsizetype(s)].kind;
            if (kind == SeriesSpec::Kind::Stacked)
                stack += value(s, i);
            else if (kind == SeriesSpec::Kind::Line)
                line = std::max(line, value(s, i));
            else
                limit = std::max(limit, value(s, i));
        }
        peak[i] = std::max(stack, line);
        height[i] = std::max(peak[i], limit);
    }
    // Thinning: one sample per bucket, the highest, plus the last one.
    std::vector<size_t> pick;
    if (n <= size_t(d->maxPoints)) {
        pick.resize(n);
        for (size_t i = 0; i < n; ++i)
            pick[i] = i;
    } else {
        const double per = double(n) / double(d->maxPoints - 1);
        for (int b = 0; b < d->maxPoints - 1; ++b) {
            const size_t from = size_t(b * per), to = std::min(n, size_t((b + 1) * per));
            size_t best = from;
            for (size_t i = from; i < to; ++i)
                if (peak[i] > peak[best])
                    best = i;
            if (from < to)
                pick.push_back(best);
        }
        pick.push_back(n - 1);
    }
    std::vector<double> base(pick.size(), 0.0);
    for (size_t s = 0; s < ns; ++s) {
        const bool stacked = d->specs[qsizetype(s)].kind == SeriesSpec::Kind::Stacked;
        QList<QPointF> up, lo;
        up.reserve(qsizetype(pick.size()));
        if (d->lower[s])
            lo.reserve(qsizetype(pick.size()));
        for (size_t k = 0; k < pick.size(); ++k) {
            const double ms = cd.t[pick[k]] * 1000.0;
            const double v = value(s, pick[k]);
            if (stacked) {
                if (d->lower[s])
                    lo.append(QPointF(ms, base[k]));
                base[k] += v;
                up.append(QPointF(ms, base[k]));
            } else if (std::isfinite(v)) {
                up.append(QPointF(ms, v));
            }
        }
        d->replace(d->upper[s], up);
        if (d->lower[s])
            d->replace(d->lower[s], lo);
    }
    // Fixed axes: set here, once per update; the value axis only moves to the next round number.
    const double top = n ? *std::max_element(height.begin(), height.end()) : 0.0;
    double yMax = niceCeil(top * 1.1);
    if (yMax <= 10)
        yMax = std::ceil(yMax); // whole-number ticks: a pool line of 2 must sit at 2, not between labels
    if (yMax != d->yMax) {
        d->yMax = yMax;
        d->y->setRange(0, yMax);
        d->y->setTickCount(yMax <= 10 ? int(yMax) + 1 : 6);
    }
    const double span = t1 - t0;
    d->x->setFormat(span > 86400 ? QStringLiteral("dd MMM HH:mm")
                                 : (span > 1800 ? QStringLiteral("HH:mm") : QStringLiteral("HH:mm:ss")));
    d->x->setRange(QDateTime::fromMSecsSinceEpoch(qint64(t0 * 1000)),
                   QDateTime::fromMSecsSinceEpoch(qint64(std::max(t1, t0 + 1) * 1000)));
}

QString ChartPanel::valuesText(double t) const
{
    const auto& ts = d->data.t;
    if (ts.empty())
        return {};
    auto it = std::lower_bound(ts.begin(), ts.end(), t);
    if (it == ts.end() || (it != ts.begin() && t - *(it - 1) < *it - t))
        --it;
    const size_t i = size_t(it - ts.begin());
    QStringList lines;
    lines << QDateTime::fromMSecsSinceEpoch(qint64(ts[i] * 1000)).toString(QStringLiteral("HH:mm:ss"));
    double stack = 0;
    int stacked = 0;
    for (qsizetype s = 0; s < d->specs.size(); ++s) {
        const double v = size_t(s) < d->data.values.size() && i < d->data.values[size_t(s)].size()
                             ? d->data.values[size_t(s)][i]
                             : 0.0;
        if (!std::isfinite(v))
            continue;
        if (d->specs[s].kind == SeriesSpec::Kind::Stacked) {
            stack += v;
            ++stacked;
        }
        lines << QStringLiteral("%1: %2").arg(d->specs[s].name, QString::number(v, 'g', 10));
    }
    if (stacked > 1)
        lines << tr("total: %1 %2").arg(QString::number(stack, 'g', 10), d->unit).trimmed();
    return lines.join(QLatin1Char('\n'));
}

void ChartPanel::setMarker(std::optional<double> t, const QString& label)
{
    d->markerTime = t;
    d->markerLabel = label;
    d->view->viewport()->update();
}

std::optional<double> ChartPanel::markerTime() const
{
    return d->markerTime;
}

QString ChartPanel::markerLabel() const
{
    return d->markerLabel;
}

QImage ChartPanel::render() const
{
    // The chart lays out axes and legend from posted events: flush them so a grab right after a
    // rebuild of the series shows what the chart holds.
    QCoreApplication::sendPostedEvents();
    return d->view->grab().toImage();
}

bool ChartPanel::exportPng(const QString& path) const
{
    return render().save(path, "PNG");
}

int ChartPanel::replaceCount() const
{
    return d->replaces;
}

int ChartPanel::drawnSeriesCount() const
{
    int n = 0;
    for (size_t s = 0; s < d->upper.size(); ++s)
        n += 1 + (d->lower[s] ? 1 : 0);
    return n;
}

std::optional<double> ChartPanel::lastValue(int series) const
{
    if (series < 0 || size_t(series) >= d->data.values.size() || d->data.values[size_t(series)].empty())
        return std::nullopt;
    return d->data.values[size_t(series)].back();
}

QList<QPointF> ChartPanel::drawnPoints(int series) const
{
    if (series < 0 || size_t(series) >= d->upper.size())
        return {};
    return d->upper[size_t(series)]->points();
}

int ChartPanel::sampleCount() const
{
    return int(d->data.t.size());
}

QList<double> ChartPanel::valueTicks() const
{
    QList<double> ticks;
    const int n = d->y->tickCount();
    for (int i = 0; i < n; ++i)
        ticks << d->y->min() + (d->y->max() - d->y->min()) * i / (n - 1);
    return ticks;
}

} // namespace lw::ui
