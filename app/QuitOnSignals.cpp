#include "QuitOnSignals.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace lw::app {

namespace {
int g_fds[2] = {-1, -1};
}

void quitOnTerminationSignals(std::function<void()> beforeQuit)
{
    if (g_fds[0] >= 0 || ::socketpair(AF_UNIX, SOCK_STREAM, 0, g_fds) != 0)
        return;
    auto* notifier = new QSocketNotifier(g_fds[1], QSocketNotifier::Read, qApp);
    QObject::connect(notifier, &QSocketNotifier::activated, qApp, [beforeQuit = std::move(beforeQuit)] {
        char c;
        [[maybe_unused]] auto n = ::read(g_fds[1], &c, 1);
        if (beforeQuit)
            beforeQuit();
        QCoreApplication::quit();
    });
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        std::signal(sig, [](int) {
            const char c = 1;
            [[maybe_unused]] auto n = ::write(g_fds[0], &c, 1);
        });
}

} // namespace lw::app
