// Issue 51, point 5: a German window over real incidents (a pinned pool, a crashed lease holder,
// lock waits, lease workers from the simulator) shows German on every page: each page's visible
// words (labels, buttons, tabs, table headers and cells, the Overview's cards) are read the way a
// user sees them and none is one of the console's English words. Screenshots of every page.
#include "Language.h"
#include "MainWindow.h"
#include "Monitor.h"
#include "OverviewView.h"
#include "TestCluster.h"
#include "domain/Analysis.h"
#include "itemmodels/LocksModels.h"
#include "sim/Simulator.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QDir>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTest>
#include <QTextDocument>

using namespace lw;

namespace {

// Every word the page shows: what a label, button or group says, a view's headers and the cells it
// displays (the first rows: enough for every kind of row the simulator makes).
QStringList visibleWords(QWidget* page)
{
    QStringList out;
    auto plain = [](const QString& s) {
        if (!Qt::mightBeRichText(s))
            return s;
        QTextDocument d;
        d.setHtml(s);
        return d.toPlainText();
    };
    for (QLabel* l : page->findChildren<QLabel*>())
        if (l->isVisibleTo(page))
            out << plain(l->text());
    for (QAbstractButton* b : page->findChildren<QAbstractButton*>())
        if (b->isVisibleTo(page))
            out << b->text();
    for (QGroupBox* g : page->findChildren<QGroupBox*>())
        if (g->isVisibleTo(page))
            out << g->title();
    for (QTabWidget* t : page->findChildren<QTabWidget*>())
        for (int i = 0; i < t->count(); ++i)
            out << t->tabText(i);
    for (QAbstractItemView* v : page->findChildren<QAbstractItemView*>()) {
        if (!v->isVisibleTo(page) || !v->model())
            continue;
        const QAbstractItemModel* m = v->model();
        for (int c = 0; c < m->columnCount(); ++c)
            out << m->headerData(c, Qt::Horizontal).toString();
        for (int r = 0; r < std::min(m->rowCount(), 40); ++r)
            for (int c = 0; c < m->columnCount(); ++c) {
                out << m->index(r, c).data().toString();
                out << m->index(r, c).data(Qt::ToolTipRole).toString();
            }
    }
    out.removeAll(QString());
    return out;
}

// The console's own English words (none of them in the simulator's names, SQL or PostgreSQL's
// states, which a German window shows as they are).
const QRegularExpression& englishWords()
{
    static const QRegularExpression re(QStringLiteral(
        "\\b(Fix:|expired|expires|waiting|renewal|renewed|since|Finding|findings?|connections|PROBLEMS?|"
        "[Pp]roblems?|held|lease table|advisory locks?|pinned|PINNED|stale|taken over|released|"
        "[Ll]ast refresh|refreshed|not answering|NOT ANSWERING|Group|Pool size|Show|Pause|Export)\\b"
        // …and a decimal written with a point ("0.1 %"; German writes 0,1), not a version or an address.
        "|(?<![\\d.])\\d+\\.\\d(?![\\d.])"));
    return re;
}

} // namespace

class TstLanguagePages : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyPageOfAGermanWindowIsGerman()
    {
        QVERIFY(installLanguage(QStringLiteral("de")));
        test::TestDatabase db("language_pages");
        sim::Options so;
        so.dsn = db.dsn();
        for (const char* spec : {"pinned-pool:pool=4,waiters=2,hold=0,app=billing-api-de",
                                 "crashed-holder:ttl=3,crash_after=1,interval=60,every=120,flaky=0",
                                 "lock-waits:depth=3,kind=both,hold=30,pause=3",
                                 "lease-workers:instances=2,kinds=2,ttl=4,work=2,interval=1"}) {
            QString err;
            const auto parsed = sim::parseScenario(QString::fromLatin1(spec), &err);
            QVERIFY2(parsed, qPrintable(err));
            so.scenarios.push_back(*parsed);
        }
        sim::Simulator simulator(so);
        QVERIFY(!simulator.start());

        PollerConfig cfg;
        cfg.connect.dsn = db.dsn();
        cfg.intervalMs = 250;
        cfg.analysis.thresholds.pinnedMinS = 1;
        Monitor monitor(cfg);
        ui::MainWindow w(&monitor, QStringLiteral("Sprachtest"));
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        monitor.start();
        // The incidents are there: the pinned pool's and the stale lease's cards, in German.
        auto cards = [&] {
            QStringList kinds;
            const QAbstractItemModel* m = w.overviewView()->list()->model();
            for (int r = 0; r < m->rowCount(); ++r)
                kinds << m->index(r, 0).data(FindingsModel::KindRole).toString();
            return kinds;
        };
        QTRY_VERIFY_WITH_TIMEOUT(cards().contains(QStringLiteral("pool_pinned")) &&
                                     cards().contains(QStringLiteral("stale_lease")),
                                 30000);
        QVERIFY2(w.tabs()->tabText(0).contains(QStringLiteral("Probleme")), qPrintable(w.tabs()->tabText(0)));

        const QString shots = qEnvironmentVariable("LW_BINARY_DIR") + "/screenshots";
        QDir().mkpath(shots);
        QStringList leaks;
        for (int i = 0; i < w.tabs()->count(); ++i) {
            w.tabs()->setCurrentIndex(i);
            QTest::qWait(600); // a refresh or two on the page shown
            QWidget* page = w.tabs()->widget(i);
            for (const QString& words : visibleWords(page))
                if (const auto m = englishWords().match(words); m.hasMatch())
                    leaks << QStringLiteral("%1: \"%2\" in \"%3\"").arg(w.tabs()->tabText(i), m.captured(0), words.left(160));
            QVERIFY(w.grab().save(shots + QStringLiteral("/de-page-%1.png").arg(i)));
        }
        leaks.removeDuplicates();
        for (const QString& l : leaks) // each on its own line: a QVERIFY2 message is cut short
            qWarning("English on a German page: %s", qPrintable(l));
        QVERIFY2(leaks.isEmpty(), qPrintable(QStringLiteral("%1 English words, listed above").arg(leaks.size())));
        simulator.stop();
    }
};

QTEST_MAIN(TstLanguagePages)
#include "tst_language_pages.moc"
