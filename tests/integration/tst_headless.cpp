// `leasewatch snapshot PROFILE`, `watch` and `expire`, run as an on-call engineer would over SSH:
// the real binary, no display, a real database, profiles in a private config directory.
#include "Programs.h"
#include "store/AuditLog.h"
#include "Profile.h"
#include "TestCluster.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {
using Run = lw::test::ProcessResult;
Run leasewatch(const QStringList& args)
{
    return lw::test::runProcess(lw::test::leasewatchBin(), args, false, 60000);
}
constexpr char kLeases[] = "CREATE TABLE leases(name text primary key, holder text, taken_at timestamptz, "
                           "expires_at timestamptz)";
} // namespace

class TestHeadless : public QObject
{
    Q_OBJECT
    QTemporaryDir home_;

    QString profilesPath() const { return home_.path() + "/config/Leasewatch/leasewatch/profiles.json"; }
    QString auditPath() const { return home_.path() + "/data/Leasewatch/leasewatch/audit.sqlite"; }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(home_.isValid());
        // The child processes find their profiles and audit log here, not in the real home.
        qputenv("XDG_CONFIG_HOME", (home_.path() + "/config").toUtf8());
        qputenv("XDG_DATA_HOME", (home_.path() + "/data").toUtf8());
    }

    void snapshotOfAProfileByName()
    {
        lw::test::TestDatabase db("hl_profile");
        db.exec(kLeases);
        db.exec("CREATE TABLE jobs_lease(name text primary key, holder text, taken_at timestamptz, "
                "expires_at timestamptz)");
        db.exec("INSERT INTO jobs_lease VALUES ('compactor', 'w1:7:aa', now(), now() + interval '1 h')");
        lw::ProfileStore store(profilesPath());
        lw::Profile p;
        p.name = "stage";
        p.dsn = db.dsn();
        p.leases.table = "jobs_lease";
        store.upsert(p);
        QCOMPARE(store.save(), std::nullopt);

        Run r = leasewatch({"snapshot", "stage", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
        QCOMPARE(doc["server"]["database"].toString(), db.name());
        const QJsonArray rows = doc["leases"]["rows"].toArray();
        QCOMPARE(rows.size(), 1); // the profile's table, not the default one
        QCOMPARE(rows[0]["name"].toString(), QStringLiteral("compactor"));

        // An option given on the command line overrides the profile.
        r = leasewatch({"snapshot", "stage", "--json", "--table", "leases"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8())["leases"]["rows"].toArray().size(), 0);

        // A name that is neither a profile nor a DSN says so.
        r = leasewatch({"snapshot", "no-such-profile"});
        QVERIFY(r.code != 0);
        QVERIFY2(!r.err.trimmed().isEmpty() && r.err.trimmed().count('\n') == 0, qPrintable(r.err));
    }

    void watchAppendsWhenNotATerminal()
    {
        lw::test::TestDatabase db("hl_watch");
        db.exec(kLeases);
        // A name no other test uses: the output lists advisory locks of the whole server, and the
        // tests running beside this one hold keys named after their own leases.
        db.exec("INSERT INTO leases VALUES ('hl-watch-only', 'app-1:42:ab', now(), now() + interval '1 min')");
        Run r = leasewatch({"watch", db.dsn(), "--count", "3", "--interval", "200"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out.count("=== refresh "), 3);
        QCOMPARE(r.out.count("hl-watch-only"), 3);
        QVERIFY(!r.out.contains("\x1b[2J")); // no terminal: no redraw codes in a log file

        r = leasewatch({"watch", db.dsn(), "--json", "--count", "2", "--interval", "200"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2); // JSON Lines: one refresh per line
        for (const QString& line : lines) {
            const QJsonDocument doc = QJsonDocument::fromJson(line.toUtf8());
            QVERIFY(doc.isObject());
            QCOMPARE(doc["leases"]["rows"].toArray().size(), 1);
        }
    }

    // Several databases: one line each first, worst first (the silent one, then the one with a
    // crashed holder's stale lease, then the healthy one), then each one's refresh.
    void severalDatabasesOneLineEachWorstFirst()
    {
        lw::test::TestDatabase ok("hl_many_ok");
        ok.exec(kLeases);
        ok.exec("INSERT INTO leases VALUES ('sweep', 'app-1:42:ab', now(), now() + interval '1 h')");
        lw::test::TestDatabase bad("hl_many_bad");
        bad.exec(kLeases);
        bad.exec("INSERT INTO leases VALUES ('nightly', 'app-2:7:cd', now() - interval '2 h', now() - interval '10 min')");
        lw::ProfileStore store(profilesPath());
        QCOMPARE(store.load(), std::nullopt);
        lw::Profile p;
        p.name = "billing";
        p.dsn = bad.dsn();
        store.upsert(p);
        QCOMPARE(store.save(), std::nullopt);
        const QString silent = QStringLiteral("host=127.0.0.1 port=1 dbname=x connect_timeout=2");

        Run r = leasewatch({"snapshot", ok.dsn(), "billing", silent, "--json"});
        QCOMPARE(r.code, 1); // one could not be read
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
        const QJsonArray dbs = doc["databases"].toArray();
        const QByteArray said = QJsonDocument(dbs).toJson();
        QCOMPARE(dbs.size(), 3);
        QVERIFY2(!dbs[0]["live"].toBool() && !dbs[0]["cause"].toString().isEmpty(), said.constData());
        // Worst first. Sessions are server-wide, so other tests' findings on this cluster may show
        // in both live databases; the crashed holder's stale lease only in billing.
        QVERIFY2(dbs[1]["worst_severity"].toInt() >= dbs[2]["worst_severity"].toInt(), said.constData());
        QJsonObject billing;
        for (const QJsonValue& d : dbs)
            if (d["database"].toString() == u"billing")
                billing = d.toObject();
        QVERIFY2(billing["live"].toBool() && billing["worst_severity"].toInt() == 3 && billing["critical"].toInt() >= 1,
                 said.constData());
        const QJsonArray snaps = doc["snapshots"].toArray();
        QCOMPARE(snaps.size(), 2); // the silent one has none
        for (const QJsonValue& snap : snaps) {
            const bool isBilling = snap["database"].toString() == u"billing";
            QCOMPARE(snap["leases"]["rows"][0]["state"].toString(), isBilling ? QStringLiteral("stale") : QStringLiteral("held"));
        }

        r = leasewatch({"snapshot", "billing", ok.dsn()});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split('\n');
        QVERIFY2(lines.size() > 3 && (lines[0].startsWith("billing ") || lines[1].startsWith("billing ")) &&
                     (lines[0].contains(ok.name()) || lines[1].contains(ok.name())),
                 qPrintable(r.out));
        QCOMPARE(r.out.count("\n=== "), 2); // then each one's refresh

        r = leasewatch({"watch", "billing", ok.dsn(), "--json", "--count", "2", "--interval", "200"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList rounds = r.out.trimmed().split('\n');
        QCOMPARE(rounds.size(), 2); // JSON Lines: one round of every database per line
        for (const QString& line : rounds)
            QCOMPARE(QJsonDocument::fromJson(line.toUtf8())["databases"].toArray().size(), 2);
    }

    void watchKeepsGoingThroughAnOutage()
    {
        // Nothing listens there: each refresh says so in one line and the command keeps watching.
        const Run r = leasewatch({"watch", "host=127.0.0.1 port=1 dbname=x connect_timeout=2", "--count", "2",
                                  "--interval", "100"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.out.count(" NOT ANSWERING: "), 2);
        QVERIFY2(!r.out.contains("all clear", Qt::CaseInsensitive), qPrintable(r.out));
        // JSON Lines stay JSON through an outage: not live, since when, the cause the console can tell.
        const Run j = leasewatch({"watch", "host=127.0.0.1 port=1 dbname=x connect_timeout=2", "--count", "2",
                                  "--interval", "100", "--json"});
        QCOMPARE(j.code, 1);
        const QStringList lines = j.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        for (const QString& line : lines) {
            const QJsonDocument doc = QJsonDocument::fromJson(line.toUtf8());
            QVERIFY2(doc.isObject(), qPrintable(line));
            QCOMPARE(doc["live"].toBool(true), false);
            QCOMPARE(doc["cause"].toString(), QStringLiteral("refused"));
            QVERIFY(doc["retry_in_s"].toDouble() > 0);
            QVERIFY(!doc["since"].toString().isEmpty());
        }
    }

    void expireIsGuarded()
    {
        lw::test::TestDatabase db("hl_expire");
        db.exec(kLeases);
        db.exec("INSERT INTO leases VALUES ('crashed', 'h1:100:aa', now() - interval '10 s', now() + interval "
                "'1 h'), ('stale', 'h2:200:bb', now() - interval '2 min', now() - interval '1 min')");
        const QString expiresBefore = db.value("SELECT expires_at FROM leases WHERE name = 'crashed'");

        // Operator mode off: refused, nothing sent.
        Run r = leasewatch({"expire", db.dsn(), "crashed", "--holder", "h1:100:aa"});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains("operator mode is off"), qPrintable(r.err));
        // Another holder than the one named: refused, nothing sent.
        r = leasewatch({"expire", db.dsn(), "crashed", "--holder", "h9:9:99", "--operator"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("is held by \"h1:100:aa\""), qPrintable(r.err));
        // A holder that may be alive (nothing tells it is dead): refused without the explicit go-ahead.
        r = leasewatch({"expire", db.dsn(), "crashed", "--holder", "h1:100:aa", "--operator"});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains("--even-if-alive"), qPrintable(r.err));
        QCOMPARE(db.value("SELECT expires_at FROM leases WHERE name = 'crashed'"), expiresBefore);

        // With it, the compare-and-set expires the lease, on the server's clock, and says so.
        r = leasewatch({"expire", db.dsn(), "crashed", "--holder", "h1:100:aa", "--operator", "--even-if-alive"});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(db.value("SELECT expires_at <= now() FROM leases WHERE name = 'crashed'"), QStringLiteral("t"));
        QCOMPARE(db.value("SELECT holder FROM leases WHERE name = 'crashed'"), QStringLiteral("h1:100:aa"));

        // A stale lease whose holder shows no sign of life goes without the extra flag.
        r = leasewatch({"expire", db.dsn(), "stale", "--holder", "h2:200:bb", "--operator"});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));

        // Both on record in the same audit log as the window's, with their outcome.
        lw::AuditLog audit(auditPath());
        QVERIFY2(audit.isOpen(), qPrintable(audit.errorString()));
        const auto records = audit.records();
        QCOMPARE(int(records.size()), 2);
        for (const lw::AuditRecord& rec : records) {
            QCOMPARE(rec.action, QStringLiteral("force-expire"));
            QCOMPARE(rec.outcomeKey, QStringLiteral("expired"));
            QVERIFY(rec.database.startsWith(db.name()));
        }
    }
};

QTEST_GUILESS_MAIN(TestHeadless)
#include "tst_headless.moc"
