#pragma once
// The recorder's side of the live feed (issue 49): every refresh of one database, encoded once and
// written to every viewer. A local socket beside the history store, owner-only (the store's owner
// is the one user who may read it). A viewer that reads too slowly is dropped and told why, never
// waited for: the recorder holds at most kMaxQueuedBytes for it.
#include "feed/FeedProtocol.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <vector>

class QIODevice;
class QLocalServer;
class QTimer;

namespace lw::feed {

// The feed's socket for the history store at `storePath`: beside it, "<store>.feed".
QString feedPathFor(const QString& storePath);

class FeedServer : public QObject
{
    Q_OBJECT
public:
    // `database`: what the recorder calls it (the viewers' hello says so).
    explicit FeedServer(QString database, QObject* parent = nullptr);
    ~FeedServer() override;

    // Listens on the local socket `path` (a stale one left by a killed recorder is replaced:
    // the history store's lock says no other recorder runs). False with errorString().
    bool listenLocal(const QString& path);
    QString errorString() const { return error_; }

    // Each refresh and each status change of the watched database, in order.
    void publish(const Snapshot& s);
    void publishStatus(const ConnectionStatus& st);

    int viewers() const;
    // Bytes queued for one viewer beyond which it is dropped.
    static constexpr qint64 kMaxQueuedBytes = 64LL * 1024 * 1024;

private:
    struct Viewer;
    void accept(QIODevice* dev);
    void onReadable(Viewer* v);
    void send(Viewer* v, const QByteArray& bytes);
    void drop(Viewer* v, const QString& reason);
    void forget(Viewer* v);
    void broadcast(const QByteArray& bytes);

    QString database_;
    QString error_;
    QLocalServer* local_ = nullptr;
    std::vector<std::unique_ptr<Viewer>> viewers_;
    RefreshEncoder encoder_;
    std::optional<ConnectionStatus> status_;
    QTimer* beat_ = nullptr;
};

} // namespace lw::feed
