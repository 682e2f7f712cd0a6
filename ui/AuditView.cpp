#include "AuditView.h"

#include "store/AuditLog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lw::ui {

AuditView::AuditView(AuditLog* log, QWidget* parent) : QDialog(parent), log_(log)
{
    setWindowTitle(tr("Audit log — operator actions"));
    setObjectName(QStringLiteral("auditView"));
    header_ = new QLabel(this);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setHorizontalHeaderLabels({tr("Time"), tr("Action"), tr("Target"), tr("Outcome"), tr("DB role"),
                                       tr("OS user@host"), tr("Database"), tr("Before"), tr("After")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->setWordWrap(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    const int widths[] = {150, 100, 200, 320, 90, 140, 140, 220};
    for (int c = 0; c < int(std::size(widths)); ++c)
        table_->setColumnWidth(c, widths[c]);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* refresh = buttons->addButton(tr("Refresh"), QDialogButtonBox::ActionRole);
    connect(refresh, &QPushButton::clicked, this, &AuditView::reload);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* lay = new QVBoxLayout(this);
    lay->addWidget(header_);
    lay->addWidget(table_, 1);
    lay->addWidget(buttons);
    if (log_)
        connect(log_, &AuditLog::changed, this, &AuditView::reload);
    reload();
    resize(1100, 480);
}

void AuditView::reload()
{
    table_->setRowCount(0);
    if (!log_ || !log_->isOpen()) {
        header_->setText(
            tr("The audit log is not available: %1").arg(log_ ? log_->errorString() : tr("none configured")));
        return;
    }
    const auto records = log_->records();
    header_->setText(tr("%n record(s), newest first, in %1", nullptr, int(records.size())).arg(log_->path()));
    table_->setRowCount(int(records.size()));
    for (int i = 0; i < int(records.size()); ++i) {
        const AuditRecord& r = records[size_t(i)];
        const QString cells[] = {r.at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                                 r.action,
                                 r.target,
                                 r.outcome,
                                 r.dbRole,
                                 r.osUser + QLatin1Char('@') + r.osHost,
                                 r.database,
                                 r.before,
                                 r.after};
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            table_->setItem(i, c, item);
        }
    }
}

} // namespace lw::ui
