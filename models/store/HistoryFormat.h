#pragma once
// The on-disk form of the refresh history (issue 9), shared by the writer, the reader and incident
// bundles (a bundle is a store cut to a time range, plus metadata): the SQLite schema, the compact
// blob of a refresh's non-lease parts, and small helpers. No Qt Widgets.
//
// Leases are stored as changes: one self-contained row (holder, taken_at, expires_at, state) per
// lease and refresh in which something about it changed, so the lease set at any refresh is "the
// latest row of each lease up to that refresh, unless it says released". A renewal on schedule is
// not a row: renewals are counted and written as one row per lease and interval (see ChangeKind). Pool groups are stored the
// same way; the cluster sample, one row per refresh; the rest of a refresh (sessions, advisory
// locks, cluster and server info) as one qCompress'ed QDataStream blob, written only when its bytes
// differ from the previous refresh's.
#include "domain/Analysis.h"
#include "domain/LeasePolicy.h"
#include "domain/Snapshot.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QString>

#include <optional>

namespace lw::history {

constexpr int kSchemaVersion = 2;

// What a lease change row says happened at its refresh.
enum class ChangeKind {
    Seen = 0,     // first sighting by the recorder: the row existed before, its history is unknown
    Take = 1,     // the row appeared, or changed holder before it had expired
    TakeOver = 2, // another holder took it after it had expired
    // Same holder, expires_at moved later: `renewals` renewals between first_renewal_at and
    // last_renewal_at (schema 1: one renewal, at the row's time), the values the last one left.
    // Written before the lease's next other change, once per renewal interval, and at close.
    Renew = 3,
    State = 4,    // only the state the console shows changed (held → renewal overdue → stale …)
    Release = 5,  // the row disappeared
    Modify = 6,   // same holder, another change (expiry moved earlier: a forced expiry; taken_at moved)
};
QString changeKindKey(ChangeKind k); // "take_over"

enum class BlobKind { State = 1, KeyNames = 2 };

// Whether `schema`'s lease_change has the renewal count columns (schema 2).
bool hasRenewalCounts(const QSqlDatabase& db, const QString& schema = QStringLiteral("main"));
// Creates every table and index if missing (idempotent), and brings an older store's tables up to
// this schema; false with `error` set on failure.
bool createSchema(QSqlDatabase& db, QString* error);
// WAL, synchronous=NORMAL, incremental auto-vacuum (set before the first table exists), busy timeout.
bool configureWriter(QSqlDatabase& db, QString* error);

// The non-lease parts of a refresh (ok flag, error, server, cluster, sessions, advisory locks, leases
// error), compressed. serverNow, the wall time and keyNames are stored beside it.
QByteArray encodeState(const Snapshot& s);
bool decodeState(const QByteArray& blob, Snapshot& into);
QByteArray encodeKeyNames(const KeyNames& names);
std::optional<KeyNames> decodeKeyNames(const QByteArray& blob);

// The recorded profile's analysis configuration and lease policy, so replays judge as live did.
QJsonObject analysisConfigToJson(const AnalysisConfig& c);
AnalysisConfig analysisConfigFromJson(const QJsonObject& o);
QJsonObject leasePolicyToJson(const LeasePolicy& p, bool writerUsesAppClock);
LeasePolicy leasePolicyFromJson(const QJsonObject& o, bool* writerUsesAppClock = nullptr);
// The lease tables a recording read (meta "lease_tables"): each by its scheme, where it was, its
// column mapping and its rules, so that a replay judges each row by its own table's scheme.
QJsonArray leaseTablesToJson(const std::vector<LeaseTableConfig>& tables);
std::vector<LeaseTableConfig> leaseTablesFromJson(const QJsonArray& a);
// Which of `tables` a recorded lease key belongs to (LeaseModel's keys: name, or name U+0002 table).
int leaseSourceOfKey(const QString& key, const std::vector<LeaseTableConfig>& tables);

// "prod/app:1" → "prod_app_1": safe as a file name on every platform.
QString profileFileName(const QString& profile);

// Nullable REAL/TEXT binding helpers.
QVariant nullableReal(const std::optional<double>& v);
std::optional<double> optionalReal(const QVariant& v);

} // namespace lw::history
