#include "Cli.h"
#include "MetricsServer.h"

#include "domain/Findings.h"
#include "itemmodels/LeaseModel.h"
#include "domain/SnapshotFormat.h"
#include "domain/Secrets.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QSet>
#include <QTextStream>

namespace lw::app {

Invocation parseCommandLine(const QStringList& args, const ProfileStore* profiles)
{
    Invocation inv;
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Leasewatch: live console for PostgreSQL leases, advisory locks and connection pools.\n\n"
        "  leasewatch [options] [PROFILE|DSN]     open the console on a saved profile or on DSN\n"
        "                                         (conninfo, URI or service name); none: choose a profile\n"
        "  leasewatch --fleet                     every saved profile at a glance, worst first\n"
        "  leasewatch --demo                      open the console on a throwaway demo cluster with a\n"
        "                                         simulated workload\n"
        "  leasewatch snapshot PROFILE|DSN... [--json]  print one refresh and exit (no display needed);\n"
        "                                         several: one line per database first, worst first\n"
        "  leasewatch watch PROFILE|DSN... [--json]  print it again at every refresh (no display needed)\n"
        "  leasewatch record PROFILE|DSN...      record each database's history continuously, headless\n"
        "                                         (systemd: leasewatch-record@PROFILE.service);\n"
        "                                         --metrics [ADDR:]PORT also serves Prometheus /metrics\n"
        "  leasewatch bundle PROFILE|DSN FILE [--minutes N]\n"
        "                                         cut an incident bundle of the last N minutes (60)\n"
        "                                         from its recorded history\n"
        "  leasewatch expire PROFILE|DSN NAME --holder HOLDER\n"
        "                                         force-expire a stale lease (operator mode only); exit 0\n"
        "                                         only when the lease was expired\n\n"
        "Profiles are kept in ~/.config/Leasewatch/leasewatch/profiles.json (File > Profiles…)."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")},
                                     QStringLiteral("Show the version."));
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Run the embedded demo."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("snapshot: print JSON."));
    const QCommandLineOption fleet(QStringLiteral("fleet"),
                                   QStringLiteral("Open every saved profile at a glance, worst first."));
    const QCommandLineOption preset(QStringLiteral("preset"),
                                    QStringLiteral("Leases table preset (read only this table): default, shedlock, "
                                                   "river, oban, quartz, db-scheduler, graphile-worker, "
                                                   "graphile-worker-queue, liquibase."),
                                    QStringLiteral("name"), QStringLiteral("default"));
    const QCommandLineOption noDetect(QStringLiteral("no-detect"),
                                      QStringLiteral("Do not look for library lease tables; read public.leases "
                                                     "(or the table named) only."));
    const QCommandLineOption table(QStringLiteral("table"),
                                   QStringLiteral("Leases table as [schema.]table (default public.leases)."),
                                   QStringLiteral("table"));
    const QCommandLineOption interval(QStringLiteral("interval"),
                                      QStringLiteral("Refresh interval in milliseconds (default 1000)."),
                                      QStringLiteral("ms"), QStringLiteral("1000"));
    const QCommandLineOption columns(QStringLiteral("columns"),
                                     QStringLiteral("Leases table columns: name,holder,taken_at,expires_at."),
                                     QStringLiteral("list"));
    const QCommandLineOption timeKind(
        QStringLiteral("time-kind"),
        QStringLiteral("How the time columns store time: timestamptz, utc (naive UTC) or a zone name."),
        QStringLiteral("kind"));
    const QCommandLineOption ttl(QStringLiteral("ttl"),
                                 QStringLiteral("Lease TTL in seconds (default: inferred from renewals)."),
                                 QStringLiteral("seconds"));
    const QCommandLineOption screenshots(QStringLiteral("screenshots"),
                                         QStringLiteral("Save a PNG of every page into DIR before quitting."),
                                         QStringLiteral("dir"));
    const QCommandLineOption quitAfter(QStringLiteral("quit-after"),
                                       QStringLiteral("Quit by itself after SECONDS (with --screenshots: "
                                                      "take them then)."),
                                       QStringLiteral("seconds"));
    const QCommandLineOption operatorMode(
        QStringLiteral("operator"),
        QStringLiteral("Operator mode: allow force-expire and cancel/terminate (off by default)."));
    const QCommandLineOption auditTable(
        QStringLiteral("audit-table"),
        QStringLiteral(
            "Operator mode: also record each change in this server-side table ([schema.]table), in the "
            "same transaction."),
        QStringLiteral("table"));
    const QCommandLineOption lockNames(
        QStringLiteral("lock-names"),
        QStringLiteral("Known advisory lock names or patterns (%Y %m %d), comma-separated, to resolve keys."),
        QStringLiteral("list"));
    const QCommandLineOption poolSize(
        QStringLiteral("pool-size"),
        QStringLiteral("Configured pool size of an application: NAME=N (repeatable)."),
        QStringLiteral("name=n"));
    const QCommandLineOption holder(QStringLiteral("holder"),
                                    QStringLiteral("expire: the holder the lease must still have."),
                                    QStringLiteral("holder"));
    const QCommandLineOption count(QStringLiteral("count"),
                                   QStringLiteral("watch: stop after N refreshes (default: until interrupted)."),
                                   QStringLiteral("n"));
    const QCommandLineOption evenIfAlive(
        QStringLiteral("even-if-alive"),
        QStringLiteral("expire: go ahead although the holder may be alive (the window's second confirmation)."));
    const QCommandLineOption pgbouncer(
        QStringLiteral("pgbouncer"),
        QStringLiteral("Also watch this PgBouncer admin console (e.g. \"host=… port=6432 dbname=pgbouncer\")."),
        QStringLiteral("dsn"));
    const QCommandLineOption openBundle(
        QStringLiteral("open-bundle"),
        QStringLiteral("Open an incident bundle (or a history store) offline, read-only."), QStringLiteral("file"));
    const QCommandLineOption minutes(QStringLiteral("minutes"),
                                     QStringLiteral("bundle: the last N minutes recorded (default 60)."),
                                     QStringLiteral("N"));
    const QCommandLineOption metrics(
        QStringLiteral("metrics"),
        QStringLiteral("record: serve Prometheus metrics at http://ADDR:PORT/metrics (ADDR 127.0.0.1 unless "
                       "given; 0.0.0.0 binds every interface)."),
        QStringLiteral("[ADDR:]PORT"));
    const QList<QCommandLineOption> options = {help,         version,      demo,     json,      preset,    noDetect,
                                               table,        columns,      timeKind, ttl,       interval,  screenshots,
                                               quitAfter,    operatorMode, auditTable, lockNames, poolSize, holder,
                                               count,        evenIfAlive,  pgbouncer, openBundle, metrics,   minutes,
                                               fleet};
    p.addOptions(options);
    p.addPositionalArgument(QStringLiteral("DSN"), QStringLiteral("Connection string, URI or service name."));
    // Without a QCoreApplication (the terminal commands parse first) Qt's usage line reads
    // "<executable_name>".
    inv.helpText = p.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("leasewatch"));

    if (!p.parse(args)) {
        inv.mode = Invocation::Mode::Error;
        inv.error = p.errorText() + QStringLiteral(" (see leasewatch --help)");
        return inv;
    }
    if (p.isSet(help)) {
        inv.mode = Invocation::Mode::Help;
        return inv;
    }
    if (p.isSet(version)) {
        inv.mode = Invocation::Mode::Version;
        return inv;
    }
    QStringList pos = p.positionalArguments();
    QStringList targetNames;
    auto fail = [&](const QString& msg) {
        inv.mode = Invocation::Mode::Error;
        inv.error = msg;
        return inv;
    };
    const QString verb = pos.value(0);
    if (verb == QLatin1String("snapshot") || verb == QLatin1String("watch")) {
        inv.mode = verb == QLatin1String("watch") ? Invocation::Mode::Watch : Invocation::Mode::Snapshot;
        pos.removeFirst();
        if (pos.isEmpty())
            return fail(QStringLiteral("%1 needs one or more profile names or DSNs (leasewatch %1 \"host=… "
                                       "dbname=…\")")
                            .arg(verb));
        if (pos.size() > 1) {
            targetNames = pos; // several databases: one line each first, then each one's refresh
            pos = {pos.first()};
        }
    } else if (verb == QLatin1String("record")) {
        inv.mode = Invocation::Mode::Record;
        pos.removeFirst();
        if (pos.isEmpty())
            return fail(QStringLiteral("record needs one or more profile names or DSNs (leasewatch record PROFILE…)"));
        targetNames = pos;
        pos = {pos.first()}; // the options below are built for the first; the others follow it
    } else if (verb == QLatin1String("bundle")) {
        inv.mode = Invocation::Mode::CutBundle;
        pos.removeFirst();
        if (pos.size() != 2)
            return fail(QStringLiteral("bundle needs a profile name or DSN and the file to write "
                                       "(leasewatch bundle PROFILE incident.lwbundle [--minutes N])"));
        inv.bundleFile = pos.takeLast();
        if (p.isSet(minutes)) {
            bool ok = false;
            inv.bundleMinutes = p.value(minutes).toInt(&ok);
            if (!ok || inv.bundleMinutes <= 0)
                return fail(QStringLiteral("--minutes must be a positive number of minutes"));
        }
    } else if (verb == QLatin1String("expire")) {
        inv.mode = Invocation::Mode::Expire;
        pos.removeFirst();
        if (pos.size() != 2 || !p.isSet(holder))
            return fail(QStringLiteral("expire needs a profile name or DSN, the lease name and --holder "
                                       "(leasewatch expire DSN NAME --holder HOLDER)"));
        inv.leaseName = pos.takeLast();
        inv.holder = p.value(holder);
        inv.evenIfAlive = p.isSet(evenIfAlive);
    } else if (p.isSet(openBundle)) {
        inv.mode = Invocation::Mode::Bundle;
        inv.bundleFile = p.value(openBundle);
    } else if (p.isSet(fleet)) {
        if (!pos.isEmpty())
            return fail(QStringLiteral("--fleet shows every saved profile; it takes no profile or DSN"));
        inv.mode = Invocation::Mode::Fleet;
    } else if (p.isSet(demo)) {
        inv.mode = Invocation::Mode::Demo;
    } else if (pos.isEmpty()) {
        // Started from the desktop menu: the window asks for a profile.
        inv.mode = Invocation::Mode::GuiAsk;
    } else if (pos.size() != 1) {
        return fail(QStringLiteral("one profile name or DSN expected, got %1 arguments").arg(pos.size()));
    }
    inv.dsn = pos.value(0);
    inv.json = p.isSet(json);

    // A stored profile of that name comes first; the options given on the command line override it.
    std::optional<Profile> profile;
    if (profiles && !inv.dsn.isEmpty())
        profile = profiles->find(inv.dsn);
    if (profile) {
        inv.profile = *profile;
        inv.config = profile->toPollerConfig();
        inv.dsn = inv.config.connect.dsn;
    }
    if (!profile || p.isSet(preset)) {
        const auto lt = LeaseTableConfig::preset(p.value(preset));
        if (!lt)
            return fail(QStringLiteral("unknown preset \"%1\" (known: %2)")
                            .arg(p.value(preset), LeaseTableConfig::presetNames().join(QStringLiteral(", "))));
        inv.config.leases = *lt;
    }
    if (p.isSet(table))
        inv.config.leases.setQualifiedName(p.value(table));
    if (p.isSet(columns) && !inv.config.leases.setColumns(p.value(columns)))
        return fail(QStringLiteral("--columns needs four names: name,holder,taken_at,expires_at"));
    if (p.isSet(timeKind) && !inv.config.leases.setTimeKind(p.value(timeKind)))
        return fail(QStringLiteral("--time-kind needs timestamptz, utc or a time zone name"));
    // A table named on the command line is the one to read, found or not (no detection).
    if (p.isSet(preset) || p.isSet(table) || p.isSet(columns) || p.isSet(timeKind))
        inv.config.leases.named = true;
    if (p.isSet(noDetect))
        inv.config.detectLeaseTable = false;
    bool ok = false;
    if (p.isSet(ttl)) {
        const double v = p.value(ttl).toDouble(&ok);
        if (!ok || v <= 0)
            return fail(QStringLiteral("--ttl must be a positive number of seconds"));
        inv.config.leases.ttlSeconds = v;
    }
    if (!profile || p.isSet(interval)) {
        inv.config.intervalMs = p.value(interval).toInt(&ok);
        if (!ok || inv.config.intervalMs < 100)
            return fail(QStringLiteral("--interval must be a number of milliseconds >= 100"));
    }
    inv.config.operatorMode = inv.config.operatorMode || p.isSet(operatorMode);
    if (p.isSet(auditTable))
        inv.config.auditTable = p.value(auditTable);
    if (p.isSet(lockNames))
        inv.config.lockNames = p.value(lockNames).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& ps : p.values(poolSize)) {
        const auto size = parsePoolSize(ps);
        if (!size)
            return fail(QStringLiteral("--pool-size needs NAME=N with N > 0"));
        inv.config.analysis.poolSizes.insert(size->first, size->second);
    }
    if (p.isSet(count)) {
        inv.watchCount = p.value(count).toInt(&ok);
        if (!ok || inv.watchCount <= 0)
            return fail(QStringLiteral("--count must be a positive number of refreshes"));
    }
    inv.pgbouncerDsn = p.isSet(pgbouncer) ? p.value(pgbouncer) : profile ? profile->pgbouncerDsn : QString();
    inv.screenshotDir = p.value(screenshots);
    if (p.isSet(quitAfter)) {
        inv.quitAfterS = p.value(quitAfter).toDouble(&ok);
        if (!ok || inv.quitAfterS <= 0)
            return fail(QStringLiteral("--quit-after must be a positive number of seconds"));
    } else if (!inv.screenshotDir.isEmpty()) {
        inv.quitAfterS = 5;
    }
    inv.config.connect.dsn = inv.dsn;
    if (p.isSet(metrics)) {
        if (inv.mode != Invocation::Mode::Record)
            return fail(QStringLiteral("--metrics is for record (leasewatch record PROFILE --metrics 9471)"));
        if (!parseMetricsAddress(p.value(metrics)))
            return fail(QStringLiteral("--metrics needs [ADDR:]PORT with an IP address (127.0.0.1:9471, "
                                       "0.0.0.0:9471, [::1]:9471)"));
        inv.metrics = p.value(metrics);
    }
    if (!targetNames.isEmpty()) {
        // Each database is resolved exactly as the window resolves its argument: a stored profile
        // with the command line's options over it, or a DSN with those options. So the options
        // are parsed again for each, without the positional arguments.
        QSet<QString> takesValue;
        for (const QCommandLineOption& o : options)
            if (!o.valueName().isEmpty())
                for (const QString& n : o.names())
                    takesValue.insert(n);
        QStringList optionArgs{args.value(0)};
        for (int i = 1; i < args.size(); ++i) {
            const QString& a = args[i];
            if (a == QLatin1String("--"))
                break;
            if (!a.startsWith(QLatin1Char('-')) || a == QLatin1String("-"))
                continue; // a positional argument
            const QString name = a.mid(a.startsWith(QLatin1String("--")) ? 2 : 1);
            const bool separateValue = !name.contains(QLatin1Char('=')) && takesValue.contains(name) && i + 1 < args.size();
            if (name.section(QLatin1Char('='), 0, 0) == QLatin1String("metrics")) { // the recorder's, not a database's
                i += separateValue ? 1 : 0;
                continue;
            }
            optionArgs << a;
            if (separateValue)
                optionArgs << args[++i];
        }
        for (const QString& name : targetNames) {
            const Invocation one = parseCommandLine(optionArgs + QStringList{name}, profiles);
            if (one.mode == Invocation::Mode::Error)
                return fail(QStringLiteral("%1: %2").arg(redactDsn(name), one.error));
            Invocation::Target t;
            t.config = one.config;
            if (one.profile) {
                t.label = one.profile->name;
                t.storeName = one.profile->name;
                t.historyDays = one.profile->historyDays;
                t.historyMb = one.profile->historyMb;
            } else {
                t.label = redactDsn(name);
                t.storeName = dsnStoreName(name);
            }
            for (const Invocation::Target& other : inv.targets)
                if (other.label == t.label)
                    return fail(QStringLiteral("%1 is named twice").arg(t.label));
            inv.targets.push_back(std::move(t));
        }
    }
    if (inv.mode == Invocation::Mode::Gui || inv.mode == Invocation::Mode::Snapshot ||
        inv.mode == Invocation::Mode::Watch || inv.mode == Invocation::Mode::Expire) {
        if (auto bad = pg::validateDsn(inv.dsn)) {
            inv.mode = Invocation::Mode::Error;
            inv.error = bad->toDisplayString();
        }
    }
    return inv;
}

} // namespace lw::app
