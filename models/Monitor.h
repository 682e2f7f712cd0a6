#pragma once
// One monitored database, seen from the GUI thread: a DatabaseWatch (the polling worker, the one
// judge, the outage) with the item models over it, which it keeps in step with each refresh.
#include "DatabaseWatch.h"
#include "itemmodels/LocksModels.h"

#include <QObject>

#include <memory>
#include <vector>

class QTimer;

namespace lw {

class HistoryRecorder;
class LeaseModel; // by pointer: a view that shows no lease rows need not rebuild with the lease rules
class HolderPresence;
class FlagLockWatch;

class Monitor : public QObject
{
    Q_OBJECT
public:
    explicit Monitor(PollerConfig cfg, QObject* parent = nullptr);
    ~Monitor() override; // stops the worker and closes the connection

    LeaseModel* leases() { return leases_.get(); }
    AdvisoryLockModel* locks() { return &locks_; }
    BlockingTreeModel* blocking() { return &blocking_; }
    FindingsModel* findings() { return &findings_; }
    const FindingsModel* findings() const { return &findings_; }
    // What the models view: the poller, the judge of this database's refreshes, the outage.
    const DatabaseWatch& watch() const { return watch_; }
    const RefreshJudge& judge() const { return watch_.judge(); }
    const HolderPresence& holderPresence() const;
    const FlagLockWatch& flagLocks() const;
    // Every refresh into `r` (DatabaseWatch::recordInto): the history records what the window showed.
    QMetaObject::Connection recordInto(HistoryRecorder* r) { return watch_.recordInto(r); }
    const Snapshot& lastSnapshot() const { return watch_.lastSnapshot(); }
    bool hasRefreshed() const { return watch_.hasRefreshed(); }
    const ConnectionStatus& status() const { return watch_.status(); }
    std::optional<OutageView> outage() const { return watch_.outage(); }
    double lastAnswerServerTime() const { return watch_.lastAnswerServerTime(); }
    const PollerConfig& config() const { return watch_.config(); }
    bool isPaused() const { return watch_.isPaused(); }

    // Before start(): the refreshes of a recorder's live feed instead of a connection (DatabaseWatch::readFeed).
    void readFeed(feed::FeedSource src) { watch_.readFeed(std::move(src)); }
    void start();
    void setPaused(bool paused) { watch_.setPaused(paused); }
    void setIntervalMs(int ms) { watch_.setIntervalMs(ms); }
    void reconfigure(PollerConfig cfg) { watch_.reconfigure(std::move(cfg)); }
    // Findings of a companion source (the PgBouncer join) shown with the database's own, worst
    // first, in findings() (the Overview, the alerts): replaces `source`'s previous list.
    void setExternalFindings(const QString& source, std::vector<Finding> findings)
    {
        watch_.setExternalFindings(source, std::move(findings));
    }

    // ---- Recorded data (issue 9): a Monitor without a poller ------------------------------------
    // Never connects: showRecorded() hands recorded snapshots to the models through the path of
    // live refreshes. Countdowns are frozen at the recorded instant. `source` names what is shown
    // (the bundle or store file) for the "recorded, not live" banner. start() does nothing.
    static std::unique_ptr<Monitor> recorded(PollerConfig cfg, const QString& source,
                                             QObject* parent = nullptr);
    bool isRecorded() const { return watch_.isRecorded(); }
    QString recordedSource() const { return recordedSource_; }
    double recordedTime() const { return watch_.recordedTime(); }
    void showRecorded(const Snapshot& s) { watch_.showRecorded(s); }
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
    Monitor(PollerConfig cfg, DatabaseWatch::Recorded, QObject* parent);
    void connectModels();

    DatabaseWatch watch_; // before the models that view it
    std::unique_ptr<LeaseModel> leases_;
    AdvisoryLockModel locks_;
    BlockingTreeModel blocking_;
    FindingsModel findings_;
    QTimer* ticker_ = nullptr;
    QString recordedSource_;
};

} // namespace lw
