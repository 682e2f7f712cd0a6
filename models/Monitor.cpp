#include "Monitor.h"

#include "domain/RefreshJudge.h"
#include "itemmodels/LeaseModel.h"

#include <QTimer>

namespace lw {

Monitor::Monitor(PollerConfig cfg, QObject* parent)
    : QObject(parent), watch_(std::move(cfg)), leases_(std::make_unique<LeaseModel>(watch_.judge(), this)),
      locks_(this), blocking_(this), findings_(this)
{
    connectModels();
}

Monitor::Monitor(PollerConfig cfg, DatabaseWatch::Recorded r, QObject* parent)
    : QObject(parent), watch_(std::move(cfg), r), leases_(std::make_unique<LeaseModel>(watch_.judge(), this)),
      locks_(this), blocking_(this), findings_(this)
{
    connectModels();
}

const HolderPresence& Monitor::holderPresence() const
{
    return judge().presence();
}

const FlagLockWatch& Monitor::flagLocks() const
{
    return judge().flags();
}

Monitor::~Monitor() = default; // the watch stops its worker before the models go

void Monitor::connectModels()
{
    // Countdowns tick on local monotonic time between refreshes; twice a second keeps them smooth.
    ticker_ = new QTimer(this);
    ticker_->setInterval(500);
    connect(ticker_, &QTimer::timeout, leases_.get(), &LeaseModel::tick);
    // The watch publishes its findings before it says refreshed: the models are in step by then.
    connect(&watch_, &DatabaseWatch::findingsChanged, this,
            [this] { findings_.setFindings(watch_.findings(), watch_.lastAnswerServerTime()); });
    connect(&watch_, &DatabaseWatch::refreshed, this, [this](const Snapshot& s) {
        locks_.applySnapshot(s);
        blocking_.applySnapshot(s);
        Q_EMIT refreshed(s);
    });
    connect(&watch_, &DatabaseWatch::outageChanged, this, [this] {
        findings_.setAsOf(watch_.findingsAsOf());
        Q_EMIT outageChanged();
    });
    connect(&watch_, &DatabaseWatch::statusChanged, this, [this](const ConnectionStatus& st) {
        leases_->setLive(st.state == ConnectionStatus::State::Connected && watch_.lastSnapshot().ok);
        Q_EMIT statusChanged(st);
    });
    connect(leases_.get(), &LeaseModel::filled, this, [this] {
        watch_.rowsLoaded();
        Q_EMIT leasesFilled();
    });
}

void Monitor::start()
{
    if (watch_.isRecorded())
        return; // nothing to poll
    leases_->setFillInBackground(true);
    watch_.start();
    ticker_->start();
}

std::unique_ptr<Monitor> Monitor::recorded(PollerConfig cfg, const QString& source, QObject* parent)
{
    std::unique_ptr<Monitor> m(new Monitor(std::move(cfg), DatabaseWatch::Recorded{}, parent));
    m->recordedSource_ = source;
    return m;
}

void Monitor::resetRecorded()
{
    if (!watch_.isRecorded())
        return;
    watch_.resetRecorded(); // its findingsChanged empties the Findings model
    Snapshot empty;
    empty.ok = true;
    empty.receivedMonotonicMs = 1; // the recorded watch's frozen clock
    empty.analysis = std::make_shared<const Analysis>();
    locks_.applySnapshot(empty);
    blocking_.applySnapshot(empty);
}

} // namespace lw
