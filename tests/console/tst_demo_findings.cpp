// The demo as a user starts it (throwaway cluster + the simulator's demo scenarios + the demo's
// profile): every kind of finding the overview names must show within a minute of starting.
#include "Demo.h"
#include "Monitor.h"
#include "TestCluster.h"
#include "domain/Analysis.h"

#include <QSet>
#include <QTest>

using namespace lw;

class TestDemoFindings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyKindWithinAMinute()
    {
        app::Demo demo;
        const auto err = demo.start(test::privateClusterOptions(QStringLiteral("demo")).directory);
        QVERIFY2(!err, qPrintable(err.value_or(QString())));
        PollerConfig cfg;
        cfg.connect.dsn = demo.dsn();
        demo.configure(cfg);
        Monitor monitor(cfg);
        QSet<QString> seen;
        connect(&monitor, &Monitor::refreshed, this, [&](const Snapshot&) {
            for (int i = 0; i < monitor.findings()->rowCount(); ++i)
                seen.insert(findingKindKey(monitor.findings()->finding(i).kind));
        });
        monitor.start();
        const QStringList wanted = {"stale_lease",       "pool_pinned",         "blocking_chain",
                                    "advisory_lock_wait",     "deadlocks",           "lock_table_pressure",
                                    "connections_near_limit", "key_collision", "writer_clock_skew"};
        auto missing = [&] {
            QStringList m;
            for (const QString& k : wanted)
                if (!seen.contains(k))
                    m << k;
            return m;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(missing().isEmpty(), qPrintable("not seen: " + missing().join(", ")), 60000);
    }
};

QTEST_GUILESS_MAIN(TestDemoFindings)
#include "tst_demo_findings.moc"
