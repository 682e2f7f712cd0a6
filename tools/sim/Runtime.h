#pragma once
// Internals shared by the scenarios: the stop flag with interruptible sleeps, the registry of
// sessions that stop() cancels, the event sink, and a plain blocking libpq session. Blocking libpq
// is deliberate: every simulated client runs in a thread of its own, like the applications it imitates.
#include "pg/PgHandles.h"
#include "sim/Simulator.h"

#include <QByteArray>
#include <QMap>
#include <QString>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <set>
#include <vector>

namespace lw::sim::detail {

using Clock = std::chrono::steady_clock;

class Session;

class Runtime
{
public:
    Runtime(QString dsn, quint64 seed, std::function<void(const Event&)> sink);

    const QString& dsn() const { return dsn_; }
    bool stopping() const { return stopping_.load(); }
    void requestStop();
    // Sleep until `t` (or for `seconds`); return false as soon as stop is requested.
    bool sleepUntil(Clock::time_point t);
    bool sleepFor(double seconds);

    void emitEvent(const Event& e) const;

    void registerSession(Session* s);
    void unregisterSession(Session* s);
    // Sends a cancel request to every session that is waiting in a cancellable statement.
    void cancelBusySessions();

    QString hostName() const { return hostName_; }
    qint64 pid() const { return pid_; }
    // Distinct number per simulated instance (holder strings, application names, keys).
    int nextInstance() { return ++instances_; }
    // 1, 2, 3 … per role: application names like sim-lease-worker-1 stay short and predictable.
    int nextOrdinal(const QString& role);
    // A generator of its own for each stream: sequences do not depend on thread scheduling.
    std::mt19937_64 rng(quint64 stream) const;

private:
    QString dsn_;
    quint64 seed_;
    std::function<void(const Event&)> sink_;
    QString hostName_;
    qint64 pid_;
    std::atomic<bool> stopping_{false};
    std::atomic<int> instances_{0};
    std::mutex ordinalsMutex_;
    QMap<QString, int> ordinals_;
    mutable std::mutex sleepMutex_;
    std::condition_variable sleepCv_;
    std::mutex sessionsMutex_;
    std::set<Session*> sessions_;
};

// Outcome of one statement.
struct Res
{
    pg::ResultPtr result;
    bool ok = false;
    bool stopped = false; // not run, or cancelled, because the simulator is stopping
    bool lost = false;    // the connection is gone: close and reconnect
    QString sqlstate;
    QString message;

    int rows() const;
    QString text(int row, int col) const;
    bool isNull(int row, int col) const;
    qint64 affected() const; // PQcmdTuples
    QString describe() const;
};

using Params = std::vector<QByteArray>;

class Session
{
public:
    Session(Runtime& rt, QString appName) : rt_(rt), appName_(std::move(appName)) {}
    ~Session() { close(); }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Blocking connect with application_name; returns an error message.
    std::optional<QString> connect();
    bool isOpen() const { return conn_ != nullptr; }
    // Cancels a pending query (if any), drains it and closes: server-side locks go with it.
    void close();
    int pid() const { return pid_; }
    const QString& appName() const { return appName_; }
    QString who() const { return QStringLiteral("%1 (pid %2)").arg(appName_).arg(pid_); }

    // Runs one statement with bound parameters. A cancellable statement is refused once stopping
    // and is cancelled by stop(); cleanup statements (releases, rollbacks) pass `false`.
    Res exec(const char* sql, const Params& params = {}, bool cancellable = true);
    // Sends a statement without waiting (a lock wait that the scenario keeps open); wait() collects it.
    bool send(const char* sql, const Params& params = {});
    Res wait();
    bool pending() const { return pending_; }

    // Called by Runtime::cancelBusySessions with the registry locked.
    void cancelIfBusy();

private:
    void setBusy(bool busy);
    void classify(Res& r) const;

    Runtime& rt_;
    QString appName_;
    pg::ConnPtr conn_;
    pg::CancelPtr cancel_;
    int pid_ = 0;
    bool pending_ = false;
    std::mutex busyMutex_;
    bool busy_ = false;
};

// Connects if needed; on failure reports an error (at most every few seconds) and backs off.
bool ensureConnected(Runtime& rt, Session& s, const QString& scenario);

// Text-format array literal for a text[] parameter.
QByteArray textArray(const QStringList& values);
// "4500 milliseconds" for a $n::interval parameter.
QByteArray intervalParam(double seconds);
QString seconds(double s); // "2.5 s"

} // namespace lw::sim::detail
