// leasewatch-history-bench storage day|hour|smoke [--json] [--bundle FILE]
// leasewatch-history-bench cpu [--seconds N] [--leases N] [--cluster-dir DIR]
//
// Issue 27 point 3's benchmark: how long the history lasts in its 200 MB, and what the always-on
// recorder costs.
//
// `storage` feeds the real HistoryWriter (default options: 200 MB, 7 days) one refresh per
// second of synthetic server time, as fast as it can: `day` is 86 400 refreshes of 10 000 leases
// with 1 % renewing per second, `hour` 3 600 refreshes of 100 000 leases with 1 000 renewals per
// second, `smoke` 30 minutes of 1 000 leases. Around the leases: 80 pool sessions of 20 instances
// whose states change every refresh (so every refresh has its own session blob), 10 advisory
// locks, one lease taken by another instance every 10 s (a job done, the next run's take). The
// leases come with the poller's delta (the changed rows), as the recorder gets them. It prints the store's size
// (file + WAL) every simulated hour and at the end, rows per table, and whether the size bound had
// to cut anything (the oldest refresh kept against the first written).
//
// `cpu` starts a throwaway cluster (the leasewatch-bench workload: N leases, 0.1 % stale, 100
// advisory locks, 10 idle backends), runs the real `leasewatch record DSN` as a child process,
// renews 1 % of the leases every second, and reads the child's CPU time from /proc after a
// warm-up of 130 s (one round of renewals and a half): the recorder's share of one core.
// Exit code 0 whatever the figures (2: could not run).
#include "../bench/BenchWorkload.h"
#include "../bench/ProcessBudget.h"
#include "../history/HistoryTestSupport.h"

#include "store/HistoryReader.h"
#include "store/HistoryWriter.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

using namespace lw;
using namespace lw::test;

namespace {

using Clock = std::chrono::steady_clock;

double mib(qint64 bytes)
{
    return double(bytes) / (1024.0 * 1024.0);
}

qint64 storeBytes(const QString& path)
{
    return QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size();
}

struct StorageCase
{
    QString name;
    int leases = 0;
    int renewalsPerSecond = 0;
    int seconds = 0;
    QString bundle; // --bundle FILE: the last two hours cut as a bundle
};

// One refresh per second of a busy application, deterministic.
class Load
{
public:
    explicit Load(const StorageCase& c) : c_(c)
    {
        leases_.reserve(size_t(c.leases));
        for (int i = 0; i < c.leases; ++i) {
            LeaseRow r;
            r.name = QStringLiteral("job-%1").arg(i, 6, 10, QLatin1Char('0'));
            r.holder = holder(i % kInstances, i);
            const double ttl = ttlS();
            // Renewed somewhere in the last period (so the first refresh sees a steady state).
            const double last = kStart - double(period() - ((i % period()) + 1));
            r.takenAt = last - 3600;
            r.expiresAt = last + ttl;
            leases_.push_back(std::move(r));
        }
        for (int k = 0; k < kInstances * 4; ++k) {
            SessionRow s = session(1000 + k, QStringLiteral("worker-%1").arg(k / 4, 2, 10, QLatin1Char('0')),
                                   QStringLiteral("idle"));
            s.clientAddr = QStringLiteral("10.0.%1.%2").arg(k / 4 / 250).arg(k / 4 % 250 + 1);
            sessions_.push_back(s);
        }
        for (int k = 0; k < 10; ++k)
            locks_.push_back(advisoryLock(1000 + k * 8, 7000 + k));
    }
    static constexpr double kStart = 1'800'000'000; // server time of the first refresh
    static constexpr int kInstances = 20;
    // Each lease renews once a period; renewalsPerSecond of them each second.
    int period() const { return std::max(1, c_.leases / std::max(1, c_.renewalsPerSecond)); }
    double ttlS() const { return 4.0 * period(); } // renewed every TTL/4, as the mission says

    Snapshot at(int t)
    {
        const double now = kStart + t;
        const int p = period();
        // The renewals of this second: leases whose index ≡ t (mod period). The poller would hand
        // them over as a delta (changed rows) against its previous refresh; so does this load.
        auto delta = std::make_shared<LeaseDelta>();
        delta->source = 1;
        delta->baseSeq = quint64(t);
        for (int i = t % p; i < c_.leases; i += p) {
            leases_[size_t(i)].expiresAt = now + ttlS();
            delta->changed.push_back(i);
        }
        // Churn: every 10 s a job finishes and another instance's run takes its lease.
        if (t % 10 == 0) {
            const int j = int((qint64(t / 10) * 7919) % c_.leases);
            LeaseRow& r = leases_[size_t(j)];
            r.holder = holder((j + t) % kInstances, t);
            r.takenAt = now;
            r.expiresAt = now + ttlS();
            delta->changed.push_back(j);
            std::sort(delta->changed.begin(), delta->changed.end());
            delta->changed.erase(std::unique(delta->changed.begin(), delta->changed.end()), delta->changed.end());
        }
        SnapshotSpec sp;
        sp.now = now;
        sp.leases = leases_;
        // Pool sessions: one in eight busy at any time, a different eighth every second.
        for (size_t k = 0; k < sessions_.size(); ++k) {
            SessionRow& s = sessions_[k];
            const bool busy = (int(k) + t) % 8 == 0;
            const QString state = busy ? QStringLiteral("active") : QStringLiteral("idle");
            if (s.state != state) {
                s.state = state;
                s.stateChange = now - 0.2;
                if (busy) {
                    s.queryStart = now - 0.2;
                    s.query = QStringLiteral("UPDATE leases SET expires_at = now() + $3 WHERE name = $1 AND "
                                             "holder = $2");
                }
            }
        }
        sp.sessions = sessions_;
        sp.locks = locks_;
        sp.deadlocks = t / 3600;
        Snapshot snap = makeSnapshot(sp);
        snap.seq = quint64(t) + 1;
        if (t > 0)
            snap.leaseDelta = std::move(delta);
        return snap;
    }

private:
    QString holder(int instance, int salt) const
    {
        return QStringLiteral("worker-%1:%2:%3")
            .arg(instance, 2, 10, QLatin1Char('0'))
            .arg(4000 + instance)
            .arg(quint64(0x9e3779b97f4a7c15ULL * quint64(salt + 1)), 16, 16, QLatin1Char('0'));
    }
    StorageCase c_;
    std::vector<LeaseRow> leases_;
    std::vector<SessionRow> sessions_;
    std::vector<AdvisoryLockRow> locks_;
};

QJsonObject runStorage(const StorageCase& c)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.sqlite"));
    HistoryOptions o;
    o.profile = QStringLiteral("bench");
    o.path = path;
    double now = 0; // retention by age follows the synthetic server time
    o.wallClockMs = [&now] { return qint64(now * 1000); };
    Load load(c);
    std::fprintf(stderr, "%s: %d leases, %d renewals/s, %d refreshes (renewed every %d s, TTL %.0f s)\n",
                 qPrintable(c.name), c.leases, c.renewalsPerSecond, c.seconds, load.period(), load.ttlS());
    QJsonArray hourly;
    double writeMs = 0;
    HistoryWriter::Stats stats;
    qint64 used = 0;
    {
        FedWriter w(o);
        if (!w.isOpen())
            throw std::runtime_error(w.errorString().toStdString());
        const auto t0 = Clock::now();
        for (int t = 0; t < c.seconds; ++t) {
            Snapshot s = load.at(t);
            now = s.serverNow;
            const auto w0 = Clock::now();
            if (!w.write(s))
                throw std::runtime_error(w.errorString().toStdString());
            writeMs += std::chrono::duration<double, std::milli>(Clock::now() - w0).count();
            if ((t + 1) % 3600 == 0 || t + 1 == c.seconds) {
                const double mb = mib(storeBytes(path));
                std::fprintf(stderr, "  %6.2f h  store %7.1f MiB (used %7.1f)  %.0f s elapsed, write %.2f ms/refresh\n",
                             (t + 1) / 3600.0, mb, mib(w.usedBytes()),
                             std::chrono::duration<double>(Clock::now() - t0).count(), writeMs / (t + 1));
                hourly.append(QJsonObject{{QStringLiteral("hours"), (t + 1) / 3600.0}, {QStringLiteral("mib"), mb}});
            }
        }
        stats = w.stats();
        used = w.usedBytes();
    }
    // Closed (counted renewals written): what is on disk, and what it still holds.
    const qint64 bytes = storeBytes(path);
    if (!c.bundle.isEmpty()) {
        // The last two hours as an incident bundle, to look at (leasewatch --open-bundle FILE).
        HistoryReader r(path);
        const auto range = r.range();
        QString err;
        if (!r.exportBundle(c.bundle, std::max(range.from, range.to - 7200), range.to, {}, &err))
            throw std::runtime_error(err.toStdString());
        std::fprintf(stderr, "  bundle of the last two hours: %s (%.1f MiB)\n", qPrintable(c.bundle),
                     mib(QFileInfo(c.bundle).size()));
    }
    QJsonObject rows;
    double oldest = 0;
    {
        StorePeek p(path);
        for (const char* table : {"refresh", "blob", "lease", "lease_change", "group_sample", "cluster_sample",
                                  "finding", "pool_group"})
            rows.insert(QLatin1String(table), p.value(QStringLiteral("SELECT count(*) FROM %1").arg(QLatin1String(table))));
        oldest = double(p.value(QStringLiteral("SELECT CAST(min(at) AS INTEGER) FROM refresh")));
    }
    const bool whole = oldest <= Load::kStart + 0.5;
    std::fprintf(stderr, "  closed: %.1f MiB on disk (used %.1f); holds the whole run: %s (oldest refresh at +%.0f s)\n",
                 mib(bytes), mib(used), whole ? "yes" : "NO", oldest - Load::kStart);
    std::fprintf(stderr, "  rows:");
    for (auto it = rows.begin(); it != rows.end(); ++it)
        std::fprintf(stderr, " %s %lld", qPrintable(it.key()), qlonglong(it.value().toInteger()));
    std::fprintf(stderr, "\n  renewals counted (not rows) %lld, lease rows written %lld, refreshes thinned %lld "
                         "(rows %lld), rows deleted by retention %lld\n",
                 qlonglong(stats.renewalsCounted), qlonglong(stats.leaseRows), qlonglong(stats.thinnedRefreshes),
                 qlonglong(stats.thinnedRows), qlonglong(stats.deletedRows));
    return {{QStringLiteral("case"), c.name},
            {QStringLiteral("leases"), c.leases},
            {QStringLiteral("renewals_per_second"), c.renewalsPerSecond},
            {QStringLiteral("seconds"), c.seconds},
            {QStringLiteral("store_mib"), mib(bytes)},
            {QStringLiteral("used_mib"), mib(used)},
            {QStringLiteral("holds_whole_run"), whole},
            {QStringLiteral("write_ms_per_refresh"), writeMs / c.seconds},
            {QStringLiteral("renewals_counted"), stats.renewalsCounted},
            {QStringLiteral("lease_rows"), stats.leaseRows},
            {QStringLiteral("deleted_by_retention"), stats.deletedRows},
            {QStringLiteral("rows"), rows},
            {QStringLiteral("hourly"), hourly}};
}

QJsonObject runCpu(int leases, int seconds, const QString& clusterDir)
{
    // Longer than one round of renewals (1 % a second: 100 s), so that every lease's first renewal
    // (written as a row: it starts the count) is behind; what is measured is the steady state.
    const int warmup = 130;
    std::fprintf(stderr, "cpu: %d leases, 1 %% renewed per second; warm-up %d s, measured %d s\n", leases, warmup,
                 seconds);
    const bench::ProcessFigures f = bench::measureConsoleProcess(QStringLiteral(LEASEWATCH_BIN), {QStringLiteral("record")},
                                                                 leases, warmup, seconds, clusterDir);
    std::fprintf(stderr, "  recorder CPU %.2f s over %.1f s: %.2f %% of one core; resident %.1f MiB; store %.1f MiB\n",
                 f.cpuSeconds, f.seconds, f.cpuPercent, f.residentMiB, f.storeMiB);
    return {{QStringLiteral("case"), QStringLiteral("cpu")},
            {QStringLiteral("leases"), leases},
            {QStringLiteral("seconds"), f.seconds},
            {QStringLiteral("cpu_seconds"), f.cpuSeconds},
            {QStringLiteral("cpu_percent_of_one_core"), f.cpuPercent},
            {QStringLiteral("resident_mib"), f.residentMiB},
            {QStringLiteral("store_mib"), f.storeMiB}};
}

int usage()
{
    std::fprintf(stderr, "usage: leasewatch-history-bench storage day|hour|smoke [--json] [--bundle FILE]\n"
                         "       leasewatch-history-bench cpu [--seconds N] [--leases N] [--cluster-dir DIR] [--json]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.isEmpty())
        return usage();
    bool json = false;
    int seconds = 120, leases = 10000;
    QString clusterDir, bundle;
    QStringList positional;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == QLatin1String("--json"))
            json = true;
        else if (a == QLatin1String("--seconds") && i + 1 < args.size())
            seconds = args[++i].toInt();
        else if (a == QLatin1String("--leases") && i + 1 < args.size())
            leases = args[++i].toInt();
        else if (a == QLatin1String("--cluster-dir") && i + 1 < args.size())
            clusterDir = args[++i];
        else if (a == QLatin1String("--bundle") && i + 1 < args.size())
            bundle = args[++i];
        else if (a.startsWith(QLatin1String("--")))
            return usage();
        else
            positional << a;
    }
    try {
        QJsonObject out;
        if (positional.value(0) == QLatin1String("storage")) {
            const QString which = positional.value(1);
            StorageCase c;
            c.name = which;
            if (which == QLatin1String("day"))
                c.leases = 10000, c.renewalsPerSecond = 100, c.seconds = 86400;
            else if (which == QLatin1String("hour"))
                c.leases = 100000, c.renewalsPerSecond = 1000, c.seconds = 3600;
            else if (which == QLatin1String("smoke"))
                c.leases = 1000, c.renewalsPerSecond = 10, c.seconds = 1800;
            else
                return usage();
            c.bundle = bundle;
            out = runStorage(c);
        } else if (positional.value(0) == QLatin1String("cpu")) {
            out = runCpu(leases, seconds, clusterDir);
        } else {
            return usage();
        }
        if (json)
            std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Indented).constData());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "leasewatch-history-bench: %s\n", e.what());
        return 2;
    }
}
