// The recorder's live feed (issue 49 point 3), in one process against the real PostgreSQL: a
// DatabaseWatch that polls (the recorder's), its refreshes through a FeedServer on a local socket,
// and a DatabaseWatch that reads the feed (a window's). The viewer must show exactly what the
// recorder judged, refresh by refresh (lease states and findings), through takes, renewals, releases
// and take-overs sent as changes; a stopped feed must be said as a silent server; bad peers and a
// viewer that does not read must never cost the recorder more than its bound.
#include "DatabaseWatch.h"
#include "TestCluster.h"
#include "domain/LeaseTracker.h"
#include "domain/RefreshJudge.h"
#include "feed/FeedClient.h"
#include "feed/FeedServer.h"

#include <QHostAddress>
#include <QLocalServer>
#include <QLocalSocket>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <sys/stat.h>

using namespace lw;

namespace {

// What a user sees of a refresh: each lease's state at the refresh's server time, and the findings.
struct Seen
{
    std::map<QString, int> states; // key → LeaseState kind
    QStringList findings;          // ids, worst first
    size_t leases = 0;
    bool operator==(const Seen&) const = default;
};

Seen seenBy(const DatabaseWatch& w, const Snapshot& s)
{
    Seen out;
    const LeaseTracker& t = w.judge().leases();
    for (int r = 0; r < t.size(); ++r)
        out.states[t.entry(r).key] = int(t.stateAt(r, s.serverNow));
    for (const Finding& f : w.findings())
        out.findings << f.id;
    out.leases = s.leases.size();
    return out;
}

// A recorder in this process: its watch polls, its feed serves the refreshes.
struct Recorder
{
    Recorder(const PollerConfig& cfg, const QString& path) : watch(cfg), server(QStringLiteral("test"))
    {
        QObject::connect(&watch, &DatabaseWatch::refreshed, &server, [this](const Snapshot& s) {
            if (s.ok)
                seen[s.seq] = seenBy(watch, s);
            server.publish(s);
        });
        QObject::connect(&watch, &DatabaseWatch::statusChanged, &server,
                         [this](const ConnectionStatus& st) { server.publishStatus(st); });
        ok = server.listenLocal(path);
    }
    DatabaseWatch watch;
    feed::FeedServer server;
    std::map<quint64, Seen> seen;
    bool ok = false;
};

} // namespace

class TestFeed : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Leases taken, renewed, released and taken over between refreshes, 40 refreshes: every one the
    // viewer shows equals the recorder's, and most came as changes, not whole.
    void viewerShowsWhatTheRecorderJudged()
    {
        test::TestDatabase db("feed_same");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at timestamptz)");
        db.exec("INSERT INTO leases SELECT 'job-' || g, 'app-1:10:' || g, now(), now() + interval '30 s' "
                "FROM generate_series(1, 300) g");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.feed"));
        Recorder rec(test::pollerConfig(db.dsn(), 200), path);
        QVERIFY2(rec.ok, qPrintable(rec.server.errorString()));
        // Owner-only: no one else on the machine reads what the store holds.
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 0077), 0);
        rec.watch.start();
        QTRY_VERIFY_WITH_TIMEOUT(!rec.seen.empty(), 15000);

        DatabaseWatch viewer(test::pollerConfig(db.dsn(), 200));
        viewer.readFeed(feed::FeedSource::local(path));
        int compared = 0, asChanges = 0, failed = 0;
        QString mismatch;
        connect(&viewer, &DatabaseWatch::refreshed, this, [&](const Snapshot& s) {
            if (!s.ok) {
                ++failed;
                return;
            }
            const auto it = rec.seen.find(s.seq);
            if (it == rec.seen.end())
                return;
            const Seen mine = seenBy(viewer, s);
            if (!(mine == it->second) && mismatch.isEmpty())
                mismatch = QStringLiteral("refresh %1: %2 leases / %3 findings vs the recorder's %4 / %5")
                               .arg(s.seq)
                               .arg(mine.leases)
                               .arg(mine.findings.join(','))
                               .arg(it->second.leases)
                               .arg(it->second.findings.join(','));
            ++compared;
            asChanges += s.leaseDelta != nullptr;
        });
        viewer.start();
        QTRY_VERIFY_WITH_TIMEOUT(viewer.hasRefreshed(), 10000);
        QCOMPARE(viewer.feedRecorder().pid, QCoreApplication::applicationPid());

        QRandomGenerator rng(49);
        const int start = compared;
        for (int round = 0; compared < start + 40 && round < 400; ++round) {
            switch (rng.bounded(5)) {
            case 0: // renewals
                db.exec(QStringLiteral("UPDATE leases SET expires_at = now() + interval '30 s' WHERE name IN "
                                       "(SELECT 'job-' || g FROM generate_series(%1, %1 + 20) g)")
                            .arg(rng.bounded(1, 280)));
                break;
            case 1: // a release
                db.exec(QStringLiteral("DELETE FROM leases WHERE name = 'job-%1'").arg(rng.bounded(1, 300)));
                break;
            case 2: // a take
                db.exec(QStringLiteral("INSERT INTO leases VALUES ('job-%1', 'app-2:20:x', now(), now() + interval "
                                       "'30 s') ON CONFLICT (name) DO NOTHING")
                            .arg(rng.bounded(1, 400)));
                break;
            case 3: // a lease let lapse, then taken over
                db.exec(QStringLiteral("UPDATE leases SET expires_at = now() - interval '1 s' WHERE name = 'job-%1'")
                            .arg(rng.bounded(1, 300)));
                db.exec("UPDATE leases SET holder = 'app-3:30:y', taken_at = now(), expires_at = now() + "
                        "interval '30 s' WHERE name = (SELECT name FROM leases WHERE expires_at < now() LIMIT 1)");
                break;
            default:
                break;
            }
            QTest::qWait(rng.bounded(50, 250));
        }
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QVERIFY2(compared >= start + 40, qPrintable(QString::number(compared)));
        QCOMPARE(failed, 0);
        // The rows come as changes once the viewer has them whole (the first and a few after
        // xmin reads fall back may be whole).
        QVERIFY2(asChanges >= compared * 3 / 4, qPrintable(QStringLiteral("%1 of %2").arg(asChanges).arg(compared)));
    }

    // The recorder stops: the viewer says "not answering" (never all clear) at once, naming the
    // feed; a recorder back on the socket: the viewer reads it again by itself.
    void stoppedFeedIsSaidAsASilentServer()
    {
        test::TestDatabase db("feed_stop");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at timestamptz)");
        db.exec("INSERT INTO leases VALUES ('sweep', 'app-1:10:aa', now(), now() + interval '1 h')");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.feed"));
        auto rec = std::make_unique<Recorder>(test::pollerConfig(db.dsn(), 200), path);
        QVERIFY(rec->ok);
        rec->watch.start();
        QVERIFY(feed::feedAnswers(path));
        DatabaseWatch viewer(test::pollerConfig(db.dsn(), 200));
        viewer.readFeed(feed::FeedSource::local(path));
        viewer.start();
        QTRY_VERIFY_WITH_TIMEOUT(viewer.hasRefreshed() && viewer.status().state == ConnectionStatus::State::Connected,
                                 15000);
        QVERIFY(!viewer.outage());

        rec.reset(); // the recorder exits
        QTRY_VERIFY_WITH_TIMEOUT(viewer.outage().has_value(), 2000);
        QCOMPARE(viewer.status().state, ConnectionStatus::State::Disconnected);
        QVERIFY2(viewer.outage()->error.message.contains(QLatin1String("recorder")),
                 qPrintable(viewer.outage()->error.message));
        QVERIFY(!feed::feedAnswers(path));

        rec = std::make_unique<Recorder>(test::pollerConfig(db.dsn(), 200), path);
        QVERIFY(rec->ok);
        rec->watch.start();
        QTRY_VERIFY_WITH_TIMEOUT(!viewer.outage() && viewer.status().state == ConnectionStatus::State::Connected,
                                 20000);
        QCOMPARE(viewer.lastSnapshot().leases.size(), size_t(1));
    }

    // A recorder that hangs (alive, sends nothing): said within kSilentMs, as a hung server is.
    void silentRecorderIsNotAnswering()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hung.feed"));
        QLocalServer hung;
        QVERIFY(hung.listen(path));
        feed::FeedClient client(feed::FeedSource::local(path), PollerConfig{});
        QSignalSpy statuses(&client, &feed::FeedClient::statusChanged);
        client.start();
        QTRY_VERIFY_WITH_TIMEOUT(client.status().state == ConnectionStatus::State::Disconnected,
                                 feed::FeedClient::kSilentMs + 3000);
        QCOMPARE(client.status().error.kind, DbError::Kind::Timeout);
        QVERIFY(client.status().retryInMs > 0);
    }

    // Peers that are not viewers of this version get a word and the door, no data.
    void wrongPeersAreTurnedAway()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.feed"));
        feed::FeedServer server(QStringLiteral("test"));
        QVERIFY(server.listenLocal(path));
        Snapshot s;
        s.ok = true;
        s.seq = 1;
        server.publish(s);
        const auto byeFor = [&](const QByteArray& sent) {
            QLocalSocket sock;
            sock.connectToServer(path);
            if (!sock.waitForConnected(2000))
                return QStringLiteral("(no connection)");
            sock.write(sent);
            feed::FrameReader in;
            feed::FrameType type{};
            QByteArray body;
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < 8000) {
                QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
                in.append(sock.readAll());
                while (in.next(type, body))
                    if (type == feed::FrameType::Bye)
                        return feed::byeReason(body);
                    else if (type != feed::FrameType::Beat)
                        return QStringLiteral("(data: frame %1)").arg(int(type));
            }
            return QStringLiteral("(nothing)");
        };
        feed::Hello other;
        other.protocol = feed::kProtocol + 1;
        other.version = QStringLiteral("99.0");
        QVERIFY2(byeFor(feed::frame(feed::FrameType::Hello, feed::encodeHello(other))).contains(QLatin1String("protocol")),
                 "another protocol");
        QVERIFY2(byeFor("GET / HTTP/1.1\r\n\r\n").contains(QLatin1String("not a leasewatch viewer")), "garbage");
        QVERIFY2(byeFor(QByteArray()).contains(QLatin1String("no hello")), "silence");
        QCOMPARE(server.viewers(), 0);
    }

    // A viewer that never reads: dropped once its queue reaches the bound, told why; the others
    // go on.
    void slowViewerIsDroppedAndToldWhy()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.feed"));
        feed::FeedServer server(QStringLiteral("test"));
        QVERIFY(server.listenLocal(path));
        QLocalSocket slow;
        slow.connectToServer(path);
        QVERIFY(slow.waitForConnected(2000));
        slow.write(feed::frame(feed::FrameType::Hello, feed::encodeHello(feed::Hello{})));
        QTRY_COMPARE_WITH_TIMEOUT(server.viewers(), 1, 5000);
        // Whole refreshes of 20 000 distinct leases (nothing to send as changes), until dropped.
        QRandomGenerator rng(7);
        int published = 0;
        for (; server.viewers() > 0 && published < 400; ++published) {
            std::vector<LeaseRow> rows(20000);
            for (size_t i = 0; i < rows.size(); ++i) {
                rows[i].name = QStringLiteral("lease-%1-%2").arg(i).arg(rng.generate64(), 0, 36);
                rows[i].holder = QString::number(rng.generate64(), 36);
                rows[i].expiresAt = double(rng.generate());
            }
            Snapshot s;
            s.ok = true;
            s.seq = quint64(published + 1);
            s.leases = std::move(rows);
            server.publish(s);
            QCoreApplication::processEvents(); // the slow one reads nothing
        }
        QCOMPARE(server.viewers(), 0);
        QVERIFY2(published < 400, "never dropped");
        // Reading now, it finds every frame it was sent, then why it was dropped.
        feed::FrameReader in;
        feed::FrameType type{};
        QByteArray body;
        QString reason;
        int refreshes = 0;
        QElapsedTimer t;
        t.start();
        while (reason.isEmpty() && t.elapsed() < 20000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50); // the server writes on its events
            in.append(slow.readAll());
            while (in.next(type, body)) {
                refreshes += type == feed::FrameType::Refresh;
                if (type == feed::FrameType::Bye)
                    reason = feed::byeReason(body);
            }
        }
        QVERIFY2(reason.contains(QLatin1String("too slowly")), qPrintable(reason));
        QVERIFY(refreshes > 0);
    }

    // Over TCP (record --serve): the token or nothing; the database named when there are several.
    void tcpViewersPresentTheToken()
    {
        QTemporaryDir dir;
        QString error, notice;
        const QString tokenPath = dir.filePath(QStringLiteral("feed.token"));
        const std::optional<QByteArray> token = feed::loadOrCreateToken(tokenPath, &error, &notice);
        QVERIFY2(token, qPrintable(error));
        QCOMPARE(token->size(), 32);
        QCOMPARE(QFile(tokenPath).permissions() & ~(QFile::ReadUser | QFile::WriteUser),
                 QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(feed::loadOrCreateToken(tokenPath, &error, &notice), token); // kept across restarts
        QVERIFY(notice.isEmpty());

        feed::FeedServer prod(QStringLiteral("prod")), stage(QStringLiteral("stage"));
        feed::TcpFeedFront front(*token);
        front.add(QStringLiteral("prod"), &prod);
        QVERIFY2(front.listen(QHostAddress::LocalHost, 0), qPrintable(front.errorString()));
        Snapshot s;
        s.ok = true;
        s.seq = 1;
        s.serverNow = 1.7e9;
        s.leases = std::vector<LeaseRow>{{QStringLiteral("sweep"), QStringLiteral("app-1:10:aa"), 1.7e9, 1.7e9 + 60, 0}};
        prod.publish(s);

        const auto attempt = [&](const QString& tokenFile, const QString& database) {
            feed::FeedSource src;
            src.host = QStringLiteral("127.0.0.1");
            src.port = front.port();
            src.tokenFile = tokenFile;
            src.database = database;
            feed::FeedClient client(src, PollerConfig{});
            std::optional<Snapshot> got;
            connect(&client, &feed::FeedClient::snapshotReady, this, [&](const Snapshot& x) {
                if (!got)
                    got = x;
            });
            client.start();
            (void)QTest::qWaitFor([&] { return got.has_value(); }, 5000);
            return got ? (got->ok ? QStringLiteral("ok %1").arg(got->leases.size()) : got->error.message)
                       : QStringLiteral("(nothing)");
        };
        QCOMPARE(attempt(tokenPath, QString()), QStringLiteral("ok 1"));
        QCOMPARE(attempt(tokenPath, QStringLiteral("prod")), QStringLiteral("ok 1"));

        const QString wrong = dir.filePath(QStringLiteral("wrong.token"));
        QVERIFY(feed::loadOrCreateToken(wrong, &error));
        QVERIFY2(attempt(wrong, QString()).contains(QLatin1String("wrong token")), "wrong token");
        QVERIFY2(attempt(dir.filePath(QStringLiteral("missing.token")), QString()).contains(QLatin1String("cannot be read")),
                 "no token file");
        QVERIFY2(attempt(tokenPath, QStringLiteral("other")).contains(QLatin1String("does not record other")),
                 "unknown database");
        front.add(QStringLiteral("stage"), &stage);
        QVERIFY2(attempt(tokenPath, QString()).contains(QLatin1String("name one")), "several, none named");
        QCOMPARE(prod.viewers(), 0);

        // A token file others could read is narrowed to its owner and said; one too short is refused.
        QFile(tokenPath).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        QVERIFY(feed::loadOrCreateToken(tokenPath, &error, &notice));
        QVERIFY2(notice.contains(QLatin1String("0600")), qPrintable(notice));
        QCOMPARE(QFile(tokenPath).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
        QFile shortFile(dir.filePath(QStringLiteral("short.token")));
        QVERIFY(shortFile.open(QIODevice::WriteOnly));
        shortFile.write("abc");
        shortFile.close();
        QVERIFY(!feed::loadOrCreateToken(shortFile.fileName(), &error));
        QVERIFY2(error.contains(QLatin1String("delete it")), qPrintable(error));
    }

    // Feed addresses: what a viewer accepts on its command line.
    void feedUrls()
    {
        const auto f = feed::FeedSource::parseUrl(QStringLiteral("feed://10.0.0.5:9472/prod"));
        QVERIFY(f);
        QCOMPARE(f->host, QStringLiteral("10.0.0.5"));
        QCOMPARE(f->port, quint16(9472));
        QCOMPARE(f->database, QStringLiteral("prod"));
        QCOMPARE(f->describe(), QStringLiteral("feed://10.0.0.5:9472/prod"));
        QVERIFY(feed::FeedSource::parseUrl(QStringLiteral("feed://[::1]:9472")));
        QVERIFY(!feed::FeedSource::parseUrl(QStringLiteral("feed://host")));           // no port
        QVERIFY(!feed::FeedSource::parseUrl(QStringLiteral("feed://u:p@host:1")));     // no secrets in it
        QVERIFY(!feed::FeedSource::parseUrl(QStringLiteral("host=/tmp dbname=x")));    // a DSN
    }

    // Every frame survives the round trip: the lease rows of a refresh sent as changes equal the
    // recorder's, and a decoder that missed a frame refuses the next one (it reconnects for a whole).
    void changesApplyOnlyToTheFrameBefore()
    {
        feed::RefreshEncoder enc;
        feed::RefreshDecoder dec(1);
        auto delta = std::make_shared<LeaseDelta>();
        delta->source = 5;
        Snapshot a;
        a.ok = true;
        a.seq = 1;
        a.leases = std::vector<LeaseRow>{{QStringLiteral("a"), QStringLiteral("h1"), 1.0, 2.0, 0},
                                         {QStringLiteral("b"), QStringLiteral("h2"), 1.0, 2.0, 0}};
        a.leaseDelta = delta;
        Snapshot got;
        QVERIFY(dec.decode(enc.next(a), got));
        QCOMPARE(got.leases.size(), size_t(2));
        QVERIFY(!got.leaseDelta); // the first is whole

        Snapshot b = a;
        b.seq = 2;
        b.leases = std::vector<LeaseRow>{{QStringLiteral("c"), QStringLiteral("h3"), 1.0, 3.0, 0},
                                         {QStringLiteral("b"), QStringLiteral("h2"), 1.0, 5.0, 0}};
        auto d2 = std::make_shared<LeaseDelta>();
        d2->source = 5;
        d2->baseSeq = 1;
        d2->added = {0};
        d2->changed = {1};
        d2->gone = {a.leases[0]};
        b.leaseDelta = d2;
        const QByteArray frameB = enc.next(b);
        Snapshot gotB;
        QVERIFY(dec.decode(frameB, gotB));
        QVERIFY(gotB.leaseDelta);
        auto sorted = [](const LeaseRows& r) {
            std::vector<LeaseRow> v(r.begin(), r.end());
            std::sort(v.begin(), v.end(), [](const LeaseRow& x, const LeaseRow& y) { return x.name < y.name; });
            return v;
        };
        QVERIFY(sorted(gotB.leases) == sorted(b.leases));
        QCOMPARE(gotB.leaseDelta->gone.size(), size_t(1));
        QCOMPARE(gotB.leaseDelta->gone[0].name, QStringLiteral("a"));

        // A viewer that joins now gets the last refresh whole.
        feed::RefreshDecoder late(2);
        Snapshot gotLate;
        QVERIFY(late.decode(*enc.whole(), gotLate));
        QVERIFY(sorted(gotLate.leases) == sorted(b.leases));

        // A decoder that did not see frame b cannot take frame c's changes.
        feed::RefreshDecoder missed(3);
        Snapshot x;
        QVERIFY(missed.decode(enc.whole().value(), x)); // b, whole
        Snapshot c = b;
        c.seq = 3;
        auto d3 = std::make_shared<LeaseDelta>();
        d3->source = 5;
        d3->baseSeq = 2;
        d3->changed = {0};
        c.leaseDelta = d3;
        const QByteArray frameC = enc.next(c);
        Snapshot y;
        QVERIFY(missed.decode(frameC, y));
        feed::RefreshDecoder fresh(4);
        QVERIFY(!fresh.decode(frameC, y)); // changes without the rows they change: refused
    }
};

QTEST_GUILESS_MAIN(TestFeed)
#include "tst_feed.moc"
