// The supported-server floor (PostgreSQL 13, see kMinServerVersionNum in PgConnection.h): what an
// operator reads when the console refuses an older server right after connecting.
#include "pg/PgConnection.h"

#include <QTest>

using namespace lw::pg;

class TestFaultVersion : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void floor_data()
    {
        QTest::addColumn<int>("versionNum");
        QTest::addColumn<QString>("message"); // empty: accepted
        QTest::newRow("9.6") << 90624 << "PostgreSQL 9.6 is older than the supported 13";
        QTest::newRow("10") << 100023 << "PostgreSQL 10 is older than the supported 13";
        QTest::newRow("12") << 120022 << "PostgreSQL 12 is older than the supported 13";
        QTest::newRow("13.0") << 130000 << "";
        QTest::newRow("15") << 150008 << "";
        QTest::newRow("17") << 170002 << "";
    }
    void floor()
    {
        QFETCH(int, versionNum);
        QFETCH(QString, message);
        const auto e = checkServerVersion(versionNum);
        QCOMPARE(e.has_value(), !message.isEmpty());
        if (!e)
            return;
        QCOMPARE(e->message, message);
        // Retried like any other failed connect (the server may be upgraded), shown on one line.
        QCOMPARE(e->kind, PgError::Kind::ConnectFailed);
        QVERIFY(e->needsReconnect());
        const QString shown = e->toDisplayString();
        QVERIFY(shown.startsWith(message + QStringLiteral(" — ")));
        QVERIFY2(shown.contains(QLatin1String("PostgreSQL 13 or newer")), qPrintable(shown));
        QVERIFY(!shown.contains(QLatin1Char('\n')));
    }

    void majorVersionNames()
    {
        QCOMPARE(majorVersionText(90624), QStringLiteral("9.6"));
        QCOMPARE(majorVersionText(80423), QStringLiteral("8.4"));
        QCOMPARE(majorVersionText(130004), QStringLiteral("13"));
        QCOMPARE(majorVersionText(kMinServerVersionNum), QStringLiteral("13"));
    }

    // A connection that cannot say its version (PQserverVersion 0) is not waved through.
    void unknownVersionIsRefused()
    {
        const auto e = checkServerVersion(0);
        QVERIFY(e);
        QVERIFY(e->message.contains(QLatin1String("older than the supported 13")));
    }

    // Connections that are not to a PostgreSQL server proper (PgBouncer's admin console) opt out.
    void floorCanBeSwitchedOff()
    {
        QVERIFY(!checkServerVersion(11800, 0));
        ConnectOptions o;
        QCOMPARE(o.minServerVersionNum, kMinServerVersionNum);
    }
};

QTEST_GUILESS_MAIN(TestFaultVersion)
#include "tst_fault_version.moc"
