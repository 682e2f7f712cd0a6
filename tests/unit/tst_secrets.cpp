// Secrets never leave libpq's own inputs (issue 23): the redacted DSN keeps what an operator needs
// to tell databases apart and masks every form a password can take; the SQL the console suggests
// quotes identifiers the way the server needs them.
#include "domain/Secrets.h"
#include "domain/SqlText.h"

#include <QtTest>

using namespace lw;

class TstSecrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void redactsEveryForm_data()
    {
        QTest::addColumn<QString>("dsn");
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QString>("kept");
        QTest::newRow("conninfo") << "host=db1 dbname=app password=hunter2x user=mon" << "hunter2x" << "host=db1 dbname=app";
        QTest::newRow("quoted") << "host=db1 password='a b\\'c' dbname=app" << "a b'c" << "dbname=app";
        QTest::newRow("spaces around =") << "host=db1 password = s3cretpw" << "s3cretpw" << "host=db1";
        QTest::newRow("sslpassword") << "host=db1 sslkey=/k sslpassword=keypass1" << "keypass1" << "sslkey=/k";
        QTest::newRow("uri userinfo") << "postgresql://mon:pa%40ss1@db1:5432/app" << "pa%40ss1" << "db1:5432/app";
        QTest::newRow("uri query") << "postgres://db1/app?user=mon&password=qpass1&sslmode=require" << "qpass1"
                                   << "sslmode=require";
        QTest::newRow("options setting") << "host=db1 options='-c app.password=optpw1 -c work_mem=4MB'" << "optpw1"
                                         << "host=db1";
        QTest::newRow("expanded dbname") << "dbname='host=db2 password=innerpw1'" << "innerpw1" << "dbname=";
        QTest::newRow("unparsable") << "host=db1 password=brokenpw1 dbname" << "brokenpw1" << "host=db1";
        QTest::newRow("unterminated") << "host=db1 password='openpw1" << "openpw1" << "host=db1";
    }
    void redactsEveryForm()
    {
        QFETCH(QString, dsn);
        QFETCH(QString, secret);
        QFETCH(QString, kept);
        const QString r = redactDsn(dsn);
        QVERIFY2(!r.contains(secret), qPrintable(r));
        QVERIFY2(r.contains(kept), qPrintable(r));
        QVERIFY2(r.contains("***"), qPrintable(r));
        // A message quoting any part of the DSN is scrubbed too.
        const QString msg = QStringLiteral("error in \"%1\"").arg(dsn);
        QVERIFY2(!scrubDsnSecrets(msg, dsn).contains(secret), qPrintable(scrubDsnSecrets(msg, dsn)));
    }

    void nothingSecretIsUnchanged()
    {
        for (const QString& s : {QStringLiteral("prod-billing"), QStringLiteral("host=db1 dbname=app user=mon"),
                                 QStringLiteral("postgresql://mon@db1/app"), QStringLiteral("app-service")})
            QCOMPARE(redactDsn(s), s);
    }

    void storeNameIsStableAndSecretFree()
    {
        const QString a = dsnStoreName("host=db1 dbname=app password=one1");
        const QString b = dsnStoreName("host=db1 dbname=app password=two2");
        QCOMPARE(a, b); // the same database, whatever the password
        QVERIFY(a.startsWith("dsn-"));
        QVERIFY(!a.contains("one1"));
        QVERIFY(a != dsnStoreName("host=db2 dbname=app"));
    }

    void identifiersQuotedAsTheServerNeeds()
    {
        QCOMPARE(sqlIdentifier("leases"), QStringLiteral("leases"));
        QCOMPARE(sqlIdentifier("Mon-Itor"), QStringLiteral("\"Mon-Itor\""));
        QCOMPARE(sqlIdentifier("Leases \"2026\""), QStringLiteral("\"Leases \"\"2026\"\"\""));
        QCOMPARE(sqlIdentifier("user"), QStringLiteral("\"user\""));
        QCOMPARE(sqlIdentifier("1st"), QStringLiteral("\"1st\""));
        QCOMPARE(sqlQualifiedName("public", "Leases"), QStringLiteral("public.\"Leases\""));
    }
};

QTEST_GUILESS_MAIN(TstSecrets)
#include "tst_secrets.moc"
