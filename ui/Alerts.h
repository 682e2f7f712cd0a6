#pragma once
// Desktop alerts: a finding that crosses its alert threshold raises one notification (system tray,
// or the window's attention request where there is no tray) per occurrence — again only after it
// has cleared and come back.
#include "domain/Analysis.h"

#include <QObject>
#include <QHash>
#include <QSet>

class QSystemTrayIcon;
class QWidget;

namespace lw {
class FindingsModel;
}

namespace lw::ui {

struct AlertConfig
{
    bool enabled = true;
    double staleLeaseAfterS = 30; // a stale lease alerts once it has been stale this long
    // Which kinds alert at all (the rest only show in the overview).
    QSet<FindingKind> kinds = {FindingKind::StaleLease, FindingKind::PoolPinned, FindingKind::LockTablePressure,
                               FindingKind::Deadlocks, FindingKind::ConnectionsNearLimit,
                               FindingKind::BouncerSlotHoldsLock, FindingKind::ServerNotAnswering,
                               FindingKind::FlagLeftSet, FindingKind::DoubleRun,
                               FindingKind::HiddenDeadlock};
};

class Alerts : public QObject
{
    Q_OBJECT
public:
    // `window`: asked for attention and named in the notification; `title`: the profile.
    Alerts(const FindingsModel* findings, QWidget* window, QString title, AlertConfig cfg,
           QObject* parent = nullptr);

    // Call after each refresh has updated the findings (server time of that refresh).
    void check(double serverNow);
    // The tray's tooltip names the window's state ("not answering", "2 problems — stale lease"):
    // never a bare title that could be read as "nothing to see".
    void setStatus(const QString& shortStatus);
    QString toolTip() const;
    int raisedCount() const { return raised_; }

Q_SIGNALS:
    void alerted(const lw::Finding& f, const QString& text);
    // A finding that alerted is gone (or below its alert threshold again); `text` is what alerted.
    void cleared(const QString& id, const QString& text);

private:
    bool crosses(const Finding& f, double serverNow) const;

    const FindingsModel* findings_;
    QWidget* window_;
    QString title_;
    QString status_;
    AlertConfig cfg_;
    QHash<QString, QString> active_; // ids alerted and still present -> the text they alerted with
    QSystemTrayIcon* tray_ = nullptr;
    int raised_ = 0;
};

} // namespace lw::ui
