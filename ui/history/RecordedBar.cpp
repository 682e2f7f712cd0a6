#include "RecordedBar.h"

#include "Monitor.h"
#include "store/HistoryReader.h"
#include "itemmodels/LeaseTimelineModel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lw::ui {

RecordedBar::RecordedBar(Monitor* monitor, const HistoryReader* reader, QWidget* parent)
    : QWidget(parent), monitor_(monitor), reader_(reader), times_(reader->refreshTimes()),
      text_(new QLabel(this)), slider_(new QSlider(Qt::Horizontal, this)), back_(new QToolButton(this)),
      forward_(new QToolButton(this))
{
    setObjectName(QStringLiteral("recordedBar"));
    setAttribute(Qt::WA_StyledBackground);
    // Amber, like a paused chart: nobody should mistake this for the live state.
    setStyleSheet(QStringLiteral("#recordedBar { background: #fff3e0; border-bottom: 2px solid #e65100; }"
                                 "#recordedBar QLabel { color: #e65100; font-weight: bold; }"));
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    slider_->setRange(0, std::max(0, int(times_.size()) - 1));
    slider_->setTracking(false); // replay on release; the text follows the drag
    slider_->setEnabled(times_.size() > 1);
    slider_->setToolTip(tr("Recorded refreshes: drag to show another moment."));
    back_->setArrowType(Qt::LeftArrow);
    back_->setToolTip(tr("Previous recorded refresh"));
    forward_->setArrowType(Qt::RightArrow);
    forward_->setToolTip(tr("Next recorded refresh"));
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (v >= 0 && v < int(times_.size()))
            seek(times_[size_t(v)]);
    });
    connect(slider_, &QSlider::sliderMoved, this, [this](int v) {
        if (v >= 0 && v < int(times_.size()))
            updateText(times_[size_t(v)]);
    });
    connect(back_, &QToolButton::clicked, this, [this] { slider_->setValue(slider_->value() - 1); });
    connect(forward_, &QToolButton::clicked, this, [this] { slider_->setValue(slider_->value() + 1); });

    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(8, 4, 8, 4);
    lay->addWidget(text_);
    lay->addWidget(back_);
    lay->addWidget(slider_, 1);
    lay->addWidget(forward_);
    if (!times_.empty())
        seek(times_.back());
    else
        updateText(0);
}

RecordedBar::~RecordedBar() = default;

void RecordedBar::updateText(double t)
{
    const QString source = QFileInfo(monitor_->recordedSource()).fileName();
    text_->setText(times_.empty() ? tr("Recorded, not live — %1 — nothing recorded").arg(source)
                                  : tr("Recorded, not live — %1 — %2").arg(source, formatServerTime(t)));
}

void RecordedBar::seek(double t)
{
    if (times_.empty())
        return;
    // The last refresh at or before t (the first one before the range).
    auto it = std::upper_bound(times_.begin(), times_.end(), t);
    const int index = std::max(0, int(it - times_.begin()) - 1);
    const double target = times_[size_t(index)];
    auto apply = [this](const Snapshot& s) {
        monitor_->showRecorded(s);
        return true;
    };
    const double current = monitor_->recordedTime();
    if (current > 0 && target >= current && target - current <= warmupS_) {
        if (target > current)
            reader_->forEachSnapshot(std::nextafter(current, std::numeric_limits<double>::infinity()), target,
                                     apply);
    } else {
        monitor_->resetRecorded();
        reader_->forEachSnapshot(target - warmupS_, target, apply);
    }
    shown_ = target;
    {
        const QSignalBlocker b(slider_);
        slider_->setValue(index);
    }
    back_->setEnabled(index > 0);
    forward_->setEnabled(index + 1 < int(times_.size()));
    updateText(target);
    Q_EMIT shown(target);
}

} // namespace lw::ui
