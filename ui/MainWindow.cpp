#include "MainWindow.h"
#include "domain/Wording.h"

#include "LeaseActions.h"
#include "itemmodels/LeaseModel.h"
#include "LeasesView.h"
#include "itemmodels/LocksModels.h"
#include "Language.h"
#include "LocksView.h"
#include "Monitor.h"
#include "OverviewView.h"
#include "PoolView.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QPainter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTime>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace lw::ui {

namespace {
// A label that shows as much of its text as fits, with "…", instead of widening the status bar.
class ElidedLabel : public QLabel
{
public:
    explicit ElidedLabel(QWidget* parent) : QLabel(parent)
    {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        const QRect r = contentsRect();
        p.setPen(palette().color(foregroundRole()));
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
                   fontMetrics().elidedText(text(), Qt::ElideRight, r.width()));
    }
};
} // namespace

MainWindow::MainWindow(Monitor* monitor, const QString& displayName, AuditLog* audit, QWidget* parent)
    : QMainWindow(parent), monitor_(monitor), displayName_(displayName)
{
    setWindowTitle(QStringLiteral("Leasewatch — %1").arg(displayName_));
    tabs_ = new QTabWidget(this);
    overview_ = new OverviewView(monitor_, tabs_);
    leases_ = new LeasesView(monitor_->leases(), tabs_);
    locks_ = new LocksView(monitor_, tabs_);
    locks_->setAuditLog(audit);
    poolPage_ = new PoolView(monitor_, tabs_); // owns its history, fed by Monitor::refreshed
    tabs_->addTab(overview_, tr("Overview"));
    tabs_->addTab(leases_, tr("Leases"));
    tabs_->addTab(locks_, locks_->tabText());
    tabs_->addTab(poolPage_, tr("Pool occupancy"));
    setCentralWidget(tabs_);
    // Counts on the tabs and the worst state in the title: a glance from another window tells.
    // Only when the words change: QTabBar lays out and repaints the whole tab widget on every
    // setTabText, same text or not (that was most of the window's CPU at one refresh a second).
    auto setTab = [this](QWidget* page, const QString& t) {
        const int i = tabs_->indexOf(page);
        if (tabs_->tabText(i) != t)
            tabs_->setTabText(i, t);
    };
    connect(leases_, &LeasesView::summaryChanged, this, [this, setTab](const QString& t) { setTab(leases_, t); });
    connect(locks_, &LocksView::tabTextChanged, this, [this, setTab](const QString& t) { setTab(locks_, t); });
    connect(overview_, &OverviewView::statusChanged, this, [this, setTab](const QString& st) {
        setTab(overview_, tr("Overview (%1)").arg(st));
        // A window that reads a recorder's feed says so in its title too: it has no connection of its own.
        const QString title = monitor_->watch().feedSource().isSet()
                                  ? tr("Leasewatch — %1 — %2 — via recorder").arg(displayName_, st)
                                  : QStringLiteral("Leasewatch — %1 — %2").arg(displayName_, st);
        if (windowTitle() != title)
            setWindowTitle(title);
    });
    connect(overview_, &OverviewView::showLease, this, &MainWindow::showLease);
    connect(overview_, &OverviewView::showSession, this, &MainWindow::showSession);
    connect(overview_, &OverviewView::showPools, this, [this] { tabs_->setCurrentWidget(poolPage_); });
    connect(overview_, &OverviewView::forceExpireLease, this, [this](const QString& name) {
        showLease(name);
        leaseActions_->forceExpireSelected();
    });
    connect(overview_, &OverviewView::terminateOneOf, this, [this](const QString& group) {
        // One pinned backend of that instance: the longest idle one frees the oldest lock.
        const AdvisoryLockModel* m = monitor_->locks();
        int pid = 0;
        double idle = -1;
        for (int r = 0; r < m->rowCount(); ++r) {
            const auto& row = m->row(r);
            const double idleFor = row.view.idleForS(m->serverNow());
            if (row.view.lock.granted && row.hasSession() && idleFor > idle &&
                groupKey(row.session(), monitor_->config().analysis.groupBy) == group) {
                pid = row.view.lock.pid;
                idle = idleFor;
            }
        }
        showSession(pid);
        locks_->signalBackend(pid, true);
    });

    connect(overview_, &OverviewView::signalSession, this, [this](int pid, bool terminate) {
        showSession(pid);
        locks_->signalBackend(pid, terminate);
    });

    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    auto* profiles = fileMenu->addAction(tr("&Profiles… (open another database)"));
    profiles->setObjectName(QStringLiteral("profilesAction"));
    profiles->setShortcut(QKeySequence::Open);
    connect(profiles, &QAction::triggered, this, &MainWindow::profilesRequested);
    auto* fleet = fileMenu->addAction(tr("&Databases at a glance…"));
    fleet->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(fleet, &QAction::triggered, this, &MainWindow::fleetRequested);
    auto* exportBundle = fileMenu->addAction(tr("&Export incident bundle…"));
    exportBundle->setObjectName(QStringLiteral("exportBundleAction"));
    exportBundle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportBundle->setEnabled(!monitor_->isRecorded());
    connect(exportBundle, &QAction::triggered, this, &MainWindow::exportBundleRequested);
    auto* browse = fileMenu->addAction(tr("&Browse recorded history"));
    browse->setObjectName(QStringLiteral("browseHistoryAction"));
    browse->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    browse->setEnabled(!monitor_->isRecorded());
    connect(browse, &QAction::triggered, this, &MainWindow::browseHistoryRequested);
    auto* openBundle = fileMenu->addAction(tr("Open incident &bundle…"));
    openBundle->setObjectName(QStringLiteral("openBundleAction"));
    openBundle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(openBundle, &QAction::triggered, this, &MainWindow::openBundleRequested);
    auto* closeWindow = fileMenu->addAction(tr("&Close window"), this, &QWidget::close);
    closeWindow->setShortcut(QKeySequence::Close);
    fileMenu->addSeparator();
    auto* quit = fileMenu->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    auto* pause = viewMenu->addAction(tr("&Pause refreshing"));
    pause->setCheckable(true);
    pause->setShortcut(QKeySequence(Qt::Key_F7));
    connect(pause, &QAction::toggled, this, [this](bool on) {
        monitor_->setPaused(on);
        updateConnectionLabel();
    });
    auto* filter = viewMenu->addAction(tr("&Filter leases"));
    filter->setShortcut(QKeySequence::Find);
    connect(filter, &QAction::triggered, this, [this] {
        tabs_->setCurrentWidget(leases_);
        leases_->filterEdit()->setFocus();
    });
    // The language (issue 51): kept for the next start, as --lang would give it; the names of the
    // languages are their own, so that a user who reads neither finds theirs.
    auto* langMenu = viewMenu->addMenu(tr("&Language"));
    langMenu->setObjectName(QStringLiteral("languageMenu"));
    auto* langGroup = new QActionGroup(langMenu);
    const QString saved = savedLanguage();
    const std::pair<QString, QString> languages[] = {
        {QString(), tr("Follow the system")}, {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("de"), QStringLiteral("Deutsch")}};
    for (const auto& [code, label] : languages) {
        QAction* a = langMenu->addAction(label);
        a->setObjectName(QStringLiteral("language-") + (code.isEmpty() ? QStringLiteral("system") : code));
        a->setCheckable(true);
        a->setChecked(code == saved);
        langGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] {
            saveLanguage(code);
            showNotice(tr("The language changes when Leasewatch starts again."), 15000);
        });
    }
    // Operator actions: disabled (with the reason) unless the profile switched operator mode on.
    leaseActions_ = new LeaseActions(leases_, monitor_, audit, this);
    auto* leaseMenu = menuBar()->addMenu(tr("&Leases"));
    leaseMenu->addAction(leaseActions_->forceExpireAction());
    leaseMenu->addAction(leaseActions_->createAuditTableAction());
    leaseMenu->addAction(leaseActions_->auditLogAction());
    auto* toolbar = addToolBar(tr("Leases"));
    toolbar->setObjectName(QStringLiteral("leasesToolbar"));
    toolbar->addAction(leaseActions_->forceExpireAction());
    toolbar->addAction(leaseActions_->auditLogAction());

    auto* sessionMenu = menuBar()->addMenu(tr("&Sessions"));
    sessionMenu->addAction(locks_->cancelAction());
    sessionMenu->addAction(locks_->terminateAction());
    connect(locks_, &LocksView::backendSignalDone, this, [this](const QString& text, bool sent) {
        showNotice(text, 15000);
        if (!sent)
            QMessageBox::warning(this, tr("Leasewatch"), text);
    });

    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&About Leasewatch"), this, &MainWindow::showAbout);

    serverLabel_ = new QLabel(this);
    connLabel_ = new QLabel(this);
    refreshLabel_ = new QLabel(this);
    noticeLabel_ = new ElidedLabel(this);
    noticeLabel_->setObjectName(QStringLiteral("notice"));
    noticeLabel_->hide();
    noticeTimer_ = new QTimer(this);
    noticeTimer_->setSingleShot(true);
    connect(noticeTimer_, &QTimer::timeout, this, [this] {
        noticeLabel_->clear();
        noticeLabel_->hide();
    });
    statusBar()->addWidget(connLabel_);
    statusBar()->addWidget(serverLabel_);
    // The notice takes what room is left and is elided (full text in its tooltip): the connection,
    // server and refresh labels keep their width.
    statusBar()->addWidget(noticeLabel_, 1);
    statusBar()->addPermanentWidget(leaseActions_->createOperatorModeIndicator(this));
    statusBar()->addPermanentWidget(refreshLabel_);

    connect(monitor_, &Monitor::refreshed, this, &MainWindow::onRefreshed);
    connect(monitor_, &Monitor::statusChanged, this, &MainWindow::onStatus);
    // The "retrying in N s" countdown must move even when nothing arrives from the worker.
    auto* t = new QTimer(this);
    connect(t, &QTimer::timeout, this, &MainWindow::updateConnectionLabel);
    t->start(1000);
    updateConnectionLabel();
    resize(1200, 720);
}

void MainWindow::showLease(const QString& name)
{
    tabs_->setCurrentWidget(leases_);
    leases_->filterEdit()->clear();
    QAbstractItemModel* m = leases_->table()->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, LeaseModel::Name).data(LeaseModel::KeyRole).toString() == name) {
            leases_->table()->selectRow(r);
            leases_->table()->scrollTo(m->index(r, 0));
            leases_->table()->setFocus();
            return;
        }
}

void MainWindow::showSession(int pid)
{
    tabs_->setCurrentWidget(locks_);
    if (pid <= 0)
        return;
    QAbstractItemModel* m = locks_->table()->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, 0).data(AdvisoryLockModel::PidRole).toInt() == pid) {
            locks_->table()->selectRow(r);
            locks_->table()->scrollTo(m->index(r, 0));
            locks_->table()->setFocus();
            return;
        }
}

QString MainWindow::connectionText() const
{
    return connLabel_->text();
}

QString MainWindow::refreshText() const
{
    return refreshLabel_->text();
}

PoolView* MainWindow::poolView() const
{
    return static_cast<PoolView*>(poolPage_);
}

void MainWindow::setTopBar(QWidget* bar)
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(takeCentralWidget(), 1);
    setCentralWidget(central);
}

void MainWindow::addPage(QWidget* page, const QString& title)
{
    tabs_->addTab(page, title);
}

QStringList MainWindow::saveScreenshots(const QString& dir)
{
    QStringList written;
    QDir().mkpath(dir);
    const int current = tabs_->currentIndex();
    for (int i = 0; i < tabs_->count(); ++i) {
        tabs_->setCurrentIndex(i);
        // Let the page lay itself out at its real size first (charts re-layout on show).
        for (int k = 0; k < 5; ++k) {
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        QString name = tabs_->tabText(i).section(QLatin1Char('('), 0, 0).trimmed().toLower();
        // Letters of any language: "Überblick" is window-überblick.png, not window--berblick.png.
        name.replace(QRegularExpression(QStringLiteral("[^\\p{L}\\p{N}]+")), QStringLiteral("-"));
        const QString path = QDir(dir).filePath(QStringLiteral("window-%1.png").arg(name));
        if (grab().save(path, "PNG"))
            written << path;
    }
    tabs_->setCurrentIndex(current);
    return written;
}

void MainWindow::onRefreshed(const Snapshot& s)
{
    if (s.ok) {
        serverLabel_->setText(tr("PostgreSQL %1 · database %2 · user %3")
                                  .arg(s.server.version, s.server.database, s.server.user));
        // Over a Unix socket the bytes are not counted: the results' memory stands in, marked "≈".
        QString text = tr("last refresh %1 · %2 ms · %3%4 kB")
                           .arg(s.receivedWall.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
                           .arg(formatDecimal(s.clientWaitMs, 1))
                           .arg(s.bytesExact ? QString() : QStringLiteral("≈"))
                           .arg(formatDecimal(double(s.bytesReceived) / 1024.0, 1));
        refreshLabel_->setToolTip(s.bytesExact ? tr("kB: bytes received for this refresh, as counted on the TCP socket")
                                               : tr("kB: size of this refresh's results in memory (over a Unix "
                                                    "socket the bytes received are not counted)"));
        // The footprint budget: the interval actually used and the server time it is judged by.
        const int asked = monitor_->config().intervalMs;
        if (s.effectiveIntervalMs > asked && asked > 0) {
            // Stretched: a big table costs more server time than the budget allows at the asked rate.
            text += tr(" · every %1 s, stretched from %2 s by the footprint budget")
                        .arg(formatDecimal(s.effectiveIntervalMs / 1000.0, 1))
                        .arg(formatDecimal(asked / 1000.0, 1));
            refreshLabel_->setToolTip(
                refreshLabel_->toolTip() +
                tr("\nRefreshes are stretched by the footprint budget: one takes %1 ms of server time and the "
                   "console may use %2 % of it, so it refreshes every %3 s instead of every %4 s.")
                    .arg(s.serverMs, 0, 'f', 0)
                    .arg(monitor_->config().serverTimeBudget * 100, 0, 'g', 3)
                    .arg(formatDecimal(s.effectiveIntervalMs / 1000.0, 1))
                    .arg(formatDecimal(asked / 1000.0, 1)));
        }
        else if (s.effectiveIntervalMs > 0)
            text += tr(" · every %1 s, server ≤ %2 ms/refresh")
                        .arg(formatDecimal(s.effectiveIntervalMs / 1000.0, 1))
                        .arg(formatDecimal(s.serverMs, 1));
        if (s.locksNotRead)
            text += tr(" · pg_locks not read: locked by another session (%1 s old)").arg(s.locksAgeMs / 1000.0, 0, 'f', 0);
        else if (s.locksEveryN > 1)
            text += tr(" · pg_locks read every %1 refreshes (%2 rows, %3 s old)")
                        .arg(s.locksEveryN)
                        .arg(s.cluster.totalLocks)
                        .arg(formatDecimal(s.locksAgeMs / 1000.0, 1));
        refreshLabel_->setText(text);
    }
    updateConnectionLabel();
}

void MainWindow::onStatus(const ConnectionStatus&)
{
    updateConnectionLabel();
}

void MainWindow::updateConnectionLabel()
{
    const ConnectionStatus& st = monitor_->status();
    QString text;
    QString style;
    switch (st.state) {
    case ConnectionStatus::State::Connecting:
        text = tr("connecting…");
        break;
    case ConnectionStatus::State::Connected:
        text = monitor_->isPaused() ? tr("● connected, paused") : tr("● connected");
        if (const DatabaseWatch& dw = monitor_->watch(); dw.feedSource().isSet()) {
            // The refreshes are the recorder's: whose, and how old the last one is now.
            const qint64 ageMs = monitor_->hasRefreshed() ? monotonicMs() - monitor_->lastSnapshot().receivedMonotonicMs : -1;
            text = (monitor_->isPaused() ? tr("● via recorder (pid %1), paused") : tr("● via recorder (pid %1)"))
                       .arg(dw.feedRecorder().pid);
            if (ageMs >= 0)
                text += tr(" · refresh %1 s old").arg(formatDecimal(double(ageMs) / 1000.0, ageMs < 10000 ? 1 : 0));
        }
        style = QStringLiteral("color: #2e7d32;");
        break;
    case ConnectionStatus::State::Disconnected: {
        const qint64 leftMs =
            std::max<qint64>(0, QDateTime::currentDateTime().msecsTo(st.since.addMSecs(st.retryInMs)));
        text = tr("✖ disconnected since %1 — retrying in %2 s — %3")
                   .arg((st.outageSince.isValid() ? st.outageSince : st.since)
                            .toString(QStringLiteral("HH:mm:ss")))
                   .arg((leftMs + 999) / 1000)
                   .arg(st.error.toDisplayString());
        style = QStringLiteral("color: #c62828; font-weight: bold;");
        break;
    }
    }
    if (monitor_->isRecorded()) {
        // Offline: nothing is connected, whatever the recorded refresh said.
        text = tr("■ recorded, offline");
        style = QStringLiteral("color: #e65100; font-weight: bold;");
    }
    connLabel_->setText(text);
    connLabel_->setStyleSheet(style);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Leasewatch"),
                       tr("<b>Leasewatch %1</b><br>Live console for PostgreSQL leases, advisory locks and "
                          "connection pools.<br>Licensed under GPL-3.0-or-later (Qt Charts is GPL-3).")
                           .arg(QStringLiteral(LEASEWATCH_VERSION)));
}

void MainWindow::showNotice(const QString& text, int ms, bool alert)
{
    noticeLabel_->setStyleSheet(alert ? QStringLiteral("QLabel { color: #b71c1c; font-weight: bold; }")
                                      : QString());
    noticeLabel_->setText(text);
    noticeLabel_->setToolTip(text);
    noticeLabel_->show();
    noticeTimer_->start(ms);
}

QString MainWindow::alertLine(const QString& text)
{
    return tr("ALERT: %1").arg(text);
}

void MainWindow::showAlert(const QString& text)
{
    showNotice(alertLine(text), 30000, true);
}

void MainWindow::alertCleared(const QString& text)
{
    if (noticeText() == alertLine(text))
        showNotice(tr("alert cleared at %1: %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text),
                   30000);
}

QString MainWindow::noticeText() const
{
    return noticeLabel_->isHidden() ? QString() : noticeLabel_->text();
}

} // namespace lw::ui
