// Desktop alerts: once per occurrence, past the alert threshold, only for the kinds configured.
#include "Alerts.h"
#include "itemmodels/LocksModels.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>

using namespace lw;

namespace {
Finding finding(FindingKind kind, const QString& subject)
{
    Finding f;
    f.kind = kind;
    f.severity = 2;
    f.subject = subject;
    f.id = findingKindKey(kind) + QLatin1Char(':') + subject;
    f.title = subject + QStringLiteral(" is in trouble");
    return f;
}
// The finding an `alerted` signal carried.
Finding alertedFinding(const QSignalSpy& spy, int i)
{
    return spy.at(i).at(0).value<Finding>();
}
} // namespace

class TestAlerts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void oncePerOccurrencePastTheThreshold()
    {
        FindingsModel model;
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QWidget window;
        ui::AlertConfig cfg;
        cfg.staleLeaseAfterS = 30;
        ui::Alerts alerts(&model, &window, QStringLiteral("prod"), cfg);
        QSignalSpy spy(&alerts, &ui::Alerts::alerted);
        auto at = [&](double t, std::vector<Finding> fs) {
            model.setFindings(std::move(fs), t);
            alerts.check(t);
        };
        const Finding stale = finding(FindingKind::StaleLease, "sweep");
        at(100, {stale});
        QCOMPARE(spy.count(), 0); // stale for 0 s: below the alert threshold
        at(129, {stale});
        QCOMPARE(spy.count(), 0);
        at(131, {stale});
        QCOMPARE(spy.count(), 1); // stale for 31 s
        QCOMPARE(alertedFinding(spy, 0).kind, FindingKind::StaleLease);
        QCOMPARE(alertedFinding(spy, 0).subject, QStringLiteral("sweep"));
        QCOMPARE(spy.at(0).at(1).toString(), stale.title); // the alert's words are the finding's title
        at(132, {stale});
        at(200, {stale});
        QCOMPARE(spy.count(), 1); // the same occurrence does not alert again

        at(201, {}); // taken over: the finding clears
        at(202, {stale});
        QCOMPARE(spy.count(), 1); // a new occurrence, not yet past its threshold
        at(233, {stale});
        QCOMPARE(spy.count(), 2);

        // A pinned pool alerts at once; a key collision is not an alerting kind.
        at(234, {stale, finding(FindingKind::PoolPinned, "billing-api"), finding(FindingKind::KeyCollision, "k")});
        QCOMPARE(spy.count(), 3);
        QCOMPARE(alertedFinding(spy, 2).kind, FindingKind::PoolPinned);
        QCOMPARE(alerts.raisedCount(), 3);

        // A PgBouncer slot's lock alerts when it leaks (severity 3), not when it may be fine.
        Finding leaking = finding(FindingKind::BouncerSlotHoldsLock, "4242");
        leaking.severity = 3;
        Finding inTransaction = finding(FindingKind::BouncerSlotHoldsLock, "4343");
        inTransaction.severity = 1;
        at(235, {stale, finding(FindingKind::PoolPinned, "billing-api"), inTransaction});
        QCOMPARE(spy.count(), 3);
        at(236, {stale, finding(FindingKind::PoolPinned, "billing-api"), inTransaction, leaking});
        QCOMPARE(spy.count(), 4);
        QCOMPARE(alertedFinding(spy, 3).kind, FindingKind::BouncerSlotHoldsLock);
        QCOMPARE(alertedFinding(spy, 3).id, leaking.id); // the leaking slot, not the one in a transaction
        QCOMPARE(alertedFinding(spy, 3).severity, 3);
        QCOMPARE(spy.at(3).at(1).toString(), leaking.title);
    }

    // The end of an alert: once, when its finding is gone or back under the alert threshold, with
    // the text it alerted with (a title may change while the finding lasts).
    void clearsWithTheTextItAlerted()
    {
        FindingsModel model;
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ui::AlertConfig cfg;
        ui::Alerts alerts(&model, nullptr, QStringLiteral("prod"), cfg);
        QSignalSpy cleared(&alerts, &ui::Alerts::cleared);
        auto at = [&](double t, std::vector<Finding> fs) {
            model.setFindings(std::move(fs), t);
            alerts.check(t);
        };
        Finding pressure = finding(FindingKind::LockTablePressure, "cluster");
        pressure.title = QStringLiteral("shared lock table at 91 %");
        const Finding pinned = finding(FindingKind::PoolPinned, "api");
        at(10, {pressure, pinned});
        pressure.title = QStringLiteral("shared lock table at 95 %");
        at(11, {pressure, pinned});
        QCOMPARE(cleared.count(), 0);
        at(12, {pinned});
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(cleared.at(0).at(0).toString(), pressure.id);
        QCOMPARE(cleared.at(0).at(1).toString(), QStringLiteral("shared lock table at 91 %"));
        at(13, {pinned});
        QCOMPARE(cleared.count(), 1); // once
        at(14, {});
        QCOMPARE(cleared.count(), 2);
        QCOMPARE(cleared.at(1).at(0).toString(), pinned.id);
        QCOMPARE(cleared.at(1).at(1).toString(), pinned.title);
    }

    // A server that stopped answering alerts by default, and the tray's tooltip names the state.
    void notAnsweringAlertsAndTheTooltipSaysSo()
    {
        FindingsModel model;
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ui::Alerts alerts(&model, nullptr, QStringLiteral("prod"), ui::AlertConfig{});
        QSignalSpy spy(&alerts, &ui::Alerts::alerted);
        alerts.setStatus(QStringLiteral("not answering"));
        QVERIFY(alerts.toolTip().endsWith(QStringLiteral("not answering")));
        model.setFindings({finding(FindingKind::ServerNotAnswering, "server")}, 10);
        alerts.check(10);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(alertedFinding(spy, 0).kind, FindingKind::ServerNotAnswering);
    }

    void offWhenTheProfileSaysSo()
    {
        FindingsModel model;
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ui::AlertConfig cfg;
        cfg.enabled = false;
        ui::Alerts alerts(&model, nullptr, QStringLiteral("quiet"), cfg);
        QSignalSpy spy(&alerts, &ui::Alerts::alerted);
        model.setFindings({finding(FindingKind::PoolPinned, "api")}, 10);
        alerts.check(10);
        QCOMPARE(spy.count(), 0);
    }
};

QTEST_MAIN(TestAlerts)
#include "tst_alerts.moc"
