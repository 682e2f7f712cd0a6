#pragma once
// A viewer's side of the recorder's live feed (issue 49): in place of a Poller, the same signals —
// each refresh of the recorder (its analysis made here, with this profile's settings) and its
// connection status. When the feed stops (the recorder exits or is killed, says bye, sends nothing
// for kSilentMs) that is said as a silent server is said — a failed refresh and "disconnected",
// retrying — and never as "all clear". It connects to nothing else: force-expire and the other
// operator actions open their own connection to the database, with the operator's credentials.
#include "feed/FeedProtocol.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

class QIODevice;
class QTimer;

namespace lw::feed {

struct FeedSource
{
    QString localPath; // the recorder's socket beside the history store (feedPathFor())
    // Or over TCP (the recorder's --serve): where, the token file to present, which database.
    QString host;
    quint16 port = 0;
    QString tokenFile;
    QString database; // the recorder's name for it; empty: its only one
    static FeedSource local(const QString& path)
    {
        FeedSource f;
        f.localPath = path;
        return f;
    }
    bool isSet() const { return !localPath.isEmpty() || port != 0; }
    bool isTcp() const { return port != 0; }
    // "the recorder's feed (/home/…/prod.feed)", "feed://10.0.0.5:9472/prod": for the messages.
    QString describe() const;
    // feed://HOST:PORT[/DATABASE] (an IPv6 host in brackets); nullopt when `text` is not one.
    static std::optional<FeedSource> parseUrl(const QString& text);
};

// Whether a recorder answers at `path` now: a window or `watch` then reads its feed.
bool feedAnswers(const QString& path, int timeoutMs = 1000);

class FeedClient : public QObject
{
    Q_OBJECT
public:
    FeedClient(FeedSource src, PollerConfig cfg, quint64 generation = 1, QObject* parent = nullptr);
    ~FeedClient() override;

    // Nothing from the recorder for this long (it beats every second): it is taken as gone.
    static constexpr int kSilentMs = 5000;

    const FeedSource& source() const { return src_; }
    const ConnectionStatus& status() const { return status_; }
    // What the recorder said of itself (its pid, version, what it watches); empty before its hello.
    const Hello& recorder() const { return recorder_; }
    // Thread-safe, one-way: as Poller::requestStop().
    void requestStop() { stopRequested_.store(true); }
    // For the terminal: runs this thread's events until the next refresh (or the failure that
    // says the feed stopped) and returns it; nullopt once `stop()` says so. start() first.
    std::optional<Snapshot> waitNext(const std::function<bool()>& stop);

public Q_SLOTS:
    void start();
    void stop();
    void setPaused(bool paused);

Q_SIGNALS:
    void snapshotReady(const lw::Snapshot& snapshot);
    void statusChanged(const lw::ConnectionStatus& status);
    // The recorder said who it is (before its first status and refresh on this connection).
    void greeted(const lw::feed::Hello& recorder);

private:
    void connectNow();
    void onReadable();
    void onFrame(FrameType type, const QByteArray& body);
    // The feed stopped (once per connection: its socket goes), then said().
    void lost(DbError::Kind kind, const QString& why);
    // As a silent server is said (a failed refresh, "disconnected"), then tried again after a back-off.
    void said(DbError::Kind kind, const QString& why);
    void setStatus(ConnectionStatus st);
    void dropSocket();

    FeedSource src_;
    PollerConfig cfg_;
    quint64 generation_;
    QIODevice* sock_ = nullptr; // a QLocalSocket, or a QTcpSocket for feed://
    FrameReader in_;
    std::unique_ptr<RefreshDecoder> decoder_;
    Hello recorder_;
    bool greeted_ = false;
    ConnectionStatus status_;
    std::shared_ptr<const Analysis> lastAnalysis_;
    quint64 lastSeq_ = 0;
    int failures_ = 0;
    bool running_ = false;
    bool paused_ = false;
    bool down_ = false; // the feed was lost and is not back yet
    QTimer* watchdog_ = nullptr;
    QTimer* retry_ = nullptr;
    std::atomic<bool> stopRequested_{false};
};

} // namespace lw::feed
