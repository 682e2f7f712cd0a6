#include "feed/FeedServer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>

Q_LOGGING_CATEGORY(lcFeed, "leasewatch.feed", QtInfoMsg)

namespace lw::feed {

QString feedPathFor(const QString& storePath)
{
    QString p = storePath;
    if (p.endsWith(QLatin1String(".sqlite")))
        p.chop(7);
    return p + QStringLiteral(".feed");
}

namespace {
// `f` once the peer is gone, queued: a viewer leaves the list between broadcasts, never during one.
template <typename F>
void whenGone(QIODevice* d, QObject* context, F f)
{
    if (auto* l = qobject_cast<QLocalSocket*>(d))
        QObject::connect(l, &QLocalSocket::disconnected, context, f, Qt::QueuedConnection);
    else if (auto* t = qobject_cast<QAbstractSocket*>(d))
        QObject::connect(t, &QAbstractSocket::disconnected, context, f, Qt::QueuedConnection);
}
} // namespace

struct FeedServer::Viewer
{
    QPointer<QIODevice> dev;
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
            flushSocket(v->dev);
            abortSocket(v->dev);
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
    auto v = std::make_unique<Viewer>();
    v->dev = dev;
    Viewer* vp = v.get();
    viewers_.push_back(std::move(v));
    connect(dev, &QIODevice::readyRead, this, [this, vp] { onReadable(vp); });
    whenGone(dev, this, [this, vp] { forget(vp); });
    // No hello, no data: a peer that says nothing within 5 s is not a viewer.
    QTimer::singleShot(5000, dev, [this, vp] {
        const bool listed = std::any_of(viewers_.begin(), viewers_.end(), [vp](const auto& x) { return x.get() == vp; });
        if (listed && !vp->greeted)
            drop(vp, tr("no hello within 5 s"));
    });
}

void FeedServer::adopt(QIODevice* dev, const Hello& hello)
{
    dev->setParent(this); // gone with this server at the latest
    accept(dev);
    greet(viewers_.back().get(), hello);
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
        greet(v, *h);
    }
    if (v->in.broken())
        drop(v, tr("not a leasewatch viewer"));
}

void FeedServer::greet(Viewer* v, const Hello& h)
{
    if (h.protocol != kProtocol) {
        drop(v, tr("this recorder (leasewatch %1) speaks feed protocol %2, the viewer (leasewatch %3) "
                   "protocol %4: use the same leasewatch version for both")
                    .arg(QStringLiteral(LEASEWATCH_VERSION))
                    .arg(kProtocol)
                    .arg(h.version)
                    .arg(h.protocol));
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
    closeSocket(v->dev);
    QTimer::singleShot(10000, v->dev.data(), [d = v->dev] {
        if (d)
            abortSocket(d);
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
    if (viewers() == 0) {
        encoder_.remember(s); // nobody reads now: nothing encoded
        return;
    }
    const QByteArray body = encoder_.next(s); // once, for every viewer
    broadcast(frame(FrameType::Refresh, body));
}

void FeedServer::publishStatus(const ConnectionStatus& st)
{
    status_ = st;
    broadcast(frame(FrameType::Status, encodeStatus(st)));
}

} // namespace lw::feed

namespace lw::feed {

QString defaultTokenPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("feed.token"));
}

std::optional<QByteArray> loadOrCreateToken(const QString& path, QString* error, QString* notice)
{
    constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    QFile f(path);
    if (!f.exists()) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QSaveFile out(path);
        QByteArray token(32, Qt::Uninitialized);
        QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(token.data()), token.size() / 4);
        // Owner-only before a byte is written: the token is what keeps others off the feed.
        if (!out.open(QIODevice::WriteOnly) || !out.setPermissions(kOwnerOnly) || out.write(token) != token.size() ||
            !out.commit()) {
            *error = QCoreApplication::translate("lw::feed::FeedServer",
                                                 "the feed's token file %1 cannot be written: %2; --serve needs it "
                                                 "(free the disk, or fix the directory's permissions)")
                         .arg(path, out.errorString());
            return std::nullopt;
        }
        return token;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate("lw::feed::FeedServer", "the feed's token file %1 cannot be read: %2")
                     .arg(path, f.errorString());
        return std::nullopt;
    }
    const QByteArray token = f.read(4096);
    if (token.size() < 16) {
        *error = QCoreApplication::translate("lw::feed::FeedServer",
                                             "the feed's token file %1 holds %2 bytes, too few to be a token: delete "
                                             "it and the recorder writes a new one (then give it to the viewers again)")
                     .arg(path)
                     .arg(token.size());
        return std::nullopt;
    }
    if ((f.permissions() & ~(kOwnerOnly | QFileDevice::ReadUser | QFileDevice::WriteUser)) != 0) {
        f.setPermissions(kOwnerOnly);
        if (notice)
            *notice = QCoreApplication::translate("lw::feed::FeedServer",
                                                  "the feed's token file %1 could be read by others: made owner-only "
                                                  "(0600); give viewers a new one if others may have copied it "
                                                  "(delete it and restart the recorder)")
                          .arg(path);
    }
    return token;
}

bool tokenMatches(const QByteArray& token, const QString& presented)
{
    const QByteArray want = token.toHex();
    const QByteArray got = presented.toLatin1();
    // Every byte compared whatever differs first: how long a refusal takes says nothing.
    unsigned diff = unsigned(want.size() ^ got.size());
    for (qsizetype i = 0; i < want.size(); ++i)
        diff |= unsigned(quint8(want[i]) ^ quint8(i < got.size() ? got[i] : 0));
    return diff == 0 && !want.isEmpty();
}

TcpFeedFront::TcpFeedFront(QByteArray token, QObject* parent) : QObject(parent), token_(std::move(token))
{
    server_ = new QTcpServer(this);
    connect(server_, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket* s = server_->nextPendingConnection()) {
            pending_[s];
            connect(s, &QTcpSocket::readyRead, this, [this, s] { onReadable(s); });
            connect(s, &QTcpSocket::disconnected, this, [this, s] {
                if (pending_.erase(s))
                    s->deleteLater();
            });
            QTimer::singleShot(5000, s, [this, s] {
                if (pending_.count(s))
                    refuse(s, tr("no hello within 5 s"));
            });
        }
    });
}

TcpFeedFront::~TcpFeedFront() = default;

void TcpFeedFront::add(const QString& database, FeedServer* server)
{
    feeds_.emplace_back(database, server);
}

bool TcpFeedFront::listen(const QHostAddress& address, quint16 port)
{
    if (!server_->listen(address, port)) {
        error_ = tr("the live feed cannot listen at %1:%2: %3").arg(address.toString()).arg(port).arg(server_->errorString());
        return false;
    }
    return true;
}

quint16 TcpFeedFront::port() const
{
    return server_->serverPort();
}

void TcpFeedFront::refuse(QTcpSocket* s, const QString& reason)
{
    qCInfo(lcFeed) << "viewer at" << s->peerAddress().toString() << "refused:" << reason;
    pending_.erase(s);
    s->disconnect(this);
    s->write(frame(FrameType::Bye, byeBody(reason)));
    s->disconnectFromHost();
    connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
    QTimer::singleShot(10000, s, [s] { s->abort(); });
}

void TcpFeedFront::onReadable(QTcpSocket* s)
{
    const auto it = pending_.find(s);
    if (it == pending_.end())
        return;
    it->second.append(s->readAll());
    FrameType type{};
    QByteArray body;
    if (!it->second.next(type, body)) {
        if (it->second.broken())
            refuse(s, tr("not a leasewatch viewer"));
        return;
    }
    const std::optional<Hello> h = type == FrameType::Hello ? decodeHello(body) : std::nullopt;
    if (!h) {
        refuse(s, tr("not a leasewatch viewer"));
        return;
    }
    // The token first: without it, not even which databases are recorded is said.
    if (!tokenMatches(token_, h->token)) {
        refuse(s, h->token.isEmpty() ? tr("no token: this recorder's feed needs the token file it wrote (copy it to "
                                          "the viewer; leasewatch --token FILE)")
                                     : tr("wrong token: the viewer's token file is not this recorder's"));
        return;
    }
    FeedServer* to = nullptr;
    QStringList names;
    for (const auto& [name, feed] : feeds_) {
        names << name;
        if (feed && (name == h->database || (h->database.isEmpty() && feeds_.size() == 1)))
            to = feed;
    }
    if (!to) {
        refuse(s, h->database.isEmpty()
                      ? tr("this recorder records %1: name one (feed://HOST:PORT/NAME)").arg(names.join(QStringLiteral(", ")))
                      : tr("this recorder does not record %1; it records %2")
                            .arg(h->database, names.join(QStringLiteral(", "))));
        return;
    }
    pending_.erase(it);
    s->disconnect(this);
    qCInfo(lcFeed) << "viewer at" << s->peerAddress().toString() << "joined over TCP";
    to->adopt(s, *h);
}

} // namespace lw::feed
