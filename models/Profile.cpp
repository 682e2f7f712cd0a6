#include "Profile.h"
#include "domain/Words.h"

#include "feed/FeedClient.h"

#include "pg/PgHandles.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

namespace lw {

namespace {

// libpq's conninfo quoting: single quotes around values with spaces/quotes, backslash escapes.
QString conninfoValue(const QString& v)
{
    QString q = v;
    q.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('\''), QStringLiteral("\\'"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

QJsonArray toArray(const QStringList& l)
{
    return QJsonArray::fromStringList(l);
}

QStringList toStringList(const QJsonValue& v)
{
    QStringList out;
    for (const QJsonValue& x : v.toArray())
        out << x.toString();
    return out;
}

const char* groupByText(GroupBy g)
{
    switch (g) {
    case GroupBy::ClientInstance:
        return "client";
    case GroupBy::ApplicationName:
        return "application";
    case GroupBy::User:
        return "user";
    case GroupBy::Database:
        return "database";
    }
    return "client";
}

GroupBy groupByFrom(const QString& s)
{
    if (s == QLatin1String("application"))
        return GroupBy::ApplicationName;
    if (s == QLatin1String("user"))
        return GroupBy::User;
    if (s == QLatin1String("database"))
        return GroupBy::Database;
    return GroupBy::ClientInstance;
}

} // namespace

std::optional<std::pair<QString, int>> parsePoolSize(const QString& spec)
{
    const auto eq = spec.lastIndexOf(QLatin1Char('='));
    bool ok = false;
    const int n = eq > 0 ? spec.mid(eq + 1).trimmed().toInt(&ok) : 0;
    if (!ok || n <= 0)
        return std::nullopt;
    return std::make_pair(spec.left(eq).trimmed(), n);
}

bool conninfoHasPassword(const QString& dsn)
{
    const QByteArray utf8 = dsn.trimmed().toUtf8();
    if (utf8.isEmpty())
        return false;
    char* err = nullptr;
    pg::ConninfoPtr opts(PQconninfoParse(utf8.constData(), &err));
    pg::PqString errHolder(err);
    if (!opts)
        return false; // a bare service name, or unparsable: validate() reports the latter
    for (PQconninfoOption* o = opts.get(); o->keyword; ++o)
        if (qstrcmp(o->keyword, "password") == 0 && o->val && *o->val)
            return true;
    return false;
}

QString Profile::conninfo() const
{
    if (!dsn.trimmed().isEmpty())
        return dsn.trimmed();
    QStringList parts;
    const std::pair<const char*, const QString*> fields[] = {
        {"service", &service}, {"host", &host},       {"port", &port},       {"dbname", &dbname},
        {"user", &user},       {"sslmode", &sslmode}, {"sslrootcert", &sslrootcert},
        {"sslcert", &sslcert}, {"sslkey", &sslkey},
    };
    for (const auto& [key, value] : fields)
        if (!value->trimmed().isEmpty())
            parts << QLatin1String(key) + QLatin1Char('=') + conninfoValue(value->trimmed());
    return parts.join(QLatin1Char(' '));
}

std::optional<QString> Profile::validate() const
{
    if (name.trimmed().isEmpty())
        return ErrorWords::tr("the profile needs a name");
    const QString ci = conninfo();
    if (ci.isEmpty())
        return ErrorWords::tr("profile \"%1\": give a connection string, a service name or a host and database")
            .arg(name);
    if (auto bad = pg::validateDsn(ci))
        return ErrorWords::tr("profile \"%1\": %2").arg(name, bad->toDisplayString());
    if (!viaRecorder.trimmed().isEmpty() && !feed::FeedSource::parseUrl(viaRecorder.trimmed()))
        return ErrorWords::tr("profile \"%1\": \"via recorder\" must be feed://HOST:PORT or feed://HOST:PORT/NAME "
                              "(empty: this machine's recorder, when one runs)")
            .arg(name);
    if (conninfoHasPassword(ci))
        return ErrorWords::tr("profile \"%1\": passwords are not stored in profiles; put it in ~/.pgpass "
                              "(or PGPASSFILE, or the service file) and remove it from the connection string")
            .arg(name);
    return std::nullopt;
}

PollerConfig Profile::toPollerConfig(PollerConfig base) const
{
    base.connect.dsn = conninfo();
    base.leases = leases;
    base.detectLeaseTable = detectLeaseTables;
    base.intervalMs = intervalMs;
    base.lockNames = lockNames;
    base.lockNamePrefixes = lockNamePrefixes;
    base.patternDays = patternDays;
    base.analysis = analysis;
    base.operatorMode = operatorMode;
    base.auditTable = auditTable;
    return base;
}

QJsonObject Profile::toJson() const
{
    QJsonObject conn{{QStringLiteral("dsn"), dsn},         {QStringLiteral("host"), host},
                     {QStringLiteral("port"), port},       {QStringLiteral("dbname"), dbname},
                     {QStringLiteral("user"), user},       {QStringLiteral("service"), service},
                     {QStringLiteral("sslmode"), sslmode}, {QStringLiteral("sslrootcert"), sslrootcert},
                     {QStringLiteral("sslcert"), sslcert}, {QStringLiteral("sslkey"), sslkey}};
    QJsonObject lt{{QStringLiteral("preset"), leasePreset},
                   {QStringLiteral("schema"), leases.schema},
                   {QStringLiteral("table"), leases.table},
                   {QStringLiteral("columns"), leases.columnsSpec()},
                   {QStringLiteral("timeKind"), leases.timeKindSpec()},
                   {QStringLiteral("writerUsesAppClock"), leases.writerUsesAppClock},
                   {QStringLiteral("expiringSoonShare"), leases.expiringSoonShare},
                   {QStringLiteral("detect"), detectLeaseTables}};
    if (leases.ttlSeconds)
        lt.insert(QStringLiteral("ttlSeconds"), *leases.ttlSeconds);
    QJsonObject pools;
    for (auto it = analysis.poolSizes.cbegin(); it != analysis.poolSizes.cend(); ++it)
        pools.insert(it.key(), it.value());
    const Thresholds& t = analysis.thresholds;
    QJsonObject th{{QStringLiteral("idleHoldingS"), t.idleHoldingS},
                   {QStringLiteral("advisoryWaitS"), t.advisoryWaitS},
                   {QStringLiteral("pinnedMinS"), t.pinnedMinS},
                   {QStringLiteral("pinnedShare"), t.pinnedShare},
                   {QStringLiteral("lockTableShare"), t.lockTableShare},
                   {QStringLiteral("connectionShare"), t.connectionShare}};
    return QJsonObject{
        {QStringLiteral("name"), name},
        {QStringLiteral("connection"), conn},
        {QStringLiteral("leases"), lt},
        {QStringLiteral("intervalMs"), intervalMs},
        {QStringLiteral("lockNames"), toArray(lockNames)},
        {QStringLiteral("lockNamePrefixes"), toArray(lockNamePrefixes)},
        {QStringLiteral("patternDays"), patternDays},
        {QStringLiteral("groupBy"), QLatin1String(groupByText(analysis.groupBy))},
        {QStringLiteral("poolSizes"), pools},
        {QStringLiteral("thresholds"), th},
        {QStringLiteral("operatorMode"), operatorMode},
        {QStringLiteral("auditTable"), auditTable},
        {QStringLiteral("pgbouncerDsn"), pgbouncerDsn},
        {QStringLiteral("viaRecorder"), viaRecorder},
        {QStringLiteral("historyDays"), historyDays},
        {QStringLiteral("historyMb"), historyMb},
        {QStringLiteral("alerts"), alerts},
        {QStringLiteral("alertStaleAfterS"), alertStaleAfterS},
    };
}

Profile Profile::fromJson(const QJsonObject& o)
{
    Profile p;
    p.name = o.value(QStringLiteral("name")).toString();
    const QJsonObject c = o.value(QStringLiteral("connection")).toObject();
    p.dsn = c.value(QStringLiteral("dsn")).toString();
    p.host = c.value(QStringLiteral("host")).toString();
    p.port = c.value(QStringLiteral("port")).toString();
    p.dbname = c.value(QStringLiteral("dbname")).toString();
    p.user = c.value(QStringLiteral("user")).toString();
    p.service = c.value(QStringLiteral("service")).toString();
    p.sslmode = c.value(QStringLiteral("sslmode")).toString();
    p.sslrootcert = c.value(QStringLiteral("sslrootcert")).toString();
    p.sslcert = c.value(QStringLiteral("sslcert")).toString();
    p.sslkey = c.value(QStringLiteral("sslkey")).toString();

    const QJsonObject lt = o.value(QStringLiteral("leases")).toObject();
    p.leasePreset = lt.value(QStringLiteral("preset")).toString(QStringLiteral("default"));
    p.leases = LeaseTableConfig::preset(p.leasePreset).value_or(LeaseTableConfig{});
    p.detectLeaseTables = lt.value(QStringLiteral("detect")).toBool(true);
    p.leases.schema = lt.value(QStringLiteral("schema")).toString(p.leases.schema);
    p.leases.table = lt.value(QStringLiteral("table")).toString(p.leases.table);
    if (lt.contains(QStringLiteral("columns")))
        p.leases.setColumns(lt.value(QStringLiteral("columns")).toString());
    if (lt.contains(QStringLiteral("timeKind")))
        p.leases.setTimeKind(lt.value(QStringLiteral("timeKind")).toString());
    p.leases.writerUsesAppClock =
        lt.value(QStringLiteral("writerUsesAppClock")).toBool(p.leases.writerUsesAppClock);
    p.leases.expiringSoonShare =
        lt.value(QStringLiteral("expiringSoonShare")).toDouble(p.leases.expiringSoonShare);
    if (lt.contains(QStringLiteral("ttlSeconds")))
        p.leases.ttlSeconds = lt.value(QStringLiteral("ttlSeconds")).toDouble();

    p.intervalMs = o.value(QStringLiteral("intervalMs")).toInt(p.intervalMs);
    p.lockNames = toStringList(o.value(QStringLiteral("lockNames")));
    p.lockNamePrefixes = toStringList(o.value(QStringLiteral("lockNamePrefixes")));
    p.patternDays = o.value(QStringLiteral("patternDays")).toInt(p.patternDays);
    p.analysis.groupBy = groupByFrom(o.value(QStringLiteral("groupBy")).toString());
    const QJsonObject pools = o.value(QStringLiteral("poolSizes")).toObject();
    for (auto it = pools.begin(); it != pools.end(); ++it)
        p.analysis.poolSizes.insert(it.key(), it.value().toInt());
    const QJsonObject th = o.value(QStringLiteral("thresholds")).toObject();
    Thresholds& t = p.analysis.thresholds;
    t.idleHoldingS = th.value(QStringLiteral("idleHoldingS")).toDouble(t.idleHoldingS);
    t.advisoryWaitS = th.value(QStringLiteral("advisoryWaitS")).toDouble(t.advisoryWaitS);
    t.pinnedMinS = th.value(QStringLiteral("pinnedMinS")).toDouble(t.pinnedMinS);
    t.pinnedShare = th.value(QStringLiteral("pinnedShare")).toDouble(t.pinnedShare);
    t.lockTableShare = th.value(QStringLiteral("lockTableShare")).toDouble(t.lockTableShare);
    t.connectionShare = th.value(QStringLiteral("connectionShare")).toDouble(t.connectionShare);
    p.operatorMode = o.value(QStringLiteral("operatorMode")).toBool();
    p.auditTable = o.value(QStringLiteral("auditTable")).toString();
    p.pgbouncerDsn = o.value(QStringLiteral("pgbouncerDsn")).toString();
    p.viaRecorder = o.value(QStringLiteral("viaRecorder")).toString();
    p.historyDays = o.value(QStringLiteral("historyDays")).toInt(p.historyDays);
    p.historyMb = o.value(QStringLiteral("historyMb")).toInt(p.historyMb);
    p.alerts = o.value(QStringLiteral("alerts")).toBool(p.alerts);
    p.alertStaleAfterS = o.value(QStringLiteral("alertStaleAfterS")).toDouble(p.alertStaleAfterS);
    return p;
}

QString ProfileStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
           QStringLiteral("/profiles.json");
}

ProfileStore::ProfileStore(QString path)
    : path_(std::move(path))
{
}

std::optional<QString> ProfileStore::load()
{
    profiles_.clear();
    keptAside_.clear();
    unsaveable_.clear();
    QFile f(path_);
    if (!f.exists())
        return std::nullopt;
    if (!f.open(QIODevice::ReadOnly)) {
        unsaveable_ = ErrorWords::tr("%1 could not be read, so it is not overwritten").arg(path_);
        return ErrorWords::tr("cannot read %1: %2").arg(path_, f.errorString());
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    f.close();
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        const QString why = pe.error != QJsonParseError::NoError
                                ? ErrorWords::tr("%1 at offset %2").arg(pe.errorString()).arg(pe.offset)
                                : ErrorWords::tr("not a JSON object");
        // Never overwritten by the next save: the operator's profiles may be recoverable by hand.
        const QString aside =
            path_ + QStringLiteral(".broken-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
        if (QFile::rename(path_, aside)) {
            keptAside_ = aside;
            return ErrorWords::tr("%1 is not valid profile JSON (%2). It was kept as %3 and the console starts "
                                  "without profiles; repair that file and move it back to restore them.")
                .arg(path_, why, aside);
        }
        unsaveable_ = ErrorWords::tr("%1 is not valid profile JSON and could not be moved aside").arg(path_);
        return ErrorWords::tr("%1 is not valid profile JSON (%2) and could not be moved aside; profiles will not "
                              "be saved until it is repaired or removed.")
            .arg(path_, why);
    }
    for (const QJsonValue& v : doc.object().value(QStringLiteral("profiles")).toArray())
        profiles_.append(Profile::fromJson(v.toObject()));
    return std::nullopt;
}

std::optional<QString> ProfileStore::save() const
{
    if (!unsaveable_.isEmpty())
        return unsaveable_ + ErrorWords::tr(": nothing was saved");
    QJsonArray arr;
    for (const Profile& p : profiles_) {
        if (auto bad = p.validate())
            return bad; // never write a password, nor a profile that cannot connect
        arr.append(p.toJson());
    }
    QDir().mkpath(QFileInfo(path_).absolutePath());
    QSaveFile f(path_);
    if (!f.open(QIODevice::WriteOnly))
        return ErrorWords::tr("cannot write %1: %2").arg(path_, f.errorString());
    f.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("profiles"), arr}})
                .toJson(QJsonDocument::Indented));
    // Host names and users only, but keep the file private like ~/.pgpass.
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (!f.commit())
        return ErrorWords::tr("cannot write %1: %2").arg(path_, f.errorString());
    return std::nullopt;
}

std::optional<Profile> ProfileStore::find(const QString& name) const
{
    for (const Profile& p : profiles_)
        if (p.name == name)
            return p;
    return std::nullopt;
}

void ProfileStore::upsert(const Profile& p)
{
    for (Profile& q : profiles_)
        if (q.name == p.name) {
            q = p;
            return;
        }
    profiles_.append(p);
}

bool ProfileStore::remove(const QString& name)
{
    return profiles_.removeIf([&](const Profile& p) { return p.name == name; }) > 0;
}

} // namespace lw
