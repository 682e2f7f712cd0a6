#pragma once
// Connection profiles: add, edit, remove, test, open. Passwords are never asked for nor stored here:
// libpq reads them from ~/.pgpass / PGPASSFILE or the service file.
#include "Profile.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace lw::ui {

class ProfilesDialog : public QDialog
{
    Q_OBJECT
public:
    // `store` is loaded by the caller; Save writes it.
    explicit ProfilesDialog(ProfileStore* store, QWidget* parent = nullptr);

    // The profile chosen with "Open" (valid after accept()).
    const Profile& chosen() const { return chosen_; }
    // The form's current values as a profile (what Save/Test/Open use).
    Profile formProfile() const;
    void setFormProfile(const Profile& p);
    QString messageText() const;
    bool testRunning() const { return testRunning_; }

    // exec()'s result when the operator asked for every database at a glance instead of one.
    static constexpr int ShowFleet = QDialog::Accepted + 1;

public Q_SLOTS:
    void newProfile();
    bool saveCurrent(); // validates; on failure shows why and keeps every field as typed
    void removeCurrent();
    void testConnection(); // one refresh off the UI thread; the result in words
    void openCurrent();

Q_SIGNALS:
    void testFinished(const QString& message, bool ok);

private:
    void selectRow(int row);
    void showMessage(const QString& text, bool ok);
    void reloadList(const QString& select);

    ProfileStore* store_;
    Profile chosen_;
    int currentRow_ = -1;
    bool testRunning_ = false;
    QListWidget* list_;
    QLineEdit* name_;
    QLineEdit* dsn_;
    QLineEdit *host_, *port_, *dbname_, *user_, *service_;
    QComboBox* sslmode_;
    QLineEdit *sslrootcert_, *sslcert_, *sslkey_;
    QComboBox* preset_;
    QCheckBox* detect_;
    QLineEdit *table_, *columns_, *timeKind_;
    QDoubleSpinBox* ttl_;
    QSpinBox* interval_;
    QLineEdit *lockNames_, *prefixes_, *poolSizes_;
    QDoubleSpinBox *idleHolding_, *advisoryWait_, *lockTableShare_, *connectionShare_;
    QCheckBox* operator_;
    QLineEdit* auditTable_;
    QLineEdit* pgbouncer_;
    QLineEdit* viaRecorder_;
    QSpinBox *historyDays_, *historyMb_;
    QCheckBox* alerts_;
    QLabel* message_;
    QPushButton* testButton_;
};

} // namespace lw::ui
