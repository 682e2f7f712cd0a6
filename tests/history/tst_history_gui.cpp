// The history widgets offscreen: the recorded bar drives a recorded Monitor through the recorded
// range (forward steps and jumps back give the same models as a full replay), and the timeline view
// shows one lease's history.
#include "HistoryTestSupport.h"
#include "Monitor.h"
#include "PoolView.h"
#include "charts/ChartPanel.h"
#include "history/LeaseStripView.h"
#include "history/LeaseTimelineView.h"
#include "history/RecordedBar.h"
#include "itemmodels/LeaseModel.h"
#include "itemmodels/LeaseStrip.h"
#include "itemmodels/LeaseTimelineModel.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace lw;
using namespace lw::test;

class TstHistoryGui : public QObject
{
    Q_OBJECT
    QTemporaryDir dir_;
    QString path_;

    QStringList leaseStates(Monitor* m)
    {
        QStringList out;
        for (int r = 0; r < m->leases()->rowCount(); ++r)
            out << m->leases()->entry(r).key + QLatin1Char('=') + leaseStateKey(m->leases()->stateAt(r));
        out.sort();
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        path_ = dir_.filePath(QStringLiteral("gui.sqlite"));
        HistoryOptions o;
        o.path = path_;
        o.wallClockMs = [] { return qint64(20'000'000); }; // the synthetic refreshes are all younger than 7 days
        FedWriter w(o);
        for (int i = 0; i < 60; ++i) {
            SnapshotSpec sp;
            sp.now = 8000 + i;
            sp.sessions = {session(101, QStringLiteral("app"), QStringLiteral("idle"))};
            // h1 stalled, not dead: its session stays busy until 8045, after h2's takeover at 8040.
            if (i >= 38 && i < 45)
                sp.sessions = {session(101, QStringLiteral("app"), QStringLiteral("idle")),
                               session(102, QStringLiteral("worker@h1"), QStringLiteral("active"))};
            sp.locks = {advisoryLock(101, 3)};
            // "job" renewed every 2 s by h1 until 8020, stale until h2 takes it over at 8040.
            const double exp = i <= 20 ? 8000 + (i / 2) * 2 + 4 : 8024;
            sp.leases = {lease("job", i < 40 ? "h1:1:a" : "h2:2:b", i < 40 ? 7999 : 8040, i < 40 ? exp : 8050)};
            if (i >= 10 && i < 30)
                sp.leases.push_back(lease("batch", "h3:3:c", 8010, 8100));
            QVERIFY(w.write(makeSnapshot(sp)));
        }
    }

    void barStepsAndJumpsLikeAFullReplay()
    {
        HistoryReader r(path_);
        auto m = Monitor::recorded(r.recordedConfig(), path_);
        ui::RecordedBar bar(m.get(), &r);
        bar.setWarmupSeconds(30);
        bar.show();
        QCOMPARE(bar.refreshCount(), 60);
        QCOMPARE(bar.shownTime(), 8059.0);
        QCOMPARE(m->recordedTime(), 8059.0);
        QVERIFY(bar.text()->text().startsWith(QStringLiteral("Recorded, not live — gui.sqlite — ")));
        QCOMPARE(bar.slider()->maximum(), 59);

        // A jump back, then forward steps; each time the models equal a replay from the start.
        auto reference = [&](double t) {
            auto ref = Monitor::recorded(r.recordedConfig(), path_);
            r.forEachSnapshot(0, t, [&](const Snapshot& s) {
                ref->showRecorded(s);
                return true;
            });
            return leaseStates(ref.get());
        };
        QSignalSpy shown(&bar, &ui::RecordedBar::shown);
        for (int index : {25, 26, 30, 45, 12, 59}) {
            bar.slider()->setValue(index);
            QCOMPARE(m->recordedTime(), 8000.0 + index);
            QCOMPARE(leaseStates(m.get()), reference(8000.0 + index));
        }
        QCOMPARE(shown.count(), 6);
        bar.seek(8030.5); // between refreshes: the one before
        QCOMPARE(bar.shownTime(), 8030.0);
        QCOMPARE(bar.slider()->value(), 30);
        QCOMPARE(m->locks()->rowCount(), 1);
    }

    void timelineViewShowsALease()
    {
        HistoryReader r(path_);
        ui::LeaseTimelineView v;
        v.setReader(&r);
        v.show();
        QCOMPARE(v.leaseBox()->count(), 2);
        v.showLease(QStringLiteral("job"));
        QCOMPARE(v.lease(), QStringLiteral("job"));
        using K = LeaseTimelineEvent::Kind;
        QList<int> kinds;
        for (int i = 0; i < v.model()->rowCount(); ++i)
            if (v.model()->event(i).kind != K::Overdue)
                kinds << int(v.model()->event(i).kind);
        QStringList texts;
        for (int k : kinds)
            texts << timelineKindText(K(k));
        // h2 takes it over at 8040 for 10 s and never renews: stale again from 8050.
        QVERIFY2(texts == QStringList({"held (recording began)", "renewed", "expired (stale)", "taken over",
                                       "expired (stale)"}),
                 qPrintable(texts.join(QStringLiteral(", "))));
        v.highlightTime(8041);
        QCOMPARE(v.table()->selectionModel()->selectedRows().size(), 1);
        QSignalSpy activated(&v, &ui::LeaseTimelineView::timeActivated);
        Q_EMIT v.table()->activated(v.model()->index(0, 0));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.front().front().toDouble(), 8000.0);
        v.leaseBox()->setCurrentText(QStringLiteral("batch"));
        QCOMPARE(v.model()->rowCount(), 2); // taken, released
    }

    // The strips: who held "job" when (h1 renewing, overdue, stale, h2's takeover, stale again), and every
    // lease of the table in one picture ("batch" held, then released).
    void stripsShowWhoHeldWhatWhen()
    {
        HistoryReader r(path_);
        ui::LeaseTimelineView view;
        view.resize(1200, 700);
        view.setReader(&r);
        view.showLease(QStringLiteral("job"));
        using S = StripSegment::State;
        const auto& one = view.leaseStrip()->rows();
        QCOMPARE(one.size(), size_t(1));
        QStringList seen;
        for (const StripSegment& g : one[0].segments)
            seen << stripStateText(g.state) + QLatin1Char('/') + g.holder.value_or(QString()) +
                        (g.takenOver ? QStringLiteral("/taken over") : QString());
        QVERIFY2(seen == (QStringList{"held/h1:1:a", "renewal overdue/h1:1:a", "stale/h1:1:a", "held/h2:2:b/taken over",
                                      "stale/h2:2:b"}), // h2's expiry at 8050 passes unrenewed
                 qPrintable(seen.join(" | ")));
        QCOMPARE(one[0].segments.back().to, r.range().to); // up to the last recorded refresh
        QVERIFY(view.leaseStrip()->describe(0, 8035).contains(QStringLiteral("stale")));
        // Both may have run it from h2's takeover until h1's session went idle: framed on the strip.
        QCOMPARE(one[0].overlaps, (std::vector<Overlap>{{8040.0, 8045.0}}));
        QVERIFY(view.leaseStrip()->describe(0, 8042).contains(QStringLiteral("may still have run it")));
        QVERIFY(!view.leaseStrip()->describe(0, 8047).contains(QStringLiteral("may still have run it")));

        // The whole table over the last recorded hour: both leases, "batch" ends released.
        const auto& all = view.tableStrips()->rows();
        QCOMPARE(all.size(), size_t(2));
        for (const ui::LeaseStripView::Row& row : all)
            if (row.lease == u"batch") {
                QCOMPARE(row.segments.front().state, S::Held);
                QCOMPARE(row.segments.back().state, S::Released);
            }

        // Clipped: a strip that starts inside the stale span begins stale (the state then in effect).
        const std::vector<StripSegment> late = leaseStrip(r.timeline(QStringLiteral("job")), 8030, 8059);
        QVERIFY(!late.empty());
        QCOMPARE(late.front().state, S::Stale);
        QCOMPARE(late.front().from, 8030.0);

        // A click on a row of the table's strips shows that lease's events.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (int i = 0; i < int(all.size()); ++i)
            if (all[size_t(i)].lease == u"batch")
                QTest::mouseClick(view.tableStrips(), Qt::LeftButton, {}, QPoint(300, 20 + i * 18 + 9));
        QCOMPARE(view.lease(), QStringLiteral("batch"));
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        view.showLease(QStringLiteral("job"));
        view.grab().save(shots + "/lease-history-strips.png");
    }

    // Two recorded hours, the first thinned to about a refresh a minute: the pool charts over
    // "Since start" still show a burst of connections that lasted one refresh in the thinned hour
    // (kept by the store's thinning, the pool history's per-minute peaks and the chart's own
    // thinning to its points, which once kept the budget line's samples instead).
    // The strips' time axis over a window of any length: a few labels at round times, no two the
    // same (a 2 s window once read "03:12:40" five times), none outside the window.
    void stripAxisLabelsDiffer()
    {
        const double t0 = 1765000000.37;
        for (double span : {0.8, 1.5, 2.0, 7.0, 45.0, 600.0, 7200.0, 30 * 3600.0, 9 * 86400.0}) {
            const auto ticks = ui::LeaseStripView::axisTicks(t0, t0 + span);
            QVERIFY2(ticks.size() >= 2 && ticks.size() <= 6, qPrintable(QString::number(span)));
            QSet<QString> labels;
            for (const auto& tick : ticks) {
                QVERIFY(tick.t >= t0 && tick.t <= t0 + span);
                labels.insert(tick.label);
            }
            QVERIFY2(labels.size() == int(ticks.size()),
                     qPrintable(QStringLiteral("%1 s: %2")
                                    .arg(span)
                                    .arg(QStringList(labels.begin(), labels.end()).join(", "))));
        }
        QVERIFY(ui::LeaseStripView::axisTicks(t0, t0).empty());
    }

    void thinnedHourStillShowsItsPeak()
    {
        const QString path = dir_.filePath(QStringLiteral("thinned.sqlite"));
        const double t0 = 30000;
        {
            HistoryOptions o;
            o.profile = QStringLiteral("thinned");
            o.path = path;
            o.wallClockMs = [] { return qint64(40'000'000); };
            FedWriter w(o);
            for (int i = 0; i < 7200; ++i) {
                SnapshotSpec sp;
                sp.now = t0 + i;
                const int billing = i == 1830 ? 40 : 4; // half an hour in, for one refresh
                for (int k = 0; k < billing; ++k)
                    sp.sessions.push_back(session(200 + k, QStringLiteral("billing"), QStringLiteral("idle")));
                for (int k = 0; k < 5 + i % 2; ++k)
                    sp.sessions.push_back(session(300 + k, QStringLiteral("reports"), QStringLiteral("active")));
                QVERIFY(w.write(makeSnapshot(sp)));
            }
            QVERIFY(w.stats().thinnedRefreshes > 3000);
        }
        HistoryReader r(path);
        QVERIFY(r.isOpen());
        auto m = Monitor::recorded(r.recordedConfig(), path);
        ui::PoolView view(m.get());
        view.resize(1200, 720);
        const auto range = r.range();
        QVERIFY(loadPoolHistory(r, *view.history(), range.from, range.to) > 0);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setWindow(ui::PoolView::Window::SinceStart);
        view.showChart(ui::PoolView::BudgetTab);
        QCoreApplication::processEvents();
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        view.grab().save(shots + "/pool-thinned-since-start.png");
        // A recording's page never says it is live.
        const auto* status = view.findChild<QLabel*>(QStringLiteral("poolStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("recorded")) && !status->text().contains(QStringLiteral("● live")),
                 qPrintable(status->text()));
        const ui::ChartPanel* chart = view.chart(ui::PoolView::BudgetTab);
        double peak = 0, peakAt = 0;
        const double budget = 100 - 3; // max_connections − reserved: the dashed limit line
        for (int sIdx = 0; sIdx < chart->drawnSeriesCount(); ++sIdx)
            for (const QPointF& p : chart->drawnPoints(sIdx))
                if (p.y() > peak && p.y() < budget - 0.5) {
                    peak = p.y();
                    peakAt = p.x();
                }
        QVERIFY2(peak >= 40 + 5, qPrintable(QString::number(peak))); // ~10 otherwise
        QVERIFY2(std::abs(peakAt / 1000.0 - (t0 + 1830)) < 60, qPrintable(QString::number(peakAt, 'f', 0)));
    }
};

QTEST_MAIN(TstHistoryGui)
#include "tst_history_gui.moc"
