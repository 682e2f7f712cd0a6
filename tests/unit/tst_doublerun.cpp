// A lease taken over while its previous holder is still busy (seed incident 4's double run): said
// while the old holder's sessions stay busy, cleared once they go idle; nothing when the old
// holder is quiet at the take-over or old and new share a host (their sessions cannot be told apart).
#include "DomainRows.h"
#include "domain/RefreshJudge.h"

#include <QTest>

using namespace lw;

class TestDoubleRun : public QObject
{
    Q_OBJECT
    qint64 mono_ = 0;

    const std::vector<Finding>& refresh(RefreshJudge& j, double now, LeaseRow row, std::vector<SessionRow> sessions)
    {
        Snapshot s = test::answeredAt(now, mono_);
        s.leases = std::vector<LeaseRow>{row};
        s.sessions = std::move(sessions);
        return j.apply(s);
    }
    static SessionRow worker(int pid, const char* host, const char* state)
    {
        return test::sessionRow(pid, QStringLiteral("worker@%1").arg(QLatin1String(host)), QString::fromLatin1(state), 0);
    }
    static QString doubleRun(const std::vector<Finding>& fs)
    {
        for (const Finding& f : fs)
            if (f.kind == FindingKind::DoubleRun)
                return f.title;
        return {};
    }
    // web-1 holds "sweep" (TTL 20 s) and stops renewing; at 1012 `next` takes it over.
    QString takeOver(RefreshJudge& j, const char* next, const std::vector<SessionRow>& sessions)
    {
        for (double t = 1000; t < 1012; t += 1)
            refresh(j, t, test::lease("sweep", "web-1:100:aa", 990, 1010), sessions);
        return doubleRun(refresh(j, 1012, test::lease("sweep", next, 1011.5, 1031.5), sessions));
    }

private Q_SLOTS:
    void saidWhileTheOldHolderStaysBusy()
    {
        RefreshJudge j([this] { return mono_; });
        const SessionRow web1 = worker(11, "web-1", "active"), web2 = worker(21, "web-2", "active");
        const QString title = takeOver(j, "web-2:200:bb", {web1, web2});
        QVERIFY2(title.contains(QLatin1String("web-1 may still be running it")) && title.contains(QLatin1String("web-2")),
                 qPrintable(title));
        QVERIFY(!doubleRun(refresh(j, 1013, test::lease("sweep", "web-2:200:bb", 1011.5, 1031.5), {web1, web2})).isEmpty());
        // web-1 goes idle: it has stopped; the warning goes and does not come back.
        const SessionRow idle = worker(11, "web-1", "idle");
        QVERIFY(doubleRun(refresh(j, 1014, test::lease("sweep", "web-2:200:bb", 1011.5, 1031.5), {idle, web2})).isEmpty());
        QVERIFY(doubleRun(refresh(j, 1015, test::lease("sweep", "web-2:200:bb", 1011.5, 1031.5), {web1, web2})).isEmpty());
    }

    void quietOrSameHostSaysNothing()
    {
        RefreshJudge quiet([this] { return mono_; });
        QVERIFY(takeOver(quiet, "web-2:200:bb", {worker(11, "web-1", "idle"), worker(21, "web-2", "active")}).isEmpty());
        RefreshJudge gone([this] { return mono_; });
        QVERIFY(takeOver(gone, "web-2:200:bb", {worker(21, "web-2", "active")}).isEmpty());
        RefreshJudge same([this] { return mono_; });
        QVERIFY(takeOver(same, "web-1:300:cc", {worker(11, "web-1", "active")}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDoubleRun)
#include "tst_doublerun.moc"
