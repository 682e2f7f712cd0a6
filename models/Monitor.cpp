#include "Monitor.h"

#include "store/HistoryWriter.h"

#include <QTimer>

namespace lw {

Monitor::Monitor(PollerConfig cfg, QObject* parent)
    : QObject(parent), cfg_(std::move(cfg)), judge_(leasePolicyFor(cfg_), cfg_.leases.writerUsesAppClock),
      leases_(judge_, this), locks_(this), blocking_(this), findings_(this)
{
    qRegisterMetaType<lw::Snapshot>();
    qRegisterMetaType<lw::ConnectionStatus>();
    // Countdowns tick on local monotonic time between refreshes; twice a second keeps them smooth.
    ticker_ = new QTimer(this);
    ticker_->setInterval(500);
    connect(ticker_, &QTimer::timeout, &leases_, &LeaseModel::tick);
    connect(ticker_, &QTimer::timeout, this, &Monitor::updateOutage);
    connect(&leases_, &LeaseModel::filled, this, &Monitor::onLeasesFilled);
    thread_.setObjectName(QStringLiteral("leasewatch-poller"));
}

Monitor::~Monitor()
{
    stopWorker();
}

void Monitor::startWorker()
{
    ++generation_;
    auto* p = new Poller(cfg_, generation_);
    p->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, p, &QObject::deleteLater);
    connect(p, &Poller::snapshotReady, this, &Monitor::onSnapshot, Qt::QueuedConnection);
    connect(p, &Poller::statusChanged, this, &Monitor::onStatus, Qt::QueuedConnection);
    poller_ = p;
    if (!thread_.isRunning())
        thread_.start();
    QMetaObject::invokeMethod(p, &Poller::start, Qt::QueuedConnection);
    if (paused_)
        QMetaObject::invokeMethod(
            p, [p] { p->setPaused(true); }, Qt::QueuedConnection);
}

void Monitor::stopWorker()
{
    if (!thread_.isRunning())
        return;
    if (poller_) {
        // Thread-safe flag: a connect or refresh stuck on a hung server gives up within ~50 ms,
        // so closing the window never waits for a deadline.
        poller_->requestStop();
        QMetaObject::invokeMethod(poller_.data(), &Poller::stop, Qt::QueuedConnection);
    }
    thread_.quit();
    thread_.wait();
    poller_.clear();
}

void Monitor::start()
{
    if (recorded_)
        return; // nothing to poll
    leases_.setFillInBackground(true);
    startWorker();
    ticker_->start();
}

void Monitor::setPaused(bool paused)
{
    paused_ = paused;
    if (poller_)
        QMetaObject::invokeMethod(
            poller_.data(), [p = poller_.data(), paused] { p->setPaused(paused); }, Qt::QueuedConnection);
}

void Monitor::setIntervalMs(int ms)
{
    cfg_.intervalMs = ms;
    judge_.setPolicy(leasePolicyFor(cfg_));
    if (poller_)
        QMetaObject::invokeMethod(
            poller_.data(), [p = poller_.data(), ms] { p->setIntervalMs(ms); }, Qt::QueuedConnection);
}

void Monitor::reconfigure(PollerConfig cfg)
{
    if (recorded_) {
        cfg_ = std::move(cfg);
        applyLeaseRules();
        return;
    }
    stopWorker();
    cfg_ = std::move(cfg);
    applyLeaseRules();
    outageBegan_ = {}; // a new connection: nothing has failed yet
    startWorker();
}

void Monitor::applyLeaseRules()
{
    judge_.setPolicy(leasePolicyFor(cfg_));
    judge_.setWriterUsesAppClock(cfg_.leases.writerUsesAppClock);
}

void Monitor::onSnapshot(const Snapshot& s)
{
    if (s.generation != generation_)
        return; // from a worker of an older configuration
    if (judge_.rowsLoading()) {
        // The models move together: these go in, in order, once every lease is (the history
        // records each). Only a few: a fill takes seconds, a refresh at least one.
        deferred_.push_back(s);
        if (deferred_.size() > 8)
            deferred_.pop_front();
        return;
    }
    last_ = s;
    refreshedOk_ = refreshedOk_ || s.ok;
    judge_.apply(s);
    locks_.applySnapshot(s);
    blocking_.applySnapshot(s);
    if (s.ok) {
        lastGoodServerNow_ = s.serverNow;
        lastGoodWall_ = QDateTime::currentDateTime();
        lastGoodAnalysis_ = s.analysis;
        outageBegan_ = {};
        outageFinding_.reset();
        publishFindings();
    } else if (!outageBegan_.isError()) {
        outageBegan_ = s.error;
    }
    Q_EMIT refreshed(s);
    updateOutage();
}

void Monitor::onLeasesFilled()
{
    // The refresh that brought the rows had no lease findings yet: now it has.
    judge_.rowsLoaded(last_);
    if (last_.ok)
        publishFindings();
    Q_EMIT leasesFilled();
    // Not from within the model's signal: onSnapshot() applies to the model again.
    QMetaObject::invokeMethod(
        this,
        [this] {
            while (!deferred_.empty() && !judge_.rowsLoading()) {
                const Snapshot s = std::move(deferred_.front());
                deferred_.pop_front();
                onSnapshot(s);
            }
        },
        Qt::QueuedConnection);
}

QMetaObject::Connection Monitor::recordInto(HistoryRecorder* r)
{
    return connect(this, &Monitor::refreshed, r,
                   [this, r](const Snapshot& s) { r->record(s, judge_.leases(), judge_.findings()); });
}

void Monitor::setExternalFindings(const QString& source, std::vector<Finding> findings)
{
    external_[source] = std::move(findings);
    if (last_.ok)
        publishFindings(); // else with the next good refresh: "since" needs the server's clock
}

void Monitor::publishFindings()
{
    std::vector<Finding> all = judge_.findings();
    for (const auto& [source, list] : external_)
        all.insert(all.end(), list.begin(), list.end());
    if (outageFinding_)
        all.push_back(*outageFinding_);
    sortWorstFirst(all);
    findings_.setFindings(all, lastGoodServerNow_);
}

std::optional<OutageView> Monitor::outage() const
{
    if (recorded_ || !refreshedOk_)
        return std::nullopt;
    const bool live = status_.state == ConnectionStatus::State::Connected && last_.ok;
    if (live)
        return std::nullopt;
    // Only a failure that lost the server is an outage: not a reconnect after a reconfigure (nothing
    // failed), not a statement error on a connection that still answers.
    const DbError& failed = status_.error.isError() ? status_.error : last_.ok ? outageBegan_ : last_.error;
    if (!failed.isError() || (status_.state == ConnectionStatus::State::Connected && !failed.needsReconnect()))
        return std::nullopt;
    OutageView o;
    o.since = lastGoodWall_.isValid() ? lastGoodWall_
                                      : (status_.outageSince.isValid() ? status_.outageSince : status_.since);
    o.now = QDateTime::currentDateTime();
    o.began = outageBegan_.isError() ? outageBegan_ : status_.error;
    o.error = status_.error.isError() ? status_.error : last_.error;
    o.reconnectingNow = status_.state == ConnectionStatus::State::Connecting;
    if (status_.state == ConnectionStatus::State::Disconnected && status_.retryInMs > 0)
        o.nextAttempt = status_.since.addMSecs(status_.retryInMs);
    o.refreshDeadlineMs = cfg_.refreshDeadlineMs;
    if (const auto& a = lastGoodAnalysis_) {
        o.connectionsUsed = a->connectionsUsed;
        o.connectionBudget = a->connectionBudget;
    }
    return o;
}

void Monitor::updateOutage()
{
    const std::optional<OutageView> o = outage();
    const bool was = findings_.asOf().has_value();
    findings_.setAsOf(o ? std::optional<double>(lastGoodServerNow_) : std::nullopt);
    if (o || was)
        Q_EMIT outageChanged();
    std::optional<Finding> f = o ? outageFinding(*o, cfg_.analysis.thresholds.notAnsweringS) : std::nullopt;
    if (f) // its card says since the last answer, in the server's clock like every other card
        f->sinceServer = lastGoodServerNow_;
    if (f == outageFinding_)
        return;
    outageFinding_ = std::move(f);
    publishFindings();
}

void Monitor::onStatus(const ConnectionStatus& st)
{
    status_ = st;
    leases_.setLive(st.state == ConnectionStatus::State::Connected && last_.ok);
    if (st.state != ConnectionStatus::State::Connected && !outageBegan_.isError() && st.error.isError())
        outageBegan_ = st.error;
    updateOutage();
    Q_EMIT statusChanged(st);
}

// ---- Recorded data (issue 9) ---------------------------------------------------------------------

Monitor::Monitor(PollerConfig cfg, RecordedTag, QObject* parent)
    : QObject(parent), cfg_(std::move(cfg)), judge_([] { return kRecordedClockMs; }), leases_(judge_, this),
      locks_(this), blocking_(this), findings_(this), recorded_(true)
{
    qRegisterMetaType<lw::Snapshot>();
    qRegisterMetaType<lw::ConnectionStatus>();
    applyLeaseRules();
}

std::unique_ptr<Monitor> Monitor::recorded(PollerConfig cfg, const QString& source, QObject* parent)
{
    std::unique_ptr<Monitor> m(new Monitor(std::move(cfg), RecordedTag{}, parent));
    m->recordedSource_ = source;
    return m;
}

void Monitor::showRecorded(const Snapshot& recordedSnapshot)
{
    if (!recorded_)
        return;
    Snapshot s = recordedSnapshot;
    s.generation = generation_;
    // serverNowEstimate() = serverNow + (clock − received): with both frozen, exactly the recorded now.
    s.receivedMonotonicMs = kRecordedClockMs;
    recordedTime_ = s.serverNow;
    onSnapshot(s);
    ConnectionStatus st;
    st.state = s.ok ? ConnectionStatus::State::Connected : ConnectionStatus::State::Disconnected;
    st.error = s.error;
    st.since = s.receivedWall;
    st.server = s.server;
    onStatus(st);
}

void Monitor::resetRecorded()
{
    if (!recorded_)
        return;
    judge_.restart();
    Snapshot empty;
    empty.ok = true;
    empty.receivedMonotonicMs = kRecordedClockMs;
    empty.analysis = std::make_shared<const Analysis>();
    locks_.applySnapshot(empty);
    blocking_.applySnapshot(empty);
    findings_.setFindings({}, 0);
    last_ = Snapshot();
    recordedTime_ = 0;
}

} // namespace lw
