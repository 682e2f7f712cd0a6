#pragma once
// The one door to chart code. Everything behind it (Qt Charts today) lives in this folder, so a
// port to Qt Graphs touches nothing else. Samples are kept in ring buffers and each series is
// replaced once per refresh (appending point by point to an attached series is quadratic).
#include <QWidget>

#include <memory>

namespace lw::ui {

struct SeriesSpec
{
    QString name;
    QColor color;
    bool stacked = true; // stacked area; false: a line (e.g. a pool-size or capacity limit)
};

class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    ChartPanel(const QString& title, const QList<SeriesSpec>& series, int capacity,
               QWidget* parent = nullptr);
    ~ChartPanel() override;

    // One sample per series at time t (epoch seconds); the view follows the last `windowS` seconds.
    void append(double t, const QList<double>& values);
    void setWindowSeconds(double windowS);
    void setYMax(double yMax);
    int sampleCount() const;
    bool exportPng(const QString& path) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace lw::ui
