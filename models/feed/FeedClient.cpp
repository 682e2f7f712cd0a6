#include "feed/FeedClient.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QFile>
#include <QLocalSocket>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

namespace lw::feed {

namespace {
// Deltas of different decoders never mix, nor with the pollers' (whose sources count up from 1).
std::atomic<quint64> g_feedSources{0};
quint64 nextSource()
{
    return (quint64(1) << 63) | ++g_feedSources;
}
} // namespace

QString FeedSource::describe() const
{
    if (isTcp()) {
        const QString h = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
        return database.isEmpty() ? QStringLiteral("feed://%1:%2").arg(h).arg(port)
                                  : QStringLiteral("feed://%1:%2/%3").arg(h).arg(port).arg(database);
    }
    return QCoreApplication::translate("lw::feed::FeedClient", "the recorder's feed (%1)").arg(localPath);
}

std::optional<FeedSource> FeedSource::parseUrl(const QString& text)
{
    if (!text.startsWith(QLatin1String("feed://")))
        return std::nullopt;
    const QUrl u(text, QUrl::StrictMode);
    if (!u.isValid() || u.host().isEmpty() || u.port() <= 0 || !u.userInfo().isEmpty() || u.hasQuery() ||
        u.hasFragment())
        return std::nullopt;
    FeedSource f;
    f.host = u.host();
    f.port = quint16(u.port());
    f.database = u.path().mid(1); // "/prod" → "prod"
    if (f.database.contains(QLatin1Char('/')))
        return std::nullopt;
    return f;
}

bool feedAnswers(const QString& path, int timeoutMs)
{
    if (path.isEmpty() || !QFileInfo::exists(path))
        return false;
    QLocalSocket s;
    s.connectToServer(path);
    const bool up = s.waitForConnected(timeoutMs);
    s.abort(); // said nothing: the recorder forgets it without a word in its log
    return up;
}

FeedClient::FeedClient(FeedSource src, PollerConfig cfg, quint64 generation, QObject* parent)
    : QObject(parent), src_(std::move(src)), cfg_(std::move(cfg)), generation_(generation)
{
    qRegisterMetaType<lw::Snapshot>();
    qRegisterMetaType<lw::ConnectionStatus>();
    qRegisterMetaType<lw::feed::Hello>();
    status_.since = QDateTime::currentDateTime();
}

FeedClient::~FeedClient() = default;

void FeedClient::start()
{
    running_ = true;
    if (!watchdog_) {
        watchdog_ = new QTimer(this);
        watchdog_->setSingleShot(true);
        connect(watchdog_, &QTimer::timeout, this, [this] {
            lost(DbError::Kind::Timeout,
                 tr("it sent nothing for %1 s (the recorder is alive but does not answer)").arg(kSilentMs / 1000));
        });
        retry_ = new QTimer(this);
        retry_->setSingleShot(true);
        connect(retry_, &QTimer::timeout, this, &FeedClient::connectNow);
    }
    connectNow();
}

void FeedClient::stop()
{
    running_ = false;
    if (watchdog_) {
        watchdog_->stop();
        retry_->stop();
    }
    dropSocket();
}

void FeedClient::dropSocket()
{
    if (!sock_)
        return;
    sock_->disconnect(this);
    abortSocket(sock_);
    sock_->deleteLater();
    sock_ = nullptr;
}

void FeedClient::setPaused(bool paused)
{
    // Paused: nothing read, nothing queued at the recorder for it; resumed: whole again.
    paused_ = paused;
    if (paused) {
        const bool was = running_;
        stop();
        running_ = was;
    } else if (running_ && !sock_) {
        connectNow();
    }
}

void FeedClient::setStatus(ConnectionStatus st)
{
    status_ = std::move(st);
    Q_EMIT statusChanged(status_);
}

void FeedClient::connectNow()
{
    if (!running_ || paused_ || stopRequested_.load())
        return;
    dropSocket();
    in_ = FrameReader();
    decoder_ = std::make_unique<RefreshDecoder>(nextSource()); // a whole refresh comes first
    greeted_ = false;
    Hello me;
    me.version = QStringLiteral(LEASEWATCH_VERSION);
    me.database = src_.database;
    if (src_.isTcp()) {
        // The token is read at each attempt: one copied in meanwhile is used at the next.
        QFile tf(src_.tokenFile);
        if (!tf.open(QIODevice::ReadOnly)) {
            said(DbError::Kind::ConnectFailed,
                 tr("its token file %1 cannot be read (%2): copy the recorder's feed.token there, or name it with "
                    "--token FILE")
                     .arg(src_.tokenFile, tf.errorString()));
            return;
        }
        me.token = QString::fromLatin1(tf.read(4096).toHex());
    }
    const QByteArray hello = frame(FrameType::Hello, encodeHello(me));
    const auto gone = [this] { lost(DbError::Kind::ConnectionLost, tr("the recorder closed it (it stopped, or was killed)")); };
    if (src_.isTcp()) {
        auto* t = new QTcpSocket(this);
        sock_ = t;
        connect(t, &QTcpSocket::connected, this, [t, hello] { t->write(hello); });
        connect(t, &QTcpSocket::errorOccurred, this, [this, t](QAbstractSocket::SocketError e) {
            lost(greeted_ ? DbError::Kind::ConnectionLost : DbError::Kind::ConnectFailed,
                 e == QAbstractSocket::ConnectionRefusedError ? tr("no recorder answers there (connection refused)")
                 : e == QAbstractSocket::RemoteHostClosedError ? tr("the recorder closed it (it stopped, or was killed)")
                                                               : t->errorString());
        });
        connect(t, &QTcpSocket::disconnected, this, gone);
    } else {
        auto* l = new QLocalSocket(this);
        sock_ = l;
        connect(l, &QLocalSocket::connected, this, [l, hello] { l->write(hello); });
        connect(l, &QLocalSocket::errorOccurred, this, [this, l](QLocalSocket::LocalSocketError e) {
            const bool none = e == QLocalSocket::ServerNotFoundError || e == QLocalSocket::ConnectionRefusedError;
            lost(greeted_ ? DbError::Kind::ConnectionLost : DbError::Kind::ConnectFailed,
                 none                                 ? tr("no recorder answers there (it is not running)")
                 : e == QLocalSocket::PeerClosedError ? tr("the recorder closed it (it stopped, or was killed)")
                                                      : l->errorString());
        });
        connect(l, &QLocalSocket::disconnected, this, gone);
    }
    connect(sock_, &QIODevice::readyRead, this, &FeedClient::onReadable);
    if (!down_) {
        ConnectionStatus st = status_;
        st.state = ConnectionStatus::State::Connecting;
        st.since = QDateTime::currentDateTime();
        setStatus(st);
    }
    watchdog_->start(kSilentMs);
    if (auto* t = qobject_cast<QTcpSocket*>(sock_))
        t->connectToHost(src_.host, src_.port);
    else
        qobject_cast<QLocalSocket*>(sock_)->connectToServer(src_.localPath);
}

void FeedClient::onReadable()
{
    if (!sock_)
        return;
    in_.append(sock_->readAll());
    FrameType type{};
    QByteArray body;
    while (sock_ && in_.next(type, body))
        onFrame(type, body);
    if (sock_ && in_.broken())
        lost(DbError::Kind::ConnectionLost, tr("it sent what is not a leasewatch feed"));
}

void FeedClient::onFrame(FrameType type, const QByteArray& body)
{
    watchdog_->start(kSilentMs);
    if (!greeted_ && type != FrameType::Hello && type != FrameType::Bye) {
        lost(DbError::Kind::ConnectFailed, tr("it did not greet as a leasewatch recorder"));
        return;
    }
    switch (type) {
    case FrameType::Hello: {
        const std::optional<Hello> h = decodeHello(body);
        if (!h) {
            lost(DbError::Kind::ConnectFailed, tr("it did not greet as a leasewatch recorder"));
            return;
        }
        if (h->protocol != kProtocol) {
            lost(DbError::Kind::ConnectFailed, tr("the recorder (leasewatch %1) speaks feed protocol %2, this "
                                                  "viewer (leasewatch %3) protocol %4: use the same leasewatch "
                                                  "version for both")
                                                   .arg(h->version)
                                                   .arg(h->protocol)
                                                   .arg(QStringLiteral(LEASEWATCH_VERSION))
                                                   .arg(kProtocol));
            return;
        }
        greeted_ = true;
        recorder_ = *h;
        Q_EMIT greeted(recorder_);
        return;
    }
    case FrameType::Status: {
        std::optional<ConnectionStatus> st = decodeStatus(body);
        if (!st) {
            lost(DbError::Kind::ConnectionLost, tr("it sent what is not a leasewatch feed"));
            return;
        }
        // The recorder's own view of the database, as a poller's would be.
        down_ = false;
        failures_ = 0;
        setStatus(std::move(*st));
        return;
    }
    case FrameType::Refresh: {
        Snapshot s;
        if (!decoder_->decode(body, s)) {
            lost(DbError::Kind::ConnectionLost, tr("a refresh it sent did not decode"));
            return;
        }
        s.generation = generation_;
        lastSeq_ = s.seq;
        if (s.ok) {
            // Made here, as the poller makes it, with this profile's settings.
            s.analysis = std::make_shared<const Analysis>(analyze(s, cfg_.analysis, lastAnalysis_.get()));
            lastAnalysis_ = s.analysis;
        }
        if (down_) { // back: the recorder's status follows its first refresh
            down_ = false;
            failures_ = 0;
        }
        Q_EMIT snapshotReady(s);
        return;
    }
    case FrameType::Beat:
        return;
    case FrameType::Bye:
        lost(greeted_ ? DbError::Kind::ConnectionLost : DbError::Kind::ConnectFailed,
             tr("the recorder said: %1").arg(byeReason(body)));
        return;
    }
    lost(DbError::Kind::ConnectionLost, tr("it sent what is not a leasewatch feed"));
}

void FeedClient::lost(DbError::Kind kind, const QString& why)
{
    if (!sock_)
        return; // said already for this connection
    dropSocket();
    said(kind, why);
}

void FeedClient::said(DbError::Kind kind, const QString& why)
{
    watchdog_->stop();
    lastAnalysis_.reset();
    const int wait = std::min(10000, 500 << std::min(failures_, 5));
    ++failures_;
    DbError e;
    e.kind = kind;
    e.message = kind == DbError::Kind::ConnectFailed ? tr("the live feed of `leasewatch record` cannot be read: %1").arg(why)
                                                     : tr("the live feed of `leasewatch record` stopped: %1").arg(why);
    e.detail = src_.describe();
    e.hint = tr("This console reads `leasewatch record`'s refreshes instead of connecting to the database, and "
                "reads them again by itself when the recorder is back. To watch the database directly, open it "
                "with --direct.");
    down_ = true;
    ConnectionStatus st = status_;
    st.state = ConnectionStatus::State::Disconnected;
    st.error = e;
    st.since = QDateTime::currentDateTime();
    st.retryInMs = wait;
    if (!st.outageSince.isValid())
        st.outageSince = st.since;
    setStatus(st);
    Snapshot f;
    f.generation = generation_;
    f.seq = lastSeq_;
    f.error = e;
    f.receivedWall = QDateTime::currentDateTimeUtc();
    f.receivedMonotonicMs = monotonicMs();
    Q_EMIT snapshotReady(f);
    if (running_ && !paused_)
        retry_->start(wait);
}

std::optional<Snapshot> FeedClient::waitNext(const std::function<bool()>& stop)
{
    std::optional<Snapshot> got;
    QEventLoop loop;
    const QMetaObject::Connection c = connect(this, &FeedClient::snapshotReady, &loop, [&](const Snapshot& s) {
        if (!got)
            got = s;
        loop.quit();
    });
    QTimer poll;
    connect(&poll, &QTimer::timeout, &loop, [&] {
        if (stop())
            loop.quit();
    });
    poll.start(50);
    loop.exec();
    disconnect(c);
    return got;
}

} // namespace lw::feed
