#include "feed/FeedServer.h"

#include <QCoreApplication>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLoggingCategory>
#include <QTimer>

#include <algorithm>

Q_LOGGING_CATEGORY(lcFeed, "leasewatch.feed")

namespace lw::feed {

QString feedPathFor(const QString& storePath)
{
    QString p = storePath;
    if (p.endsWith(QLatin1String(".sqlite")))
        p.chop(7);
    return p + QStringLiteral(".feed");
}

struct FeedServer::Viewer
{
    QPointer<QLocalSocket> dev;
    FrameReader in;
    bool greeted = false;
    bool dropping = false;
};

FeedServer::FeedServer(QString database, QObject* parent) : QObject(parent), database_(std::move(database))
{
    // A beat a second: a viewer tells a recorder that hangs from a database with nothing new.
    beat_ = new QTimer(this);
    beat_->setInterval(1000);
    connect(beat_, &QTimer::timeout, this, [this] { broadcast(frame(FrameType::Beat, {})); });
    beat_->start();
}

FeedServer::~FeedServer()
{
    for (auto& v : viewers_)
        if (v->dev) {
            v->dev->write(frame(FrameType::Bye, byeBody(tr("the recorder stopped"))));
            v->dev->flush();
            v->dev->abort();
        }
}

bool FeedServer::listenLocal(const QString& path)
{
    local_ = new QLocalServer(this);
    // Owner-only: the socket carries what the store holds, to the store's owner alone.
    local_->setSocketOptions(QLocalServer::UserAccessOption);
    QLocalServer::removeServer(path); // a killed recorder's socket: the store's lock says it is gone
    if (!local_->listen(path)) {
        error_ = tr("the live feed cannot listen at %1: %2").arg(path, local_->errorString());
        return false;
    }
    connect(local_, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket* s = local_->nextPendingConnection())
            accept(s);
    });
    return true;
}

int FeedServer::viewers() const
{
    int n = 0;
    for (const auto& v : viewers_)
        n += v->greeted && !v->dropping;
    return n;
}

void FeedServer::accept(QIODevice* dev)
{
    auto* sock = qobject_cast<QLocalSocket*>(dev);
    auto v = std::make_unique<Viewer>();
    v->dev = sock;
    Viewer* vp = v.get();
    viewers_.push_back(std::move(v));
    connect(sock, &QLocalSocket::readyRead, this, [this, vp] { onReadable(vp); });
    // Queued: a viewer goes from the list between broadcasts, never while one walks it.
    connect(sock, &QLocalSocket::disconnected, this, [this, vp] { forget(vp); }, Qt::QueuedConnection);
    // No hello, no data: a peer that says nothing within 5 s is not a viewer.
    QTimer::singleShot(5000, sock, [this, vp] {
        const bool listed = std::any_of(viewers_.begin(), viewers_.end(), [vp](const auto& x) { return x.get() == vp; });
        if (listed && !vp->greeted)
            drop(vp, tr("no hello within 5 s"));
    });
}

void FeedServer::onReadable(Viewer* v)
{
    if (!v->dev || v->dropping)
        return;
    v->in.append(v->dev->readAll());
    FrameType type{};
    QByteArray body;
    while (!v->dropping && v->in.next(type, body)) {
        if (v->greeted)
            continue; // a viewer has nothing more to say
        const std::optional<Hello> h = type == FrameType::Hello ? decodeHello(body) : std::nullopt;
        if (!h) {
            drop(v, tr("not a leasewatch viewer"));
            return;
        }
        if (h->protocol != kProtocol) {
            drop(v, tr("this recorder (leasewatch %1) speaks feed protocol %2, the viewer (leasewatch %3) "
                       "protocol %4: use the same leasewatch version for both")
                        .arg(QStringLiteral(LEASEWATCH_VERSION))
                        .arg(kProtocol)
                        .arg(h->version)
                        .arg(h->protocol));
            return;
        }
        v->greeted = true;
        Hello me;
        me.version = QStringLiteral(LEASEWATCH_VERSION);
        me.database = database_;
        me.pid = QCoreApplication::applicationPid();
        send(v, frame(FrameType::Hello, encodeHello(me)));
        if (const std::optional<QByteArray> whole = encoder_.whole())
            send(v, frame(FrameType::Refresh, *whole));
        if (status_)
            send(v, frame(FrameType::Status, encodeStatus(*status_)));
        qCDebug(lcFeed) << "viewer joined;" << viewers() << "viewer(s)";
    }
    if (v->in.broken())
        drop(v, tr("not a leasewatch viewer"));
}

void FeedServer::send(Viewer* v, const QByteArray& bytes)
{
    if (!v->dev || v->dropping)
        return;
    if (v->dev->bytesToWrite() + bytes.size() > kMaxQueuedBytes) {
        drop(v, tr("it read too slowly: %1 MB of refreshes were waiting for it")
                    .arg(double(v->dev->bytesToWrite()) / (1024 * 1024), 0, 'f', 0));
        return;
    }
    v->dev->write(bytes);
}

void FeedServer::drop(Viewer* v, const QString& reason)
{
    if (!v->dev || v->dropping)
        return;
    v->dropping = true;
    qCInfo(lcFeed) << "viewer dropped:" << reason;
    // Told why (after what it has not read yet), then closed; one that never reads is cut off
    // after 10 s, so what waits for it is freed.
    v->dev->write(frame(FrameType::Bye, byeBody(reason)));
    v->dev->disconnectFromServer();
    QTimer::singleShot(10000, v->dev.data(), [d = v->dev] {
        if (d)
            d->abort();
    });
}

void FeedServer::forget(Viewer* v)
{
    for (auto it = viewers_.begin(); it != viewers_.end(); ++it)
        if (it->get() == v) {
            if (v->dev)
                v->dev->deleteLater();
            viewers_.erase(it);
            return;
        }
}

void FeedServer::broadcast(const QByteArray& bytes)
{
    for (auto& v : viewers_)
        if (v->greeted)
            send(v.get(), bytes);
}

void FeedServer::publish(const Snapshot& s)
{
    const QByteArray body = encoder_.next(s); // once, for every viewer
    broadcast(frame(FrameType::Refresh, body));
}

void FeedServer::publishStatus(const ConnectionStatus& st)
{
    status_ = st;
    broadcast(frame(FrameType::Status, encodeStatus(st)));
}

} // namespace lw::feed
