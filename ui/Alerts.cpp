#include "Alerts.h"

#include "itemmodels/LocksModels.h"

#include <QApplication>
#include <QSystemTrayIcon>
#include <QWidget>

namespace lw::ui {

Alerts::Alerts(const FindingsModel* findings, QWidget* window, QString title, AlertConfig cfg, QObject* parent)
    : QObject(parent), findings_(findings), window_(window), title_(std::move(title)), cfg_(std::move(cfg))
{
    if (cfg_.enabled && QSystemTrayIcon::isSystemTrayAvailable()) {
        tray_ = new QSystemTrayIcon(window_ ? window_->windowIcon() : QIcon(), this);
        tray_->setToolTip(toolTip());
        tray_->show();
    }
}

void Alerts::setStatus(const QString& shortStatus)
{
    status_ = shortStatus;
    if (tray_)
        tray_->setToolTip(toolTip());
}

QString Alerts::toolTip() const
{
    return status_.isEmpty() ? QStringLiteral("Leasewatch — %1").arg(title_)
                             : QStringLiteral("Leasewatch — %1 — %2").arg(title_, status_);
}

bool Alerts::crosses(const Finding& f, double serverNow) const
{
    if (!cfg_.kinds.contains(f.kind))
        return false;
    if (f.kind == FindingKind::StaleLease)
        return serverNow - f.sinceServer >= cfg_.staleLeaseAfterS;
    if (f.kind == FindingKind::BouncerSlotHoldsLock)
        return f.severity >= 3; // a session lock leaking on a transaction pool; not every slot lock
    return true; // the finding's own threshold (per profile) already applies
}

void Alerts::check(double serverNow)
{
    if (!cfg_.enabled)
        return;
    QHash<QString, QString> present;
    for (int i = 0; i < findings_->rowCount(); ++i) {
        const Finding& f = findings_->finding(i);
        if (!crosses(f, serverNow))
            continue;
        if (const auto it = active_.constFind(f.id); it != active_.constEnd()) {
            present.insert(f.id, *it);
            continue; // once per occurrence
        }
        ++raised_;
        const QString text = f.title;
        present.insert(f.id, text);
        if (tray_)
            tray_->showMessage(QStringLiteral("Leasewatch — %1").arg(title_), text,
                               f.severity >= 3 ? QSystemTrayIcon::Critical : QSystemTrayIcon::Warning, 15000);
        else if (window_)
            QApplication::alert(window_); // taskbar attention where there is no tray
        Q_EMIT alerted(f, text);
    }
    for (auto it = active_.constBegin(); it != active_.constEnd(); ++it)
        if (!present.contains(it.key()))
            Q_EMIT cleared(it.key(), *it);
    active_ = std::move(present); // a cleared finding alerts again when it comes back
}

} // namespace lw::ui
