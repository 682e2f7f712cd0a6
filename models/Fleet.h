#pragma once
// Many databases at a glance (issue 27, point 5): one row per connection profile — open in a
// window, recorded by `leasewatch record`, or only configured — with its reachability, finding
// counts and worst finding, worst first. The rows are plain values built from a live Monitor or
// from a recorder's history store; FleetModel shows them (keyed by profile, updated in place).
#include "itemmodels/KeyedTableModel.h"
#include "domain/Analysis.h"

#include <QString>

#include <optional>
#include <vector>

namespace lw {

class Monitor;

struct FleetEntry
{
    enum class Source {
        Window,     // an open window monitors it (live)
        Recorder,   // a running `leasewatch record` writes its store
        Recorded,   // a store from an earlier recording or window; nobody writes it now
        Configured, // a profile, nothing watched or recorded
    };
    QString profile;
    Source source = Source::Configured;
    bool answering = false;   // the last refresh answered (and, for a store, is recent)
    double dataAgeS = -1;     // since the data shown (-1: none)
    SeverityCounts counts;
    QString worst;            // the worst finding's title, why it does not answer, or "" (fine)
    qint64 recorderPid = 0;   // Source::Recorder
    bool operator==(const FleetEntry&) const = default;

    // Worst first: not answering (4), then by the worst finding (3 … 1), fine (0), not watched (-1).
    int rank() const;
};

// From a window's monitor.
FleetEntry fleetEntryOf(const QString& profile, const Monitor& m);
// From the history store at `path` (missing: Configured). A store whose last refresh is older than
// `staleAfterS` (wall clock) or failed reads as not answering, since that refresh.
FleetEntry fleetEntryFromStore(const QString& profile, const QString& path, double staleAfterS = 30);

class FleetModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column { Database, State, Critical, Warning, Worst, Watched, ColumnCount };
    enum Role {
        RankRole = Qt::UserRole + 1, // int, FleetEntry::rank(): sort descending for worst first
        ProfileRole,                 // QString
    };
    explicit FleetModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    // Replaces the rows (in place by profile: selection and scrolling survive a refresh).
    void setEntries(std::vector<FleetEntry> entries);
    const FleetEntry& entry(int row) const { return rows_[size_t(row)]; }

private:
    std::vector<FleetEntry> rows_;
    std::vector<QString> keys_;
    QHash<QString, int> index_;
};

} // namespace lw
