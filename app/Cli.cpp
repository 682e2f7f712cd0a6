#include "Cli.h"

#include "feed/FeedServer.h"
#include "Language.h"
#include "MetricsServer.h"

#include "domain/Findings.h"
#include "itemmodels/LeaseModel.h"
#include "domain/SnapshotFormat.h"
#include "domain/Secrets.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QTextStream>

namespace lw::app {

namespace {

// The command line's words: parsed first in English, and again in the chosen language once a
// QCoreApplication holds the translators (main.cpp), for --help and the errors.
struct CliWords
{
    Q_DECLARE_TR_FUNCTIONS(lw::Cli)
};

enum class Command { Window, Snapshot, Watch, Record, Bundle, Expire };

const char* commandName(Command c)
{
    switch (c) {
    case Command::Snapshot:
        return "snapshot";
    case Command::Watch:
        return "watch";
    case Command::Record:
        return "record";
    case Command::Bundle:
        return "bundle";
    case Command::Expire:
        return "expire";
    case Command::Window:
        break;
    }
    return "";
}

// Every option once; each command's parser takes the ones it has, so that an option given to a
// command it means nothing to is an error, and each command's --help lists only its own.
struct Options
{
    QCommandLineOption help{{QStringLiteral("h"), QStringLiteral("help")}, CliWords::tr("Show this help.")};
    QCommandLineOption version{{QStringLiteral("v"), QStringLiteral("version")}, CliWords::tr("Show the version.")};
    // The window
    QCommandLineOption demo{QStringLiteral("demo"), CliWords::tr("Run the embedded demo.")};
    QCommandLineOption fleet{QStringLiteral("fleet"), CliWords::tr("Open every saved profile at a glance, worst first.")};
    QCommandLineOption openBundle{QStringLiteral("open-bundle"),
                                  CliWords::tr("Open an incident bundle (or a history store) offline, read-only."),
                                  QStringLiteral("file")};
    QCommandLineOption screenshots{QStringLiteral("screenshots"),
                                   CliWords::tr("Save a PNG of every page into DIR before quitting."),
                                   QStringLiteral("dir")};
    QCommandLineOption quitAfter{QStringLiteral("quit-after"),
                                 CliWords::tr("Quit by itself after SECONDS (with --screenshots: take them then)."),
                                 QStringLiteral("seconds")};
    // How a database is watched (the window, snapshot, watch, record, expire)
    QCommandLineOption preset{QStringLiteral("preset"),
                              CliWords::tr("Leases table preset (read only this table): default, shedlock, river, "
                                             "oban, quartz, db-scheduler, graphile-worker, graphile-worker-queue, "
                                             "liquibase."),
                              QStringLiteral("name"), QStringLiteral("default")};
    QCommandLineOption noDetect{QStringLiteral("no-detect"),
                                CliWords::tr("Do not look for library lease tables; read public.leases (or the table "
                                               "named) only.")};
    QCommandLineOption table{QStringLiteral("table"),
                             CliWords::tr("Leases table as [schema.]table (default public.leases)."),
                             QStringLiteral("table")};
    QCommandLineOption columns{QStringLiteral("columns"),
                               CliWords::tr("Leases table columns: name,holder,taken_at,expires_at."),
                               QStringLiteral("list")};
    QCommandLineOption timeKind{
        QStringLiteral("time-kind"),
        CliWords::tr("How the time columns store time: timestamptz, utc (naive UTC) or a zone name."),
        QStringLiteral("kind")};
    QCommandLineOption ttl{QStringLiteral("ttl"), CliWords::tr("Lease TTL in seconds (default: inferred from renewals)."),
                           QStringLiteral("seconds")};
    QCommandLineOption interval{QStringLiteral("interval"),
                                CliWords::tr("Refresh interval in milliseconds (default 1000)."), QStringLiteral("ms"),
                                QStringLiteral("1000")};
    QCommandLineOption operatorMode{
        QStringLiteral("operator"),
        CliWords::tr("Operator mode: allow force-expire and cancel/terminate (off by default).")};
    QCommandLineOption auditTable{QStringLiteral("audit-table"),
                                  CliWords::tr("Operator mode: also record each change in this server-side table "
                                                 "([schema.]table), in the same transaction."),
                                  QStringLiteral("table")};
    QCommandLineOption lockNames{
        QStringLiteral("lock-names"),
        CliWords::tr("Known advisory lock names or patterns (%Y %m %d), comma-separated, to resolve keys."),
        QStringLiteral("list")};
    QCommandLineOption poolSize{QStringLiteral("pool-size"),
                                CliWords::tr("Configured pool size of an application: NAME=N (repeatable)."),
                                QStringLiteral("name=n")};
    QCommandLineOption pgbouncer{
        QStringLiteral("pgbouncer"),
        CliWords::tr("Also watch this PgBouncer admin console (e.g. \"host=… port=6432 dbname=pgbouncer\")."),
        QStringLiteral("dsn")};
    // One command's
    QCommandLineOption json{QStringLiteral("json"), CliWords::tr("Print JSON.")};
    QCommandLineOption count{QStringLiteral("count"),
                             CliWords::tr("Stop after N refreshes (default: until interrupted)."), QStringLiteral("n")};
    QCommandLineOption metrics{QStringLiteral("metrics"),
                               CliWords::tr("Serve Prometheus metrics at http://ADDR:PORT/metrics (ADDR 127.0.0.1 "
                                              "unless given; 0.0.0.0 binds every interface)."),
                               QStringLiteral("[ADDR:]PORT")};
    QCommandLineOption minutes{QStringLiteral("minutes"),
                               CliWords::tr("The last N minutes recorded (default 60)."), QStringLiteral("N")};
    QCommandLineOption holder{QStringLiteral("holder"), CliWords::tr("The holder the lease must still have."),
                              QStringLiteral("holder")};
    QCommandLineOption serve{
        QStringLiteral("serve"),
        CliWords::tr("Also offer the live refreshes over TCP at ADDR:PORT (127.0.0.1 unless given) to viewers that "
                       "present the token (leasewatch feed://HOST:PORT); TLS through a reverse proxy."),
        QStringLiteral("[ADDR:]PORT")};
    QCommandLineOption token{QStringLiteral("token"),
                             CliWords::tr("The feed's token file (default ~/.local/share/Leasewatch/leasewatch/"
                                            "feed.token): the recorder writes it, a feed:// viewer presents it."),
                             QStringLiteral("file")};
    QCommandLineOption direct{
        QStringLiteral("direct"),
        CliWords::tr("Connect to the database even when `leasewatch record` watches it (by default a window or "
                       "watch reads the recorder's live refreshes: one connection for all).")};
    QCommandLineOption lang{QStringLiteral("lang"),
                            CliWords::tr("The language of what it shows and prints: de or en (default: the "
                                           "window's setting, else LC_ALL, LC_MESSAGES or LANG)."),
                            QStringLiteral("de|en")};
    QCommandLineOption evenIfAlive{
        QStringLiteral("even-if-alive"),
        CliWords::tr("Go ahead although the holder may be alive (the window's second confirmation).")};

    QList<QCommandLineOption> database() const
    {
        return {preset, noDetect, table, columns, timeKind, ttl, interval, operatorMode, auditTable, lockNames,
                poolSize, pgbouncer};
    }
    QList<QCommandLineOption> all() const
    {
        return QList<QCommandLineOption>{help, version, demo, fleet, openBundle, screenshots, quitAfter} + database() +
               QList<QCommandLineOption>{json, count, metrics, minutes, holder, evenIfAlive, direct, serve, token, lang};
    }
    QList<QCommandLineOption> of(Command c) const
    {
        QList<QCommandLineOption> out{help, lang};
        switch (c) {
        case Command::Window:
            out << version << demo << fleet << openBundle << screenshots << quitAfter << direct << token << database();
            break;
        case Command::Snapshot:
            out << database() << json;
            break;
        case Command::Watch:
            out << database() << json << count << direct << token;
            break;
        case Command::Record:
            out << database() << metrics << serve << token;
            break;
        case Command::Bundle:
            out << minutes;
            break;
        case Command::Expire:
            out << database() << holder << evenIfAlive;
            break;
        }
        return out;
    }
};

QString description(Command c)
{
    switch (c) {
    case Command::Window:
        return CliWords::tr(
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
            "                                         --metrics [ADDR:]PORT also serves Prometheus /metrics;\n"
            "                                         windows and watch on this machine read its live refreshes\n"
            "                                         (one connection for all; --direct connects anyway);\n"
            "                                         --serve [ADDR:]PORT offers them over TCP, with a token\n"
            "  leasewatch feed://HOST:PORT[/NAME]    open a window on a recorder's live feed (--token FILE)\n"
            "  leasewatch bundle PROFILE|DSN FILE [--minutes N]\n"
            "                                         cut an incident bundle of the last N minutes (60)\n"
            "                                         from its recorded history\n"
            "  leasewatch expire PROFILE|DSN NAME --holder HOLDER\n"
            "                                         force-expire a stale lease (operator mode only); exit 0\n"
            "                                         only when the lease was expired\n\n"
            "leasewatch COMMAND --help lists a command's options. Profiles are kept in "
            "~/.config/Leasewatch/leasewatch/profiles.json (File > Profiles…).");
    case Command::Snapshot:
        return CliWords::tr("leasewatch snapshot PROFILE|DSN... [--json]: print one refresh of each database and "
                              "exit (no display needed); several: one line per database first, worst first.");
    case Command::Watch:
        return CliWords::tr("leasewatch watch PROFILE|DSN... [--json]: print each database's refresh again at every "
                              "refresh (no display needed), until interrupted or --count refreshes.");
    case Command::Record:
        return CliWords::tr("leasewatch record PROFILE|DSN...: record each database's history continuously, "
                              "headless (systemd: leasewatch-record@PROFILE.service).");
    case Command::Bundle:
        return CliWords::tr("leasewatch bundle PROFILE|DSN FILE [--minutes N]: cut an incident bundle of the last N "
                              "minutes from the database's recorded history.");
    case Command::Expire:
        return CliWords::tr("leasewatch expire PROFILE|DSN NAME --holder HOLDER: force-expire a stale lease "
                              "(operator mode only); exit 0 only when the lease was expired.");
    }
    return {};
}

// The command named by the first positional argument (the window when it names none).
Command commandOf(const QCommandLineParser& p)
{
    const QString verb = p.positionalArguments().value(0);
    for (Command c : {Command::Snapshot, Command::Watch, Command::Record, Command::Bundle, Command::Expire})
        if (verb == QLatin1String(commandName(c)))
            return c;
    return Command::Window;
}

// A database as the window resolves its argument: a stored profile of that name with the command
// line's options over it, or a DSN with those options. An error says what is wrong.
struct Database
{
    QString dsn;
    PollerConfig config;
    std::optional<Profile> profile;
    QString pgbouncerDsn;
};
std::optional<QString> resolveDatabase(const QCommandLineParser& p, const Options& o, const QString& name,
                                       const ProfileStore* profiles, Database& d)
{
    d.dsn = name;
    if (profiles && !name.isEmpty())
        d.profile = profiles->find(name);
    if (d.profile) {
        d.config = d.profile->toPollerConfig();
        d.dsn = d.config.connect.dsn;
    }
    if (!d.profile || p.isSet(o.preset)) {
        const auto lt = LeaseTableConfig::preset(p.value(o.preset));
        if (!lt)
            return CliWords::tr("unknown preset \"%1\" (known: %2)")
                .arg(p.value(o.preset), LeaseTableConfig::presetNames().join(QStringLiteral(", ")));
        d.config.leases = *lt;
    }
    if (p.isSet(o.table))
        d.config.leases.setQualifiedName(p.value(o.table));
    if (p.isSet(o.columns) && !d.config.leases.setColumns(p.value(o.columns)))
        return CliWords::tr("--columns needs four names: name,holder,taken_at,expires_at");
    if (p.isSet(o.timeKind) && !d.config.leases.setTimeKind(p.value(o.timeKind)))
        return CliWords::tr("--time-kind needs timestamptz, utc or a time zone name");
    // A table named on the command line is the one to read, found or not (no detection).
    if (p.isSet(o.preset) || p.isSet(o.table) || p.isSet(o.columns) || p.isSet(o.timeKind))
        d.config.leases.named = true;
    if (p.isSet(o.noDetect))
        d.config.detectLeaseTable = false;
    bool ok = false;
    if (p.isSet(o.ttl)) {
        const double v = p.value(o.ttl).toDouble(&ok);
        if (!ok || v <= 0)
            return CliWords::tr("--ttl must be a positive number of seconds");
        d.config.leases.ttlSeconds = v;
    }
    if (!d.profile || p.isSet(o.interval)) {
        d.config.intervalMs = p.value(o.interval).toInt(&ok);
        if (!ok || d.config.intervalMs < 100)
            return CliWords::tr("--interval must be a number of milliseconds >= 100");
    }
    d.config.operatorMode = d.config.operatorMode || p.isSet(o.operatorMode);
    if (p.isSet(o.auditTable))
        d.config.auditTable = p.value(o.auditTable);
    if (p.isSet(o.lockNames))
        d.config.lockNames = p.value(o.lockNames).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& ps : p.values(o.poolSize)) {
        const auto size = parsePoolSize(ps);
        if (!size)
            return CliWords::tr("--pool-size needs NAME=N with N > 0");
        d.config.analysis.poolSizes.insert(size->first, size->second);
    }
    d.pgbouncerDsn = p.isSet(o.pgbouncer) ? p.value(o.pgbouncer) : d.profile ? d.profile->pgbouncerDsn : QString();
    d.config.connect.dsn = d.dsn;
    return std::nullopt;
}

// The invocation's database (`name`) and, for several, each one as a target of its own.
std::optional<QString> resolveTargets(const QCommandLineParser& p, const Options& o, const QStringList& names,
                                      bool asTargets, const ProfileStore* profiles, Invocation& inv)
{
    Database first;
    if (auto bad = resolveDatabase(p, o, names.value(0), profiles, first))
        return bad;
    inv.dsn = first.dsn;
    inv.config = first.config;
    inv.profile = first.profile;
    inv.pgbouncerDsn = first.pgbouncerDsn;
    if (!asTargets)
        return std::nullopt;
    for (const QString& name : names) {
        Database d;
        if (auto bad = resolveDatabase(p, o, name, profiles, d))
            return CliWords::tr("%1: %2").arg(redactDsn(name), *bad);
        if (auto invalid = pg::validateDsn(d.dsn))
            return CliWords::tr("%1: %2").arg(redactDsn(name), invalid->toDisplayString());
        Invocation::Target t;
        t.config = d.config;
        if (d.profile) {
            t.label = d.profile->name;
            t.storeName = d.profile->name;
            t.historyDays = d.profile->historyDays;
            t.historyMb = d.profile->historyMb;
        } else {
            t.label = redactDsn(name);
            t.storeName = dsnStoreName(name);
        }
        for (const Invocation::Target& other : inv.targets)
            if (other.label == t.label)
                return CliWords::tr("%1 is named twice").arg(t.label);
        inv.targets.push_back(std::move(t));
    }
    return std::nullopt;
}

// A feed://HOST:PORT[/NAME] target (a window, a watch): the recorder's refreshes, no connection.
std::optional<QString> resolveFeed(const QCommandLineParser& p, const Options& o, Invocation& inv)
{
    // A profile "via recorder": its feed, and its DSN for operator actions (--direct: the DSN only).
    if (inv.profile && !inv.profile->viaRecorder.trimmed().isEmpty() && !inv.direct) {
        inv.feed = feed::FeedSource::parseUrl(inv.profile->viaRecorder.trimmed());
        if (!inv.feed)
            return CliWords::tr("profile \"%1\": \"via recorder\" must be feed://HOST:PORT[/NAME]").arg(inv.profile->name);
        inv.feed->tokenFile = p.isSet(o.token) ? p.value(o.token) : feed::defaultTokenPath();
        return std::nullopt;
    }
    if (!inv.dsn.startsWith(QLatin1String("feed://")))
        return std::nullopt;
    std::optional<feed::FeedSource> src = feed::FeedSource::parseUrl(inv.dsn);
    if (!src)
        return CliWords::tr("%1 is not a feed address: feed://HOST:PORT or feed://HOST:PORT/NAME (NAME: the "
                              "database as the recorder names it)")
            .arg(inv.dsn);
    if (inv.direct)
        return CliWords::tr("--direct connects to a database; a feed:// address has none");
    if (inv.config.operatorMode)
        return CliWords::tr("operator actions go to the database, which a feed:// address does not name: open a "
                              "profile whose \"via recorder\" is this feed");
    src->tokenFile = p.isSet(o.token) ? p.value(o.token) : feed::defaultTokenPath();
    inv.feed = std::move(src);
    inv.config.connect.dsn.clear(); // nothing to connect to: operator actions need a profile's DSN
    return std::nullopt;
}

std::optional<QString> parseWindow(const QCommandLineParser& p, const Options& o, const QStringList& pos,
                                   const ProfileStore* profiles, Invocation& inv)
{
    if (p.isSet(o.openBundle)) {
        inv.mode = Invocation::Mode::Bundle;
        inv.bundleFile = p.value(o.openBundle);
    } else if (p.isSet(o.fleet)) {
        if (!pos.isEmpty())
            return CliWords::tr("--fleet shows every saved profile; it takes no profile or DSN");
        inv.mode = Invocation::Mode::Fleet;
    } else if (p.isSet(o.demo)) {
        inv.mode = Invocation::Mode::Demo;
    } else if (pos.isEmpty()) {
        inv.mode = Invocation::Mode::GuiAsk; // started from the desktop menu: the window asks for a profile
    } else if (pos.size() != 1) {
        return CliWords::tr("one profile name or DSN expected, got %1 arguments").arg(pos.size());
    } else {
        inv.mode = Invocation::Mode::Gui;
    }
    inv.screenshotDir = p.value(o.screenshots);
    inv.direct = p.isSet(o.direct);
    bool ok = false;
    if (p.isSet(o.quitAfter)) {
        inv.quitAfterS = p.value(o.quitAfter).toDouble(&ok);
        if (!ok || inv.quitAfterS <= 0)
            return CliWords::tr("--quit-after must be a positive number of seconds");
    } else if (!inv.screenshotDir.isEmpty()) {
        inv.quitAfterS = 5;
    }
    if (auto bad = resolveTargets(p, o, pos, false, profiles, inv))
        return bad;
    return resolveFeed(p, o, inv);
}

std::optional<QString> parseSnapshotOrWatch(const QCommandLineParser& p, const Options& o, Command c,
                                            const QStringList& pos, const ProfileStore* profiles, Invocation& inv)
{
    inv.mode = c == Command::Watch ? Invocation::Mode::Watch : Invocation::Mode::Snapshot;
    if (pos.isEmpty())
        return CliWords::tr("%1 needs one or more profile names or DSNs (leasewatch %1 \"host=… dbname=…\")")
            .arg(QLatin1String(commandName(c)));
    inv.json = p.isSet(o.json);
    inv.direct = c == Command::Watch && p.isSet(o.direct);
    if (c == Command::Watch && p.isSet(o.count)) {
        bool ok = false;
        inv.watchCount = p.value(o.count).toInt(&ok);
        if (!ok || inv.watchCount <= 0)
            return CliWords::tr("--count must be a positive number of refreshes");
    }
    // Several databases: one line each first, then each one's refresh.
    if (auto bad = resolveTargets(p, o, pos, pos.size() > 1, profiles, inv))
        return bad;
    if (c == Command::Snapshot && feed::FeedSource::parseUrl(inv.dsn))
        return CliWords::tr("snapshot reads the database itself; `leasewatch watch feed://…` reads a recorder's feed");
    return pos.size() == 1 ? resolveFeed(p, o, inv) : std::nullopt;
}

std::optional<QString> parseRecord(const QCommandLineParser& p, const Options& o, const QStringList& pos,
                                   const ProfileStore* profiles, Invocation& inv)
{
    inv.mode = Invocation::Mode::Record;
    if (pos.isEmpty())
        return CliWords::tr("record needs one or more profile names or DSNs (leasewatch record PROFILE…)");
    if (p.isSet(o.metrics)) {
        if (!parseMetricsAddress(p.value(o.metrics)))
            return CliWords::tr("--metrics needs [ADDR:]PORT with an IP address (127.0.0.1:9471, 0.0.0.0:9471, "
                                  "[::1]:9471)");
        inv.metrics = p.value(o.metrics);
    }
    if (p.isSet(o.serve)) {
        if (!parseMetricsAddress(p.value(o.serve)))
            return CliWords::tr("--serve needs [ADDR:]PORT with an IP address (127.0.0.1:9472, 0.0.0.0:9472, "
                                  "[::1]:9472)");
        inv.serve = p.value(o.serve);
    }
    inv.tokenFile = p.isSet(o.token) ? p.value(o.token) : feed::defaultTokenPath();
    return resolveTargets(p, o, pos, true, profiles, inv);
}

std::optional<QString> parseBundle(const QCommandLineParser& p, const Options& o, QStringList pos,
                                   const ProfileStore* profiles, Invocation& inv)
{
    inv.mode = Invocation::Mode::CutBundle;
    if (pos.size() != 2)
        return CliWords::tr("bundle needs a profile name or DSN and the file to write (leasewatch bundle PROFILE "
                              "incident.lwbundle [--minutes N])");
    inv.bundleFile = pos.takeLast();
    if (p.isSet(o.minutes)) {
        bool ok = false;
        inv.bundleMinutes = p.value(o.minutes).toInt(&ok);
        if (!ok || inv.bundleMinutes <= 0)
            return CliWords::tr("--minutes must be a positive number of minutes");
    }
    // Only which store: the profile's, or the DSN's.
    inv.dsn = pos.first();
    if (profiles)
        inv.profile = profiles->find(inv.dsn);
    if (inv.profile)
        inv.dsn = inv.profile->toPollerConfig().connect.dsn;
    return std::nullopt;
}

std::optional<QString> parseExpire(const QCommandLineParser& p, const Options& o, QStringList pos,
                                   const ProfileStore* profiles, Invocation& inv)
{
    inv.mode = Invocation::Mode::Expire;
    if (pos.size() != 2 || !p.isSet(o.holder))
        return CliWords::tr("expire needs a profile name or DSN, the lease name and --holder (leasewatch expire DSN "
                              "NAME --holder HOLDER)");
    inv.leaseName = pos.takeLast();
    inv.holder = p.value(o.holder);
    inv.evenIfAlive = p.isSet(o.evenIfAlive);
    return resolveTargets(p, o, pos, false, profiles, inv);
}

} // namespace

Invocation parseCommandLine(const QStringList& args, const ProfileStore* profiles)
{
    Invocation inv;
    const Options o;
    auto fail = [&inv](const QString& msg) {
        inv.mode = Invocation::Mode::Error;
        inv.error = msg;
        return inv;
    };
    // --lang before anything else, so that --help and the errors of the parse itself are said in it.
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--lang") && i + 1 < args.size())
            inv.language = args[i + 1].trimmed().toLower();
        else if (args[i].startsWith(QLatin1String("--lang=")))
            inv.language = args[i].mid(7).trimmed().toLower();
    }
    if (!availableLanguages().contains(inv.language))
        inv.language.clear(); // said below, once the parse has found the option
    // First with every option, to find the command; then with the command's own.
    QCommandLineParser any;
    any.addOptions(o.all());
    if (!any.parse(args))
        return fail(any.errorText() + CliWords::tr(" (see leasewatch --help)"));
    const Command c = commandOf(any);
    QCommandLineParser p;
    p.setApplicationDescription(description(c));
    p.addOptions(o.of(c));
    const QString name = QLatin1String(commandName(c));
    if (c == Command::Window)
        p.addPositionalArgument(QStringLiteral("PROFILE|DSN"),
                                CliWords::tr("Saved profile, or connection string, URI or service name."),
                                QStringLiteral("[PROFILE|DSN]"));
    else // the usage line: "leasewatch [options] snapshot PROFILE|DSN... [--json]"
        p.addPositionalArgument(name, CliWords::tr("The command."),
                                description(c).section(QLatin1Char(':'), 0, 0).mid(int(qstrlen("leasewatch "))));
    // Without a QCoreApplication (the terminal commands parse first) Qt's usage line reads
    // "<executable_name>".
    inv.helpText = p.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("leasewatch"));
    if (!p.parse(args)) {
        const QString see = c == Command::Window ? CliWords::tr("leasewatch --help")
                                                 : CliWords::tr("leasewatch %1 --help").arg(name);
        return fail(CliWords::tr("%1 (see %2)").arg(p.errorText(), see));
    }
    if (p.isSet(o.help)) {
        inv.mode = Invocation::Mode::Help;
        return inv;
    }
    if (c == Command::Window && p.isSet(o.version)) {
        inv.mode = Invocation::Mode::Version;
        return inv;
    }
    if (p.isSet(o.lang)) {
        inv.language = p.value(o.lang).trimmed().toLower();
        if (!availableLanguages().contains(inv.language))
            return fail(CliWords::tr("--lang must be de or en, not \"%1\"").arg(p.value(o.lang)));
    }
    QStringList pos = p.positionalArguments();
    if (c != Command::Window)
        pos.removeFirst();
    std::optional<QString> bad;
    switch (c) {
    case Command::Window:
        bad = parseWindow(p, o, pos, profiles, inv);
        break;
    case Command::Snapshot:
    case Command::Watch:
        bad = parseSnapshotOrWatch(p, o, c, pos, profiles, inv);
        break;
    case Command::Record:
        bad = parseRecord(p, o, pos, profiles, inv);
        break;
    case Command::Bundle:
        bad = parseBundle(p, o, pos, profiles, inv);
        break;
    case Command::Expire:
        bad = parseExpire(p, o, pos, profiles, inv);
        break;
    }
    if (bad)
        return fail(*bad);
    if (inv.mode == Invocation::Mode::Gui || inv.mode == Invocation::Mode::Snapshot ||
        inv.mode == Invocation::Mode::Watch || inv.mode == Invocation::Mode::Expire) {
        if (auto invalid = inv.feed ? std::nullopt : pg::validateDsn(inv.dsn))
            return fail(invalid->toDisplayString());
    }
    return inv;
}

} // namespace lw::app
