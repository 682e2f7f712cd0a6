#include "DatabaseWatch.h"
#include "WorkerThread.h"

#include "domain/RefreshJudge.h"
#include "store/HistoryWriter.h"

#include <QTimer>

namespace lw {

DatabaseWatch::DatabaseWatch(PollerConfig cfg, QObject* parent)
    : QObject(parent), cfg_(std::move(cfg)),
      judge_(std::make_unique<RefreshJudge>(leasePolicyFor(cfg_), cfg_.leases.writerUsesAppClock))
{
    qRegisterMetaType<lw::Snapshot>();
    qRegisterMetaType<lw::ConnectionStatus>();
    // The outage's duration moves between refreshes; twice a second keeps its line current.
    ticker_ = new QTimer(this);
    ticker_->setInterval(500);
    connect(ticker_, &QTimer::timeout, this, &DatabaseWatch::updateOutage);
    thread_.setObjectName(QStringLiteral("leasewatch-poller"));
}

DatabaseWatch::DatabaseWatch(PollerConfig cfg, Recorded, QObject* parent)
    : QObject(parent), cfg_(std::move(cfg)),
      judge_(std::make_unique<RefreshJudge>([] { return kRecordedClockMs; })), recorded_(true)
{
    qRegisterMetaType<lw::Snapshot>();
    qRegisterMetaType<lw::ConnectionStatus>();
    applyLeaseRules();
}

DatabaseWatch::~DatabaseWatch()
{
    stopWorker();
}

void DatabaseWatch::startWorker()
{
    ++generation_;
    if (feed_.isSet()) {
        auto* f = new feed::FeedClient(feed_, cfg_, generation_);
        connect(f, &feed::FeedClient::snapshotReady, this, &DatabaseWatch::onSnapshot, Qt::QueuedConnection);
        connect(f, &feed::FeedClient::statusChanged, this, &DatabaseWatch::onStatus, Qt::QueuedConnection);
        connect(
            f, &feed::FeedClient::greeted, this, [this](const feed::Hello& h) { feedRecorder_ = h; },
            Qt::QueuedConnection);
        feedClient_ = f;
        launchWorker(thread_, f, paused_);
        return;
    }
    auto* p = new Poller(cfg_, generation_);
    connect(p, &Poller::snapshotReady, this, &DatabaseWatch::onSnapshot, Qt::QueuedConnection);
    connect(p, &Poller::statusChanged, this, &DatabaseWatch::onStatus, Qt::QueuedConnection);
    poller_ = p;
    launchWorker(thread_, p, paused_);
}

void DatabaseWatch::stopWorker()
{
    if (!thread_.isRunning())
        return;
    if (poller_) {
        // Thread-safe flag: a connect or refresh stuck on a hung server gives up within ~50 ms,
        // so closing the window never waits for a deadline.
        poller_->requestStop();
        QMetaObject::invokeMethod(poller_.data(), &Poller::stop, Qt::QueuedConnection);
    }
    if (feedClient_) {
        feedClient_->requestStop();
        QMetaObject::invokeMethod(feedClient_.data(), &feed::FeedClient::stop, Qt::QueuedConnection);
    }
    thread_.quit();
    thread_.wait();
    poller_.clear();
    feedClient_.clear();
}

void DatabaseWatch::start()
{
    if (recorded_)
        return; // nothing to poll
    startWorker();
    ticker_->start();
}

void DatabaseWatch::setPaused(bool paused)
{
    paused_ = paused;
    if (poller_)
        QMetaObject::invokeMethod(
            poller_.data(), [p = poller_.data(), paused] { p->setPaused(paused); }, Qt::QueuedConnection);
    if (feedClient_)
        QMetaObject::invokeMethod(
            feedClient_.data(), [f = feedClient_.data(), paused] { f->setPaused(paused); }, Qt::QueuedConnection);
}

void DatabaseWatch::setIntervalMs(int ms)
{
    cfg_.intervalMs = ms;
    judge_->setPolicy(leasePolicyFor(cfg_));
    if (poller_)
        QMetaObject::invokeMethod(
            poller_.data(), [p = poller_.data(), ms] { p->setIntervalMs(ms); }, Qt::QueuedConnection);
}

void DatabaseWatch::reconfigure(PollerConfig cfg)
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

void DatabaseWatch::applyLeaseRules()
{
    judge_->setPolicy(leasePolicyFor(cfg_));
    judge_->setWriterUsesAppClock(cfg_.leases.writerUsesAppClock);
}

void DatabaseWatch::onSnapshot(const Snapshot& s)
{
    if (s.generation != generation_)
        return; // from a worker of an older configuration
    if (judge_->rowsLoading()) {
        // The views move together: these go in, in order, once every lease is (the history
        // records each). Only a few: a fill takes seconds, a refresh at least one.
        deferred_.push_back(s);
        if (deferred_.size() > 8)
            deferred_.pop_front();
        return;
    }
    last_ = s;
    refreshedOk_ = refreshedOk_ || s.ok;
    judge_->apply(s);
    if (s.ok) {
        lastGoodServerNow_ = s.serverNow;
        lastGoodWall_ = QDateTime::currentDateTime();
        lastGoodAnalysis_ = s.analysis;
        lastGoodServer_ = s.server;
        outageBegan_ = {};
        outageFinding_.reset();
        publishFindings();
    } else if (!outageBegan_.isError()) {
        outageBegan_ = s.error;
    }
    Q_EMIT refreshed(s);
    updateOutage();
}

void DatabaseWatch::rowsLoaded()
{
    // The refresh that brought the rows had no lease findings yet: now it has.
    judge_->rowsLoaded(last_);
    if (last_.ok)
        publishFindings();
    // Not from within the view's signal: onSnapshot() applies to the view again.
    QMetaObject::invokeMethod(
        this,
        [this] {
            while (!deferred_.empty() && !judge_->rowsLoading()) {
                const Snapshot s = std::move(deferred_.front());
                deferred_.pop_front();
                onSnapshot(s);
            }
        },
        Qt::QueuedConnection);
}

QMetaObject::Connection DatabaseWatch::recordInto(HistoryRecorder* r)
{
    return connect(this, &DatabaseWatch::refreshed, r,
                   [this, r](const Snapshot& s) { r->record(s, judge_->leases(), judge_->findings()); });
}

void DatabaseWatch::setExternalFindings(const QString& source, std::vector<Finding> findings)
{
    external_[source] = std::move(findings);
    if (last_.ok)
        publishFindings(); // else with the next good refresh: "since" needs the server's clock
}

void DatabaseWatch::publishFindings()
{
    std::vector<Finding> all = judge_->findings();
    for (const auto& [source, list] : external_)
        all.insert(all.end(), list.begin(), list.end());
    if (outageFinding_)
        all.push_back(*outageFinding_);
    sortWorstFirst(all);
    findings_ = std::move(all);
    Q_EMIT findingsChanged();
}

std::optional<OutageView> DatabaseWatch::outage() const
{
    if (recorded_ || !refreshedOk_)
        return std::nullopt;
    const bool live = status_.state == ConnectionStatus::State::Connected && last_.ok;
    if (live)
        return std::nullopt;
    // Only a failure that lost the server is an outage: not a reconnect after a reconfigure (nothing
    // failed), not a statement error on a connection that still answers.
    const DbError& failed = status_.error.isError() ? status_.error : last_.ok ? outageBegan_ : last_.error;
    if (!failed.isError() ||
        (status_.state == ConnectionStatus::State::Connected && !failed.needsReconnect()))
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
    o.role = lastGoodServer_.user;
    o.serverVersionNum = lastGoodServer_.versionNum;
    return o;
}

void DatabaseWatch::updateOutage()
{
    const std::optional<OutageView> o = outage();
    const bool was = asOf_.has_value();
    asOf_ = o ? std::optional<double>(lastGoodServerNow_) : std::nullopt;
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

void DatabaseWatch::onStatus(const ConnectionStatus& st)
{
    status_ = st;
    if (st.state != ConnectionStatus::State::Connected && !outageBegan_.isError() && st.error.isError())
        outageBegan_ = st.error;
    updateOutage();
    Q_EMIT statusChanged(st);
}

void DatabaseWatch::showRecorded(const Snapshot& recordedSnapshot)
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

void DatabaseWatch::resetRecorded()
{
    if (!recorded_)
        return;
    judge_->restart();
    findings_.clear();
    last_ = Snapshot();
    recordedTime_ = 0;
    Q_EMIT findingsChanged();
}

} // namespace lw
