// Helper of tst_history_crash: writes refreshes to a history store as fast as it can, with 400
// renewing leases per refresh (each transaction takes a while), and prints the count after every
// commit, until it is killed.
#include "HistoryTestSupport.h"
#include "store/HistoryWriter.h"

#include <QCoreApplication>

#include <cstdio>

using namespace lw;
using namespace lw::test;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: history-crash-writer STORE\n");
        return 2;
    }
    HistoryOptions o;
    o.path = QString::fromLocal8Bit(argv[1]);
    o.profile = QStringLiteral("crash");
    o.maxBytes = 4LL * 1024 * 1024; // retention runs too while it is killed
    FedWriter w(o);
    if (!w.isOpen()) {
        std::fprintf(stderr, "%s\n", qPrintable(w.errorString()));
        return 1;
    }
    for (qint64 i = 0;; ++i) {
        SnapshotSpec sp;
        sp.now = 1e9 + double(i);
        for (int s = 0; s < 6; ++s)
            sp.sessions.push_back(session(100 + s, QStringLiteral("app"), QStringLiteral("active"),
                                          QStringLiteral("SELECT %1").arg(i * 7 + s)));
        for (int k = 0; k < 400; ++k)
            sp.leases.push_back(lease(QStringLiteral("job-%1").arg(k), QStringLiteral("h:%1:x").arg(k), 1e9,
                                      1e9 + 30 + double(i)));
        if (!w.write(makeSnapshot(sp))) {
            std::fprintf(stderr, "%s\n", qPrintable(w.errorString()));
            return 1;
        }
        std::printf("%lld\n", static_cast<long long>(i + 1));
        std::fflush(stdout);
    }
}
