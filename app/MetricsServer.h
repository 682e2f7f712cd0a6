#pragma once
// The recorder's `/metrics` endpoint: a minimal HTTP/1.1 server on the recorder's own thread that
// answers GET /metrics with the Prometheus text format and closes the connection. Small on purpose:
// one request per connection, requests larger than 8 KiB or slower than 3 s are dropped, at most
// 16 connections at once — a scraper's needs, and nothing an exposed port could be made to hoard.
#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QTcpServer;
class QTcpSocket;

namespace lw::app {

// "[ADDR:]PORT": "9471" (127.0.0.1), "0.0.0.0:9471", "[::1]:9471". nullopt when malformed.
struct MetricsAddress
{
    QHostAddress address;
    quint16 port = 0;
};
std::optional<MetricsAddress> parseMetricsAddress(const QString& text);

class MetricsServer : public QObject
{
    Q_OBJECT
public:
    // `render` builds the exposition text at each scrape (on this thread).
    explicit MetricsServer(std::function<QByteArray()> render, QObject* parent = nullptr);
    ~MetricsServer() override;

    bool listen(const MetricsAddress& at); // false: errorString() says why
    QString errorString() const { return error_; }
    quint16 port() const;            // the bound port (the one chosen, for port 0)
    QString url() const;             // http://127.0.0.1:9471/metrics

private:
    void onConnection();
    void onReadable(QTcpSocket* s);
    static void respond(QTcpSocket* s, const QByteArray& status, const QByteArray& type, const QByteArray& body,
                        bool headOnly = false);

    std::function<QByteArray()> render_;
    QTcpServer* server_ = nullptr;
    QString error_;
    int open_ = 0;
};

} // namespace lw::app
