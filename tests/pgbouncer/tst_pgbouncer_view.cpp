// The PgBouncer page offscreen, wired as the main window will wire it: the cluster's Monitor and
// the PgBouncerMonitor side by side, the join fed by both. A full session pool (5 clients, pool
// size 2) and a session lock on a transaction-pooled slot; the page's screenshot for a human look.
#include "BouncerSupport.h"
#include "ConsoleSupport.h"
#include "Monitor.h"
#include "TestCluster.h"
#include "charts/ChartPanel.h"
#include "pgbouncer/PgBouncerMonitor.h"
#include "pgbouncer/PgBouncerView.h"

#include <QDir>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QTableView>
#include <QTest>

using namespace lw;
using namespace lw::bouncer;
using namespace lw::ui;

namespace {
// The row of the pool in the view's (sorted) table, or -1.
int tableRow(QTableView* t, const QString& key)
{
    const QAbstractItemModel* m = t->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, 0).data(PgBouncerPoolModel::KeyRole).toString() == key)
            return r;
    return -1;
}

bool listHas(QListWidget* l, const QString& text)
{
    for (int i = 0; i < l->count(); ++i)
        if (l->item(i)->text().contains(text))
            return true;
    return false;
}
} // namespace

class TestPgBouncerView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pageShowsPoolsSlotsAndCharts()
    {
        test::TestDatabase db("pgb_view");
        test::BouncerOptions o;
        o.databases = {QStringLiteral("txdb = dbname=%1 pool_mode=transaction").arg(db.name())};
        test::BouncerProcess bouncer(o);

        PollerConfig pc = test::fastConfig(db.dsn());
        pc.lockNames = {QStringLiteral("bouncer-sweep")};
        Monitor cluster(pc);
        BouncerConfig bc;
        bc.dsn = bouncer.adminDsn();
        bc.intervalMs = 200;
        PgBouncerMonitor bm(bc);
        // The main window's wiring (three lines there).
        bm.accompany(&cluster);
        PgBouncerView v(&bm);
        v.resize(1400, 900);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        cluster.start();
        bm.start();

        test::BouncerClient tx(bouncer.dsn(QStringLiteral("txdb")));
        tx.exec(QStringLiteral("SELECT pg_advisory_lock(hashtext('bouncer-sweep'))"));
        test::BusyClients clients(bouncer.dsn(db.name()), 5, QStringLiteral("SELECT pg_sleep(3)"));

        const QString user = cluster::ThrowawayCluster().superuser();
        const QString key = db.name() + QLatin1Char('/') + user;
        QTableView* t = v.table();
        auto cellOf = [&](int column) { return t->model()->index(tableRow(t, key), column).data().toInt(); };
        // While the first servers log in, clients already wait: wait for the full pool, both at once.
        QTRY_VERIFY_WITH_TIMEOUT(tableRow(t, key) >= 0 && cellOf(PgBouncerPoolModel::ClWaiting) > 0 &&
                                     cellOf(PgBouncerPoolModel::SvActive) == 2,
                                 10000);
        QCOMPARE(cellOf(PgBouncerPoolModel::PoolSize), 2);
        QVERIFY(tableRow(t, QStringLiteral("txdb/") + user) >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(listHas(v.slotList(), QStringLiteral("application bug")), 10000);
        QVERIFY(listHas(v.slotList(), QStringLiteral("hashtext('bouncer-sweep')")));
        QVERIFY(v.statusLabel()->text().contains(QLatin1String("PgBouncer 1.")));

        ChartPanel* c = v.chart(key);
        QVERIFY(c);
        QCOMPARE(c->series().size(), 6);
        // Enough samples for a readable picture, taken while clients still wait.
        QTRY_VERIFY_WITH_TIMEOUT(c->sampleCount() >= 15, 10000);
        QCOMPARE(c->lastValue(5).value_or(-1), 2.0); // the pool_size line
        double waitingPeak = 0;
        for (const QPointF& p : c->drawnPoints(4))
            waitingPeak = std::max(waitingPeak, p.y());
        QVERIFY(waitingPeak > 0);
        QVERIFY(c->title().contains(QLatin1String("pool_size 2")));

        QDir().mkpath(QStringLiteral("/tmp/lw-shots"));
        const QImage shot = v.grab().toImage();
        QVERIFY(shot.save(QStringLiteral("/tmp/lw-shots/pgbouncer.png"), "PNG"));

        clients.join();
        QCOMPARE(clients.succeeded(), 5);
        bouncer.stop();
        QVERIFY(bouncer.gone());
    }
};

QTEST_MAIN(TestPgBouncerView)
#include "tst_pgbouncer_view.moc"
