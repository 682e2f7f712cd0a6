#include "PgBouncerMonitor.h"

#include "Monitor.h"
#include "WorkerThread.h"
#include "domain/Findings.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace lw::bouncer {

BouncerWorker::BouncerWorker(BouncerConfig cfg, quint64 generation, QObject* parent)
    : QObject(parent), source_(std::move(cfg)), generation_(generation),
      jitter_(quint64(monotonicMs()) ^ (generation * 0x9e3779b97f4a7c15ULL))
{
    source_.setAbortFlag(&stopRequested_);
}

void BouncerWorker::start()
{
    running_ = true;
    if (!timer_) {
        timer_ = new QTimer(this);
        timer_->setSingleShot(true);
        connect(timer_, &QTimer::timeout, this, &BouncerWorker::loop);
    }
    timer_->start(0);
}

void BouncerWorker::stop()
{
    running_ = false;
    if (timer_)
        timer_->stop();
    source_.close();
}

void BouncerWorker::setPaused(bool paused)
{
    paused_ = paused;
    if (!paused_ && running_ && timer_ && !timer_->isActive())
        timer_->start(0);
}

int BouncerWorker::nextBackoffMs()
{
    // Exponential with jitter in [base/2, base], as the cluster's poller reconnects.
    const BouncerConfig& c = source_.config();
    const double base = std::min<double>(c.backoffMaxMs, c.backoffInitialMs * std::pow(2.0, failures_++));
    jitter_ = jitter_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return int(base / 2 + double(jitter_ >> 11) / double(1ULL << 53) * base / 2);
}

void BouncerWorker::loop()
{
    if (!running_ || paused_ || stopRequested_.load())
        return;
    const qint64 started = monotonicMs();
    BouncerSnapshot s = source_.refreshOnce();
    s.generation = generation_;
    Q_EMIT snapshotReady(s);
    if (!s.ok && s.error.needsReconnect()) {
        source_.close();
        timer_->start(nextBackoffMs());
        return;
    }
    failures_ = 0;
    const int interval = source_.config().intervalMs;
    timer_->start(int(std::max<qint64>(interval - (monotonicMs() - started), interval / 4)));
}

PgBouncerMonitor::PgBouncerMonitor(BouncerConfig cfg, QObject* parent)
    : QObject(parent), cfg_(std::move(cfg)), pools_(this)
{
    qRegisterMetaType<lw::bouncer::BouncerSnapshot>();
    thread_.setObjectName(QStringLiteral("leasewatch-pgbouncer"));
}

PgBouncerMonitor::~PgBouncerMonitor()
{
    stopWorker();
}

void PgBouncerMonitor::startWorker()
{
    ++generation_;
    auto* w = new BouncerWorker(cfg_, generation_);
    connect(w, &BouncerWorker::snapshotReady, this, &PgBouncerMonitor::onSnapshot, Qt::QueuedConnection);
    worker_ = w;
    launchWorker(thread_, w, paused_);
}

void PgBouncerMonitor::stopWorker()
{
    if (!thread_.isRunning())
        return;
    if (worker_) {
        worker_->requestStop();
        QMetaObject::invokeMethod(worker_.data(), &BouncerWorker::stop, Qt::QueuedConnection);
    }
    thread_.quit();
    thread_.wait();
    worker_.clear();
}

void PgBouncerMonitor::start()
{
    startWorker();
}

void PgBouncerMonitor::setPaused(bool paused)
{
    paused_ = paused;
    if (worker_)
        QMetaObject::invokeMethod(
            worker_.data(), [w = worker_.data(), paused] { w->setPaused(paused); }, Qt::QueuedConnection);
}

void PgBouncerMonitor::reconfigure(BouncerConfig cfg)
{
    stopWorker();
    cfg_ = std::move(cfg);
    startWorker();
}

void PgBouncerMonitor::onSnapshot(const BouncerSnapshot& s)
{
    if (s.generation != generation_)
        return; // from the worker of an older configuration
    last_ = s;
    if (s.ok) {
        lastGood_ = s;
        history_.add(s);
        if (cluster_)
            holds_ = slotHolds(s, cluster_());
        pools_.applySnapshot(s, holds_);
    }
    Q_EMIT refreshed(s);
    if (s.ok)
        Q_EMIT holdsChanged();
}

void PgBouncerMonitor::setClusterSnapshotSource(std::function<const Snapshot&()> latest)
{
    cluster_ = std::move(latest);
}

void PgBouncerMonitor::joinClusterSnapshot(const Snapshot& s)
{
    // A failed cluster refresh says nothing new about the locks: keep the last join.
    if (!s.ok || !lastGood_.ok)
        return;
    holds_ = slotHolds(lastGood_, s);
    pools_.applyHolds(holds_);
    Q_EMIT holdsChanged();
}

void PgBouncerMonitor::accompany(Monitor* cluster)
{
    setClusterSnapshotSource([cluster]() -> const Snapshot& { return cluster->lastSnapshot(); });
    connect(cluster, &Monitor::refreshed, this, &PgBouncerMonitor::joinClusterSnapshot);
    connect(this, &PgBouncerMonitor::holdsChanged, cluster,
            [this, cluster] { cluster->setExternalFindings(QStringLiteral("pgbouncer"), findings()); });
}

std::vector<Finding> PgBouncerMonitor::findings() const
{
    std::vector<Finding> f = slotFindings(holds_);
    sortWorstFirst(f);
    return f;
}

} // namespace lw::bouncer
