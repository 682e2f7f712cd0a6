#include "PgBouncerView.h"

#include "charts/ChartPanel.h"
#include "pgbouncer/PgBouncerMonitor.h"

#include <QDateTime>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lw::ui {

using bouncer::BouncerSample;
using bouncer::PgBouncerPoolModel;

namespace {
const QColor kSvActive(0x2e, 0x7d, 0x32);
const QColor kSvIdle(0x90, 0xa4, 0xae);
const QColor kSvUsed(0x90, 0xca, 0xf9);
const QColor kClActive(0x15, 0x65, 0xc0);
const QColor kClWaiting(0xef, 0x6c, 0x00);
const QColor kPoolSize(0x6a, 0x1b, 0x9a);
constexpr int kChartColumns = 2;

QList<SeriesSpec> bouncerSeries()
{
    // Servers stacked (they add up to the pool's connections, bounded by pool_size); clients as
    // lines: more clients than pool_size is exactly the waiting an operator looks for.
    return {{QObject::tr("servers active"), kSvActive, SeriesSpec::Kind::Stacked},
            {QObject::tr("servers idle"), kSvIdle, SeriesSpec::Kind::Stacked},
            {QObject::tr("servers used"), kSvUsed, SeriesSpec::Kind::Stacked},
            {QObject::tr("clients active"), kClActive, SeriesSpec::Kind::Line},
            {QObject::tr("clients waiting"), kClWaiting, SeriesSpec::Kind::Line},
            {QObject::tr("pool_size"), kPoolSize, SeriesSpec::Kind::Limit}};
}

QColor severityColor(int severity)
{
    return severity >= 3   ? QColor(0xc6, 0x28, 0x28)
           : severity == 2 ? QColor(0xb2, 0x6a, 0x00)
                           : QColor(0x42, 0x42, 0x42);
}
} // namespace

PgBouncerView::PgBouncerView(bouncer::PgBouncerMonitor* monitor, QWidget* parent)
    : QWidget(parent), monitor_(monitor)
{
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(monitor_->pools());
    proxy_->setSortRole(PgBouncerPoolModel::SortRole);
    proxy_->setDynamicSortFilter(true);
    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(PgBouncerPoolModel::Database, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);

    auto* slotBox = new QGroupBox(
        tr("Server connections holding advisory locks (SHOW SERVERS.remote_pid × pg_locks)"), this);
    slots_ = new QListWidget(slotBox);
    slots_->setWordWrap(true);
    slots_->setAlternatingRowColors(true);
    auto* sl = new QVBoxLayout(slotBox);
    sl->addWidget(slots_);

    chartBox_ = new QWidget(this);
    chartGrid_ = new QGridLayout(chartBox_);
    chartGrid_->setContentsMargins(0, 0, 0, 0);
    auto* chartScroll = new QScrollArea(this);
    chartScroll->setWidget(chartBox_);
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);

    // Stacked, full width: the table has eleven columns and the findings are sentences.
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(slotBox);
    split->addWidget(chartScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setStretchFactor(2, 3);
    split->setSizes({160, 110, 480});

    auto* lay = new QVBoxLayout(this);
    lay->addWidget(status_);
    lay->addWidget(split, 1);

    connect(monitor_, &bouncer::PgBouncerMonitor::refreshed, this, &PgBouncerView::onRefreshed);
    connect(monitor_, &bouncer::PgBouncerMonitor::holdsChanged, this, &PgBouncerView::updateSlots);
    updateStatus();
    updateSlots();
}

PgBouncerView::~PgBouncerView() = default;

void PgBouncerView::onRefreshed(const bouncer::BouncerSnapshot&)
{
    updateStatus();
    if (!isVisible()) {
        dirty_ = true; // drawn when the page is shown
        return;
    }
    updateCharts();
}

void PgBouncerView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (dirty_) {
        dirty_ = false;
        updateCharts();
    }
}

void PgBouncerView::updateStatus()
{
    const bouncer::BouncerSnapshot& s = monitor_->lastSnapshot();
    const bouncer::BouncerSnapshot& good = monitor_->lastGoodSnapshot();
    QString text;
    if (s.seq == 0 && !s.error.isError())
        text = tr("Connecting to PgBouncer's admin console…");
    else if (s.ok)
        text = tr("%1 — %n pool(s), %2 server connection(s); refreshed at %3", nullptr, int(s.pools.size()))
                   .arg(s.version.isEmpty() ? tr("PgBouncer") : s.version)
                   .arg(s.servers.size())
                   .arg(QDateTime::fromMSecsSinceEpoch(qint64(s.receivedEpochS * 1000))
                            .toString(QStringLiteral("HH:mm:ss")));
    else
        text = tr("<b>PgBouncer unreachable</b>: %1%2")
                   .arg(s.error.toDisplayString().toHtmlEscaped(),
                        good.ok ? tr(" — showing the data of %1")
                                      .arg(QDateTime::fromMSecsSinceEpoch(qint64(good.receivedEpochS * 1000))
                                               .toString(QStringLiteral("HH:mm:ss")))
                                : QString());
    status_->setText(text);
}

void PgBouncerView::updateSlots()
{
    const std::vector<Finding> findings = monitor_->findings();
    slots_->clear();
    if (findings.empty()) {
        auto* item =
            new QListWidgetItem(tr("No server connection of PgBouncer holds an advisory lock."), slots_);
        item->setForeground(QColor(0x75, 0x75, 0x75));
        return;
    }
    for (const Finding& f : findings) {
        auto* item = new QListWidgetItem(f.title, slots_);
        item->setForeground(severityColor(f.severity));
        item->setToolTip(f.explanation + QStringLiteral("\n") + tr("What usually fixes it: ") + f.fix);
        item->setData(Qt::UserRole, f.id);
        if (f.severity >= 3) {
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
        }
    }
}

void PgBouncerView::updateCharts()
{
    const bouncer::BouncerHistory& h = monitor_->history();
    if (!h.hasSamples())
        return;
    const std::vector<QString> keys = h.poolKeys();
    // Charts of pools the history forgot go; new pools get one, in the history's order.
    const QSet<QString> keep(keys.begin(), keys.end());
    bool relayout = false;
    for (auto it = charts_.begin(); it != charts_.end();) {
        if (keep.contains(it.key())) {
            ++it;
            continue;
        }
        delete it.value();
        it = charts_.erase(it);
        relayout = true;
    }
    for (const QString& key : keys) {
        if (charts_.contains(key))
            continue;
        auto* c = new ChartPanel(key, chartBox_);
        c->setValueUnit(tr("connections"));
        c->setSeries(bouncerSeries());
        c->setMinimumHeight(260);
        charts_.insert(key, c);
        relayout = true;
    }
    if (relayout) {
        for (int i = 0; i < int(keys.size()); ++i)
            chartGrid_->addWidget(charts_.value(keys[size_t(i)]), i / kChartColumns, i % kChartColumns);
    }
    // The last five minutes; while the console has watched for less, what it has (at least 5 s), so
    // that a fresh page does not squeeze its first samples against the right edge.
    const double t1 = h.lastTime();
    const double t0 = std::max(t1 - kWindowS, std::min(h.startedAt(), t1 - 5));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const QString& key : keys) {
        const auto* track = h.pool(key);
        ChartPanel* c = charts_.value(key);
        const bouncer::BouncerPool& p = track->current;
        c->setTitle(tr("%1 (%2 pooling)%3%4")
                        .arg(key, p.poolMode.isEmpty() ? QStringLiteral("?") : p.poolMode,
                             p.poolSize ? QStringLiteral(" — pool_size %1").arg(*p.poolSize) : QString(),
                             track->present ? QString() : tr(" — gone")));
        ChartData d;
        d.values.resize(6);
        for (const BouncerSample& x : track->series.range(t0, t1)) {
            d.t.push_back(x.t);
            d.values[0].push_back(x.svActive);
            d.values[1].push_back(x.svIdle);
            d.values[2].push_back(x.svUsed);
            d.values[3].push_back(x.clActive);
            d.values[4].push_back(x.clWaiting);
            d.values[5].push_back(x.poolSize >= 0 ? double(x.poolSize) : nan);
        }
        c->setData(std::move(d), t0, t1);
    }
}

} // namespace lw::ui
