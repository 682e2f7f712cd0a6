#include "PoolView.h"
#include "domain/Wording.h"

#include "Monitor.h"
#include "domain/PoolHistory.h"
#include "domain/SnapshotFormat.h"
#include "itemmodels/PoolModel.h"
#include "charts/ChartPanel.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace lw::ui {

namespace {
const QColor kPinned(0xc6, 0x28, 0x28);
const QColor kWaiting(0xef, 0x6c, 0x00);
const QColor kIdleInTx(0xf9, 0xa8, 0x25);
const QColor kActive(0x2e, 0x7d, 0x32);
const QColor kIdle(0x90, 0xa4, 0xae);
const QColor kLimit(0x0d, 0x47, 0xa1); // dark blue: stands out on the red pinned band
const QColor kCapacity(0xb7, 0x1c, 0x1c);
const QList<QColor> kGroupPalette = {
    QColor(0x15, 0x65, 0xc0), QColor(0x6a, 0x1b, 0x9a), QColor(0x00, 0x83, 0x8f), QColor(0xad, 0x14, 0x57),
    QColor(0x55, 0x8b, 0x2f), QColor(0xf5, 0x7f, 0x17), QColor(0x45, 0x5a, 0x64)};
constexpr int kBudgetGroups = 6; // groups drawn individually on the budget chart; the rest is "other"

QString num(qint64 v)
{
    return QLocale().toString(v);
}

// Green below 70 %, amber up to the finding's threshold, red beyond: the same limits as the findings.
void styleGauge(QProgressBar* bar, double share, double warnShare)
{
    const char* color = share >= warnShare ? "#c62828" : (share >= 0.7 ? "#f9a825" : "#2e7d32");
    bar->setStyleSheet(QStringLiteral("QProgressBar { border: 1px solid #9e9e9e; border-radius: 3px; "
                                      "text-align: center; height: 20px; }"
                                      "QProgressBar::chunk { background: %1; }")
                           .arg(QLatin1String(color)));
}

void setGauge(QProgressBar* bar, int value, int max, const QString& text)
{
    bar->setRange(0, std::max(max, 1));
    bar->setValue(std::clamp(value, 0, std::max(max, 1))); // QProgressBar ignores values out of range
    bar->setFormat(text);
}
} // namespace

PoolView::PoolView(Monitor* monitor, QWidget* parent)
    : QWidget(parent), monitor_(monitor), history_(new PoolHistory(this)), model_(new PoolModel(this))
{
    history_->setAnalysisConfig(monitor_->config().analysis);
    history_->setGroupBy(monitor_->config().analysis.groupBy);

    // --- Controls -------------------------------------------------------------------------------
    groupBy_ = new QComboBox(this);
    groupBy_->addItem(tr("Client instance (address + application)"), int(GroupBy::ClientInstance));
    groupBy_->addItem(tr("Application name"), int(GroupBy::ApplicationName));
    groupBy_->addItem(tr("User"), int(GroupBy::User));
    groupBy_->addItem(tr("Database"), int(GroupBy::Database));
    groupBy_->setCurrentIndex(groupBy_->findData(int(history_->groupBy())));
    connect(groupBy_, &QComboBox::currentIndexChanged, this, [this] {
        history_->setGroupBy(GroupBy(groupBy_->currentData().toInt()));
        selected_.clear();
        updateTableAndGauges();
        updateVisibleChart();
    });

    windowButtons_ = new QButtonGroup(this);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Group by:"), this));
    controls->addWidget(groupBy_);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Show:"), this));
    const std::pair<Window, QString> windows[] = {{Window::Last5Min, tr("Last 5 min")},
                                                  {Window::LastHour, tr("Last hour")},
                                                  {Window::SinceStart, tr("Since start")}};
    for (const auto& [w, text] : windows) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setCheckable(true);
        b->setChecked(w == window_);
        windowButtons_->addButton(b, int(w));
        controls->addWidget(b);
    }
    connect(windowButtons_, &QButtonGroup::idClicked, this, [this](int id) { setWindow(Window(id)); });
    pause_ = new QPushButton(tr("Pause"), this);
    pause_->setCheckable(true);
    pause_->setToolTip(
        tr("Stop following the live edge to look back (drag the time bar); sampling goes on."));
    connect(pause_, &QPushButton::toggled, this, [this](bool on) { setPaused(on); });
    export_ = new QPushButton(tr("Export PNG…"), this);
    export_->setToolTip(tr("Save the chart on screen as a PNG image."));
    connect(export_, &QPushButton::clicked, this, &PoolView::exportWithDialog);
    controls->addSpacing(16);
    controls->addWidget(pause_);
    controls->addWidget(export_);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("poolStatus"));
    controls->addWidget(status_, 1);

    // --- Groups table ---------------------------------------------------------------------------
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(PoolModel::SortRole);
    proxy_->setDynamicSortFilter(true);
    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(PoolModel::Total, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) {
                if (!cur.isValid())
                    return;
                selected_ = cur.data(PoolModel::KeyRole).toString();
                updateVisibleChart();
            });
    // A click on a group (not an automatic selection) brings its chart to the front.
    connect(table_, &QTableView::clicked, this, [this] { showChart(GroupTab); });

    // --- Gauges ---------------------------------------------------------------------------------
    auto* gauges = new QGroupBox(tr("Cluster limits now"), this);
    connGauge_ = new QProgressBar(gauges);
    connText_ = new QLabel(gauges);
    connText_->setWordWrap(true);
    lockGauge_ = new QProgressBar(gauges);
    lockText_ = new QLabel(gauges);
    lockText_->setWordWrap(true);
    troubleText_ = new QLabel(gauges);
    troubleText_->setWordWrap(true);
    for (QLabel* l : {connText_, lockText_, troubleText_})
        l->setStyleSheet(QStringLiteral("color: #424242;"));
    auto* g = new QVBoxLayout(gauges);
    auto* connTitle = new QLabel(tr("<b>Connections</b> (max_connections − reserved slots)"));
    auto* lockTitle = new QLabel(tr("<b>Shared lock table</b> (≈ nominal capacity; exhausted → ERROR 53200 "
                                    "out of shared memory)"));
    connTitle->setWordWrap(true);
    lockTitle->setWordWrap(true);
    g->addWidget(connTitle);
    g->addWidget(connGauge_);
    g->addWidget(connText_);
    g->addSpacing(6);
    g->addWidget(lockTitle);
    g->addWidget(lockGauge_);
    g->addWidget(lockText_);
    g->addSpacing(6);
    g->addWidget(troubleText_);
    g->addStretch(1);

    // --- Charts ---------------------------------------------------------------------------------
    charts_ = new QTabWidget(this);
    groupChart_ = new ChartPanel(tr("Select a group"), charts_);
    groupChart_->setValueUnit(tr("connections"));
    budgetChart_ = new ChartPanel(tr("Connections per group against the cluster budget"), charts_);
    budgetChart_->setValueUnit(tr("connections"));
    lockChart_ =
        new ChartPanel(tr("Shared lock-table entries against the nominal capacity (≈, a floor)"), charts_);
    lockChart_->setValueUnit(tr("entries"));
    troubleChart_ =
        new ChartPanel(tr("Lock trouble: sessions waiting on locks, deadlocks per minute"), charts_);
    lockChart_->setSeries(
        {{tr("advisory locks"), QColor(0x6a, 0x1b, 0x9a), SeriesSpec::Kind::Stacked},
         {tr("other shared-table locks"), QColor(0x42, 0xa5, 0xf5), SeriesSpec::Kind::Stacked},
         {tr("≈ nominal capacity"), kCapacity, SeriesSpec::Kind::Limit}});
    troubleChart_->setSeries({{tr("sessions waiting on a lock"), kWaiting, SeriesSpec::Kind::Line},
                              {tr("deadlocks in the last minute"), kPinned, SeriesSpec::Kind::Line}});
    charts_->addTab(groupChart_, tr("Selected group"));
    charts_->addTab(budgetChart_, tr("Connections vs budget"));
    charts_->addTab(lockChart_, tr("Lock table"));
    charts_->addTab(troubleChart_, tr("Lock waits && deadlocks"));
    connect(charts_, &QTabWidget::currentChanged, this, [this] { updateVisibleChart(); });
    scroll_ = new QScrollBar(Qt::Horizontal, this);
    scroll_->setToolTip(tr("Drag to look back in time (pauses the view)."));
    connect(scroll_, &QScrollBar::valueChanged, this, [this](int v) {
        if (settingScroll_)
            return;
        // The user moved the bar: stop following and show the chosen stretch.
        const double span = window_ == Window::LastHour ? 3600 : 300;
        following_ = false;
        viewEnd_ = history_->startedAt() + v + span;
        const QSignalBlocker b(pause_);
        pause_->setChecked(true);
        updateStatus();
        updateVisibleChart();
    });
    auto* chartBox = new QWidget(this);
    auto* cl = new QVBoxLayout(chartBox);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->addWidget(charts_, 1);
    cl->addWidget(scroll_);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(table_);
    // Scrollable, so wrapped explanations never overlap when the window is short.
    auto* gaugeScroll = new QScrollArea(this);
    gaugeScroll->setWidget(gauges);
    gaugeScroll->setWidgetResizable(true);
    gaugeScroll->setFrameShape(QFrame::NoFrame);
    gaugeScroll->setMinimumWidth(300);
    gaugeScroll->viewport()->installEventFilter(this);
    gaugeScroll_ = gaugeScroll;
    top->addWidget(gaugeScroll);
    top->setStretchFactor(0, 2);
    top->setStretchFactor(1, 1);
    top->setSizes({860, 340});
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(chartBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setSizes({300, 420});

    auto* lay = new QVBoxLayout(this);
    lay->addLayout(controls);
    lay->addWidget(split, 1);

    connect(monitor_, &Monitor::refreshed, this, &PoolView::onRefreshed);
    connect(monitor_, &Monitor::statusChanged, this, &PoolView::updateStatus);
    updateStatus();
}

PoolView::~PoolView() = default;

void PoolView::setJoinedAt(double serverTime)
{
    const QString label =
        tr("window opened %1")
            .arg(QDateTime::fromMSecsSinceEpoch(qint64(serverTime * 1000)).toString(QStringLiteral("HH:mm:ss")));
    for (ChartPanel* c : {groupChart_, budgetChart_, lockChart_, troubleChart_})
        c->setMarker(serverTime, label);
}

ChartPanel* PoolView::chart(ChartTab tab) const
{
    switch (tab) {
    case GroupTab:
        return groupChart_;
    case BudgetTab:
        return budgetChart_;
    case LockTableTab:
        return lockChart_;
    case TroubleTab:
        return troubleChart_;
    }
    return nullptr;
}

void PoolView::onRefreshed(const Snapshot& s)
{
    // Pool sizes may change with a reconfiguration: read them with every refresh (cheap, shared).
    AnalysisConfig cfg = monitor_->config().analysis;
    history_->setAnalysisConfig(cfg);
    history_->add(s);
    if (s.ok)
        reserved_ = reservedConnectionsText(s.cluster, s.server.user);
    if (!isVisible()) {
        dirty_ = true; // drawn when the page is shown
        return;
    }
    updateTableAndGauges();
    updateScroll();
    if (following_)
        updateVisibleChart();
}

// The scroll area sizes its widget by the minimum size hint, in which wrapped labels count one
// line each: they were squeezed over each other. The box asks for the height its width needs.
void PoolView::fitGauges()
{
    QWidget* box = gaugeScroll_->widget();
    const int h = box->heightForWidth(gaugeScroll_->viewport()->width());
    if (h > 0 && h != box->minimumHeight())
        box->setMinimumHeight(h);
}

bool PoolView::eventFilter(QObject* watched, QEvent* e)
{
    if (watched == gaugeScroll_->viewport() && e->type() == QEvent::Resize)
        fitGauges();
    return QWidget::eventFilter(watched, e);
}

void PoolView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (dirty_) {
        dirty_ = false;
        updateTableAndGauges();
        updateScroll();
        updateVisibleChart();
    }
}

void PoolView::updateTableAndGauges()
{
    std::vector<PoolGroup> groups;
    for (const QString& key : history_->groupKeys())
        groups.push_back(history_->group(key)->current);
    const auto c = history_->lastCluster();
    const int budget = c ? c->connectionBudget : 0;
    model_->setGroups(groups, budget);
    // Keep a group selected: the first pinned one, else the biggest.
    if (selected_.isEmpty() || model_->rowOfKey(selected_) < 0) {
        QString pick;
        for (const PoolGroup& g : groups)
            if (g.pinned) {
                pick = g.key;
                break;
            }
        if (pick.isEmpty() && !groups.empty())
            pick = groups.front().key;
        if (!pick.isEmpty())
            selectGroup(pick);
    }
    if (!c)
        return;
    const Thresholds& th = history_->analysisConfig().thresholds;

    const double connShare = budget > 0 ? double(c->connections) / budget : 0;
    setGauge(connGauge_, c->connections, budget,
             tr("%1 of %2 connections (%3 %)")
                 .arg(num(c->connections), num(budget))
                 .arg(100 * connShare, 0, 'f', 0));
    styleGauge(connGauge_, connShare, th.connectionShare);
    QStringList parts;
    for (size_t i = 0; i < groups.size() && i < 3; ++i)
        if (groups[i].total > 0)
            parts << tr("%1: %2 (%3 %)")
                         .arg(groups[i].key)
                         .arg(groups[i].total)
                         .arg(formatDecimal(budget > 0 ? 100.0 * groups[i].total / budget : 0.0, 1));
    connText_->setText((parts.isEmpty() ? tr("No client connections.")
                                        : tr("Largest: %1").arg(parts.join(QStringLiteral(" · ")))) +
                       (reserved_.isEmpty() ? QString() : QStringLiteral("\n") + reserved_));

    const int cap = c->lockTableCapacity;
    const double lockShare = cap > 0 ? double(c->lockTableEntries) / cap : 0;
    setGauge(lockGauge_, c->lockTableEntries, cap,
             tr("≈ %1 % — %2 of ≈ %3 entries")
                 .arg(formatDecimal(100 * lockShare, lockShare < 0.1 ? 1 : 0))
                 .arg(num(c->lockTableEntries), num(cap)));
    styleGauge(lockGauge_, lockShare, th.lockTableShare);
    lockText_->setText(tr("%1 of them advisory locks. The nominal capacity is a floor: the server "
                          "usually fits somewhat more.")
                           .arg(num(c->advisoryLocks)));
    troubleText_->setText(tr("<b>Lock trouble:</b> %1 session(s) waiting on a lock · %2 deadlock(s) in the "
                             "last minute%3")
                              .arg(c->waitingOnLock)
                              .arg(c->deadlocksLastMinute)
                              .arg(c->counterReset ? tr(" (statistics were reset)") : QString()));
    fitGauges();
}

std::pair<double, double> PoolView::visibleRange() const
{
    const double last = history_->lastTime();
    if (window_ == Window::SinceStart)
        return {history_->startedAt(), std::max(last, history_->startedAt() + 60)};
    const double span = window_ == Window::LastHour ? 3600 : 300;
    const double end = following_ ? last : viewEnd_;
    // Younger than the window: start at the first sample (at least a minute shown) rather than
    // squeeze the few samples there are against the right edge.
    return {std::max(end - span, std::min(history_->startedAt(), end - 60)), end};
}

void PoolView::updateScroll()
{
    const QSignalBlocker block(scroll_);
    settingScroll_ = true;
    if (window_ == Window::SinceStart || !history_->hasSamples()) {
        scroll_->setRange(0, 0);
        scroll_->setEnabled(false);
    } else {
        const int span = window_ == Window::LastHour ? 3600 : 300;
        const int max = std::max(0, int(history_->lastTime() - history_->startedAt()) - span);
        scroll_->setEnabled(true);
        scroll_->setRange(0, max);
        scroll_->setPageStep(span);
        scroll_->setSingleStep(std::max(1, span / 30));
        if (following_)
            scroll_->setValue(max);
        else
            scroll_->setValue(std::clamp(int(viewEnd_ - span - history_->startedAt()), 0, max));
    }
    settingScroll_ = false;
}

void PoolView::setWindow(Window w)
{
    window_ = w;
    if (auto* b = windowButtons_->button(int(w)))
        b->setChecked(true);
    updateScroll();
    updateStatus();
    updateVisibleChart();
}

void PoolView::setPaused(bool paused)
{
    following_ = !paused;
    if (paused)
        viewEnd_ = history_->lastTime();
    {
        const QSignalBlocker b(pause_);
        pause_->setChecked(paused);
    }
    pause_->setText(paused ? tr("Follow live") : tr("Pause"));
    updateScroll();
    updateStatus();
    updateVisibleChart();
}

void PoolView::scrollTo(double endT)
{
    setPaused(true);
    viewEnd_ = endT;
    updateScroll();
    updateStatus();
    updateVisibleChart();
}

QString PoolView::statusText() const
{
    return status_->text();
}

void PoolView::updateStatus()
{
    const auto [t0, t1] = visibleRange();
    auto fmt = [](double t) {
        return QDateTime::fromMSecsSinceEpoch(qint64(t * 1000)).toString(QStringLiteral("HH:mm:ss"));
    };
    pause_->setText(following_ ? tr("Pause") : tr("Follow live"));
    const ConnectionStatus::State conn = monitor_->status().state;
    QString text, tip, style;
    if (!following_) {
        text = monitor_->isRecorded() ? tr("❚❚ paused view %1–%2").arg(fmt(t0), fmt(t1))
                                      : tr("❚❚ paused view %1–%2 (still sampling)").arg(fmt(t0), fmt(t1));
        style = QStringLiteral("color: #e65100; font-weight: bold;");
    } else if (monitor_->isRecorded()) {
        // A recording: nothing is sampled now, the right edge is the recorded refresh shown.
        text = tr("◆ recorded, not live");
        tip = tr("The charts end at the recorded refresh shown; the time bar above moves through the recording.");
        style = QStringLiteral("color: #e65100;");
    } else if (conn == ConnectionStatus::State::Connected) {
        text = tr("● live");
        style = QStringLiteral("color: #2e7d32;");
    } else {
        // Following, but nothing arrives: the right edge is the last sample, not now.
        // Short: the label's width is the controls row's minimum, and so the window's.
        text = conn == ConnectionStatus::State::Disconnected ? tr("○ not live: no connection")
                                                             : tr("○ not live: connecting…");
        tip = tr("Nothing arrives from the database; sampling resumes when the connection is back.");
        style = QStringLiteral("color: #c62828;");
    }
    status_->setText(text);
    status_->setToolTip(tip);
    status_->setStyleSheet(style);
}

void PoolView::selectGroup(const QString& key)
{
    const int src = model_->rowOfKey(key);
    if (src < 0)
        return;
    selected_ = key;
    const QModelIndex idx = proxy_->mapFromSource(model_->index(src, 0));
    table_->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                       QItemSelectionModel::Rows);
}

QString PoolView::selectedGroup() const
{
    return selected_;
}

void PoolView::showChart(ChartTab tab)
{
    charts_->setCurrentIndex(int(tab));
}

bool PoolView::exportVisibleChart(const QString& path) const
{
    const auto* panel = qobject_cast<const ChartPanel*>(charts_->currentWidget());
    return panel && panel->exportPng(path);
}

void PoolView::exportWithDialog()
{
    const QString name = QStringLiteral("leasewatch-pool-%1.png")
                             .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart as PNG"),
                                                      QDir::home().filePath(name), tr("PNG images (*.png)"));
    if (!path.isEmpty() && !exportVisibleChart(path))
        status_->setText(tr("Could not write %1").arg(path));
}

void PoolView::updateVisibleChart()
{
    if (!history_->hasSamples())
        return;
    const auto [t0, t1] = visibleRange();
    // Only the chart on screen is rebuilt; the others catch up when their tab is chosen.
    switch (ChartTab(charts_->currentIndex())) {
    case GroupTab:
        updateGroupChart(t0, t1);
        break;
    case BudgetTab:
        updateBudgetChart(t0, t1);
        break;
    case LockTableTab:
        updateLockChart(t0, t1);
        break;
    case TroubleTab:
        updateTroubleChart(t0, t1);
        break;
    }
}

void PoolView::updateGroupChart(double t0, double t1)
{
    const PoolHistory::GroupTrack* tr_ = selected_.isEmpty() ? nullptr : history_->group(selected_);
    if (!tr_) {
        groupChart_->setTitle(tr("Select a group in the table above"));
        groupChart_->setData({}, t0, t1);
        return;
    }
    const PoolGroup& g = tr_->current;
    QList<SeriesSpec> specs = {
        {tr("idle holding advisory lock (pinned)"), kPinned, SeriesSpec::Kind::Stacked},
        {tr("waiting on a lock"), kWaiting, SeriesSpec::Kind::Stacked},
        {tr("idle in transaction"), kIdleInTx, SeriesSpec::Kind::Stacked},
        {tr("active"), kActive, SeriesSpec::Kind::Stacked},
        {tr("idle"), kIdle, SeriesSpec::Kind::Stacked}};
    if (g.poolSize)
        specs.append({tr("pool size %1").arg(*g.poolSize), kLimit, SeriesSpec::Kind::Limit});
    groupChart_->setSeries(specs);
    QString title = tr("%1 — connections by state").arg(g.key);
    if (g.pinned)
        title += tr(" — PINNED: %1 of %2 idle holding advisory locks")
                     .arg(g.idleHoldingAdvisory)
                     .arg(g.poolSize.value_or(g.total));
    else if (!g.poolSize)
        title += tr(" (no pool size configured)");
    groupChart_->setTitle(title);
    const std::vector<GroupSample> samples = tr_->series.range(t0, t1);
    ChartData d;
    d.values.assign(size_t(specs.size()), {});
    for (auto& v : d.values)
        v.reserve(samples.size());
    d.t.reserve(samples.size());
    for (const GroupSample& s : samples) {
        d.t.push_back(s.t);
        d.values[0].push_back(s.idleHoldingAdvisory);
        d.values[1].push_back(s.waitingOnLock);
        d.values[2].push_back(s.idleInTransaction);
        d.values[3].push_back(s.active);
        d.values[4].push_back(s.idle);
        if (g.poolSize)
            d.values[5].push_back(*g.poolSize);
    }
    groupChart_->setData(std::move(d), t0, t1);
}

void PoolView::updateBudgetChart(double t0, double t1)
{
    const std::vector<ClusterSample> cs = history_->cluster().range(t0, t1);
    // Fine samples match by time; older (per-minute) ones by their minute.
    const double fineStart = history_->cluster().fine().empty() ? 0 : history_->cluster().fine().front().t;
    auto slot = [fineStart](double t) {
        return t >= fineStart ? qint64(std::llround(t * 1000)) : -qint64(std::floor(t / 60)) - 1;
    };
    QHash<qint64, size_t> at;
    for (size_t i = 0; i < cs.size(); ++i)
        at.insert(slot(cs[i].t), i);
    // The biggest groups (peak in the window) get their own band; the rest is one band.
    struct Band
    {
        QString key;
        int peak = 0;
        std::vector<GroupSample> samples;
    };
    std::vector<Band> bands;
    for (const QString& key : history_->groupKeys()) {
        Band b{key, 0, history_->group(key)->series.range(t0, t1)};
        for (const GroupSample& s : b.samples)
            b.peak = std::max(b.peak, s.total());
        if (b.peak > 0)
            bands.push_back(std::move(b));
    }
    std::stable_sort(bands.begin(), bands.end(),
                     [](const Band& a, const Band& b) { return a.peak > b.peak; });
    const size_t shown = std::min<size_t>(bands.size(), kBudgetGroups);
    QList<SeriesSpec> specs;
    for (size_t i = 0; i < shown; ++i)
        specs.append(
            {bands[i].key, kGroupPalette[qsizetype(i) % kGroupPalette.size()], SeriesSpec::Kind::Stacked});
    specs.append({tr("other groups and the console"), QColor(0xbd, 0xbd, 0xbd), SeriesSpec::Kind::Stacked});
    specs.append({tr("budget (max_connections − reserved)"), kCapacity, SeriesSpec::Kind::Limit});
    budgetChart_->setSeries(specs);
    ChartData d;
    d.values.assign(size_t(specs.size()), std::vector<double>(cs.size(), 0.0));
    d.t.reserve(cs.size());
    for (const ClusterSample& c : cs)
        d.t.push_back(c.t);
    for (size_t b = 0; b < shown; ++b)
        for (const GroupSample& s : bands[b].samples) {
            const auto it = at.constFind(slot(s.t));
            if (it != at.constEnd())
                d.values[b][*it] = s.total();
        }
    const size_t other = shown, limit = shown + 1;
    for (size_t i = 0; i < cs.size(); ++i) {
        double sum = 0;
        for (size_t b = 0; b < shown; ++b)
            sum += d.values[b][i];
        d.values[other][i] = std::max(0.0, cs[i].connections - sum);
        d.values[limit][i] = cs[i].connectionBudget;
    }
    budgetChart_->setData(std::move(d), t0, t1);
}

void PoolView::updateLockChart(double t0, double t1)
{
    const std::vector<ClusterSample> cs = history_->cluster().range(t0, t1);
    ChartData d;
    d.values.assign(3, {});
    for (const ClusterSample& c : cs) {
        d.t.push_back(c.t);
        d.values[0].push_back(c.advisoryLocks);
        d.values[1].push_back(std::max(0, c.lockTableEntries - c.advisoryLocks));
        d.values[2].push_back(c.lockTableCapacity);
    }
    lockChart_->setData(std::move(d), t0, t1);
}

void PoolView::updateTroubleChart(double t0, double t1)
{
    const std::vector<ClusterSample> cs = history_->cluster().range(t0, t1);
    ChartData d;
    d.values.assign(2, {});
    for (const ClusterSample& c : cs) {
        d.t.push_back(c.t);
        d.values[0].push_back(c.waitingOnLock);
        d.values[1].push_back(c.deadlocksLastMinute);
    }
    troubleChart_->setData(std::move(d), t0, t1);
}

} // namespace lw::ui
