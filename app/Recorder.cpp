#include "Recorder.h"

#include "DatabaseWatch.h"
#include "MetricsServer.h"
#include "QuitOnSignals.h"
#include "domain/Findings.h"
#include "domain/Metrics.h"
#include "domain/RefreshJudge.h"
#include "domain/Wording.h"
#include "domain/Words.h"
#include "feed/FeedServer.h"
#include "store/HistoryWriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QTimer>

#include <memory>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcRecord, "leasewatch.record")

namespace lw::app {

namespace {

// One line of the recorder's log (the journal's, under systemd), in the chosen language; the
// category and level stay what they were, for QT_LOGGING_RULES and journalctl -p.
void say(QtMsgType type, const QString& line)
{
    const QByteArray text = line.toUtf8();
    switch (type) {
    case QtCriticalMsg:
    case QtFatalMsg:
        qCCritical(lcRecord, "%s", text.constData());
        break;
    case QtWarningMsg:
        qCWarning(lcRecord, "%s", text.constData());
        break;
    default:
        qCInfo(lcRecord, "%s", text.constData());
    }
}

// One database being recorded, and what its log has said so far (so that it says each change once).
struct Recording
{
    QString label;
    std::unique_ptr<DatabaseWatch> watch; // no item models: nothing here is shown
    std::unique_ptr<HistoryRecorder> recorder;
    // Its live refreshes for windows and `watch`es on this machine (issue 49): one connection for all.
    std::unique_ptr<feed::FeedServer> feed;
    bool live = false;
    bool everLive = false;
    QString outageSaid; // the outage's beginning, as logged
    bool criticalSaid = false;
    QString connectErrorSaid;         // never connected yet: the last reason logged
    QHash<QString, QString> findings; // id → title, as logged
    // /metrics: the last good refresh's numbers (served, marked not up, while the server is silent).
    DatabaseMetrics measured;
    QElapsedTimer sinceMeasured;

    void measure(const Snapshot& s)
    {
        if (!s.ok || !s.analysis)
            return;
        measured = measureRefresh(s, *s.analysis);
        measured.leases = watch->judge().leases().tableMetrics(s.serverNow);
        sinceMeasured.start();
    }

    DatabaseMetrics metrics() const
    {
        DatabaseMetrics m = measured;
        m.database = label;
        m.up = live;
        m.lastAnswerAgeS = sinceMeasured.isValid() ? double(sinceMeasured.elapsed()) / 1000.0 : 0;
        countFindings(m, watch->findings());
        return m;
    }

    void update()
    {
        const bool nowLive =
            watch->status().state == ConnectionStatus::State::Connected && watch->lastSnapshot().ok;
        if (nowLive && !live) {
            const ServerInfo& srv = watch->lastSnapshot().server;
            if (!everLive)
                say(QtInfoMsg, TerminalWords::tr("[%1] connected: PostgreSQL %2, database %3 as %4")
                                      .arg(label, srv.version, srv.database, srv.user));
            else
                say(QtInfoMsg, TerminalWords::tr("[%1] answering again: %2").arg(label, outageSaid));
            everLive = true;
            outageSaid.clear();
            criticalSaid = false;
            connectErrorSaid.clear();
        }
        live = nowLive;
        if (live)
            return;
        if (const std::optional<OutageView> o = watch->outage()) {
            if (outageSaid.isEmpty()) {
                outageSaid = TerminalWords::tr("had not answered since %1")
                                 .arg(o->since.toLocalTime().toString(QStringLiteral("HH:mm:ss")));
                say(QtWarningMsg, TerminalWords::tr("[%1] not answering: %2").arg(label, outageLine(*o)));
            }
            if (!criticalSaid) {
                if (const auto f = outageFinding(*o, watch->config().analysis.thresholds.notAnsweringS)) {
                    criticalSaid = true;
                    say(QtCriticalMsg, TerminalWords::tr("[%1] CRITICAL %2. %3").arg(label, f->title, f->explanation));
                }
            }
        } else if (!everLive && watch->status().error.isError() &&
                   watch->status().error.message != connectErrorSaid) {
            connectErrorSaid = watch->status().error.message;
            say(QtWarningMsg,
                TerminalWords::tr("[%1] cannot connect: %2").arg(label, watch->status().error.toDisplayString()));
        }
    }

    // Findings appearing and clearing, at each good refresh.
    void diffFindings()
    {
        if (!watch->lastSnapshot().ok)
            return;
        QHash<QString, QString> now;
        for (const Finding& x : watch->findings()) {
            if (x.kind == FindingKind::ServerNotAnswering)
                continue;
            now.insert(x.id, x.title);
            if (!findings.contains(x.id))
                say(QtWarningMsg, TerminalWords::tr("[%1] finding %2: %3").arg(label, severityWord(x.severity), x.title));
        }
        for (auto it = findings.cbegin(); it != findings.cend(); ++it)
            if (!now.contains(it.key()))
                say(QtInfoMsg, TerminalWords::tr("[%1] cleared: %2").arg(label, it.value()));
        findings = std::move(now);
    }
};

} // namespace

int runRecord(const Invocation& inv)
{
    // journald stamps each line; a terminal gets the time in front.
    qSetMessagePattern(::isatty(STDERR_FILENO) ? QStringLiteral("%{time yyyy-MM-dd HH:mm:ss} %{message}")
                                               : QStringLiteral("%{message}"));
    std::vector<std::unique_ptr<Recording>> recs;
    QStringList notRecorded; // still in /metrics, as not up: a database left out must not go quiet
    for (const Invocation::Target& t : inv.targets) {
        auto r = std::make_unique<Recording>();
        r->label = t.label;
        HistoryOptions ho = HistoryOptions::forProfile(t.label, t.config);
        ho.path = HistoryOptions::defaultPath(t.storeName);
        ho.maxAgeMs = qint64(t.historyDays) * 24 * 3600 * 1000;
        ho.maxBytes = qint64(t.historyMb) * 1024 * 1024;
        r->recorder = std::make_unique<HistoryRecorder>(ho);
        if (!r->recorder->isOpen()) {
            say(QtCriticalMsg, TerminalWords::tr("[%1] not recorded: %2").arg(t.label, r->recorder->errorString()));
            notRecorded << t.label;
            continue;
        }
        if (!r->recorder->notice().isEmpty())
            qCWarning(lcRecord, "[%s] %s", qUtf8Printable(t.label), qUtf8Printable(r->recorder->notice()));
        say(QtInfoMsg, TerminalWords::tr("[%1] recording into %2").arg(t.label, r->recorder->path()));
        r->watch = std::make_unique<DatabaseWatch>(t.config);
        Recording* rp = r.get();
        rp->watch->recordInto(rp->recorder.get());
        rp->feed = std::make_unique<feed::FeedServer>(t.label);
        QObject::connect(rp->watch.get(), &DatabaseWatch::refreshed, rp->feed.get(),
                         [rp](const Snapshot& s) { rp->feed->publish(s); });
        QObject::connect(rp->watch.get(), &DatabaseWatch::statusChanged, rp->feed.get(),
                         [rp](const ConnectionStatus& st) { rp->feed->publishStatus(st); });
        if (const QString path = feed::feedPathFor(rp->recorder->path()); rp->feed->listenLocal(path))
            say(QtInfoMsg, TerminalWords::tr("[%1] live feed for windows and watch at %2").arg(t.label, path));
        else // windows on this machine then connect to the database themselves, as without a recorder
            say(QtWarningMsg, TerminalWords::tr("[%1] no live feed here: %2").arg(t.label, rp->feed->errorString()));
        const bool serveMetrics = !inv.metrics.isEmpty();
        QObject::connect(rp->watch.get(), &DatabaseWatch::refreshed, rp->watch.get(),
                         [rp, serveMetrics](const Snapshot& s) {
                             if (serveMetrics)
                                 rp->measure(s);
                             rp->update();
                             rp->diffFindings();
                         });
        QObject::connect(rp->watch.get(), &DatabaseWatch::statusChanged, rp->watch.get(),
                         [rp] { rp->update(); });
        QObject::connect(rp->watch.get(), &DatabaseWatch::outageChanged, rp->watch.get(),
                         [rp] { rp->update(); });
        QObject::connect(rp->recorder.get(), &HistoryRecorder::recordingChanged, rp->watch.get(),
                         [rp](bool recording, const QString& why) {
                             if (recording)
                                 say(QtInfoMsg, TerminalWords::tr("[%1] recording resumed").arg(rp->label));
                             else
                                 say(QtCriticalMsg, TerminalWords::tr("[%1] recording paused: %2; monitoring goes on, and "
                                                                     "recording resumes by itself when the store "
                                                                     "can be written")
                                                       .arg(rp->label, why));
                         });
        recs.push_back(std::move(r));
    }
    if (recs.empty())
        return 4;

    std::unique_ptr<MetricsServer> metrics;
    if (!inv.metrics.isEmpty()) {
        metrics = std::make_unique<MetricsServer>([&recs, notRecorded] {
            std::vector<DatabaseMetrics> all;
            for (const auto& r : recs)
                all.push_back(r->metrics());
            for (const QString& label : notRecorded) {
                DatabaseMetrics down;
                down.database = label;
                all.push_back(std::move(down));
            }
            return prometheusText(all);
        });
        if (!metrics->listen(*parseMetricsAddress(inv.metrics))) {
            qCCritical(lcRecord, "%s", qUtf8Printable(metrics->errorString()));
            return 4;
        }
        say(QtInfoMsg, TerminalWords::tr("metrics at %1").arg(metrics->url()));
    }

    // --serve: the same feeds over TCP, to viewers that present the token (no token, no data).
    std::unique_ptr<feed::TcpFeedFront> front;
    if (!inv.serve.isEmpty()) {
        QString error, notice;
        const std::optional<QByteArray> token = feed::loadOrCreateToken(inv.tokenFile, &error, &notice);
        if (!token) {
            qCCritical(lcRecord, "%s", qUtf8Printable(error));
            return 4;
        }
        if (!notice.isEmpty())
            qCWarning(lcRecord, "%s", qUtf8Printable(notice));
        front = std::make_unique<feed::TcpFeedFront>(*token);
        for (const auto& r : recs)
            front->add(r->label, r->feed.get());
        const MetricsAddress at = *parseMetricsAddress(inv.serve);
        if (!front->listen(at.address, at.port)) {
            qCCritical(lcRecord, "%s", qUtf8Printable(front->errorString()));
            return 4;
        }
        say(QtInfoMsg, TerminalWords::tr("live feed over TCP at %1:%2 for %3; viewers present the token file %4 (copy it "
                                          "to them)")
                              .arg(at.address.toString())
                              .arg(front->port())
                              .arg(recs.size() == 1 ? QStringLiteral("feed://HOST:PORT")
                                                    : QStringLiteral("feed://HOST:PORT/NAME"),
                                   inv.tokenFile));
    }

    // SIGTERM (systemd stop), SIGINT (Ctrl-C), SIGHUP: the recorders finish what is queued.
    quitOnTerminationSignals([] { say(QtInfoMsg, TerminalWords::tr("stopping: finishing the current writes")); });
    if (inv.quitAfterS > 0)
        QTimer::singleShot(int(inv.quitAfterS * 1000), qApp, [] { QCoreApplication::quit(); });
    for (auto& r : recs)
        r->watch->start();
    const int rc = QCoreApplication::exec();
    metrics.reset(); // it reads the recordings
    front.reset();   // it hands viewers to the recordings' feeds
    for (auto& r : recs) {
        r->feed.reset();     // the viewers are told the recorder stopped
        r->watch.reset();    // no more refreshes
        r->recorder.reset(); // writes what is queued, then closes the store
    }
    say(QtInfoMsg, TerminalWords::tr("stopped"));
    return rc;
}

} // namespace lw::app
