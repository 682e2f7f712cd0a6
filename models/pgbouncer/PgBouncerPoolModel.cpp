#include "PgBouncerPoolModel.h"

#include "domain/Wording.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QSet>

namespace lw::bouncer {

// --- History --------------------------------------------------------------------------------------

void BouncerHistory::add(const BouncerSnapshot& s)
{
    if (!s.ok || s.receivedEpochS <= lastTime_)
        return;
    const double t = s.receivedEpochS;
    if (lastTime_ <= 0)
        startedAt_ = t;
    lastTime_ = t;
    order_.clear();
    QSet<Track*> fed;
    for (const BouncerPool& p : s.pools) {
        const QString key = p.key();
        Track* tr = index_.value(key, nullptr);
        if (!tr) {
            tracks_.push_back(std::make_unique<Track>(fineCapacity_, coarseCapacity_));
            tr = tracks_.back().get();
            index_.insert(key, tr);
        }
        BouncerSample x;
        x.t = t;
        x.clActive = p.clActive;
        x.clWaiting = p.clWaiting;
        x.svActive = p.svActive;
        x.svIdle = p.svIdle;
        x.svUsed = p.svUsed;
        x.poolSize = p.poolSize.value_or(-1);
        tr->series.add(x);
        tr->current = p;
        tr->present = true;
        tr->lastSeen = t;
        fed.insert(tr);
        order_.push_back(key);
    }
    // Pools without clients or servers may vanish from SHOW POOLS (auto-databases are dropped after
    // autodb_idle_timeout): zeros keep their charts aligned until their samples age out.
    for (const auto& tr : tracks_) {
        if (fed.contains(tr.get()))
            continue;
        BouncerSample z;
        z.t = t;
        z.poolSize = tr->current.poolSize.value_or(-1);
        tr->series.add(z);
        tr->present = false;
        BouncerPool& c = tr->current;
        c.clActive = c.clWaiting = c.svActive = c.svIdle = c.svUsed = 0;
        c.maxwaitS = 0;
    }
    std::erase_if(tracks_, [](const std::unique_ptr<Track>& tr) {
        return !tr->present && tr->lastSeen < tr->series.fine().front().t;
    });
    index_.clear();
    for (const auto& tr : tracks_)
        index_.insert(tr->current.key(), tr.get());
}

std::vector<QString> BouncerHistory::poolKeys() const
{
    std::vector<QString> keys = order_;
    std::vector<const Track*> gone;
    for (const auto& tr : tracks_)
        if (!tr->present)
            gone.push_back(tr.get());
    std::sort(gone.begin(), gone.end(),
              [](const Track* a, const Track* b) { return a->lastSeen > b->lastSeen; });
    for (const Track* tr : gone)
        keys.push_back(tr->current.key());
    return keys;
}

// --- Table model ----------------------------------------------------------------------------------

PgBouncerPoolModel::PgBouncerPoolModel(QObject* parent) : KeyedTableModel(parent) {}

int PgBouncerPoolModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int PgBouncerPoolModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
void countHolds(const std::vector<SlotHold>& holds, QHash<QString, std::pair<int, bool>>& out)
{
    for (const SlotHold& h : holds) {
        auto& c = out[h.server.poolKey()];
        ++c.first;
        c.second = c.second || (h.transactionPooled && h.sessionLevel);
    }
}
} // namespace

void PgBouncerPoolModel::applySnapshot(const BouncerSnapshot& s, const std::vector<SlotHold>& holds)
{
    if (!s.ok)
        return;
    QHash<QString, std::pair<int, bool>> held;
    countHolds(holds, held);
    std::vector<QString> keys;
    std::vector<Row> rows;
    keys.reserve(s.pools.size());
    rows.reserve(s.pools.size());
    for (const BouncerPool& p : s.pools) {
        const auto h = held.value(p.key());
        keys.push_back(p.key());
        rows.push_back(Row{p, h.first, h.second});
    }
    applyKeyed(rows_, keys_, index_, std::move(keys), std::move(rows));
}

void PgBouncerPoolModel::applyHolds(const std::vector<SlotHold>& holds)
{
    QHash<QString, std::pair<int, bool>> held;
    countHolds(holds, held);
    int lo = int(rows_.size()), hi = -1;
    for (int r = 0; r < int(rows_.size()); ++r) {
        Row& row = rows_[size_t(r)];
        const auto h = held.value(keys_[size_t(r)]);
        if (row.slotsHolding == h.first && row.lockBug == h.second)
            continue;
        row.slotsHolding = h.first;
        row.lockBug = h.second;
        lo = std::min(lo, r);
        hi = std::max(hi, r);
    }
    if (hi >= lo)
        Q_EMIT dataChanged(index(lo, 0), index(hi, ColumnCount - 1));
}

QVariant PgBouncerPoolModel::data(const QModelIndex& idx, int role) const
{
    if (!idx.isValid() || idx.row() >= int(rows_.size()) || idx.column() >= ColumnCount)
        return {};
    const Row& r = rows_[size_t(idx.row())];
    const BouncerPool& p = r.pool;
    switch (role) {
    case KeyRole:
        return p.key();
    case ProblemRole:
        return r.lockBug || p.clWaiting > 0;
    case Qt::ToolTipRole:
        if (r.lockBug)
            return tr("A server connection of this transaction-pooled pool holds a session-level advisory "
                      "lock: it leaks to the next client of that slot (an application bug).");
        if (p.clWaiting > 0)
            return tr("%n client(s) wait for a server connection: the pool is full.", nullptr, p.clWaiting);
        return {};
    case Qt::ForegroundRole:
        if (idx.column() == SlotsHoldingLocks && r.lockBug)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if ((idx.column() == ClWaiting || idx.column() == MaxWait) && p.clWaiting > 0)
            return QBrush(QColor(0xb2, 0x6a, 0x00));
        return {};
    case Qt::FontRole:
        if ((idx.column() == SlotsHoldingLocks && r.lockBug) ||
            (idx.column() == ClWaiting && p.clWaiting > 0)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return idx.column() >= ClActive ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case SortRole:
        if (idx.column() == PoolSize)
            return p.poolSize.value_or(-1);
        if (idx.column() == MaxWait)
            return p.maxwaitS;
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (idx.column()) {
        case Database:
            return p.database;
        case User:
            return p.user;
        case Mode:
            return p.poolMode;
        case ClActive:
            return p.clActive;
        case ClWaiting:
            return p.clWaiting;
        case SvActive:
            return p.svActive;
        case SvIdle:
            return p.svIdle;
        case SvUsed:
            return p.svUsed;
        case PoolSize:
            return p.poolSize ? QVariant(*p.poolSize) : QVariant(QStringLiteral("—"));
        case MaxWait:
            return p.maxwaitS > 0 ? formatDuration(p.maxwaitS) : QString();
        case SlotsHoldingLocks:
            if (role == SortRole)
                return r.slotsHolding;
            return r.slotsHolding == 0
                       ? QString()
                       : (r.lockBug ? tr("%1 — session lock on a transaction-pooled slot").arg(r.slotsHolding)
                                    : QString::number(r.slotsHolding));
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant PgBouncerPoolModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ClActive:
            return tr("cl_active: clients linked to a server connection");
        case ClWaiting:
            return tr("cl_waiting: clients that sent a query and wait for a server connection");
        case SvActive:
            return tr("sv_active: server connections linked to a client");
        case SvIdle:
            return tr("sv_idle: server connections idle and ready");
        case SvUsed:
            return tr("sv_used: server connections idle past server_check_delay (checked before reuse)");
        case PoolSize:
            return tr("pool_size from SHOW DATABASES: server connections per database/user pair");
        case MaxWait:
            return tr("maxwait: how long the oldest waiting client has waited");
        case SlotsHoldingLocks:
            return tr("Server connections (by remote_pid) holding advisory locks on the monitored cluster");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Database:
        return tr("Database");
    case User:
        return tr("User");
    case Mode:
        return tr("Pool mode");
    case ClActive:
        return tr("cl_active");
    case ClWaiting:
        return tr("cl_waiting");
    case SvActive:
        return tr("sv_active");
    case SvIdle:
        return tr("sv_idle");
    case SvUsed:
        return tr("sv_used");
    case PoolSize:
        return tr("pool_size");
    case MaxWait:
        return tr("maxwait");
    case SlotsHoldingLocks:
        return tr("Slots holding locks");
    default:
        return {};
    }
}

} // namespace lw::bouncer
