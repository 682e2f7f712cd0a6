// The local audit log: an SQLite file in WAL mode, a record for every outcome (written before the
// answer, completed after), read back newest first; one QSqlDatabase connection per instance,
// removed with it.
#include "store/AuditLog.h"
#include "ForceExpire.h"

#include <QSignalSpy>
#include <QSqlDatabase>
#include <QTemporaryDir>
#include <QTest>

using namespace lw;
using Kind = ForceExpireOutcome::Kind;

class TestFxAudit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void recordsEveryOutcomeAndReadsBack()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("sub/audit.sqlite"); // the folder is created on demand
        const QStringList before = QSqlDatabase::connectionNames();
        {
            AuditLog log(path);
            QVERIFY2(log.isOpen(), qPrintable(log.errorString()));
            QCOMPARE(log.journalMode(), QStringLiteral("wal"));
            QCOMPARE(QSqlDatabase::connectionNames().size(), before.size() + 1);
            QSignalSpy changed(&log, &AuditLog::changed);

            const Kind kinds[] = {
                Kind::Expired,     Kind::ChangedHands, Kind::Renewed, Kind::ExpiredAlready, Kind::Gone,
                Kind::NoPrivilege, Kind::LockTimeout,  Kind::Timeout, Kind::NotAllowed,     Kind::Failed};
            for (Kind k : kinds) {
                ForceExpireOutcome o;
                o.target.name = QStringLiteral("lease-%1").arg(int(k));
                o.target.holder = QStringLiteral("app-1:1:aa");
                o.target.expiresAt = 1'700'000'000.0;
                o.kind = k;
                o.dbRole = QStringLiteral("operator");
                o.serverNow = 1'700'000'010.0;
                AuditRecord r;
                r.database = QStringLiteral("app on db1:5432");
                r.action = QStringLiteral("force-expire");
                r.target = QStringLiteral("public.leases/") + o.target.name;
                r.before = o.target.auditBefore();
                r.outcome = QStringLiteral("sent, no answer yet");
                r.outcomeKey = QStringLiteral("pending");
                QVERIFY2(log.append(r), qPrintable(log.errorString()));
                QVERIFY(r.id > 0);
                QVERIFY(log.complete(r.id, o.auditAfter(), o.text(), o.key(), o.dbRole));
            }
            QCOMPARE(changed.count(), 20);
            // A generic record, as the locks view's cancel/terminate will write.
            AuditRecord t;
            t.action = QStringLiteral("terminate-backend");
            t.target = QStringLiteral("pid 4242");
            t.outcome = QStringLiteral("terminated");
            t.outcomeKey = QStringLiteral("done");
            QVERIFY(log.append(t));

            const auto recs = log.records();
            QCOMPARE(int(recs.size()), 11);
            QCOMPARE(recs.front().action, QStringLiteral("terminate-backend")); // newest first
            QVERIFY(!recs.front().osUser.isEmpty());
            QCOMPARE(recs.front().osUser, localOsUser());
            QCOMPARE(recs.front().osHost, localHostName());
            for (size_t i = 1; i < recs.size(); ++i) {
                const AuditRecord& r = recs[i];
                QVERIFY(r.id < recs[i - 1].id);
                QCOMPARE(r.dbRole, QStringLiteral("operator"));
                QCOMPARE(r.database, QStringLiteral("app on db1:5432"));
                QVERIFY(r.outcomeKey != "pending");
                QVERIFY(!r.outcome.isEmpty());
                QVERIFY(r.before.contains("app-1:1:aa"));
                QVERIFY(r.after.startsWith("{"));
                QVERIFY(qAbs(r.at.secsTo(QDateTime::currentDateTimeUtc())) < 60);
            }
            QCOMPARE(recs.back().outcomeKey, QStringLiteral("expired"));
            QVERIFY(recs.back().outcome.startsWith("expired"));

            // A second instance on the same file (another window): its own connection, same records.
            AuditLog second(path);
            QVERIFY(second.isOpen());
            QCOMPARE(int(second.records().size()), 11);
            QVERIFY(!log.complete(99999, "{}", "x", "x")); // no such record: says so
        }
        QCOMPARE(QSqlDatabase::connectionNames(), before); // removed in the destructors
        // Reopened later: the records are still there.
        AuditLog again(path);
        QCOMPARE(int(again.records(5).size()), 5);
    }

    void unwritablePathIsReported()
    {
        AuditLog log(QStringLiteral("/proc/lw-no-such/audit.sqlite"));
        QVERIFY(!log.isOpen());
        QVERIFY(!log.errorString().isEmpty());
        AuditRecord r;
        r.action = "force-expire";
        r.target = "x";
        QVERIFY(!log.append(r));
        QVERIFY(log.records().empty());
    }

    void defaultPathIsInAppData() { QVERIFY(AuditLog::defaultPath().endsWith("/audit.sqlite")); }
};

QTEST_GUILESS_MAIN(TestFxAudit)
#include "tst_fx_audit.moc"
