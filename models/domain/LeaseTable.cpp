#include "LeaseTable.h"
#include "Words.h"

#include "SqlText.h"

#include <QHash>

#include <algorithm>

namespace lw {

QString LeaseTableConfig::timeKindSpec() const
{
    switch (timeKind) {
    case TimeKind::TimestampTz:
        return QStringLiteral("timestamptz");
    case TimeKind::NaiveUtc:
        return QStringLiteral("utc");
    case TimeKind::NaiveZone:
        return zone;
    }
    return {};
}

QString LeaseTableConfig::columnsSpec() const
{
    return QStringList{nameColumn, holderColumn, takenAtColumn, expiresAtColumn}.join(QLatin1Char(','));
}

void LeaseTableConfig::setQualifiedName(const QString& name)
{
    const QString t = name.trimmed();
    const auto dot = t.indexOf(QLatin1Char('.'));
    if (dot > 0) {
        schema = t.left(dot);
        table = t.mid(dot + 1);
    } else if (!t.isEmpty()) {
        table = t;
    }
}

std::vector<std::pair<QString, QString>> LeaseTableConfig::requiredColumns() const
{
    if (mappedByExpressions())
        return signature;
    const QString time = timeKind == TimeKind::TimestampTz ? QStringLiteral("timestamptz") : QStringLiteral("timestamp");
    return {{nameColumn, QStringLiteral("text")},
            {holderColumn, QStringLiteral("text")},
            {takenAtColumn, time},
            {expiresAtColumn, time}};
}

QString noLeaseTableText()
{
    QStringList looked;
    for (const LeaseTableConfig& c : leaseSchemes())
        looked << QStringLiteral("%1 (%2)").arg(c.table, c.label());
    return TableWords::tr("No lease table found: looked in every schema for %1. Advisory locks, sessions and "
                          "pools are shown as usual; name a table with --table/--preset or in the profile.")
        .arg(looked.join(QStringLiteral(", ")));
}

bool LeaseTableConfig::setTimeKind(const QString& spec)
{
    const QString s = spec.trimmed();
    if (s.isEmpty())
        return false;
    if (s == QLatin1String("timestamptz")) {
        timeKind = TimeKind::TimestampTz;
    } else if (s.compare(QLatin1String("utc"), Qt::CaseInsensitive) == 0) {
        timeKind = TimeKind::NaiveUtc;
    } else {
        timeKind = TimeKind::NaiveZone; // the server validates the zone name
        zone = s;
    }
    return true;
}

bool LeaseTableConfig::setColumns(const QString& spec)
{
    const QStringList parts = spec.split(QLatin1Char(','));
    if (parts.size() != 4)
        return false;
    for (const QString& p : parts)
        if (p.trimmed().isEmpty())
            return false;
    nameColumn = parts[0].trimmed();
    holderColumn = parts[1].trimmed();
    takenAtColumn = parts[2].trimmed();
    expiresAtColumn = parts[3].trimmed();
    return true;
}

QByteArray LeaseTableConfig::zoned(QByteArray expr, const QByteArray& zoneParam) const
{
    // {zone}: the zone naive wall time was written in (timeKindApplies()).
    const QByteArray zoneRef = timeKind == TimeKind::NaiveZone ? zoneParam + "::text"
                               : timeKind == TimeKind::NaiveUtc ? QByteArray("'UTC'")
                                                                : QByteArray("current_setting('TimeZone')");
    return expr.replace("{zone}", zoneRef);
}

} // namespace lw
