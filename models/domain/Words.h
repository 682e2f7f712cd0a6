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

} // namespace lw
