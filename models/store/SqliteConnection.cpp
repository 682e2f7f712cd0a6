#include "SqliteConnection.h"

#include <QSqlError>

#include <atomic>

namespace lw {

namespace {
std::atomic<int> connCounter{0};
}

SqliteConnection::SqliteConnection(const QString& path, bool readOnly, const QString& tag)
    : name_(QStringLiteral("lw-%1-%2").arg(tag).arg(connCounter.fetch_add(1)))
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name_);
    db.setDatabaseName(path);
    db.setConnectOptions(readOnly ? QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=3000")
                                  : QStringLiteral("QSQLITE_BUSY_TIMEOUT=3000"));
    if (!db.open()) {
        error_ = db.lastError().text();
        return;
    }
    open_ = true;
}

SqliteConnection::~SqliteConnection()
{
    {
        QSqlDatabase db = QSqlDatabase::database(name_, false);
        if (db.isValid())
            db.close();
    } // no handle may remain when the connection is removed
    QSqlDatabase::removeDatabase(name_);
}

QSqlDatabase SqliteConnection::db() const
{
    return QSqlDatabase::database(name_, false);
}

} // namespace lw
