#pragma once
// Force-expiring leases (issue 7): the compare-and-set that ends the wait after a crashed holder,
// without ever expiring a lease that another instance has taken meanwhile, and the evidence the
// operator sees before confirming.
//
// Safety rules this file keeps:
// - Nothing is sent unless operator mode is on (forceExpire() refuses and does not even connect).
// - Writes go over a separate, short-lived read-write connection ("leasewatch-operator"), never
//   the monitoring session, which stays read-only.
// - One short transaction per lease (BEGIN READ WRITE, READ COMMITTED), bounded with
//   SET LOCAL lock_timeout / statement_timeout (via set_config(…, true), so values are bound),
//   so a renewer holding the row lock makes us fail fast instead of hanging.
// - The row is never deleted: only the expiry column is set to the server's now(), in the column's
//   own type (naive UTC: now() AT TIME ZONE 'UTC'; a named zone: now() AT TIME ZONE $zone), or a
//   catalogue table is freed with its library's own release statement (Liquibase's unlock,
//   graphile-worker's reset, db-scheduler's revive), compared on the row as shown all the same.
// - Nothing is retried silently: each lease gets exactly one attempt and one outcome in words.
#include "domain/Findings.h"
#include "domain/Holders.h"
#include "domain/LeaseTable.h"
#include "domain/Snapshot.h"
#include "pg/PgConnection.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lw {

// What the operator saw of one lease when the dialog was opened; the compare-and-set runs on it.
struct ForceExpireTarget
{
    QString name;
    std::optional<QString> holder;   // as shown (compared as text, NULL-safe)
    std::optional<double> takenAt;   // as shown, epoch seconds (audit only)
    std::optional<double> expiresAt; // as shown, epoch seconds
    // The expiry is always compared as well as the holder: a renewal or a re-take since the lease
    // was shown makes the action fail, even where every instance on a host writes the same holder
    // string (ShedLock's locked_by). A holder the operator acknowledged as alive must in addition
    // still be unexpired (otherwise there is nothing left to force).
    bool acknowledgedAlive = false;

    QString auditBefore() const; // JSON: the values shown (holder, taken_at, expires_at)
};

struct ForceExpireOutcome
{
    enum class Kind {
        Expired,        // the expiry is now the server's now()
        ChangedHands,   // not changed: another holder has it now (currentHolder)
        Renewed,        // not changed: same holder, renewed since shown (currentExpiresAt)
        Retaken,        // not changed: same holder string, but taken again since shown (currentTakenAt)
        Duplicates,     // not changed: several rows carry the name (duplicateCount); rolled back
        CommitUnknown,  // COMMIT sent, no answer: the change may or may not have been applied
        ExpiredAlready, // not changed: expiry moved but already past (another console forced it)
        Gone,           // not changed: the row no longer exists
        NoPrivilege,    // refused: the role lacks a privilege (privilegeNeeded)
        LockTimeout,    // a renewer held the row lock longer than lock_timeout
        Timeout,        // statement_timeout or our own deadline fired
        NotAllowed,     // operator mode is off: nothing was sent
        Failed,         // anything else (connection, read-only server, audit table missing…)
    };
    ForceExpireTarget target;
    Kind kind = Kind::Failed;
    std::optional<QString> currentHolder;   // after the attempt: the row as it is now
    std::optional<double> currentExpiresAt; // epoch seconds
    std::optional<double> currentTakenAt;   // epoch seconds
    int duplicateCount = 0;                 // for Duplicates: rows with the target's name
    QStringList duplicateHolders;           // … and their holders, as found
    std::optional<double> serverNow;        // the transaction's now(), epoch seconds
    QString privilegeNeeded;                // for NoPrivilege: "UPDATE on public.leases"
    QString dbRole;                         // current_user of the write connection
    bool serverAudited = false;             // a row was written to the server-side audit table
    QString refusal; // for NotAllowed with operator mode on: the library frees its locks its own way
    QString releasedAs; // for Expired by a library's own release: what it did (LeaseTableConfig::release)
    DbError error;                      // for the failing kinds

    bool changed() const { return kind == Kind::Expired; }
    // One sentence for the dialog and the audit log.
    QString text() const;
    // Stable key for logs and tests: "expired", "changed_hands", "renewed", …
    QString key() const;
    QString auditAfter() const; // JSON: the values after (or as found), plus the error if any
};

struct ForceExpireRequest
{
    pg::ConnectOptions connect; // readOnly is forced off; applicationName "leasewatch-operator"
    LeaseTableConfig table;
    bool operatorMode = false;
    QString auditTable; // optional server-side audit table ([schema.]table), written with the change
    int lockTimeoutMs = 2000;
    int statementTimeoutMs = 5000;
    QString osUser; // for the server-side audit row
    QString osHost;
};

// The request for a monitor's configuration (operator mode, audit table, table mapping, DSN).
struct PollerConfig;
ForceExpireRequest forceExpireRequestFor(const PollerConfig& cfg);

// "appdb on db1:5432" for audit records: never the DSN itself (it may carry a password).
// `serverDatabase`, when known, is the database the server reported.
QString auditDatabaseLabel(const QString& dsn, const QString& serverDatabase = {});

// The audit trail of one force-expire, shared by the window and `leasewatch expire`: each attempt
// is on record as "sent, no answer yet" before anything is sent, then completed with its outcome.
class AuditLog;
std::vector<qint64> auditForceExpireSent(AuditLog* audit, const ForceExpireRequest& req,
                                         const std::vector<ForceExpireTarget>& targets,
                                         const QString& databaseLabel);
// False if any outcome could not be recorded (no log, or a write failed).
bool auditForceExpireOutcomes(AuditLog* audit, const std::vector<ForceExpireOutcome>& outcomes,
                              const std::vector<qint64>& ids);

// Runs the compare-and-set for each target, one transaction each, on one short-lived connection
// (opened here, closed before returning). A transaction commits only when exactly one row changed;
// anything else (several rows of one name in a table without a unique name) rolls back. Blocks:
// call it off the UI thread. Results are in the order of `targets`.
std::vector<ForceExpireOutcome> forceExpire(const ForceExpireRequest& req,
                                            const std::vector<ForceExpireTarget>& targets);

// The UPDATE (with the optional audit INSERT in a data-modifying CTE) for one target; exposed for
// tests and review. `conn` must be open (identifier quoting is libpq's).
pg::Statement forceExpireStatement(const pg::Connection& conn, const ForceExpireRequest& req,
                                   const ForceExpireTarget& t);

// The target as the dialog shows it (acknowledgedAlive for a holder that looks alive).
ForceExpireTarget targetFor(const LeaseTracker::Entry& e, const HolderEvidence& ev);

} // namespace lw

Q_DECLARE_METATYPE(std::vector<lw::ForceExpireOutcome>)
