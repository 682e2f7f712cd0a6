#pragma once
// The open consoles: one window and one monitoring connection per profile, several at once.
// File > Profiles… in any window opens another.
#include "Poller.h"
#include "Alerts.h"
#include "Profile.h"

#include <QObject>

#include <memory>
#include <vector>

namespace lw {
class AuditLog;
class Monitor;
namespace ui {
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
    // `bouncerDsn`: an optional PgBouncer admin console, shown on a page of its own.
    ui::MainWindow* open(const PollerConfig& cfg, const QString& title, const ui::AlertConfig& alerts = {},
                         const QString& bouncerDsn = {});
    // The same for a stored profile (its alert settings too).
    ui::MainWindow* open(const Profile& p);
    // The profiles dialog; "Open" opens another window. Returns false if cancelled.
    bool chooseAndOpen(QWidget* parent = nullptr);
    int count() const { return int(open_.size()); }
    ui::MainWindow* window(int i) const;
    Monitor* monitor(int i) const;
    ui::Alerts* alerts(int i) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Console
    {
        std::unique_ptr<Monitor> monitor;
        std::unique_ptr<ui::MainWindow> window;
        std::unique_ptr<ui::Alerts> alerts;
    };
    void closeLater(ui::MainWindow* w);

    ProfileStore* profiles_;
    AuditLog* audit_;
    std::vector<Console> open_;
};

} // namespace lw::app
