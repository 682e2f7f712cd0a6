#pragma once
// The leases of a recorded range, refresh after refresh, as the live window saw them: every
// recorded change applied in order, the renewals the writer counted between two rows replayed
// evenly over the time they were counted in, a lease still renewing after its last row kept on
// its schedule. Each refresh is handed over with a keyed LeaseDelta against the one before, as the
// poller's are, so that a recorded window applies a refresh of 100 000 leases in place; a
// replayed renewal falls due at a known time, so a queue says which leases to look at.
#include "HistoryReader.h"

#include <QHash>
#include <QMap>
#include <QSet>

#include <deque>
#include <map>
#include <memory>
#include <queue>
#include <vector>

namespace lw {

class LeaseReplay
{
public:
    // `tables`: the recorded lease tables (which schemes renew); `policy`: the recorded policy;
    // `tailRenewing`: the writer may not have written its last counted renewals yet.
    LeaseReplay(RecordedLeases recorded, std::shared_ptr<const std::vector<LeaseTableConfig>> tables, LeasePolicy policy,
                bool tailRenewing);
    LeaseReplay(const LeaseReplay&) = delete; // its leases point into its own rows
    LeaseReplay& operator=(const LeaseReplay&) = delete;

    // Held by someone who may be renewing it (what a replay extrapolates and looks ahead for).
    static bool isHeld(LeaseState s)
    {
        return s == LeaseState::Held || s == LeaseState::ExpiringSoon || s == LeaseState::TakenOver;
    }

    // The change rows of every refresh up to `refreshId` (each refresh, failed or not).
    void advanceTo(qint64 refreshId);
    // The leases at server time `at` into s.leases, with their delta against the last fill.
    void fill(double at, Snapshot& s);

private:
    // A lease as the replay shows it: its latest row, and the row after it.
    struct Lease
    {
        const LeaseChangeRow* row = nullptr;
        const LeaseChangeRow* next = nullptr;
        bool expectRenewals = true;
        bool tailRenewing = false; // renewals after the lease's last row may not be written yet
        double renewShare = 0.25;  // of the TTL: how often the scheme renews
        quint64 version = 0;       // bumped whenever row/next change (stale queue entries are skipped)

        bool interpolates() const;
        bool extrapolates() const;
        double period() const;
        int replayedBy(double t) const;
        std::optional<double> expiresAt(double t) const;
        double nextChange(double t) const; // when expiresAt() next changes after t (inf: not before the next row)
    };
    struct Due
    {
        double at;
        quint64 version;
        QString key;
        bool operator>(const Due& o) const { return at > o.at; }
    };

    void setUp(const QString& key, Lease& l);
    void schedule(const QString& key, const Lease& l, double t);
    LeaseRow rowAt(const QString& key, const Lease& l, double t) const;
    void fillFirst(double at);                  // every lease, no base
    void fillNext(double at, LeaseDelta& d);    // what changed since the last fill

    RecordedLeases rec_;
    std::shared_ptr<const std::vector<LeaseTableConfig>> tables_;
    LeasePolicy policy_;
    bool tailRenewing_;
    std::vector<const LeaseChangeRow*> nextOf_;         // per change row: the lease's next one
    QHash<QString, const LeaseChangeRow*> aheadOf_;     // the row after the range, by key
    std::map<QString, Lease> leases_;                   // std::map: a node stays put for the slots
    quint64 versions_ = 0;
    size_t nextChange_ = 0;                             // the first change row not applied yet
    // The leases as the last fill handed them out, one slot each.
    std::vector<LeaseRow> rows_;
    std::vector<Lease*> nodes_;
    std::vector<QString> keys_;
    QHash<QString, int> slotOf_;
    QSet<QString> touched_; // keys with a recorded change since the last fill
    std::priority_queue<Due, std::vector<Due>, std::greater<>> due_;
    quint64 source_;
    quint64 lastSeq_ = 0;
};

} // namespace lw
