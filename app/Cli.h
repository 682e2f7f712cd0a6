#pragma once
#include "Poller.h"
#include "Profile.h"
#include "feed/FeedClient.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace lw::app {

// What the command line asked for, parsed before any QApplication exists (the headless commands
// must not need a display).
struct Invocation
{
    enum class Mode {
        Gui,
        GuiAsk, // no DSN: choose a profile in the window
        Fleet,  // --fleet: every saved profile at a glance
        Demo,
        Bundle, // --open-bundle FILE: recorded data, offline
        Snapshot,
        Watch,
        Expire,
        Record, // headless recorder: one or more databases, each into its history store
        CutBundle, // `bundle PROFILE|DSN FILE`: an incident bundle cut from that database's history store
        Help,
        Version,
        Error,
    };
    Mode mode = Mode::Gui;
    QString dsn;
    bool json = false;
    PollerConfig config;
    std::optional<Profile> profile; // the stored profile named on the command line, if any
    QString leaseName, holder;      // expire
    bool evenIfAlive = false;       // expire: the holder may be alive and the operator says go
    QString bundleFile;             // --open-bundle; bundle: the file to write
    int bundleMinutes = 60;         // bundle --minutes: the last N minutes recorded
    QString pgbouncerDsn;           // optional PgBouncer admin console (window, snapshot, watch)
    int watchCount = 0;             // watch: stop after this many refreshes (0: until interrupted)
    // Window, watch: connect to the database even when a recorder's live feed is there (issue 49).
    bool direct = false;
    QString language; // --lang: "de" or "en"; empty: the setting, else the locale
    // Window, watch of one: feed://HOST:PORT[/NAME], a recorder's refreshes over TCP (issue 49).
    std::optional<feed::FeedSource> feed;
    QString screenshotDir; // --screenshots DIR: save every page after --quit-after seconds
    double quitAfterS = 0; // --quit-after S: quit by itself (demo capture, smoke checks)
    QString error;         // Mode::Error: one line
    QString helpText;

    // record (and snapshot/watch of several databases): each database, resolved like the window
    // resolves a profile or a DSN. Empty for a snapshot or watch of one.
    struct Target
    {
        QString label;     // what logs and the store's metadata name it (a DSN without its password)
        QString storeName; // the history store's name: the profile's, or a hash of the DSN
        PollerConfig config;
        int historyDays = 7;
        int historyMb = 200;
    };
    std::vector<Target> targets;
    QString metrics; // record --metrics [ADDR:]PORT (validated): serve /metrics there
    QString serve;     // record --serve [ADDR:]PORT (validated): the live feed over TCP there
    QString tokenFile; // record: the feed's token file (--token, or feed::defaultTokenPath())
};

// `profiles`: the stored profiles a PROFILE argument may name (nullptr: DSNs only).
Invocation parseCommandLine(const QStringList& args, const ProfileStore* profiles = nullptr);


} // namespace lw::app
