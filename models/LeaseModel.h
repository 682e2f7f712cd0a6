#pragma once
// Live model of the leases table, keyed by lease name: rows are updated in place (dataChanged),
// inserted/removed only when the set of leases changes, never reset per refresh, so selection,
// sort order, scroll position and filter survive refreshes.
#include "domain/LeaseState.h"
#include "domain/Metrics.h"
#include "domain/Snapshot.h"
#include "domain/Wording.h"

#include <QAbstractTableModel>
#include <QHash>

#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

namespace lw {

class LeaseModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Host, Pid, Token, TakenAt, HeldFor, ExpiresIn, State, Scheme, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for time columns, severity for state
        StateRole,                   // int(LeaseState)
        FilterRole,                  // "name holder" for the text filter
        SecondsLeftRole,             // double, server clock
        KeyRole,                     // unique row key (name, or name#n for duplicate names)
    };

    using MonotonicClock = std::function<qint64()>;
    explicit LeaseModel(QObject* parent = nullptr, MonotonicClock clock = monotonicMs);
    ~LeaseModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    void setPolicy(const LeasePolicy& p);
    const LeasePolicy& policy() const { return rules_.policy; }
    // Like the policy, it changes every row's timeline (and a background fill's, once taken in).
    void setWriterUsesAppClock(bool on)
    {
        rules_.writerClockCheck = on;
        applyTables(rules_.tables);
    }

    // A refresh that brings many leases to an empty model (the first read of a 1 000 000-row
    // table: seconds of per-row work) is prepared on a worker thread, and its rows then appear in
    // slices, so that the window never stops answering. Off by default: the history writer and
    // the recorded window apply every refresh at once. While rows are loading, applySnapshot must
    // not be called (Monitor holds refreshes back until filled()); if it is, it waits for them.
    void setFillInBackground(bool on) { fillInBackground_ = on; }
    // Rows read but not yet in the model (being prepared, or still to be inserted); 0 when all are.
    int rowsLoading() const { return filling_ ? fillRows_ : hidden_; }
    // The order a background fill inserts its rows in, the sorted view's: each slice then lands at
    // the view's end instead of being merged into a million rows. LeaseSortFilterProxy sets it.
    void setFillOrder(int column, Qt::SortOrder order, Qt::CaseSensitivity cs)
    {
        fillOrder_ = {column, order, cs};
    }

    // Server time now, estimated: the last refresh's now() plus monotonic time since it arrived.
    double serverNowEstimate() const;
    bool hasData() const { return haveSnapshot_; }
    bool isLive() const { return live_; }
    // Why the last refresh could not read the leases table (its message and what to do); empty
    // when it could.
    const QString& tableProblem() const { return tableProblem_; }
    // No lease table configured and none found: what was looked for (information, not a problem).
    const QString& tableNote() const { return tableNote_; }
    // The tables the rows come from, "public.shedlock (ShedLock), public.qrtz_scheduler_state
    // (Quartz)"; empty before the first read. tablesFound(): what detection found, with why a
    // table found is not read.
    const QString& tableName() const { return tableName_; }
    const QStringList& tablesFound() const { return tablesFound_; }
    int tableCount() const { return rules_.tables ? int(rules_.tables->size()) : 0; }
    const std::vector<LeaseTableConfig>& tables() const
    {
        static const std::vector<LeaseTableConfig> none;
        return rules_.tables ? *rules_.tables : none;
    }
    // The table a row comes from (its scheme's rules and words), or null.
    const LeaseTableConfig* tableAt(int row) const { return tableOf(rows_[size_t(row)]); }
    // The rules a row is judged by: the profile's policy with its table's scheme.
    const LeasePolicy& policyAt(int row) const { return policyOf(rows_[size_t(row)]); }
    // Age of the data in seconds (monotonic), for "data is N s old" while disconnected.
    double dataAgeSeconds() const;

    struct Entry
    {
        QString key;
        LeaseTrack track;
        HolderParts holder;
    };
    const Entry& entry(int row) const { return rows_[size_t(row)]; }
    LeaseState stateAt(int row) const;
    // With the caller's server-time estimate: one clock reading for a pass over every row.
    LeaseState stateAt(int row, double now) const;
    std::array<int, kLeaseStateCount> stateCounts() const;
    // Per table read (in Snapshot::leaseTables order, zeros included): leases by state at `now`
    // and how long ago the longest-stale one expired. The recorder's /metrics.
    std::vector<LeaseTableMetrics> tableMetrics(double now) const;
    bool clockSkewAt(int row) const { return writerSkewAt(row) != 0; }
    // Seconds the row's writer's clock is known to run ahead (> 0) or behind (< 0) the server's
    // (an application-clock writer: from the takes and renewals seen, or a taken-at in the
    // server's future); 0 when not known to be off.
    double writerSkewAt(int row) const;
    // The rows stale at `now` or with the writer's clock ahead (clockSkewAt), in row order: what the
    // lease findings are about. One double a row is read, not each row's timeline.
    std::vector<int> rowsStaleOrSkewed(double now) const;
    int rowOfKey(const QString& key) const { return index_.value(key, -1); }
    // Every row with this lease name, whatever its table (a name is unique per table only).
    std::vector<int> rowsNamed(const QString& name) const;

    // SortRole's order, typed: no QVariant (nor a display string) per comparison. Sorting 100 000
    // rows makes millions of them; LeaseSortFilterProxy calls these.
    bool lessThan(int left, int right, int column, Qt::CaseSensitivity cs) const;
    // The text filter (FilterRole's "name holder" contains `text`), without building that string.
    bool matchesFilter(int row, const QString& text, Qt::CaseSensitivity cs) const;

public Q_SLOTS:
    void applySnapshot(const lw::Snapshot& s);
    // Repaints the time-dependent columns (countdowns tick between refreshes).
    void tick();
    // Marks the data as not live (connection lost): countdowns become "unverified".
    void setLive(bool live);

Q_SIGNALS:
    void summaryChanged();
    // A background fill is complete: every row of its refresh is in the model.
    void filled();

private:
    QString display(const Entry& e, int column, double now) const;
    QVariant sortValue(const Entry& e, int column, double now) const;
    static QStringView sortText(const Entry& e, int column); // Name, Host, Token
    // The end of the hold: `now`, or the refresh that found the row released.
    // A row freed in place (ShedLock) held until its expiry.
    double heldUntil(const Entry& e, double now) const
    {
        if (e.track.releasedAt)
            return *e.track.releasedAt;
        if (policyOf(e).expiryFrees && e.track.row.expiresAt && *e.track.row.expiresAt < now)
            return *e.track.row.expiresAt;
        return now;
    }
    // The expiry that still counts down: none once the row is released (gone from the table).
    static std::optional<double> liveExpiry(const Entry& e)
    {
        return e.track.releasedAt ? std::nullopt : e.track.row.expiresAt;
    }
    void rebuildIndex();
    void applyTables(std::shared_ptr<const std::vector<LeaseTableConfig>> tables);
    const LeaseTableConfig* tableFor(const LeaseRow& r) const { return rules_.tableFor(r); }
    const LeaseTableConfig* tableOf(const Entry& e) const { return rules_.tableFor(e.track.row); }
    const LeasePolicy& policyOf(const Entry& e) const { return rules_.policyOf(e.track.row); }
    QString keyOf(const LeaseRow& r) const { return rules_.keyOf(r); }
    HolderParts holderOf(const LeaseRow& r) const { return rules_.holderOf(r); }
    // The order of the columns that need no clock (now cancels out of a − now < b − now).
    static bool clockFreeColumn(int column);
    static bool lessClockFree(const Entry& a, const Entry& b, int column, Qt::CaseSensitivity cs);

    struct Update
    {
        int minChanged = 0, maxChanged = -1;
        std::vector<Entry> added;
    };
    // Every row compared (keys matched by name), or only what the poller's LeaseDelta names.
    void applyFull(const Snapshot& s, bool first, Update& u);
    bool applyDelta(const Snapshot& s, const LeaseDelta& d, Update& u);
    void observeExisting(int row, const LeaseRow& r, Update& u);
    void observeGone(int row, Update& u);
    void addEntry(const QString& key, const LeaseRow& r, Sighting sighting, Update& u);

    std::vector<Entry> rows_;
    // Per row, what passes over every row read (the tick, the state counts, the lease findings):
    // the state's timeline and the writer's taken-at (-inf when released or unknown), kept in step
    // with rows_ by retime() wherever a track changes.
    struct Brief
    {
        LeaseTimeline when;
        double takenAt = -std::numeric_limits<double>::infinity();
        double skew = 0; // writerClockSkew() of an application-clock writer
    };
    Brief briefOf(const Entry& e) const { return rules_.briefOf(e); }
    void retime(int row)
    {
        brief_[size_t(row)] = briefOf(rows_[size_t(row)]);
        staleFrom_[size_t(row)] = staleFrom(brief_[size_t(row)]);
    }
    static double staleFrom(const Brief& b)
    {
        return b.when.timed && !b.when.expiryFrees ? b.when.expiresAt : std::numeric_limits<double>::infinity();
    }
    // What a row's key, holder split and timeline depend on, as a value: a background fill works
    // on its own copy while the window goes on.
    struct Rules
    {
        LeasePolicy policy;                // the profile's
        std::vector<LeasePolicy> policies; // per table: the profile's with the table's scheme
        std::shared_ptr<const std::vector<LeaseTableConfig>> tables;
        bool writerClockCheck = false;
        const LeaseTableConfig* tableFor(const LeaseRow& r) const; // null: no table known for its source
        const LeasePolicy& policyOf(const LeaseRow& r) const
        {
            return r.source >= 0 && size_t(r.source) < policies.size() ? policies[size_t(r.source)] : policy;
        }
        QString keyOf(const LeaseRow& r) const;
        HolderParts holderOf(const LeaseRow& r) const;
        Brief briefOf(const Entry& e) const;
    };
    Rules rules_;
    quint64 rulesVersion_ = 0; // bumped by applyTables: a fill prepared under older rules is retimed

    // A background fill: prepared on fillThread_, taken in by takeFill() on the model's thread.
    struct Fill
    {
        std::vector<Entry> rows;
        std::vector<Brief> brief;
        std::vector<int> snapRow;
        QHash<QString, int> index;
        quint64 rulesVersion = 0;
    };
    struct FillOrder
    {
        int column = -1;
        Qt::SortOrder order = Qt::AscendingOrder;
        Qt::CaseSensitivity cs = Qt::CaseSensitive;
    };
    static void prepareFill(Fill& f, const LeaseRows& leases, const Rules& rules, Sighting sighting, double now,
                            double prevNow, FillOrder order, const std::stop_token& stop);
    void startFill(const Snapshot& s, Sighting sighting);
    void takeFill();        // the prepared rows into the model, then the first slice
    void insertNextSlice(); // the next hidden rows shown; filled() after the last
    void finishFill();      // everything in at once (applySnapshot while loading)
    bool fillInBackground_ = false;
    bool filling_ = false;
    int fillRows_ = 0;
    int hidden_ = 0; // rows at the end of rows_ not yet inserted (rowCount() leaves them out)
    FillOrder fillOrder_;
    std::unique_ptr<Fill> fill_;

    std::vector<Brief> brief_;
    std::vector<double> staleFrom_; // per row: brief_'s Stale instant (+inf: never), read on its own
    std::vector<int> snapRow_; // model row of each row of the last snapshot's leases
    quint64 deltaSource_ = 0, lastSeq_ = 0, lastGen_ = 0;
    int releasedCount_ = 0;
    std::vector<qint8> tickStates_; // state of each row at the last tick
    QHash<QString, int> index_;
    QStringList tablesFound_;
    MonotonicClock clock_;
    double serverNow_ = 0;
    double prevServerNow_ = 0;
    qint64 receivedMs_ = 0;
    bool haveSnapshot_ = false;
    bool live_ = false;
    QString tableProblem_;
    QString tableNote_;
    QString tableName_;
    bool lastReadAll_ = false; // the previous refresh read every lease table
    std::jthread fillThread_;  // last: joined (after a stop request) before anything it fills goes
};

} // namespace lw
