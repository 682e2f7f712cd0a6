#pragma once
// Base for live table models whose rows have a stable key: a refresh updates rows in place
// (dataChanged over the changed span), removes vanished rows bottom-up in contiguous ranges and
// appends new ones — never a reset, so selection, sorting and scrolling survive.
#include <QAbstractTableModel>
#include <QHash>

#include <vector>

namespace lw {

class KeyedTableModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    template <typename Row>
    void applyKeyed(std::vector<Row>& rows, std::vector<QString>& keys, QHash<QString, int>& index,
                    std::vector<QString> newKeys, std::vector<Row> newRows)
    {
        std::vector<char> seen(rows.size(), 0);
        int lo = int(rows.size()), hi = -1;
        std::vector<size_t> added;
        for (size_t i = 0; i < newKeys.size(); ++i) {
            const auto it = index.constFind(newKeys[i]);
            if (it == index.constEnd()) {
                added.push_back(i);
                continue;
            }
            const int r = *it;
            seen[size_t(r)] = 1;
            if (!(rows[size_t(r)] == newRows[i])) {
                lo = std::min(lo, r);
                hi = std::max(hi, r);
            }
            rows[size_t(r)] = std::move(newRows[i]);
        }
        if (hi >= lo)
            Q_EMIT dataChanged(this->index(lo, 0), this->index(hi, columnCount() - 1));
        bool removed = false;
        for (int r = int(rows.size()) - 1; r >= 0;) {
            if (seen[size_t(r)]) {
                --r;
                continue;
            }
            int first = r;
            while (first > 0 && !seen[size_t(first - 1)])
                --first;
            beginRemoveRows({}, first, r);
            rows.erase(rows.begin() + first, rows.begin() + r + 1);
            keys.erase(keys.begin() + first, keys.begin() + r + 1);
            endRemoveRows();
            removed = true;
            r = first - 1;
        }
        if (removed) {
            index.clear();
            for (int r = 0; r < int(keys.size()); ++r)
                index.insert(keys[size_t(r)], r);
        }
        if (!added.empty()) {
            const int start = int(rows.size());
            beginInsertRows({}, start, start + int(added.size()) - 1);
            for (size_t i : added) {
                index.insert(newKeys[i], int(rows.size()));
                keys.push_back(std::move(newKeys[i]));
                rows.push_back(std::move(newRows[i]));
            }
            endInsertRows();
        }
    }
};

} // namespace lw
