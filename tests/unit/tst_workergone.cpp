// A job queue whose lock names an opaque worker id (graphile-worker's locked_by = pool-<hex>) and
// whose worker keeps one LISTEN session for its life: is a job's worker gone? Only once every
// listening session it could own has ended for the grace; a listener reconnecting is not a death;
// a worker never seen listening says nothing.
#include "DomainRows.h"
#include "domain/RefreshJudge.h"

#include <QTest>

using namespace lw;

namespace {
const char* kListen = "LISTEN \"jobs:insert\"; LISTEN \"worker:migrate\";";
}

class TestWorkerGone : public QObject
{
    Q_OBJECT
    qint64 mono_ = 0;
    std::shared_ptr<const std::vector<LeaseTableConfig>> tables_ =
        std::make_shared<const std::vector<LeaseTableConfig>>(std::vector{*LeaseTableConfig::preset("graphile-worker")});

    struct Job
    {
        QString name, holder;
        double lockedAt = 0;
    };
    // One refresh at server time `now` with these locked jobs and sessions.
    const std::vector<Finding>& refresh(RefreshJudge& j, double now, const std::vector<Job>& jobs,
                                        std::vector<SessionRow> sessions)
    {
        Snapshot s = test::answeredAt(now, mono_);
        s.leaseTables = tables_;
        std::vector<LeaseRow> rows;
        for (const Job& job : jobs)
            rows.push_back(test::lease(job.name, job.holder, job.lockedAt, job.lockedAt + 4 * 3600));
        s.leases = std::move(rows);
        s.sessions = std::move(sessions);
        return j.apply(s);
    }
    // A worker's listening session (idle, its LISTEN the last statement), from `addr` ("" = socket).
    static SessionRow listener(int pid, double started, const QString& addr = {})
    {
        SessionRow r = test::sessionRow(pid, QString(), QStringLiteral("idle"), started);
        r.backendStart = started;
        r.query = QString::fromLatin1(kListen);
        r.clientAddr = addr;
        return r;
    }
    // The pooled session that just locked a job (graphile-worker's get_job statement, now idle).
    static SessionRow taker(int pid, double at, const QString& addr)
    {
        SessionRow r = test::sessionRow(pid, QString(), QStringLiteral("idle"), at);
        r.backendStart = at - 0.1;
        r.query = QStringLiteral("with j as (select jobs.job_queue_id from \"graphile_worker\"._private_jobs as jobs …");
        r.clientAddr = addr;
        return r;
    }
    static const Finding* gone(const std::vector<Finding>& fs, const QString& subject)
    {
        for (const Finding& f : fs)
            if (f.kind == FindingKind::HolderGone && f.subject == subject)
                return &f;
        return nullptr;
    }
    // Force-expire's evidence about row `row` (the dialog's, with what the console saw).
    static HolderEvidence evidence(const RefreshJudge& j, double now, int row = 0)
    {
        const LeaseTracker& l = j.leases();
        return assessHolder(l.entry(row), {}, true, now, l.policyAt(row), l.tableAt(row),
                            j.presence().seen(l.entry(row).key), &j.flags());
    }

private Q_SLOTS:
    // The incident: the only worker, killed mid-job (SIGKILL: nothing unlocks). While it runs
    // nothing is said, however long; its LISTEN session gone for the grace, the job is said held by
    // a dead worker, with graphile-worker's own ways out; the force-expire dialog agrees.
    void killedWorkerIsSaidAfterTheGrace()
    {
        RefreshJudge j([this] { return mono_; });
        const SessionRow w = listener(20, 900);
        refresh(j, 1000, {}, {w});
        const Job job{QStringLiteral("nightly-report"), QStringLiteral("pool-a"), 1000.5};
        for (double t = 1001; t < 1300; t += 1)
            QVERIFY(!gone(refresh(j, t, {job}, {w}), job.name));
        QVERIFY2(evidence(j, 1299).looksAlive, qPrintable(evidence(j, 1299).summary()));
        QVERIFY(evidence(j, 1299).summary().contains(QLatin1String("pid 20")));
        for (double t = 1300; t < 1310; t += 1)
            QVERIFY(!gone(refresh(j, t, {job}, {}), job.name));
        const Finding* f = gone(refresh(j, 1310.5, {job}, {}), job.name);
        QVERIFY(f);
        QCOMPARE(f->severity, 2);
        QVERIFY2(f->explanation.contains(QLatin1String("pool-a")), qPrintable(f->explanation));
        QVERIFY2(f->fix.contains(QLatin1String("graphile_worker.force_unlock_workers(ARRAY['pool-a'])")),
                 qPrintable(f->fix));
        QVERIFY2(!evidence(j, 1310.5).looksAlive, qPrintable(evidence(j, 1310.5).summary()));
        // Another worker starting later does not bring it back; the job freed: nothing to say.
        QVERIFY(gone(refresh(j, 1330, {job}, {listener(40, 1325)}), job.name));
        QVERIFY(!gone(refresh(j, 1331, {}, {listener(40, 1325)}), job.name));
    }

    // The worker's LISTEN connection dropped and came back (graphile-worker reconnects within a
    // second, 0.13 within five): the same worker, never said.
    void listenerReconnectIsNotADeath()
    {
        RefreshJudge j([this] { return mono_; });
        refresh(j, 1000, {}, {listener(20, 900)});
        const Job job{QStringLiteral("job 7"), QStringLiteral("pool-a"), 1000.5};
        refresh(j, 1001, {job}, {listener(20, 900)});
        refresh(j, 1002, {job}, {});
        refresh(j, 1003, {job}, {});
        for (double t = 1006; t < 1100; t += 1)
            QVERIFY(!gone(refresh(j, t, {job}, {listener(21, 1005.5)}), job.name));
        QVERIFY(evidence(j, 1099).looksAlive);
    }

    // Workers on two hosts: the job's worker is the one on the host that locked it; its death is
    // said while the other host's worker stays connected, and the other's job is not.
    void twoHostsTheDeadOneIsSaid()
    {
        RefreshJudge j([this] { return mono_; });
        const SessionRow a = listener(20, 900, QStringLiteral("10.0.0.1")), b = listener(30, 900, QStringLiteral("10.0.0.2"));
        refresh(j, 1000, {}, {a, b});
        const Job ja{QStringLiteral("job 1"), QStringLiteral("pool-a"), 1000.5};
        refresh(j, 1001, {ja}, {a, b, taker(25, 1000.5, QStringLiteral("10.0.0.1"))});
        const Job jb{QStringLiteral("job 2"), QStringLiteral("pool-b"), 1001.5};
        refresh(j, 1002, {ja, jb}, {a, b, taker(35, 1001.5, QStringLiteral("10.0.0.2"))});
        for (double t = 1003; t < 1050; t += 1)
            refresh(j, t, {ja, jb}, {a, b});
        for (double t = 1050; t < 1070; t += 1)
            refresh(j, t, {ja, jb}, {b});
        const auto& fs = refresh(j, 1070, {ja, jb}, {b});
        QVERIFY(gone(fs, ja.name));
        QVERIFY(!gone(fs, jb.name));
    }

    // Two workers on one host (or a Unix socket): which listener is whose cannot be told; one of
    // them ending says nothing, both ending says it.
    void oneOfTwoIndistinctWorkersSaysNothing()
    {
        RefreshJudge j([this] { return mono_; });
        const SessionRow a = listener(20, 900), b = listener(30, 900);
        refresh(j, 1000, {}, {a, b});
        const Job job{QStringLiteral("job 1"), QStringLiteral("pool-a"), 1000.5};
        for (double t = 1001; t < 1050; t += 1)
            refresh(j, t, {job}, {a, b});
        for (double t = 1050; t < 1100; t += 1)
            QVERIFY(!gone(refresh(j, t, {job}, {b}), job.name));
        for (double t = 1100; t < 1111; t += 1)
            refresh(j, t, {job}, {});
        QVERIFY(gone(refresh(j, 1111, {job}, {}), job.name));
    }

    // Locked before the console looked, with no worker listening (it ran once, or died before):
    // nothing is said; the evidence says it cannot tell, and graphile-worker's own reset stays.
    void neverSeenListeningSaysNothing()
    {
        RefreshJudge j([this] { return mono_; });
        const Job job{QStringLiteral("job 3"), QStringLiteral("pool-z"), 500};
        for (double t = 1000; t < 1100; t += 1)
            QVERIFY(!gone(refresh(j, t, {job}, {}), job.name));
        const HolderEvidence ev = evidence(j, 1099);
        QVERIFY(ev.looksAlive);
        QVERIFY2(ev.summary().contains(QLatin1String("cannot be told")), qPrintable(ev.summary()));
    }
};

QTEST_GUILESS_MAIN(TestWorkerGone)
#include "tst_workergone.moc"
