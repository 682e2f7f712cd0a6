#pragma once
// The translation contexts of the domain's words (issue 51): the sentences a user reads are built
// here, below any widget, so they are translated here, each area under its own context (German
// needs whole sentences: templates with placeholders, never fragments glued together).
// QCoreApplication::translate is safe from the poller's thread (translators are installed at start).
#include <QCoreApplication>

namespace lw {

struct Words // durations, countdowns, severities: shared by every view and terminal line
{
    Q_DECLARE_TR_FUNCTIONS(lw::Words)
};
struct StateWords // a lease's states
{
    Q_DECLARE_TR_FUNCTIONS(lw::LeaseStates)
};
struct FindingWords // the Overview's cards: title, explanation, fix
{
    Q_DECLARE_TR_FUNCTIONS(lw::Findings)
};
struct TableWords // the tables' column titles and cells (leases, locks, timelines)
{
    Q_DECLARE_TR_FUNCTIONS(lw::Tables)
};
struct EvidenceWords // whether a lease's holder looks alive or dead, and why (force-expire)
{
    Q_DECLARE_TR_FUNCTIONS(lw::Evidence)
};
struct OutageWords // a server that went away, hangs or refuses
{
    Q_DECLARE_TR_FUNCTIONS(lw::Outage)
};

struct ErrorWords // what a connection or statement error means and what to do (DbError's advice)
{
    Q_DECLARE_TR_FUNCTIONS(lw::Errors)
};
struct ForceExpireWords // force-expire's outcomes and refusals
{
    Q_DECLARE_TR_FUNCTIONS(lw::ForceExpire)
};
struct SessionActionWords // cancelling or terminating a backend from the Locks page or a card
{
    Q_DECLARE_TR_FUNCTIONS(lw::SessionActions)
};
struct FleetWords // the fleet's rows: each profile's state and who watches it
{
    Q_DECLARE_TR_FUNCTIONS(lw::Fleet)
};
struct TerminalWords // snapshot and watch in a terminal (never --json: its keys and kinds stay)
{
    Q_DECLARE_TR_FUNCTIONS(lw::Terminal)
};

// A library's own rules (LeaseSchemes.cpp: what its stale state means, how it is freed, why the
// console leaves it alone) stay English in its table's config, which is kept and copied as data,
// and are marked there with QT_TRANSLATE_NOOP("lw::Libraries", …): translated where they are shown.
inline QString libraryWords(const QString& english)
{
    return english.isEmpty() ? english : QCoreApplication::translate("lw::Libraries", english.toUtf8().constData());
}

} // namespace lw
