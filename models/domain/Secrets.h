#pragma once
// Secrets never leave libpq's own inputs. A connection string typed on the command line may carry a
// password (conninfo `password=`/`sslpassword=`, a URI's `user:password@` or `?password=`, a
// setting inside `options`); everything that shows, stores or sends a DSN goes through
// redactDsn(), and every message that may quote one (libpq's own parse errors do) through
// scrubSecrets(). Plain text work, no libpq: it must also handle strings libpq cannot parse.
#include <QString>
#include <QStringList>

namespace lw {

// The DSN with every secret value replaced by "***", the rest as typed. A bare service name or a
// profile name (nothing secret in it) is returned unchanged.
QString redactDsn(const QString& dsn);

// The secret values a DSN carries, as typed (and URI-decoded where it is a URI), for scrubbing
// messages that may quote them.
QStringList dsnSecrets(const QString& dsn);

// `text` with every occurrence of each secret replaced by "***".
QString scrubSecrets(QString text, const QStringList& secrets);
// Shorthand: scrubSecrets(text, dsnSecrets(dsn)).
QString scrubDsnSecrets(const QString& text, const QString& dsn);

// A stable, file-safe name for what is monitored through `dsn` when no profile names it (the local
// history store's file): "dsn-" + a hash of the redacted DSN. Never the DSN itself.
QString dsnStoreName(const QString& dsn);

} // namespace lw
