#pragma once
// Leases' holders over time as strips (issue 27, point 6): one row per lease, coloured by state
// (held, renewal overdue, stale, force-expired, released), a tick where another holder took it
// over, a dashed frame where the previous holder may still have run it; hover for the span's holder
// and times, click a row to read its events. Painted directly:
// a few hundred rows of a few spans each, redrawn only when the page is opened or a lease picked.
#include "itemmodels/LeaseStrip.h"

#include <QWidget>

namespace lw::ui {

class LeaseStripView : public QWidget
{
    Q_OBJECT
public:
    struct Row
    {
        QString lease;
        std::vector<StripSegment> segments;
        std::vector<Overlap> overlaps; // both holders may have run it (leaseOverlaps())
    };
    explicit LeaseStripView(QWidget* parent = nullptr);

    void setRows(std::vector<Row> rows, double t0, double t1);
    const std::vector<Row>& rows() const { return rows_; }
    std::pair<double, double> range() const { return {t0_, t1_}; }
    // The span of `row` at server time t, or null (what the tooltip describes).
    const StripSegment* segmentAt(int row, double t) const;
    QString describe(int row, double t) const; // the tooltip's text
    // The colours' meaning, as rich text for a label beside the strips.
    static QString legendHtml();
    // The time axis over [t0, t1] (seconds since the epoch): at most `most` labels at round local
    // times (a second, 5 s, a minute, an hour, …), each different from the others.
    struct AxisTick
    {
        double t = 0;
        QString label;
    };
    static std::vector<AxisTick> axisTicks(double t0, double t1, int most = 6);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void leaseClicked(const QString& lease);

protected:
    void paintEvent(QPaintEvent* e) override;
    bool event(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    int rowAt(int y) const;
    double timeAt(int x) const;
    int xOf(double t) const;

    std::vector<Row> rows_;
    double t0_ = 0, t1_ = 1;
};

} // namespace lw::ui
