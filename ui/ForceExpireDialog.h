#pragma once
// The confirmation dialog for force-expiring leases: per lease the holder, the times, the evidence
// for the holder being dead or alive, and what will follow; a second explicit confirmation for
// holders that look alive; after running, the outcome of each lease in words.
#include "ForceExpire.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace lw::ui {

class ForceExpireDialog : public QDialog
{
    Q_OBJECT
public:
    struct Item
    {
        LeaseTracker::Entry entry;
        HolderEvidence evidence;
        ForceExpireTarget target;
    };
    // `table`: where the leases are, and how they are freed (its library's own release, or the
    // expiry set to now).
    ForceExpireDialog(std::vector<Item> items, double serverNow, const LeaseTableConfig& table,
                      QWidget* parent = nullptr);

    const std::vector<Item>& items() const { return items_; }
    std::vector<ForceExpireTarget> targets() const;
    bool needsAliveConfirmation() const { return aliveCount_ > 0; }

    // Shows the per-lease outcomes; the dialog then only closes.
    void showOutcomes(const std::vector<ForceExpireOutcome>& outcomes);
    // Shows that the action could not run at all (e.g. lost the monitor).
    void showFailure(const QString& text);

    // For tests and accessibility.
    QPushButton* confirmButton() const { return confirm_; }
    QPushButton* closeButton() const { return close_; }
    QCheckBox* aliveCheckBox() const { return alive_; }
    // Shown when a lease's writer is known to run behind the server: its lease only looks expired.
    QCheckBox* clockCheckBox() const { return clock_; }
    QString detailsText() const;
    QString outcomeText() const;

Q_SIGNALS:
    // The operator confirmed; the owner runs the statement and calls showOutcomes().
    void confirmed(const std::vector<lw::ForceExpireTarget>& targets);

private:
    void updateConfirm();
    void onConfirm();

    std::vector<Item> items_;
    int aliveCount_ = 0;
    double behindS_ = 0; // the largest known writer lag among the items
    bool running_ = false;
    QTextBrowser* details_;
    QLabel* consequences_;
    QCheckBox* alive_;
    QCheckBox* clock_;
    QLabel* status_;
    QTextBrowser* outcomes_;
    QPushButton* confirm_;
    QPushButton* close_;
};

} // namespace lw::ui
