#include "ForceExpireDialog.h"
#include "domain/Words.h"
#include "domain/UtcTime.h"

#include "domain/Wording.h"
#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace lw::ui {

namespace {
QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString instant(std::optional<double> epoch)
{
    if (!epoch || !std::isfinite(*epoch) || std::abs(*epoch) > 1e13)
        return QStringLiteral("—");
    return utcFromMSecs(qint64(*epoch * 1000.0))
        .toLocalTime()
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString sessionText(const SessionRow& s)
{
    QStringList parts;
    parts << QStringLiteral("pid %1").arg(s.pid);
    if (!s.applicationName.isEmpty())
        parts << QStringLiteral("application \"%1\"").arg(s.applicationName);
    if (!s.clientAddr.isEmpty())
        parts << QStringLiteral("from %1").arg(s.clientAddr);
    if (!s.user.isEmpty())
        parts << QStringLiteral("user %1").arg(s.user);
    if (!s.state.isEmpty())
        parts << s.state;
    return parts.join(QStringLiteral(", "));
}
} // namespace

ForceExpireDialog::ForceExpireDialog(std::vector<Item> items, double serverNow, const LeaseTableConfig& table,
                                     QWidget* parent)
    : QDialog(parent), items_(std::move(items))
{
    setWindowTitle(tr("Force-expire %n lease(s)", nullptr, int(items_.size())));
    setObjectName(QStringLiteral("forceExpireDialog"));

    QString html =
        tr("<p>Table <b>%1</b>. Times are on the database's clock.</p>").arg(esc(table.qualifiedName()));
    for (const Item& it : items_) {
        const LeaseRow& r = it.entry.track.row;
        const HolderEvidence& ev = it.evidence;
        if (ev.looksAlive)
            ++aliveCount_;
        behindS_ = std::max(behindS_, ev.writerBehindS);
        QString holder;
        if (!r.holder)
            holder = tr("(no holder)");
        else if (it.entry.holder.structured && it.entry.holder.pid > 0)
            holder = tr("host <b>%1</b>, pid <b>%2</b> <span style='color:#757575'>(%3)</span>")
                         .arg(esc(it.entry.holder.host))
                         .arg(it.entry.holder.pid)
                         .arg(esc(*r.holder));
        else if (it.entry.holder.structured && !it.entry.holder.host.isEmpty()) // a host name, no pid
            holder = tr("host <b>%1</b> <span style='color:#757575'>(%2)</span>")
                         .arg(esc(it.entry.holder.host), esc(*r.holder));
        else
            holder = QStringLiteral("<b>%1</b>").arg(esc(*r.holder));
        QString expiry = QStringLiteral("—");
        if (r.expiresAt) {
            const double left = *r.expiresAt - serverNow;
            expiry = left >= 0 ? tr("expires in %1").arg(formatDuration(left))
                               : tr("expired %1 ago").arg(formatDuration(-left));
            expiry += QStringLiteral(" (%1)").arg(instant(r.expiresAt));
        }
        const QString verdict =
            ev.looksAlive ? tr("<span style='color:#c62828'><b>holder looks ALIVE</b></span>")
                          : tr("<span style='color:#8e24aa'><b>holder looks dead</b></span>");
        html += QStringLiteral("<hr><p><b>%1</b> — %2 — %3<br>")
                    .arg(esc(r.name), esc(leaseStateText(ev.state)), verdict);
        html += tr("Holder: %1<br>Taken at: %2<br>Expiry: %3</p>").arg(holder, instant(r.takenAt), expiry);
        html += QStringLiteral("<ul>");
        for (const QString& s : ev.forDead)
            html += tr("<li>speaks for dead: %1</li>").arg(esc(s));
        for (const QString& s : ev.forAlive)
            html += tr("<li>speaks for alive: %1</li>").arg(esc(s));
        for (const QString& s : ev.unknowns)
            html += tr("<li>unknown: %1</li>").arg(esc(s));
        for (const SessionRow& s : ev.hostSessions)
            html += tr("<li>connected session from the holder's host: %1</li>").arg(esc(sessionText(s)));
        html += QStringLiteral("</ul>");
        html +=
            it.target.acknowledgedAlive
                ? tr("<p style='color:#616161'>Changed only if the holder and the expiry are still the ones "
                     "shown (a renewal or a re-take since then fails it) and the lease has not expired "
                     "yet.</p>")
                : tr("<p style='color:#616161'>Changed only if the holder and the expiry are still the ones "
                     "shown (a renewal since then means the holder is alive).</p>");
    }
    details_ = new QTextBrowser(this);
    details_->setObjectName(QStringLiteral("details"));
    details_->setHtml(html);
    details_->setMinimumSize(640, 260);

    const QString action = table.releasedByLibraryStatement()
                               ? tr("Each lock is %1.").arg(esc(libraryWords(table.release.words)))
                               : tr("Each lease's expiry is set to the server's now(); the row stays.");
    consequences_ = new QLabel(
        tr("<b>What will follow.</b> %1 "
           "Another instance may take the lease at its next attempt. If the old holder is still running it "
           "may keep working, so <b>the work may run twice</b>: this lease scheme has no fencing token. "
           "Nothing is retried: each lease is tried once and you see what happened.")
            .arg(action),
        this);
    consequences_->setObjectName(QStringLiteral("consequences"));
    consequences_->setWordWrap(true);

    alive_ = new QCheckBox(this);
    alive_->setObjectName(QStringLiteral("aliveConfirmation"));
    alive_->setText(tr("I understand the holder of %n lease(s) looks alive and its work may run twice",
                       nullptr, aliveCount_));
    alive_->setVisible(aliveCount_ > 0);
    clock_ = new QCheckBox(this);
    clock_->setObjectName(QStringLiteral("clockConfirmation"));
    clock_->setText(tr("I understand a writer's clock runs at least %1 behind the server's: its lease may only "
                       "look expired while its holder still renews")
                        .arg(formatDuration(behindS_)));
    clock_->setVisible(behindS_ > 0);

    status_ = new QLabel(this);
    status_->setWordWrap(true);
    outcomes_ = new QTextBrowser(this);
    outcomes_->setObjectName(QStringLiteral("outcomes"));
    outcomes_->hide();

    auto* buttons = new QDialogButtonBox(this);
    confirm_ = buttons->addButton(tr("Force-expire %n lease(s)", nullptr, int(items_.size())),
                                  QDialogButtonBox::AcceptRole);
    confirm_->setObjectName(QStringLiteral("confirm"));
    close_ = buttons->addButton(QDialogButtonBox::Cancel);
    close_->setObjectName(QStringLiteral("close"));
    // Cancel is the default: Enter must never force anything.
    confirm_->setAutoDefault(false);
    close_->setDefault(true);
    connect(confirm_, &QPushButton::clicked, this, &ForceExpireDialog::onConfirm);
    connect(close_, &QPushButton::clicked, this, &QDialog::reject);
    connect(alive_, &QCheckBox::toggled, this, &ForceExpireDialog::updateConfirm);
    connect(clock_, &QCheckBox::toggled, this, &ForceExpireDialog::updateConfirm);

    auto* lay = new QVBoxLayout(this);
    lay->addWidget(details_, 1);
    lay->addWidget(consequences_);
    lay->addWidget(alive_);
    lay->addWidget(clock_);
    lay->addWidget(status_);
    lay->addWidget(outcomes_, 1);
    lay->addWidget(buttons);
    updateConfirm();
    resize(760, 560);
}

std::vector<ForceExpireTarget> ForceExpireDialog::targets() const
{
    std::vector<ForceExpireTarget> t;
    t.reserve(items_.size());
    for (const Item& it : items_)
        t.push_back(it.target);
    return t;
}

void ForceExpireDialog::updateConfirm()
{
    const bool aliveOk = aliveCount_ == 0 || alive_->isChecked();
    const bool clockOk = behindS_ <= 0 || clock_->isChecked();
    confirm_->setEnabled(!running_ && !items_.empty() && aliveOk && clockOk);
    confirm_->setToolTip(!aliveOk   ? tr("Tick the confirmation above: a holder looks alive")
                         : !clockOk ? tr("Tick the confirmation above: a writer's clock runs behind")
                                    : QString());
}

void ForceExpireDialog::onConfirm()
{
    if (running_ || !confirm_->isEnabled())
        return;
    running_ = true;
    alive_->setEnabled(false);
    clock_->setEnabled(false);
    updateConfirm();
    close_->setEnabled(false); // the answer is on its way; closing now would lose the outcome
    status_->setText(tr("Sent; waiting for the server (bounded by lock_timeout and statement_timeout)…"));
    Q_EMIT confirmed(targets());
}

void ForceExpireDialog::showOutcomes(const std::vector<ForceExpireOutcome>& outcomes)
{
    QString html;
    int expired = 0;
    for (const ForceExpireOutcome& o : outcomes) {
        const bool good = o.kind == ForceExpireOutcome::Kind::Expired;
        expired += good ? 1 : 0;
        html +=
            QStringLiteral("<p><b>%1</b>: <span style='color:%2'>%3</span>%4</p>")
                .arg(esc(o.target.name), good ? QStringLiteral("#2e7d32") : QStringLiteral("#c62828"),
                     esc(o.text()),
                     o.serverAudited ? tr(" <i>(recorded in the server-side audit table)</i>") : QString());
    }
    outcomes_->setHtml(html);
    outcomes_->show();
    status_->setText(
        tr("%1 of %2 lease(s) expired. Recorded in the audit log.").arg(expired).arg(outcomes.size()));
    confirm_->hide();
    close_->setText(tr("Close"));
    close_->setEnabled(true);
    close_->setDefault(true);
}

void ForceExpireDialog::showFailure(const QString& text)
{
    outcomes_->setPlainText(text);
    outcomes_->show();
    status_->clear();
    confirm_->hide();
    close_->setText(tr("Close"));
    close_->setEnabled(true);
}

QString ForceExpireDialog::detailsText() const
{
    return details_->toPlainText();
}

QString ForceExpireDialog::outcomeText() const
{
    return outcomes_->isVisible() || !outcomes_->toPlainText().isEmpty() ? outcomes_->toPlainText()
                                                                         : QString();
}

} // namespace lw::ui
