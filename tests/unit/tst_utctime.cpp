// Times the console writes as text (the JSON of `snapshot`/`watch`, the history store's wall
// times) are UTC ISO strings ending in "Z" on Qt 6.4 and on Qt 6.8 alike (issue 57 point 2): a
// script that parses them, and a store written by one release and read by the other, see one form.
#include "domain/LeaseTracker.h"
#include "domain/SnapshotFormat.h"
#include "domain/UtcTime.h"

#include <QJsonObject>
#include <QtTest>

using namespace lw;

class TestUtcTime : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void isoStringsEndInZ()
    {
        const QDateTime t = utcFromMSecs(1764577958123);
        QCOMPARE(t.toString(Qt::ISODateWithMs), QStringLiteral("2025-12-01T08:32:38.123Z"));
        QCOMPARE(t.toMSecsSinceEpoch(), 1764577958123);
        QCOMPARE(t.offsetFromUtc(), 0);
    }
    void snapshotJsonTimesEndInZ()
    {
        Snapshot s;
        s.ok = true;
        s.serverNow = 1764577958.5;
        const QJsonObject j = snapshotToJson(s, LeaseTracker(), {});
        QCOMPARE(j.value(QStringLiteral("server")).toObject().value(QStringLiteral("now")).toString(),
                 QStringLiteral("2025-12-01T08:32:38.500Z"));
    }
};

QTEST_APPLESS_MAIN(TestUtcTime)
#include "tst_utctime.moc"
