#pragma once
// A poller-like worker (Poller, FeedClient, BouncerWorker: start() and setPaused()) moved to its
// owner's thread and started there; deleted when the thread finishes.
#include <QMetaObject>
#include <QObject>
#include <QThread>

namespace lw {

template <typename Worker>
void launchWorker(QThread& thread, Worker* w, bool paused)
{
    w->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, w, &QObject::deleteLater);
    if (!thread.isRunning())
        thread.start();
    QMetaObject::invokeMethod(w, &Worker::start, Qt::QueuedConnection);
    if (paused)
        QMetaObject::invokeMethod(
            w, [w] { w->setPaused(true); }, Qt::QueuedConnection);
}

} // namespace lw
