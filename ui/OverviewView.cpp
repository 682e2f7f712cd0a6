#include "OverviewView.h"

#include "Monitor.h"
#include "domain/Analysis.h"
#include "domain/Wording.h"
#include "itemmodels/LeaseModel.h"

#include <QApplication>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QPaintEngine>
#include <QPainter>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

namespace lw::ui {

namespace {
QColor severityColor(int s)
{
    return s >= 3 ? QColor(0xc6, 0x28, 0x28) : s == 2 ? QColor(0xe0, 0x82, 0x00) : QColor(0x60, 0x7d, 0x8b);
}

// A finding as a card: severity bar and word, the title, what it means, what fixes it, since when.
class CardDelegate : public QStyledItemDelegate
{
public:
    CardDelegate(Monitor* m, QObject* parent) : QStyledItemDelegate(parent), monitor_(m) {}

    QSize sizeHint(const QStyleOptionViewItem& opt, const QModelIndex&) const override
    {
        return QSize(opt.rect.width(), 4 * opt.fontMetrics.height() + 18);
    }

    void paint(QPainter* p, const QStyleOptionViewItem& opt, const QModelIndex& idx) const override
    {
        p->save();
        const bool selected = opt.state & QStyle::State_Selected;
        const int sev = idx.data(FindingsModel::SeverityRole).toInt();
        // Not live: a finding from before the server stopped answering, greyed and "as of".
        const double asOf = idx.data(FindingsModel::AsOfRole).toDouble();
        const QColor c = asOf > 0 ? QColor(0xbd, 0xbd, 0xbd) : severityColor(sev);
        const QColor ink = asOf > 0 ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x21, 0x21, 0x21);
        const QColor inkSoft = asOf > 0 ? QColor(0xa8, 0xa8, 0xa8) : QColor(0x42, 0x42, 0x42);
        QRect r = opt.rect.adjusted(4, 3, -4, -3);
        p->setRenderHint(QPainter::Antialiasing);
        p->setPen(selected ? QPen(opt.palette.highlight().color(), 2) : QPen(QColor(0xdd, 0xdd, 0xdd)));
        p->setBrush(selected ? opt.palette.highlight().color().lighter(185) : QColor(0xff, 0xff, 0xff));
        p->drawRoundedRect(r, 4, 4);
        p->fillRect(QRect(r.left(), r.top(), 6, r.height()), c);
        const int lh = opt.fontMetrics.height();
        QRect text = r.adjusted(14, 5, -8, -4);
        QFont bold = opt.font;
        bold.setBold(true);
        p->setFont(bold);
        p->setPen(c);
        const QString word = severityWord(sev);
        p->drawText(QRect(text.left(), text.top(), kLeft, lh), Qt::AlignLeft | Qt::AlignVCenter, word);
        // The words right of the "since" column change only with the finding; the clock moves the
        // column alone (sinceColumn()): laid out only when they are to be painted.
        const QRect words(text.left() + kLeft, text.top(), text.width() - kLeft, text.height());
        const QRegion exposed = p->paintEngine() ? p->paintEngine()->systemClip() : QRegion();
        if (exposed.isEmpty() || exposed.intersects(p->deviceTransform().mapRect(words))) {
            p->setPen(ink);
            const QRect titleRect(text.left() + kLeft, text.top(), text.width() - kLeft, lh);
            p->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                        QFontMetrics(bold).elidedText(idx.data().toString(), Qt::ElideRight, titleRect.width()));
            p->setFont(opt.font);
            p->setPen(inkSoft);
            const QRect expl(text.left() + kLeft, text.top() + lh + 2, text.width() - kLeft, lh);
            p->drawText(expl, Qt::AlignLeft | Qt::AlignVCenter,
                        opt.fontMetrics.elidedText(idx.data(FindingsModel::ExplanationRole).toString(),
                                                   Qt::ElideRight, expl.width()));
            const QRect fix(text.left() + kLeft, text.top() + 2 * lh + 4, text.width() - kLeft, lh);
            p->setPen(asOf > 0 ? inkSoft : QColor(0x2e, 0x7d, 0x32));
            p->drawText(
                fix, Qt::AlignLeft | Qt::AlignVCenter,
                opt.fontMetrics.elidedText(OverviewView::tr("Fix: %1").arg(idx.data(FindingsModel::FixRole).toString()),
                                           Qt::ElideRight, fix.width()));
        }
        p->setFont(opt.font);
        const double since = idx.data(FindingsModel::SinceRole).toDouble();
        const double now = monitor_->leases()->serverNowEstimate();
        p->setPen(QColor(0x75, 0x75, 0x75));
        const auto hhmmss = [](double t) {
            return QDateTime::fromMSecsSinceEpoch(qint64(t * 1000)).toString(QStringLiteral("HH:mm:ss"));
        };
        p->drawText(QRect(text.left(), text.top() + lh + 2, kLeft - 6, 2 * lh + 2), Qt::AlignLeft | Qt::AlignTop,
                    asOf > 0 ? OverviewView::tr("as of %1\n(not live)").arg(hhmmss(asOf))
                             : OverviewView::tr("since %1\n(%2)")
                                   .arg(hhmmss(since), formatDuration(std::max(0.0, now - since))));
        p->restore();
    }

    // The strip of every card that moves with the clock (the "since" durations), in the view's
    // coordinates: repainted each second instead of the whole card.
    static QRect sinceColumn(const QRect& viewport) { return QRect(0, 0, 4 + 14 + kLeft, viewport.height()); }

private:
    static constexpr int kLeft = 118; // severity word and "since" column
    Monitor* monitor_;
};

// Worst first, then the oldest: the model keeps rows in place, the overview orders them.
class WorstFirst : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex& a, const QModelIndex& b) const override
    {
        const int sa = a.data(FindingsModel::SeverityRole).toInt(),
                  sb = b.data(FindingsModel::SeverityRole).toInt();
        if (sa != sb)
            return sa > sb;
        return a.data(FindingsModel::SinceRole).toDouble() < b.data(FindingsModel::SinceRole).toDouble();
    }
};

QString problems(int n)
{
    return n == 1 ? OverviewView::tr("1 problem") : OverviewView::tr("%1 problems").arg(n);
}
} // namespace

OverviewView::OverviewView(Monitor* monitor, QWidget* parent) : QWidget(parent), monitor_(monitor)
{
    health_ = new QLabel(this);
    health_->setTextFormat(Qt::RichText);
    health_->setWordWrap(true);
    list_ = new QListView(this);
    sorted_ = new WorstFirst(this);
    sorted_->setSourceModel(monitor_->findings());
    sorted_->setDynamicSortFilter(true);
    sorted_->sort(0);
    list_->setModel(sorted_);
    list_->setItemDelegate(new CardDelegate(monitor_, list_));
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setSpacing(1);
    list_->setUniformItemSizes(true);
    detail_ = new QLabel(this);
    detail_->setWordWrap(true);
    detail_->setTextFormat(Qt::RichText);
    open_ = new QPushButton(tr("Show details"), this);
    open_->setEnabled(false);
    connect(open_, &QPushButton::clicked, this, &OverviewView::openCurrent);
    act_ = new QPushButton(this);
    act_->hide();
    connect(act_, &QPushButton::clicked, this, [this] {
        const QModelIndex cur = list_->currentIndex();
        if (!cur.isValid())
            return;
        const QString kind = cur.data(FindingsModel::KindRole).toString();
        const QString subject = cur.data(FindingsModel::SubjectRole).toString();
        if (kind == QLatin1String("stale_lease"))
            Q_EMIT forceExpireLease(subject);
        else if (kind == QLatin1String("pool_pinned"))
            Q_EMIT terminateOneOf(subject);
        else if (kind == QLatin1String("hidden_deadlock"))
            Q_EMIT signalSession(subject.toInt(), terminatesCycle(subject.toInt()));
    });
    connect(list_, &QListView::activated, this, &OverviewView::openCurrent); // Enter and double-click
    connect(list_->selectionModel(), &QItemSelectionModel::currentChanged, this, &OverviewView::refresh);

    auto* bottom = new QHBoxLayout;
    bottom->addWidget(detail_, 1);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(open_);
    buttons->addWidget(act_);
    buttons->addStretch(1);
    bottom->addLayout(buttons);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(health_);
    lay->addWidget(list_, 1);
    lay->addLayout(bottom);

    connect(monitor_, &Monitor::refreshed, this, &OverviewView::refresh);
    connect(monitor_, &Monitor::leasesFilled, this, &OverviewView::refresh);
    connect(monitor_, &Monitor::statusChanged, this, &OverviewView::refresh);
    connect(monitor_, &Monitor::outageChanged, this, &OverviewView::refresh);
    refresh();
}

QString OverviewView::shortStatus() const
{
    const FindingsModel* f = monitor_->findings();
    // Never "all clear" about a database the console cannot read now.
    if (monitor_->status().state == ConnectionStatus::State::Disconnected)
        return monitor_->hasRefreshed() ? tr("disconnected") : tr("not connected");
    if (!monitor_->hasRefreshed())
        return tr("connecting");
    // A hung server: the refresh missed its deadline and the console reconnects. What is shown is
    // from before; "all clear" would be the opposite of the truth.
    if (monitor_->outage())
        return tr("not answering");
    if (monitor_->status().state != ConnectionStatus::State::Connected)
        return tr("reconnecting");
    if (!monitor_->lastSnapshot().ok)
        return tr("refresh failed");
    // A large first read of the leases is still going in: their findings are not known yet.
    if (f->rowCount() == 0 && monitor_->leases()->rowsLoading() > 0)
        return tr("reading the leases");
    if (f->rowCount() == 0 && monitor_->lastSnapshot().locksNotRead)
        return tr("no finding, pg_locks not read"); // not "all clear": the locks judged are old
    if (f->rowCount() == 0) // a recording is not live: it had nothing then, which is not "all clear" now
        return monitor_->isRecorded() ? tr("recorded: no finding") : tr("all clear");
    // The worst, as the list shows it first (the model keeps its rows in arrival order).
    return tr("%1 — %2").arg(problems(f->rowCount()),
                             findingKindTitle(sorted_->index(0, 0).data(FindingsModel::KindRole).toString()));
}

QString OverviewView::healthText() const
{
    return health_->text();
}

void OverviewView::refresh()
{
    const FindingsModel* f = monitor_->findings();
    const ConnectionStatus& st = monitor_->status();
    QString text;
    if (const std::optional<OutageView> o = monitor_->outage()) {
        // What happened, since when, what the console does; the cards below are as of the last answer.
        const bool lost = st.state == ConnectionStatus::State::Disconnected &&
                          st.error.kind != DbError::Kind::Timeout;
        text = tr("<span style='font-size:15pt; color:#c62828'><b>%1</b></span> — %2 %3")
                   .arg(lost ? tr("Disconnected") : tr("Not answering"), outageLine(*o).toHtmlEscaped(),
                        f->rowCount() ? tr("The findings below are as of %1, the last answer.")
                                            .arg(o->since.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
                                      : tr("Nothing was wrong at the last answer (%1).")
                                            .arg(o->since.toLocalTime().toString(QStringLiteral("HH:mm:ss"))));
    } else if (st.state == ConnectionStatus::State::Disconnected) {
        QString why = st.error.toDisplayString().toHtmlEscaped();
        if (!why.isEmpty() && !why.endsWith(QLatin1Char('.')) && !why.endsWith(QLatin1Char('?')))
            why += QLatin1Char('.');
        text =
            monitor_->hasRefreshed()
                ? tr("<span style='font-size:15pt; color:#c62828'><b>Disconnected</b></span> since %2 — %1 What "
                     "follows is data from before the connection was lost.")
                      .arg(why, (st.outageSince.isValid() ? st.outageSince : st.since)
                                    .toLocalTime()
                                    .toString(QStringLiteral("HH:mm:ss")))
                : tr("<span style='font-size:15pt; color:#c62828'><b>Not connected</b></span> — %1 Nothing "
                     "has been read from this database yet; the console keeps trying.")
                      .arg(why);
    } else if (monitor_->hasRefreshed() && !monitor_->lastSnapshot().ok &&
               st.state == ConnectionStatus::State::Connected) {
        // The server answers, but the last refresh failed (a statement error): not an outage.
        QString why = monitor_->lastSnapshot().error.toDisplayString().toHtmlEscaped();
        if (!why.isEmpty() && !why.endsWith(QLatin1Char('.')))
            why += QLatin1Char('.');
        text = tr("<span style='font-size:15pt; color:#e08200'><b>Refresh failed</b></span> — %1 What follows is "
                  "from the last good refresh.")
                   .arg(why);
    } else if (!monitor_->lastSnapshot().ok) {
        text = tr("<span style='font-size:15pt'>Connecting…</span>");
    } else if (f->rowCount() == 0 && monitor_->leases()->rowsLoading() > 0) {
        // Never "all clear" about leases not yet judged: a large first read is still going in.
        text = tr("<span style='font-size:15pt'>Reading the leases…</span> — a large table: their findings follow "
                  "once every row is in (the Leases page counts them in). The window answers meanwhile.");
    } else if (f->rowCount() == 0 && monitor_->lastSnapshot().locksNotRead) {
        // Never "all clear" while blind to the locks: pg_locks is locked by another session.
        text = tr("<span style='font-size:15pt; color:#e08200'><b>No finding, pg_locks not read</b></span> — the "
                  "locks judged are %1 s old: %2")
                   .arg(monitor_->lastSnapshot().locksAgeMs / 1000.0, 0, 'f', 0)
                   .arg(monitor_->lastSnapshot().locksNotRead->toDisplayString().toHtmlEscaped());
    } else if (f->rowCount() == 0) {
        // Never claim leases the console did not see: without a lease table it says so.
        text = monitor_->leases()->tableNote().isEmpty()
                   ? tr("<span style='font-size:15pt; color:#2e7d32'><b>✔ All clear</b></span> — leases renewed in "
                        "time, no pinned pool, no lock waits past their thresholds.")
                   : tr("<span style='font-size:15pt; color:#2e7d32'><b>✔ All clear</b></span> — no lease table "
                        "in this database (see Leases), no pinned pool, no lock waits past their thresholds.");
    } else {
        const int crit = f->count(3);
        text =
            tr("<span style='font-size:15pt; color:%1'><b>%2 %3</b></span>%4 — worst first. Enter opens the "
               "detail.")
                .arg(crit ? QStringLiteral("#c62828") : QStringLiteral("#e08200"))
                .arg(crit ? QStringLiteral("✖") : QStringLiteral("⚠"))
                .arg(problems(f->rowCount()))
                .arg(crit ? tr(", %1 critical").arg(crit) : QString());
    }
    health_->setText(text);
    const QModelIndex cur = list_->currentIndex();
    open_->setEnabled(cur.isValid());
    const QString kind = cur.isValid() ? cur.data(FindingsModel::KindRole).toString() : QString();
    const bool op = monitor_->config().operatorMode;
    if (kind == QLatin1String("stale_lease") || kind == QLatin1String("pool_pinned") ||
        kind == QLatin1String("hidden_deadlock")) {
        const int pid = cur.data(FindingsModel::SubjectRole).toInt();
        act_->setText(kind == QLatin1String("stale_lease")  ? tr("Force-expire…")
                      : kind == QLatin1String("pool_pinned") ? tr("Terminate one…")
                      : terminatesCycle(pid)                 ? tr("Terminate pid %1…").arg(pid)
                                                             : tr("Cancel pid %1…").arg(pid));
        act_->setEnabled(op);
        act_->setToolTip(op ? QString() : tr("Operator mode is off for this profile."));
        act_->show();
    } else {
        act_->hide();
    }
    if (cur.isValid())
        detail_->setText(tr("<b>%1</b><br>%2<br><i>What usually fixes it:</i> %3")
                             .arg(cur.data().toString().toHtmlEscaped(),
                                  cur.data(FindingsModel::ExplanationRole).toString().toHtmlEscaped(),
                                  cur.data(FindingsModel::FixRole).toString().toHtmlEscaped()));
    else
        detail_->setText(f->rowCount() ? tr("Select a finding (arrow keys) for its detail.") : QString());
    list_->viewport()->update(CardDelegate::sinceColumn(list_->viewport()->rect())); // "since" durations move
    Q_EMIT statusChanged(shortStatus());
}

bool OverviewView::terminatesCycle(int pid) const
{
    const Snapshot& s = monitor_->lastSnapshot();
    if (s.analysis)
        for (const HiddenCycle& c : s.analysis->blocking.hiddenCycles)
            if (c.cancel == pid)
                return c.terminate;
    return false;
}

void OverviewView::openCurrent()
{
    const QModelIndex cur = list_->currentIndex();
    if (!cur.isValid())
        return;
    const QString kind = cur.data(FindingsModel::KindRole).toString();
    const QString subject = cur.data(FindingsModel::SubjectRole).toString();
    if (kind == QLatin1String("stale_lease") || kind == QLatin1String("writer_clock_skew") ||
        kind == QLatin1String("leases_unreadable"))
        Q_EMIT showLease(subject);
    else if (kind == QLatin1String("connections_near_limit") || kind == QLatin1String("lock_table_pressure"))
        Q_EMIT showPools();
    else
        Q_EMIT showSession(subject.section(QLatin1Char(','), 0, 0).toInt()); // 0: the sessions page as it is
}

} // namespace lw::ui
