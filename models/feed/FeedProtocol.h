#pragma once
// One collector, many viewers (issue 49): the recorder's live refreshes as a byte stream, so that
// N windows and `watch`es cost the watched database one connection and one refresh.
//
// A stream of frames: a 4-byte big-endian length (of what follows), a type byte, the body. The
// viewer speaks first (Hello: its protocol and, over TCP, the token); the recorder answers Hello,
// its connection status and the last refresh whole, then every refresh as it comes — the lease rows
// as changes against the frame before (a viewer gets every frame in order, or is dropped) — and a
// heartbeat each second, so that a recorder that hangs is told from a quiet database.
#include "Poller.h"
#include "domain/Analysis.h"
#include "domain/Snapshot.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace lw::feed {

// Bumped when a frame's body changes: a viewer and a recorder of different protocols say so and part.
constexpr int kProtocol = 1;

enum class FrameType : quint8 {
    Hello = 1,   // JSON, both ways
    Status = 2,  // the recorder's connection status (ConnectionStatus)
    Refresh = 3, // one refresh
    Beat = 4,    // nothing new; the recorder is alive
    Bye = 5,     // JSON {"reason"}: the recorder closes this viewer (or stops) and says why
};

QByteArray frame(FrameType t, const QByteArray& body);

// A feed's socket is local or TCP (QLocalSocket, QTcpSocket): written out, closed after what is
// queued, or cut off now, alike.
void flushSocket(QIODevice* d);
void closeSocket(QIODevice* d);
void abortSocket(QIODevice* d);

// Frames out of a byte stream, as the bytes come.
class FrameReader
{
public:
    // A frame larger than this is not a feed's (or a corrupt one): the stream is broken.
    static constexpr qint64 kMaxFrameBytes = 512LL * 1024 * 1024;
    void append(const QByteArray& bytes);
    // The next whole frame, if one is in.
    bool next(FrameType& type, QByteArray& body);
    bool broken() const { return broken_; }

private:
    QByteArray buf_;
    qsizetype pos_ = 0;
    bool broken_ = false;
};

struct Hello
{
    int protocol = kProtocol;
    QString version;  // leasewatch's
    QString database; // the recorder's label of what it watches (recorder → viewer)
    qint64 pid = 0;   // the recorder's process (recorder → viewer)
    QString token;    // hex of the token file's bytes (viewer → recorder, TCP only)
};
QByteArray encodeHello(const Hello& h);
std::optional<Hello> decodeHello(const QByteArray& body);
QByteArray byeBody(const QString& reason);
QString byeReason(const QByteArray& body);

QByteArray encodeStatus(const ConnectionStatus& st);
std::optional<ConnectionStatus> decodeStatus(const QByteArray& body);

// The recorder's side: each refresh encoded once for every viewer.
class RefreshEncoder
{
public:
    // The frame body of `s` for viewers that had every frame before: the lease rows as changes
    // against the last refresh encoded when the poller's own delta is against that one, whole
    // otherwise; key names and lease tables only when they changed.
    QByteArray next(const Snapshot& s);
    // The refresh kept, not encoded: nobody reads the feed now (a recorder's usual state), and a
    // viewer that joins gets whole() first.
    void remember(const Snapshot& s);
    // The last refresh whole (for a viewer that joins now; nothing before any refresh): the frames
    // next() makes after it apply to it.
    std::optional<QByteArray> whole() const;

private:
    QByteArray encode(const Snapshot& s, bool wholeLeases, bool names) const;
    Snapshot last_;     // the last refresh encoded
    Snapshot lastRead_; // the last one whose lease rows were read (a failed refresh has none)
    bool any_ = false;
    bool anyRead_ = false;
};

// The viewer's side: frame bodies back into snapshots (without their analysis: the viewer makes
// it, with its own profile's settings, as the poller does). Keeps the lease rows between frames.
class RefreshDecoder
{
public:
    explicit RefreshDecoder(quint64 source) : source_(source) {}
    // False on a body that does not decode or does not follow the frames before (the stream is
    // then useless: reconnect for a whole one).
    bool decode(const QByteArray& body, Snapshot& s);

private:
    using Key = std::pair<int, QString>; // table, name
    quint64 source_; // this decoder's LeaseDelta::source
    quint64 lastSeq_ = 0;
    bool haveRows_ = false;
    std::vector<LeaseRow> rows_;
    QHash<Key, int> at_; // key → index in rows_ (empty when the keys are not unique)
    bool keyed_ = false;
    std::shared_ptr<const KeyNames> keyNames_, collisions_;
    std::shared_ptr<const QHash<qint64, QString>> libraryKeys_;
    std::shared_ptr<const std::vector<LeaseTableConfig>> tables_;
};

} // namespace lw::feed

Q_DECLARE_METATYPE(lw::feed::Hello)
