#pragma once
// Live model of the leases table, a view over the lease tracker of a RefreshJudge, keyed by lease
// name: rows are updated in place (dataChanged), inserted/removed only when the set of leases
// changes, never reset per refresh, so selection, sort order, scroll position and filter survive
// refreshes. The judge applies each refresh; the model is its row intake and mirrors each step.
#include "domain/RefreshJudge.h"

#include <QAbstractTableModel>

#include <array>
#include <memory>
#include <thread>
#include <vector>

namespace lw {

class LeaseModel : public QAbstractTableModel,
                   public LeaseColumns,
                   private LeaseTracker::Listener,
                   private RefreshJudge::RowIntake
{
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for time columns, severity for state
        StateRole,                   // int(LeaseState)
        FilterRole,                  // "name holder" for the text filter
        SecondsLeftRole,             // double, server clock
        KeyRole,                     // unique row key (name, or name#n for duplicate names)
    };

    using MonotonicClock = LeaseTracker::MonotonicClock;
    using Entry = LeaseTracker::Entry;
    // A view over `judge`'s leases, which must outlive it; it takes the judge's refreshes' rows.
    explicit LeaseModel(RefreshJudge& judge, QObject* parent = nullptr);
    ~LeaseModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    // What the rows are: the findings, the force-expire evidence and the terminal commands read it.
    const LeaseTracker& tracker() const { return tracker_; }

    const LeasePolicy& policy() const { return tracker_.policy(); }

    // A refresh that brings many leases to an empty model (the first read of a 1 000 000-row
    // table: seconds of per-row work) is prepared on a worker thread, and its rows then appear in
    // slices, so that the window never stops answering. Off by default: the recorded window
    // applies every refresh at once. While rows are loading, the judge must not apply a refresh
    // (Monitor holds refreshes back until filled()); if it does, the model waits for them.
    void setFillInBackground(bool on) { fillInBackground_ = on; }
    // Rows read but not yet in the model (being prepared, or still to be inserted); 0 when all are.
    int rowsLoading() const { return filling_ ? fillRows_ : hidden_; }
    // The order a background fill inserts its rows in, the sorted view's: each slice then lands at
    // the view's end instead of being merged into a million rows. LeaseSortFilterProxy sets it.
    void setFillOrder(int column, Qt::SortOrder order, Qt::CaseSensitivity cs)
    {
        fillOrder_ = {column, order, cs};
    }

    double serverNowEstimate() const { return tracker_.serverNowEstimate(); }
    bool hasData() const { return tracker_.hasData(); }
    bool isLive() const { return live_; }
    const QString& tableProblem() const { return tracker_.tableProblem(); }
    const QString& tableNote() const { return tracker_.tableNote(); }
    const QString& tableName() const { return tracker_.tableName(); }
    const QStringList& tablesFound() const { return tracker_.tablesFound(); }
    int tableCount() const { return int(tracker_.tables().size()); }
    const std::vector<LeaseTableConfig>& tables() const { return tracker_.tables(); }
    const LeaseTableConfig* tableAt(int row) const { return tracker_.tableAt(row); }
    const LeasePolicy& policyAt(int row) const { return tracker_.policyAt(row); }
    double dataAgeSeconds() const { return tracker_.dataAgeSeconds(); }

    const Entry& entry(int row) const { return tracker_.entry(row); }
    LeaseState stateAt(int row) const { return tracker_.stateAt(row, serverNowEstimate()); }
    LeaseState stateAt(int row, double now) const { return tracker_.stateAt(row, now); }
    std::array<int, kLeaseStateCount> stateCounts() const { return tracker_.stateCounts(serverNowEstimate()); }
    bool clockSkewAt(int row) const { return tracker_.writerSkewAt(row) != 0; }
    double writerSkewAt(int row) const { return tracker_.writerSkewAt(row); }
    int rowOfKey(const QString& key) const { return tracker_.rowOfKey(key); }
    std::vector<int> rowsNamed(const QString& name) const { return tracker_.rowsNamed(name); }

    // SortRole's order, typed: no QVariant (nor a display string) per comparison. Sorting 100 000
    // rows makes millions of them; LeaseSortFilterProxy calls these.
    bool lessThan(int left, int right, int column, Qt::CaseSensitivity cs) const;
    // The text filter (FilterRole's "name holder" contains `text`), without building that string.
    bool matchesFilter(int row, const QString& text, Qt::CaseSensitivity cs) const;

public Q_SLOTS:
    // Repaints the time-dependent columns (countdowns tick between refreshes).
    void tick();
    // Marks the data as not live (connection lost): countdowns become "unverified".
    void setLive(bool live);

Q_SIGNALS:
    void summaryChanged();
    // A background fill is complete: every row of its refresh is in the model.
    void filled();

private:
    QVariant sortValue(int row, int column, double now) const;
    // The order of the columns that need no clock (now cancels out of a − now < b − now).
    static bool clockFreeColumn(int column);
    static bool lessClockFree(const Entry& a, const Entry& b, int column, Qt::CaseSensitivity cs);

    bool takeRows(const Snapshot& s, const LeaseTracker::Begun& b) override;
    // The tracker's steps, mirrored as the model's signals.
    void observed(int row, LeaseChange change) override;
    void aboutToRemove(int first, int last) override;
    void removed(int first, int last) override;
    void aboutToAppend(int first, int last) override;
    void appended(int first, int last) override;
    void flushChanged();
    int minChanged_ = 0, maxChanged_ = -1;
    int appendingFrom_ = -1; // rows from here are being appended: inserted, not changed

    struct FillOrder
    {
        int column = -1;
        Qt::SortOrder order = Qt::AscendingOrder;
        Qt::CaseSensitivity cs = Qt::CaseSensitive;
    };
    void startFill(const Snapshot& s, Sighting sighting);
    void takeFill();        // the prepared rows into the tracker, then the first slice
    void insertNextSlice(); // the next hidden rows shown; filled() after the last
    void finishLoading() override; // everything in at once (a refresh applied while loading)

    RefreshJudge& judge_;
    LeaseTracker& tracker_; // the judge's
    bool live_ = false;
    bool fillInBackground_ = false;
    bool filling_ = false;
    int fillRows_ = 0;
    int hidden_ = 0; // rows at the end of the tracker's not yet inserted (rowCount() leaves them out)
    FillOrder fillOrder_;
    std::unique_ptr<LeaseTracker::Prepared> fill_;
    std::vector<qint8> tickStates_; // state of each row at the last tick
    std::jthread fillThread_;       // last: joined (after a stop request) before anything it fills goes
};

} // namespace lw
