#pragma once
// One lease's recorded history as a table (issue 9, point 2): holders one after another, takes,
// renewals collapsed into one row per run (count, first…last), expiries, takeovers, releases and
// forced expiries with the operator. Rebuilt by setEvents() (a reset: the rows are a different
// history, not an update of the same one).
#include "store/HistoryReader.h"

#include <QAbstractTableModel>

#include <vector>

namespace lw {

class LeaseTimelineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { When, Event, Holder, Details, Operator, ColumnCount };
    enum Role {
        KindRole = Qt::UserRole + 1, // int(LeaseTimelineEvent::Kind)
        TimeRole,                    // double, server time (epoch seconds)
        SortRole,
        BeforeJoinRole, // bool: recorded before this window joined the recorder's history
    };

    explicit LeaseTimelineModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    void setEvents(QString lease, std::vector<LeaseTimelineEvent> events);
    // Convenience: the timeline of `lease` from a reader.
    void load(const HistoryReader& reader, const QString& lease);
    QString lease() const { return lease_; }
    const LeaseTimelineEvent& event(int row) const { return events_[size_t(row)]; }
    const std::vector<LeaseTimelineEvent>& events() const { return events_; }
    // The row in effect at server time t (the last event at or before it), -1 before the first.
    int rowAt(double t) const;
    // Where this window joined a recorder's history (server time; 0: it recorded everything
    // itself). Events before it are shaded: the window did not see them happen.
    void setJoinedAt(double serverTime);
    double joinedAt() const { return joinedAt_; }

private:
    QString lease_;
    std::vector<LeaseTimelineEvent> events_;
    double joinedAt_ = 0;
};

QString formatServerTime(double epoch); // "2026-01-02 10:00:01.250", local time

} // namespace lw
