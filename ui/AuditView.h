#pragma once
// The local audit log, newest first: who did what to which target, before/after and the outcome.
#include <QDialog>

class QTableWidget;
class QLabel;

namespace lw {
class AuditLog;
}

namespace lw::ui {

class AuditView : public QDialog
{
    Q_OBJECT
public:
    enum Column { Time, Action, Target, Outcome, Role, OsUser, Database, Before, After, ColumnCount };
    explicit AuditView(AuditLog* log, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }

public Q_SLOTS:
    void reload();

private:
    AuditLog* log_;
    QTableWidget* table_;
    QLabel* header_;
};

} // namespace lw::ui
