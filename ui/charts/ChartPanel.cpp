#include "ChartPanel.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <deque>

namespace lw::ui {

struct ChartPanel::Impl
{
    QList<SeriesSpec> specs;
    int capacity = 3600;
    double windowS = 300;
    double yMax = 1;
    bool fixedYMax = false;
    std::deque<double> times;
    std::vector<std::deque<double>> values; // ring buffers, one per series
    QChart* chart = nullptr;
    QChartView* view = nullptr;
    std::vector<QLineSeries*> upper;
    std::vector<QLineSeries*> lower;
    QDateTimeAxis* x = nullptr;
    QValueAxis* y = nullptr;
};

ChartPanel::ChartPanel(const QString& title, const QList<SeriesSpec>& series, int capacity, QWidget* parent)
    : QWidget(parent), d(std::make_unique<Impl>())
{
    d->specs = series;
    d->capacity = capacity;
    d->values.resize(size_t(series.size()));
    d->chart = new QChart;
    d->chart->setTitle(title);
    d->chart->setAnimationOptions(QChart::NoAnimation);
    d->chart->legend()->setAlignment(Qt::AlignBottom);
    d->x = new QDateTimeAxis;
    d->x->setFormat(QStringLiteral("HH:mm:ss"));
    d->x->setTickCount(6);
    d->y = new QValueAxis;
    d->y->setLabelFormat(QStringLiteral("%d"));
    d->chart->addAxis(d->x, Qt::AlignBottom);
    d->chart->addAxis(d->y, Qt::AlignLeft);
    for (const SeriesSpec& s : series) {
        auto* up = new QLineSeries;
        if (s.stacked) {
            auto* lo = new QLineSeries;
            auto* area = new QAreaSeries(up, lo);
            area->setName(s.name);
            area->setColor(s.color);
            area->setBorderColor(s.color.darker(120));
            d->chart->addSeries(area);
            area->attachAxis(d->x);
            area->attachAxis(d->y);
            d->lower.push_back(lo);
        } else {
            up->setName(s.name);
            QPen pen(s.color, 2, Qt::DashLine);
            up->setPen(pen);
            d->chart->addSeries(up);
            up->attachAxis(d->x);
            up->attachAxis(d->y);
            d->lower.push_back(nullptr);
        }
        d->upper.push_back(up);
    }
    d->view = new QChartView(d->chart, this);
    d->view->setRenderHint(QPainter::Antialiasing);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(d->view);
}

ChartPanel::~ChartPanel() = default;

int ChartPanel::sampleCount() const
{
    return int(d->times.size());
}

void ChartPanel::setWindowSeconds(double windowS)
{
    d->windowS = windowS;
}

void ChartPanel::setYMax(double yMax)
{
    d->yMax = yMax;
    d->fixedYMax = true;
}

void ChartPanel::append(double t, const QList<double>& vals)
{
    d->times.push_back(t);
    for (size_t i = 0; i < d->values.size(); ++i)
        d->values[i].push_back(i < size_t(vals.size()) ? vals[qsizetype(i)] : 0.0);
    while (int(d->times.size()) > d->capacity) {
        d->times.pop_front();
        for (auto& v : d->values)
            v.pop_front();
    }
    // Rebuild each series from the ring buffer and replace() it in one go.
    std::vector<double> base(d->times.size(), 0.0);
    double top = 1;
    for (size_t s = 0; s < d->values.size(); ++s) {
        QList<QPointF> up, lo;
        up.reserve(qsizetype(d->times.size()));
        const bool stacked = d->specs[qsizetype(s)].stacked;
        for (size_t i = 0; i < d->times.size(); ++i) {
            const double ms = d->times[i] * 1000.0;
            const double v = d->values[s][i];
            if (stacked) {
                lo.append(QPointF(ms, base[i]));
                base[i] += v;
                up.append(QPointF(ms, base[i]));
                top = std::max(top, base[i]);
            } else {
                up.append(QPointF(ms, v));
                top = std::max(top, v);
            }
        }
        d->upper[s]->replace(up);
        if (d->lower[s])
            d->lower[s]->replace(lo);
    }
    const double tmax = d->times.back();
    d->x->setRange(QDateTime::fromMSecsSinceEpoch(qint64((tmax - d->windowS) * 1000)),
                   QDateTime::fromMSecsSinceEpoch(qint64(tmax * 1000)));
    d->y->setRange(0, d->fixedYMax ? std::max(d->yMax, top) : std::ceil(top * 1.2));
}

bool ChartPanel::exportPng(const QString& path) const
{
    return d->view->grab().save(path, "PNG");
}

} // namespace lw::ui
