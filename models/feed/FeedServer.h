#pragma once
// The recorder's side of the live feed (issue 49): every refresh of one database, encoded once and
// written to every viewer. A local socket beside the history store, owner-only (the store's owner
// is the one user who may read it). A viewer that reads too slowly is dropped and told why, never
// waited for: the recorder holds at most kMaxQueuedBytes for it.
#include "feed/FeedProtocol.h"

#include <QObject>
#include <QPointer>

#include <map>
#include <memory>
#include <vector>

class QHostAddress;
class QIODevice;
class QLocalServer;
class QTcpServer;
class QTcpSocket;
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

    // A viewer whose hello was read elsewhere (TcpFeedFront, after its token): greeted as if it
    // had said it here. Takes the socket.
    void adopt(QIODevice* dev, const Hello& hello);

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
    void greet(Viewer* v, const Hello& h);
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

// The token a viewer over TCP presents: the recorder's token file, 32 random bytes made on the first
// --serve (mode 0600; a wider mode is narrowed, and said in `notice`). Nullopt with `error`
// naming the file and what to do (unreadable, too short to be one).
std::optional<QByteArray> loadOrCreateToken(const QString& path, QString* error, QString* notice = nullptr);
// ~/.local/share/Leasewatch/leasewatch/feed.token: where the recorder writes it and a viewer looks.
QString defaultTokenPath();
// Whether `presented` (hex, from a viewer's hello) is `token`, in time independent of where they differ.
bool tokenMatches(const QByteArray& token, const QString& presented);

// The recorder's feeds over TCP (`record --serve [ADDR:]PORT`): one port for every database it
// records. A viewer presents the token and names the database when there are several; no token, a
// wrong one, or no hello within 5 s gets a bye and no data. TLS: a reverse proxy in front (README).
class TcpFeedFront : public QObject
{
    Q_OBJECT
public:
    explicit TcpFeedFront(QByteArray token, QObject* parent = nullptr);
    ~TcpFeedFront() override;
    void add(const QString& database, FeedServer* server);
    bool listen(const QHostAddress& address, quint16 port); // false: errorString()
    QString errorString() const { return error_; }
    quint16 port() const;

private:
    void onReadable(QTcpSocket* s);
    void refuse(QTcpSocket* s, const QString& reason);

    QByteArray token_;
    QTcpServer* server_ = nullptr;
    std::vector<std::pair<QString, QPointer<FeedServer>>> feeds_;
    std::map<QTcpSocket*, FrameReader> pending_; // connected, hello not read yet
    QString error_;
};

} // namespace lw::feed
