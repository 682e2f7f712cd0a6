#include "Consoles.h"

#include "store/AuditLog.h"
#include "FleetView.h"
#include "itemmodels/LeaseModel.h"
#include "LeasesView.h"
#include "MainWindow.h"
#include "OverviewView.h"
#include "domain/PoolHistory.h"
#include "PoolView.h"
#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"
#include "history/LeaseTimelineView.h"
#include "history/RecordedBar.h"
#include "pgbouncer/PgBouncerMonitor.h"
#include "pgbouncer/PgBouncerView.h"
#include "Monitor.h"
#include "feed/FeedServer.h"
#include "ProfilesDialog.h"
#include "domain/Secrets.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QTableView>
#include <QTabWidget>
#include <QPointer>
#include <QSet>
#include <QTime>
#include <QTimer>

#include <cmath>

namespace lw::app {

Consoles::Consoles(ProfileStore* profiles, AuditLog* audit, QObject* parent)
    : QObject(parent), profiles_(profiles), audit_(audit)
{
}

Consoles::~Consoles()
{
    delete fleet_.data();
    for (Console& c : open_) {
        c.alerts.reset();
        c.window.reset();
        c.reader.reset();
        c.recorder.reset();
        c.monitor.reset();
    }
}

ui::AlertConfig alertConfigFor(const Profile& p)
{
    ui::AlertConfig a;
    a.enabled = p.alerts;
    a.staleLeaseAfterS = p.alertStaleAfterS;
    return a;
}

ui::MainWindow* Consoles::open(const Profile& p)
{
    if (auto src = feed::FeedSource::parseUrl(p.viaRecorder.trimmed()); src && !direct_) {
        src->tokenFile = feed::defaultTokenPath();
        openNextViaFeed(*src); // the profile's DSN stays, for operator actions
    }
    return open(p.toPollerConfig(), p.name, alertConfigFor(p), p.pgbouncerDsn, p.historyDays, p.historyMb);
}

ui::MainWindow* Consoles::open(const PollerConfig& cfg, const QString& title, const ui::AlertConfig& alerts,
                               const QString& bouncerDsn, int historyDays, int historyMb)
{
    // A DSN typed on the command line may carry a password: what is shown (window and notification
    // titles) is the DSN without it, and its history store is named by a hash, never by the DSN.
    const bool bareDsn = title == cfg.connect.dsn;
    const QString shown = redactDsn(title);
    const QString storeName = bareDsn ? dsnStoreName(cfg.connect.dsn) : title;
    Console c;
    c.profile = shown;
    c.monitor = std::make_unique<Monitor>(cfg);
    c.window = std::make_unique<ui::MainWindow>(c.monitor.get(), shown, audit_);
    ui::MainWindow* w = c.window.get();
    c.alerts = std::make_unique<ui::Alerts>(c.monitor->findings(), w, shown, alerts);
    ui::Alerts* al = c.alerts.get();
    connect(c.monitor.get(), &Monitor::refreshed, al, [al](const Snapshot& s) {
        if (s.ok)
            al->check(s.serverNow);
    });
    // While the server is silent there are no refreshes: the outage card alerts from the ticks.
    connect(c.monitor.get(), &Monitor::outageChanged, al, [al, m = c.monitor.get()] {
        // On the clock of the last answer: the findings shown "as of" it must not cross a
        // threshold while nothing is read.
        if (m->outage())
            al->check(m->lastAnswerServerTime());
    });
    connect(w->overviewView(), &ui::OverviewView::statusChanged, al, &ui::Alerts::setStatus);
    al->setStatus(w->overviewView()->shortStatus());
    connect(al, &ui::Alerts::alerted, w, [w](const Finding&, const QString& text) { w->showAlert(text); });
    connect(al, &ui::Alerts::cleared, w, [w](const QString&, const QString& text) { w->alertCleared(text); });
    if (!bouncerDsn.trimmed().isEmpty()) {
        // Owned by the window: its worker stops and its connection closes with it.
        bouncer::BouncerConfig bc;
        bc.dsn = bouncerDsn.trimmed();
        bc.intervalMs = cfg.intervalMs;
        auto* bm = new bouncer::PgBouncerMonitor(bc, w);
        bm->accompany(c.monitor.get()); // the join, and its findings on the Overview
        w->tabs()->addTab(new ui::PgBouncerView(bm, w->tabs()), tr("PgBouncer"));
        bm->start();
    }

    // The history of this profile: every refresh, written off the UI thread.
    HistoryOptions ho = HistoryOptions::forProfile(storeName, cfg);
    ho.profile = shown;
    ho.path = HistoryOptions::defaultPath(storeName);
    if (!historyDir_.isEmpty())
        ho.path = QDir(historyDir_).filePath(QFileInfo(ho.path).fileName());
    ho.auditPath = audit_ ? audit_->path() : QString();
    ho.maxAgeMs = qint64(historyDays) * 24 * 3600 * 1000;
    ho.maxBytes = qint64(historyMb) * 1024 * 1024;
    bool joinsRecording = false; // a recorder has been writing this history: the window joins it
    const std::optional<feed::FeedSource> remote = std::exchange(nextFeed_, std::nullopt);
    if (remote) {
        // feed://: another machine's recorder keeps the history; this window shows its live refreshes.
        c.monitor->readFeed(*remote);
        w->showNotice(tr("This window shows the live refreshes of the recorder at %1, without a connection to the "
                         "database; the recorder keeps the history.")
                          .arg(remote->describe()),
                      60000);
    } else {
        c.recorder = std::make_unique<HistoryRecorder>(ho);
    }
    if (!c.recorder) {
        // fed from another machine: nothing is recorded here
    } else if (c.recorder->isOpen()) {
        if (!c.recorder->notice().isEmpty())
            w->showNotice(c.recorder->notice(), 60000, true);
        c.monitor->recordInto(c.recorder.get());
        connect(c.recorder.get(), &HistoryRecorder::recordingChanged, w, [w](bool recording, const QString& why) {
            if (recording)
                w->showNotice(tr("History recording resumed at %1.")
                                  .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))),
                              30000);
            else // stays up until recording resumes: monitoring goes on, the history has a gap
                w->showNotice(tr("History recording paused since %1: %2. Monitoring goes on; recording "
                                 "resumes by itself when the store can be written again.")
                                  .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), why),
                              24 * 3600 * 1000, true);
        });
        c.reader = std::make_unique<HistoryReader>(c.recorder->path());
    } else if (c.recorder->takenBy() > 0) {
        // `leasewatch record` writes this profile's store: the window reads that instead of writing
        // a second history, and so shows the past it did not see; and it takes the recorder's live
        // refreshes, so that the database pays for one console however many windows are open.
        const qint64 by = c.recorder->takenBy();
        const feed::FeedSource feedSrc = feed::FeedSource::local(feed::feedPathFor(ho.path));
        const bool viaFeed = by != QCoreApplication::applicationPid() && !direct_ && feed::feedAnswers(feedSrc.localPath);
        if (viaFeed)
            c.monitor->readFeed(feedSrc);
        w->showNotice(by == QCoreApplication::applicationPid()
                          ? tr("History of this profile is recorded by its other window; this one shows what it "
                               "records.")
                      : viaFeed ? tr("A running `leasewatch record` (pid %1) watches this database: this window shows "
                                     "its live refreshes and what it records, without a connection of its own "
                                     "(--direct connects).")
                                      .arg(by)
                                : tr("History is recorded by a running `leasewatch record` (pid %1); this window shows "
                                     "what it records.")
                                      .arg(by),
                      60000);
        c.reader = std::make_unique<HistoryReader>(ho.path);
        c.recorder.reset();
        joinsRecording = true;
    } else {
        w->showNotice(tr("History is not recorded: %1").arg(c.recorder->errorString()), 60000, true);
    }
    // The pool charts scroll back into what was recorded before this start: the last hour, read
    // after the window is up (below).
    std::optional<std::pair<double, double>> backfill;
    if (c.reader && c.reader->isOpen()) {
        const auto range = c.reader->range();
        if (!range.isEmpty()) {
            backfill = std::make_pair(std::max(range.from, range.to - 3600), range.to);
            if (joinsRecording)
                c.joinedAt = range.to; // the recorder's last refresh before this window: where it joined
        }
    }
    addTimeline(c);
    if (c.joinedAt > 0)
        w->poolView()->setJoinedAt(c.joinedAt);
    connect(w, &ui::MainWindow::exportBundleRequested, this, [this, w] { askExport(w); });
    connect(w, &ui::MainWindow::fleetRequested, this, [this] { showFleet(); });
    connect(w, &ui::MainWindow::browseHistoryRequested, this, [this, w] {
        for (int i = 0; i < count(); ++i)
            if (window(i) == w) {
                QString err;
                if (!browseHistory(i, &err))
                    QMessageBox::warning(w, tr("Recorded history"), err);
            }
    });
    ui::MainWindow* opened = add(std::move(c), shown);
    Console& added = open_.back();
    if (backfill) {
        w->poolView()->history()->setAnalysisConfig(added.reader->analysisConfig());
        backfillThenStart(w, added.reader.get(), w->poolView()->history(), added.monitor.get(), backfill->first,
                          backfill->second);
    } else {
        added.monitor->start();
    }
    return opened;
}

void Consoles::backfillThenStart(ui::MainWindow* w, const HistoryReader* reader, PoolHistory* into, Monitor* monitor,
                                 double from, double to)
{
    // An hour is ~3 600 recorded refreshes, ~0.2 ms each to replay into the pool history: read in
    // slices of 150 between events, so the window answers at once. Live refreshes start after the
    // last slice, so the samples stay in time order. A window closed meanwhile stops it (the
    // reader, the history and the monitor go with it).
    QPointer<ui::MainWindow> alive(w);
    QTimer::singleShot(0, this, [this, alive, reader, into, monitor, from, to] {
        if (!alive)
            return;
        constexpr int kSlice = 150;
        int n = 0;
        double next = to;
        reader->forEachSnapshot(
            from, to,
            [&](const Snapshot& s) {
                into->add(s);
                next = s.serverNow;
                return ++n < kSlice;
            },
            HistoryReader::LeaseDetail::None);
        if (n == kSlice && next < to)
            backfillThenStart(alive, reader, into, monitor, std::nextafter(next, to), to);
        else
            monitor->start();
    });
}

ui::MainWindow* Consoles::add(Console c, const QString&)
{
    ui::MainWindow* w = c.window.get();
    w->installEventFilter(this);
    connect(w, &ui::MainWindow::profilesRequested, this, [this, w] { chooseAndOpen(w); });
    connect(w, &ui::MainWindow::openBundleRequested, this, [this, w] { askOpenBundle(w); });
    w->show();
    open_.push_back(std::move(c));
    return w;
}

void Consoles::addTimeline(Console& c)
{
    if (!c.reader || !c.reader->isOpen())
        return;
    auto* tl = new ui::LeaseTimelineView(c.window.get());
    tl->setObjectName(QStringLiteral("leaseTimeline"));
    tl->setReader(c.reader.get());
    if (c.joinedAt > 0)
        tl->setJoinedAt(c.joinedAt);
    c.window->addPage(tl, tr("Lease history"));
    // The lease selected on the Leases page is the one whose history is shown.
    QTableView* table = c.window->leasesView()->table();
    connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, tl,
            [tl, table](const QModelIndex& current) {
                if (current.isValid())
                    tl->showLease(table->model()->index(current.row(), LeaseModel::Name).data().toString());
            });
    // Opening the page reads the store again (a live store grows): the selected lease, else the first.
    const HistoryReader* reader = c.reader.get();
    QTabWidget* tabs = c.window->tabs();
    connect(tabs, &QTabWidget::currentChanged, tl, [tl, tabs, table, reader](int) {
        if (tabs->currentWidget() != tl)
            return;
        const QModelIndex current = table->currentIndex();
        if (current.isValid()) {
            tl->showLease(table->model()->index(current.row(), LeaseModel::Name).data().toString());
            tl->refreshStrips();
        } else {
            tl->setReader(reader); // the strips too
        }
    });
}

ui::MainWindow* Consoles::openBundle(const QString& file, QString* error)
{
    auto reader = std::make_unique<HistoryReader>(file);
    if (!reader->isOpen() || reader->range().isEmpty()) {
        if (error)
            *error = reader->isOpen() ? tr("%1 holds no recorded refresh").arg(file)
                                      : tr("cannot open %1: %2").arg(file, reader->errorString());
        return nullptr;
    }
    Console c;
    c.monitor = Monitor::recorded(reader->recordedConfig(), file);
    const QString title = tr("%1 (recorded)").arg(QFileInfo(file).fileName());
    c.window = std::make_unique<ui::MainWindow>(c.monitor.get(), title, audit_);
    ui::MainWindow* w = c.window.get();
    auto* bar = new ui::RecordedBar(c.monitor.get(), reader.get(), w);
    bar->setObjectName(QStringLiteral("recordedBar"));
    w->setTopBar(bar);
    loadPoolHistory(*reader, *w->poolView()->history(), reader->range().from, reader->range().to);
    c.reader = std::move(reader);
    addTimeline(c);
    if (auto* tl = w->findChild<ui::LeaseTimelineView*>()) {
        connect(bar, &ui::RecordedBar::shown, tl, &ui::LeaseTimelineView::highlightTime);
        connect(tl, &ui::LeaseTimelineView::timeActivated, bar, &ui::RecordedBar::seek);
    }
    bar->seek(bar->shownTime()); // redraws the pool page through Monitor::refreshed
    return add(std::move(c), title);
}

QString Consoles::storePath(Console& c)
{
    if (c.recorder && c.recorder->isOpen()) {
        c.recorder->flush(); // the last refreshes too
        return c.recorder->path();
    }
    // Written by `leasewatch record`: the store this live window reads (not a bundle's window).
    const bool live = c.monitor && !c.monitor->isRecorded();
    return live && c.reader && c.reader->isOpen() ? c.reader->path() : QString();
}

ui::MainWindow* Consoles::browseHistory(int i, QString* error)
{
    Console& c = open_.at(size_t(i));
    const QString store = storePath(c);
    if (store.isEmpty()) {
        if (error)
            *error = tr("this console records no history");
        return nullptr;
    }
    return openBundle(store, error); // the store opens read-only like a bundle
}

bool Consoles::exportBundle(int i, const QString& file, double t0, double t1, QString* error)
{
    Console& c = open_.at(size_t(i));
    const QString store = storePath(c);
    if (store.isEmpty()) {
        if (error)
            *error = tr("this console records no history");
        return false;
    }
    return HistoryReader(store).exportBundle(file, t0, t1, {}, error);
}

void Consoles::askExport(ui::MainWindow* w)
{
    int i = 0;
    while (i < count() && window(i) != w)
        ++i;
    if (i == count() || !open_[size_t(i)].reader)
        return;
    const QStringList spans = {tr("Last 15 minutes"), tr("Last hour"), tr("Last 24 hours"), tr("Everything recorded")};
    bool ok = false;
    const QString span =
        QInputDialog::getItem(w, tr("Export incident bundle"), tr("Time range:"), spans, 1, false, &ok);
    if (!ok)
        return;
    const QString file = QFileDialog::getSaveFileName(
        w, tr("Export incident bundle"),
        QDir::home().filePath(QStringLiteral("leasewatch-%1.lwbundle")
                                  .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmm")))),
        tr("Leasewatch bundles (*.lwbundle);;All files (*)"));
    if (file.isEmpty())
        return;
    const double seconds[] = {15 * 60, 3600, 24 * 3600, 1e12};
    if (HistoryRecorder* r = open_[size_t(i)].recorder.get())
        r->flush(); // (none when `leasewatch record` writes the store this window reads)
    const auto range = open_[size_t(i)].reader->range();
    const double t1 = range.to;
    const double t0 = std::max(range.from, t1 - seconds[spans.indexOf(span)]);
    QString err;
    if (exportBundle(i, file, t0, t1, &err))
        w->showNotice(tr("Exported %1").arg(file), 15000);
    else
        QMessageBox::warning(w, tr("Export incident bundle"), tr("The bundle was not written: %1").arg(err));
}

void Consoles::askOpenBundle(ui::MainWindow* w)
{
    const QString file = QFileDialog::getOpenFileName(w, tr("Open incident bundle"), QDir::homePath(),
                                                      tr("Leasewatch bundles (*.lwbundle *.sqlite);;All files (*)"));
    if (file.isEmpty())
        return;
    QString err;
    if (!openBundle(file, &err))
        QMessageBox::warning(w, tr("Open incident bundle"), err);
}

bool Consoles::chooseAndOpen(QWidget* parent)
{
    if (auto err = profiles_->load(); err && parent)
        qWarning("leasewatch: %s", qPrintable(*err));
    ui::ProfilesDialog dialog(profiles_, parent);
    const int result = dialog.exec();
    if (result == ui::ProfilesDialog::ShowFleet) {
        showFleet();
        return true;
    }
    if (result != QDialog::Accepted)
        return false;
    open(dialog.chosen());
    return true;
}

ui::MainWindow* Consoles::window(int i) const
{
    return open_.at(size_t(i)).window.get();
}

Monitor* Consoles::monitor(int i) const
{
    return open_.at(size_t(i)).monitor.get();
}

ui::Alerts* Consoles::alerts(int i) const
{
    return open_.at(size_t(i)).alerts.get();
}

HistoryRecorder* Consoles::recorder(int i) const
{
    return open_.at(size_t(i)).recorder.get();
}

bool Consoles::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Close)
        if (auto* w = qobject_cast<ui::MainWindow*>(watched))
            closeLater(w); // after the close event is done with the window
    return QObject::eventFilter(watched, event);
}

void Consoles::closeLater(ui::MainWindow* w)
{
    QTimer::singleShot(0, this, [this, w] {
        for (auto it = open_.begin(); it != open_.end(); ++it)
            if (it->window.get() == w && !w->isVisible()) {
                Console c = std::move(*it);
                open_.erase(it);
                c.alerts.reset();
                c.window.reset();  // the views let go of the models
                c.reader.reset();
                c.recorder.reset(); // writes what is queued
                c.monitor.reset(); // the worker stops, the connection closes
                return;
            }
    });
}

std::vector<FleetEntry> Consoles::fleetEntries() const
{
    std::vector<FleetEntry> out;
    QSet<QString> shown;
    // Open windows first: live, whatever writes their store (not the offline bundle windows).
    for (const Console& c : open_)
        if (c.monitor && !c.monitor->isRecorded() && !shown.contains(c.profile)) {
            shown.insert(c.profile);
            out.push_back(fleetEntryOf(c.profile, *c.monitor));
        }
    if (profiles_)
        for (const Profile& p : profiles_->profiles()) {
            if (shown.contains(p.name))
                continue;
            shown.insert(p.name);
            QString path = HistoryOptions::defaultPath(p.name);
            if (!historyDir_.isEmpty())
                path = QDir(historyDir_).filePath(QFileInfo(path).fileName());
            out.push_back(fleetEntryFromStore(p.name, path));
        }
    return out;
}

ui::FleetView* Consoles::showFleet()
{
    if (!fleet_) {
        fleet_ = new ui::FleetView; // top-level; deleted when closed
        fleet_->setAttribute(Qt::WA_DeleteOnClose);
        connect(fleet_, &ui::FleetView::openRequested, this, [this](const QString& name) {
            for (const Console& c : open_)
                if (c.profile == name && c.monitor && !c.monitor->isRecorded()) {
                    c.window->show();
                    c.window->raise();
                    c.window->activateWindow();
                    return;
                }
            if (const std::optional<Profile> p = profiles_ ? profiles_->find(name) : std::nullopt)
                open(*p);
        });
        auto* timer = new QTimer(fleet_);
        connect(timer, &QTimer::timeout, this, [this] {
            if (fleet_)
                fleet_->setEntries(fleetEntries());
        });
        timer->start(2000);
        fleet_->setEntries(fleetEntries());
    }
    fleet_->show();
    fleet_->raise();
    fleet_->activateWindow();
    return fleet_;
}

} // namespace lw::app
