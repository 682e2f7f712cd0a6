// Connection profiles: what is stored (and what never is), and how the command line uses them.
#include "Cli.h"
#include "Profile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using lw::Profile;
using lw::ProfileStore;

namespace {
Profile sample(const QString& preset)
{
    Profile p;
    p.name = "prod billing";
    p.host = "db1.internal";
    p.port = "6543";
    p.dbname = "billing";
    p.user = "console";
    p.sslmode = "verify-full";
    p.sslrootcert = "/etc/ssl/my ca.pem";
    p.leasePreset = preset;
    p.leases = *lw::LeaseTableConfig::preset(preset);
    p.leases.ttlSeconds = 60;
    p.intervalMs = 2500;
    p.lockNames = {"nightly-report", "billing-export-%Y-%m-%d"};
    p.lockNamePrefixes = {"app1:"};
    p.analysis.poolSizes.insert("billing-api", 4);
    p.analysis.thresholds.idleHoldingS = 42;
    p.analysis.thresholds.lockTableShare = 0.5;
    p.analysis.groupBy = lw::GroupBy::User;
    p.operatorMode = true;
    p.auditTable = "ops.lease_audit";
    p.pgbouncerDsn = "host=/tmp port=6432 dbname=pgbouncer";
    p.viaRecorder = "feed://10.0.0.5:9472/prod";
    p.historyDays = 3;
    p.historyMb = 50;
    p.alerts = false;
    p.detectLeaseTables = false;
    return p;
}
} // namespace

class TestProfiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("preset");
        for (const QString& p : lw::LeaseTableConfig::presetNames())
            QTest::newRow(qPrintable(p)) << p;
    }
    void roundTrip()
    {
        QFETCH(QString, preset);
        QTemporaryDir dir;
        ProfileStore store(dir.path() + "/sub/profiles.json");
        store.upsert(sample(preset));
        QCOMPARE(store.save(), std::nullopt);
        QVERIFY(QFile(store.path()).permissions() & QFileDevice::ReadOwner);
        QVERIFY(!(QFile(store.path()).permissions() & QFileDevice::ReadOther)); // private like ~/.pgpass

        ProfileStore again(store.path());
        QCOMPARE(again.load(), std::nullopt);
        QCOMPARE(again.profiles().size(), 1);
        QCOMPARE(again.profiles().first(), sample(preset));
    }

    // "Via recorder" is a feed address or nothing: anything else is said before it is saved.
    void viaRecorderIsAFeedAddress()
    {
        Profile p;
        p.name = "prod";
        p.dsn = "host=/tmp dbname=app";
        QCOMPARE(p.validate(), std::nullopt);
        p.viaRecorder = "feed://recorder:9472";
        QCOMPARE(p.validate(), std::nullopt);
        p.viaRecorder = "recorder:9472";
        QVERIFY(p.validate() && p.validate()->contains("feed://HOST:PORT"));
    }

    void conninfoQuotesValues()
    {
        const Profile p = sample("default");
        QCOMPARE(p.conninfo(), QStringLiteral("host='db1.internal' port='6543' dbname='billing' user='console' "
                                              "sslmode='verify-full' sslrootcert='/etc/ssl/my ca.pem'"));
        QCOMPARE(p.validate(), std::nullopt);
        Profile q;
        q.name = "svc";
        q.service = "billing_ro";
        QCOMPARE(q.conninfo(), QStringLiteral("service='billing_ro'"));
        q.dsn = "postgresql://u@h/db";
        QCOMPARE(q.conninfo(), QStringLiteral("postgresql://u@h/db")); // the string wins over the fields
    }

    void passwordsAreNeverWritten_data()
    {
        QTest::addColumn<QString>("dsn");
        QTest::newRow("conninfo") << "host=h dbname=d password=s3cret";
        QTest::newRow("uri") << "postgresql://u:s3cret@h/d";
    }
    void passwordsAreNeverWritten()
    {
        QFETCH(QString, dsn);
        QTemporaryDir dir;
        ProfileStore store(dir.path() + "/profiles.json");
        Profile p;
        p.name = "leaky";
        p.dsn = dsn;
        QVERIFY(lw::conninfoHasPassword(dsn));
        const auto bad = p.validate();
        QVERIFY(bad);
        QVERIFY2(bad->contains("~/.pgpass"), qPrintable(*bad));
        store.upsert(p);
        QVERIFY(store.save());                    // refused…
        QVERIFY(!QFile::exists(store.path()));    // …and nothing was written
    }

    void badFilesSayWhat()
    {
        QTemporaryDir dir;
        QFile f(dir.path() + "/profiles.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ not json");
        f.close();
        ProfileStore store(f.fileName());
        const auto err = store.load();
        QVERIFY(err);
        QVERIFY2(err->contains("not valid profile JSON"), qPrintable(*err));
        ProfileStore missing(dir.path() + "/none.json");
        QCOMPARE(missing.load(), std::nullopt); // no file yet: an empty store
        QVERIFY(missing.profiles().isEmpty());
    }

    // A corrupt or truncated profiles.json is kept aside, never overwritten by the next save.
    void brokenFileIsKeptAsideNotOverwritten()
    {
        for (const QByteArray& bytes : {QByteArray("{\"version\": 1, \"profiles\": [{\"name\": \"prod\", \"ds"),
                                        QByteArray("\x00\x00\x00"), QByteArray("[]")}) {
            QTemporaryDir dir;
            const QString path = dir.path() + "/profiles.json";
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
            f.close();
            ProfileStore store(path);
            QVERIFY(store.load().has_value());
            QVERIFY(store.profiles().isEmpty());
            QVERIFY(store.keptAside().startsWith(path + ".broken-"));
            QFile kept(store.keptAside());
            QVERIFY(kept.open(QIODevice::ReadOnly));
            QCOMPARE(kept.readAll(), bytes); // exactly what was there
            Profile p;
            p.name = QStringLiteral("new");
            p.dsn = QStringLiteral("host=db1 dbname=app");
            store.upsert(p);
            QCOMPARE(store.save(), std::nullopt); // a fresh file; the broken one stays aside
            QVERIFY(QFile::exists(store.keptAside()));
            ProfileStore again(path);
            QCOMPARE(again.load(), std::nullopt);
            QCOMPARE(again.profiles().size(), 1);
        }
    }

    // A broken file that cannot be moved aside (its directory is not writable) is not overwritten.
    void brokenFileThatCannotMoveIsNeverSaved()
    {
        ProfileStore store(QStringLiteral("/proc/self/status")); // exists, not JSON, cannot be renamed
        QVERIFY(store.load().has_value());
        QVERIFY(store.keptAside().isEmpty());
        Profile p;
        p.name = QStringLiteral("new");
        p.dsn = QStringLiteral("host=db1 dbname=app");
        store.upsert(p);
        QVERIFY(store.save().has_value());
    }

    void commandLineUsesAProfile()
    {
        QTemporaryDir dir;
        ProfileStore store(dir.path() + "/profiles.json");
        store.upsert(sample("shedlock"));
        using Mode = lw::app::Invocation::Mode;

        auto inv = lw::app::parseCommandLine({"leasewatch", "snapshot", "prod billing"}, &store);
        QCOMPARE(inv.mode, Mode::Snapshot);
        QVERIFY(inv.profile);
        QCOMPARE(inv.config.connect.dsn, sample("shedlock").conninfo());
        QCOMPARE(inv.config.leases.table, QStringLiteral("shedlock"));
        QCOMPARE(inv.config.intervalMs, 2500);
        QCOMPARE(inv.config.analysis.poolSizes.value("billing-api"), 4);
        QCOMPARE(inv.config.analysis.thresholds.idleHoldingS, 42.0);
        QVERIFY(inv.config.operatorMode);

        // Options given override the profile; the rest of it stays.
        inv = lw::app::parseCommandLine({"leasewatch", "watch", "prod billing", "--interval", "500", "--table",
                                         "ops.locks"},
                                        &store);
        QCOMPARE(inv.mode, Mode::Watch);
        QCOMPARE(inv.config.intervalMs, 500);
        QCOMPARE(inv.config.leases.qualifiedName(), QStringLiteral("ops.locks"));
        QCOMPARE(inv.config.leases.expiresAtColumn, QStringLiteral("lock_until")); // still ShedLock's

        // Not a profile: a DSN as before.
        inv = lw::app::parseCommandLine({"leasewatch", "snapshot", "host=h dbname=d"}, &store);
        QVERIFY(!inv.profile);
        QCOMPARE(inv.config.connect.dsn, QStringLiteral("host=h dbname=d"));
        QCOMPARE(inv.config.leases.table, QStringLiteral("leases"));
    }

    void expireNeedsAHolder()
    {
        using Mode = lw::app::Invocation::Mode;
        auto inv = lw::app::parseCommandLine({"leasewatch", "expire", "host=h dbname=d", "sweep"});
        QCOMPARE(inv.mode, Mode::Error);
        QVERIFY(inv.error.contains("--holder"));
        inv = lw::app::parseCommandLine(
            {"leasewatch", "expire", "host=h dbname=d", "sweep", "--holder", "a:1:b", "--operator"});
        QCOMPARE(inv.mode, Mode::Expire);
        QCOMPARE(inv.leaseName, QStringLiteral("sweep"));
        QCOMPARE(inv.holder, QStringLiteral("a:1:b"));
        QVERIFY(inv.config.operatorMode);
        QVERIFY(!inv.evenIfAlive);
    }
};

QTEST_GUILESS_MAIN(TestProfiles)
#include "tst_profiles.moc"
