#pragma once
// The one door to chart code. Everything behind it (Qt Charts today) lives in this folder, so a
// port to Qt Graphs touches nothing else. The caller keeps the samples (ring buffers in
// PoolHistory) and hands the visible slice once per refresh; each drawn series is then replaced in
// one call (appending point by point to an attached series is quadratic), axes are set explicitly
// and nothing is animated.
#include <QColor>
#include <QImage>
#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

namespace lw::ui {

struct SeriesSpec
{
    enum class Kind {
        Stacked, // filled area stacked on the previous stacked series
        Line,    // a plain line (a count that is not part of the stack)
        Limit,   // a dashed line: a pool size, a budget, a capacity
    };
    QString name;
    QColor color;
    Kind kind = Kind::Stacked;
    bool operator==(const SeriesSpec&) const = default;
};

// The visible slice: sample times (epoch seconds, ascending) and one value column per series.
struct ChartData
{
    std::vector<double> t;
    std::vector<std::vector<double>> values; // values[series][sample]
};

class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPanel(const QString& title, QWidget* parent = nullptr);
    ~ChartPanel() override;

    // Rebuilds the drawn series; a no-op when `series` equals the current ones (call it freely).
    void setSeries(const QList<SeriesSpec>& series);
    const QList<SeriesSpec>& series() const;
    void setTitle(const QString& title);
    QString title() const;
    void setValueUnit(const QString& unit); // for the tooltip: "connections", "entries"…
    // Draws `data` over the time range [t0, t1] (epoch seconds): one replace() per drawn series.
    // More samples than maxPoints() are thinned to the peak sample of each bucket (spikes stay
    // visible, which is what an operator is looking for).
    void setData(ChartData data, double t0, double t1);
    void setMaxPoints(int n);
    int maxPoints() const;

    // Marks one moment (epoch seconds) with a labelled dashed vertical line, drawn over the data:
    // where a window joined a recorder's history. nullopt removes it.
    void setMarker(std::optional<double> t, const QString& label = {});
    std::optional<double> markerTime() const;
    QString markerLabel() const;

    // Exact values of the sample nearest to time t, one line per series (the hover tooltip).
    QString valuesText(double t) const;
    bool exportPng(const QString& path) const;
    QImage render() const;

    // Test access: what the chart actually holds.
    int replaceCount() const;     // QXYSeries::replace() calls since construction
    int drawnSeriesCount() const; // QXYSeries objects (a stacked area has an upper and a lower line)
    // The last sample's own value of a series (not the stacked top); nullopt when empty.
    std::optional<double> lastValue(int series) const;
    // The points of the line drawn for a series (for a stacked series: its upper edge, cumulative).
    QList<QPointF> drawnPoints(int series) const;
    int sampleCount() const; // samples in the last setData (before thinning)
    QList<double> valueTicks() const; // where the value axis has its labels

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace lw::ui
