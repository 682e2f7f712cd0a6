#pragma once
// Live models of the advisory-locks page: the locks with their sessions, the blocking forest, and
// the findings. Rows are keyed and updated in place; structure changes use insert/remove (the
// blocking tree is rebuilt only when its edges change).
#include "KeyedTableModel.h"
#include "domain/Analysis.h"
#include "domain/Snapshot.h"

#include <QAbstractItemModel>
#include <QAbstractTableModel>
#include <QHash>

#include <functional>
#include <memory>

namespace lw {

class AdvisoryLockModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column {
        Lock,
        Key,
        Pid,
        Database,
        Mode,
        Status,
        Duration,
        Finding,
        SessionState,
        Application,
        Client,
        User,
        Transaction,
        WaitEvent,
        Query,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, InMonitoredDbRole, PidRole, HasFindingRole };

    explicit AdvisoryLockModel(QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    void applySnapshot(const Snapshot& s);

    struct Row
    {
        LockView view;
        // One copy per session per refresh, shared by all its locks (the snapshot does not outlive
        // the refresh; a session may hold thousands of locks).
        std::shared_ptr<const SessionRow> sessionRow;
        bool hasSession = false;
        double serverNow = 0;
        double firstSeen = 0; // server time the console first saw this lock
        const SessionRow& session() const;
        bool operator==(const Row& o) const
        {
            return view.lock == o.view.lock && view.name == o.view.name && view.finding == o.view.finding &&
                   hasSession == o.hasSession &&
                   (sessionRow == o.sessionRow || (sessionRow && o.sessionRow && *sessionRow == *o.sessionRow));
        }
    };
    const Row& row(int r) const { return rows_[size_t(r)]; }
    int rowOfKey(const QString& key) const { return index_.value(key, -1); }
    static QString keyOf(const AdvisoryLockRow& l);

private:
    QString display(const Row& r, int column) const;
    std::vector<Row> rows_;
    std::vector<QString> keys_;
    QHash<QString, int> index_;
    // The previous refresh's session copies by pid: an unchanged session keeps its pointer, so
    // comparing a row costs a pointer compare, not a session compare per lock.
    QHash<int, std::shared_ptr<const SessionRow>> sessions_;
    // The pg_locks read last applied, and where each of its locks sits in rows_: a refresh that
    // reuses that read (pg_locks read every N) updates those rows without keying them again.
    CowVector<AdvisoryLockRow> lastLocks_;
    std::vector<int> lastOrder_;
};

// Tree: root blockers first, the sessions waiting behind each as children.
class BlockingTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { Pid, Waiting, State, Application, Query, ColumnCount };
    explicit BlockingTreeModel(QObject* parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    void applySnapshot(const Snapshot& s);
    int rootCount() const { return rowCount(); }
    // Pids along the first path from the first root, for tests and the overview.
    std::vector<int> firstChain() const;

private:
    struct Node
    {
        int pid = 0;
        int parent = -1; // index into nodes_
        int rowInParent = 0;
        std::vector<int> children;
        double waitingS = -1;
        bool inCycle = false;
        SessionRow session;
    };
    std::vector<Node> nodes_;
    std::vector<int> roots_;
    QString shape_; // edges, to detect structural change
};

class FindingsModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Role {
        SeverityRole = Qt::UserRole + 1,
        KindRole,
        IdRole,
        ExplanationRole,
        FixRole,
        SinceRole,
        SubjectRole
    };
    explicit FindingsModel(QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // Replaces the current findings; a finding keeps its "since" while its id stays present.
    void setFindings(std::vector<Finding> findings, double serverNow);
    const Finding& finding(int row) const { return rows_[size_t(row)]; }
    int count(int minSeverity = 1) const;

private:
    std::vector<Finding> rows_;
    std::vector<QString> keys_;
    QHash<QString, int> index_;
};

} // namespace lw
