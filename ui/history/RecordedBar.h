#pragma once
// The banner of a window that shows recorded data (issue 9): "Recorded, not live — <file> — <time>"
// and a slider over the recorded refreshes. Moving it applies the recorded refresh of that moment
// to the Monitor's models (Monitor::showRecorded, the live path): a short step forward replays the
// refreshes in between; a jump back or far replays a warm-up stretch before the target, so lease
// states (TTL inference, "taken over", "released") come out as they did live.
#include <QWidget>

#include <vector>

class QLabel;
class QSlider;
class QToolButton;

namespace lw {
class HistoryReader;
class Monitor;
} // namespace lw

namespace lw::ui {

class RecordedBar : public QWidget
{
    Q_OBJECT
public:
    // Neither is owned; monitor must be a recorded one (Monitor::recorded). Shows the last refresh.
    RecordedBar(Monitor* monitor, const HistoryReader* reader, QWidget* parent = nullptr);
    ~RecordedBar() override;

    // Shows the last recorded refresh at or before t (server time, epoch seconds).
    void seek(double serverTime);
    double shownTime() const { return shown_; }
    // Seconds of refreshes replayed before a target reached by a jump (default 120).
    void setWarmupSeconds(double s) { warmupS_ = s; }
    int refreshCount() const { return int(times_.size()); }

    QSlider* slider() const { return slider_; }
    QLabel* text() const { return text_; }

Q_SIGNALS:
    void shown(double serverTime);

private:
    void updateText(double t);

    Monitor* monitor_;
    const HistoryReader* reader_;
    std::vector<double> times_;
    QLabel* text_;
    QSlider* slider_;
    QToolButton* back_;
    QToolButton* forward_;
    double shown_ = 0;
    double warmupS_ = 120;
};

} // namespace lw::ui
