#pragma once
// PgBouncer seen from the GUI thread: a worker thread owns the admin-console connection and
// refreshes once per interval (the next refresh is scheduled when the previous one finished);
// snapshots come back queued and feed the pools model and the history. Results of an older
// configuration are dropped by generation. The monitor also joins PgBouncer's server slots with the
// monitored cluster's advisory locks (see slotHolds): with each of its own refreshes against the
// cluster's latest snapshot, and again whenever the cluster's monitor refreshes.
#include "pgbouncer/PgBouncerPoolModel.h"
#include "pgbouncer/PgBouncerSource.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <functional>

class QTimer;

namespace lw {
class Monitor;
}

namespace lw::bouncer {

// Lives on the worker thread.
class BouncerWorker : public QObject
{
    Q_OBJECT
public:
    explicit BouncerWorker(BouncerConfig cfg, quint64 generation, QObject* parent = nullptr);
    // Thread-safe, one-way: a connect or refresh in progress gives up within ~50 ms.
    void requestStop() { stopRequested_.store(true); }

public Q_SLOTS:
    void start();
    void stop();
    void setPaused(bool paused);

Q_SIGNALS:
    void snapshotReady(const lw::bouncer::BouncerSnapshot& s);

private:
    void loop();
    int nextBackoffMs();

    PgBouncerSource source_;
    quint64 generation_;
    QTimer* timer_ = nullptr;
    bool running_ = false;
    bool paused_ = false;
    int failures_ = 0;
    quint64 jitter_;
    std::atomic<bool> stopRequested_{false};
};

class PgBouncerMonitor : public QObject
{
    Q_OBJECT
public:
    explicit PgBouncerMonitor(BouncerConfig cfg, QObject* parent = nullptr);
    ~PgBouncerMonitor() override; // stops the worker and closes the connection

    PgBouncerPoolModel* pools() { return &pools_; }
    const BouncerHistory& history() const { return history_; }
    const BouncerSnapshot& lastSnapshot() const { return last_; }
    // The last successful snapshot (what the model and the charts show while PgBouncer is away).
    const BouncerSnapshot& lastGoodSnapshot() const { return lastGood_; }
    const BouncerConfig& config() const { return cfg_; }
    // Slots holding advisory locks, from the latest join, and their findings (worst first).
    const std::vector<SlotHold>& holds() const { return holds_; }
    std::vector<Finding> findings() const;

    // Where the cluster's latest snapshot is read at each PgBouncer refresh (e.g. Monitor::lastSnapshot).
    void setClusterSnapshotSource(std::function<const Snapshot&()> latest);
    // Joins the last PgBouncer snapshot with a new cluster snapshot (connect Monitor::refreshed here).
    void joinClusterSnapshot(const lw::Snapshot& s);
    // Companion of `cluster` (its window's): joins each of its refreshes and reports the slots'
    // findings into its findings (the Overview, the alerts) as source "pgbouncer".
    void accompany(Monitor* cluster);

    void start();
    void setPaused(bool paused);
    // A new worker; snapshots still in flight from the old one are dropped.
    void reconfigure(BouncerConfig cfg);

Q_SIGNALS:
    void refreshed(const lw::bouncer::BouncerSnapshot& s);
    void holdsChanged();

private:
    void onSnapshot(const BouncerSnapshot& s);
    void startWorker();
    void stopWorker();

    BouncerConfig cfg_;
    quint64 generation_ = 0;
    QThread thread_;
    QPointer<BouncerWorker> worker_;
    PgBouncerPoolModel pools_;
    BouncerHistory history_;
    BouncerSnapshot last_;
    BouncerSnapshot lastGood_;
    std::function<const Snapshot&()> cluster_;
    std::vector<SlotHold> holds_;
    bool paused_ = false;
};

} // namespace lw::bouncer
