#pragma once
// The one lease tracker: every lease row read, refresh after refresh, as a track (TTL inference,
// renewals, takeovers, releases) with its timeline, keyed by lease name and kept in place. The
// Leases model, the history writer, the terminal commands, the findings and the force-expire
// evidence all read leases through it, so each rule (what a take-over is, when a row is stale,
// how long a released row stays) is decided here once. QtCore only: no colours, no item models.
#include "LeaseState.h"
#include "Metrics.h"
#include "Snapshot.h"

#include <QHash>
#include <QStringList>

#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <stop_token>
#include <vector>

namespace lw {

// The columns a lease is shown in, in the window and in `snapshot`'s text table.
struct LeaseColumns
{
    enum Column { Name, Host, Pid, Token, TakenAt, HeldFor, ExpiresIn, State, Scheme, ColumnCount };
};
QString leaseColumnTitle(int column); // "Held for"

class LeaseTracker
{
public:
    struct Entry
    {
        QString key;
        LeaseTrack track;
        HolderParts holder;
    };

    // What a refresh did to the rows, in the order it does it, for a view that mirrors them (the
    // item model's begin/end signals) or a writer that records them. `observed` comes for every
    // row whose track changed, already updated; appended rows come only as a range.
    class Listener
    {
    public:
        virtual ~Listener() = default;
        virtual void observed(int row, LeaseChange change) = 0;
        virtual void aboutToRemove(int first, int last) = 0;
        virtual void removed(int first, int last) = 0;
        virtual void aboutToAppend(int first, int last) = 0;
        virtual void appended(int first, int last) = 0;
    };

    using MonotonicClock = std::function<qint64()>;
    explicit LeaseTracker(MonotonicClock clock = monotonicMs);

    void setPolicy(const LeasePolicy& p);
    const LeasePolicy& policy() const { return rules_.policy; }
    // Like the policy, it changes every row's timeline.
    void setWriterUsesAppClock(bool on);

    // One refresh, in two steps so that a view can prepare a large first read elsewhere: begin()
    // takes the refresh's clock, tables and problems; applyRows() then folds its rows in.
    enum class Outcome {
        Failed,     // no answer: nothing changes
        Unreadable, // the lease tables could not be read: the rows stay, not current
        Rows,       // the rows are to be applied
    };
    struct Begun
    {
        Outcome outcome = Outcome::Failed;
        Sighting newRows = Sighting::FirstRefresh; // what a row new to this refresh is
        bool first = true;                         // the tracker's first refresh
    };
    Begun begin(const Snapshot& s);
    void applyRows(const Snapshot& s, const Begun& b, Listener* listener = nullptr);
    // Both, for a caller that needs no view.
    Outcome apply(const Snapshot& s, Listener* listener = nullptr);

    // Every row new to an empty tracker, worked out on another thread (the first read of a
    // 1 000 000-row table: seconds of per-row work) and taken in with adopt().
    struct Rules;
    struct Prepared;
    using Order = std::function<bool(const Entry&, const Entry&)>; // the view's order, or empty
    std::unique_ptr<Prepared> prepareFrom(const Snapshot& s, Sighting sighting) const; // copies what it needs
    static void prepare(Prepared& p, const Order& order, const std::stop_token& stop);
    void skipRows(const Snapshot& s); // the refresh whose rows are being prepared
    void adopt(Prepared&& p);

    int size() const { return int(rows_.size()); }
    const Entry& entry(int row) const { return rows_[size_t(row)]; }
    int rowOfKey(const QString& key) const { return index_.value(key, -1); }
    // Every row with this lease name, whatever its table (a name is unique per table only).
    std::vector<int> rowsNamed(const QString& name) const;

    // What the last refresh applied did, for a reader that records only that (LeaseChangeReader):
    // the rows it observed change, in the order it did, as rows now (a row removed since: gone
    // from the list). applies() counts the refreshes whose rows were applied, and the rows taken
    // in from a background fill, so that a reader can tell it missed one; rulesVersion() moves
    // with the policy and the tables, which retime every row.
    const std::vector<std::pair<int, LeaseChange>>& lastChanges() const { return lastChanges_; }
    quint64 applies() const { return applies_; }
    quint64 rulesVersion() const { return rulesVersion_; }
    // Server time of the last refresh whose rows were applied, and of the one before it.
    double appliedNow() const { return appliedNow_; }
    double previousAppliedNow() const { return prevAppliedNow_; }

    // Server time now, estimated: the last refresh's now() plus monotonic time since it arrived.
    double serverNowEstimate() const;
    double serverNow() const { return serverNow_; }
    bool hasData() const { return haveSnapshot_; }
    double dataAgeSeconds() const;
    // Why the last refresh could not read the leases table (its message and what to do); empty
    // when it could.
    const QString& tableProblem() const { return tableProblem_; }
    // No lease table configured and none found: what was looked for (information, not a problem).
    const QString& tableNote() const { return tableNote_; }
    // "public.shedlock (ShedLock), public.qrtz_scheduler_state (Quartz)"; empty before the first
    // read. tablesFound(): what detection found, with why a table found is not read.
    const QString& tableName() const { return tableName_; }
    const QStringList& tablesFound() const { return tablesFound_; }
    const std::vector<LeaseTableConfig>& tables() const;
    // The table a row comes from (its scheme's rules and words), or null.
    const LeaseTableConfig* tableAt(int row) const;
    // The rules a row is judged by: the profile's policy with its table's scheme.
    const LeasePolicy& policyAt(int row) const;

    LeaseState stateAt(int row, double now) const { return brief_[size_t(row)].when.at(now); }
    std::array<int, kLeaseStateCount> stateCounts(double now) const;
    // Per table read (in Snapshot::leaseTables order, zeros included): leases by state at `now`
    // and how long ago the longest-stale one expired. The recorder's /metrics.
    std::vector<LeaseTableMetrics> tableMetrics(double now) const;
    // Seconds the row's writer's clock is known to run ahead (> 0) or behind (< 0) the server's
    // (an application-clock writer: from the takes and renewals seen, or a taken-at in the
    // server's future); 0 when not known to be off.
    double writerSkewAt(int row) const;
    // The rows stale at `now` or with the writer's clock off, in row order: what the lease findings
    // are about. One double a row is read, not each row's timeline.
    std::vector<int> rowsStaleOrSkewed(double now) const;

    // The end of the hold: `now`, or the refresh that found the row released; a row freed in place
    // (ShedLock) held until its expiry.
    double heldUntil(int row, double now) const;
    // The expiry that still counts down: none once the row is released (gone from the table).
    static std::optional<double> liveExpiry(const Entry& e)
    {
        return e.track.releasedAt ? std::nullopt : e.track.row.expiresAt;
    }
    // A cell's words, as the window and `snapshot` show them; `live` false marks countdowns
    // unverified (the connection is down).
    QString cellText(int row, int column, double now, bool live) const;
    QString stateTip(int row, double now) const; // the State cell's tooltip: why, and what was seen
    // The raw texts a sort compares (Name, Host, Token); cellText() only masks control characters.
    static QStringView sortText(const Entry& e, int column);

    // What a row's key, holder split and timeline depend on, as a value: a background fill works
    // on its own copy while the tracker goes on.
    struct Brief
    {
        LeaseTimeline when;
        double takenAt = -std::numeric_limits<double>::infinity();
        double skew = 0; // writerClockSkew() of an application-clock writer
    };
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
    struct Prepared
    {
        LeaseRows leases;
        Rules rules;
        Sighting sighting = Sighting::FirstRefresh;
        double now = 0, prevNow = 0;
        quint64 rulesVersion = 0;
        // The result
        std::vector<Entry> rows;
        std::vector<Brief> brief;
        QHash<QString, int> index;
    };

private:
    const LeasePolicy& policyOf(const Entry& e) const { return rules_.policyOf(e.track.row); }
    const LeaseTableConfig* tableOf(const Entry& e) const { return rules_.tableFor(e.track.row); }
    void applyTables(std::shared_ptr<const std::vector<LeaseTableConfig>> tables);
    void rebuildIndex();
    void retime(int row)
    {
        brief_[size_t(row)] = rules_.briefOf(rows_[size_t(row)]);
        staleFrom_[size_t(row)] = staleFrom(brief_[size_t(row)]);
    }
    static double staleFrom(const Brief& b)
    {
        return b.when.timed && !b.when.expiryFrees ? b.when.expiresAt : std::numeric_limits<double>::infinity();
    }

    struct Update
    {
        Listener* listener = nullptr;
        std::vector<Entry> added;
        std::vector<LeaseChange> addedAs;
    };
    // Every row compared (keys matched by name), or only the keys the poller's LeaseDelta names.
    void applyFull(const Snapshot& s, Sighting newRows, Update& u);
    bool applyDelta(const Snapshot& s, const LeaseDelta& d, Update& u);
    void observeExisting(int row, const LeaseRow& r, Update& u);
    void observeGone(int row, Update& u);
    void addEntry(const QString& key, const LeaseRow& r, Sighting sighting, Update& u);

    Rules rules_;
    quint64 rulesVersion_ = 0; // bumped by applyTables: a fill prepared under older rules is retimed
    std::vector<Entry> rows_;
    // Per row, what passes over every row read (the tick, the state counts, the lease findings):
    // the state's timeline and the writer's taken-at, kept in step with rows_ by retime().
    std::vector<Brief> brief_;
    std::vector<double> staleFrom_; // per row: brief_'s Stale instant (+inf: never), read on its own
    std::vector<std::pair<int, LeaseChange>> lastChanges_;
    quint64 applies_ = 0;
    double appliedNow_ = 0, prevAppliedNow_ = 0;
    void startApplied(double now) // a refresh's rows (or a fill's) go in: lastChanges() starts anew
    {
        lastChanges_.clear();
        ++applies_;
        prevAppliedNow_ = appliedNow_;
        appliedNow_ = now;
    }
    quint64 deltaSource_ = 0, lastSeq_ = 0, lastGen_ = 0;
    int releasedCount_ = 0;
    QHash<QString, int> index_;
    QStringList tablesFound_;
    MonotonicClock clock_;
    double serverNow_ = 0;
    double prevServerNow_ = 0;
    qint64 receivedMs_ = 0;
    bool haveSnapshot_ = false;
    QString tableProblem_;
    QString tableNote_;
    QString tableName_;
    bool lastReadAll_ = false; // the previous refresh read every lease table
};

} // namespace lw
