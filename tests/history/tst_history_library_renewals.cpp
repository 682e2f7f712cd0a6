// Libraries whose rows carry no taken-at (Quartz's check-ins, db-scheduler's heartbeats) renewed
// through the window's own path with its history recording (issue 48 point 1): each check-in is a
// renewal, counted in the store rather than written as a row of its own; once the check-ins stop,
// the Lease history shows the lease going overdue and then stale; and the store replays to the
// states the live window showed at every refresh.
#include "Consoles.h"
#include "ConsoleSupport.h"
#include "history/LeaseTimelineView.h"
#include "itemmodels/LeaseModel.h"
#include "itemmodels/LeaseTimelineModel.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "LibraryDdl.h"
#include "TestCluster.h"
#include "domain/Findings.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"

#include <QDir>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace lw;

namespace {

// Quartz: StdJDBCConstants.INSERT_SCHEDULER_STATE, then UPDATE_SCHEDULER_STATE at every check-in
// (LAST_CHECKIN_TIME = System.currentTimeMillis()); a check-in interval of 1 s, so the instance is
// failed 1 s + 7.5 s after its last check-in (JobStoreSupport.calcFailedIfAfter).
const char* kQuartzInsert = "INSERT INTO QRTZ_SCHEDULER_STATE (SCHED_NAME, INSTANCE_NAME, LAST_CHECKIN_TIME, "
                            "CHECKIN_INTERVAL) VALUES ('QuartzScheduler', 'node11764577958000', "
                            "(extract(epoch FROM now()) * 1000)::bigint, 1000)";
const char* kQuartzCheckIn = "UPDATE QRTZ_SCHEDULER_STATE SET LAST_CHECKIN_TIME = (extract(epoch FROM now()) * "
                             "1000)::bigint WHERE SCHED_NAME = 'QuartzScheduler' AND INSTANCE_NAME = "
                             "'node11764577958000'";
// db-scheduler: JdbcTaskRepository.pick, then updateHeartbeat (`last_heartbeat = ? … and version = ?`)
// from the application's clock. The heartbeat is written 29 min 50 s in the past, so that the
// execution's 30-minute dead-execution window ends 10 s after each heartbeat and the test sees it
// run out without waiting half an hour.
const char* kDbSchedulerPick =
    "insert into scheduled_tasks (task_name, task_instance, execution_time, picked, version) values "
    "('send-invoices', 'daily', now(), false, 1); "
    "update scheduled_tasks set picked = true, picked_by = 'web-1', last_heartbeat = now() - interval '1790 s', "
    "version = version + 1 where picked = false and task_name = 'send-invoices' and task_instance = 'daily' "
    "and version = 1";
const char* kDbSchedulerHeartbeat = "update scheduled_tasks set last_heartbeat = now() - interval '1790 s' where "
                                    "task_name = 'send-invoices' and task_instance = 'daily' and version = 2";

const QString kQuartz = QStringLiteral("QuartzScheduler / node11764577958000");
const QString kDbScheduler = QStringLiteral("send-invoices / daily");

using States = QMap<QString, LeaseState>; // lease name → state

States statesOf(const LeaseTracker& t, double now)
{
    States out;
    for (int i = 0; i < t.size(); ++i)
        out.insert(t.entry(i).track.row.name, t.stateAt(i, now));
    return out;
}

// What a state was judged from, for a failure's message: the last renewal and the TTL, relative
// to `now` (a disagreement at a state's edge says by how much).
QString tracksOf(const LeaseTracker& t, double now)
{
    QStringList parts;
    for (int i = 0; i < t.size(); ++i) {
        const LeaseTrack& k = t.entry(i).track;
        parts << QStringLiteral("%1: last renewal %2 s ago, ttl %3, expires in %4 s")
                     .arg(k.row.name)
                     .arg(k.lastRenewal ? QString::number(now - *k.lastRenewal, 'f', 3) : QStringLiteral("-"))
                     .arg(k.ttl ? QString::number(*k.ttl, 'f', 3) : QStringLiteral("-"))
                     .arg(k.row.expiresAt ? QString::number(*k.row.expiresAt - now, 'f', 3)
                                          : QStringLiteral("-"));
    }
    return parts.join(QStringLiteral("; "));
}

QString dump(const States& s)
{
    QStringList parts;
    for (auto it = s.begin(); it != s.end(); ++it)
        parts << it.key() + QLatin1Char('=') + leaseStateKey(it.value());
    return parts.join(QStringLiteral(", "));
}

} // namespace

class TstHistoryLibraryRenewals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void checkInsAreCountedRenewalsAndTheirEndIsRecorded()
    {
        test::TestDatabase db("hist_lib_renewals");
        db.exec(QString::fromLatin1(test::kQuartzDdl));
        db.exec(QString::fromLatin1(test::kDbSchedulerDdl));
        db.exec(QString::fromLatin1(kQuartzInsert));
        db.exec(QString::fromLatin1(kDbSchedulerPick));

        QTemporaryDir dir;
        ProfileStore store(dir.filePath("profiles.json"));
        app::Consoles consoles(&store, nullptr);
        consoles.setHistoryDir(dir.filePath("history"));
        ui::MainWindow* w = consoles.open(test::fastConfig(db.dsn()), QStringLiteral("hist-libs"));
        Monitor* m = consoles.monitor(0);
        QVERIFY(consoles.recorder(0) && consoles.recorder(0)->isOpen());

        // What the window showed at each good refresh, by the refresh's server time.
        QMap<double, States> live;
        QMap<double, QString> liveTracks;
        connect(m, &Monitor::refreshed, this, [&](const Snapshot& s) {
            if (s.ok && !s.leasesError) {
                live.insert(s.serverNow, statesOf(m->leases()->tracker(), s.serverNow));
                liveTracks.insert(s.serverNow, tracksOf(m->leases()->tracker(), s.serverNow));
            }
        });
        QTRY_COMPARE_WITH_TIMEOUT(m->leases()->rowCount(), 2, 15000);

        // The applications check in every second for 40 s.
        int checkIns = 0;
        QTimer beat;
        beat.setInterval(1000);
        connect(&beat, &QTimer::timeout, this, [&] {
            db.exec(QString::fromLatin1(kQuartzCheckIn));
            db.exec(QString::fromLatin1(kDbSchedulerHeartbeat));
            ++checkIns;
        });
        beat.start();
        QTRY_VERIFY_WITH_TIMEOUT(checkIns >= 40, 80000);
        beat.stop();
        const double stoppedAt = live.isEmpty() ? 0 : live.lastKey();
        for (auto it = live.begin(); it != live.end(); ++it) // renewed in time, never overdue
            for (LeaseState st : it.value())
                QVERIFY2(st == LeaseState::Held || st == LeaseState::ExpiringSoon,
                         qPrintable(QStringLiteral("at %1: %2").arg(it.key(), 0, 'f', 1).arg(dump(it.value()))));

        // Silence: overdue, then stale (Quartz 8.5 s after its last check-in, db-scheduler 10 s).
        const auto stateOf = [&](const QString& name) {
            for (int i = 0; i < m->leases()->rowCount(); ++i)
                if (m->leases()->entry(i).track.row.name == name)
                    return m->leases()->stateAt(i);
            return LeaseState::Unknown;
        };
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(kQuartz) == LeaseState::Stale && stateOf(kDbScheduler) == LeaseState::Stale,
                                 30000);
        const int lastRefreshes = live.size() + 3;
        QTRY_VERIFY_WITH_TIMEOUT(live.size() >= lastRefreshes, 10000);
        QVERIFY(stoppedAt > 0);

        // The store: a handful of rows per lease (seen, the first renewal, overdue, stale, the
        // count), every check-in counted.
        HistoryRecorder* rec = consoles.recorder(0);
        rec->flush();
        QVERIFY2(rec->stats().renewalsCounted >= 2 * (checkIns - 4),
                 qPrintable(QStringLiteral("%1 counted for %2 check-ins each")
                                .arg(rec->stats().renewalsCounted)
                                .arg(checkIns)));
        const HistoryReader reader(rec->path());
        QVERIFY(reader.isOpen());
        for (const QString& name : {kQuartz, kDbScheduler}) {
            const std::vector<LeaseTimelineEvent> events = reader.timeline(name);
            QStringList kinds;
            int renewals = 0;
            for (const LeaseTimelineEvent& e : events) {
                kinds << timelineKindText(e.kind);
                if (e.kind == LeaseTimelineEvent::Kind::Renewals)
                    renewals += e.renewals;
            }
            QVERIFY2(events.size() <= 6, qPrintable(name + QStringLiteral(": ") + kinds.join(QStringLiteral(", "))));
            QVERIFY2(renewals >= checkIns - 3, qPrintable(QStringLiteral("%1: %2 renewals on the timeline, %3 check-ins")
                                                              .arg(name)
                                                              .arg(renewals)
                                                              .arg(checkIns)));
            QVERIFY2(kinds.endsWith(timelineKindText(LeaseTimelineEvent::Kind::Expired)) &&
                         kinds.contains(timelineKindText(LeaseTimelineEvent::Kind::Overdue)),
                     qPrintable(name + QStringLiteral(": ") + kinds.join(QStringLiteral(", "))));
            QVERIFY2(!kinds.contains(timelineKindText(LeaseTimelineEvent::Kind::Changed)),
                     qPrintable(name + QStringLiteral(": ") + kinds.join(QStringLiteral(", "))));
        }

        // The window's Lease history page shows the same.
        auto* tl = w->findChild<ui::LeaseTimelineView*>("leaseTimeline");
        QVERIFY(tl);
        w->showLease(kQuartz);
        w->tabs()->setCurrentWidget(tl);
        const auto shownEvents = [&] {
            QStringList out;
            if (auto* v = tl->findChild<QTableView*>())
                for (int r = 0; r < v->model()->rowCount(); ++r)
                    out << v->model()->index(r, LeaseTimelineModel::Event).data().toString();
            return out;
        };
        QTRY_VERIFY_WITH_TIMEOUT(shownEvents().contains(timelineKindText(LeaseTimelineEvent::Kind::Overdue)), 5000);
        QVERIFY2(shownEvents().contains(timelineKindText(LeaseTimelineEvent::Kind::Expired)),
                 qPrintable(shownEvents().join(QStringLiteral(", "))));
        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        w->resize(1200, 720);
        w->grab().save(shots + "/history-quartz-checkins.png");

        // Replayed, every recorded refresh judges each lease as the window did then.
        RefreshJudge replay(leasePolicyFor(m->config()), m->config().leases.writerUsesAppClock);
        int replayed = 0, compared = 0;
        reader.forEachSnapshot(0, 1e12, [&](const Snapshot& s) {
            replay.apply(s);
            ++replayed;
            const auto it = live.constFind(s.serverNow);
            if (it == live.constEnd())
                return true; // recorded after the test stopped looking
            ++compared;
            const States got = statesOf(replay.leases(), s.serverNow);
            if (got != it.value()) {
                QTest::qFail(
                    qPrintable(
                        QStringLiteral("at %1 replay shows %2, live showed %3\n  replay: %4\n  live: %5")
                            .arg(s.serverNow, 0, 'f', 3)
                            .arg(dump(got), dump(it.value()))
                            .arg(tracksOf(replay.leases(), s.serverNow), liveTracks.value(s.serverNow))),
                    __FILE__, __LINE__);
                return false;
            }
            return true;
        });
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(compared >= live.size() - 2, qPrintable(QStringLiteral("%1 of %2 live refreshes replayed (%3 in all)")
                                                             .arg(compared)
                                                             .arg(live.size())
                                                             .arg(replayed)));
    }
};

QTEST_MAIN(TstHistoryLibraryRenewals)
#include "tst_history_library_renewals.moc"
