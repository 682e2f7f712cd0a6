// The command line: modes, presets and errors, decided before any QApplication exists.
#include "Cli.h"
#include "MetricsServer.h"

#include <QTemporaryDir>
#include <QTest>

using lw::Profile;
using lw::ProfileStore;
using lw::app::Invocation;
using lw::app::parseCommandLine;
using lw::app::parseMetricsAddress;

class TestCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("mode");
        QTest::newRow("help") << QStringList{"lw", "--help"} << int(Invocation::Mode::Help);
        QTest::newRow("version") << QStringList{"lw", "--version"} << int(Invocation::Mode::Version);
        QTest::newRow("demo") << QStringList{"lw", "--demo"} << int(Invocation::Mode::Demo);
        QTest::newRow("gui dsn") << QStringList{"lw", "host=/tmp dbname=x"} << int(Invocation::Mode::Gui);
        QTest::newRow("snapshot") << QStringList{"lw", "snapshot", "host=/tmp", "--json"}
                                  << int(Invocation::Mode::Snapshot);
        QTest::newRow("no dsn: ask in the window") << QStringList{"lw"} << int(Invocation::Mode::GuiAsk);
        QTest::newRow("two dsns") << QStringList{"lw", "host=a", "host=b"} << int(Invocation::Mode::Error);
        QTest::newRow("snapshot without dsn")
            << QStringList{"lw", "snapshot"} << int(Invocation::Mode::Error);
        QTest::newRow("bad dsn") << QStringList{"lw", "host='x"} << int(Invocation::Mode::Error);
        QTest::newRow("bad preset") << QStringList{"lw", "--preset", "nope", "host=x"}
                                    << int(Invocation::Mode::Error);
        QTest::newRow("unknown option") << QStringList{"lw", "--frobnicate"} << int(Invocation::Mode::Error);
        // Issue 51: --lang de|en, on every command.
        QTest::newRow("--lang de") << QStringList{"lw", "--lang", "de", "host=x"} << int(Invocation::Mode::Gui);
        QTest::newRow("watch --lang en") << QStringList{"lw", "watch", "host=x", "--lang", "EN"}
                                         << int(Invocation::Mode::Watch);
        QTest::newRow("--lang fr") << QStringList{"lw", "--lang", "fr", "host=x"} << int(Invocation::Mode::Error);
    }
    void modes()
    {
        QFETCH(QStringList, args);
        const Invocation inv = parseCommandLine(args);
        QTEST(int(inv.mode), "mode");
        if (inv.mode == Invocation::Mode::Error)
            QVERIFY(!inv.error.isEmpty());
    }

    // record: several databases, each with its own store; a DSN's password never names anything.
    // The live feed (issue 49): a window or watch on feed://, the recorder's --serve and --token.
    void feedAddresses()
    {
        const Invocation w = parseCommandLine({"lw", "feed://10.0.0.5:9472/prod", "--token", "/t/feed.token"});
        QCOMPARE(w.mode, Invocation::Mode::Gui);
        QVERIFY(w.feed);
        QCOMPARE(w.feed->port, quint16(9472));
        QCOMPARE(w.feed->database, QStringLiteral("prod"));
        QCOMPARE(w.feed->tokenFile, QStringLiteral("/t/feed.token"));
        QVERIFY(w.config.connect.dsn.isEmpty()); // nothing to connect to
        QVERIFY(parseCommandLine({"lw", "watch", "feed://10.0.0.5:9472"}).feed);
        QVERIFY(!parseCommandLine({"lw", "watch", "host=db1"}).feed);
        QCOMPARE(parseCommandLine({"lw", "feed://nohost"}).mode, Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "snapshot", "feed://h:1"}).mode, Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "feed://h:1", "--operator"}).mode, Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "feed://h:1", "--direct"}).mode, Invocation::Mode::Error);
        QVERIFY(parseCommandLine({"lw", "watch", "host=db1", "--direct"}).direct);
        QCOMPARE(parseCommandLine({"lw", "record", "host=db1", "--serve", "9472"}).serve, QStringLiteral("9472"));
        QCOMPARE(parseCommandLine({"lw", "record", "host=db1", "--serve", "db.example:9472"}).mode,
                 Invocation::Mode::Error);
    }

    void recordTakesSeveralDatabases()
    {
        const Invocation inv = parseCommandLine(
            {"lw", "record", "host=db1 dbname=a password=s3cret", "host=db2 dbname=b", "--interval", "500"});
        QCOMPARE(inv.mode, Invocation::Mode::Record);
        QCOMPARE(inv.targets.size(), size_t(2));
        QCOMPARE(inv.targets[0].config.connect.dsn, QStringLiteral("host=db1 dbname=a password=s3cret"));
        QCOMPARE(inv.targets[1].config.intervalMs, 500);
        QVERIFY(!inv.targets[0].label.contains("s3cret"));
        QVERIFY(!inv.targets[0].storeName.contains("s3cret"));
        QVERIFY(inv.targets[0].storeName != inv.targets[1].storeName);
        QCOMPARE(parseCommandLine({"lw", "record"}).mode, Invocation::Mode::Error);
        // --metrics belongs to the recorder, not to a database: every target still parses.
        const Invocation m = parseCommandLine({"lw", "record", "host=db1 dbname=a", "--metrics", "9471", "host=db2 dbname=b"});
        QCOMPARE(m.mode, Invocation::Mode::Record);
        QCOMPARE(m.targets.size(), size_t(2));
        QCOMPARE(m.metrics, QStringLiteral("9471"));
        QCOMPARE(parseCommandLine({"lw", "record", "host=db1", "--metrics=0.0.0.0:9471"}).metrics,
                 QStringLiteral("0.0.0.0:9471"));
        QCOMPARE(parseCommandLine({"lw", "record", "host=db1", "--metrics", "[::1]:9471"}).mode, Invocation::Mode::Record);
        QCOMPARE(parseCommandLine({"lw", "record", "host=db1", "--metrics", "db.example:9471"}).mode,
                 Invocation::Mode::Error); // a name could bind anywhere: an address is asked for
        QCOMPARE(parseCommandLine({"lw", "record", "host=db1", "--metrics", "70000"}).mode, Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "host=db1", "--metrics", "9471"}).mode, Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "--fleet"}).mode, Invocation::Mode::Fleet);
        QCOMPARE(parseCommandLine({"lw", "--fleet", "host=db1"}).mode, Invocation::Mode::Error);
        // Two DSNs that differ only by their password would be one database in the logs and metrics.
        QCOMPARE(parseCommandLine({"lw", "record", "host=db1 password=a", "host=db1 password=b"}).mode,
                 Invocation::Mode::Error);
        // bundle: a database and a file; the last hour unless told.
        const Invocation b = parseCommandLine({"lw", "bundle", "host=db1 dbname=a", "out.lwbundle"});
        QCOMPARE(b.mode, Invocation::Mode::CutBundle);
        QCOMPARE(b.bundleFile, QStringLiteral("out.lwbundle"));
        QCOMPARE(b.bundleMinutes, 60);
        QCOMPARE(parseCommandLine({"lw", "bundle", "host=db1", "out", "--minutes", "15"}).bundleMinutes, 15);
        QCOMPARE(parseCommandLine({"lw", "bundle", "host=db1"}).mode, Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "bundle", "host=db1", "out", "--minutes", "0"}).mode, Invocation::Mode::Error);
        // Bound to the loopback unless another address is written.
        QCOMPARE(parseMetricsAddress("9471")->address, QHostAddress(QHostAddress::LocalHost));
        QCOMPARE(parseMetricsAddress("9471")->port, quint16(9471));
        QCOMPARE(parseMetricsAddress("[::1]:9471")->address, QHostAddress(QHostAddress::LocalHostIPv6));
        // Options apply to each, as in the window; a stored profile brings its own settings.
        QTemporaryDir dir;
        ProfileStore store(dir.filePath("profiles.json"));
        Profile prod;
        prod.name = QStringLiteral("prod");
        prod.dsn = QStringLiteral("host=db3 dbname=p");
        prod.operatorMode = true;
        prod.lockNames = {QStringLiteral("nightly")};
        store.upsert(prod);
        const Invocation mixed = parseCommandLine({"lw", "record", "prod", "host=db4 dbname=q", "--table", "ops.leases"}, &store);
        QCOMPARE(mixed.mode, Invocation::Mode::Record);
        QCOMPARE(mixed.targets.size(), size_t(2));
        QCOMPARE(mixed.targets[0].storeName, QStringLiteral("prod"));
        QCOMPARE(mixed.targets[0].config.connect.dsn, QStringLiteral("host=db3 dbname=p"));
        QCOMPARE(mixed.targets[0].config.leases.qualifiedName(), QStringLiteral("ops.leases"));
        QVERIFY(mixed.targets[0].config.operatorMode);
        QCOMPARE(mixed.targets[1].config.connect.dsn, QStringLiteral("host=db4 dbname=q"));
        QVERIFY(!mixed.targets[1].config.operatorMode); // not the profile's
        QVERIFY(mixed.targets[1].config.lockNames.isEmpty());
        QCOMPARE(mixed.targets[1].config.leases.qualifiedName(), QStringLiteral("ops.leases"));
        QCOMPARE(parseCommandLine({"lw", "record", "host=x", "port=notanumber host=y ="}).mode, Invocation::Mode::Error);
    }

    // Each command takes its own options: one given to a command it means nothing to is an error
    // naming that command's help, and each command's --help lists only its own.
    void commandsTakeTheirOwnOptions()
    {
        const Invocation wrong = parseCommandLine({"lw", "snapshot", "host=x", "--minutes", "5"});
        QCOMPARE(wrong.mode, Invocation::Mode::Error);
        QVERIFY2(wrong.error.contains("minutes") && wrong.error.contains("leasewatch snapshot --help"),
                 qPrintable(wrong.error));
        QCOMPARE(parseCommandLine({"lw", "snapshot", "host=x", "--count", "3"}).mode, Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "watch", "host=x", "--count", "3"}).watchCount, 3);
        QCOMPARE(parseCommandLine({"lw", "expire", "host=x", "job", "--holder", "h", "--json"}).mode,
                 Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "bundle", "host=x", "out", "--table", "t"}).mode, Invocation::Mode::Error);
        QCOMPARE(parseCommandLine({"lw", "--json", "host=x"}).mode, Invocation::Mode::Error);

        const Invocation snapshotHelp = parseCommandLine({"lw", "snapshot", "--help"});
        QCOMPARE(snapshotHelp.mode, Invocation::Mode::Help);
        QVERIFY(snapshotHelp.helpText.startsWith("Usage: leasewatch [options] snapshot PROFILE|DSN..."));
        QVERIFY(snapshotHelp.helpText.contains("--json"));
        QVERIFY(snapshotHelp.helpText.contains("--table"));
        QVERIFY(!snapshotHelp.helpText.contains("--metrics"));
        QVERIFY(!snapshotHelp.helpText.contains("--screenshots"));
        const Invocation recordHelp = parseCommandLine({"lw", "record", "--help"});
        QVERIFY(recordHelp.helpText.contains("--metrics"));
        QVERIFY(!recordHelp.helpText.contains("--json"));
        const Invocation overview = parseCommandLine({"lw", "--help"});
        QVERIFY(overview.helpText.contains("leasewatch COMMAND --help"));
        QVERIFY(overview.helpText.contains("--screenshots"));
        QVERIFY(!overview.helpText.contains("--holder <holder>")); // named in the overview, not an option here
    }

    void presetAndTable()
    {
        Invocation inv = parseCommandLine({"lw", "--preset", "shedlock", "host=x"});
        QCOMPARE(inv.config.leases.table, QStringLiteral("shedlock"));
        QCOMPARE(inv.config.leases.expiresAtColumn, QStringLiteral("lock_until"));
        QVERIFY(inv.config.leases.writerUsesAppClock);
        inv = parseCommandLine({"lw", "--table", "ops.my leases", "host=x"});
        QCOMPARE(inv.config.leases.schema, QStringLiteral("ops"));
        QCOMPARE(inv.config.leases.table, QStringLiteral("my leases"));
    }
};

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
