#pragma once
// The console's window for one monitored database: a page per view the mission names, and a
// status bar with the server, the connection state and the time of the last refresh.
#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace lw {
class AuditLog;
class Monitor;
struct Snapshot;
struct ConnectionStatus;
} // namespace lw

class QTimer;

namespace lw::ui {

class LeasesView;
class LocksView;
class OverviewView;
class LeaseActions;
class PoolView;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // `audit` (may be null) records operator actions locally.
    MainWindow(Monitor* monitor, const QString& displayName, AuditLog* audit = nullptr,
               QWidget* parent = nullptr);

    LeasesView* leasesView() const { return leases_; }
    LocksView* locksView() const { return locks_; }
    OverviewView* overviewView() const { return overview_; }
    void showLease(const QString& name);
    void showSession(int pid);
    LeaseActions* leaseActions() const { return leaseActions_; }
    QTabWidget* tabs() const { return tabs_; }
    QString connectionText() const;
    QString refreshText() const;
    // Saves one PNG per page (window-<page>.png) into `dir`; returns the files written.
    QStringList saveScreenshots(const QString& dir);

    // A message for `ms` milliseconds in a label of its own: the connection and server labels stay
    // in sight (QStatusBar::showMessage would hide them while an alert shows).
    // `alert` shows it in red.
    void showNotice(const QString& text, int ms, bool alert = false);
    // An alert in the status bar, and its end: a notice still showing that alert says it cleared
    // (at night, a red line that outlived its cause reads as a live problem).
    void showAlert(const QString& text);
    void alertCleared(const QString& text);
    static QString alertLine(const QString& text); // the status bar's line for an alert
    QString noticeText() const;

    PoolView* poolView() const;
    // A bar above the pages (the "recorded, not live" banner of an incident bundle).
    void setTopBar(QWidget* bar);
    // Adds a page after the built-in ones.
    void addPage(QWidget* page, const QString& title);

Q_SIGNALS:
    // File > Profiles…: the application shows the profiles and opens another window.
    void profilesRequested();
    // File > Export incident bundle… / Open incident bundle…: handled by the application.
    void exportBundleRequested();
    void openBundleRequested();
    // File > Browse recorded history: this profile's whole store, offline, in a window of its own.
    void browseHistoryRequested();
    // File > Databases at a glance…: every profile, worst first (the application's fleet window).
    void fleetRequested();

private:
    void onRefreshed(const Snapshot& s);
    void onStatus(const ConnectionStatus& st);
    void updateConnectionLabel();
    void showAbout();

    Monitor* monitor_;
    QString displayName_;
    QTabWidget* tabs_;
    LeasesView* leases_;
    LocksView* locks_;
    OverviewView* overview_;
    QWidget* poolPage_ = nullptr;
    LeaseActions* leaseActions_;
    QLabel* serverLabel_;
    QLabel* connLabel_;
    QLabel* refreshLabel_;
    QLabel* noticeLabel_;
    QTimer* noticeTimer_;
};

} // namespace lw::ui
