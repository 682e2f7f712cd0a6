#include "LeasesView.h"
#include "itemmodels/Palette.h"

#include "domain/Wording.h"
#include "itemmodels/LeaseModel.h"
#include "itemmodels/LeaseSortFilterProxy.h"
#include "StateStyle.h"

#include <QHBoxLayout>
#include <QHeaderView>

#include <algorithm>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace lw::ui {

LeasesView::LeasesView(LeaseModel* model, QWidget* parent) : QWidget(parent), model_(model)
{
    proxy_ = new LeaseSortFilterProxy(model_, this);

    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter by lease name or holder…"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &LeaseSortFilterProxy::setFilterText);

    summary_ = new QLabel(this);
    summary_->setTextFormat(Qt::RichText);
    problem_ = new QLabel(this);
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("QLabel { background: #fdecea; color: #611a15; padding: 6px; "
                                           "border: 1px solid #f5c6cb; border-radius: 3px; }"));
    problem_->hide();
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setStyleSheet(QStringLiteral("QLabel { background: #e8f1fb; color: #0d3c61; padding: 6px; "
                                        "border: 1px solid #b6d4f2; border-radius: 3px; }"));
    note_->hide();

    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(LeaseModel::Name, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(22);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setItemDelegateForColumn(LeaseModel::State, new StateDelegate(table_));
    // Host and token narrower than their longest: the state beside them is what is read first, and
    // German's "verwaist (abgelaufen, nicht übernommen)" fits whole at 1280 px.
    const int widths[] = {200, 130, 70, 140, 150, 110, 150, 190, 110};
    for (int c = 0; c < int(std::size(widths)); ++c) // at least the title's width (German's are longer)
        table_->setColumnWidth(c, std::max(widths[c], table_->horizontalHeader()->sectionSizeHint(c)));
    // The scheme beside the lease's name (shown when several tables are read).
    table_->horizontalHeader()->moveSection(LeaseModel::Scheme, 1);

    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(filter_, 1);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(top);
    lay->addWidget(problem_);
    lay->addWidget(note_);
    lay->addWidget(table_, 1);

    connect(model_, &LeaseModel::summaryChanged, this, &LeasesView::updateSummary);
    updateSummary();
}

QString LeasesView::summaryText() const
{
    return summary_->text();
}

QString LeasesView::problemText() const
{
    return problem_->isHidden() ? QString() : problem_->text();
}

void LeasesView::updateSummary()
{
    const auto counts = model_->stateCounts();
    QStringList parts;
    // Worst first, so the eye lands on what needs action.
    const LeaseState order[] = {LeaseState::Stale,   LeaseState::RenewalOverdue, LeaseState::ExpiringSoon,
                                LeaseState::Unknown, LeaseState::TakenOver,      LeaseState::Held,
                                LeaseState::Released, LeaseState::Free};
    int problems = 0;
    for (LeaseState s : order) {
        const int n = counts[size_t(s)];
        if (!n)
            continue;
        if (leaseStateSeverity(s) >= leaseStateSeverity(LeaseState::ExpiringSoon))
            problems += n;
        parts << QStringLiteral("<span style='color:%1'><b>%2</b> %3</span>")
                     .arg(leaseStateColor(s).name())
                     .arg(n)
                     .arg(leaseStateText(s).toHtmlEscaped());
    }
    // "0 leases" only once the table was read: before, the console does not know.
    const bool known = model_->hasData() && (model_->rowCount() > 0 || model_->tableProblem().isEmpty());
    const QString& note = model_->tableNote();
    QString text = !note.isEmpty() && model_->rowCount() == 0 ? tr("<b>No lease table</b>")
                   : known ? QStringLiteral("<b>%1</b>").arg(model_->rowCount() == 1 ? tr("1 lease")
                                                                              : tr("%1 leases").arg(model_->rowCount()))
                         : tr("<b>Leases</b> — <span style='color:#9e9e9e'>%1</span>")
                               .arg(model_->hasData() ? tr("not read") : tr("nothing read yet"));
    // A large first read fills the page in the background (LeaseModel::rowsLoading).
    if (const int loading = model_->rowsLoading(); loading > 0)
        text = model_->rowCount() == 0 ? tr("<b>Reading %1 leases…</b>").arg(loading)
                                       : text + tr(" <span style='color:#757575'>(%1 more loading)</span>").arg(loading);
    if (!parts.isEmpty())
        text += QStringLiteral(" — ") + parts.join(QStringLiteral(" · "));
    // Where the rows come from; many tables are counted (the list in the tooltip), or the label
    // alone would make the window wider than any screen.
    if (!model_->tableName().isEmpty() && note.isEmpty())
        text += model_->tableCount() > 3
                    ? QStringLiteral(" <span style='color:#757575'>%1</span>").arg(tr("in %1 tables").arg(model_->tableCount()))
                    : QStringLiteral(" <span style='color:#757575'>%1</span>").arg(tr("in %1").arg(model_->tableName().toHtmlEscaped()));
    summary_->setToolTip(model_->tableCount() > 3 ? model_->tableName() : QString());
    // Tables found but not read (another application's table of that name, no privilege): said, as
    // information beside the rows of the others.
    QStringList notRead;
    for (const QString& f : model_->tablesFound())
        if (f.contains(QLatin1String(": not read")))
            notRead << f.toHtmlEscaped();
    QString noteText = note.toHtmlEscaped();
    if (!notRead.isEmpty())
        noteText += (noteText.isEmpty() ? QString() : QStringLiteral("<br>")) + tr("Found, not read: %1").arg(notRead.join(QStringLiteral("; ")));
    note_->setText(noteText);
    note_->setVisible(!noteText.isEmpty());
    // The scheme column when several tables are read.
    table_->setColumnHidden(LeaseModel::Scheme, model_->tableCount() <= 1);
    if (known && !model_->isLive())
        text += QStringLiteral(" — <span style='color:#9e9e9e'>%1</span>")
                    .arg(tr("data %1 old, not live").arg(formatDuration(model_->dataAgeSeconds())));
    summary_->setText(text);
    const QString& problem = model_->tableProblem();
    problem_->setText(problem.isEmpty() ? QString()
                                        : tr("The leases table could not be read: %1").arg(problem));
    problem_->setVisible(!problem.isEmpty());
    const int stale = counts[size_t(LeaseState::Stale)];
    Q_EMIT summaryChanged(!problem.isEmpty() ? (model_->rowCount() > 0 && model_->isLive() ? tr("Leases (a table not read)")
                                                                                           : tr("Leases (not read)"))
                          : stale            ? tr("Leases (%1 stale)").arg(stale)
                          : problems         ? tr("Leases (%1 need attention)").arg(problems)
                                             : tr("Leases"));
}

} // namespace lw::ui
