// Scenarios 1 and 2 against the suite's cluster: what the leases table went through (recorded by an
// audit trigger), determinism by seed, and the rule about existing leases tables.
#include "SimTestSupport.h"

#include <QtTest>

#include <set>

using namespace lw;
using namespace lw::test;

namespace {
const QRegularExpression kHolder(QStringLiteral("^[^:]+:(\\d+):[0-9a-f]{16}$"));

QStringList column(const TestDatabase& db, const QString& sql)
{
    // One query, rows joined by newlines (the support helpers return one value).
    const QString v =
        db.value(QStringLiteral("SELECT coalesce(string_agg(x, E'\\n'), '') FROM (%1) AS q(x)").arg(sql));
    return v.isEmpty() ? QStringList() : v.split(QLatin1Char('\n'));
}
} // namespace

class TstSimLeases : public QObject
{
    Q_OBJECT
private slots:
    void leaseWorkersTakeRenewRelease()
    {
        TestDatabase db(QStringLiteral("sim_workers"));
        installLeaseAudit(db);
        EventLog log;
        sim::Simulator s(simOptions(
            db.dsn(), {QStringLiteral("lease-workers:instances=3,kinds=2,ttl=1.2,work=0.7,interval=0.25")},
            &log));
        QVERIFY2(!s.start(), "start failed");
        QVERIFY(waitUntil([&] { return simSessions(db, QStringLiteral("sim-lease-worker-%")) == 3; }, 5000));
        QCOMPARE(column(db, QStringLiteral("SELECT application_name FROM pg_stat_activity WHERE datname = "
                                           "current_database() AND application_name "
                                           "LIKE 'sim-lease-worker-%' ORDER BY 1")),
                 QStringList({"sim-lease-worker-1", "sim-lease-worker-2", "sim-lease-worker-3"}));
        // Enough takes, renewals and releases, as the database saw them.
        QVERIFY2(waitUntil(
                     [&] {
                         return db.value(
                                      QStringLiteral("SELECT count(*) FROM lease_audit WHERE op = 'DELETE'"))
                                    .toInt() >= 4;
                     },
                     15000),
                 qPrintable(log.dump()));
        s.stop();
        QVERIFY(!s.isRunning());

        // Takes: inserts and holder-changing updates. Holders are host:pid:16 hex, new per take,
        // and the three instances use distinct pid parts.
        const QStringList holders =
            column(db, QStringLiteral("SELECT new_holder FROM lease_audit WHERE op = 'INSERT' "
                                      "OR (op = 'UPDATE' AND old_holder <> new_holder)"));
        QVERIFY2(holders.size() >= 4, qPrintable(holders.join(QLatin1Char(' '))));
        QCOMPARE(int(std::set<QString>(holders.begin(), holders.end()).size()), int(holders.size()));
        std::set<QString> pids;
        for (const QString& h : holders) {
            const auto m = kHolder.match(h);
            QVERIFY2(m.hasMatch(), qPrintable(h));
            pids.insert(m.captured(1));
        }
        QVERIFY(pids.size() >= 2 && pids.size() <= 3);
        // Each take set expires_at = taken_at + TTL.
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM lease_audit WHERE op = 'INSERT' AND "
                                         "new_expires - new_taken <> interval '1.2 s'")),
                 QStringLiteral("0"));
        // Renewals: same holder, later expiry.
        QVERIFY(db.value(QStringLiteral("SELECT count(*) FROM lease_audit WHERE op = 'UPDATE' AND "
                                        "old_holder = new_holder AND new_expires > old_expires"))
                    .toInt() >= 2);
        // Nobody replaced a lease before it had expired.
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM lease_audit WHERE op = 'UPDATE' AND "
                                         "old_holder <> new_holder AND new_taken <= old_expires")),
                 QStringLiteral("0"));
        // Releases delete the releasing holder's own row; on stop everything was released.
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM public.leases")), QStringLiteral("0"));
        QVERIFY(waitUntil([&] { return simSessions(db) == 0; }, 3000));
        QVERIFY(log.count(QStringLiteral("took")) >= 4);
        QVERIFY(log.count(QStringLiteral("renewed")) >= 2);
        QVERIFY(log.count(QStringLiteral("released")) >= 4);
        QCOMPARE(log.count(QStringLiteral("error")), 0);
    }

    void crashedHolderIsTakenOverAfterExpiry()
    {
        TestDatabase db(QStringLiteral("sim_crash"));
        installLeaseAudit(db);
        EventLog log;
        sim::Simulator s(simOptions(
            db.dsn(),
            {QStringLiteral(
                "crashed-holder:ttl=1.5,crash_after=0.8,interval=0.2,work=0.5,every=120,outage=2")},
            &log));
        QVERIFY(!s.start());
        QVERIFY2(waitUntil(
                     [&] {
                         return log.count(QStringLiteral("took-over"), QStringLiteral("crashed-job")) >= 1 &&
                                log.count(QStringLiteral("lost"), QStringLiteral("flaky-job")) >= 1;
                     },
                     20000),
                 qPrintable(log.dump()));
        s.stop();

        // The crash: its holder's row was replaced by another holder only after it had expired, and
        // not long after (the standby tries every 0.2 s).
        const auto crashed = log.of(QStringLiteral("crashed"));
        QVERIFY(!crashed.empty());
        const QString crashHolder = crashed.front().holder;
        const QString takeover = db.value(
            QStringLiteral("SELECT extract(epoch FROM new_taken - old_expires) FROM lease_audit WHERE "
                           "name = 'crashed-job' AND op = 'UPDATE' AND old_holder = '%1' AND new_holder <> "
                           "old_holder")
                .arg(crashHolder));
        QVERIFY2(!takeover.isEmpty(), qPrintable(log.dump()));
        QVERIFY2(takeover.toDouble() > 0, qPrintable(takeover));
        QVERIFY2(takeover.toDouble() < 1.5, qPrintable(takeover));
        // The crashed holder never renewed after its crash and never released.
        QCOMPARE(db.value(QStringLiteral(
                              "SELECT count(*) FROM lease_audit WHERE op = 'DELETE' AND old_holder = '%1'")
                              .arg(crashHolder)),
                 QStringLiteral("0"));

        // The holder that lost the database: its row was taken over after expiry while it was away,
        // and its renewal on return reported the loss.
        const auto lost = log.of(QStringLiteral("lost"), QStringLiteral("flaky-job"));
        const QString flakyHolder = lost.front().holder;
        QCOMPARE(db.value(QStringLiteral(
                              "SELECT count(*) FROM lease_audit WHERE name = 'flaky-job' AND op = 'UPDATE' "
                              "AND old_holder = '%1' AND new_holder <> old_holder AND new_taken > "
                              "old_expires")
                              .arg(flakyHolder)),
                 QStringLiteral("1"));
        QCOMPARE(log.count(QStringLiteral("disconnected"), QStringLiteral("flaky-job")), 1);
        QVERIFY(lost.front().text.contains(QStringLiteral("lost flaky-job")));
        // After the stop only a crashed holder's lease may remain.
        const QStringList left =
            column(db, QStringLiteral("SELECT name || ' ' || holder FROM public.leases"));
        for (const QString& row : left)
            QVERIFY2(row.startsWith(QStringLiteral("crashed-job ")), qPrintable(row));
        QVERIFY(waitUntil([&] { return simSessions(db) == 0; }, 3000));
    }

    void deterministicGivenSeed()
    {
        // The holder sequence of each instance and lease comes from the seed only.
        auto firstHolders = [](quint64 seed) {
            TestDatabase db(QStringLiteral("sim_seed"));
            EventLog log;
            sim::Simulator s(simOptions(
                db.dsn(), {QStringLiteral("lease-workers:instances=2,kinds=2,ttl=2,work=0.2,interval=0.1")},
                &log, seed));
            if (s.start())
                return QMap<QString, QString>();
            waitUntil([&] { return log.count(QStringLiteral("took")) >= 4; }, 10000);
            s.stop();
            QMap<QString, QString> first; // "instance lease" -> random part of its first holder
            for (const sim::Event& e : log.of(QStringLiteral("took"))) {
                const QString key = e.text.section(QLatin1Char(' '), 0, 0) + QLatin1Char(' ') + e.lease;
                if (!first.contains(key))
                    first.insert(key, e.holder.section(QLatin1Char(':'), 2));
            }
            return first;
        };
        const auto a = firstHolders(42);
        const auto b = firstHolders(42);
        const auto c = firstHolders(43);
        QVERIFY(!a.isEmpty() && !b.isEmpty() && !c.isEmpty());
        int compared = 0;
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (b.contains(it.key())) {
                QCOMPARE(b.value(it.key()), it.value());
                ++compared;
            }
            if (c.contains(it.key()))
                QVERIFY(c.value(it.key()) != it.value());
        }
        QVERIFY(compared >= 1);
    }

    void refusesForeignNonEmptyLeasesTable()
    {
        TestDatabase db(QStringLiteral("sim_existing"));
        db.exec(QStringLiteral(
            "CREATE TABLE public.leases (name text PRIMARY KEY, holder text, taken_at timestamptz, "
            "expires_at timestamptz);"
            "INSERT INTO public.leases VALUES ('payroll', 'prod-1:77:0123456789abcdef', now(), "
            "now() + interval '1 hour')"));
        const QStringList scenario = {
            QStringLiteral("lease-workers:instances=1,kinds=1,interval=0.1,work=0.2")};
        {
            sim::Simulator s(simOptions(db.dsn(), scenario));
            const auto e = s.start();
            QVERIFY(e.has_value());
            QVERIFY2(e->contains(QStringLiteral("--allow-existing")), qPrintable(*e));
            QVERIFY(!s.isRunning());
        }
        QCOMPARE(db.value(QStringLiteral("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'sim_%'")),
                 QStringLiteral("0"));
        {
            sim::Options o = simOptions(db.dsn(), scenario);
            o.allowExisting = true;
            sim::Simulator s(o);
            QVERIFY(!s.start());
            QVERIFY(waitUntil(
                [&] { return db.value(QStringLiteral("SELECT count(*) FROM public.leases")) == "2"; }, 5000));
            s.stop();
        }
        // The application's row is untouched; ours is gone; the table was not marked as ours.
        QCOMPARE(db.value(QStringLiteral("SELECT string_agg(name || ' ' || holder, ',') FROM public.leases")),
                 QStringLiteral("payroll prod-1:77:0123456789abcdef"));
        QCOMPARE(db.value(QStringLiteral("SELECT obj_description('public.leases'::regclass, 'pg_class')")),
                 QString());

        // An empty foreign table is fine; a non-empty table the simulator created (a crashed lease
        // left behind) is fine too.
        TestDatabase empty(QStringLiteral("sim_existing_empty"));
        empty.exec(QStringLiteral("CREATE TABLE public.leases (name text PRIMARY KEY, holder text, taken_at "
                                  "timestamptz, expires_at timestamptz)"));
        {
            sim::Simulator s(simOptions(empty.dsn(), scenario));
            QVERIFY(!s.start());
        }
        TestDatabase ours(QStringLiteral("sim_existing_ours"));
        {
            EventLog crashLog;
            sim::Simulator s(simOptions(ours.dsn(), {QStringLiteral("crashed-holder:ttl=60,crash_after=0.1,flaky=0")},
                                        &crashLog));
            QVERIFY(!s.start());
            QVERIFY(waitUntil(
                [&] { return ours.value(QStringLiteral("SELECT count(*) FROM public.leases")) == "1"; },
                5000));
            QVERIFY2(waitUntil([&] { return crashLog.count(QStringLiteral("crashed")) > 0; }, 5000),
                     qPrintable(crashLog.dump()));
            s.stop();
        }
        QCOMPARE(ours.value(QStringLiteral("SELECT obj_description('public.leases'::regclass, 'pg_class')")),
                 QStringLiteral("leasewatch-sim"));
        QCOMPARE(ours.value(QStringLiteral("SELECT count(*) FROM public.leases")), QStringLiteral("1"));
        {
            sim::Simulator s(simOptions(ours.dsn(), scenario));
            QVERIFY(!s.start());
        }
    }
};

QTEST_GUILESS_MAIN(TstSimLeases)
#include "tst_sim_leases.moc"
