#include "Consoles.h"

#include "MainWindow.h"
#include "pgbouncer/PgBouncerMonitor.h"
#include "pgbouncer/PgBouncerView.h"
#include "Monitor.h"
#include "ProfilesDialog.h"

#include <QCloseEvent>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace lw::app {

Consoles::Consoles(ProfileStore* profiles, AuditLog* audit, QObject* parent)
    : QObject(parent), profiles_(profiles), audit_(audit)
{
}

Consoles::~Consoles()
{
    for (Console& c : open_) {
        c.alerts.reset();
        c.window.reset();
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
    return open(p.toPollerConfig(), p.name, alertConfigFor(p), p.pgbouncerDsn);
}

ui::MainWindow* Consoles::open(const PollerConfig& cfg, const QString& title, const ui::AlertConfig& alerts,
                               const QString& bouncerDsn)
{
    Console c;
    c.monitor = std::make_unique<Monitor>(cfg);
    c.window = std::make_unique<ui::MainWindow>(c.monitor.get(), title, audit_);
    ui::MainWindow* w = c.window.get();
    c.alerts = std::make_unique<ui::Alerts>(c.monitor->findings(), w, title, alerts);
    ui::Alerts* al = c.alerts.get();
    connect(c.monitor.get(), &Monitor::refreshed, al, [al](const Snapshot& s) {
        if (s.ok)
            al->check(s.serverNow);
    });
    connect(al, &ui::Alerts::alerted, w, [w](const Finding&, const QString& text) {
        w->statusBar()->showMessage(QObject::tr("ALERT: %1").arg(text), 30000);
    });
    if (!bouncerDsn.trimmed().isEmpty()) {
        // Owned by the window: its worker stops and its connection closes with it.
        bouncer::BouncerConfig bc;
        bc.dsn = bouncerDsn.trimmed();
        bc.intervalMs = cfg.intervalMs;
        auto* bm = new bouncer::PgBouncerMonitor(bc, w);
        Monitor* m = c.monitor.get();
        auto* page = new ui::PgBouncerView(bm, [m]() -> const Snapshot& { return m->lastSnapshot(); }, w->tabs());
        connect(m, &Monitor::refreshed, bm, &bouncer::PgBouncerMonitor::joinClusterSnapshot);
        w->tabs()->addTab(page, tr("PgBouncer"));
        bm->start();
    }
    w->installEventFilter(this);
    connect(w, &ui::MainWindow::profilesRequested, this, [this, w] { chooseAndOpen(w); });
    w->show();
    c.monitor->start();
    open_.push_back(std::move(c));
    return w;
}

bool Consoles::chooseAndOpen(QWidget* parent)
{
    if (auto err = profiles_->load(); err && parent)
        qWarning("leasewatch: %s", qPrintable(*err));
    ui::ProfilesDialog dialog(profiles_, parent);
    if (dialog.exec() != QDialog::Accepted)
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
                c.monitor.reset(); // the worker stops, the connection closes
                return;
            }
    });
}

} // namespace lw::app
