#pragma once
// One monitored database, watched without any view: the polling worker on a thread of its own, the
// one judge of its refreshes, and what is known of an outage. The recorder daemon uses one as it is;
// the window's Monitor puts the item models over one. Results of an older configuration are dropped.
#include "Poller.h"
#include "domain/Analysis.h"
#include "feed/FeedClient.h"
#include "domain/Outage.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QThread>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace lw {

class HistoryRecorder;
class RefreshJudge; // by pointer: the views including this header need not rebuild with the lease rules

class DatabaseWatch : public QObject
{
    Q_OBJECT
public:
    explicit DatabaseWatch(PollerConfig cfg, QObject* parent = nullptr);
    // Recorded data (issue 9): never connects; showRecorded() hands recorded snapshots to the judge
    // the way live refreshes go, with the monotonic clock frozen so countdowns stay at the instant.
    struct Recorded
    {
    };
    DatabaseWatch(PollerConfig cfg, Recorded, QObject* parent = nullptr);
    ~DatabaseWatch() override; // stops the worker and closes the connection

    // The judge is the views' to attach to (RefreshJudge::attach); everyone else reads it.
    RefreshJudge& judge() { return *judge_; }
    const RefreshJudge& judge() const { return *judge_; }
    // The judge's findings, a companion source's (setExternalFindings) and the outage card, worst first.
    const std::vector<Finding>& findings() const { return findings_; }
    // While the server is not answering: the server time of the last answer, which the findings are as of.
    std::optional<double> findingsAsOf() const { return asOf_; }
    // Every refresh into `r` with the judge's verdicts and its own findings (no companion's, no
    // outage card). Disconnect the returned connection to stop.
    QMetaObject::Connection recordInto(HistoryRecorder* r);

    const Snapshot& lastSnapshot() const { return last_; }
    // Whether any refresh succeeded yet: "disconnected" (data from before) or never connected.
    bool hasRefreshed() const { return refreshedOk_; }
    const ConnectionStatus& status() const { return status_; }
    // The server is not answering now (live, after at least one good refresh): what happened, since
    // when, what the console does. The Overview's first line, the tray, the logs.
    std::optional<OutageView> outage() const;
    double lastAnswerServerTime() const { return lastGoodServerNow_; }
    const PollerConfig& config() const { return cfg_; }
    bool isPaused() const { return paused_; }
    bool isRecorded() const { return recorded_; }

    // Before start(): take the refreshes of a recorder's live feed (issue 49) instead of connecting
    // to the database: the same signals, judged here the same way; the interval is the recorder's.
    void readFeed(feed::FeedSource src) { feed_ = std::move(src); }
    // Where the refreshes come from: a recorder's feed, or (unset) this console's own connection.
    const feed::FeedSource& feedSource() const { return feed_; }
    // The recorder's hello (pid, version) once its feed answered.
    const feed::Hello& feedRecorder() const { return feedRecorder_; }

    void start();
    void setPaused(bool paused);
    void setIntervalMs(int ms);
    // A new configuration: a new worker; results still in flight from the old one are dropped.
    void reconfigure(PollerConfig cfg);
    // Findings of a companion source (the PgBouncer join), shown with the database's own: replaces
    // `source`'s previous list.
    void setExternalFindings(const QString& source, std::vector<Finding> findings);
    // A view that takes a large first read in slices (RefreshJudge::RowIntake) has them all in: their
    // findings now, then the refreshes held back meanwhile.
    void rowsLoaded();

    void showRecorded(const Snapshot& s);
    double recordedTime() const { return recordedTime_; } // server time of the snapshot shown, 0 before any
    // Forgets what was inferred from earlier recorded snapshots, before jumping back in time.
    void resetRecorded();

Q_SIGNALS:
    void refreshed(const lw::Snapshot& s);
    void statusChanged(const lw::ConnectionStatus& st);
    // Twice a second while the server is not answering (its duration moves), and once when it answers.
    void outageChanged();
    void findingsChanged();

private:
    void onSnapshot(const Snapshot& s);
    void onStatus(const ConnectionStatus& st);
    void publishFindings();
    void updateOutage();
    void applyLeaseRules(); // the profile's lease policy and writer clock, to the judge
    void startWorker();
    void stopWorker();

    PollerConfig cfg_;
    quint64 generation_ = 0;
    QThread thread_;
    QPointer<Poller> poller_;
    feed::FeedSource feed_;
    QPointer<feed::FeedClient> feedClient_; // instead of poller_ when feed_ is set
    feed::Hello feedRecorder_;
    std::unique_ptr<RefreshJudge> judge_;
    std::vector<Finding> findings_;
    std::optional<double> asOf_;
    std::map<QString, std::vector<Finding>> external_; // by source
    Snapshot last_;
    std::deque<Snapshot> deferred_; // refreshes that came while a view was loading rows (a few)
    bool refreshedOk_ = false;
    double lastGoodServerNow_ = 0;
    QDateTime lastGoodWall_; // when the last good refresh arrived (local wall time)
    std::shared_ptr<const Analysis> lastGoodAnalysis_;
    ServerInfo lastGoodServer_; // the role and version an outage's advice names
    DbError outageBegan_; // the failure that ended the last good stretch
    std::optional<Finding> outageFinding_;
    ConnectionStatus status_;
    QTimer* ticker_ = nullptr;
    bool paused_ = false;
    bool recorded_ = false;
    double recordedTime_ = 0;
    static constexpr qint64 kRecordedClockMs = 1; // the frozen monotonic clock of a recorded watch
};

} // namespace lw
