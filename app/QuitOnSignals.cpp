#include "QuitOnSignals.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace lw::app {

namespace {
int g_fds[2] = {-1, -1};
}

void quitOnTerminationSignals(std::function<void()> beforeQuit)
{
    // Non-blocking: a burst of signals must never block the handler on a full socket buffer.
    if (g_fds[0] >= 0 || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, g_fds) != 0)
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
            const int saved = errno; // the interrupted code may be reading errno
            const char c = 1;
            [[maybe_unused]] auto n = ::write(g_fds[0], &c, 1);
            errno = saved;
        });
}

} // namespace lw::app
