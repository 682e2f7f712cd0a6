#include "BackgroundWork.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace lw {

namespace {
struct Registry
{
    std::mutex mutex;
    std::condition_variable idle;
    int running = 0;
};

Registry& registry()
{
    // Never destroyed: a thread still running at static destruction must find it intact.
    static auto* r = new Registry;
    return *r;
}
} // namespace

void runInBackground(std::function<void()> body)
{
    Registry& r = registry();
    {
        std::lock_guard lock(r.mutex);
        ++r.running;
    }
    std::thread([&r, body = std::move(body)] {
        body();
        std::lock_guard lock(r.mutex);
        if (--r.running == 0)
            r.idle.notify_all();
    }).detach();
}

int backgroundWorkRunning()
{
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    return r.running;
}

bool waitForBackgroundWork(std::chrono::milliseconds timeout)
{
    Registry& r = registry();
    std::unique_lock lock(r.mutex);
    return r.idle.wait_for(lock, timeout, [&r] { return r.running == 0; });
}

} // namespace lw
