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

    // The holder's session, one box per pid shared by all its rows: a refresh that changes a
    // session (its query, its state) updates one box, not every lock row of that session.
    struct SessionBox
    {
        std::shared_ptr<const SessionRow> row;
    };
    struct Row
    {
        LockView view;
        std::shared_ptr<const SessionBox> box; // null: the session is not visible
        double firstSeen = 0;                  // server time the console first saw this lock
        bool hasSession() const { return box && box->row; }
        const SessionRow& session() const;
        bool operator==(const Row& o) const { return view == o.view && hasSession() == o.hasSession(); }
    };
    const Row& row(int r) const { return rows_[size_t(r)]; }
    int rowOfKey(const QString& key) const { return index_.value(key, -1); }
    static QString keyOf(const AdvisoryLockRow& l);
    double serverNow() const { return now_; }

private:
    QString display(const Row& r, int column) const;
    void updateSessions(const Snapshot& s);
    std::vector<Row> rows_;
    std::vector<QString> keys_;
    QHash<QString, int> index_;
    double now_ = 0;
    Thresholds thresholds_;
    QHash<int, std::shared_ptr<SessionBox>> boxes_; // by pid, for the pids in rows_
    // The pg_locks read last applied, and where each of its locks sits in rows_: a refresh that
    // reuses that read (pg_locks read every N) updates those rows without keying them again; one
    // that reuses the views too (same holders' states) touches no row at all.
    SharedRows<AdvisoryLockRow> lastLocks_;
    SharedRows<LockView> lastViews_;
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
        QString role; // "root blocker", "cancel this one: …" — what the tree says after the pid
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
        SubjectRole,
        AsOfRole, // server time the finding was last known true; 0 while it is live
    };
    explicit FindingsModel(QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // Replaces the current findings; a finding keeps its "since" while its id stays present.
    void setFindings(std::vector<Finding> findings, double serverNow);
    const Finding& finding(int row) const { return rows_[size_t(row)]; }
    int count(int minSeverity = 1) const;
    // While the server is not answering: every finding but the outage's own is "as of" the last
    // answer (shown greyed). nullopt: live again.
    void setAsOf(std::optional<double> lastAnswerServer);
    std::optional<double> asOf() const { return asOf_; }

private:
    std::vector<Finding> rows_;
    std::vector<QString> keys_;
    QHash<QString, int> index_;
    std::optional<double> asOf_;
};

} // namespace lw
