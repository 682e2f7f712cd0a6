// Classification of failures: which ones mean "the connection is gone", and the words users see.
#include "pg/PgConnection.h"
#include "pg/PgError.h"
#include "domain/LeaseTracker.h"
#include "domain/Outage.h"
#include "domain/SnapshotFormat.h"

#include <QTest>

using namespace lw::pg;

class TestPgError : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void connectionLoss_data()
    {
        QTest::addColumn<QString>("sqlstate");
        QTest::addColumn<QString>("severity");
        QTest::addColumn<bool>("lost");
        QTest::newRow("fast shutdown 57P01") << "57P01"
                                             << "FATAL" << true;
        QTest::newRow("crash shutdown 57P02") << "57P02"
                                              << "FATAL" << true;
        QTest::newRow("recovering 57P03") << "57P03"
                                          << "FATAL" << true;
        QTest::newRow("terminated as FATAL") << "57P01"
                                             << "FATAL" << true;
        QTest::newRow("08006 connection failure") << "08006"
                                                  << "ERROR" << true;
        QTest::newRow("FATAL with other state") << "XX000"
                                                << "FATAL" << true;
        QTest::newRow("query cancelled 57014") << "57014"
                                               << "ERROR" << false;
        QTest::newRow("undefined table") << "42P01"
                                         << "ERROR" << false;
        QTest::newRow("out of shared memory") << "53200"
                                              << "ERROR" << false;
    }
    void connectionLoss()
    {
        QFETCH(QString, sqlstate);
        QFETCH(QString, severity);
        QTEST(isConnectionLossState(sqlstate, severity), "lost");
    }

    void dsnValidation_data()
    {
        QTest::addColumn<QString>("dsn");
        QTest::addColumn<bool>("valid");
        QTest::newRow("keyword") << "host=/tmp dbname=x" << true;
        QTest::newRow("uri") << "postgresql://u@localhost:5432/db" << true;
        QTest::newRow("service") << "prod-billing" << true;
        QTest::newRow("unterminated quote") << "host='oops dbname=x" << false;
        QTest::newRow("unknown keyword") << "hots=localhost" << false;
        QTest::newRow("bad uri") << "postgresql://[::1" << false;
    }
    void dsnValidation()
    {
        QFETCH(QString, dsn);
        QFETCH(bool, valid);
        const auto err = validateDsn(dsn);
        QCOMPARE(!err.has_value(), valid);
        if (err) {
            QCOMPARE(err->kind, PgError::Kind::BadConnectionString);
            QVERIFY(err->toDisplayString().startsWith("invalid connection string"));
        }
    }

    void bareWordIsAServiceName()
    {
        QCOMPARE(normalizeDsn("prod"), QStringLiteral("service=prod"));
        QCOMPARE(normalizeDsn("host=x"), QStringLiteral("host=x"));
    }

    // Locked out by max_connections: the critical card says how the console gets in next time, as
    // the server that refused it allows (PostgreSQL 16+'s reserved_connections, a role's or a
    // database's own limit, a server that reserves slots for superusers only).
    void tooManyConnectionsSaysWhatToGrant()
    {
        lw::OutageView o;
        o.now = QDateTime::currentDateTime();
        o.since = o.now.addSecs(-60);
        o.role = QStringLiteral("monitor");
        o.serverVersionNum = 170002;
        o.error.kind = lw::DbError::Kind::ConnectFailed;
        o.error.sqlstate = QStringLiteral("53300");
        o.error.message = QStringLiteral("remaining connection slots are reserved for roles with privileges of the "
                                         "\"pg_use_reserved_connections\" role");
        const auto fix = [&] { return lw::outageFinding(o)->fix; };
        QVERIFY2(fix().contains(QLatin1String("GRANT pg_use_reserved_connections TO monitor;")), qPrintable(fix()));
        QVERIFY(fix().contains(QLatin1String("ALTER SYSTEM SET reserved_connections")));
        o.serverVersionNum = 150010;
        o.error.message = QStringLiteral("sorry, too many clients already");
        QVERIFY2(fix().contains(QLatin1String("PostgreSQL 15 keeps slots for superusers only")), qPrintable(fix()));
        o.role = QStringLiteral("Mon itor");
        o.error.message = QStringLiteral("too many connections for role \"Mon itor\"");
        QVERIFY2(fix().contains(QLatin1String("ALTER ROLE \"Mon itor\" CONNECTION LIMIT")), qPrintable(fix()));
    }

    // Connected to PostgreSQL 16+ with reserved_connections set: `snapshot` says whether the
    // console's role may use those slots, and what to grant when it may not.
    void reservedSlotsAreSaid()
    {
        lw::Snapshot s;
        s.ok = true;
        s.analysis = std::make_shared<lw::Analysis>();
        s.server.user = QStringLiteral("monitor");
        s.cluster.reservedConnections = 3;
        s.cluster.mayUseReserved = true;
        const lw::LeaseTracker none;
        QVERIFY(lw::snapshotToText(s, none, {}).contains(QLatin1String("3 reserved connection(s): monitor may use them")));
        s.cluster.mayUseReserved = false;
        QVERIFY(lw::snapshotToText(s, none, {}).contains(QLatin1String("GRANT pg_use_reserved_connections TO monitor;")));
        s.cluster.reservedConnections = 0; // none kept (before 16, or not set): nothing said
        QVERIFY(!lw::snapshotToText(s, none, {}).contains(QLatin1String("reserved connection")));
    }

    void displayNamesStateAndAdvice()
    {
        PgError e;
        e.kind = PgError::Kind::ConnectFailed;
        e.sqlstate = "28P01";
        e.message = "password authentication failed for user \"bob\"";
        const QString s = e.toDisplayString();
        QVERIFY(s.contains("SQLSTATE 28P01"));
        QVERIFY(s.contains(".pgpass"));
    }
};

QTEST_APPLESS_MAIN(TestPgError)
#include "tst_pgerror.moc"
