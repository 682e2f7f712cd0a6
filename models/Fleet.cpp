#include "Fleet.h"
#include "domain/Words.h"
#include "itemmodels/Palette.h"

#include "Monitor.h"
#include "domain/LeaseState.h"
#include "domain/Wording.h"
#include "store/HistoryReader.h"

#include <QBrush>
#include <QDateTime>
#include <QFileInfo>
#include <QLockFile>

#include <algorithm>
#include <cerrno>
#include <csignal>

namespace lw {

int FleetEntry::rank() const
{
    if (source == Source::Configured || source == Source::Recorded)
        return -1; // nobody watches it now: what it says is not current
    if (!answering)
        return 4;
    return counts.worst();
}

namespace {
void count(FleetEntry& e, int severity, const QString& title, int& worstSeverity)
{
    e.counts.add(severity);
    if (severity > worstSeverity) {
        worstSeverity = severity;
        e.worst = title;
    }
}

// The pid holding the store's writer lock, if that process is alive.
qint64 writerPid(const QString& storePath)
{
    QLockFile lock(storePath + QStringLiteral(".lock"));
    qint64 pid = 0;
    QString host, app;
    if (!lock.getLockInfo(&pid, &host, &app) || pid <= 0)
        return 0;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM ? pid : 0;
}
} // namespace

FleetEntry fleetEntryOf(const QString& profile, const Monitor& m)
{
    FleetEntry e;
    e.profile = profile;
    e.source = FleetEntry::Source::Window;
    e.answering = m.status().state == ConnectionStatus::State::Connected && m.lastSnapshot().ok && !m.outage();
    if (m.hasRefreshed())
        e.dataAgeS = std::max(0.0, double(QDateTime::currentMSecsSinceEpoch() - m.lastSnapshot().receivedWall.toMSecsSinceEpoch()) / 1000.0);
    int worst = 0;
    const FindingsModel* f = m.findings();
    for (int i = 0; i < f->rowCount(); ++i) {
        const Finding& x = f->finding(i);
        if (x.kind != FindingKind::ServerNotAnswering) // said below, as the state
            count(e, x.severity, x.title, worst);
    }
    if (!e.answering) {
        if (const std::optional<OutageView> o = m.outage())
            e.worst = outageLine(*o);
        else if (m.status().error.isError())
            e.worst = m.status().error.toDisplayString();
        else
            e.worst = FleetWords::tr("connecting…");
    }
    return e;
}

FleetEntry fleetEntryFromStore(const QString& profile, const QString& path, double staleAfterS)
{
    FleetEntry e;
    e.profile = profile;
    if (!QFileInfo::exists(path))
        return e; // configured only
    e.recorderPid = writerPid(path);
    e.source = e.recorderPid ? FleetEntry::Source::Recorder : FleetEntry::Source::Recorded;
    const HistoryReader r(path);
    if (!r.isOpen()) {
        e.worst = FleetWords::tr("its history store cannot be read: %1").arg(r.errorString());
        return e;
    }
    const std::optional<HistoryReader::LastRefresh> last = r.lastRefresh();
    if (!last)
        return e;
    e.dataAgeS = std::max(0.0, double(QDateTime::currentMSecsSinceEpoch() - last->wallMs) / 1000.0);
    e.answering = last->ok && e.dataAgeS <= staleAfterS;
    int worst = 0;
    for (const RecordedFinding& f : r.findings(last->at, last->at))
        if (!f.goneAt || *f.goneAt > last->at)
            count(e, f.severity, f.title, worst);
    if (e.source == FleetEntry::Source::Recorder && !e.answering)
        e.worst = !last->ok ? last->error
                            : FleetWords::tr("the recorder has recorded no refresh for %1").arg(formatDuration(e.dataAgeS));
    return e;
}

FleetModel::FleetModel(QObject* parent) : KeyedTableModel(parent) {}

int FleetModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int FleetModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void FleetModel::setEntries(std::vector<FleetEntry> entries)
{
    std::vector<QString> keys;
    keys.reserve(entries.size());
    for (const FleetEntry& e : entries)
        keys.push_back(e.profile);
    applyKeyed(rows_, keys_, index_, std::move(keys), std::move(entries));
}

QVariant FleetModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size()))
        return {};
    const FleetEntry& e = rows_[size_t(index.row())];
    using S = FleetEntry::Source;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Database:
            return e.profile;
        case State:
            if (e.source == S::Configured)
                return FleetWords::tr("not watched");
            if (e.source == S::Recorded)
                return e.dataAgeS >= 0 ? FleetWords::tr("recorded %1 ago, not watched now").arg(formatDuration(e.dataAgeS))
                                       : FleetWords::tr("not watched");
            if (!e.answering)
                return FleetWords::tr("NOT ANSWERING");
            return e.counts.worst() ? severityWord(e.counts.worst()) : FleetWords::tr("ok");
        case Critical:
            return e.source == S::Configured ? QVariant() : QVariant(e.counts.critical);
        case Warning:
            return e.source == S::Configured ? QVariant() : QVariant(e.counts.warning);
        case Worst:
            return e.worst;
        case Watched:
            switch (e.source) {
            case S::Window:
                return FleetWords::tr("open window");
            case S::Recorder:
                return FleetWords::tr("leasewatch record (pid %1)").arg(e.recorderPid);
            case S::Recorded:
            case S::Configured:
                return QStringLiteral("—");
            }
            return {};
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (index.column() != State)
            return {};
        switch (e.rank()) {
        case 4:
        case 3:
            return QBrush(leaseStateColor(LeaseState::Stale));
        case 2:
            return QBrush(leaseStateColor(LeaseState::RenewalOverdue));
        case -1:
            return QBrush(leaseStateColor(LeaseState::Released));
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return index.column() == Worst && !e.worst.isEmpty() ? QVariant(e.worst) : QVariant();
    case RankRole:
        return e.rank();
    case ProfileRole:
        return e.profile;
    default:
        return {};
    }
}

QVariant FleetModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return KeyedTableModel::headerData(section, o, role);
    static const char* names[] = {QT_TRANSLATE_NOOP("lw::Fleet", "Database"), QT_TRANSLATE_NOOP("lw::Fleet", "State"),
                                  QT_TRANSLATE_NOOP("lw::Fleet", "Critical"), QT_TRANSLATE_NOOP("lw::Fleet", "Warning"),
                                  QT_TRANSLATE_NOOP("lw::Fleet", "Worst finding"),
                                  QT_TRANSLATE_NOOP("lw::Fleet", "Watched by")};
    return section >= 0 && section < ColumnCount ? FleetWords::tr(names[section]) : QVariant();
}

} // namespace lw
