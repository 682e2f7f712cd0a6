#pragma once
// A uniquely named QSqlDatabase (SQLite) connection on the calling thread, closed and removed on
// destruction: the local audit log and the history store share it.
#include <QSqlDatabase>
#include <QString>

namespace lw {

class SqliteConnection
{
public:
    // readOnly: QSQLITE_OPEN_READONLY (a reader never writes, even by accident). Either way a busy
    // database is waited for up to 3 s (another console may be writing).
    SqliteConnection(const QString& path, bool readOnly, const QString& tag);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;
    bool isOpen() const { return open_; }
    QString errorString() const { return error_; }
    QSqlDatabase db() const;
    QString name() const { return name_; }

private:
    QString name_;
    QString error_;
    bool open_ = false;
};

} // namespace lw
