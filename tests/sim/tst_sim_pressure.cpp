// Scenario 7 on a private cluster with a tiny lock table (max_connections 20,
// max_locks_per_transaction 10: nominal capacity 200), so exhausting it is quick and harms no one.
#include "SimTestSupport.h"

#include <QtTest>

#include <memory>

using namespace lw;
using namespace lw::test;

class TstSimPressure : public QObject
{
    Q_OBJECT
    std::unique_ptr<cluster::ThrowawayCluster> cluster_;
    QString dsn_;

private slots:
    void initTestCase()
    {
        cluster::ClusterOptions o = privateClusterOptions(QStringLiteral("simpressure"));
        o.maxConnections = 20;
        o.maxLocksPerTransaction = 10;
        cluster_ = std::make_unique<cluster::ThrowawayCluster>(o);
        const auto e = cluster_->start();
        QVERIFY2(!e, e ? qPrintable(*e) : "");
        execSql(cluster_->dsn(), QStringLiteral("CREATE DATABASE pressure"));
        dsn_ = cluster_->dsn(QStringLiteral("pressure"));
    }

    void cleanupTestCase() { cluster_.reset(); }

    void belowCapacityHoldsTheLocks()
    {
        EventLog log;
        sim::Simulator s(
            simOptions(dsn_, {QStringLiteral("lock-pressure:fraction=0.5,hold=30,every=0")}, &log));
        QVERIFY(!s.start());
        QVERIFY2(waitUntil([&] { return log.count(QStringLiteral("pressure")) == 1; }, 10000),
                 qPrintable(log.dump()));
        // 0.5 × 10 × (20 + 0) = 100 advisory locks, all granted to the one pressure session.
        QCOMPARE(queryValue(dsn_, QStringLiteral(
                                      "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                                      "WHERE a.application_name = 'sim-lock-pressure' AND "
                                      "l.locktype = 'advisory' AND l.granted")),
                 QStringLiteral("100"));
        QVERIFY(log.of(QStringLiteral("pressure"))
                    .front()
                    .text.contains(QStringLiteral("nominal lock-table capacity 200")));
        s.stop();
        QCOMPARE(
            queryValue(dsn_, QStringLiteral("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")),
            QStringLiteral("0"));
        QCOMPARE(log.count(QStringLiteral("53200")), 0);
    }

    void aboveCapacityReports53200()
    {
        EventLog log;
        sim::Simulator s(
            simOptions(dsn_, {QStringLiteral("lock-pressure:fraction=1.5,every=0,cap=100")}, &log));
        QVERIFY(!s.start());
        QVERIFY2(waitUntil(
                     [&] {
                         return log.count(QStringLiteral("53200")) + log.count(QStringLiteral("pressure")) >=
                                1;
                     },
                     30000),
                 qPrintable(log.dump()));
        QVERIFY2(log.count(QStringLiteral("53200")) == 1, qPrintable(log.dump()));
        const QString text = log.of(QStringLiteral("53200")).front().text;
        QVERIFY2(text.contains(QStringLiteral("SQLSTATE 53200")), qPrintable(text));
        // It got past the nominal capacity before the server ran out (the capacity is a floor).
        static const QRegularExpression re(QStringLiteral("after (\\d+) advisory locks"));
        const int taken = re.match(text).captured(1).toInt();
        QVERIFY2(taken >= 200, qPrintable(text));
        // The failed transaction is gone: the server holds none of its locks any more.
        QVERIFY(waitUntil(
            [&] {
                return queryValue(dsn_, QStringLiteral(
                                            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")) ==
                       QLatin1String("0");
            },
            5000));
        s.stop();
    }
};

QTEST_GUILESS_MAIN(TstSimPressure)
#include "tst_sim_pressure.moc"
