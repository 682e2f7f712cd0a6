#include "MetricsServer.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace lw::app {

namespace {
constexpr qsizetype kMaxRequest = 8 * 1024;
constexpr int kRequestTimeoutMs = 3'000; // a scraper sends its request at once
constexpr int kMaxConnections = 16;
} // namespace

std::optional<MetricsAddress> parseMetricsAddress(const QString& text)
{
    QString host = QStringLiteral("127.0.0.1");
    QString port = text;
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0) {
        host = text.left(colon);
        port = text.mid(colon + 1);
        if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
            host = host.mid(1, host.size() - 2);
    }
    bool ok = false;
    const uint p = port.toUInt(&ok);
    if (!ok || p > 65535)
        return std::nullopt;
    MetricsAddress a;
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    if (!a.address.setAddress(host))
        return std::nullopt; // an IP address, not a name: what is bound is what was written
    a.port = quint16(p);
    return a;
}

MetricsServer::MetricsServer(std::function<QByteArray()> render, QObject* parent)
    : QObject(parent), render_(std::move(render)), server_(new QTcpServer(this))
{
    server_->setMaxPendingConnections(kMaxConnections);
    connect(server_, &QTcpServer::newConnection, this, &MetricsServer::onConnection);
}

MetricsServer::~MetricsServer() = default;

bool MetricsServer::listen(const MetricsAddress& at)
{
    if (server_->listen(at.address, at.port))
        return true;
    error_ = QStringLiteral("cannot serve metrics on %1:%2: %3")
                 .arg(at.address.toString())
                 .arg(at.port)
                 .arg(server_->errorString());
    return false;
}

quint16 MetricsServer::port() const
{
    return server_->serverPort();
}

QString MetricsServer::url() const
{
    const QHostAddress a = server_->serverAddress();
    const QString host = a.protocol() == QAbstractSocket::IPv6Protocol ? QLatin1Char('[') + a.toString() + QLatin1Char(']')
                                                                         : a.toString();
    return QStringLiteral("http://%1:%2/metrics").arg(host).arg(port());
}

void MetricsServer::onConnection()
{
    while (QTcpSocket* s = server_->nextPendingConnection()) {
        if (open_ >= kMaxConnections) {
            s->abort();
            s->deleteLater();
            continue;
        }
        ++open_;
        connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
        connect(s, &QObject::destroyed, this, [this] { --open_; });
        connect(s, &QTcpSocket::readyRead, this, [this, s] { onReadable(s); });
        // A client that never finishes its request does not keep the slot.
        QTimer::singleShot(kRequestTimeoutMs, s, [s] { s->abort(); });
    }
}

void MetricsServer::onReadable(QTcpSocket* s)
{
    if (s->property("answered").toBool()) {
        s->readAll();
        return;
    }
    QByteArray req = s->property("request").toByteArray() + s->readAll();
    const qsizetype end = req.indexOf("\r\n\r\n");
    if (end < 0) {
        if (req.size() > kMaxRequest)
            respond(s, "431 Request Header Fields Too Large", "text/plain", "request too large\n");
        else
            s->setProperty("request", req);
        return;
    }
    const QList<QByteArray> line = req.left(req.indexOf("\r\n")).split(' ');
    const QByteArray method = line.value(0);
    const QByteArray target = line.value(1);
    const QByteArray path = target.left(target.indexOf('?') < 0 ? target.size() : target.indexOf('?'));
    if (method != "GET" && method != "HEAD")
        respond(s, "405 Method Not Allowed\r\nAllow: GET, HEAD", "text/plain", "only GET\n");
    else if (path == "/metrics")
        respond(s, "200 OK", "text/plain; version=0.0.4; charset=utf-8", render_(), method == "HEAD");
    else if (path == "/")
        respond(s, "200 OK", "text/plain; charset=utf-8", "Leasewatch recorder: the metrics are at /metrics\n");
    else
        respond(s, "404 Not Found", "text/plain", "not found; the metrics are at /metrics\n");
}

void MetricsServer::respond(QTcpSocket* s, const QByteArray& status, const QByteArray& type, const QByteArray& body,
                            bool headOnly)
{
    s->setProperty("answered", true);
    s->setProperty("request", QVariant());
    QByteArray head = "HTTP/1.1 " + status + "\r\nContent-Type: " + type +
                      "\r\nContent-Length: " + QByteArray::number(body.size()) +
                      "\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n";
    s->write(headOnly ? head : head + body);
    s->disconnectFromHost(); // after the bytes are written
}

} // namespace lw::app
