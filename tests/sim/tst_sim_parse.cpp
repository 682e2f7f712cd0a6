// Scenario syntax, validation, help text and the demo set (no database).
#include "sim/Simulator.h"

#include <QtTest>

using namespace lw::sim;

class TstSimParse : public QObject
{
    Q_OBJECT
private slots:
    void plainName()
    {
        QString error;
        const auto s = parseScenario(QStringLiteral("deadlocks"), &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->name, QStringLiteral("deadlocks"));
        QVERIFY(s->params.isEmpty());
    }

    void withParams()
    {
        QString error;
        const auto s =
            parseScenario(QStringLiteral("lease-workers:instances=5, ttl=2.5,prefix=report"), &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->name, QStringLiteral("lease-workers"));
        QCOMPARE(s->params.value(QStringLiteral("instances")), QStringLiteral("5"));
        QCOMPARE(s->params.value(QStringLiteral("ttl")), QStringLiteral("2.5"));
        QCOMPARE(s->params.value(QStringLiteral("prefix")), QStringLiteral("report"));
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown scenario") << "nope"
                                          << "unknown scenario";
        QTest::newRow("empty") << ""
                               << "unknown scenario";
        QTest::newRow("unknown param") << "deadlocks:speed=3"
                                       << "unknown parameter 'speed'";
        QTest::newRow("no value") << "deadlocks:pairs"
                                  << "key=value";
        QTest::newRow("not a number") << "deadlocks:pairs=many"
                                      << "expected a number";
        QTest::newRow("below range") << "lease-workers:ttl=0"
                                     << "expected a number";
        QTest::newRow("bad choice") << "lock-waits:kind=page"
                                    << "advisory";
        QTest::newRow("empty text") << "lease-workers:prefix="
                                    << "non-empty";
    }
    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        QString error;
        QVERIFY(!parseScenario(text, &error));
        QVERIFY2(error.contains(mentions), qPrintable(error));
    }

    void helpListsEveryScenarioAndParameter()
    {
        const QString help = scenarioHelp();
        const QStringList names = scenarioNames();
        const QStringList expected = {"lease-workers", "crashed-holder", "pinned-pool",  "lock-waits",
                                      "deadlocks",     "ingestion",      "lock-pressure"};
        QCOMPARE(names, expected);
        for (const QString& n : names)
            QVERIFY2(help.contains(QStringLiteral("\n  ") + n + QLatin1Char('\n')), qPrintable(n));
        // A sample of parameters with their defaults, one per scenario.
        for (const char* kv : {"instances=3", "crash_after=3", "pool=4", "depth=3", "pairs=1", "batch=20",
                               "fraction=0.3", "cap=10"})
            QVERIFY2(help.contains(QLatin1String(kv)), kv);
        // Every key=default the help lists under a scenario is accepted by the parser for it.
        QString current;
        int listed = 0;
        static const QRegularExpression paramLine(QStringLiteral("^      ([a-z_]+)=(\\S+) "));
        for (const QString& line : help.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1String("  ")) && names.contains(line.trimmed()))
                current = line.trimmed();
            const auto m = paramLine.match(line);
            if (!current.isEmpty() && m.hasMatch()) {
                QString error;
                QVERIFY2(parseScenario(current + QLatin1Char(':') + m.captured(1) + QLatin1Char('=') +
                                           m.captured(2),
                                       &error),
                         qPrintable(error));
                ++listed;
            }
        }
        QVERIFY(listed >= 30);
    }

    void demoSetIsValidAndHarmless()
    {
        const auto demo = demoScenarios();
        QStringList names;
        for (const ScenarioSpec& s : demo) {
            QStringList kv;
            for (auto it = s.params.begin(); it != s.params.end(); ++it)
                kv << it.key() + QLatin1Char('=') + it.value();
            QString error;
            QVERIFY2(parseScenario(s.name + QLatin1Char(':') + kv.join(QLatin1Char(',')), &error),
                     qPrintable(error));
            names << s.name;
        }
        QCOMPARE(names, scenarioNames()); // every incident is in the demo
        for (const ScenarioSpec& s : demo) {
            if (s.name == QLatin1String("lock-pressure")) {
                QVERIFY(s.params.value(QStringLiteral("fraction")).toDouble() < 0.5);
                QVERIFY(s.params.value(QStringLiteral("every")).toDouble() > 0); // periodically
            }
            if (s.params.contains(QStringLiteral("ttl")))
                QVERIFY(s.params.value(QStringLiteral("ttl")).toDouble() <= 10); // short TTLs: things happen
        }
    }

    void startRejectsBadSpecsWithoutConnecting()
    {
        Options o;
        o.dsn = QStringLiteral("host=/nonexistent dbname=x");
        Simulator empty(o);
        QVERIFY(empty.start().has_value());
        o.scenarios.push_back(
            ScenarioSpec{QStringLiteral("deadlocks"), {{QStringLiteral("pairs"), QStringLiteral("x")}}});
        Simulator bad(o);
        const auto e = bad.start();
        QVERIFY(e && e->contains(QStringLiteral("pairs")));
        QVERIFY(!bad.isRunning());
        QVERIFY(bad.waitFinished(0));
    }

    void formatsEvents()
    {
        const QString line =
            formatEvent({QStringLiteral("lease-workers"), QStringLiteral("took"), QStringLiteral("job-1"),
                         QStringLiteral("h:1:00ff"), QStringLiteral("w took job-1")});
        QVERIFY(line.contains(QStringLiteral("lease-workers")));
        QVERIFY(line.contains(QStringLiteral("took")));
        QVERIFY(line.contains(QStringLiteral("w took job-1")));
        QVERIFY(line.contains(QStringLiteral("h:1:00ff")));
    }
};

QTEST_APPLESS_MAIN(TstSimParse)
#include "tst_sim_parse.moc"
