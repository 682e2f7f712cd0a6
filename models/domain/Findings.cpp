#include "Findings.h"

#include "domain/Wording.h"
#include "domain/Words.h"
#include "Holders.h"

#include <QDateTime>

namespace lw {

void DeadlockWindow::add(double serverNow, qint64 deadlocks, std::optional<double> statsReset)
{
    if (deadlocks < 0)
        return;
    // A new stats_reset or a smaller counter means the counters restarted: start over.
    if (statsReset != statsReset_ || (!samples_.empty() && deadlocks < samples_.back().second))
        samples_.clear();
    statsReset_ = statsReset;
    samples_.emplace_back(serverNow, deadlocks);
    while (samples_.size() > 1 && serverNow - samples_.front().first > windowS_)
        samples_.pop_front();
}

int DeadlockWindow::deadlocksInWindow() const
{
    if (samples_.size() < 2)
        return 0;
    return int(samples_.back().second - samples_.front().second);
}

std::optional<double> DeadlockWindow::perMinute() const
{
    if (samples_.size() < 2)
        return std::nullopt;
    return deadlockRate(samples_.front().second, samples_.back().second,
                        samples_.back().first - samples_.front().first);
}

std::vector<Finding> leaseFindings(const LeaseTracker& leases)
{
    std::vector<Finding> out;
    const double now = leases.serverNowEstimate();
    for (int i : leases.rowsStaleOrSkewed(now)) {
        // The full entry is read only for a finding.
        const bool stale = leases.stateAt(i, now) == LeaseState::Stale;
        const double skewS = leases.writerSkewAt(i); // > 0 ahead, < 0 behind
        const bool skew = skewS != 0;
        // A writer behind the server makes its live leases look expired early: stale says so.
        const QString behindNote =
            skewS < 0 ? FindingWords::tr(" Its writer's clock runs at least %1 behind the server's, so the lease "
                                       "looks expired that much early; the holder may be alive and renewing on "
                                       "its own schedule.")
                            .arg(formatDuration(-skewS))
                      : QString();
        const auto& e = leases.entry(i);
        const LeaseRow& r = e.track.row;
        const LeaseTableConfig* table = leases.tableAt(i);
        if (stale && table && !table->staleMeaning.isEmpty()) {
            // A library's own stale rule, in its words, with its own way out.
            Finding f;
            f.kind = FindingKind::StaleLease;
            f.severity = table->staleSeverity;
            f.subject = r.name;
            f.id = findingKindKey(f.kind) + QLatin1Char(':') + e.key;
            f.title = FindingWords::tr("%1 %2 (holder %3): %4")
                          .arg(table->label(), r.name, r.holder.value_or(FindingWords::tr("(none)")), libraryWords(table->staleMeaning));
            f.explanation = FindingWords::tr("Judged by %1's own rule, read in its source; %2 is its table.")
                                .arg(table->label(), table->qualifiedName()) +
                            behindNote;
            f.fix = !table->staleFix.isEmpty() ? libraryWords(table->staleFix)
                    : table->forceExpireRefusal.isEmpty()
                        ? FindingWords::tr("Check that %1 is running on some instance; it takes the lease over "
                                         "by itself once one is.")
                              .arg(table->label())
                        : libraryWords(table->forceExpireRefusal);
            out.push_back(f);
        } else if (stale) {
            Finding f;
            f.kind = FindingKind::StaleLease;
            f.severity = 3;
            f.subject = r.name;
            f.id = findingKindKey(f.kind) + QLatin1Char(':') + e.key;
            const QString holder = e.holder.structured && e.holder.pid > 0
                                       ? FindingWords::tr("%1 (pid %2)").arg(e.holder.host).arg(e.holder.pid)
                                       : r.holder.value_or(FindingWords::tr("(none)"));
            const QString ago = formatDuration(now - *r.expiresAt);
            f.title = e.track.lastRenewal
                          ? FindingWords::tr("%1 expired %2 ago; holder %3 stopped renewing at %4; nobody has taken "
                                             "it over")
                                .arg(r.name, ago, holder,
                                     QDateTime::fromMSecsSinceEpoch(qint64(*e.track.lastRenewal * 1000))
                                         .toString(QStringLiteral("HH:mm:ss")))
                          : FindingWords::tr("%1 expired %2 ago; holder %3; nobody has taken it over")
                                .arg(r.name, ago, holder);
            f.explanation =
                skewS < 0 ? FindingWords::tr("Expired by the server's clock and not taken over.") + behindNote
                          : FindingWords::tr("The holder stopped renewing (it probably crashed) and no other instance "
                                           "has taken the lease yet; the work behind it is not being done.");
            f.fix =
                FindingWords::tr("Check the holder; if it is gone, wait for the next take or force-expire the "
                               "lease (operator mode).");
            out.push_back(f);
        }
        if (skew) {
            Finding f;
            f.kind = FindingKind::WriterClockSkew;
            f.severity = 2;
            f.subject = r.name;
            f.id = findingKindKey(f.kind) + QLatin1Char(':') + e.key;
            f.title = skewS > 0 ? FindingWords::tr("%1: the writer's clock (%2) runs at least %3 ahead of the server's")
                                      .arg(r.name, r.holder.value_or(QStringLiteral("?")), formatDuration(skewS))
                                : FindingWords::tr("%1: the writer's clock (%2) runs at least %3 behind the server's")
                                      .arg(r.name, r.holder.value_or(QStringLiteral("?")), formatDuration(-skewS));
            f.explanation =
                skewS > 0
                    ? FindingWords::tr("The lease library writes times from the application's clock; a clock "
                                     "ahead makes leases last longer than intended.")
                    : FindingWords::tr("The lease library writes times from the application's clock; a clock "
                                     "behind makes live leases look expired early, and another instance may "
                                     "take them while their holder still works.");
            f.fix = FindingWords::tr("Run NTP on the application hosts, or configure the library to use the "
                                   "database's time.");
            out.push_back(f);
        }
    }
    return out;
}

std::vector<Finding> collectFindings(const Snapshot& s, const LeaseTracker& leases,
                                     const DeadlockWindow* deadlocks, const HolderPresence* presence,
                                     const FlagLockWatch* flags, const TakeoverOverlap* overlaps)
{
    std::vector<Finding> out = leaseFindings(leases);
    if (presence) {
        std::vector<Finding> gone = presence->findings(leases);
        out.insert(out.end(), gone.begin(), gone.end());
    }
    if (flags) {
        std::vector<Finding> left = flags->findings(leases);
        out.insert(out.end(), left.begin(), left.end());
    }
    if (overlaps) {
        std::vector<Finding> both = overlaps->findings(leases);
        out.insert(out.end(), both.begin(), both.end());
    }
    if (s.leasesError || s.leasesPartial) {
        // Blind to leases (or to one table of them): never "all clear" while a table cannot be read.
        const DbError& e = s.leasesError ? *s.leasesError : *s.leasesPartial;
        Finding f;
        f.kind = FindingKind::LeasesUnreadable;
        f.severity = 2;
        f.subject = QString(); // the Leases page as it is
        f.id = findingKindKey(f.kind);
        f.title = (s.leasesError ? FindingWords::tr("leases not shown: %1") : FindingWords::tr("a lease table not read: %1"))
                      .arg(e.headline());
        f.explanation =
            s.leasesError
                ? FindingWords::tr("The console cannot read the leases table, so it shows no holders, no "
                                 "countdowns and no stale leases; locks, sessions and pools are still live.")
                : FindingWords::tr("One lease table is not read (its rows are missing, or as last read); the other "
                                 "tables' rows, locks, sessions and pools are live.");
        const QString advice = e.advice();
        f.fix = advice.isEmpty() ? FindingWords::tr("Check the leases-table settings of the profile.") : advice;
        out.push_back(f);
    }
    if (s.analysis)
        out.insert(out.end(), s.analysis->findings.begin(), s.analysis->findings.end());
    if (deadlocks && deadlocks->deadlocksInWindow() > 0) {
        Finding f;
        f.kind = FindingKind::Deadlocks;
        f.severity = 2;
        f.subject = s.server.database;
        f.id = findingKindKey(f.kind);
        const int n = deadlocks->deadlocksInWindow();
        const QString window = formatDuration(deadlocks->windowSeconds());
        f.title = n == 1 ? FindingWords::tr("1 deadlock in the last %1 in database %2").arg(window, s.server.database)
                         : FindingWords::tr("%1 deadlocks in the last %2 in database %3")
                               .arg(QString::number(n), window, s.server.database);
        f.explanation = FindingWords::tr("PostgreSQL aborted transactions that waited on each other; the "
                                       "application saw SQLSTATE 40P01 and had to retry.");
        f.fix = FindingWords::tr("Lock rows in one consistent order (ORDER BY … FOR UPDATE), keep transactions "
                               "short, set lock_timeout.");
        out.push_back(f);
    }
    sortWorstFirst(out);
    return out;
}

void sortWorstFirst(std::vector<Finding>& findings)
{
    std::stable_sort(findings.begin(), findings.end(),
                     [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
}

} // namespace lw
