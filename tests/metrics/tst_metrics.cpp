// The recorder's /metrics text from plain values: what an incident looks like in it (a pinned pool,
// a stale lease), a library at rest, a server that went silent, a database never reached, and
// label values that could break the format. Every text passes the real `promtool check metrics`.
#include "MetricsTestSupport.h"
#include "../pool/PoolTestSupport.h"
#include "domain/Metrics.h"

#include <QTest>

using namespace lw;
using lw::test::parseExposition;
using lw::test::sampleValue;

namespace {
// Incident 1: four idle sessions of billing-api, each holding a session-level advisory lock for
// 100 s, against a configured pool of 4; a reports session busy beside them.
DatabaseMetrics pinnedPool()
{
    std::vector<SessionRow> sessions;
    for (int pid = 101; pid <= 104; ++pid)
        sessions.push_back(test::session(pid, QStringLiteral("billing-api"), QStringLiteral("idle")));
    sessions.push_back(test::session(201, QStringLiteral("reports"), QStringLiteral("active")));
    Snapshot s = test::snapshot(100, std::move(sessions), {101, 102, 103, 104}, 7);
    AnalysisConfig cfg;
    cfg.poolSizes.insert(QStringLiteral("billing-api"), 4);
    s.analysis = std::make_shared<const Analysis>(analyze(s, cfg));
    DatabaseMetrics m = measureRefresh(s, *s.analysis);
    m.database = QStringLiteral("billing");
    LeaseTableMetrics leases{QStringLiteral("default"), QStringLiteral("public.leases"), {}, 600};
    leases.byState[size_t(LeaseState::Held)] = 3;
    leases.byState[size_t(LeaseState::Stale)] = 1;
    LeaseTableMetrics shedlock{QStringLiteral("shedlock"), QStringLiteral("public.shedlock"), {}, 0};
    shedlock.byState[size_t(LeaseState::Free)] = 10; // at rest: ten finished jobs
    m.leases = {leases, shedlock};
    countFindings(m, s.analysis->findings);
    return m;
}
} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void anIncidentReadsInTheSeries()
    {
        const QByteArray text = prometheusText({pinnedPool()});
        QCOMPARE(test::promtoolProblems(text), QString());
        const auto m = parseExposition(text);
        const QString db = QStringLiteral("database=\"billing\"");
        QCOMPARE(sampleValue(m, "leasewatch_up", {db}), 1.0);
        QCOMPARE(sampleValue(m, "leasewatch_pool_pinned", {db, "pool=\"billing-api (local)\""}), 1.0);
        QCOMPARE(sampleValue(m, "leasewatch_pool_pinned", {db, "pool=\"reports (local)\""}), 0.0);
        QCOMPARE(sampleValue(m, "leasewatch_pool_connections",
                             {"pool=\"billing-api (local)\"", "state=\"idle_holding_advisory_lock\""}),
                 4.0);
        QCOMPARE(sampleValue(m, "leasewatch_pool_size", {"pool=\"billing-api (local)\""}), 4.0);
        QVERIFY(std::isnan(sampleValue(m, "leasewatch_pool_size", {"pool=\"reports (local)\""}))); // not configured
        QCOMPARE(sampleValue(m, "leasewatch_pool_connections", {"pool=\"billing-api (local)\"", "state=\"idle\""}), 0.0);
        QCOMPARE(sampleValue(m, "leasewatch_pool_connections", {"pool=\"reports (local)\"", "state=\"active\""}), 1.0);
        QCOMPARE(sampleValue(m, "leasewatch_advisory_idle_holders", {db}), 4.0);
        QCOMPARE(sampleValue(m, "leasewatch_advisory_idle_hold_longest_seconds", {db}), 100.0);
        QCOMPARE(sampleValue(m, "leasewatch_findings", {db, "kind=\"pool_pinned\"", "severity=\"critical\""}), 1.0);
        QCOMPARE(sampleValue(m, "leasewatch_deadlocks_total", {db}), 7.0);
        QCOMPARE(sampleValue(m, "leasewatch_connections_limit", {db}), 97.0);
        QCOMPARE(sampleValue(m, "leasewatch_lock_table_capacity_entries", {db}), 6400.0);

        // Leases per table and state, zeros included; a ShedLock table at rest is "free", never stale.
        QCOMPARE(sampleValue(m, "leasewatch_leases", {"scheme=\"default\"", "state=\"stale\""}), 1.0);
        QCOMPARE(sampleValue(m, "leasewatch_leases", {"scheme=\"default\"", "state=\"held\""}), 3.0);
        QCOMPARE(sampleValue(m, "leasewatch_leases", {"scheme=\"shedlock\"", "state=\"free\""}), 10.0);
        QCOMPARE(sampleValue(m, "leasewatch_leases", {"scheme=\"shedlock\"", "state=\"stale\""}), 0.0);
        QCOMPARE(sampleValue(m, "leasewatch_lease_stale_oldest_seconds", {"scheme=\"default\""}), 600.0);
        QCOMPARE(sampleValue(m, "leasewatch_lease_stale_oldest_seconds", {"scheme=\"shedlock\""}), 0.0);
    }

    // Bounded label sets: no pid, query text or lease name ever becomes a label.
    void labelsAreBounded()
    {
        const QByteArray text = prometheusText({pinnedPool()});
        const QStringList allowed = {"database", "scheme", "table", "state", "pool", "kind", "severity"};
        for (const QString& n : test::labelNames(text))
            QVERIFY2(allowed.contains(n), qPrintable(n));
        QVERIFY(!text.contains("pid=\""));
        QVERIFY(!text.contains("101"));
    }

    // Ad-hoc sessions and pods that come and go do not grow the series without end: the pools that
    // matter by name (pinned, configured), the biggest others up to 50, the rest as "other".
    void poolLabelsAreCapped()
    {
        std::vector<SessionRow> sessions;
        for (int pid = 101; pid <= 104; ++pid)
            sessions.push_back(test::session(pid, QStringLiteral("billing-api"), QStringLiteral("idle")));
        for (int i = 0; i < 60; ++i)
            sessions.push_back(test::session(1000 + i, QStringLiteral("pgAdmin 4 - CONN:%1").arg(i), QStringLiteral("active")));
        Snapshot s = test::snapshot(100, std::move(sessions), {101, 102, 103, 104});
        DatabaseMetrics m = measureRefresh(s, *s.analysis);
        m.database = QStringLiteral("billing");
        const QByteArray text = prometheusText({m});
        QCOMPARE(test::promtoolProblems(text), QString());
        const auto parsed = parseExposition(text);
        int pools = 0;
        for (auto it = parsed.cbegin(); it != parsed.cend(); ++it)
            pools += it.key().startsWith("leasewatch_pool_pinned{");
        QCOMPARE(pools, kMetricsPools + 1); // 50 by name, and "other"
        QCOMPARE(sampleValue(parsed, "leasewatch_pool_pinned", {"pool=\"billing-api (local)\""}), 1.0);
        QCOMPARE(sampleValue(parsed, "leasewatch_pool_connections", {"pool=\"other\"", "state=\"active\""}), 11.0);
    }

    // While the server is silent its series keep the last answer's values (an alert that fires
    // keeps firing) and leasewatch_up says 0.
    void aSilentServerKeepsItsLastValuesMarkedDown()
    {
        DatabaseMetrics m = pinnedPool();
        m.up = false;
        m.lastAnswerAgeS = 19;
        const auto s = parseExposition(prometheusText({m}));
        QCOMPARE(sampleValue(s, "leasewatch_up"), 0.0);
        QCOMPARE(sampleValue(s, "leasewatch_last_answer_age_seconds"), 19.0);
        QCOMPARE(sampleValue(s, "leasewatch_pool_pinned", {"pool=\"billing-api (local)\""}), 1.0);
    }

    // A database never reached has nothing measured: only leasewatch_up 0, no zeros that would
    // read as "no stale lease, no pinned pool".
    void aDatabaseNeverReachedIsOnlyDown()
    {
        DatabaseMetrics never;
        never.database = QStringLiteral("orders");
        const QByteArray text = prometheusText({pinnedPool(), never});
        QCOMPARE(test::promtoolProblems(text), QString());
        const auto s = parseExposition(text);
        QCOMPARE(sampleValue(s, "leasewatch_up", {"database=\"orders\""}), 0.0);
        for (auto it = s.cbegin(); it != s.cend(); ++it)
            if (it.key().contains("database=\"orders\""))
                QVERIFY2(it.key().startsWith("leasewatch_up{"), qPrintable(it.key()));
        // Each family is described once, for both databases.
        QCOMPARE(text.count("# TYPE leasewatch_up gauge\n"), 1);
    }

    // A profile name may hold anything; the format's escapes keep the text parseable.
    void labelValuesAreEscaped()
    {
        DatabaseMetrics m = pinnedPool();
        m.database = QStringLiteral("a \"quoted\" back\\slash\nnewline é");
        const QByteArray text = prometheusText({m});
        QCOMPARE(test::promtoolProblems(text), QString());
        QVERIFY(text.contains("database=\"a \\\"quoted\\\" back\\\\slash\\nnewline é\""));
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
