#pragma once
// One monitored database, seen from the GUI thread: owns the polling worker thread and the models,
// hands each refresh's snapshot to the models, and drops results of an older configuration.
#include "domain/RefreshJudge.h"
#include "itemmodels/LeaseModel.h"
#include "itemmodels/LocksModels.h"
#include "Poller.h"
#include "domain/Outage.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <deque>
#include <map>
#include <memory>
#include <vector>

class QTimer;

namespace lw {

class HistoryRecorder;

class Monitor : public QObject
{
    Q_OBJECT
public:
    explicit Monitor(PollerConfig cfg, QObject* parent = nullptr);
    ~Monitor() override; // stops the worker and closes the connection

    LeaseModel* leases() { return &leases_; }
    AdvisoryLockModel* locks() { return &locks_; }
    BlockingTreeModel* blocking() { return &blocking_; }
    FindingsModel* findings() { return &findings_; }
    const FindingsModel* findings() const { return &findings_; }
    // The one judge of this database's refreshes: its leases, deadlocks, holders and findings.
    const RefreshJudge& judge() const { return judge_; }
    const DeadlockWindow& deadlocks() const { return judge_.deadlocks(); }
    const HolderPresence& holderPresence() const { return judge_.presence(); }
    // Every refresh into `r`, with what this Monitor's tracker saw change and its own findings
    // (collectFindings: no companion's, no outage card): the history records what the window
    // showed. Disconnect the returned connection to stop.
    QMetaObject::Connection recordInto(HistoryRecorder* r);
    const Snapshot& lastSnapshot() const { return last_; }
    // Whether any refresh succeeded yet: "disconnected" (data from before) or never connected.
    bool hasRefreshed() const { return refreshedOk_; }
    const ConnectionStatus& status() const { return status_; }
    // The server is not answering now (live monitoring, after at least one good refresh): what
    // happened, since when, what the console does. The Overview's first line, the tray, the logs.
    std::optional<OutageView> outage() const;
    double lastAnswerServerTime() const { return lastGoodServerNow_; } // server time of the last good refresh
    const PollerConfig& config() const { return cfg_; }
    bool isPaused() const { return paused_; }

    void start();
    void setPaused(bool paused);
    void setIntervalMs(int ms);
    // Applies a new configuration: a new worker; results still in flight from the old one are dropped.
    void reconfigure(PollerConfig cfg);
    // Findings of a companion source (the PgBouncer join) shown with the database's own, worst
    // first, in findings() (the Overview, the alerts): replaces `source`'s previous list.
    void setExternalFindings(const QString& source, std::vector<Finding> findings);

    // ---- Recorded data (issue 9): a Monitor without a poller ------------------------------------
    // Never connects: showRecorded() hands recorded snapshots to the models through onSnapshot(),
    // the path of live refreshes. Countdowns are frozen at the recorded instant. `source` names what
    // is shown (the bundle or store file) for the "recorded, not live" banner. start() does nothing.
    static std::unique_ptr<Monitor> recorded(PollerConfig cfg, const QString& source, QObject* parent = nullptr);
    bool isRecorded() const { return recorded_; }
    QString recordedSource() const { return recordedSource_; }
    double recordedTime() const { return recordedTime_; } // server time of the snapshot shown, 0 before any
    void showRecorded(const Snapshot& s);
    // Forgets what the models inferred from earlier snapshots (TTLs, takeovers, findings' "since"),
    // before jumping back in time; replay a warm-up stretch before the target afterwards.
    void resetRecorded();

Q_SIGNALS:
    void refreshed(const lw::Snapshot& s);
    void statusChanged(const lw::ConnectionStatus& st);
    // Twice a second while the server is not answering (its duration moves), and once when it answers.
    void outageChanged();
    // A large first read of the leases is in the model (LeaseModel::filled) and the findings now
    // include the leases'.
    void leasesFilled();

private:
    void onSnapshot(const Snapshot& s);
    void onStatus(const ConnectionStatus& st);
    void onLeasesFilled();
    void publishFindings();
    void updateOutage(); // the outage card and the "as of" mark, on each status and tick
    void applyLeaseRules(); // the profile's lease policy and writer clock, to the judge
    void startWorker();
    void stopWorker();

    PollerConfig cfg_;
    quint64 generation_ = 0;
    QThread thread_;
    QPointer<Poller> poller_;
    RefreshJudge judge_; // before the models that view it
    LeaseModel leases_;
    AdvisoryLockModel locks_;
    BlockingTreeModel blocking_;
    FindingsModel findings_;
    std::map<QString, std::vector<Finding>> external_;    // by source
    Snapshot last_;
    std::deque<Snapshot> deferred_; // refreshes that came while the leases were loading (a few)
    bool refreshedOk_ = false;
    double lastGoodServerNow_ = 0; // server time of the last good refresh
    QDateTime lastGoodWall_;       // … and when it arrived (local wall time)
    std::shared_ptr<const Analysis> lastGoodAnalysis_;
    DbError outageBegan_;      // the failure that ended the last good stretch
    std::optional<Finding> outageFinding_;
    ConnectionStatus status_;
    QTimer* ticker_ = nullptr;
    bool paused_ = false;

    struct RecordedTag
    {
    };
    Monitor(PollerConfig cfg, RecordedTag, QObject* parent);
    bool recorded_ = false;
    QString recordedSource_;
    double recordedTime_ = 0;
    static constexpr qint64 kRecordedClockMs = 1; // the frozen monotonic clock of a recorded Monitor
};

} // namespace lw
