// The real libraries from the npm registry (node-pg-migrate, pg-boss 10 and 12, knex, Kysely,
// postgres-migrations, graphile-migrate, graphile-worker; TypeORM, db-migrate and umzug, which take
// no lock) run against the test cluster. For example, while
// node-pg-migrate's migration runs under its own advisory lock, and while pg-boss's own lock
// statement (plans.locked(), after pg-boss installed its schema) holds its lock, the console names
// those locks. Node and npm are not build
// dependencies: where they are missing (apt-get install nodejs npm) or the registry cannot be
// reached, the test says so and skips; the closing note of a session says whether it ran.
#include "BackendSignal.h"
#include "Programs.h"
#include "store/AuditLog.h"
#include "TestCluster.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

namespace {
// 7.x runs on Debian 12's Node 18.19 (engines: node >= 18.19.0).
const char* kNodePgMigrate = "node-pg-migrate@7.9.1";
// 10.x: sha224 keys (src/plans.ts advisoryLock()); it runs on Node 18 (npm warns about engines).
const char* kPgBoss = "pg-boss@10.4.2";
// 3.x keeps its lock as a flag (knex_migrations_lock.is_locked), with no holder and no time.
const char* kKnex = "knex@3.3.0";
// 12.x, installed beside 10.x under another name; ESM only (imported by path). Its keys are the same
// sha224 as 10.x's, with new ones per job table (dist/plans.js failJobsByTimeout() and others).
const char* kPgBoss12 = "pg-boss-12@npm:pg-boss@12.38.1";
// The other migration tools' advisory locks (LibraryKeys.h cites each one's source).
const char* kKysely = "kysely@0.29.9";                    // ESM only: imported by path
const char* kPostgresMigrations = "postgres-migrations@5.3.0";
const char* kGraphileMigrate = "graphile-migrate@1.4.1";
// Migration tools that take no lock on PostgreSQL (their sources: no advisory call, no lock table):
// TypeORM 0.3 (MigrationExecutor), db-migrate 0.11 with db-migrate-pg, umzug 3 (only a FileLocker).
const char* kTypeOrm = "typeorm@0.3.31";
const char* kDbMigrate = "db-migrate@0.11.14";
const char* kDbMigratePg = "db-migrate-pg@1.5.2";
const char* kUmzug = "umzug@3.8.3";
// 0.18.x: ESM only (imported by path); its engines ask for Node 22.18, it runs on 20 (not on 18).
const char* kGraphileWorker = "graphile-worker@0.18.0";

QString npmDir() // below the build tree: one install per build, kept between runs
{
    return qEnvironmentVariable("LW_BINARY_DIR") + QStringLiteral("/real-libs");
}

// Installs `spec` into npmDir() unless `probe` (a path below it) is there; empty, or why not.
QString npmInstall(const QString& npm, const char* spec, const QString& probe)
{
    if (QFile::exists(npmDir() + probe))
        return {};
    QDir().mkpath(npmDir());
    const auto r = lw::test::runProcess(
        npm, {"install", "--no-audit", "--no-fund", "--prefix", npmDir(), QString::fromLatin1(spec), "pg@8"}, false,
        300000);
    if (r.code != 0 || !QFile::exists(npmDir() + probe))
        return QStringLiteral("npm could not install %1 (registry unreachable?): %2")
            .arg(QString::fromLatin1(spec), r.err.right(300));
    return {};
}

// node-postgres reads libpq's environment: the suite's cluster is on a Unix socket.
QProcessEnvironment pgEnvironment(const QString& dsn)
{
    auto field = [&](const QString& key) {
        for (const QString& part : dsn.split(QLatin1Char(' ')))
            if (part.startsWith(key + QLatin1Char('=')))
                return part.mid(key.size() + 1);
        return QString();
    };
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PGHOST"), field(QStringLiteral("host")));
    env.insert(QStringLiteral("PGPORT"), field(QStringLiteral("port")));
    env.insert(QStringLiteral("PGUSER"), field(QStringLiteral("user")));
    env.insert(QStringLiteral("PGDATABASE"), field(QStringLiteral("dbname")));
    env.insert(QStringLiteral("NODE_PATH"), npmDir() + QStringLiteral("/node_modules"));
    env.insert(QStringLiteral("LW_NPM"), npmDir()); // ESM-only libraries are imported by path
    return env;
}
// node's path once `spec` is installed (`probe` below npmDir()); else `skip` says why the real
// library cannot run here.
struct Node
{
    QString path;
    QString skip;
};
Node nodeWith(const char* spec, const QString& probe)
{
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    const QString npm = QStandardPaths::findExecutable(QStringLiteral("npm"));
    if (node.isEmpty() || npm.isEmpty())
        return {{}, QStringLiteral("node and npm are not installed (apt-get install nodejs npm): the real library "
                                   "was not run")};
    return {node, npmInstall(npm, spec, probe)};
}

// Runs node with `args` (a script and its arguments) against the database `dsn`, its output
// merged; `extra` adds to its environment.
bool startNode(QProcess& p, const QString& node, const QStringList& args, const QString& dsn,
               const QList<std::pair<QString, QString>>& extra = {})
{
    QProcessEnvironment env = pgEnvironment(dsn);
    for (const auto& [name, value] : extra)
        env.insert(name, value);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(node, args);
    return p.waitForStarted();
}

// Writes `text` to `path`.
bool writeFile(const QString& path, const char* text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == qint64(qstrlen(text));
}

// Who holds and who waits for the lock named `name` in one `snapshot --json`, by application_name,
// and whether the blocking tree puts every waiter behind the holder.
struct HeldAndWaiting
{
    QStringList held, waiting;
    bool behind = false;
};
HeldAndWaiting heldAndWaiting(const QJsonDocument& got, const QString& name)
{
    HeldAndWaiting h;
    int holderPid = 0;
    QList<int> waiterPids;
    for (const auto& v : got["advisory_locks"].toArray()) {
        const QJsonObject o = v.toObject();
        if (o["name"].toString() != name)
            continue;
        const QString app = o["session"].toObject()["application_name"].toString();
        if (o["granted"].toBool()) {
            h.held << app;
            holderPid = o["pid"].toInt();
        } else {
            h.waiting << app;
            waiterPids << o["pid"].toInt();
        }
    }
    int behind = 0;
    for (const auto& root : got["blocking_tree"].toArray())
        if (root.toObject()["pid"].toInt() == holderPid)
            for (const auto& kid : root.toObject()["waiting_behind"].toArray())
                behind += waiterPids.contains(kid.toObject()["pid"].toInt()) ? 1 : 0;
    h.behind = !waiterPids.isEmpty() && behind == waiterPids.size();
    return h;
}

// What `p` said until it said `word`, ended, or a minute passed.
QString outputUntil(QProcess& p, const char* word)
{
    QString said;
    QElapsedTimer t;
    t.start();
    while (!said.contains(QLatin1String(word)) && t.elapsed() < 60000 && p.state() == QProcess::Running) {
        p.waitForReadyRead(500);
        said += QString::fromUtf8(p.readAll());
    }
    return said;
}
// The findings and leases of each refresh `watch --json` printed, as they come.
struct Watched
{
    QProcess p;
    QString pending;
    std::vector<QJsonObject> refreshes;
    void read()
    {
        pending += QString::fromUtf8(p.readAllStandardOutput());
        qsizetype nl;
        while ((nl = pending.indexOf(QLatin1Char('\n'))) >= 0) {
            const QJsonDocument d = QJsonDocument::fromJson(pending.left(nl).toUtf8());
            pending.remove(0, nl + 1);
            if (d.isObject())
                refreshes.push_back(d.object());
        }
    }
    // Refreshes printed so far with a finding of `kind` (by key).
    int withFinding(const char* kind) const
    {
        int n = 0;
        for (const QJsonObject& o : refreshes)
            for (const auto& f : o[QStringLiteral("findings")].toArray())
                if (f.toObject()[QStringLiteral("kind")].toString() == QLatin1String(kind)) {
                    ++n;
                    break;
                }
        return n;
    }
    QString last() const
    {
        return refreshes.empty() ? QString()
                                 : QString::fromUtf8(QJsonDocument(refreshes.back()).toJson(QJsonDocument::Compact));
    }
};
} // namespace

class TestRealLibraries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nodePgMigrateLockIsNamed()
    {
        const Node nodeJs = nodeWith(kNodePgMigrate, QStringLiteral("/node_modules/node-pg-migrate/bin/node-pg-migrate.js"));
        if (!nodeJs.skip.isEmpty())
            QSKIP(qPrintable(nodeJs.skip));
        const QString node = nodeJs.path;
        const QString bin = npmDir() + QStringLiteral("/node_modules/node-pg-migrate/bin/node-pg-migrate.js");

        lw::test::TestDatabase db("real_npm");
        // A migration that takes a while, so that its lock can be seen.
        QTemporaryDir migrations;
        QFile m(migrations.path() + QStringLiteral("/1700000000000_slow.js"));
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write("exports.up = (pgm) => { pgm.sql('SELECT pg_sleep(6)'); };\n");
        m.close();

        const QString dsn = db.dsn();
        QProcess migrate;
        migrate.setProcessEnvironment(pgEnvironment(dsn));
        migrate.setProcessChannelMode(QProcess::MergedChannels);
        migrate.start(node, {bin, "up", "-m", migrations.path(), "--no-check-order"});
        QVERIFY(migrate.waitForStarted());

        // While it runs, its session holds node-pg-migrate's lock (PG_MIGRATE_LOCK_ID, src/runner.ts).
        QString name, out;
        QElapsedTimer t;
        t.start();
        while (name.isEmpty() && t.elapsed() < 20000 && migrate.state() == QProcess::Running) {
            const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", dsn, "--json"});
            out = r.out;
            for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8())["advisory_locks"].toArray()) {
                const QJsonObject l = v.toObject();
                if (l["key"].toString() == QLatin1String("7241865325823964"))
                    name = l["name"].toString();
            }
            if (name.isEmpty())
                QThread::msleep(200);
        }
        migrate.waitForFinished(30000);
        QVERIFY2(!name.isEmpty(), qPrintable(out + QString::fromUtf8(migrate.readAll())));
        QVERIFY2(name.contains(QLatin1String("node-pg-migrate")), qPrintable(name));
        QCOMPARE(migrate.exitCode(), 0);
        QCOMPARE(db.value("SELECT count(*) FROM pgmigrations"), QStringLiteral("1"));
    }

    // Issue 52, with node-pg-migrate's real lock: its run holds the lock on its one session and
    // builds an index concurrently there; a worker that waits for migrations to finish retries
    // pg_try_advisory_lock inside a transaction that read the table. The build waits for the
    // worker's snapshot, the worker for the lock: a cycle PostgreSQL never breaks (no lock wait on
    // the worker's side). The console names the worker to cancel; the cancel lets the run finish.
    void nodePgMigrateBuildBehindAPollerIsACycle()
    {
        const Node nodeJs = nodeWith(kNodePgMigrate, QStringLiteral("/node_modules/node-pg-migrate/bin/node-pg-migrate.js"));
        if (!nodeJs.skip.isEmpty())
            QSKIP(qPrintable(nodeJs.skip));
        const QString bin = npmDir() + QStringLiteral("/node_modules/node-pg-migrate/bin/node-pg-migrate.js");
        lw::test::TestDatabase db("real_npm_cic");
        db.exec("CREATE TABLE orders(id int PRIMARY KEY, customer_id int); "
                "INSERT INTO orders SELECT g, g % 100 FROM generate_series(1, 1000) g");
        QTemporaryDir migrations;
        QVERIFY(writeFile(migrations.path() + QStringLiteral("/1700000000000_orders_customer.js"),
                          "exports.up = (pgm) => {\n"
                          "  pgm.noTransaction();\n"
                          "  pgm.sql('SELECT pg_sleep(2)');\n"
                          "  pgm.createIndex('orders', 'customer_id', { name: 'orders_customer', concurrently: true });\n"
                          "};\n"));
        const QString dsn = db.dsn();
        QProcess migrate;
        QVERIFY(startNode(migrate, nodeJs.path, {bin, "up", "-m", migrations.path(), "--no-check-order"}, dsn,
                          {{QStringLiteral("PGAPPNAME"), QStringLiteral("deploy-1")}}));
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                           "AND application_name = 'deploy-1' AND query LIKE '%pg_sleep(2)%'"),
                                  QStringLiteral("1"), 20000);
        QProcess worker;
        worker.start(QStringLiteral("psql"),
                     {dsn + QStringLiteral(" application_name=worker"), "-c", "BEGIN", "-c", "SELECT count(*) FROM orders",
                      "-c",
                      "DO $$ BEGIN WHILE NOT pg_try_advisory_lock(7241865325823964) LOOP PERFORM pg_sleep(0.2); "
                      "END LOOP; END $$"});
        QVERIFY(worker.waitForStarted());

        // The console's card: the worker to cancel, the real lock named.
        QJsonObject card;
        QString out;
        QElapsedTimer t;
        t.start();
        while (card.isEmpty() && t.elapsed() < 30000 && migrate.state() == QProcess::Running) {
            out = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", dsn, "--json"}).out;
            for (const auto& f : QJsonDocument::fromJson(out.toUtf8())["findings"].toArray())
                if (f.toObject()["kind"].toString() == QLatin1String("hidden_deadlock"))
                    card = f.toObject();
            if (card.isEmpty())
                QThread::msleep(300);
        }
        QVERIFY2(!card.isEmpty(), qPrintable(out + QString::fromUtf8(migrate.readAll())));
        const QString workerPid =
            db.value("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'worker'");
        const QString title = card["title"].toString();
        QCOMPARE(card["severity"].toInt(), 3);
        QCOMPARE(card["subject"].toString(), workerPid);
        QVERIFY2(title.contains(QLatin1String("keeps retrying pg_try_advisory_lock for node-pg-migrate")) &&
                     title.contains(QLatin1String("whose CREATE INDEX CONCURRENTLY waits for pid ") + workerPid +
                                    QLatin1String("'s snapshot: neither can finish")),
                 qPrintable(title));
        QVERIFY2(card["fix"].toString().contains("pg_cancel_backend(" + workerPid + ")"), qPrintable(card["fix"].toString()));

        // Cancelled as the console offers it: node-pg-migrate finishes its run and lets go.
        lw::pg::ConnectOptions opts;
        opts.dsn = dsn;
        QCOMPARE(lw::signalBackend(opts, true, lw::BackendSignal::Cancel, workerPid.toInt()).key, QStringLiteral("cancelled"));
        QVERIFY(migrate.waitForFinished(30000));
        QVERIFY2(migrate.exitCode() == 0, qPrintable(QString::fromUtf8(migrate.readAll())));
        QCOMPARE(db.value("SELECT indisvalid FROM pg_index WHERE indexrelid = 'orders_customer'::regclass"),
                 QStringLiteral("t"));
        QCOMPARE(db.value("SELECT count(*) FROM pgmigrations"), QStringLiteral("1"));
        worker.kill();
        worker.waitForFinished();
    }

    // pg-boss installs its schema itself (boss.start()); then its own lock statement, plans.locked()
    // (pg_advisory_xact_lock of the sha224 key, in a transaction left open here for a few seconds),
    // holds the lock its maintenance and migrations take. The console names it from the schema.
    void pgBossLockIsNamed()
    {
        const Node node = nodeWith(kPgBoss, QStringLiteral("/node_modules/pg-boss/src/plans.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));

        lw::test::TestDatabase db("real_pgboss");
        QTemporaryDir dir;
        QFile script(dir.path() + QStringLiteral("/boss.js"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("const PgBoss = require('pg-boss');\n"
                     "const plans = require('pg-boss/src/plans');\n"
                     "const { Client } = require('pg');\n"
                     "(async () => {\n"
                     "  const boss = new PgBoss({});\n" // PGHOST, PGPORT, PGUSER, PGDATABASE
                     "  boss.on('error', e => console.error(e));\n"
                     "  await boss.start();\n"
                     "  await boss.stop({ graceful: false, wait: true });\n"
                     "  const c = new Client({ application_name: 'pgboss' });\n"
                     "  await c.connect();\n"
                     "  await c.query(plans.locked('pgboss', 'SELECT 1').replace(/COMMIT;?\\s*$/, ''));\n"
                     "  console.log('held');\n"
                     "  await new Promise(r => setTimeout(r, 8000));\n"
                     "  await c.query('COMMIT');\n"
                     "  await c.end();\n"
                     "  process.exit(0);\n" // pg-boss 10 leaves a timer behind after stop()
                     "})().catch(e => { console.error(e); process.exit(1); });\n");
        script.close();
        QProcess boss;
        QVERIFY(startNode(boss, node.path, {script.fileName()}, db.dsn()));
        const QString said = outputUntil(boss, "held");
        QVERIFY2(said.contains(QLatin1String("held")), qPrintable(said));

        const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        QStringList names;
        for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8())["advisory_locks"].toArray())
            names << v.toObject()["name"].toString();
        QVERIFY(boss.waitForFinished(30000));
        QVERIFY2(names.contains(QStringLiteral("pg-boss maintenance lock (schema pgboss)")),
                 qPrintable(names.join(QLatin1String(", ")) + QLatin1Char('\n') + r.out.left(2000)));
        QCOMPARE(boss.exitCode(), 0);
    }

    // The first pg-boss instance installs its schema under its advisory key (the install statement,
    // plans.create() through Contractor.constructionPlans(), its transaction left open here: no
    // table of it exists for anyone else yet); a second real instance starting meanwhile waits on
    // that key. The console names the key although no schema holds pg-boss's tables, and shows who
    // waits behind whom.
    void pgBossKeyIsNamedBeforeItsSchemaExists()
    {
        const Node node = nodeWith(kPgBoss, QStringLiteral("/node_modules/pg-boss/src/plans.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));

        lw::test::TestDatabase db("real_pgboss_first");
        QTemporaryDir dir;
        QFile first(dir.path() + QStringLiteral("/first.js"));
        QVERIFY(first.open(QIODevice::WriteOnly));
        first.write("const Contractor = require('pg-boss/src/contractor');\n"
                    "const { Client } = require('pg');\n"
                    "(async () => {\n"
                    "  const c = new Client({ application_name: 'pgboss-first' });\n"
                    "  await c.connect();\n"
                    "  await c.query(Contractor.constructionPlans('pgboss').replace(/COMMIT;?\\s*$/, ''));\n"
                    "  console.log('installing');\n"
                    "  await new Promise(r => setTimeout(r, 20000));\n"
                    "  await c.query('ROLLBACK');\n"
                    "  await c.end();\n"
                    "})().catch(e => { console.error(e); process.exit(1); });\n");
        first.close();
        QFile second(dir.path() + QStringLiteral("/second.js"));
        QVERIFY(second.open(QIODevice::WriteOnly));
        second.write("const PgBoss = require('pg-boss');\n"
                     "(async () => {\n"
                     "  const boss = new PgBoss({ application_name: 'pgboss-second' });\n"
                     "  boss.on('error', e => console.error(e));\n"
                     "  await boss.start();\n"
                     "  console.log('started');\n"
                     "})().catch(e => { console.error(e); process.exit(1); });\n");
        second.close();
        QProcess installing;
        QVERIFY(startNode(installing, node.path, {first.fileName()}, db.dsn()));
        const QString said = outputUntil(installing, "installing");
        QVERIFY2(said.contains(QLatin1String("installing")), qPrintable(said));
        QCOMPARE(db.value("SELECT count(*) FROM pg_namespace WHERE nspname = 'pgboss'"), QStringLiteral("0"));

        QProcess starting;
        QVERIFY(startNode(starting, node.path, {second.fileName()}, db.dsn()));
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                           "'pgboss-second' AND wait_event_type = 'Lock'"),
                                  QStringLiteral("1"), 30000);

        const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        const QString name = QStringLiteral("pg-boss maintenance lock (schema pgboss)");
        const QJsonDocument got = QJsonDocument::fromJson(r.out.toUtf8());
        starting.kill();
        starting.waitForFinished(10000);
        installing.kill();
        installing.waitForFinished(10000);
        const HeldAndWaiting h = heldAndWaiting(got, name);
        QCOMPARE(h.held, QStringList{QStringLiteral("pgboss-first")});
        QCOMPARE(h.waiting, QStringList{QStringLiteral("pgboss-second")});
        // Who waits behind whom: the starting instance behind the installing one.
        QVERIFY2(h.behind, qPrintable(r.out.left(3000)));
    }

    // Kysely's Migrator (PostgresAdapter.acquireMigrationLock(): a session-level pg_advisory_lock of
    // its constant, then the migrations in a transaction on that connection). A second migrator
    // started meanwhile waits on the key; the console names it, who holds it and who waits behind.
    void kyselyLockIsNamedWithItsWaiter()
    {
        const Node node = nodeWith(kKysely, QStringLiteral("/node_modules/kysely/dist/index.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));
        lw::test::TestDatabase db("real_kysely");
        QTemporaryDir dir;
        const QString script = dir.path() + QStringLiteral("/migrate.cjs");
        QVERIFY(writeFile(script,
                          "const pg = require('pg');\n"
                          "(async () => {\n"
                          "  const { Kysely, PostgresDialect, sql } = await import(process.env.LW_NPM + "
                          "'/node_modules/kysely/dist/index.js');\n"
                          "  const { Migrator } = await import(process.env.LW_NPM + "
                          "'/node_modules/kysely/dist/migration/index.js');\n"
                          "  const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ "
                          "application_name: process.argv[2], max: 2 }) }) });\n"
                          "  const migrations = { '001_slow': { up: async (db) => { console.log('migrating'); "
                          "await sql`SELECT pg_sleep(8)`.execute(db); } } };\n"
                          "  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } "
                          "});\n"
                          "  const { results, error } = await migrator.migrateToLatest();\n"
                          "  if (error) throw error;\n"
                          "  console.log('applied ' + results.length);\n"
                          "  await db.destroy();\n"
                          "})().catch(e => { console.error(e); process.exit(1); });\n"));
        const auto start = [&](QProcess& p, const char* app) {
            return startNode(p, node.path, {script, QString::fromLatin1(app)}, db.dsn());
        };
        QProcess first, second;
        QVERIFY(start(first, "kysely-first"));
        const QString said = outputUntil(first, "migrating");
        QVERIFY2(said.contains(QLatin1String("migrating")), qPrintable(said));
        QVERIFY(start(second, "kysely-second"));
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                           "'kysely-second' AND wait_event_type = 'Lock'"),
                                  QStringLiteral("1"), 20000);
        const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        const HeldAndWaiting h = heldAndWaiting(QJsonDocument::fromJson(r.out.toUtf8()),
                                                QStringLiteral("Kysely migration lock (database %1)").arg(db.name()));
        QVERIFY(first.waitForFinished(30000));
        QVERIFY(second.waitForFinished(30000));
        QCOMPARE(h.held, QStringList{QStringLiteral("kysely-first")});
        QCOMPARE(h.waiting, QStringList{QStringLiteral("kysely-second")});
        QVERIFY2(h.behind, qPrintable(r.out.left(3000)));
        // Both ran to the end: the first applied the migration, the second found nothing left.
        QVERIFY2(QString::fromUtf8(first.readAll()).contains(QLatin1String("applied 1")), "first");
        QVERIFY2(QString::fromUtf8(second.readAll()).contains(QLatin1String("applied 0")), "second");
    }

    // postgres-migrations' migrate() runs under its own lock (withAdvisoryLock: pg_try_advisory_lock
    // of its constant, retried every second, so a second run polls instead of waiting in pg_locks);
    // graphile-migrate's withAdvisoryLock() takes its keypad constant. Both named while held.
    void postgresMigrationsAndGraphileMigrateLocksAreNamed()
    {
        const Node pm = nodeWith(kPostgresMigrations, QStringLiteral("/node_modules/postgres-migrations/dist/index.js"));
        if (!pm.skip.isEmpty())
            QSKIP(qPrintable(pm.skip));
        const Node gm = nodeWith(kGraphileMigrate, QStringLiteral("/node_modules/graphile-migrate/dist/pgReal.js"));
        if (!gm.skip.isEmpty())
            QSKIP(qPrintable(gm.skip));
        lw::test::TestDatabase db("real_migrators");
        QTemporaryDir dir;
        QDir().mkpath(dir.path() + QStringLiteral("/migrations"));
        QVERIFY(writeFile(dir.path() + QStringLiteral("/migrations/1_slow.sql"), "SELECT pg_sleep(8);\n"));
        const QString pmScript = dir.path() + QStringLiteral("/pm.js");
        QVERIFY(writeFile(pmScript,
                          "const { migrate } = require('postgres-migrations');\n"
                          "const { Client } = require('pg');\n"
                          "(async () => {\n"
                          "  const client = new Client({ application_name: 'postgres-migrations' });\n"
                          "  await client.connect();\n"
                          "  console.log('migrating');\n"
                          "  const done = await migrate({ client }, process.argv[2]);\n"
                          "  console.log('applied ' + done.length);\n"
                          "  await client.end();\n"
                          "})().catch(e => { console.error(e); process.exit(1); });\n"));
        const QString gmScript = dir.path() + QStringLiteral("/gm.js");
        QVERIFY(writeFile(gmScript,
                          "const { withAdvisoryLock } = require('graphile-migrate/dist/pgReal');\n"
                          "const { Client } = require('pg');\n"
                          "(async () => {\n"
                          "  const client = new Client({ application_name: 'graphile-migrate' });\n"
                          "  await client.connect();\n"
                          "  await withAdvisoryLock(client, async () => { console.log('held'); await new Promise(r => "
                          "setTimeout(r, 8000)); });\n"
                          "  await client.end();\n"
                          "})().catch(e => { console.error(e); process.exit(1); });\n"));
        QProcess pmRun, gmRun;
        QVERIFY(startNode(pmRun, pm.path, {pmScript, dir.path() + QStringLiteral("/migrations")}, db.dsn()));
        QVERIFY(startNode(gmRun, gm.path, {gmScript}, db.dsn()));
        QVERIFY(outputUntil(gmRun, "held").contains(QLatin1String("held")));
        // postgres-migrations holds its lock while its migration sleeps.
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                                           "'postgres-migrations' AND query LIKE '%pg_sleep%' AND state = 'active'"),
                                  QStringLiteral("1"), 20000);
        const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        const QJsonDocument got = QJsonDocument::fromJson(r.out.toUtf8());
        QVERIFY(pmRun.waitForFinished(30000));
        QVERIFY(gmRun.waitForFinished(30000));
        QCOMPARE(heldAndWaiting(got, QStringLiteral("postgres-migrations migration lock (database %1)").arg(db.name())).held,
                 QStringList{QStringLiteral("postgres-migrations")});
        QCOMPARE(heldAndWaiting(got, QStringLiteral("graphile-migrate migration lock (database %1)").arg(db.name())).held,
                 QStringList{QStringLiteral("graphile-migrate")});
        QVERIFY2(QString::fromUtf8(pmRun.readAll()).contains(QLatin1String("applied 2")), "postgres-migrations"); // its table's, ours
        QCOMPARE(gmRun.exitCode(), 0);
    }

    // pg-boss 12 installs its schema and a queue; its expiry maintenance for the shared job table
    // (plans.failJobsByTimeout(), its transaction left open here) holds that table's own key.
    void pgBoss12JobTableLockIsNamed()
    {
        const Node node = nodeWith(kPgBoss12, QStringLiteral("/node_modules/pg-boss-12/dist/plans.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));
        lw::test::TestDatabase db("real_pgboss12");
        QTemporaryDir dir;
        const QString script = dir.path() + QStringLiteral("/boss12.cjs");
        QVERIFY(writeFile(script,
                          "const { Client } = require('pg');\n"
                          "(async () => {\n"
                          "  const { PgBoss } = await import(process.env.LW_NPM + '/node_modules/pg-boss-12/dist/index.js');\n"
                          "  const plans = await import(process.env.LW_NPM + '/node_modules/pg-boss-12/dist/plans.js');\n"
                          "  const boss = new PgBoss({});\n"
                          "  boss.on('error', e => console.error(e));\n"
                          "  await boss.start();\n"
                          "  await boss.createQueue('emails');\n"
                          "  await boss.stop({ graceful: false, wait: true });\n"
                          "  const c = new Client({ application_name: 'pgboss12' });\n"
                          "  await c.connect();\n"
                          "  await c.query(plans.failJobsByTimeout('pgboss', 'job_common', ['emails'], false)"
                          ".replace(/COMMIT;?\\s*$/, ''));\n"
                          "  console.log('held');\n"
                          "  await new Promise(r => setTimeout(r, 8000));\n"
                          "  await c.query('COMMIT');\n"
                          "  await c.end();\n"
                          "  process.exit(0);\n"
                          "})().catch(e => { console.error(e); process.exit(1); });\n"));
        QProcess boss;
        QVERIFY(startNode(boss, node.path, {script}, db.dsn()));
        const QString said = outputUntil(boss, "held");
        QVERIFY2(said.contains(QLatin1String("held")), qPrintable(said));
        QCOMPARE(db.value("SELECT table_name FROM pgboss.queue WHERE name = 'emails'"), QStringLiteral("job_common"));
        const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        QVERIFY(boss.waitForFinished(30000));
        QCOMPARE(heldAndWaiting(QJsonDocument::fromJson(r.out.toUtf8()),
                                QStringLiteral("pg-boss failJobsByTimeout lock (schema pgboss, table job_common)"))
                     .held,
                 QStringList{QStringLiteral("pgboss12")});
        QCOMPARE(boss.exitCode(), 0);
    }

    // knex keeps its migration lock as a flag. A run whose migration does not use a transaction
    // commits the flag on its own; killed mid-migration (SIGKILL), it leaves is_locked = 1 and
    // every later run fails with "Migration table is already locked". The console watching saw the
    // flag set with the run's session connected (said nothing while it ran); once that session is
    // gone it says the flag was left set; its unlock (operator mode, compare-and-set, audited) is
    // knex's own release, after which knex migrates again.
    void knexFlagLeftByKilledRunIsSaidAndUnlocked()
    {
        const Node node = nodeWith(kKnex, QStringLiteral("/node_modules/knex/bin/cli.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));
        const QString cli = npmDir() + QStringLiteral("/node_modules/knex/bin/cli.js");
        QTemporaryDir home;
        qputenv("XDG_CONFIG_HOME", (home.path() + "/config").toUtf8());
        qputenv("XDG_DATA_HOME", (home.path() + "/data").toUtf8());

        lw::test::TestDatabase db("real_knex");
        QTemporaryDir dir;
        QDir().mkpath(dir.path() + QStringLiteral("/migrations"));
        QFile knexfile(dir.path() + QStringLiteral("/knexfile.js"));
        QVERIFY(knexfile.open(QIODevice::WriteOnly));
        knexfile.write("module.exports = { client: 'pg', connection: { host: process.env.PGHOST, port: "
                       "process.env.PGPORT, user: process.env.PGUSER, database: process.env.PGDATABASE },\n"
                       "  migrations: { directory: __dirname + '/migrations' } };\n");
        knexfile.close();
        const auto knex = [&](QProcess& p, const QStringList& args,
                              const QList<std::pair<QString, QString>>& extra = {}) {
            return startNode(p, node.path, QStringList{cli, QStringLiteral("--knexfile"), knexfile.fileName()} + args,
                             db.dsn(), extra);
        };
        // An earlier deploy: knex creates its tables (the console finds them when it starts).
        QFile first(dir.path() + QStringLiteral("/migrations/20250101000000_first.js"));
        QVERIFY(first.open(QIODevice::WriteOnly));
        first.write("exports.up = (knex) => knex.raw('CREATE TABLE t0 (id int)');\n"
                    "exports.down = (knex) => knex.raw('DROP TABLE t0');\n");
        first.close();
        QProcess earlier;
        QVERIFY(knex(earlier, {"migrate:latest"}));
        QVERIFY(earlier.waitForFinished(60000));
        QVERIFY2(earlier.exitCode() == 0, qPrintable(QString::fromUtf8(earlier.readAll())));
        QCOMPARE(db.value("SELECT is_locked FROM knex_migrations_lock"), QStringLiteral("0"));

        // A migration without a transaction (knex then commits the lock on its own), long enough to
        // be killed in; it waits in node, so its session is idle meanwhile.
        QFile m(dir.path() + QStringLiteral("/migrations/20260101000000_slow.js"));
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write("exports.config = { transaction: false };\n"
                "exports.up = async (knex) => {\n"
                "  await knex.raw('CREATE TABLE IF NOT EXISTS t1 (id int)');\n"
                "  if (!process.env.KNEX_FAST) { console.log('migrating'); await new Promise(r => setTimeout(r, "
                "120000)); }\n"
                "};\n"
                "exports.down = async (knex) => { await knex.raw('DROP TABLE t1'); };\n");
        m.close();

        Watched watch;
        watch.p.start(lw::test::leasewatchBin(), {"watch", db.dsn(), "--json", "--interval", "300"});
        QVERIFY(watch.p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT((watch.read(), watch.refreshes.size() >= 2), 20000);

        QProcess run;
        QVERIFY(knex(run, {"migrate:latest"}));
        const QString said = outputUntil(run, "migrating");
        QVERIFY2(said.contains(QLatin1String("migrating")), qPrintable(said));
        QCOMPARE(db.value("SELECT is_locked FROM knex_migrations_lock"), QStringLiteral("1"));
        // The console shows it as knex's lock while the run holds it, and says nothing against it.
        const auto shown = [&] {
            watch.read();
            if (watch.refreshes.empty())
                return false;
            for (const auto& l : watch.refreshes.back()[QStringLiteral("leases")][QStringLiteral("rows")].toArray())
                if (l.toObject()[QStringLiteral("name")].toString() == QLatin1String("migrations lock 1"))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(shown(), 20000);
        const size_t whileRunning = watch.refreshes.size();
        QTest::qWait(12000); // past the grace after which a left flag is said
        watch.read();
        QVERIFY(watch.refreshes.size() > whileRunning + 5);
        QVERIFY2(watch.withFinding("flag_left_set") == 0, qPrintable(watch.last()));

        run.kill(); // SIGKILL: no cleanup, the flag stays
        QVERIFY(run.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT((watch.read(), watch.withFinding("flag_left_set") > 0), 40000);
        watch.p.kill();
        watch.p.waitForFinished(5000);
        QCOMPARE(db.value("SELECT is_locked FROM knex_migrations_lock"), QStringLiteral("1"));
        QJsonObject left;
        for (const auto& f : watch.refreshes.back()[QStringLiteral("findings")].toArray())
            if (f.toObject()[QStringLiteral("kind")].toString() == QLatin1String("flag_left_set"))
                left = f.toObject();
        QCOMPARE(left[QStringLiteral("subject")].toString(), QStringLiteral("migrations lock 1"));
        QVERIFY2(left[QStringLiteral("fix")].toString().contains(QLatin1String("knex migrate:unlock")),
                 qPrintable(left[QStringLiteral("fix")].toString()));

        // Every later run fails, as knex's users see it.
        QProcess again;
        QVERIFY(knex(again, {"migrate:latest"}));
        QVERIFY(again.waitForFinished(60000));
        const QString refused = QString::fromUtf8(again.readAll());
        QVERIFY2(again.exitCode() != 0 && refused.contains(QLatin1String("Migration table is already locked")),
                 qPrintable(refused));

        // The unlock: knex's own release, compared with the flag as shown, on the record.
        const auto r = lw::test::runProcess(lw::test::leasewatchBin(),
                                            {"expire", db.dsn(), "migrations lock 1", "--holder", "", "--operator",
                                             "--even-if-alive"});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(db.value("SELECT is_locked FROM knex_migrations_lock"), QStringLiteral("0"));
        lw::AuditLog audit(home.path() + QStringLiteral("/data/Leasewatch/leasewatch/audit.sqlite"));
        QVERIFY2(audit.isOpen(), qPrintable(audit.errorString()));
        const auto records = audit.records();
        QCOMPARE(int(records.size()), 1);
        QCOMPARE(records.front().outcomeKey, QStringLiteral("expired"));
        QVERIFY(records.front().database.startsWith(db.name()));
        // Unlocked twice: nothing is set any more, nothing is written.
        const auto twice = lw::test::runProcess(lw::test::leasewatchBin(),
                                                {"expire", db.dsn(), "migrations lock 1", "--holder", "", "--operator",
                                                 "--even-if-alive"});
        QCOMPARE(twice.code, 1);

        // knex migrates again (the killed migration, which left its table, runs once more).
        QProcess after;
        QVERIFY(knex(after, {"migrate:latest"}, {{QStringLiteral("KNEX_FAST"), QStringLiteral("1")}}));
        QVERIFY(after.waitForFinished(60000));
        QVERIFY2(after.exitCode() == 0, qPrintable(QString::fromUtf8(after.readAll())));
        QCOMPARE(db.value("SELECT count(*) FROM knex_migrations"), QStringLiteral("2"));
        QCOMPARE(db.value("SELECT is_locked FROM knex_migrations_lock"), QStringLiteral("0"));
    }

    // TypeORM, db-migrate and umzug take no lock: two deploys at once both run the same migration.
    // Driven for real, with a history table each library made itself: nothing of theirs is shown as
    // a lock or a lease table, nothing is said, and both runs are in their migration together.
    void migrationToolsWithoutALockRunTwiceAtOnce_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::newRow("TypeORM 0.3") << QStringLiteral("typeorm");
        QTest::newRow("db-migrate 0.11 + db-migrate-pg") << QStringLiteral("db-migrate");
        QTest::newRow("umzug 3 (storage on PostgreSQL)") << QStringLiteral("umzug");
    }
    void migrationToolsWithoutALockRunTwiceAtOnce()
    {
        QFETCH(QString, tool);
        Node node;
        if (tool == QLatin1String("typeorm"))
            node = nodeWith(kTypeOrm, QStringLiteral("/node_modules/typeorm/index.js"));
        else if (tool == QLatin1String("umzug"))
            node = nodeWith(kUmzug, QStringLiteral("/node_modules/umzug/lib/index.js"));
        else if (node = nodeWith(kDbMigrate, QStringLiteral("/node_modules/db-migrate/bin/db-migrate")); node.skip.isEmpty())
            node = nodeWith(kDbMigratePg, QStringLiteral("/node_modules/db-migrate-pg/index.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));
        lw::test::TestDatabase db(QStringLiteral("real_%1").arg(tool).replace(QLatin1Char('-'), QLatin1Char('_')));
        QTemporaryDir dir;
        // Each run: the migrations up to SLOW (unset: the first only, an earlier deploy); the slow one
        // says "migrating" and waits MIGRATE_MS in node, as a long migration does.
        QStringList args;
        if (tool == QLatin1String("typeorm")) {
            QVERIFY(writeFile(dir.path() + QStringLiteral("/run.js"),
                              "const { DataSource } = require('typeorm');\n"
                              "const e = process.env;\n"
                              "class First1700000000000 { constructor() { this.name = 'First1700000000000'; }\n"
                              "  async up(q) { await q.query('SELECT 1'); } async down() {} }\n"
                              "class Slow1800000000000 { constructor() { this.name = 'Slow1800000000000'; }\n"
                              "  async up(q) { await q.query('SELECT 1'); console.log('migrating');\n"
                              "    await new Promise((r) => setTimeout(r, +e.MIGRATE_MS)); } async down() {} }\n"
                              "(async () => {\n"
                              "  const ds = new DataSource({ type: 'postgres', host: e.PGHOST, port: +e.PGPORT, username: "
                              "e.PGUSER, database: e.PGDATABASE,\n"
                              "    migrations: e.SLOW ? [First1700000000000, Slow1800000000000] : [First1700000000000] });\n"
                              "  await ds.initialize();\n"
                              "  await ds.runMigrations();\n"
                              "  console.log('done');\n"
                              "  await ds.destroy();\n"
                              "})().catch((err) => { console.error(err); process.exit(1); });\n"));
            args = {dir.path() + QStringLiteral("/run.js")};
        } else if (tool == QLatin1String("umzug")) {
            // A storage on PostgreSQL as umzug's README shows one: the names applied, in a table.
            QVERIFY(writeFile(dir.path() + QStringLiteral("/run.js"),
                              "const { Umzug } = require('umzug');\n"
                              "const { Client } = require('pg');\n"
                              "const e = process.env;\n"
                              "(async () => {\n"
                              "  const client = new Client();\n"
                              "  await client.connect();\n"
                              "  await client.query('CREATE TABLE IF NOT EXISTS umzug_migrations (name text PRIMARY KEY)');\n"
                              "  const migrations = [{ name: '0001-first', up: async () => {} }];\n"
                              "  if (e.SLOW) migrations.push({ name: '0002-slow', up: async () => {\n"
                              "    await client.query('SELECT 1'); console.log('migrating');\n"
                              "    await new Promise((r) => setTimeout(r, +e.MIGRATE_MS)); } });\n"
                              "  const umzug = new Umzug({ migrations, context: client, logger: undefined, storage: {\n"
                              "    async executed() { return (await client.query('SELECT name FROM umzug_migrations'))"
                              ".rows.map((r) => r.name); },\n"
                              "    async logMigration({ name }) { await client.query('INSERT INTO umzug_migrations VALUES "
                              "($1) ON CONFLICT DO NOTHING', [name]); },\n"
                              "    async unlogMigration({ name }) { await client.query('DELETE FROM umzug_migrations WHERE "
                              "name = $1', [name]); } } });\n"
                              "  await umzug.up();\n"
                              "  console.log('done');\n"
                              "  await client.end();\n"
                              "})().catch((err) => { console.error(err); process.exit(1); });\n"));
            args = {dir.path() + QStringLiteral("/run.js")};
        } else {
            QVERIFY(QDir().mkpath(dir.path() + QStringLiteral("/migrations")));
            const QString cfg = QStringLiteral("{ \"dev\": { \"driver\": \"pg\", \"host\": \"%1\", \"port\": %2, "
                                               "\"user\": \"%3\", \"database\": \"%4\" } }\n")
                                    .arg(pgEnvironment(db.dsn()).value(QStringLiteral("PGHOST")),
                                         pgEnvironment(db.dsn()).value(QStringLiteral("PGPORT")),
                                         pgEnvironment(db.dsn()).value(QStringLiteral("PGUSER")), db.name());
            QVERIFY(writeFile(dir.path() + QStringLiteral("/database.json"), cfg.toUtf8().constData()));
            QVERIFY(writeFile(dir.path() + QStringLiteral("/migrations/20250101000000-first.js"),
                              "exports.up = function (db) { return db.runSql('SELECT 1'); };\n"
                              "exports.down = function () { return null; };\n"));
            args = {npmDir() + QStringLiteral("/node_modules/db-migrate/bin/db-migrate"), QStringLiteral("up"),
                    QStringLiteral("--config"), dir.path() + QStringLiteral("/database.json"), QStringLiteral("-m"),
                    dir.path() + QStringLiteral("/migrations")};
        }
        QProcess earlier;
        QVERIFY(startNode(earlier, node.path, args, db.dsn()));
        QVERIFY(earlier.waitForFinished(60000));
        QVERIFY2(earlier.exitCode() == 0, qPrintable(QString::fromUtf8(earlier.readAll())));
        if (tool == QLatin1String("db-migrate"))
            QVERIFY(writeFile(dir.path() + QStringLiteral("/migrations/20260101000000-slow.js"),
                              "exports.up = async function (db) { await db.runSql('SELECT 1'); console.log('migrating');\n"
                              "  await new Promise((r) => setTimeout(r, +process.env.MIGRATE_MS)); };\n"
                              "exports.down = function () { return null; };\n"));

        // Two deploys at once.
        const QList<std::pair<QString, QString>> slow{{QStringLiteral("SLOW"), QStringLiteral("1")},
                                                      {QStringLiteral("MIGRATE_MS"), QStringLiteral("8000")}};
        QProcess first, second;
        QVERIFY(startNode(first, node.path, args, db.dsn(), slow));
        QVERIFY(startNode(second, node.path, args, db.dsn(), slow));
        const QString saidFirst = outputUntil(first, "migrating"), saidSecond = outputUntil(second, "migrating");
        QVERIFY2(saidFirst.contains(QLatin1String("migrating")), qPrintable(saidFirst));
        QVERIFY2(saidSecond.contains(QLatin1String("migrating")), qPrintable(saidSecond)); // no lock kept it out
        const auto r = lw::test::runProcess(lw::test::leasewatchBin(), {"snapshot", db.dsn(), "--json"});
        QVERIFY(first.waitForFinished(30000));
        QVERIFY(second.waitForFinished(30000));
        QCOMPARE(first.exitCode(), 0);
        const QJsonDocument got = QJsonDocument::fromJson(r.out.toUtf8());
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out.left(2000)));
        for (const auto& v : got["advisory_locks"].toArray())
            QVERIFY2(v.toObject()["database"].toString() != db.name(), qPrintable(r.out.left(3000)));
        QVERIFY2(got["leases"].toObject()["found"].toArray().isEmpty(), qPrintable(r.out.left(3000)));
        for (const auto& v : got["findings"].toArray()) {
            const QString kind = v.toObject()["kind"].toString();
            QVERIFY2(kind != QLatin1String("flag_left_set") && kind != QLatin1String("stale_lease") &&
                         kind != QLatin1String("leases_unreadable") && kind != QLatin1String("holder_gone"),
                     qPrintable(r.out.left(3000)));
        }
    }

    // graphile-worker 0.18 with its worker killed mid-job (SIGKILL): the job stays locked by the dead
    // worker's pool id for graphile-worker's 4 hours. While the worker runs, nothing is said; once
    // its LISTEN session has been gone for the grace, the job is said held by a dead worker, with
    // graphile-worker's own ways out. The force-expire (graphile-worker's resetLockedAt, on the
    // record) lets the next worker run the job now.
    void graphileWorkerKilledMidJobIsSaid()
    {
        const Node node = nodeWith(kGraphileWorker, QStringLiteral("/node_modules/graphile-worker/dist/index.js"));
        if (!node.skip.isEmpty())
            QSKIP(qPrintable(node.skip));
        const auto version = lw::test::runProcess(node.path, {"--version"});
        if (version.out.trimmed().mid(1).section(QLatin1Char('.'), 0, 0).toInt() < 20)
            QSKIP(qPrintable(QStringLiteral("graphile-worker 0.18 needs Node 20 or later; this node is %1")
                                 .arg(version.out.trimmed())));
        QTemporaryDir home;
        qputenv("XDG_CONFIG_HOME", (home.path() + "/config").toUtf8());
        qputenv("XDG_DATA_HOME", (home.path() + "/data").toUtf8());

        lw::test::TestDatabase db("real_gworker");
        QTemporaryDir dir;
        const char* connect =
            "const gw = await import(process.env.LW_NPM + '/node_modules/graphile-worker/dist/index.js');\n"
            "const e = process.env;\n"
            "const connectionString = `postgres:///${e.PGDATABASE}?host=${e.PGHOST}&port=${e.PGPORT}&user=${e.PGUSER}`;\n";
        // A worker (concurrency 1, the default run()) whose task waits in node, as a long job does.
        QVERIFY(writeFile(dir.path() + QStringLiteral("/worker.mjs"),
                          (QByteArray(connect) +
                           "const runner = await gw.run({ connectionString, concurrency: 1, pollInterval: 1000,\n"
                           "  taskList: { report: async (payload, helpers) => {\n"
                           "    console.log('working ' + helpers.job.id);\n"
                           "    if (!e.GW_FAST) await new Promise(r => setTimeout(r, 120000));\n"
                           "    console.log('done ' + helpers.job.id); } } });\n"
                           "console.log('started');\n"
                           "await runner.promise;\n")
                              .constData()));
        QVERIFY(writeFile(dir.path() + QStringLiteral("/add.mjs"),
                          (QByteArray(connect) +
                           "await gw.quickAddJob({ connectionString }, 'report', {}, { jobKey: 'nightly-report' });\n"
                           "console.log('added');\n")
                              .constData()));
        const auto startWorker = [&](QProcess& p, const QList<std::pair<QString, QString>>& extra = {}) {
            return startNode(p, node.path, {dir.path() + QStringLiteral("/worker.mjs")}, db.dsn(), extra);
        };
        // The worker installs its schema; the console starts after (it finds lease tables at its start).
        QProcess worker;
        QVERIFY(startWorker(worker));
        const QString up = outputUntil(worker, "started");
        QVERIFY2(up.contains(QLatin1String("started")), qPrintable(up));

        Watched watch;
        watch.p.start(lw::test::leasewatchBin(), {"watch", db.dsn(), "--json", "--interval", "300"});
        QVERIFY(watch.p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT((watch.read(), watch.refreshes.size() >= 2), 20000);

        QProcess add;
        QVERIFY(startNode(add, node.path, {dir.path() + QStringLiteral("/add.mjs")}, db.dsn()));
        QVERIFY(add.waitForFinished(30000));
        QVERIFY2(add.exitCode() == 0, qPrintable(QString::fromUtf8(add.readAll())));
        const QString working = outputUntil(worker, "working");
        QVERIFY2(working.contains(QLatin1String("working")), qPrintable(working));
        const QString pool = db.value("SELECT locked_by FROM graphile_worker._private_jobs WHERE key = 'nightly-report'");
        QVERIFY2(pool.startsWith(QLatin1String("pool-")), qPrintable(pool));
        // Shown as graphile-worker's lock, held by the worker's pool; nothing said against it.
        const auto holderShown = [&] {
            watch.read();
            if (watch.refreshes.empty())
                return QString();
            for (const auto& l : watch.refreshes.back()[QStringLiteral("leases")][QStringLiteral("rows")].toArray())
                if (l.toObject()[QStringLiteral("name")].toString() == QLatin1String("nightly-report"))
                    return l.toObject()[QStringLiteral("holder")].toString();
            return QString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(holderShown(), pool, 20000);
        const size_t whileRunning = watch.refreshes.size();
        QTest::qWait(12000); // past the grace after which a dead worker is said
        watch.read();
        QVERIFY(watch.refreshes.size() > whileRunning + 5);
        QVERIFY2(watch.withFinding("holder_gone") == 0, qPrintable(watch.last()));

        worker.kill(); // SIGKILL mid-job: nothing unlocks it
        QVERIFY(worker.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT((watch.read(), watch.withFinding("holder_gone") > 0), 40000);
        watch.p.kill();
        watch.p.waitForFinished(5000);
        QJsonObject said;
        for (const auto& f : watch.refreshes.back()[QStringLiteral("findings")].toArray())
            if (f.toObject()[QStringLiteral("kind")].toString() == QLatin1String("holder_gone"))
                said = f.toObject();
        QCOMPARE(said[QStringLiteral("subject")].toString(), QStringLiteral("nightly-report"));
        QVERIFY2(said[QStringLiteral("explanation")].toString().contains(pool), qPrintable(watch.last()));
        QVERIFY2(said[QStringLiteral("fix")].toString().contains(
                     QStringLiteral("graphile_worker.force_unlock_workers(ARRAY['%1'])").arg(pool)),
                 qPrintable(watch.last()));
        QCOMPARE(db.value("SELECT locked_by FROM graphile_worker._private_jobs WHERE key = 'nightly-report'"), pool);

        // A new worker leaves the job alone (locked for 4 h) …
        QProcess next;
        QVERIFY(startWorker(next, {{QStringLiteral("GW_FAST"), QStringLiteral("1")}}));
        const QString nextUp = outputUntil(next, "started");
        QVERIFY2(nextUp.contains(QLatin1String("started")), qPrintable(nextUp));
        QTest::qWait(2500);
        QCOMPARE(db.value("SELECT locked_by FROM graphile_worker._private_jobs WHERE key = 'nightly-report'"), pool);
        // … until the operator force-expires it: graphile-worker's own reset, on the record.
        const auto r = lw::test::runProcess(lw::test::leasewatchBin(),
                                            {"expire", db.dsn(), "nightly-report", "--holder", pool, "--operator",
                                             "--even-if-alive"});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        lw::AuditLog audit(home.path() + QStringLiteral("/data/Leasewatch/leasewatch/audit.sqlite"));
        QVERIFY2(audit.isOpen(), qPrintable(audit.errorString()));
        QCOMPARE(int(audit.records().size()), 1);
        QCOMPARE(audit.records().front().outcomeKey, QStringLiteral("expired"));
        // The next worker runs it (completion deletes the row).
        const QString ran = outputUntil(next, "done");
        QVERIFY2(ran.contains(QLatin1String("done")), qPrintable(ran));
        QTRY_COMPARE_WITH_TIMEOUT(db.value("SELECT count(*) FROM graphile_worker._private_jobs"), QStringLiteral("0"),
                                  10000);
        next.kill();
        next.waitForFinished(5000);
    }
};

QTEST_GUILESS_MAIN(TestRealLibraries)
#include "tst_real_libraries.moc"
