#include "FleetView.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace lw::ui {

FleetView::FleetView(QWidget* parent)
    : QWidget(parent), model_(new FleetModel(this)), sorted_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)), summary_(new QLabel(this))
{
    setWindowTitle(tr("Leasewatch — databases"));
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(FleetModel::RankRole); // worst first, whatever column: not answering, critical, …
    sorted_->setDynamicSortFilter(true);
    sorted_->sort(FleetModel::State, Qt::DescendingOrder);
    table_->setModel(sorted_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(FleetModel::Worst, QHeaderView::Stretch);
    table_->setColumnWidth(FleetModel::Database, 180);
    table_->setColumnWidth(FleetModel::State, 170);
    table_->setColumnWidth(FleetModel::Critical, 80);
    table_->setColumnWidth(FleetModel::Warning, 80);
    table_->setColumnWidth(FleetModel::Watched, 220);
    summary_->setWordWrap(true);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(summary_);
    lay->addWidget(table_);
    // Enter or a double-click (QAbstractItemView::activated): that database's console.
    connect(table_, &QAbstractItemView::activated, this, [this](const QModelIndex& i) {
        if (i.isValid())
            Q_EMIT openRequested(i.data(FleetModel::ProfileRole).toString());
    });
    resize(1100, 420);
}

void FleetView::setEntries(std::vector<FleetEntry> entries)
{
    model_->setEntries(std::move(entries));
    if (!table_->currentIndex().isValid() && sorted_->rowCount() > 0)
        table_->setCurrentIndex(sorted_->index(0, 0));
    summary_->setText(summaryText());
}

QString FleetView::summaryText() const
{
    int down = 0, critical = 0, warning = 0, fine = 0, unwatched = 0;
    for (int r = 0; r < model_->rowCount(); ++r) {
        switch (model_->entry(r).rank()) {
        case 4:
            ++down;
            break;
        case 3:
            ++critical;
            break;
        case 2:
            ++warning;
            break;
        case -1:
            ++unwatched;
            break;
        default:
            ++fine;
        }
    }
    return tr("%1 database(s): %2 not answering, %3 with a critical finding, %4 with a warning, %5 fine, %6 not "
              "watched (no window, no recorder). Worst first; Enter or a double-click opens one.")
        .arg(model_->rowCount())
        .arg(down)
        .arg(critical)
        .arg(warning)
        .arg(fine)
        .arg(unwatched);
}

} // namespace lw::ui
