// Bad inputs and what the operator reads: for each, one line (PgError::toDisplayString(), what the
// status bar and `leasewatch snapshot` show) naming the problem, the SQLSTATE where the server sent
// one, and what to do — against a real private server (TCP, scram-sha-256, tiny max_connections).
//
// Problems with the leases table itself (missing table 42P01, missing or mistyped columns 42703,
// no SELECT privilege 42501) are covered by tests/integration/tst_poller.cpp `tableProblems`; a
// server older than the supported 13 by tst_fault_version.
#include "FaultSupport.h"
#include "Monitor.h"
#include "Poller.h"
#include "TestCluster.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace lw;
using Kind = DbError::Kind;

namespace {
// A TCP port that accepts connections (the kernel completes the handshake) but never answers:
// a server that hangs during connect.
class SilentListener
{
public:
    SilentListener()
    {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0 ||
            ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
            return;
        port_ = ntohs(a.sin_port);
    }
    ~SilentListener()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    SilentListener(const SilentListener&) = delete;
    SilentListener& operator=(const SilentListener&) = delete;
    int port() const { return port_; }

private:
    int fd_ = -1;
    int port_ = -1;
};

int sockOpt(int fd, int level, int name)
{
    int v = -1;
    socklen_t len = sizeof v;
    return ::getsockopt(fd, level, name, &v, &len) == 0 ? v : -1;
}
} // namespace

class TestFaultMessages : public QObject
{
    Q_OBJECT

    std::unique_ptr<fault::PrivateServer> srv_;
    std::unique_ptr<SilentListener> silent_;
    QTemporaryDir home_;
    int port_ = 0;
    int closedPort_ = 0;

    QString expand(QString dsn) const
    {
        return dsn.replace(QLatin1String("%PORT%"), QString::number(port_))
            .replace(QLatin1String("%CLOSED%"), QString::number(closedPort_))
            .replace(QLatin1String("%SILENT%"), QString::number(silent_->port()))
            .replace(QLatin1String("%SU%"), srv_->superuser());
    }

    static PollerConfig configFor(const QString& dsn)
    {
        PollerConfig c;
        c.connect.dsn = dsn;
        c.connect.connectTimeoutS = 1;
        return c;
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto opts = test::privateClusterOptions(QStringLiteral("messages"));
        port_ = fault::freeTcpPort();
        closedPort_ = fault::freeTcpPort();
        QVERIFY(port_ > 0 && closedPort_ > 0 && port_ != closedPort_);
        opts.tcp = true;
        opts.port = port_;
        // Tiny, and no slots held back for superusers: "too many clients" is easy to reach.
        opts.maxConnections = 5;
        opts.extraSettings << QStringLiteral("superuser_reserved_connections = 0")
                           << QStringLiteral("password_encryption = 'scram-sha-256'");
        srv_ = std::make_unique<fault::PrivateServer>(opts);
        const auto err = srv_->start();
        QVERIFY2(!err, qPrintable(err.value_or(QString())));
        silent_ = std::make_unique<SilentListener>();
        QVERIFY(silent_->port() > 0);

        test::execSql(srv_->dsn(), "CREATE ROLE lw_pw LOGIN PASSWORD 'right-secret'; "
                                   "CREATE ROLE lw_badpw LOGIN PASSWORD 'right-secret'; "
                                   "CREATE ROLE lw_nopw LOGIN PASSWORD 'right-secret'; "
                                   "CREATE ROLE lw_fill LOGIN");
        // Password roles over TCP must authenticate with scram-sha-256; the line goes first because
        // initdb's "trust" lines would match otherwise (first match wins).
        QFile hba(srv_->dataDir() + QStringLiteral("/pg_hba.conf"));
        QVERIFY(hba.open(QIODevice::ReadOnly));
        const QByteArray rest = hba.readAll();
        hba.close();
        QVERIFY(hba.open(QIODevice::WriteOnly | QIODevice::Truncate));
        hba.write("host all lw_pw,lw_badpw,lw_nopw 127.0.0.1/32 scram-sha-256\n" + rest);
        hba.close();
        test::execSql(srv_->dsn(), "SELECT pg_reload_conf()");
        QCOMPARE(
            test::queryValue(srv_->dsn(), "SELECT count(*) FROM pg_hba_file_rules WHERE error IS NOT NULL"),
            QStringLiteral("0"));
        QVERIFY(fault::waitFor(
            [&] {
                return test::queryValue(srv_->dsn(), "SELECT auth_method FROM pg_hba_file_rules ORDER BY "
                                                     "line_number LIMIT 1") == QLatin1String("scram-sha-256");
            },
            5000));

        // The passwords come from a PGPASSFILE, as for psql (libpq ignores it unless mode 0600).
        QVERIFY(home_.isValid());
        const QString passfile = home_.filePath(QStringLiteral("pgpass"));
        QFile pf(passfile);
        QVERIFY(pf.open(QIODevice::WriteOnly));
        pf.write(QStringLiteral("127.0.0.1:%1:*:lw_pw:right-secret\n127.0.0.1:%1:*:lw_badpw:wrong-secret\n")
                     .arg(port_)
                     .toUtf8());
        pf.close();
        QVERIFY(pf.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        qputenv("PGPASSFILE", QFile::encodeName(passfile));
    }
    void cleanupTestCase()
    {
        silent_.reset();
        srv_.reset();
    }

    // The set-up above is sound: the right password from the PGPASSFILE gets in over scram.
    void passwordFromPassfileConnects()
    {
        Poller p(configFor(expand("host=127.0.0.1 port=%PORT% user=lw_pw dbname=postgres")));
        const Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QCOMPARE(s.server.user, QStringLiteral("lw_pw"));
    }

    // The status bar's kB. Over TCP: the bytes the kernel received for the refresh, which are
    // exactly the protocol's messages. Over a Unix socket: the results' memory, marked not exact.
    void bytesReceivedAreCountedOnTheWire()
    {
        const auto deadline = [] { return pg::Clock::now() + std::chrono::seconds(10); };
        const std::vector<pg::Statement> rows = {{"SELECT g FROM generate_series(1, 10000) g", {}}};
        std::vector<pg::StatementResult> res;
        pg::Connection tcp;
        pg::ConnectOptions o;
        o.dsn = expand("host=127.0.0.1 port=%PORT% user=%SU% dbname=postgres sslmode=disable");
        QVERIFY2(!tcp.connect(o).isError(), qPrintable(o.dsn));
        QVERIFY(!tcp.runPipeline(rows, res, deadline()).isError());
        QVERIFY(tcp.lastBytesExact());
        // ParseComplete, BindComplete, RowDescription (one int4 column "g"), 10 000 DataRows of
        // 11 bytes plus the digits (38 894 in all), CommandComplete "SELECT 10000", ReadyForQuery.
        const qint64 wire = 5 + 5 + (7 + 2 + 18) + (10000 * 11 + 38894) + (5 + 13) + 6;
        QCOMPARE(tcp.lastBytesReceived(), wire);
        QVERIFY(!tcp.runPipeline({{"SELECT 1", {}}}, res, deadline()).isError());
        QCOMPARE(tcp.lastBytesReceived(), 5 + 5 + (7 + 9 + 18) + (11 + 1) + (5 + 9) + 6); // "?column?"

        pg::Connection local;
        o.dsn = srv_->dsn();
        QVERIFY(!local.connect(o).isError());
        QVERIFY(!local.runPipeline(rows, res, deadline()).isError());
        QVERIFY(!local.lastBytesExact());
        QVERIFY(local.lastBytesReceived() > wire); // libpq's memory for the rows: more than the wire

        // The poller's snapshot carries both.
        Poller p(configFor(expand("host=127.0.0.1 port=%PORT% user=%SU% dbname=postgres sslmode=disable")));
        const Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
        QVERIFY(s.bytesExact);
        QVERIFY(s.bytesReceived > 0);
    }

    void badInputs_data()
    {
        QTest::addColumn<QString>("dsn");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<QString>("sqlstate"); // empty: none to show
        QTest::addColumn<QString>("problem");  // names the problem
        QTest::addColumn<QString>("advice");   // says what to do

        QTest::newRow("malformed") << "host='oops dbname=x" << Kind::BadConnectionString << ""
                                   << "invalid connection string"
                                   << "use key=value pairs";
        QTest::newRow("unknown host")
            << "host=leasewatch-no-such-host.invalid port=%PORT% dbname=postgres" << Kind::ConnectFailed << ""
            << "could not translate host name \"leasewatch-no-such-host.invalid\""
            << "the host name does not resolve";
        QTest::newRow("refused") << "host=127.0.0.1 port=%CLOSED% dbname=postgres" << Kind::ConnectFailed
                                 << ""
                                 << "Connection refused"
                                 << "is the server running";
        QTest::newRow("server never answers")
            << "host=127.0.0.1 port=%SILENT% dbname=postgres" << Kind::Timeout << ""
            << "timeout expired while connecting"
            << "the server did not answer in time";
        QTest::newRow("wrong password")
            << "host=127.0.0.1 port=%PORT% user=lw_badpw dbname=postgres" << Kind::ConnectFailed << "28P01"
            << "password authentication failed for user \"lw_badpw\""
            << "check the user name and the password";
        QTest::newRow("no password") << "host=127.0.0.1 port=%PORT% user=lw_nopw dbname=postgres"
                                     << Kind::ConnectFailed << ""
                                     << "no password supplied"
                                     << "PGPASSFILE";
        QTest::newRow("unknown role")
            << "host=127.0.0.1 port=%PORT% user=lw_nobody dbname=postgres" << Kind::ConnectFailed << "28000"
            << "role \"lw_nobody\" does not exist"
            << "check the user name (user=";
        QTest::newRow("missing database")
            << "host=127.0.0.1 port=%PORT% user=%SU% dbname=lw_no_such_db" << Kind::ConnectFailed << "3D000"
            << "database \"lw_no_such_db\" does not exist"
            << "check the database name";
        // Last: fills every slot of the server (released again at the end of the row).
        QTest::newRow("too many clients")
            << "host=127.0.0.1 port=%PORT% user=lw_fill dbname=postgres" << Kind::ConnectFailed << "53300"
            << "too many clients"
            << "no free connection slot";
    }
    void badInputs()
    {
        QFETCH(QString, dsn);
        QFETCH(Kind, kind);
        QFETCH(QString, sqlstate);
        QFETCH(QString, problem);
        QFETCH(QString, advice);
        dsn = expand(dsn);

        std::vector<pg::Connection> fill; // holds every slot while the row runs
        if (QTest::currentDataTag() == QLatin1String("too many clients")) {
            pg::ConnectOptions o;
            o.dsn = dsn;
            for (int i = 0; i < 20; ++i) {
                pg::Connection c;
                if (c.connect(o).isError())
                    break;
                fill.push_back(std::move(c));
            }
            QVERIFY(!fill.empty() && fill.size() < 20);
        }

        Poller p(configFor(dsn));
        const Snapshot s = p.refreshOnce();
        QVERIFY(!s.ok);
        const QString shown = s.error.toDisplayString();
        qInfo("%s: %s", QTest::currentDataTag(), qPrintable(shown));
        QCOMPARE(s.error.kind, kind);
        QCOMPARE(s.error.sqlstate, sqlstate);
        QVERIFY2(shown.contains(problem), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral(" — ")) && shown.contains(advice), qPrintable(shown));
        if (!sqlstate.isEmpty())
            QVERIFY2(shown.contains(QStringLiteral("(SQLSTATE %1)").arg(sqlstate)), qPrintable(shown));
        QVERIFY2(!shown.contains(QLatin1Char('\n')) && !shown.contains(QLatin1Char('\t')), qPrintable(shown));
        QVERIFY2(!shown.contains(QLatin1String("FATAL:")), qPrintable(shown)); // libpq's prefix, not ours
        // A failed connect is retried by the loop (not a state it gives up in), except a DSN that
        // can never parse — which is still retried with backoff, harmlessly.
        if (kind != Kind::BadConnectionString)
            QVERIFY(s.error.needsReconnect());

        fill.clear();
        if (!QTest::currentTestFailed())
            QVERIFY(fault::waitFor(
                [&] {
                    return test::queryValue(srv_->dsn(), "SELECT count(*) FROM pg_stat_activity WHERE "
                                                         "usename = 'lw_fill'") == QLatin1String("0");
                },
                5000));
    }

    // Issue 26, point 5: a role whose statement_timeout is forced to 1 ms (ALTER ROLE … SET). The
    // console's own bound comes with the connection (startup options outrank role settings), so
    // its statements run to their own deadline and the refresh works.
    void roleStatementTimeoutForcedLowStillRefreshes()
    {
        test::execSql(srv_->dsn(), "DROP ROLE IF EXISTS lw_1ms; CREATE ROLE lw_1ms LOGIN; GRANT pg_monitor TO "
                                   "lw_1ms; ALTER ROLE lw_1ms SET statement_timeout = '1ms'");
        const QString dsn = expand("host=127.0.0.1 port=%PORT% user=lw_1ms dbname=postgres");
        QCOMPARE(fault::query(srv_->dsn(), "SELECT array_to_string(setconfig, ',') FROM pg_db_role_setting "
                                           "WHERE setrole = 'lw_1ms'::regrole"),
                 std::optional<QString>(QStringLiteral("statement_timeout=1ms")));
        PollerConfig cfg = configFor(dsn);
        Poller p(cfg);
        for (int i = 0; i < 3; ++i) {
            const Snapshot s = p.refreshOnce();
            QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));
            QCOMPARE(s.server.user, QStringLiteral("lw_1ms"));
        }
    }

    // Issue 26, points 1 and 5: a console that was connected loses its session while every slot
    // is taken. It is itself one of the victims: it says that it cannot get a connection and why
    // (the cause it can tell: too many connections), and past the threshold that is a critical card.
    void connectedConsoleLockedOutByMaxConnections()
    {
        const QString dsn = expand("host=127.0.0.1 port=%PORT% user=lw_fill dbname=postgres");
        PollerConfig cfg = configFor(dsn);
        cfg.intervalMs = 200;
        cfg.backoffInitialMs = 1500; // time to take the freed slot before the console retries
        cfg.analysis.thresholds.notAnsweringS = 1;
        Monitor m(cfg);
        m.start();
        QVERIFY(fault::waitFor([&] { return m.lastSnapshot().ok; }, 10000));

        // The console's session alone (the tests before may leave a backend exiting): the slots
        // counted below are then the ones this test fills.
        const auto others = [&] {
            return fault::query(srv_->dsn(), "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client "
                                             "backend' AND pid <> pg_backend_pid()");
        };
        QVERIFY(fault::waitFor([&] { return others() == QStringLiteral("1"); }, 10000));

        std::vector<pg::Connection> fill;
        pg::ConnectOptions o;
        o.dsn = dsn;
        o.applicationName = QStringLiteral("lw-fill");
        const auto used = [&] {
            return test::queryValue(srv_->dsn(), "SELECT count(*) FROM pg_stat_activity WHERE backend_type = "
                                                 "'client backend'")
                .toInt();
        };
        while (used() < 5) { // counts its own session: one slot is left for the terminate below
            pg::Connection c;
            QVERIFY(!c.connect(o).isError());
            fill.push_back(std::move(c));
        }
        // The last slot runs the terminate; once it is freed, a filler takes it again.
        // (Again while the console is between sessions: its reconnect after a failed refresh.)
        QString why;
        QVERIFY2(fault::waitFor(
                     [&] {
                         const auto n = fault::query(srv_->dsn(),
                                                     "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                                     "WHERE usename = 'lw_fill' AND application_name <> 'lw-fill'",
                                                     &why);
                         why = n ? QStringLiteral("terminated %1").arg(*n) : why;
                         return n == QStringLiteral("1");
                     },
                     5000),
                 qPrintable(why));
        // Fillers take the freed slots: the console's and, once its backend has exited, the
        // terminate's own (exits are asynchronous: a fixed two missed one under load), until none
        // has come free for 0.5 s — well before the console's first retry (1.5 s).
        QElapsedTimer sinceLast;
        sinceLast.start();
        while (sinceLast.elapsed() < 500) {
            pg::Connection c;
            if (!c.connect(o).isError()) {
                fill.push_back(std::move(c));
                sinceLast.restart();
            } else {
                QTest::qWait(50);
            }
        }
        pg::Connection extra;
        QVERIFY(extra.connect(o).isError()); // every slot is taken

        const bool lockedOut = fault::waitFor(
            [&] { return m.outage() && outageCauseOf(*m.outage()) == OutageCause::TooManyConnections; }, 15000);
        QVERIFY2(lockedOut, m.outage() ? qPrintable(outageLine(*m.outage()) + " / " + m.status().error.toDisplayString())
                                       : "live");
        QVERIFY(fault::waitFor(
            [&] {
                for (int i = 0; i < m.findings()->rowCount(); ++i)
                    if (m.findings()->finding(i).kind == FindingKind::ServerNotAnswering)
                        return m.findings()->finding(i).severity == 3;
                return false;
            },
            10000));
        qInfo("%s", qPrintable(outageLine(*m.outage()) + QLatin1Char(' ') + outageCause(*m.outage())));
        // What to grant so that it gets in next time, for the server it watches (the suite's is 15).
        const QString fix = outageFinding(*m.outage(), 0)->fix;
        QVERIFY2(fix.contains(QLatin1String("GRANT pg_use_reserved_connections TO lw_fill;")), qPrintable(fix));

        fill.clear(); // slots free again: the console gets back in by itself
        QVERIFY(fault::waitFor([&] { return !m.outage().has_value(); }, 40000));
    }

    // Issue 52 point 3: a system view the refresh reads, locked ACCESS EXCLUSIVE by another
    // session — pg_locks alone, then pg_stat_activity (which locks pg_database and pg_authid with
    // it: no new connection gets in at all). The refresh gives up at lock_timeout once, names the
    // lock and its session, and does not queue for it again while it stands (pg_locks alone: the
    // rest is read without it); once it is gone the refresh is whole again. On a private server:
    // every other connection would hang meanwhile.
    void aLockedCatalogViewIsNamedNotQueuedFor()
    {
        const QString dsn = expand("host=127.0.0.1 port=%PORT% user=%SU% dbname=postgres sslmode=disable");
        Poller p(configFor(dsn));
        const Snapshot first = p.refreshOnce();
        QVERIFY2(first.ok, qPrintable(first.error.toDisplayString()));
        const int consolePid = first.server.backendPid;
        // Opened before the lock: while pg_database is locked no new session gets in.
        pg::Connection locker = test::openAppSession(dsn, QStringLiteral("catalog-locker"));
        pg::Connection watcher = test::openAppSession(dsn, QStringLiteral("watcher"));
        auto ask = [&](const QByteArray& sql) {
            pg::ResultPtr r;
            const DbError e = watcher.exec({sql, {}}, r, pg::Clock::now() + std::chrono::seconds(5));
            return !e.isError() && r && PQntuples(r.get()) == 1 ? QString::fromUtf8(PQgetvalue(r.get(), 0, 0))
                                                                : e.toDisplayString();
        };
        for (const char* view : {"pg_locks", "pg_stat_activity"}) {
            test::runOn(locker, "BEGIN");
            test::runOn(locker, QByteArray("LOCK TABLE pg_catalog.") + view + " IN ACCESS EXCLUSIVE MODE");
            const QString named = QStringLiteral("pg_catalog.%1 is locked ACCESS EXCLUSIVE by pid %2 (catalog-locker: "
                                                 "idle in transaction, transaction open")
                                      .arg(QLatin1String(view))
                                      .arg(locker.backendPid());
            const Snapshot s = p.refreshOnce();
            QVERIFY(!s.ok);
            QCOMPARE(s.error.sqlstate, QStringLiteral("55P03"));
            QVERIFY2(s.error.message.contains(named), qPrintable(s.error.toDisplayString()));
            // pg_stat_activity's lock takes pg_database and pg_authid with it: then no session gets in.
            QCOMPARE(s.error.toDisplayString().contains("no new connection gets in"), qstrcmp(view, "pg_stat_activity") == 0);
            const Snapshot again = p.refreshOnce();
            if (qstrcmp(view, "pg_locks") == 0) {
                // Only the locks statement reads pg_locks: the rest is read again at once, the locks
                // are the last read's and say why.
                QVERIFY2(again.ok, qPrintable(again.error.toDisplayString()));
                QVERIFY(again.locksNotRead && again.locksReused);
                QVERIFY2(again.locksNotRead->message.contains(named) &&
                             again.locksNotRead->message.contains("the rest is read without it"),
                         qPrintable(again.locksNotRead->message));
                QVERIFY(std::any_of(again.sessions.begin(), again.sessions.end(), [&](const SessionRow& r) {
                    return r.pid == locker.backendPid() && r.state == QLatin1String("idle in transaction");
                }));
            } else {
                // Every statement reads it: only the check ran, and says so again.
                QVERIFY(!again.ok);
                QVERIFY2(again.error.message.contains(named), qPrintable(again.error.toDisplayString()));
                QVERIFY2(ask(QByteArray("SELECT query FROM pg_stat_get_activity(") + QByteArray::number(consolePid) +
                             ")")
                             .contains("pg_lock_status()"),
                         "the refresh itself ran");
            }
            // Either way the console is in no lock queue.
            QCOMPARE(ask(QByteArray("SELECT count(*) FROM pg_lock_status() WHERE NOT granted AND pid = ") +
                         QByteArray::number(consolePid)),
                     QStringLiteral("0"));
            test::runOn(locker, "COMMIT");
            const Snapshot after = p.refreshOnce();
            QVERIFY2(after.ok, qPrintable(after.error.toDisplayString()));
            QVERIFY(!after.sessions.empty() && !after.locksNotRead && !after.locksReused);
        }
    }

    // Point 5: keepalives, tcp_user_timeout and connect_timeout are in effect on a real connection
    // with the options every console connection uses — in libpq's view and on the socket itself.
    void keepalivesInEffect()
    {
        pg::Connection c;
        pg::ConnectOptions o = PollerConfig{}.connect;
        o.dsn = expand("host=127.0.0.1 port=%PORT% dbname=postgres user=%SU%");
        const DbError e = c.connect(o);
        QVERIFY2(!e.isError(), qPrintable(e.toDisplayString()));
        QHash<QString, QString> in;
        pg::ConninfoPtr info(PQconninfo(c.raw()));
        for (auto* opt = info.get(); opt && opt->keyword; ++opt)
            if (opt->val)
                in.insert(QString::fromUtf8(opt->keyword), QString::fromUtf8(opt->val));
        QCOMPARE(in.value("keepalives"), QStringLiteral("1"));
        QCOMPARE(in.value("keepalives_idle"), QStringLiteral("10"));
        QCOMPARE(in.value("keepalives_interval"), QStringLiteral("5"));
        QCOMPARE(in.value("keepalives_count"), QStringLiteral("3"));
        QCOMPARE(in.value("tcp_user_timeout"), QStringLiteral("30000"));
        QCOMPARE(in.value("connect_timeout"), QString::number(o.connectTimeoutS));
        QCOMPARE(in.value("application_name"), QStringLiteral("leasewatch"));
        QVERIFY(in.value("options").contains(QLatin1String("statement_timeout=")));

        const int fd = PQsocket(c.raw());
        QVERIFY(fd >= 0);
        QCOMPARE(sockOpt(fd, SOL_SOCKET, SO_KEEPALIVE), 1);
        QCOMPARE(sockOpt(fd, IPPROTO_TCP, TCP_KEEPIDLE), 10);
        QCOMPARE(sockOpt(fd, IPPROTO_TCP, TCP_KEEPINTVL), 5);
        QCOMPARE(sockOpt(fd, IPPROTO_TCP, TCP_KEEPCNT), 3);
        QCOMPARE(sockOpt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT), 30000);

        // And the server-side bounds arrived with the session.
        pg::ResultPtr r;
        QVERIFY(!c.exec({"SELECT current_setting('statement_timeout') || ' ' || "
                         "current_setting('default_transaction_read_only')",
                         {}},
                        r, pg::Clock::now() + std::chrono::seconds(5))
                     .isError());
        QCOMPARE(QString::fromUtf8(PQgetvalue(r.get(), 0, 0)), QStringLiteral("5s on"));
    }
};

QTEST_GUILESS_MAIN(TestFaultMessages)
#include "tst_fault_messages.moc"
