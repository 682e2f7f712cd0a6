// A lock kept as a bare flag (knex's knex_migrations_lock.is_locked): when is it said to be left set?
// Only once the sessions that could have set it are gone (a flag the console saw set), or once no
// session has run a statement on the library's tables for 10 min (a flag set before it watched);
// never while the run that set it is connected, whatever it is doing.
#include "DomainRows.h"
#include "domain/RefreshJudge.h"

#include <QTest>

using namespace lw;

class TestFlagLock : public QObject
{
    Q_OBJECT
    qint64 mono_ = 0;
    std::shared_ptr<const std::vector<LeaseTableConfig>> tables_ =
        std::make_shared<const std::vector<LeaseTableConfig>>(std::vector{*LeaseTableConfig::preset("knex")});

    // One refresh at server time `now`: the flag set or not, and these sessions.
    const std::vector<Finding>& refresh(RefreshJudge& j, double now, bool set, std::vector<SessionRow> sessions)
    {
        Snapshot s = test::answeredAt(now, mono_);
        s.leaseTables = tables_;
        std::vector<LeaseRow> rows;
        if (set) {
            LeaseRow r;
            r.name = QStringLiteral("migrations lock 1");
            rows.push_back(r);
        }
        s.leases = std::move(rows);
        s.sessions = std::move(sessions);
        return j.apply(s);
    }
    static SessionRow session(int pid, const QString& state, double stateChange, const QString& query)
    {
        SessionRow r = test::sessionRow(pid, QString(), state, stateChange);
        r.query = query;
        return r;
    }
    // Force-expire's evidence about the flag (the dialog's, with what the console saw).
    static HolderEvidence evidence(const RefreshJudge& j, double now)
    {
        const LeaseTracker& l = j.leases();
        return assessHolder(l.entry(0), {}, true, now, l.policyAt(0), l.tableAt(0), nullptr, &j.flags());
    }
    static QString leftSet(const std::vector<Finding>& fs)
    {
        for (const Finding& f : fs)
            if (f.kind == FindingKind::FlagLeftSet)
                return f.title;
        return {};
    }

private Q_SLOTS:
    // Seen set between two refreshes: its setter is among the sessions that did something then.
    // While that session stays (the run goes on, idle in node or busy on its own statements),
    // nothing is said; once it has been gone for the grace, the flag was left behind.
    void seenSetSaidOnceItsSettersAreGone()
    {
        RefreshJudge j([this] { return mono_; });
        const SessionRow app = session(50, QStringLiteral("idle"), 10, QStringLiteral("SELECT 1"));
        QVERIFY(leftSet(refresh(j, 1000, false, {app})).isEmpty());
        const SessionRow run = session(61, QStringLiteral("idle"), 1000.4, QStringLiteral("COMMIT"));
        for (double t = 1001; t < 1100; t += 1)
            QVERIFY(leftSet(refresh(j, t, true, {app, run})).isEmpty());
        QVERIFY2(evidence(j, 1099).looksAlive, qPrintable(evidence(j, 1099).summary()));
        QVERIFY(evidence(j, 1099).summary().contains(QLatin1String("pid 61")));
        // The migration's own statement (not on knex's tables): still the run.
        const SessionRow busy = session(61, QStringLiteral("active"), 1100, QStringLiteral("CREATE INDEX i ON t (a)"));
        QVERIFY(leftSet(refresh(j, 1100, true, {app, busy})).isEmpty());
        // Killed: its session ends; the application's session that did nothing then stays.
        for (double t = 1101; t < 1111; t += 1)
            QVERIFY(leftSet(refresh(j, t, true, {app})).isEmpty());
        const QString title = leftSet(refresh(j, 1111.5, true, {app}));
        QVERIFY2(title.contains(QLatin1String("pid 61")), qPrintable(title));
        QVERIFY(title.contains(QLatin1String("knex")));
        QVERIFY2(!evidence(j, 1111.5).looksAlive, qPrintable(evidence(j, 1111.5).summary()));
        // Cleared (unlocked): nothing to say.
        QVERIFY(leftSet(refresh(j, 1112, false, {app})).isEmpty());
    }

    // A run whose session is still there is never said, however long it runs.
    void aLongRunIsNeverSaid()
    {
        RefreshJudge j([this] { return mono_; });
        refresh(j, 1000, false, {});
        const SessionRow run = session(61, QStringLiteral("idle"), 1000.4, QStringLiteral("COMMIT"));
        for (double t = 1001; t < 4000; t += 30)
            QVERIFY(leftSet(refresh(j, t, true, {run})).isEmpty());
    }

    // Set before the console watched: no setter is known. Said once no session has run a statement
    // on knex's tables for 10 min; an idle session whose last statement was one long ago (an
    // application that migrated at its start) says nothing either way.
    void setBeforeWatchingSaidAfterTenQuietMinutes()
    {
        RefreshJudge j([this] { return mono_; });
        const SessionRow booted =
            session(50, QStringLiteral("idle"), 10, QStringLiteral("update \"knex_migrations_lock\" set \"is_locked\" = $1"));
        for (double t = 1000; t < 1300; t += 10)
            QVERIFY(leftSet(refresh(j, t, true, {booted})).isEmpty());
        // A run on knex's tables at 1300: the ten minutes start again.
        const SessionRow running =
            session(70, QStringLiteral("active"), 1300, QStringLiteral("select max(\"batch\") from \"knex_migrations\""));
        QVERIFY(leftSet(refresh(j, 1300, true, {booted, running})).isEmpty());
        for (double t = 1310; t < 1900; t += 10)
            QVERIFY2(leftSet(refresh(j, t, true, {booted})).isEmpty(), qPrintable(QString::number(t)));
        const QString title = leftSet(refresh(j, 1905, true, {booted}));
        QVERIFY2(title.contains(QLatin1String("10 min")), qPrintable(title));
    }
};

QTEST_GUILESS_MAIN(TestFlagLock)
#include "tst_flaglock.moc"
