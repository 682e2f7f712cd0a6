// Host name lookup bounded by the connect deadline and the stop flag (libpq's own lookup blocks).
#include "pg/PgConnection.h"

#include <QElapsedTimer>
#include <QTest>

#include <thread>

using namespace lw::pg;
using Outcome = HostLookup::Outcome;

namespace {
QByteArray slowResolver(const QByteArray&)
{
    std::this_thread::sleep_for(std::chrono::seconds(30)); // a DNS server that never answers
    return "10.0.0.1";
}
} // namespace

class TestHostLookup : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void outcomes_data()
    {
        QTest::addColumn<QByteArray>("conninfo");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QByteArray>("hostaddr");
        QTest::newRow("no host") << QByteArray("dbname=x") << int(Outcome::NotNeeded) << QByteArray();
        QTest::newRow("socket dir") << QByteArray("host=/tmp dbname=x") << int(Outcome::NotNeeded) << QByteArray();
        QTest::newRow("hostaddr given") << QByteArray("host=db hostaddr=10.1.1.1") << int(Outcome::NotNeeded)
                                        << QByteArray();
        QTest::newRow("numeric") << QByteArray("host=127.0.0.1") << int(Outcome::Resolved)
                                 << QByteArray("127.0.0.1");
        QTest::newRow("several") << QByteArray("host=127.0.0.1,::1 port=5432,5433") << int(Outcome::Resolved)
                                 << QByteArray("127.0.0.1,::1");
        QTest::newRow("name") << QByteArray("host=db.example") << int(Outcome::Resolved) << QByteArray("192.0.2.7");
        QTest::newRow("unknown") << QByteArray("host=nope.invalid") << int(Outcome::Failed) << QByteArray();
        QTest::newRow("uri") << QByteArray("postgresql://u@db.example:5432/app") << int(Outcome::Resolved)
                             << QByteArray("192.0.2.7");
    }
    void outcomes()
    {
        QFETCH(QByteArray, conninfo);
        QFETCH(int, outcome);
        QFETCH(QByteArray, hostaddr);
        const Resolver fake = [](const QByteArray& n) {
            return n == "db.example" ? QByteArray("192.0.2.7") : QByteArray();
        };
        const HostLookup l = lookupHosts(conninfo, Clock::now() + std::chrono::seconds(5), {}, fake);
        QCOMPARE(int(l.outcome), outcome);
        QCOMPARE(l.hostaddr, hostaddr);
    }

    void systemResolverFindsLocalhost()
    {
        const HostLookup l = lookupHosts("host=localhost", Clock::now() + std::chrono::seconds(10), {});
        QCOMPARE(int(l.outcome), int(Outcome::Resolved));
        QVERIFY(!l.hostaddr.isEmpty());
    }

    void aHangingLookupGivesUpAtTheDeadline()
    {
        QElapsedTimer t;
        t.start();
        const HostLookup l =
            lookupHosts("host=slow.example", Clock::now() + std::chrono::milliseconds(200), {}, slowResolver);
        QCOMPARE(int(l.outcome), int(Outcome::TimedOut));
        QCOMPARE(l.host, QStringLiteral("slow.example"));
        QVERIFY(t.elapsed() < 10000); // far below the resolver's 30 s: not a timing assertion
    }

    void aHangingLookupGivesUpWhenStopping()
    {
        std::atomic<bool> stop{false};
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            stop = true;
        });
        const HostLookup l = lookupHosts("host=slow.example", Clock::now() + std::chrono::seconds(60),
                                         [&] { return stop.load(); }, slowResolver);
        stopper.join();
        QCOMPARE(int(l.outcome), int(Outcome::Aborted));
    }
};

QTEST_GUILESS_MAIN(TestHostLookup)
#include "tst_hostlookup.moc"
