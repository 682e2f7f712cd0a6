// What analyze() makes of a hand-built refresh: sessions holding thousands of advisory locks
// (incident 3) are summed up, not listed; key collisions come from the poller's kept list.
#include "domain/Analysis.h"
#include "../support/DomainRows.h"

#include <QSet>
#include <QTest>

#include <algorithm>

using namespace lw;

namespace {

constexpr double kNow = 1'800'000'000.0;

SessionRow idleSession(int pid, const QString& app, double idleForS)
{
    return test::sessionRow(pid, app, QStringLiteral("idle"), kNow - idleForS);
}

// A refresh that answered at kNow, with nothing in it yet.
Snapshot answered()
{
    Snapshot s;
    s.ok = true;
    s.serverNow = kNow;
    s.cluster.maxConnections = 100;
    s.cluster.maxLocksPerTransaction = 64;
    return s;
}

Snapshot refresh(int locks, const KeyNames& names = {})
{
    Snapshot s = answered();
    test::append(s.sessions, idleSession(101, QStringLiteral("batch"), 60));
    std::vector<AdvisoryLockRow> rows; // one vector: appending to a snapshot's rows copies them
    for (int k = 1; k <= locks; ++k)
        rows.push_back(test::advisoryLock(101, k));
    s.advisoryLocks = std::move(rows);
    s.keyNames = std::make_shared<const KeyNames>(names);
    return s;
}

const Finding* findingOf(const Analysis& a, FindingKind kind)
{
    const auto it = std::find_if(a.findings.begin(), a.findings.end(),
                                 [&](const Finding& f) { return f.kind == kind; });
    return it == a.findings.end() ? nullptr : &*it;
}


// A session waiting on a Lock (its wait_event the lock type) behind `blockers`.
SessionRow waiting(int pid, const QString& app, const QString& lockType, std::vector<int> blockers, const QString& query)
{
    SessionRow r = test::sessionRow(pid, app, QStringLiteral("active"), kNow - 40);
    r.waitEventType = QStringLiteral("Lock");
    r.waitEvent = lockType;
    r.blockedBy = std::move(blockers);
    r.query = query;
    return r;
}

// The shapes around a concurrent index build waiting for a session's snapshot (issue 52): the
// ones PostgreSQL never breaks, and the look-alikes that are not cycles or that it breaks itself.
Snapshot buildShape(const QString& shape)
{
    constexpr qint64 key = -8525285245963000605; // postgres-migrations' lock key
    const QString cic = QStringLiteral("CREATE INDEX CONCURRENTLY orders_customer ON orders (customer_id)");
    Snapshot s = answered();
    std::vector<SessionRow> rows;
    std::vector<AdvisoryLockRow> locks;
    if (shape == "lock on another session" || shape == "another client's build") {
        // deploy 1 holds its migration lock on one connection and builds on another; deploy 2's
        // migrator waits for the lock with a snapshot open.
        rows.push_back(test::sessionRow(4402, "deploy-1", "idle", kNow - 30));
        rows.push_back(waiting(4411, "deploy-2", "advisory", {4402}, "SELECT pg_advisory_lock(-8525285245963000605)"));
        rows.push_back(waiting(4403, shape == "lock on another session" ? "deploy-1" : "reports", "virtualxid",
                               {4411}, cic));
        locks.push_back(test::advisoryLock(4402, key));
        locks.push_back(test::advisoryLock(4411, key, false));
    } else if (shape.startsWith("poller")) {
        // deploy 1 holds the lock and builds on that session; deploy 2 retries pg_try_advisory_lock
        // inside a transaction (between tries) or inside one statement (sleeping between tries).
        rows.push_back(waiting(4402, "deploy-1", "virtualxid", {4411}, cic));
        const bool idleInTx = shape == "poller idle in transaction";
        SessionRow p = test::sessionRow(4411, "deploy-2", idleInTx ? "idle in transaction" : "active", kNow - 20);
        if (!idleInTx) {
            p.waitEventType = QStringLiteral("Timeout");
            p.waitEvent = QStringLiteral("PgSleep");
        }
        p.query = shape == "poller of another key"
                      ? QStringLiteral("SELECT pg_try_advisory_lock(42)")
                      : idleInTx ? QStringLiteral("SELECT pg_try_advisory_lock(-8525285245963000605);")
                                 : QStringLiteral("DO $$ BEGIN WHILE NOT pg_try_advisory_lock(-8525285245963000605) "
                                                  "LOOP PERFORM pg_sleep(1); END LOOP; END $$");
        rows.push_back(p);
        locks.push_back(test::advisoryLock(4402, key));
    } else if (shape == "PostgreSQL's own") {
        // The waiter blocks in pg_advisory_lock: both waits are lock waits, and the server's
        // deadlock detector ends one of them after deadlock_timeout.
        rows.push_back(waiting(4402, "deploy-1", "virtualxid", {4411}, cic));
        rows.push_back(waiting(4411, "deploy-2", "advisory", {4402}, "SELECT pg_advisory_lock(-8525285245963000605)"));
        locks.push_back(test::advisoryLock(4402, key));
        locks.push_back(test::advisoryLock(4411, key, false));
    } else if (shape == "row lock and a poller") {
        // The leader holds key 7 and updates a row a worker has locked; the worker, in its
        // transaction, retries for key 7: neither a lock wait of the worker's.
        rows.push_back(waiting(4402, "leader", "transactionid", {4411}, "UPDATE jobs SET state = 'done' WHERE id = 1"));
        SessionRow p = test::sessionRow(4411, "worker", "active", kNow - 20);
        p.waitEventType = QStringLiteral("Timeout");
        p.waitEvent = QStringLiteral("PgSleep");
        p.query = QStringLiteral("DO $$ BEGIN WHILE NOT pg_try_advisory_lock(7) LOOP PERFORM pg_sleep(1); END LOOP; END $$");
        rows.push_back(p);
        locks.push_back(test::advisoryLock(4402, 7));
    } else if (shape == "row lock behind an idle session of its own pool") {
        // Two requests of one pool: the waiter's row is locked by a session that waits for an idle
        // one of the same pool. That one's program is most likely doing something else: no cycle.
        rows.push_back(test::sessionRow(4402, "billing-api", "idle in transaction", kNow - 30));
        rows.push_back(waiting(4411, "reports", "transactionid", {4402}, "UPDATE accounts SET n = n + 1 WHERE id = 2"));
        rows.push_back(waiting(4403, "billing-api", "transactionid", {4411}, "UPDATE accounts SET n = n + 1 WHERE id = 3"));
    } else if (shape == "long transaction") {
        // The build waits for a transaction of its own client that waits on nothing: slow, not stuck.
        rows.push_back(test::sessionRow(4411, "deploy-1", "idle in transaction", kNow - 50));
        rows.push_back(waiting(4403, "deploy-1", "virtualxid", {4411}, cic));
    }
    s.sessions = std::move(rows);
    s.advisoryLocks = std::move(locks);
    return s;
}

} // namespace

class TestAnalysis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The idle-holding finding names the first few locks and counts the rest; so does a pinned pool.
    void manyLocksAreCountedNotListed_data()
    {
        QTest::addColumn<int>("locks");
        QTest::addColumn<bool>("poolOfOne");
        QTest::addColumn<QString>("listed");
        QTest::newRow("3 locks") << 3 << false << "1, 2, 3";
        QTest::newRow("8 locks") << 8 << false << "1, 2, 3, 4, 5, 6, 7, 8";
        QTest::newRow("20 000 locks") << 20000 << false << "1, 2, 3, 4, 5, 6, 7, 8 and 19992 more";
        QTest::newRow("20 000 locks, pinned pool") << 20000 << true
                                                   << "1, 2, 3, 4, 5, 6, 7, 8 and 19992 more";
    }
    void manyLocksAreCountedNotListed()
    {
        QFETCH(int, locks);
        QFETCH(bool, poolOfOne);
        QFETCH(QString, listed);
        AnalysisConfig cfg;
        if (poolOfOne)
            cfg.poolSizes.insert(QStringLiteral("batch"), 1);
        const Analysis a = analyze(refresh(locks), cfg);

        QCOMPARE(int(a.locks.size()), locks);
        for (const LockView& v : a.locks)
            QVERIFY2(v.finding(a.serverNow, a.config.thresholds).startsWith(QLatin1String("idle 1 min")),
                     qPrintable(v.finding(a.serverNow, a.config.thresholds)));
        QCOMPARE(int(a.groups().size()), 1);
        const PoolGroup& g = a.groups().front();
        QCOMPARE(g.pinnedLocks, locks);
        QCOMPARE(int(g.pinnedLockNames.size()), std::min(locks, kLockNamesShown));
        QCOMPARE(g.pinned, poolOfOne);

        // A pinned pool is one finding; otherwise the session is.
        const Finding* idle = findingOf(a, FindingKind::IdleHoldingAdvisory);
        const Finding* pinned = findingOf(a, FindingKind::PoolPinned);
        QCOMPARE(idle != nullptr, !poolOfOne);
        QCOMPARE(pinned != nullptr, poolOfOne);
        const Finding* f = poolOfOne ? pinned : idle;
        QVERIFY2(f->title.contains(listed), qPrintable(f->title));
        QVERIFY2(f->title.size() < 400, qPrintable(f->title));
    }

    void heldLocksByPidCountsEveryLock()
    {
        Snapshot s = refresh(30);
        test::append(s.sessions, idleSession(202, QStringLiteral("other"), 5));
        test::append(s.advisoryLocks, test::advisoryLock(202, 7));
        test::append(s.advisoryLocks, test::advisoryLock(202, 1, false)); // waits behind 101: not held
        const QHash<int, HeldLocks> held = heldLocksByPid(analyze(s, {}).locks.vec());
        QCOMPARE(held.value(101).count, 30);
        QCOMPARE(held.value(101).names.size(), kLockNamesShown);
        QCOMPARE(held.value(202).count, 1);
        QCOMPARE(held.value(202).names, QStringList{QStringLiteral("7")});
        QCOMPARE(lockNamesText({QStringLiteral("a"), QStringLiteral("b")}, 2), QStringLiteral("a, b"));
        QCOMPARE(lockNamesText({QStringLiteral("a"), QStringLiteral("b")}, 5),
                 QStringLiteral("a, b and 3 more"));
    }

    // Collisions are those the snapshot carries (the poller keeps them as it learns names); a
    // snapshot without them (a recorded one) has them found in its names.
    void collisionsComeWithTheNames()
    {
        KeyNames names;
        names.insert(42, {QStringLiteral("report-1"), QStringLiteral("report-2")});
        names.insert(43, {QStringLiteral("sweep")});
        QCOMPARE(keyCollisions(names).keys(), QList<qint64>{42});

        Snapshot s = refresh(1, names);
        const Analysis a = analyze(s, {});
        const Finding* found = findingOf(a, FindingKind::KeyCollision);
        QVERIFY(found);
        QVERIFY2(found->title.contains(QLatin1String("report-1 and report-2")), qPrintable(found->title));

        s.keyCollisions = std::make_shared<const KeyNames>(keyCollisions(names));
        QVERIFY(findingOf(analyze(s, {}), FindingKind::KeyCollision));
        s.keyCollisions = std::make_shared<const KeyNames>(); // the poller knows of none
        QVERIFY(!findingOf(analyze(s, {}), FindingKind::KeyCollision));
    }

    // A waiter names the sessions holding its key, and only those, however many other locks are
    // held; per session, an idle holder's text and a session-level lock's text.
    void waitersNameTheirKeysHolders_data()
    {
        QTest::addColumn<int>("otherLocks");
        QTest::newRow("no other locks") << 0;
        QTest::newRow("20 000 other locks") << 20000;
    }
    void waitersNameTheirKeysHolders()
    {
        QFETCH(int, otherLocks);
        Snapshot s = refresh(otherLocks); // pid 101, idle 60 s, holds keys 1…otherLocks
        test::append(s.sessions, test::sessionRow(201, QStringLiteral("a"), QStringLiteral("idle"), kNow - 2));
        test::append(s.sessions, test::sessionRow(202, QStringLiteral("b"), QStringLiteral("idle in transaction"), kNow - 30));
        test::append(s.sessions, test::sessionRow(301, QStringLiteral("waiter"), QStringLiteral("active"), kNow - 9));
        test::append(s.advisoryLocks, test::advisoryLock(201, -7)); // shared holders of key -7
        test::append(s.advisoryLocks, test::advisoryLock(202, -7));
        AdvisoryLockRow wait = test::advisoryLock(301, -7, false);
        wait.waitStart = kNow - 9;
        test::append(s.advisoryLocks, wait);
        test::append(s.advisoryLocks, test::advisoryLock(301, -8, false)); // nobody holds -8
        const Analysis a = analyze(s, AnalysisConfig{});
        auto finding = [&](size_t i) { return a.locks[i].finding(a.serverNow, a.config.thresholds); };
        QCOMPARE(a.locks.size(), size_t(otherLocks + 4));
        const LockView& waiting = a.locks[size_t(otherLocks + 2)];
        QCOMPARE(finding(size_t(otherLocks + 2)), QStringLiteral("waiting 9 s behind pid 201, 202"));
        QCOMPARE(finding(size_t(otherLocks + 3)), QStringLiteral("waiting behind pid ?"));
        const Finding* f = findingOf(a, FindingKind::AdvisoryWait);
        QVERIFY(f);
        QVERIFY2(f->title.endsWith(QStringLiteral("held by pid 201, 202")), qPrintable(f->title));
        // Per session: 201 idle 2 s with no transaction, 202 idle in transaction for 30 s.
        QCOMPARE(finding(size_t(otherLocks)),
                 QStringLiteral("session-level lock (held with no transaction open)"));
        QVERIFY(a.locks[size_t(otherLocks)].sessionLevel);
        QVERIFY(!a.locks[size_t(otherLocks + 1)].sessionLevel);
        QCOMPARE(a.locks[size_t(otherLocks + 1)].idleForS(a.serverNow), 30.0);
        QCOMPARE(finding(size_t(otherLocks + 1)),
                 QStringLiteral("idle 30 s holding this lock: the connection is out of its pool"));
        QCOMPARE(waiting.idleForS(a.serverNow), -1.0);
        QVERIFY(!waiting.sessionLevel);
    }

    // Given the previous refresh's analysis, the lock views are reused when nothing they depend on
    // changed, and made afresh otherwise; either way the analysis is the one made from scratch.
    void reusedLockViewsAreTheFreshOnes_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<bool>("reused");
        QTest::newRow("the clock only") << "clock" << true;
        QTest::newRow("a holder's query text") << "query" << true;
        QTest::newRow("a holder opens a transaction") << "transaction" << false;
        QTest::newRow("a holder goes active") << "active" << false;
        QTest::newRow("a session before the holders") << "reorder" << false;
        QTest::newRow("another pg_locks read, same rows") << "reread" << false;
        QTest::newRow("names learnt") << "names" << false;
    }
    void reusedLockViewsAreTheFreshOnes()
    {
        QFETCH(QString, change);
        QFETCH(bool, reused);
        Snapshot s1 = refresh(300); // pid 101 idle 60 s, holds keys 1…300
        test::append(s1.sessions, test::sessionRow(301, QStringLiteral("waiter"), QStringLiteral("active"), kNow - 3));
        AdvisoryLockRow wait = test::advisoryLock(301, 7, false);
        wait.waitStart = kNow - 3; // under the 5 s threshold now, over it 5 s later
        test::append(s1.advisoryLocks, wait);
        const Analysis a1 = analyze(s1, {});
        QVERIFY(!findingOf(a1, FindingKind::AdvisoryWait));

        Snapshot s2 = s1;
        s2.serverNow = kNow + 5;
        std::vector<SessionRow> sessions = s2.sessions.vec();
        SessionRow& holder = sessions[0];
        if (change == QLatin1String("query"))
            holder.query = QStringLiteral("SELECT 2");
        else if (change == QLatin1String("transaction"))
            holder.state = QStringLiteral("idle in transaction");
        else if (change == QLatin1String("active"))
            holder.state = QStringLiteral("active");
        else if (change == QLatin1String("reorder"))
            s2.sessions = std::vector<SessionRow>{idleSession(99, QStringLiteral("other"), 1), s1.sessions[0], s1.sessions[1]};
        else if (change == QLatin1String("reread"))
            s2.advisoryLocks = s1.advisoryLocks.vec();
        else if (change == QLatin1String("names"))
            s2.keyNames = std::make_shared<const KeyNames>(KeyNames{{7, {QStringLiteral("report")}}});
        if (change != QLatin1String("reorder"))
            s2.sessions = std::move(sessions);

        const Analysis a2 = analyze(s2, {}, &a1);
        const Analysis fresh = analyze(s2, {});
        QCOMPARE(a2.locks.sharesStorageWith(a1.locks), reused);
        QVERIFY(a2.locks.vec() == fresh.locks.vec());
        QCOMPARE(a2.findings, fresh.findings);
        QCOMPARE(a2.waiters, fresh.waiters);
        QCOMPARE(a2.holderPids, fresh.holderPids);
        QCOMPARE(a2.heldByPid.keys(), fresh.heldByPid.keys());
        for (auto it = fresh.heldByPid.cbegin(); it != fresh.heldByPid.cend(); ++it) {
            QCOMPARE(a2.heldByPid.value(it.key()).count, it->count);
            QCOMPARE(a2.heldByPid.value(it.key()).names, it->names);
        }
        QCOMPARE(a2.groups().size(), fresh.groups().size());
        for (size_t g = 0; g < fresh.groups().size(); ++g)
            QCOMPARE(a2.groups()[g].pinnedLockNames, fresh.groups()[g].pinnedLockNames);
        // The clock moved the wait past its threshold, reused views or not.
        QVERIFY(findingOf(a2, FindingKind::AdvisoryWait));
        const size_t w = size_t(a2.waiters.front());
        QCOMPARE(a2.locks[w].finding(a2.serverNow, a2.config.thresholds),
                 QStringLiteral("waiting 8 s behind pid 101"));
    }

    // A pool size configured for an application is the size of that application's groups, not of
    // the user's or the database's group that its sessions happen to open; those take a size
    // configured by their own key only.
    void poolSizeBelongsToItsApplication()
    {
        Snapshot s = refresh(0);
        s.sessions = {};
        for (int i = 0; i < 6; ++i) {
            SessionRow r = idleSession(301 + i, i < 4 ? QStringLiteral("billing-api") : QStringLiteral("reports"), 60);
            r.user = QStringLiteral("postgres");
            r.database = QStringLiteral("app");
            r.clientAddr = QStringLiteral("10.0.0.7");
            test::append(s.sessions, r);
            test::append(s.advisoryLocks, test::advisoryLock(301 + i, 1 + i));
        }
        AnalysisConfig cfg;
        cfg.poolSizes.insert(QStringLiteral("billing-api"), 4);
        const Analysis a = analyze(s, cfg);
        auto sizeOf = [&](GroupBy by, const QString& key) {
            for (const PoolGroup& g : a.groupsBy[size_t(by)])
                if (g.key == key)
                    return g.poolSize.value_or(-1);
            return -2;
        };
        QCOMPARE(sizeOf(GroupBy::ClientInstance, QStringLiteral("billing-api on 10.0.0.7")), 4);
        QCOMPARE(sizeOf(GroupBy::ApplicationName, QStringLiteral("billing-api")), 4);
        QCOMPARE(sizeOf(GroupBy::ApplicationName, QStringLiteral("reports")), -1);
        QCOMPARE(sizeOf(GroupBy::User, QStringLiteral("postgres")), -1);
        QCOMPARE(sizeOf(GroupBy::Database, QStringLiteral("app")), -1);
        for (GroupBy by : {GroupBy::User, GroupBy::Database}) {
            cfg.groupBy = by;
            QCOMPARE(groupSessions(s, cfg, a.heldByPid).front().poolSize, std::optional<int>());
        }
        // Six idle sessions holding locks: every connection of the user's group is pinned, and its
        // finding counts them against the six it has, not against billing-api's four.
        cfg.groupBy = GroupBy::User;
        const Analysis byUser = analyze(s, cfg);
        const Finding* pinned = findingOf(byUser, FindingKind::PoolPinned);
        QVERIFY(pinned);
        QVERIFY2(pinned->title.startsWith(QStringLiteral("postgres: 6 of 6 pooled")), qPrintable(pinned->title));
        cfg.poolSizes.insert(QStringLiteral("postgres"), 10);
        QCOMPARE(analyze(s, cfg).groups().front().poolSize, std::optional<int>(10));
    }

    // A pinned pool of many sessions names its first locks in name order, whichever session holds
    // them, and counts the rest: in its group, in every grouping and in its finding.
    void pinnedPoolNamesItsFirstLocks()
    {
        Snapshot s = refresh(0);
        s.sessions = {};
        // Five sessions of one pool, three named locks each, names interleaved across sessions.
        KeyNames names;
        for (int pid = 0; pid < 5; ++pid) {
            test::append(s.sessions, idleSession(201 + pid, QStringLiteral("batch"), 60));
            for (int k = 0; k < 3; ++k) {
                const int key = 1000 + 10 * pid + k;
                test::append(s.advisoryLocks, test::advisoryLock(201 + pid, key));
                names[key] << QStringLiteral("job-%1%2").arg(QChar(u'e' - k)).arg(4 - pid);
            }
        }
        s.keyNames = std::make_shared<const KeyNames>(names);
        AnalysisConfig cfg;
        cfg.poolSizes.insert(QStringLiteral("batch"), 5);
        const Analysis a = analyze(s, cfg);
        QStringList first;
        for (const char* n : {"c0", "c1", "c2", "c3", "c4", "d0", "d1", "d2"})
            first << QStringLiteral("hashtext('job-%1')").arg(QLatin1String(n));
        for (const auto& groups : a.groupsBy) {
            QCOMPARE(int(groups.size()), 1);
            QCOMPARE(groups.front().pinnedLockNames, first);
            QCOMPARE(groups.front().pinnedLocks, 15);
            QVERIFY(groups.front().pinned);
        }
        QCOMPARE(a.groups().front().pinnedLockNames, first);
        QCOMPARE(groupSessions(s, cfg, a.heldByPid).front().pinnedLockNames, first);
        const Finding* pinned = findingOf(a, FindingKind::PoolPinned);
        QVERIFY(pinned);
        QVERIFY2(pinned->title.contains(first.join(QStringLiteral(", ")) + QStringLiteral(" and 7 more")),
                 qPrintable(pinned->title));
    }

    // The pool history's one pass over the sessions for all four groupings gives, for each, the
    // groups groupSessions() gives: the same keys, counts, pins, names and pool sizes, in order.
    void everyWayGroupsAreEachGrouping_data()
    {
        QTest::addColumn<int>("layout");
        QTest::newRow("runs of one instance") << 0;
        QTest::newRow("interleaved instances, users, databases") << 1;
        QTest::newRow("no application_name, local and remote") << 2;
        QTest::newRow("pinned pools by key and by application") << 3;
        QTest::newRow("a storm of one-off client addresses") << 4; // more groups than a linear search takes
    }
    void everyWayGroupsAreEachGrouping()
    {
        QFETCH(int, layout);
        Snapshot s;
        s.ok = true;
        s.serverNow = kNow;
        QHash<int, HeldLocks> held;
        const QStringList apps = {QStringLiteral("billing"), QStringLiteral("ledger"), QString()};
        const QStringList states = {QStringLiteral("idle"), QStringLiteral("active"),
                                    QStringLiteral("idle in transaction"), QStringLiteral("idle")};
        for (int i = 0; i < 60; ++i) {
            const int k = layout == 0 ? i / 20 : i * 7 % 5;
            SessionRow r = test::sessionRow(1000 + i, apps[k % (layout == 2 ? 3 : 2)], states[size_t(i % 4)],
                                            kNow - 30 - i);
            r.clientAddr = layout == 2 && i % 3 == 0 ? QString()
                           : layout == 4           ? QStringLiteral("10.0.1.%1").arg(i * 13 % 40)
                                                   : QStringLiteral("10.0.0.%1").arg(k % 3);
            r.user = QStringLiteral("u%1").arg(layout == 0 ? 0 : i % 3);
            r.database = QStringLiteral("db%1").arg(layout == 0 ? 0 : i % 2);
            if (i % 9 == 4)
                r.waitEventType = QStringLiteral("Lock");
            if (i % 4 != 1 && (layout == 3 || i % 6 == 0))
                held.insert(r.pid, HeldLocks{{QStringLiteral("job-%1").arg(i), QStringLiteral("a-%1").arg(i)}, 2 + i});
            test::append(s.sessions, r);
        }
        AnalysisConfig cfg;
        cfg.poolSizes.insert(QStringLiteral("billing on 10.0.0.1"), 6);
        cfg.poolSizes.insert(QStringLiteral("ledger"), 10);
        cfg.poolSizes.insert(QStringLiteral("u1"), 20);
        const auto every = groupSessionsEveryWay(s, cfg, held);
        bool pinnedSeen = false;
        for (GroupBy by : {GroupBy::ClientInstance, GroupBy::ApplicationName, GroupBy::User, GroupBy::Database}) {
            cfg.groupBy = by;
            const std::vector<PoolGroup> one = groupSessions(s, cfg, held);
            const std::vector<PoolGroup>& merged = every[size_t(by)];
            QSet<QString> keys; // one group per key, whatever the index does
            for (const SessionRow& r : s.sessions)
                keys.insert(groupKey(r, by));
            QCOMPARE(one.size(), size_t(keys.size()));
            QCOMPARE(merged.size(), one.size());
            for (size_t g = 0; g < one.size(); ++g) {
                const PoolGroup &a = merged[g], &b = one[g];
                QCOMPARE(a.key, b.key);
                QCOMPARE(a.applicationName, b.applicationName);
                QCOMPARE(a.clientAddr, b.clientAddr);
                QCOMPARE(a.poolSize, b.poolSize);
                QCOMPARE(std::tuple(a.total, a.active, a.idle, a.idleInTransaction, a.waitingOnLock, a.idleHoldingAdvisory),
                         std::tuple(b.total, b.active, b.idle, b.idleInTransaction, b.waitingOnLock, b.idleHoldingAdvisory));
                QCOMPARE(a.pinnedLockNames, b.pinnedLockNames);
                QCOMPARE(a.pinnedLocks, b.pinnedLocks);
                QCOMPARE(a.pinnedForS, b.pinnedForS);
                QCOMPARE(a.pinned, b.pinned);
                pinnedSeen = pinnedSeen || a.pinned;
            }
        }
        if (layout == 3)
            QVERIFY(pinnedSeen);
    }
    // Cycles through a snapshot: a critical card naming the session to cancel (not the root the
    // lock tree shows), the tree's roles, and none where there is no cycle or where PostgreSQL
    // breaks it itself.
    void cyclesThroughASnapshotNameWhomToCancel_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("cancel"); // 0: no hidden cycle
        QTest::addColumn<bool>("terminate");
        QTest::addColumn<QString>("says");
        QTest::newRow("lock on another session") << "lock on another session" << 4411 << false
            << "pid 4411 (deploy-2) waits for postgres-migrations migration lock (database app) held by pid 4402, whose client's CREATE INDEX "
               "CONCURRENTLY (pid 4403) waits for pid 4411's snapshot: neither can finish";
        QTest::newRow("poller in a statement") << "poller in a statement" << 4411 << false
            << "pid 4411 (deploy-2) keeps retrying pg_try_advisory_lock for postgres-migrations migration lock (database app) held by pid 4402, "
               "whose CREATE INDEX CONCURRENTLY waits for pid 4411's snapshot: neither can finish";
        QTest::newRow("poller idle in transaction") << "poller idle in transaction" << 4411 << true
            << "pid 4411 (deploy-2) keeps retrying pg_try_advisory_lock for postgres-migrations migration lock (database app) held by pid 4402, "
               "whose CREATE INDEX CONCURRENTLY waits for pid 4411's snapshot: neither can finish";
        QTest::newRow("row lock and a poller") << "row lock and a poller" << 4411 << false
            << "pid 4411 (worker) keeps retrying pg_try_advisory_lock for advisory lock 7 held by pid 4402, whose "
               "statement waits for pid 4411's transaction: neither can finish";
        QTest::newRow("row lock behind an idle session of its own pool")
            << "row lock behind an idle session of its own pool" << 0 << false << "";
        QTest::newRow("another client's build") << "another client's build" << 0 << false << "";
        QTest::newRow("poller of another key") << "poller of another key" << 0 << false << "";
        QTest::newRow("PostgreSQL's own") << "PostgreSQL's own" << 0 << false << "";
        QTest::newRow("long transaction") << "long transaction" << 0 << false << "";
    }
    void cyclesThroughASnapshotNameWhomToCancel()
    {
        QFETCH(QString, shape);
        QFETCH(int, cancel);
        QFETCH(bool, terminate);
        QFETCH(QString, says);
        const Snapshot s = buildShape(shape);
        const Analysis a = analyze(s, {});
        const Finding* f = findingOf(a, FindingKind::HiddenDeadlock);
        if (!cancel) {
            QVERIFY2(!f, f ? qPrintable(f->title) : "");
            QVERIFY(a.blocking.hiddenCycles.empty());
            if (shape == "PostgreSQL's own")
                QVERIFY(findingOf(a, FindingKind::Deadlocks)); // caught in the act, as before
            else
                QVERIFY(findingOf(a, FindingKind::BlockingChain)); // an ordinary chain, as before
            return;
        }
        QVERIFY(f);
        QCOMPARE(f->severity, 3);
        QCOMPARE(f->subject, QString::number(cancel));
        QCOMPARE(f->title, says);
        QVERIFY2(f->fix.contains(terminate ? QStringLiteral("pg_terminate_backend(%1)").arg(cancel)
                                           : QStringLiteral("pg_cancel_backend(%1)").arg(cancel)),
                 qPrintable(f->fix));
        QCOMPARE(int(a.blocking.hiddenCycles.size()), 1);
        const HiddenCycle& c = a.blocking.hiddenCycles.front();
        QCOMPARE(c.cancel, cancel);
        QCOMPARE(c.terminate, terminate);
        QCOMPARE(c.snapshotWaiter, shape.startsWith("poller") || shape.startsWith("row lock") ? 4402 : 4403);
        // One card for the incident: not also "end the root blocker" or "terminate the idle holder",
        // the wrong actions here.
        for (const Finding& other : a.findings)
            QVERIFY2(other.kind == FindingKind::HiddenDeadlock ||
                         !(other.kind == FindingKind::BlockingChain || other.kind == FindingKind::IdleHoldingAdvisory ||
                           other.kind == FindingKind::AdvisoryWait),
                     qPrintable(other.title));
        // The same refresh read again: the same card (its id is stable across refreshes).
        QCOMPARE(findingOf(analyze(s, {}), FindingKind::HiddenDeadlock)->id, f->id);
    }

    // A lock storm (incident 2): 400 row-lock waiters in chains behind each other and one session
    // polling for an unrelated key. No cycle, no card; each start is one pass over the waits, so
    // the analysis of a storm stays as it was (bench_main's analysis benchmarks measure it).
    void rowLockStormWithAPollerIsNoCycle()
    {
        Snapshot s = answered();
        s.cluster.maxConnections = 1000;
        std::vector<SessionRow> rows;
        rows.push_back(test::sessionRow(1000, "api", "idle in transaction", kNow - 60));
        for (int i = 1; i <= 400; ++i) // each waits on the one before and on the head: many paths
            rows.push_back(waiting(1000 + i, "api", "transactionid", {1000 + i - 1, 1000},
                                   "UPDATE accounts SET n = n + 1 WHERE id = 1"));
        SessionRow p = test::sessionRow(5000, "worker", "active", kNow - 5);
        p.query = QStringLiteral("SELECT pg_try_advisory_lock(99)");
        rows.push_back(p);
        s.sessions = std::move(rows);
        s.advisoryLocks = std::vector<AdvisoryLockRow>{test::advisoryLock(1000, 99)};
        const Analysis a = analyze(s, {});
        QVERIFY(a.blocking.hiddenCycles.empty());
        QVERIFY(!findingOf(a, FindingKind::HiddenDeadlock));
        QVERIFY(findingOf(a, FindingKind::BlockingChain));
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
