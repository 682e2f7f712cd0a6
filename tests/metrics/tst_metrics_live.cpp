// `leasewatch record … --metrics`, the real binary against a real database, scraped by the real
// tools from Debian's archive: incident 1 (a pool of 4 pinned by 4 idle advisory-lock holders)
// and incident 4 (a crashed holder's stale lease) beside a ShedLock table at rest. promtool lints
// the scrape; a real prometheus server scrapes the recorder, loads the shipped alerting rules and
// answers a query for the pinned-pool series; every query of the shipped Grafana dashboard runs
// on it. Then the database stops answering: leasewatch_up 0, the last values kept.
#include "Programs.h"
#include "MetricsTestSupport.h"
#include "TestCluster.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QUrlQuery>

#include <csignal>

using namespace lw;
using lw::test::parseExposition;
using lw::test::sampleValue;

namespace {

// One HTTP GET; the body, or an empty array (and `status` 0) when there is no answer.
QByteArray httpGet(quint16 port, const QByteArray& target, int* status = nullptr)
{
    if (status)
        *status = 0;
    QTcpSocket s;
    s.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!s.waitForConnected(5000))
        return {};
    s.write("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QByteArray all;
    while (s.state() == QAbstractSocket::ConnectedState && s.waitForReadyRead(10000))
        all += s.readAll();
    all += s.readAll();
    const qsizetype head = all.indexOf("\r\n\r\n");
    if (head < 0)
        return {};
    if (status)
        *status = all.mid(9, 3).toInt();
    QByteArray body = all.mid(head + 4);
    if (all.left(head).toLower().contains("transfer-encoding: chunked")) { // prometheus' API
        QByteArray plain;
        qsizetype at = 0;
        while (at < body.size()) {
            const qsizetype eol = body.indexOf("\r\n", at);
            const qsizetype n = body.mid(at, eol - at).toLongLong(nullptr, 16);
            if (eol < 0 || n == 0)
                break;
            plain += body.mid(eol + 2, n);
            at = eol + 2 + n + 2;
        }
        body = plain;
    }
    return body;
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

QJsonObject promQuery(quint16 port, const QString& expr)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("query"), expr);
    const QByteArray target = "/api/v1/query?" + q.query(QUrl::FullyEncoded).toUtf8().replace("+", "%2B");
    return QJsonDocument::fromJson(httpGet(port, target)).object();
}

// The metric names a rules file or a dashboard refers to.
QStringList metricNamesIn(const QByteArray& text)
{
    QStringList names;
    static const QRegularExpression re(QStringLiteral("\\b(leasewatch_[a-z_]+)\\b"));
    auto it = re.globalMatch(QString::fromUtf8(text));
    while (it.hasNext()) {
        const QString n = it.next().captured(1);
        if (!names.contains(n))
            names << n;
    }
    return names;
}

QByteArray readSource(const QString& relative)
{
    QFile f(qEnvironmentVariable("LW_SOURCE_DIR") + QLatin1Char('/') + relative);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestMetricsLive : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void scrapedByTheRealPrometheus()
    {
        test::TestDatabase db("metrics_live");
        db.exec("CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, expires_at timestamptz)");
        db.exec("INSERT INTO leases VALUES ('nightly-report', 'worker-3:4242:9f2c1a7be01d5c33', now() - interval '2 h', "
                "now() - interval '10 min'), ('sweep', 'worker-1:17:aa00bb11cc22dd33', now(), now() + interval '1 h')");
        // ShedLock's own table (ShedLock README, "Configure the lock table"), one job finished: at rest.
        db.exec("CREATE TABLE shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP "
                "NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
        db.exec("INSERT INTO shedlock VALUES ('cleanup', now() at time zone 'utc' - interval '1 min', now() at time "
                "zone 'utc' - interval '2 min', 'host-a')");
        // Incident 1: metrics-api's pool of 4, each connection idle holding a session-level lock.
        std::vector<pg::Connection> pinned;
        for (int i = 0; i < 4; ++i) {
            pinned.push_back(test::openAppSession(db.dsn(), QStringLiteral("metrics-api")));
            test::runOn(pinned.back(), "SELECT pg_advisory_lock(hashtext('invoice-batch-" + QByteArray::number(i) + "'))");
        }

        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("leasewatch.record.info=true"));
        QProcess rec;
        rec.setProcessEnvironment(env);
        QString log;
        const auto readLog = [&] { log += QString::fromUtf8(rec.readAllStandardError()); };
        // A password typed in the DSN (the cluster trusts local connections; libpq sends it only
        // if asked) must reach no label, log line or file.
        const QString dsn = db.dsn() + QStringLiteral(" password=s3cret-xyz");
        rec.start(lw::test::leasewatchBin(), {"record", dsn, "--interval", "250", "--pool-size",
                                                   "metrics-api=4", "--metrics", "127.0.0.1:0"});
        QVERIFY(rec.waitForStarted(10000));
        static const QRegularExpression at(QStringLiteral("metrics at http://127\\.0\\.0\\.1:(\\d+)/metrics"));
        QRegularExpressionMatch m;
        QTRY_VERIFY2_WITH_TIMEOUT((readLog(), (m = at.match(log)).hasMatch()), qPrintable(log), 15000);
        const quint16 port = quint16(m.captured(1).toUInt());

        // The pool counts as pinned once its connections have been idle-holding for 5 s.
        QByteArray scrape;
        QTRY_VERIFY_WITH_TIMEOUT(
            (scrape = httpGet(port, "/metrics"),
             sampleValue(parseExposition(scrape), "leasewatch_pool_pinned", {"pool=\"metrics-api (local)\""}) == 1.0),
            20000);
        QCOMPARE(test::promtoolProblems(scrape), QString());
        QVERIFY(!scrape.contains("s3cret"));
        const auto s = parseExposition(scrape);
        QCOMPARE(sampleValue(s, "leasewatch_up"), 1.0);
        QCOMPARE(sampleValue(s, "leasewatch_pool_connections",
                             {"pool=\"metrics-api (local)\"", "state=\"idle_holding_advisory_lock\""}),
                 4.0);
        QCOMPARE(sampleValue(s, "leasewatch_pool_size", {"pool=\"metrics-api (local)\""}), 4.0);
        // Server-wide, as on the Locks page: other tests' sessions on this cluster may add to it.
        QVERIFY(sampleValue(s, "leasewatch_advisory_idle_holders") >= 4.0);
        QCOMPARE(sampleValue(s, "leasewatch_leases", {"scheme=\"default\"", "state=\"stale\""}), 1.0);
        QCOMPARE(sampleValue(s, "leasewatch_leases", {"scheme=\"default\"", "state=\"held\""}), 1.0);
        QVERIFY(sampleValue(s, "leasewatch_lease_stale_oldest_seconds", {"scheme=\"default\""}) >= 600);
        QCOMPARE(sampleValue(s, "leasewatch_leases", {"scheme=\"shedlock\"", "state=\"free\""}), 1.0);
        QCOMPARE(sampleValue(s, "leasewatch_leases", {"scheme=\"shedlock\"", "state=\"stale\""}), 0.0);
        QVERIFY(sampleValue(s, "leasewatch_findings", {"kind=\"pool_pinned\"", "severity=\"critical\""}) >= 1.0);
        QCOMPARE(sampleValue(s, "leasewatch_findings", {"kind=\"stale_lease\"", "severity=\"critical\""}), 1.0);
        QVERIFY(sampleValue(s, "leasewatch_connections") >= 5);
        QVERIFY(sampleValue(s, "leasewatch_connections_limit") > 0);
        QVERIFY(sampleValue(s, "leasewatch_lock_table_capacity_entries") > 0);
        QVERIFY(sampleValue(s, "leasewatch_deadlocks_total") >= 0);
        QVERIFY(sampleValue(s, "leasewatch_server_now_timestamp_seconds") > 1.7e9);
        int status = 0;
        httpGet(port, "/other", &status);
        QCOMPARE(status, 404);

        // Every metric the shipped rules and dashboard use is one the recorder serves.
        const QByteArray rules = readSource(QStringLiteral("packaging/prometheus/leasewatch-alerts.yml"));
        const QByteArray dashboard = readSource(QStringLiteral("packaging/grafana/leasewatch-dashboard.json"));
        QVERIFY(!rules.isEmpty() && !dashboard.isEmpty());
        for (const QString& name : metricNamesIn(rules) + metricNamesIn(dashboard))
            QVERIFY2(scrape.contains("\n" + name.toUtf8() + "{"), qPrintable(name));

        // A real prometheus scrapes it every second, with the shipped rules.
        QTemporaryDir promDir;
        const quint16 promPort = freePort();
        QFile cfg(promDir.filePath(QStringLiteral("prometheus.yml")));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write("global: {scrape_interval: 1s, evaluation_interval: 1s}\nrule_files: ['" +
                  QFile::encodeName(qEnvironmentVariable("LW_SOURCE_DIR")) +
                  "/packaging/prometheus/leasewatch-alerts.yml']\nscrape_configs:\n  - job_name: leasewatch\n"
                  "    static_configs: [{targets: ['127.0.0.1:" + QByteArray::number(port) + "']}]\n");
        cfg.close();
        QProcess prom;
        prom.setProcessChannelMode(QProcess::MergedChannels);
        prom.start(QStringLiteral(LW_PROMETHEUS),
                   {"--config.file=" + cfg.fileName(), "--storage.tsdb.path=" + promDir.filePath("data"),
                    QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(promPort)});
        QVERIFY(prom.waitForStarted(10000));
        const auto stopProm = qScopeGuard([&] {
            prom.terminate();
            if (!prom.waitForFinished(15000))
                prom.kill();
        });
        QJsonArray result;
        QTRY_VERIFY2_WITH_TIMEOUT(
            (result = promQuery(promPort, QStringLiteral("leasewatch_pool_pinned == 1"))[u"data"][u"result"].toArray(),
             !result.isEmpty()),
            qPrintable(QString::fromUtf8(prom.readAll())), 60000);
        // (Pools are server-wide, as on the Pool page: other tests' pools on this cluster may be there too.)
        QJsonObject series;
        for (const QJsonValue& r : result)
            if (r[u"metric"][u"pool"].toString() == u"metrics-api (local)")
                series = r[u"metric"].toObject();
        QVERIFY2(!series.isEmpty(), QJsonDocument(result).toJson().constData());
        QCOMPARE(series[u"job"].toString(), QStringLiteral("leasewatch"));
        QVERIFY(series[u"database"].toString().contains(db.name())); // the DSN, without a password
        QVERIFY(!series.contains(u"exported_instance")); // no label of ours clashes with Prometheus' own

        // The shipped rules fire on what it scraped: the pinned pool and the stale lease, not ShedLock.
        QStringList firing;
        QTRY_VERIFY_WITH_TIMEOUT(
            (firing.clear(),
             [&] {
                 const QJsonArray alerts =
                     QJsonDocument::fromJson(httpGet(promPort, "/api/v1/alerts")).object()[u"data"][u"alerts"].toArray();
                 for (const QJsonValue& a : alerts)
                     if (a[u"state"].toString() == u"firing")
                         firing << a[u"labels"][u"alertname"].toString() + QLatin1Char('/') +
                                       a[u"labels"][u"scheme"].toString();
             }(),
             firing.contains("LeasewatchPoolPinned/") && firing.contains("LeasewatchStaleLease/default")),
            30000);
        QVERIFY2(!firing.contains("LeasewatchStaleLease/shedlock"), qPrintable(firing.join(", ")));
        QVERIFY2(!firing.contains("LeasewatchDatabaseNotAnswering/"), qPrintable(firing.join(", ")));

        // Every panel query of the dashboard is valid PromQL and finds its series.
        const QJsonArray panels = QJsonDocument::fromJson(dashboard).object()[u"panels"].toArray();
        QVERIFY(panels.size() >= 10);
        for (const QJsonValue& p : panels) {
            for (const QJsonValue& t : p[u"targets"].toArray()) {
                QString expr = t[u"expr"].toString();
                expr.replace(QStringLiteral("$database"), QStringLiteral(".*"))
                    .replace(QStringLiteral("$__rate_interval"), QStringLiteral("1m"));
                // (A rate needs two scrapes in its window: the first seconds may have one.)
                QJsonObject r;
                QTRY_VERIFY2_WITH_TIMEOUT((r = promQuery(promPort, expr),
                                           r[u"status"].toString() == u"success" && !r[u"data"][u"result"].toArray().isEmpty()),
                                          qPrintable(expr + QLatin1Char(' ') + QJsonDocument(r).toJson(QJsonDocument::Compact)),
                                          15000);
            }
        }

        // The database stops answering (no new connections, the recorder's session ended): up is
        // 0 and the series keep the last answer's values, so the pinned-pool alert does not resolve.
        test::execSql(test::suiteDsn(), QStringLiteral("ALTER DATABASE %1 ALLOW_CONNECTIONS false").arg(db.name()));
        const auto reopen = qScopeGuard([&] {
            test::execSql(test::suiteDsn(), QStringLiteral("ALTER DATABASE %1 ALLOW_CONNECTIONS true").arg(db.name()));
        });
        test::execSql(test::suiteDsn(), QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                                                       "datname = '%1' AND application_name = 'leasewatch'")
                                             .arg(db.name()));
        QTRY_VERIFY_WITH_TIMEOUT(sampleValue(parseExposition(httpGet(port, "/metrics")), "leasewatch_up") == 0.0, 20000);
        const auto down = parseExposition(httpGet(port, "/metrics"));
        QCOMPARE(sampleValue(down, "leasewatch_pool_pinned", {"pool=\"metrics-api (local)\""}), 1.0);
        QCOMPARE(sampleValue(down, "leasewatch_leases", {"scheme=\"default\"", "state=\"stale\""}), 1.0);
        QVERIFY(sampleValue(down, "leasewatch_last_answer_age_seconds") > 0);

        ::kill(pid_t(rec.processId()), SIGTERM);
        QVERIFY(rec.waitForFinished(20000));
        readLog();
        QCOMPARE(rec.exitCode(), 0);
        QVERIFY2(!log.contains("s3cret"), qPrintable(log));
        for (const QString& f : QDir(home.filePath("data/Leasewatch/leasewatch/history")).entryList(QDir::Files)) {
            QFile stored(home.filePath("data/Leasewatch/leasewatch/history/") + f);
            QVERIFY(stored.open(QIODevice::ReadOnly));
            QVERIFY2(!stored.readAll().contains("s3cret"), qPrintable(f));
        }
    }

    // A port already taken is said, naming the address, and the recorder exits 4.
    void aTakenPortIsSaid()
    {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        QProcess rec;
        rec.setProcessEnvironment(env);
        rec.start(lw::test::leasewatchBin(),
                  {"record", test::suiteDsn(), "--metrics", QStringLiteral("127.0.0.1:%1").arg(taken.serverPort())});
        QVERIFY(rec.waitForFinished(20000));
        QCOMPARE(rec.exitCode(), 4);
        const QString err = QString::fromUtf8(rec.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("127.0.0.1:%1").arg(taken.serverPort())), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestMetricsLive)
#include "tst_metrics_live.moc"
