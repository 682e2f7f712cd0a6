#include "feed/FeedProtocol.h"

#include "domain/UtcTime.h"
#include "store/HistoryFormat.h"
#include "store/StreamValues.h"

#include <QDataStream>
#include <QIODevice>
#include <QAbstractSocket>
#include <QJsonArray>
#include <QLocalSocket>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

#include <limits>

namespace lw::feed {

namespace {

constexpr quint32 kRefreshMagic = 0x4c57'4631; // "LWF1"
constexpr quint32 kStatusMagic = 0x4c57'4653;  // "LWFS"

enum Flags : quint8 {
    kLeasesWhole = 1,
    kLeasesChanges = 2,
    kNames = 4,  // key names, their collisions and the libraries' keys
    kTables = 8, // the lease tables read
};

using history::get;
using history::put;

void put(QDataStream& ds, const std::optional<DbError>& e)
{
    ds << e.has_value();
    if (e)
        put(ds, *e);
}
void get(QDataStream& ds, std::optional<DbError>& e)
{
    bool has = false;
    ds >> has;
    e.reset();
    if (has)
        get(ds, e.emplace());
}
void put(QDataStream& ds, const LeaseRow& r)
{
    ds << r.name << r.holder.has_value() << r.holder.value_or(QString()) << qint32(r.source);
    put(ds, r.takenAt);
    put(ds, r.expiresAt);
}
void get(QDataStream& ds, LeaseRow& r)
{
    bool hasHolder = false;
    QString holder;
    qint32 source = 0;
    ds >> r.name >> hasHolder >> holder >> source;
    r.holder = hasHolder ? std::optional<QString>(holder) : std::nullopt;
    r.source = source;
    get(ds, r.takenAt);
    get(ds, r.expiresAt);
}
void put(QDataStream& ds, const QDateTime& t)
{
    ds << (t.isValid() ? t.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min());
}
void get(QDataStream& ds, QDateTime& t, bool utc)
{
    qint64 ms = 0;
    ds >> ms;
    t = ms == std::numeric_limits<qint64>::min()
            ? QDateTime()
            : (utc ? utcFromMSecs(ms) : QDateTime::fromMSecsSinceEpoch(ms));
}
template <typename T>
void putShared(QDataStream& ds, const std::shared_ptr<const T>& p)
{
    ds << bool(p);
    if (p)
        ds << *p;
}
template <typename T>
void getShared(QDataStream& ds, std::shared_ptr<const T>& p)
{
    bool has = false;
    ds >> has;
    p.reset();
    if (has) {
        T v;
        ds >> v;
        p = std::make_shared<const T>(std::move(v));
    }
}
// A count that a sane frame cannot exceed: a corrupt one is refused before anything is allocated.
bool sane(QDataStream& ds, quint32 n)
{
    return ds.status() == QDataStream::Ok && n <= 50'000'000;
}

} // namespace

QByteArray frame(FrameType t, const QByteArray& body)
{
    QByteArray out(5, Qt::Uninitialized);
    qToBigEndian<quint32>(quint32(body.size() + 1), out.data());
    out[4] = char(t);
    return out + body;
}

void flushSocket(QIODevice* d)
{
    if (auto* l = qobject_cast<QLocalSocket*>(d))
        l->flush();
    else if (auto* t = qobject_cast<QAbstractSocket*>(d))
        t->flush();
}

void closeSocket(QIODevice* d)
{
    if (auto* l = qobject_cast<QLocalSocket*>(d))
        l->disconnectFromServer();
    else if (auto* t = qobject_cast<QAbstractSocket*>(d))
        t->disconnectFromHost();
}

void abortSocket(QIODevice* d)
{
    if (auto* l = qobject_cast<QLocalSocket*>(d))
        l->abort();
    else if (auto* t = qobject_cast<QAbstractSocket*>(d))
        t->abort();
}

void FrameReader::append(const QByteArray& bytes)
{
    if (pos_ > 0 && pos_ == buf_.size()) {
        buf_.clear();
        pos_ = 0;
    }
    buf_.append(bytes);
}

bool FrameReader::next(FrameType& type, QByteArray& body)
{
    if (broken_ || buf_.size() - pos_ < 5)
        return false;
    const quint32 len = qFromBigEndian<quint32>(buf_.constData() + pos_);
    if (len < 1 || len > kMaxFrameBytes) {
        broken_ = true;
        return false;
    }
    if (buf_.size() - pos_ < qsizetype(4 + len))
        return false;
    type = FrameType(quint8(buf_[pos_ + 4]));
    body = buf_.mid(pos_ + 5, len - 1);
    pos_ += 4 + len;
    if (pos_ > 1024 * 1024) { // drop what was read, now and then, not at every frame
        buf_.remove(0, pos_);
        pos_ = 0;
    }
    return true;
}

QByteArray encodeHello(const Hello& h)
{
    QJsonObject o{{QStringLiteral("feed"), QStringLiteral("leasewatch")},
                  {QStringLiteral("protocol"), h.protocol},
                  {QStringLiteral("version"), h.version}};
    if (!h.database.isEmpty())
        o.insert(QStringLiteral("database"), h.database);
    if (h.pid > 0)
        o.insert(QStringLiteral("pid"), h.pid);
    if (!h.token.isEmpty())
        o.insert(QStringLiteral("token"), h.token);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

std::optional<Hello> decodeHello(const QByteArray& body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (o.value(QStringLiteral("feed")).toString() != QLatin1String("leasewatch"))
        return std::nullopt;
    Hello h;
    h.protocol = o.value(QStringLiteral("protocol")).toInt(-1);
    h.version = o.value(QStringLiteral("version")).toString();
    h.database = o.value(QStringLiteral("database")).toString();
    h.pid = qint64(o.value(QStringLiteral("pid")).toDouble());
    h.token = o.value(QStringLiteral("token")).toString();
    return h;
}

QByteArray byeBody(const QString& reason)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("reason"), reason}}).toJson(QJsonDocument::Compact);
}

QString byeReason(const QByteArray& body)
{
    return QJsonDocument::fromJson(body).object().value(QStringLiteral("reason")).toString();
}

QByteArray encodeStatus(const ConnectionStatus& st)
{
    QByteArray raw;
    QDataStream ds(&raw, QIODevice::WriteOnly);
    ds.setVersion(QDataStream::Qt_6_4);
    ds << kStatusMagic << qint32(st.state);
    put(ds, st.error);
    put(ds, st.since);
    ds << qint32(st.retryInMs);
    put(ds, st.outageSince);
    ds << st.server.version << qint32(st.server.versionNum) << st.server.database << st.server.user
       << qint32(st.server.backendPid);
    return raw;
}

std::optional<ConnectionStatus> decodeStatus(const QByteArray& body)
{
    QDataStream ds(body);
    ds.setVersion(QDataStream::Qt_6_4);
    quint32 magic = 0;
    qint32 state = 0, retry = 0, num = 0, pid = 0;
    ConnectionStatus st;
    ds >> magic >> state;
    get(ds, st.error);
    get(ds, st.since, false);
    ds >> retry;
    get(ds, st.outageSince, false);
    ds >> st.server.version >> num >> st.server.database >> st.server.user >> pid;
    if (magic != kStatusMagic || ds.status() != QDataStream::Ok || state < 0 ||
        state > qint32(ConnectionStatus::State::Disconnected))
        return std::nullopt;
    st.state = ConnectionStatus::State(state);
    st.retryInMs = retry;
    st.server.versionNum = num;
    st.server.backendPid = pid;
    return st;
}

QByteArray RefreshEncoder::encode(const Snapshot& s, bool wholeLeases, bool names) const
{
    const bool read = s.ok;
    quint8 flags = 0;
    if (read) {
        flags |= wholeLeases ? kLeasesWhole : kLeasesChanges;
        if (names || s.keyNames != lastRead_.keyNames || s.keyCollisions != lastRead_.keyCollisions ||
            s.libraryKeys != lastRead_.libraryKeys)
            flags |= kNames;
        if (names || s.leaseTables != lastRead_.leaseTables)
            flags |= kTables;
    }
    QByteArray raw;
    QDataStream ds(&raw, QIODevice::WriteOnly);
    ds.setVersion(QDataStream::Qt_6_4);
    ds << kRefreshMagic << flags << s.seq << s.serverNow;
    put(ds, s.receivedWall);
    // The refresh's age as the recorder sends it: the viewer's countdowns go on from there.
    ds << qint64(monotonicMs() - s.receivedMonotonicMs);
    ds << history::encodeState(s);
    ds << qint32(s.roundTrips) << qint32(s.leaseRowsSent) << s.bytesReceived << s.bytesExact << s.clientWaitMs
       << s.decodeMs << s.serverMs << qint32(s.effectiveIntervalMs) << qint32(s.locksEveryN) << s.locksReused
       << s.locksAgeMs;
    put(ds, s.locksNotRead);
    put(ds, s.leasesPartial);
    ds << s.leasesAbsent << s.leasesFound;
    if (flags & kNames) {
        putShared(ds, s.keyNames);
        putShared(ds, s.keyCollisions);
        putShared(ds, s.libraryKeys);
    }
    if (flags & kTables) {
        ds << bool(s.leaseTables);
        if (s.leaseTables)
            ds << QJsonDocument(history::leaseTablesToJson(*s.leaseTables)).toJson(QJsonDocument::Compact);
    }
    if (flags & kLeasesWhole) {
        QByteArray rows;
        QDataStream rs(&rows, QIODevice::WriteOnly);
        rs.setVersion(QDataStream::Qt_6_4);
        rs << quint32(s.leases.size());
        for (const LeaseRow& r : s.leases)
            put(rs, r);
        ds << qCompress(rows, 1); // 100 000 rows are ~10 MB raw, a viewer joining gets them once
    } else if (flags & kLeasesChanges) {
        const LeaseDelta& d = *s.leaseDelta;
        ds << lastRead_.seq << quint32(d.gone.size());
        for (const LeaseRow& r : d.gone)
            ds << qint32(r.source) << r.name;
        ds << quint32(d.changed.size() + d.added.size());
        for (const std::vector<int>* list : {&d.changed, &d.added})
            for (int i : *list)
                put(ds, s.leases[size_t(i)]);
    }
    return raw;
}

QByteArray RefreshEncoder::next(const Snapshot& s)
{
    // The poller's delta goes against its previous read: the viewers have that one only when it
    // is the last one encoded.
    const bool changes = anyRead_ && s.leaseDelta && s.leaseDelta->baseSeq == lastRead_.seq &&
                         lastRead_.leaseDelta && s.leaseDelta->source == lastRead_.leaseDelta->source;
    QByteArray body = encode(s, !changes, !anyRead_);
    remember(s);
    return body;
}

void RefreshEncoder::remember(const Snapshot& s)
{
    last_ = s;
    any_ = true;
    if (s.ok) {
        lastRead_ = s;
        anyRead_ = true;
    }
}

std::optional<QByteArray> RefreshEncoder::whole() const
{
    if (!anyRead_)
        return any_ ? std::optional<QByteArray>(encode(last_, false, false)) : std::nullopt;
    return encode(lastRead_, true, true);
}

bool RefreshDecoder::decode(const QByteArray& body, Snapshot& s)
{
    QDataStream ds(body);
    ds.setVersion(QDataStream::Qt_6_4);
    quint32 magic = 0;
    quint8 flags = 0;
    qint64 ageMs = 0;
    QByteArray state;
    ds >> magic >> flags >> s.seq >> s.serverNow;
    get(ds, s.receivedWall, true);
    ds >> ageMs >> state;
    if (magic != kRefreshMagic || ds.status() != QDataStream::Ok || !history::decodeState(state, s))
        return false;
    s.receivedMonotonicMs = monotonicMs() - std::max<qint64>(0, ageMs);
    qint32 trips = 0, sent = 0, interval = 0, everyN = 1;
    ds >> trips >> sent >> s.bytesReceived >> s.bytesExact >> s.clientWaitMs >> s.decodeMs >> s.serverMs >> interval >>
        everyN >> s.locksReused >> s.locksAgeMs;
    s.roundTrips = trips;
    s.leaseRowsSent = sent;
    s.effectiveIntervalMs = interval;
    s.locksEveryN = everyN;
    get(ds, s.locksNotRead);
    get(ds, s.leasesPartial);
    ds >> s.leasesAbsent >> s.leasesFound;
    if (flags & kNames) {
        getShared(ds, keyNames_);
        getShared(ds, collisions_);
        getShared(ds, libraryKeys_);
    }
    if (flags & kTables) {
        bool has = false;
        ds >> has;
        tables_.reset();
        if (has) {
            QByteArray json;
            ds >> json;
            tables_ = std::make_shared<const std::vector<LeaseTableConfig>>(
                history::leaseTablesFromJson(QJsonDocument::fromJson(json).array()));
        }
    }
    if (ds.status() != QDataStream::Ok)
        return false;
    if (!(flags & (kLeasesWhole | kLeasesChanges)))
        return true; // a failed refresh: its error, nothing else
    if (flags & kLeasesWhole) {
        QByteArray packed;
        ds >> packed;
        const QByteArray rows = qUncompress(packed);
        QDataStream rs(rows);
        rs.setVersion(QDataStream::Qt_6_4);
        quint32 n = 0;
        rs >> n;
        if (!sane(rs, n))
            return false;
        rows_.assign(n, LeaseRow{});
        at_.clear();
        keyed_ = true;
        for (quint32 i = 0; i < n; ++i) {
            get(rs, rows_[i]);
            if (keyed_ && at_.contains({rows_[i].source, rows_[i].name}))
                keyed_ = false; // names repeat: the recorder never sends changes for such rows
            else if (keyed_)
                at_.insert({rows_[i].source, rows_[i].name}, int(i));
        }
        if (rs.status() != QDataStream::Ok)
            return false;
        if (!keyed_)
            at_.clear();
    } else {
        quint64 base = 0;
        quint32 nGone = 0;
        ds >> base >> nGone;
        if (!haveRows_ || !keyed_ || base != lastSeq_ || !sane(ds, nGone))
            return false;
        auto delta = std::make_shared<LeaseDelta>();
        delta->source = source_;
        delta->baseSeq = lastSeq_;
        for (quint32 i = 0; i < nGone; ++i) {
            qint32 source = 0;
            QString name;
            ds >> source >> name;
            const auto it = at_.constFind({source, name});
            if (it == at_.cend())
                return false;
            // Its place takes the last row (the order of lease rows means nothing).
            const int k = it.value();
            at_.erase(it);
            delta->gone.push_back(std::move(rows_[size_t(k)]));
            if (size_t(k) + 1 != rows_.size()) {
                rows_[size_t(k)] = std::move(rows_.back());
                at_[{rows_[size_t(k)].source, rows_[size_t(k)].name}] = k;
            }
            rows_.pop_back();
        }
        quint32 nSent = 0;
        ds >> nSent;
        if (!sane(ds, nSent))
            return false;
        for (quint32 i = 0; i < nSent; ++i) {
            LeaseRow r;
            get(ds, r);
            const auto it = at_.constFind({r.source, r.name});
            if (it != at_.cend()) {
                rows_[size_t(it.value())] = std::move(r);
                delta->changed.push_back(it.value());
            } else {
                at_.insert({r.source, r.name}, int(rows_.size()));
                delta->added.push_back(int(rows_.size()));
                rows_.push_back(std::move(r));
            }
        }
        if (ds.status() != QDataStream::Ok)
            return false;
        s.leaseDelta = std::move(delta);
    }
    haveRows_ = true;
    lastSeq_ = s.seq;
    s.leases = rows_; // a copy the snapshot's holders share; the next frame changes ours
    s.keyNames = keyNames_;
    s.keyCollisions = collisions_;
    s.libraryKeys = libraryKeys_;
    s.leaseTables = tables_;
    return true;
}

} // namespace lw::feed
