// Issue 26, point 1: a hung server (postmaster and backends SIGSTOPped) is said in words on the
// Overview, with since when; the findings from before stay, greyed "as of" the last answer; past
// the threshold the silence is itself a critical card; the tab never reads "all clear" while the
// data is not live; after SIGCONT the console is live again.
#include "FaultSupport.h"
#include "Monitor.h"
#include "OverviewView.h"
#include "TestCluster.h"

#include <QDir>
#include <QListView>
#include <QtTest>

using namespace lw;

namespace {
int row(Monitor& m, FindingKind k)
{
    for (int i = 0; i < m.findings()->rowCount(); ++i)
        if (m.findings()->finding(i).kind == k)
            return i;
    return -1;
}
double asOf(Monitor& m, FindingKind k)
{
    const int r = row(m, k);
    return r < 0 ? -1 : m.findings()->index(r, 0).data(FindingsModel::AsOfRole).toDouble();
}
} // namespace

class TstFaultOverview : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hungServerIsSaidNotAllClear()
    {
        fault::PrivateServer srv(test::privateClusterOptions(QStringLiteral("overview-hang")));
        const auto started = srv.start();
        QVERIFY2(!started, qPrintable(started.value_or(QString())));
        PollerConfig cfg = test::pollerConfig(srv.dsn(), 200);
        cfg.refreshDeadlineMs = 1500;
        cfg.connect.connectTimeoutS = 2;
        cfg.analysis.thresholds.idleHoldingS = 0.3;
        cfg.analysis.thresholds.notAnsweringS = 4;
        // A finding from before the outage: an idle session holding an advisory lock.
        pg::Connection holder;
        pg::ConnectOptions ho;
        ho.dsn = srv.dsn();
        ho.readOnly = false;
        ho.applicationName = QStringLiteral("idle-holder");
        QVERIFY(!holder.connect(ho).isError());
        pg::ResultPtr r;
        QVERIFY(!holder.exec({"SELECT pg_advisory_lock(77)", {}}, r, pg::Clock::now() + std::chrono::seconds(5))
                     .isError());
        Monitor m(cfg);
        ui::OverviewView view(&m);
        view.resize(1000, 500);
        view.show();
        QVERIFY(!m.hasRefreshed());
        const QString notYetRead = view.shortStatus(); // nothing read yet: not healthy either
        m.start();
        QTRY_VERIFY_WITH_TIMEOUT(row(m, FindingKind::IdleHoldingAdvisory) >= 0, 15000);
        QCOMPARE(asOf(m, FindingKind::IdleHoldingAdvisory), 0.0); // live

        srv.freeze({srv.postmasterPid()});
        srv.freeze(srv.childPids());
        // Until the refresh's deadline the console cannot know; from then on it must say so.
        QVERIFY(fault::waitFor(
            [&] { return !m.lastSnapshot().ok || m.status().state != ConnectionStatus::State::Connected; }, 15000));
        QStringList seen; // every tab status while frozen
        for (int i = 0; i < 30; ++i) { // three seconds of the outage, through reconnect attempts
            QTest::qWait(100);
            // Not live, and the console knows it.
            QVERIFY2(!m.lastSnapshot().ok || m.status().state != ConnectionStatus::State::Connected,
                     qPrintable(QString::number(int(m.status().state))));
            seen << view.shortStatus();
            QVERIFY2(view.healthText().contains("since"), qPrintable(view.healthText()));
        }
        // (Each status is compared below with the one the Overview gives once the server is healthy.)
        // The finding from before stays, greyed "as of" the last answer.
        QVERIFY(row(m, FindingKind::IdleHoldingAdvisory) >= 0);
        QVERIFY(asOf(m, FindingKind::IdleHoldingAdvisory) > 0);
        // Past the threshold the silence itself is a critical card, live (not "as of"), first.
        QTRY_VERIFY_WITH_TIMEOUT(row(m, FindingKind::ServerNotAnswering) >= 0, 15000);
        const Finding& silent = m.findings()->finding(row(m, FindingKind::ServerNotAnswering));
        QCOMPARE(silent.severity, 3);
        QCOMPARE(asOf(m, FindingKind::ServerNotAnswering), 0.0);
        QVERIFY(silent.sinceServer <= m.lastSnapshot().serverNow || !m.lastSnapshot().ok);
        QCOMPARE(view.list()->model()->index(0, 0).data(FindingsModel::KindRole).toString(),
                 QStringLiteral("server_not_answering"));
        QVERIFY(m.outage().has_value());
        QVERIFY(m.outage()->seconds() >= 4);
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        view.grab().save(shots + "/overview-hung.png");

        srv.thawAll();
        QTRY_VERIFY_WITH_TIMEOUT(m.status().state == ConnectionStatus::State::Connected && m.lastSnapshot().ok,
                                 40000);
        QTRY_VERIFY_WITH_TIMEOUT(row(m, FindingKind::ServerNotAnswering) < 0, 5000);
        QVERIFY(!m.outage());
        QCOMPARE(asOf(m, FindingKind::IdleHoldingAdvisory), 0.0); // live again
        view.grab().save(shots + "/overview-recovered.png");
        holder.close();
        // Healthy again by the values (live, connected, no finding, none listed): what the tab says
        // then was never said while the server was frozen.
        QTRY_VERIFY_WITH_TIMEOUT(m.status().state == ConnectionStatus::State::Connected &&
                                     m.lastSnapshot().ok && !m.outage() && m.findings()->rowCount() == 0 &&
                                     view.list()->model()->rowCount() == 0,
                                 40000);
        const QString healthy = view.shortStatus();
        QVERIFY2(!seen.contains(healthy) && healthy != notYetRead,
                 qPrintable(healthy + " while frozen: " + seen.join(", ") +
                            "; before the first read: " + notYetRead));
    }
};

QTEST_MAIN(TstFaultOverview)
#include "tst_fault_overview.moc"
