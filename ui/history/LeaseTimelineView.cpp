#include "LeaseTimelineView.h"

#include "LeaseStripView.h"
#include "store/HistoryReader.h"
#include "itemmodels/LeaseStrip.h"
#include "itemmodels/LeaseTimelineModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace lw::ui {

LeaseTimelineView::LeaseTimelineView(QWidget* parent)
    : QWidget(parent), model_(new LeaseTimelineModel(this)), leases_(new QComboBox(this)),
      summary_(new QLabel(this)), table_(new QTableView(this)), leaseStrip_(new LeaseStripView(this)),
      tableStrips_(new LeaseStripView), stripsNote_(new QLabel(this))
{
    leaseStrip_->setObjectName(QStringLiteral("leaseStrip"));
    tableStrips_->setObjectName(QStringLiteral("tableStrips"));
    connect(tableStrips_, &LeaseStripView::leaseClicked, this, [this](const QString& name) { showLease(name); });
    leases_->setEditable(true); // type to find a lease among thousands
    leases_->setInsertPolicy(QComboBox::NoInsert);
    leases_->setMinimumContentsLength(24);
    connect(leases_, &QComboBox::currentTextChanged, this, [this](const QString& name) { showLease(name); });
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& idx) {
        if (idx.isValid())
            Q_EMIT timeActivated(model_->event(idx.row()).at);
    });
    summary_->setWordWrap(true);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Lease:"), this));
    top->addWidget(leases_, 1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(tableStrips_);
    scroll->setWidgetResizable(true);
    auto* below = new QWidget;
    auto* belowLay = new QVBoxLayout(below);
    belowLay->setContentsMargins(0, 0, 0, 0);
    belowLay->addWidget(stripsNote_);
    belowLay->addWidget(scroll, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(below);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(top);
    lay->addWidget(summary_);
    lay->addWidget(leaseStrip_);
    lay->addWidget(split, 1);
}

void LeaseTimelineView::refreshStrips()
{
    if (!reader_) {
        tableStrips_->setRows({}, 0, 1);
        stripsNote_->clear();
        return;
    }
    const auto range = reader_->range();
    const double t1 = range.to, t0 = std::max(range.from, t1 - 3600);
    const QStringList names = reader_->leaseNames();
    const std::vector<RecordedFinding> found = reader_->findings(t0, t1);
    std::vector<LeaseStripView::Row> rows;
    for (const QString& n : names) {
        if (int(rows.size()) >= kStripLeases)
            break;
        std::vector<StripSegment> segs = lw::leaseStrip(reader_->timeline(n), t0, t1);
        if (!segs.empty())
            rows.push_back({n, std::move(segs), lw::leaseOverlaps(found, n, t0, t1)});
    }
    tableStrips_->setRows(std::move(rows), t0, t1);
    stripsNote_->setText((names.size() > kStripLeases
                              ? tr("Every lease over the last recorded hour (the first %1 of %2); click one for its events.")
                                    .arg(kStripLeases)
                                    .arg(names.size())
                              : tr("Every lease over the last recorded hour; click one for its events.")) +
                         QStringLiteral("<br>") + LeaseStripView::legendHtml());
}

LeaseTimelineView::~LeaseTimelineView() = default;

void LeaseTimelineView::setReader(const HistoryReader* reader)
{
    reader_ = reader;
    const QSignalBlocker b(leases_);
    leases_->clear();
    if (reader_)
        leases_->addItems(reader_->leaseNames());
    model_->setEvents({}, {});
    summary_->clear();
    if (leases_->count() > 0)
        showLease(leases_->itemText(0)); // never an empty page when there is something to show
    refreshStrips();
}

QString LeaseTimelineView::lease() const
{
    return model_->lease();
}

void LeaseTimelineView::setJoinedAt(double serverTime)
{
    model_->setJoinedAt(serverTime);
    if (!lease().isEmpty())
        showLease(lease());
}

void LeaseTimelineView::showLease(const QString& name)
{
    if (!reader_)
        return;
    {
        const QSignalBlocker b(leases_);
        if (leases_->findText(name) < 0)
            leases_->addItem(name); // a lease first seen after the page was opened (live store)
        leases_->setCurrentText(name);
    }
    model_->load(*reader_, name);
    std::set<QString> holders;
    int renewals = 0, takeovers = 0, forced = 0;
    using K = LeaseTimelineEvent::Kind;
    for (int i = 0; i < model_->rowCount(); ++i) {
        const LeaseTimelineEvent& e = model_->event(i);
        if (e.holder)
            holders.insert(*e.holder);
        renewals += e.renewals;
        takeovers += e.kind == K::TakeOver;
        forced += e.kind == K::ForcedExpiry;
    }
    QString text = model_->rowCount() == 0
                       ? tr("Nothing recorded for %1.").arg(name)
                       : tr("%1 holder(s), %2 renewal(s), %3 takeover(s), %4 forced expiry(ies). Server time.")
                             .arg(holders.size())
                             .arg(renewals)
                             .arg(takeovers)
                             .arg(forced);
    if (model_->joinedAt() > 0)
        text += QLatin1Char(' ') + tr("Shaded rows were recorded by the recorder before this window opened at %1.")
                                       .arg(formatServerTime(model_->joinedAt()));
    summary_->setText(text);
    const auto range = reader_->range();
    const double from = model_->rowCount() > 0 ? model_->event(0).at : range.from;
    const double to = std::max(range.to, from + 1);
    leaseStrip_->setRows({{name, lw::leaseStrip(model_->events(), from, to),
                           lw::leaseOverlaps(reader_->findings(from, to), name, from, to)}},
                         from, to);
    table_->scrollToBottom();
}

void LeaseTimelineView::highlightTime(double t)
{
    const int row = model_->rowAt(t);
    if (row < 0) {
        table_->clearSelection();
        return;
    }
    table_->selectRow(row);
    table_->scrollTo(model_->index(row, 0));
}

} // namespace lw::ui
