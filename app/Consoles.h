#pragma once
// The open consoles: one window and one monitoring connection per profile, several at once.
// File > Profiles… in any window opens another.
#include "Poller.h"
#include "Alerts.h"
#include "Fleet.h"
#include "Profile.h"
#include "feed/FeedClient.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <vector>

namespace lw {
class AuditLog;
class HistoryReader;
class HistoryRecorder;
class PoolHistory;
class Monitor;
namespace ui {
class FleetView;
class MainWindow;
}
} // namespace lw

namespace lw::app {

ui::AlertConfig alertConfigFor(const Profile& p);

class Consoles : public QObject
{
    Q_OBJECT
public:
    Consoles(ProfileStore* profiles, AuditLog* audit, QObject* parent = nullptr);
    ~Consoles() override; // windows first, then their monitors (connections close)

    // Opens a window on `cfg` and starts monitoring; returns it.
    // `bouncerDsn`: an optional PgBouncer admin console, shown on a page of its own. Every refresh
    // is recorded in the history of the profile named `title` (retention from `historyDays/Mb`).
    ui::MainWindow* open(const PollerConfig& cfg, const QString& title, const ui::AlertConfig& alerts = {},
                         const QString& bouncerDsn = {}, int historyDays = 7, int historyMb = 200);
    // An incident bundle (or a history store), offline and read-only, with a "recorded, not live"
    // banner. Returns nullptr and sets *error when the file cannot be read.
    ui::MainWindow* openBundle(const QString& file, QString* error = nullptr);
    // Console i's whole recorded history (any time kept, also before this start), offline.
    ui::MainWindow* browseHistory(int i, QString* error = nullptr);
    // Writes the recorded refreshes of console i in [t0, t1] (server time) as a bundle file.
    bool exportBundle(int i, const QString& file, double t0, double t1, QString* error = nullptr);
    // Where histories are kept (default: AppDataLocation/history); tests use a directory of their own.
    void setHistoryDir(const QString& dir) { historyDir_ = dir; }
    // Windows connect to their database even when a recorder's live feed is there (--direct).
    void setDirect(bool direct) { direct_ = direct; }
    // The next open() shows this recorder's feed (feed://HOST:PORT) instead of connecting.
    void openNextViaFeed(feed::FeedSource src) { nextFeed_ = std::move(src); }
    // The same for a stored profile (its alert settings too).
    ui::MainWindow* open(const Profile& p);
    // The profiles dialog; "Open" opens another window. Returns false if cancelled.
    bool chooseAndOpen(QWidget* parent = nullptr);
    // Every profile at a glance, worst first (File > Databases at a glance…, `leasewatch --fleet`):
    // open windows live, the others from their recorders' stores, refreshed every 2 s; Enter opens
    // (or raises) that profile's window. One such window; shown and raised again when asked twice.
    ui::FleetView* showFleet();
    // The rows it shows now (tests, `--fleet` screenshots).
    std::vector<FleetEntry> fleetEntries() const;
    int count() const { return int(open_.size()); }
    ui::MainWindow* window(int i) const;
    Monitor* monitor(int i) const;
    ui::Alerts* alerts(int i) const;
    HistoryRecorder* recorder(int i) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Console
    {
        std::unique_ptr<Monitor> monitor;
        std::unique_ptr<ui::MainWindow> window;
        std::unique_ptr<ui::Alerts> alerts;
        std::unique_ptr<HistoryRecorder> recorder; // live consoles
        std::unique_ptr<HistoryReader> reader;     // the lease timeline's (the store, or the bundle)
        double joinedAt = 0; // server time this window joined a recorder's history (0: it records itself)
        QString profile;     // the profile's name, or the DSN without its password
    };
    ui::MainWindow* add(Console c, const QString& title);
    static QString storePath(Console& c); // the live store this console records or reads, or ""
    void addTimeline(Console& c);
    // Replays [from, to] of the reader's history into the pool charts in slices between events,
    // then starts the monitor.
    void backfillThenStart(ui::MainWindow* w, const HistoryReader* reader, PoolHistory* into, Monitor* monitor,
                           double from, double to);
    void askExport(ui::MainWindow* w);
    void askOpenBundle(ui::MainWindow* w);
    void closeLater(ui::MainWindow* w);

    ProfileStore* profiles_;
    AuditLog* audit_;
    std::vector<Console> open_;
    QString historyDir_;
    bool direct_ = false;
    std::optional<feed::FeedSource> nextFeed_;
    QPointer<ui::FleetView> fleet_;
};

} // namespace lw::app
