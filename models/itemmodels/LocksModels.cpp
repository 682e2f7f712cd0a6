#include "LocksModels.h"
#include "domain/Words.h"

#include "domain/Wording.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QSet>

#include <algorithm>

namespace lw {

namespace {
QString ago(const std::optional<double>& t, double now)
{
    return t ? formatDuration(std::max(0.0, now - *t)) : QString();
}
} // namespace

// ---------------------------------------------------------------------------------------------
AdvisoryLockModel::AdvisoryLockModel(QObject* parent) : KeyedTableModel(parent) {}

int AdvisoryLockModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int AdvisoryLockModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const SessionRow& AdvisoryLockModel::Row::session() const
{
    static const SessionRow none;
    return hasSession() ? *box->row : none;
}

QString AdvisoryLockModel::keyOf(const AdvisoryLockRow& l)
{
    return QString::number(l.pid) + QLatin1Char('|') + l.database + QLatin1Char('|') + advisoryKeyText(l) +
           QLatin1Char('|') + l.mode + (l.granted ? QLatin1String("|g") : QLatin1String("|w"));
}

// Each box gets its pid's session of this refresh; an unchanged session keeps its copy.
void AdvisoryLockModel::updateSessions(const Snapshot& s)
{
    for (const HolderSide& side : s.analysis->sides) {
        auto it = boxes_.find(side.pid);
        if (it == boxes_.end())
            continue;
        SessionBox& box = **it;
        if (side.session < 0) {
            box.row.reset();
            continue;
        }
        const SessionRow& now = s.sessions[size_t(side.session)];
        if (!box.row || !(*box.row == now))
            box.row = std::make_shared<const SessionRow>(now);
    }
}

void AdvisoryLockModel::applySnapshot(const Snapshot& s)
{
    if (!s.ok || !s.analysis)
        return;
    const SharedRows<LockView>& views = s.analysis->locks;
    now_ = s.serverNow;
    thresholds_ = s.analysis->config.thresholds;

    if (views.sharesStorageWith(lastViews_) && lastOrder_.size() == views.size()) {
        // The same views as last time: only sessions and the clock move.
        updateSessions(s);
    } else if (s.advisoryLocks.sharesStorageWith(lastLocks_) && lastOrder_.size() == views.size()) {
        // The same pg_locks read as last time: same keys, same rows; holders' states moved.
        updateSessions(s);
        int lo = int(rows_.size()), hi = -1;
        for (size_t i = 0; i < views.size(); ++i) {
            const int at = lastOrder_[i];
            Row& old = rows_[size_t(at)];
            if (!(old.view == views[i])) {
                lo = std::min(lo, at);
                hi = std::max(hi, at);
                old.view = views[i];
            }
        }
        if (hi >= lo)
            Q_EMIT dataChanged(index(lo, 0), index(hi, ColumnCount - 1));
        lastViews_ = views;
    } else {
        QHash<int, std::shared_ptr<SessionBox>> boxes;
        for (const HolderSide& side : s.analysis->sides) {
            auto box = boxes_.value(side.pid);
            if (!box)
                box = std::make_shared<SessionBox>();
            boxes.insert(side.pid, box);
        }
        boxes_ = std::move(boxes);
        updateSessions(s);
        std::vector<QString> keys;
        std::vector<Row> rows;
        keys.reserve(views.size());
        rows.reserve(views.size());
        for (const LockView& v : views) {
            Row r;
            r.view = v;
            r.box = boxes_.value(v.lock.pid);
            const QString key = keyOf(v.lock);
            const int old = index_.value(key, -1);
            r.firstSeen = old >= 0 ? rows_[size_t(old)].firstSeen : s.serverNow;
            keys.push_back(key);
            rows.push_back(std::move(r));
        }
        const std::vector<QString> order = keys; // shares the strings
        applyKeyed(rows_, keys_, index_, std::move(keys), std::move(rows));
        lastOrder_.resize(order.size());
        for (size_t i = 0; i < order.size(); ++i)
            lastOrder_[i] = index_.value(order[i]);
        lastLocks_ = s.advisoryLocks;
        lastViews_ = views;
    }
    // Durations and findings move every refresh even when nothing else changed, and the sessions'
    // columns follow their boxes: one signal for the rows.
    if (!rows_.empty())
        Q_EMIT dataChanged(index(0, Duration), index(rowCount() - 1, Query), {Qt::DisplayRole, SortRole});
}

QString AdvisoryLockModel::display(const Row& r, int column) const
{
    const AdvisoryLockRow& l = r.view.lock;
    const SessionRow& s = r.session();
    const double now = now_;
    switch (column) {
    case Lock:
        return r.view.name.isEmpty() ? advisoryKeyText(l) : r.view.name;
    case Key:
        return advisoryKeyText(l);
    case Pid:
        return QString::number(l.pid);
    case Database:
        return l.database;
    case Mode:
        return l.mode;
    case Status:
        return l.granted ? TableWords::tr("held") : TableWords::tr("waiting");
    case Duration:
        if (!l.granted)
            return l.waitStart ? formatDuration(now - *l.waitStart) : QStringLiteral("?");
        // pg_locks has no grant time: the lock is at least as old as the console's first sight, and
        // for an idle session at least as old as its last state change.
        return QStringLiteral("≥ ") +
               formatDuration(std::max(now - r.firstSeen, std::max(0.0, r.view.idleForS(now))));
    case SessionState:
        if (!r.hasSession())
            return TableWords::tr("(session not visible)");
        return s.state.isEmpty() ? TableWords::tr("(hidden)")
                                 : s.state + (r.view.idleForS(now) >= 0
                                                  ? QStringLiteral(" ") + formatDuration(r.view.idleForS(now))
                                                  : QString());
    case Application:
        return s.applicationName;
    case Client:
        return s.clientAddr.isEmpty() ? (r.hasSession() ? TableWords::tr("local") : QString())
                                      : QStringLiteral("%1:%2").arg(s.clientAddr).arg(s.clientPort);
    case User:
        return s.user;
    case Transaction:
        return s.xactStart ? ago(s.xactStart, now) : (r.hasSession() ? TableWords::tr("none") : QString());
    case WaitEvent:
        return s.waitEventType.isEmpty() ? QString() : s.waitEventType + QLatin1Char('/') + s.waitEvent;
    case Query:
        return s.query.simplified().left(200);
    case Finding:
        return r.view.finding(now, thresholds_);
    default:
        return {};
    }
}

QVariant AdvisoryLockModel::data(const QModelIndex& idx, int role) const
{
    if (!idx.isValid() || idx.row() >= int(rows_.size()))
        return {};
    const Row& r = rows_[size_t(idx.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(r, idx.column());
    case Qt::ToolTipRole:
        if (idx.column() == Query)
            return r.session().query;
        if (idx.column() == Lock && !r.view.collision.isEmpty())
            return TableWords::tr("key collision: %1 all hash to this key")
                .arg(r.view.collision.join(QStringLiteral(", ")));
        return display(r, idx.column());
    case SortRole:
        switch (idx.column()) {
        case Pid:
            return r.view.lock.pid;
        case Key:
            return r.view.lock.twoKeys ? qint64(r.view.lock.key1) : r.view.lock.key;
        case Duration:
            return r.view.lock.granted ? std::max(now_ - r.firstSeen, r.view.idleForS(now_))
                                       : (r.view.lock.waitStart ? now_ - *r.view.lock.waitStart : 0.0);
        default:
            return display(r, idx.column());
        }
    case InMonitoredDbRole:
        return r.view.lock.inMonitoredDb;
    case PidRole:
        return r.view.lock.pid;
    case HasFindingRole:
        return !r.view.finding(now_, thresholds_).isEmpty();
    case Qt::ForegroundRole:
        if (idx.column() == Finding || (idx.column() == Status && !r.view.lock.granted))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    case Qt::FontRole:
        if (idx.column() == Lock && !r.view.name.isEmpty()) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default:
        return {};
    }
}

QVariant AdvisoryLockModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    // By column, not by position in a list: the finding column once moved and the list did not.
    switch (section) {
    case Lock:
        return TableWords::tr("Lock");
    case Key:
        return TableWords::tr("Key");
    case Pid:
        return TableWords::tr("PID");
    case Database:
        return TableWords::tr("Database");
    case Mode:
        return TableWords::tr("Mode");
    case Status:
        return TableWords::tr("Status");
    case Duration:
        return TableWords::tr("Held / waited");
    case Finding:
        return TableWords::tr("Finding");
    case SessionState:
        return TableWords::tr("Session");
    case Application:
        return TableWords::tr("Application");
    case Client:
        return TableWords::tr("Client");
    case User:
        return TableWords::tr("User");
    case Transaction:
        return TableWords::tr("Transaction");
    case WaitEvent:
        return TableWords::tr("Wait event");
    case Query:
        return TableWords::tr("Last query");
    default:
        return {};
    }
}

// ---------------------------------------------------------------------------------------------
BlockingTreeModel::BlockingTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

QModelIndex BlockingTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < int(roots_.size()) ? createIndex(row, column, quintptr(roots_[size_t(row)]))
                                        : QModelIndex();
    const Node& p = nodes_[size_t(parent.internalId())];
    if (row >= int(p.children.size()))
        return {};
    return createIndex(row, column, quintptr(p.children[size_t(row)]));
}

QModelIndex BlockingTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const Node& n = nodes_[size_t(child.internalId())];
    if (n.parent < 0)
        return {};
    return createIndex(nodes_[size_t(n.parent)].rowInParent, 0, quintptr(n.parent));
}

int BlockingTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(roots_.size());
    if (parent.column() != 0)
        return 0;
    return int(nodes_[size_t(parent.internalId())].children.size());
}

int BlockingTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant BlockingTreeModel::data(const QModelIndex& idx, int role) const
{
    if (!idx.isValid())
        return {};
    const Node& n = nodes_[size_t(idx.internalId())];
    if (role == Qt::DisplayRole) {
        switch (idx.column()) {
        case Pid:
            return n.role.isEmpty() ? QString::number(n.pid) : QStringLiteral("%1 (%2)").arg(n.pid).arg(n.role);
        case Waiting:
            return n.waitingS >= 0 ? formatDuration(n.waitingS) : QStringLiteral("—");
        case State:
            return n.session.state;
        case Application:
            return n.session.applicationName;
        case Query:
            return n.session.query.simplified().left(200);
        default:
            return {};
        }
    }
    if (role == Qt::UserRole)
        return n.pid;
    if (role == Qt::ForegroundRole && !n.role.isEmpty() && idx.column() == Pid)
        return QBrush(QColor(0xc6, 0x28, 0x28));
    if (role == Qt::ToolTipRole && idx.column() == Query)
        return n.session.query;
    if (role == Qt::ToolTipRole && idx.column() == Pid && !n.role.isEmpty())
        return QStringLiteral("%1 (%2)").arg(n.pid).arg(n.role);
    return {};
}

QVariant BlockingTreeModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {QT_TRANSLATE_NOOP("lw::Tables", "PID"), QT_TRANSLATE_NOOP("lw::Tables", "Waiting for"),
                                  QT_TRANSLATE_NOOP("lw::Tables", "State"),
                                  QT_TRANSLATE_NOOP("lw::Tables", "Application"),
                                  QT_TRANSLATE_NOOP("lw::Tables", "Query")};
    return section >= 0 && section < ColumnCount ? TableWords::tr(names[section]) : QVariant();
}

void BlockingTreeModel::applySnapshot(const Snapshot& s)
{
    if (!s.ok || !s.analysis)
        return;
    const BlockingForest& f = s.analysis->blocking;
    if (f.roots.empty() && f.cycles.empty() && nodes_.empty())
        return; // nobody waits, as last time (most refreshes): nothing to build or to tell
    QHash<int, const SessionRow*> byPid;
    for (const SessionRow& r : s.sessions)
        byPid.insert(r.pid, &r);
    // In a cycle PostgreSQL does not see, the root blocker is the wrong one to end: the tree names
    // the session whose cancel frees it.
    QHash<int, const HiddenCycle*> hiddenOf;
    for (const HiddenCycle& c : f.hiddenCycles)
        for (int p : c.pids)
            hiddenOf.insert(p, &c);
    auto roleOf = [&](int pid, bool root, bool inCycle) -> QString {
        if (const HiddenCycle* c = hiddenOf.value(pid, nullptr)) {
            if (pid == c->cancel)
                return c->terminate ? TableWords::tr("terminate this one: frees the cycle")
                                    : TableWords::tr("cancel this one: frees the cycle");
            return root ? TableWords::tr("root blocker: cancel %1 instead").arg(c->cancel)
                        : TableWords::tr("in a hidden cycle");
        }
        if (inCycle)
            return TableWords::tr("deadlock cycle");
        return root ? TableWords::tr("root blocker") : QString();
    };

    // Flatten the forest depth-first; a pid reached twice (several blockers, or a cycle) is shown
    // once under the first path.
    std::vector<Node> nodes;
    std::vector<int> roots;
    QString shape;
    QSet<int> placed;
    std::function<int(int, int, int)> add = [&](int pid, int parent, int row) {
        const int id = int(nodes.size());
        Node n;
        n.pid = pid;
        n.parent = parent;
        n.rowInParent = row;
        const auto it = f.nodes.constFind(pid);
        if (it != f.nodes.constEnd()) {
            n.waitingS = it->waitingS;
            n.inCycle = it->inCycle;
        }
        n.role = roleOf(pid, parent < 0, n.inCycle);
        if (const SessionRow* sr = byPid.value(pid, nullptr))
            n.session = *sr;
        nodes.push_back(n);
        placed.insert(pid);
        shape += QString::number(pid) + QLatin1Char(parent < 0 ? ';' : ',') + n.role;
        if (it != f.nodes.constEnd()) {
            std::vector<int> kids;
            for (int c : it->children)
                if (!placed.contains(c))
                    kids.push_back(c);
            std::sort(kids.begin(), kids.end());
            for (int c : kids)
                if (!placed.contains(c)) {
                    const int childId = add(c, id, int(nodes[size_t(id)].children.size()));
                    nodes[size_t(id)].children.push_back(childId);
                }
        }
        return id;
    };
    for (int r : f.roots)
        roots.push_back(add(r, -1, int(roots.size())));
    for (const auto& cycle : f.cycles) // a pure cycle has no root: show its first member as one
        if (!cycle.empty() && !placed.contains(cycle.front()))
            roots.push_back(add(cycle.front(), -1, int(roots.size())));

    if (shape != shape_) {
        beginResetModel(); // structural change only: the set of waits changed
        nodes_ = std::move(nodes);
        roots_ = std::move(roots);
        shape_ = shape;
        endResetModel();
    } else if (!nodes_.empty()) {
        nodes_ = std::move(nodes);
        roots_ = std::move(roots);
        // Same shape: only durations and session text moved.
        std::function<void(const QModelIndex&)> touch = [&](const QModelIndex& parent) {
            const int n = rowCount(parent);
            if (n == 0)
                return;
            Q_EMIT dataChanged(index(0, 0, parent), index(n - 1, ColumnCount - 1, parent));
            for (int r = 0; r < n; ++r)
                touch(index(r, 0, parent));
        };
        touch({});
    }
}

std::vector<int> BlockingTreeModel::firstChain() const
{
    std::vector<int> chain;
    if (roots_.empty())
        return chain;
    int id = roots_.front();
    while (true) {
        chain.push_back(nodes_[size_t(id)].pid);
        if (nodes_[size_t(id)].children.empty())
            break;
        id = nodes_[size_t(id)].children.front();
    }
    return chain;
}

// ---------------------------------------------------------------------------------------------
FindingsModel::FindingsModel(QObject* parent) : KeyedTableModel(parent) {}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1;
}

int FindingsModel::count(int minSeverity) const
{
    return int(std::count_if(rows_.begin(), rows_.end(),
                             [&](const lw::Finding& f) { return f.severity >= minSeverity; }));
}

void FindingsModel::setAsOf(std::optional<double> lastAnswerServer)
{
    if (asOf_ == lastAnswerServer)
        return;
    asOf_ = lastAnswerServer;
    if (!rows_.empty())
        Q_EMIT dataChanged(index(0, 0), index(int(rows_.size()) - 1, columnCount() - 1));
}

void FindingsModel::setFindings(std::vector<lw::Finding> findings, double serverNow)
{
    std::vector<QString> keys;
    QSet<QString> ids;
    std::vector<lw::Finding> rows;
    for (lw::Finding& f : findings) {
        if (ids.contains(f.id))
            continue;
        ids.insert(f.id);
        const int old = index_.value(f.id, -1);
        // A finding that knows when it began (the outage: the last answer) keeps that.
        f.sinceServer = old >= 0 ? rows_[size_t(old)].sinceServer : f.sinceServer > 0 ? f.sinceServer : serverNow;
        keys.push_back(f.id);
        rows.push_back(std::move(f));
    }
    applyKeyed(rows_, keys_, index_, std::move(keys), std::move(rows));
}

QVariant FindingsModel::data(const QModelIndex& idx, int role) const
{
    if (!idx.isValid() || idx.row() >= int(rows_.size()))
        return {};
    const lw::Finding& f = rows_[size_t(idx.row())];
    switch (role) {
    case Qt::DisplayRole:
        return f.title;
    case Qt::ToolTipRole:
        return f.explanation + QStringLiteral("\nWhat usually fixes it: ") + f.fix;
    case SeverityRole:
        return f.severity;
    case KindRole:
        return findingKindKey(f.kind);
    case IdRole:
        return f.id;
    case ExplanationRole:
        return f.explanation;
    case FixRole:
        return f.fix;
    case SinceRole:
        return f.sinceServer;
    case SubjectRole:
        return f.subject;
    case AsOfRole:
        return asOf_ && f.kind != FindingKind::ServerNotAnswering ? *asOf_ : 0.0;
    case Qt::ForegroundRole:
        if (asOf_ && f.kind != FindingKind::ServerNotAnswering)
            return QBrush(QColor(0x9e, 0x9e, 0x9e)); // not live: greyed
        return QBrush(f.severity >= 3   ? QColor(0xc6, 0x28, 0x28)
                      : f.severity == 2 ? QColor(0xb2, 0x6a, 0x00)
                                        : QColor(0x42, 0x42, 0x42));
    default:
        return {};
    }
}

} // namespace lw
