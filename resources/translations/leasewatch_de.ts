<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <source>Choose a file</source>
        <translation>Datei wählen</translation>
    </message>
    <message>
        <source>Connected: PostgreSQL %1, database %2 as %3.</source>
        <translation>Verbunden: PostgreSQL %1, Datenbank %2 als %3.</translation>
    </message>
    <message numerus="yes">
        <source> Leases table %1: %n lease(s).</source>
        <translation>
            <numerusform> Lease-Tabelle %1: %n Lease.</numerusform>
            <numerusform> Lease-Tabelle %1: %n Leases.</numerusform>
        </translation>
    </message>
    <message>
        <source> Without pg_monitor other roles&apos; sessions are hidden (GRANT pg_monitor TO %1).</source>
        <translation> Ohne pg_monitor sind die Sitzungen anderer Rollen verborgen (GRANT pg_monitor TO %1).</translation>
    </message>
    <message>
        <source>servers active</source>
        <translation>Server aktiv</translation>
    </message>
    <message>
        <source>servers idle</source>
        <translation>Server untätig</translation>
    </message>
    <message>
        <source>servers used</source>
        <translation>Server benutzt</translation>
    </message>
    <message>
        <source>clients active</source>
        <translation>Clients aktiv</translation>
    </message>
    <message>
        <source>clients waiting</source>
        <translation>Clients wartend</translation>
    </message>
    <message>
        <source>pool_size</source>
        <translation>pool_size</translation>
    </message>
</context>
<context>
    <name>lw::Cli</name>
    <message>
        <source>Show this help.</source>
        <translation>Diese Hilfe zeigen.</translation>
    </message>
    <message>
        <source>Show the version.</source>
        <translation>Die Version zeigen.</translation>
    </message>
    <message>
        <source>Run the embedded demo.</source>
        <translation>Die eingebaute Demo starten.</translation>
    </message>
    <message>
        <source>Open every saved profile at a glance, worst first.</source>
        <translation>Alle gespeicherten Profile auf einen Blick öffnen, das schlimmste zuerst.</translation>
    </message>
    <message>
        <source>Open an incident bundle (or a history store) offline, read-only.</source>
        <translation>Ein Störfall-Bündel (oder einen Verlaufsspeicher) offline und nur lesend öffnen.</translation>
    </message>
    <message>
        <source>Save a PNG of every page into DIR before quitting.</source>
        <translation>Vor dem Beenden ein PNG jeder Seite in DIR speichern.</translation>
    </message>
    <message>
        <source>Quit by itself after SECONDS (with --screenshots: take them then).</source>
        <translation>Nach SECONDS von selbst beenden (mit --screenshots: dann die Bilder aufnehmen).</translation>
    </message>
    <message>
        <source>Leases table preset (read only this table): default, shedlock, river, oban, quartz, db-scheduler, graphile-worker, graphile-worker-queue, liquibase.</source>
        <translation>Vorlage der Lease-Tabelle (nur diese Tabelle lesen): default, shedlock, river, oban, quartz, db-scheduler, graphile-worker, graphile-worker-queue, liquibase.</translation>
    </message>
    <message>
        <source>Do not look for library lease tables; read public.leases (or the table named) only.</source>
        <translation>Nicht nach Lease-Tabellen von Bibliotheken suchen; nur public.leases (oder die genannte Tabelle) lesen.</translation>
    </message>
    <message>
        <source>Leases table as [schema.]table (default public.leases).</source>
        <translation>Lease-Tabelle als [Schema.]Tabelle (Vorgabe public.leases).</translation>
    </message>
    <message>
        <source>Leases table columns: name,holder,taken_at,expires_at.</source>
        <translation>Spalten der Lease-Tabelle: name,holder,taken_at,expires_at.</translation>
    </message>
    <message>
        <source>How the time columns store time: timestamptz, utc (naive UTC) or a zone name.</source>
        <translation>Wie die Zeitspalten Zeit speichern: timestamptz, utc (naive UTC) oder ein Zonenname.</translation>
    </message>
    <message>
        <source>Lease TTL in seconds (default: inferred from renewals).</source>
        <translation>TTL der Leases in Sekunden (Vorgabe: aus den Erneuerungen abgeleitet).</translation>
    </message>
    <message>
        <source>Refresh interval in milliseconds (default 1000).</source>
        <translation>Aktualisierungsabstand in Millisekunden (Vorgabe 1000).</translation>
    </message>
    <message>
        <source>Operator mode: allow force-expire and cancel/terminate (off by default).</source>
        <translation>Operator-Modus: „Ablauf erzwingen“ und Abbrechen/Beenden erlauben (standardmäßig aus).</translation>
    </message>
    <message>
        <source>Operator mode: also record each change in this server-side table ([schema.]table), in the same transaction.</source>
        <translation>Operator-Modus: jede Änderung zusätzlich in dieser serverseitigen Tabelle ([Schema.]Tabelle) festhalten, in derselben Transaktion.</translation>
    </message>
    <message>
        <source>Known advisory lock names or patterns (%Y %m %d), comma-separated, to resolve keys.</source>
        <translation>Bekannte Namen oder Muster von Advisory-Sperren (%Y %m %d), durch Kommas getrennt, um Schlüssel aufzulösen.</translation>
    </message>
    <message>
        <source>Configured pool size of an application: NAME=N (repeatable).</source>
        <translation>Eingestellte Poolgröße einer Anwendung: NAME=N (wiederholbar).</translation>
    </message>
    <message>
        <source>Also watch this PgBouncer admin console (e.g. &quot;host=… port=6432 dbname=pgbouncer&quot;).</source>
        <translation>Auch diese Admin-Konsole von PgBouncer beobachten (z. B. „host=… port=6432 dbname=pgbouncer“).</translation>
    </message>
    <message>
        <source>Print JSON.</source>
        <translation>JSON ausgeben.</translation>
    </message>
    <message>
        <source>Stop after N refreshes (default: until interrupted).</source>
        <translation>Nach N Aktualisierungen aufhören (Vorgabe: bis zur Unterbrechung).</translation>
    </message>
    <message>
        <source>Serve Prometheus metrics at http://ADDR:PORT/metrics (ADDR 127.0.0.1 unless given; 0.0.0.0 binds every interface).</source>
        <translation>Prometheus-Metriken unter http://ADDR:PORT/metrics bereitstellen (ADDR 127.0.0.1, wenn nicht angegeben; 0.0.0.0 bindet alle Schnittstellen).</translation>
    </message>
    <message>
        <source>The last N minutes recorded (default 60).</source>
        <translation>Die letzten N aufgezeichneten Minuten (Vorgabe 60).</translation>
    </message>
    <message>
        <source>The holder the lease must still have.</source>
        <translation>Der Halter, den die Lease noch haben muss.</translation>
    </message>
    <message>
        <source>Also offer the live refreshes over TCP at ADDR:PORT (127.0.0.1 unless given) to viewers that present the token (leasewatch feed://HOST:PORT); TLS through a reverse proxy.</source>
        <translation>Die laufenden Aktualisierungen auch über TCP unter ADDR:PORT anbieten (127.0.0.1, wenn nicht angegeben), für Betrachter, die das Token vorlegen (leasewatch feed://HOST:PORT); TLS über einen Reverse-Proxy.</translation>
    </message>
    <message>
        <source>The feed&apos;s token file (default ~/.local/share/Leasewatch/leasewatch/feed.token): the recorder writes it, a feed:// viewer presents it.</source>
        <translation>Die Token-Datei der Übertragung (Vorgabe ~/.local/share/Leasewatch/leasewatch/feed.token): Der Rekorder schreibt sie, ein feed://-Betrachter legt sie vor.</translation>
    </message>
    <message>
        <source>Connect to the database even when `leasewatch record` watches it (by default a window or watch reads the recorder&apos;s live refreshes: one connection for all).</source>
        <translation>Sich mit der Datenbank verbinden, auch wenn `leasewatch record` sie beobachtet (standardmäßig liest ein Fenster oder watch die laufenden Aktualisierungen des Rekorders: eine Verbindung für alle).</translation>
    </message>
    <message>
        <source>The language of what it shows and prints: de or en (default: the window&apos;s setting, else LC_ALL, LC_MESSAGES or LANG).</source>
        <translation>Die Sprache dessen, was es zeigt und ausgibt: de oder en (Vorgabe: die Einstellung des Fensters, sonst LC_ALL, LC_MESSAGES oder LANG).</translation>
    </message>
    <message>
        <source>Go ahead although the holder may be alive (the window&apos;s second confirmation).</source>
        <translation>Fortfahren, obwohl der Halter vielleicht lebt (die zweite Bestätigung des Fensters).</translation>
    </message>
    <message>
        <source>Leasewatch: live console for PostgreSQL leases, advisory locks and connection pools.

  leasewatch [options] [PROFILE|DSN]     open the console on a saved profile or on DSN
                                         (conninfo, URI or service name); none: choose a profile
  leasewatch --fleet                     every saved profile at a glance, worst first
  leasewatch --demo                      open the console on a throwaway demo cluster with a
                                         simulated workload
  leasewatch snapshot PROFILE|DSN... [--json]  print one refresh and exit (no display needed);
                                         several: one line per database first, worst first
  leasewatch watch PROFILE|DSN... [--json]  print it again at every refresh (no display needed)
  leasewatch record PROFILE|DSN...      record each database&apos;s history continuously, headless
                                         (systemd: leasewatch-record@PROFILE.service);
                                         --metrics [ADDR:]PORT also serves Prometheus /metrics;
                                         windows and watch on this machine read its live refreshes
                                         (one connection for all; --direct connects anyway);
                                         --serve [ADDR:]PORT offers them over TCP, with a token
  leasewatch feed://HOST:PORT[/NAME]    open a window on a recorder&apos;s live feed (--token FILE)
  leasewatch bundle PROFILE|DSN FILE [--minutes N]
                                         cut an incident bundle of the last N minutes (60)
                                         from its recorded history
  leasewatch expire PROFILE|DSN NAME --holder HOLDER
                                         force-expire a stale lease (operator mode only); exit 0
                                         only when the lease was expired

leasewatch COMMAND --help lists a command&apos;s options. Profiles are kept in ~/.config/Leasewatch/leasewatch/profiles.json (File &gt; Profiles…).</source>
        <translation>Leasewatch: Live-Konsole für PostgreSQL-Leases, Advisory-Sperren und Verbindungspools.

  leasewatch [Optionen] [PROFILE|DSN]    die Konsole auf einem gespeicherten Profil oder auf DSN
                                         öffnen (conninfo, URI oder Servicename); ohne: Profil wählen
  leasewatch --fleet                     alle gespeicherten Profile auf einen Blick, das schlimmste
                                         zuerst
  leasewatch --demo                      die Konsole auf einem Wegwerf-Demo-Cluster mit simulierter
                                         Last öffnen
  leasewatch snapshot PROFILE|DSN... [--json]  eine Aktualisierung ausgeben und enden (ohne Anzeige);
                                         mehrere: zuerst eine Zeile je Datenbank, die schlimmste zuerst
  leasewatch watch PROFILE|DSN... [--json]  sie bei jeder Aktualisierung neu ausgeben (ohne Anzeige)
  leasewatch record PROFILE|DSN...      den Verlauf jeder Datenbank fortlaufend aufzeichnen, ohne
                                         Fenster (systemd: leasewatch-record@PROFILE.service);
                                         --metrics [ADDR:]PORT stellt auch Prometheus-/metrics bereit;
                                         Fenster und watch auf diesem Rechner lesen seine laufenden
                                         Aktualisierungen (eine Verbindung für alle; --direct verbindet
                                         sich trotzdem); --serve [ADDR:]PORT bietet sie über TCP an,
                                         mit einem Token
  leasewatch feed://HOST:PORT[/NAME]    ein Fenster auf der Übertragung eines Rekorders öffnen
                                         (--token FILE)
  leasewatch bundle PROFILE|DSN FILE [--minutes N]
                                         ein Störfall-Bündel der letzten N Minuten (60) aus dem
                                         aufgezeichneten Verlauf schneiden
  leasewatch expire PROFILE|DSN NAME --holder HOLDER
                                         den Ablauf einer verwaisten Lease erzwingen (nur im
                                         Operator-Modus); Exit 0 nur, wenn die Lease abgelaufen ist

leasewatch COMMAND --help zeigt die Optionen eines Befehls. Profile liegen in ~/.config/Leasewatch/leasewatch/profiles.json (Datei &gt; Profile…).</translation>
    </message>
    <message>
        <source>leasewatch snapshot PROFILE|DSN... [--json]: print one refresh of each database and exit (no display needed); several: one line per database first, worst first.</source>
        <translation>leasewatch snapshot PROFILE|DSN... [--json]: eine Aktualisierung jeder Datenbank ausgeben und enden (ohne Anzeige); mehrere: zuerst eine Zeile je Datenbank, die schlimmste zuerst.</translation>
    </message>
    <message>
        <source>leasewatch watch PROFILE|DSN... [--json]: print each database&apos;s refresh again at every refresh (no display needed), until interrupted or --count refreshes.</source>
        <translation>leasewatch watch PROFILE|DSN... [--json]: die Aktualisierung jeder Datenbank bei jeder Aktualisierung neu ausgeben (ohne Anzeige), bis zur Unterbrechung oder nach --count Aktualisierungen.</translation>
    </message>
    <message>
        <source>leasewatch record PROFILE|DSN...: record each database&apos;s history continuously, headless (systemd: leasewatch-record@PROFILE.service).</source>
        <translation>leasewatch record PROFILE|DSN...: den Verlauf jeder Datenbank fortlaufend aufzeichnen, ohne Fenster (systemd: leasewatch-record@PROFILE.service).</translation>
    </message>
    <message>
        <source>leasewatch bundle PROFILE|DSN FILE [--minutes N]: cut an incident bundle of the last N minutes from the database&apos;s recorded history.</source>
        <translation>leasewatch bundle PROFILE|DSN FILE [--minutes N]: ein Störfall-Bündel der letzten N Minuten aus dem aufgezeichneten Verlauf der Datenbank schneiden.</translation>
    </message>
    <message>
        <source>leasewatch expire PROFILE|DSN NAME --holder HOLDER: force-expire a stale lease (operator mode only); exit 0 only when the lease was expired.</source>
        <translation>leasewatch expire PROFILE|DSN NAME --holder HOLDER: den Ablauf einer verwaisten Lease erzwingen (nur im Operator-Modus); Exit 0 nur, wenn die Lease abgelaufen ist.</translation>
    </message>
    <message>
        <source>unknown preset &quot;%1&quot; (known: %2)</source>
        <translation>unbekannte Vorlage „%1“ (bekannt: %2)</translation>
    </message>
    <message>
        <source>--columns needs four names: name,holder,taken_at,expires_at</source>
        <translation>--columns braucht vier Namen: name,holder,taken_at,expires_at</translation>
    </message>
    <message>
        <source>--time-kind needs timestamptz, utc or a time zone name</source>
        <translation>--time-kind braucht timestamptz, utc oder den Namen einer Zeitzone</translation>
    </message>
    <message>
        <source>--ttl must be a positive number of seconds</source>
        <translation>--ttl muss eine positive Zahl von Sekunden sein</translation>
    </message>
    <message>
        <source>--interval must be a number of milliseconds &gt;= 100</source>
        <translation>--interval muss eine Zahl von Millisekunden &gt;= 100 sein</translation>
    </message>
    <message>
        <source>--pool-size needs NAME=N with N &gt; 0</source>
        <translation>--pool-size braucht NAME=N mit N &gt; 0</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 is named twice</source>
        <translation>%1 ist zweimal genannt</translation>
    </message>
    <message>
        <source>profile &quot;%1&quot;: &quot;via recorder&quot; must be feed://HOST:PORT[/NAME]</source>
        <translation>Profil „%1“: „Über Rekorder“ muss feed://HOST:PORT[/NAME] sein</translation>
    </message>
    <message>
        <source>%1 is not a feed address: feed://HOST:PORT or feed://HOST:PORT/NAME (NAME: the database as the recorder names it)</source>
        <translation>%1 ist keine Übertragungsadresse: feed://HOST:PORT oder feed://HOST:PORT/NAME (NAME: die Datenbank, wie der Rekorder sie nennt)</translation>
    </message>
    <message>
        <source>--direct connects to a database; a feed:// address has none</source>
        <translation>--direct verbindet sich mit einer Datenbank; eine feed://-Adresse hat keine</translation>
    </message>
    <message>
        <source>operator actions go to the database, which a feed:// address does not name: open a profile whose &quot;via recorder&quot; is this feed</source>
        <translation>Operator-Aktionen gehen an die Datenbank, die eine feed://-Adresse nicht nennt: Öffnen Sie ein Profil, dessen „Über Rekorder“ diese Übertragung ist</translation>
    </message>
    <message>
        <source>--fleet shows every saved profile; it takes no profile or DSN</source>
        <translation>--fleet zeigt alle gespeicherten Profile; es nimmt kein Profil und keine DSN</translation>
    </message>
    <message>
        <source>one profile name or DSN expected, got %1 arguments</source>
        <translation>ein Profilname oder eine DSN erwartet, %1 Argumente erhalten</translation>
    </message>
    <message>
        <source>--quit-after must be a positive number of seconds</source>
        <translation>--quit-after muss eine positive Zahl von Sekunden sein</translation>
    </message>
    <message>
        <source>%1 needs one or more profile names or DSNs (leasewatch %1 &quot;host=… dbname=…&quot;)</source>
        <translation>%1 braucht einen oder mehrere Profilnamen oder DSNs (leasewatch %1 &quot;host=… dbname=…&quot;)</translation>
    </message>
    <message>
        <source>--count must be a positive number of refreshes</source>
        <translation>--count muss eine positive Zahl von Aktualisierungen sein</translation>
    </message>
    <message>
        <source>snapshot reads the database itself; `leasewatch watch feed://…` reads a recorder&apos;s feed</source>
        <translation>snapshot liest die Datenbank selbst; `leasewatch watch feed://…` liest die Übertragung eines Rekorders</translation>
    </message>
    <message>
        <source>record needs one or more profile names or DSNs (leasewatch record PROFILE…)</source>
        <translation>record braucht einen oder mehrere Profilnamen oder DSNs (leasewatch record PROFILE…)</translation>
    </message>
    <message>
        <source>--metrics needs [ADDR:]PORT with an IP address (127.0.0.1:9471, 0.0.0.0:9471, [::1]:9471)</source>
        <translation>--metrics braucht [ADDR:]PORT mit einer IP-Adresse (127.0.0.1:9471, 0.0.0.0:9471, [::1]:9471)</translation>
    </message>
    <message>
        <source>--serve needs [ADDR:]PORT with an IP address (127.0.0.1:9472, 0.0.0.0:9472, [::1]:9472)</source>
        <translation>--serve braucht [ADDR:]PORT mit einer IP-Adresse (127.0.0.1:9472, 0.0.0.0:9472, [::1]:9472)</translation>
    </message>
    <message>
        <source>bundle needs a profile name or DSN and the file to write (leasewatch bundle PROFILE incident.lwbundle [--minutes N])</source>
        <translation>bundle braucht einen Profilnamen oder eine DSN und die zu schreibende Datei (leasewatch bundle PROFILE incident.lwbundle [--minutes N])</translation>
    </message>
    <message>
        <source>--minutes must be a positive number of minutes</source>
        <translation>--minutes muss eine positive Zahl von Minuten sein</translation>
    </message>
    <message>
        <source>expire needs a profile name or DSN, the lease name and --holder (leasewatch expire DSN NAME --holder HOLDER)</source>
        <translation>expire braucht einen Profilnamen oder eine DSN, den Namen der Lease und --holder (leasewatch expire DSN NAME --holder HOLDER)</translation>
    </message>
    <message>
        <source> (see leasewatch --help)</source>
        <translation> (siehe leasewatch --help)</translation>
    </message>
    <message>
        <source>Saved profile, or connection string, URI or service name.</source>
        <translation>Gespeichertes Profil oder Verbindungsangabe, URI oder Servicename.</translation>
    </message>
    <message>
        <source>The command.</source>
        <translation>Der Befehl.</translation>
    </message>
    <message>
        <source>leasewatch --help</source>
        <translation>leasewatch --help</translation>
    </message>
    <message>
        <source>leasewatch %1 --help</source>
        <translation>leasewatch %1 --help</translation>
    </message>
    <message>
        <source>%1 (see %2)</source>
        <translation>%1 (siehe %2)</translation>
    </message>
    <message>
        <source>--lang must be de or en, not &quot;%1&quot;</source>
        <translation>--lang muss de oder en sein, nicht „%1“</translation>
    </message>
</context>
<context>
    <name>lw::Errors</name>
    <message>
        <source>check the user name and the password in ~/.pgpass, PGPASSFILE or the service file</source>
        <translation>prüfen Sie Benutzername und Passwort in ~/.pgpass, PGPASSFILE oder der Servicedatei</translation>
    </message>
    <message>
        <source>check the user name (user=…) in the connection string: no such role on this server</source>
        <translation>prüfen Sie den Benutzernamen (user=…) in der Verbindungsangabe: Diese Rolle gibt es auf dem Server nicht</translation>
    </message>
    <message>
        <source>the server asks for a password and none was found: add it to ~/.pgpass, PGPASSFILE or the service file</source>
        <translation>der Server verlangt ein Passwort, und keines wurde gefunden: Tragen Sie es in ~/.pgpass, PGPASSFILE oder die Servicedatei ein</translation>
    </message>
    <message>
        <source>the server&apos;s pg_hba.conf does not admit this user/host; ask the DBA for an entry</source>
        <translation>die pg_hba.conf des Servers lässt diesen Benutzer/Host nicht zu; bitten Sie den DBA um einen Eintrag</translation>
    </message>
    <message>
        <source>check the database name (dbname=…) in the connection string</source>
        <translation>prüfen Sie den Datenbanknamen (dbname=…) in der Verbindungsangabe</translation>
    </message>
    <message>
        <source>check the schema and table configured for the leases table in the profile</source>
        <translation>prüfen Sie Schema und Tabelle, die im Profil für die Lease-Tabelle eingestellt sind</translation>
    </message>
    <message>
        <source>check the column names configured for the leases table in the profile</source>
        <translation>prüfen Sie die Spaltennamen, die im Profil für die Lease-Tabelle eingestellt sind</translation>
    </message>
    <message>
        <source>grant the monitoring role SELECT on the table (and pg_monitor for other sessions)</source>
        <translation>geben Sie der Überwachungsrolle SELECT auf die Tabelle (und pg_monitor für die Sitzungen anderer Rollen)</translation>
    </message>
    <message>
        <source>the server has no free connection slot; wait or ask the DBA to free one</source>
        <translation>der Server hat keinen freien Verbindungsplatz; warten Sie, oder bitten Sie den DBA, einen freizugeben</translation>
    </message>
    <message>
        <source>an administrator or a server shutdown ended the session; the console reconnects by itself</source>
        <translation>ein Administrator oder das Herunterfahren des Servers hat die Sitzung beendet; die Konsole verbindet sich von selbst neu</translation>
    </message>
    <message>
        <source>the server is restarting after a crash; the console reconnects by itself</source>
        <translation>der Server startet nach einem Absturz neu; die Konsole verbindet sich von selbst neu</translation>
    </message>
    <message>
        <source>the server ended the session (restart, crash or administrator); the console reconnects by itself</source>
        <translation>der Server hat die Sitzung beendet (Neustart, Absturz oder Administrator); die Konsole verbindet sich von selbst neu</translation>
    </message>
    <message>
        <source>the server or the network hangs; the console reconnects with backoff</source>
        <translation>der Server oder das Netz hängt; die Konsole verbindet sich mit wachsendem Abstand neu</translation>
    </message>
    <message>
        <source>the server is starting up or recovering; the console retries by itself</source>
        <translation>der Server startet gerade oder stellt sich wieder her; die Konsole versucht es von selbst erneut</translation>
    </message>
    <message>
        <source>another session holds a lock that blocks this statement (ALTER TABLE, VACUUM FULL, TRUNCATE, LOCK TABLE: a migration, or a transaction left idle); the console does not queue behind it (lock_timeout)</source>
        <translation>eine andere Sitzung hält eine Sperre, die diese Anweisung blockiert (ALTER TABLE, VACUUM FULL, TRUNCATE, LOCK TABLE: eine Migration oder eine untätig offen gelassene Transaktion); die Konsole stellt sich nicht dahinter an (lock_timeout)</translation>
    </message>
    <message>
        <source>the statement hit its timeout; the server may be overloaded</source>
        <translation>die Anweisung hat ihr Zeitlimit erreicht; der Server ist womöglich überlastet</translation>
    </message>
    <message>
        <source>is the server running and accepting connections on that host and port?</source>
        <translation>läuft der Server und nimmt er auf diesem Host und Port Verbindungen an?</translation>
    </message>
    <message>
        <source>no server listens on that Unix socket; check host= and port=</source>
        <translation>an diesem Unix-Socket lauscht kein Server; prüfen Sie host= und port=</translation>
    </message>
    <message>
        <source>the host name does not resolve; check host= in the connection string</source>
        <translation>der Hostname lässt sich nicht auflösen; prüfen Sie host= in der Verbindungsangabe</translation>
    </message>
    <message>
        <source>the server&apos;s certificate is not signed by the CA in sslrootcert=…; point sslrootcert at the CA that issued it</source>
        <translation>das Zertifikat des Servers ist nicht von der CA in sslrootcert=… signiert; lassen Sie sslrootcert auf die ausstellende CA zeigen</translation>
    </message>
    <message>
        <source>the server&apos;s certificate does not name this host: connect with a host name it names (host=…) or have the certificate reissued</source>
        <translation>das Zertifikat des Servers nennt diesen Host nicht: Verbinden Sie sich mit einem Hostnamen, den es nennt (host=…), oder lassen Sie das Zertifikat neu ausstellen</translation>
    </message>
    <message>
        <source>certificate verification needs the issuing CA: set sslrootcert=… to its file (default ~/.postgresql/root.crt)</source>
        <translation>die Zertifikatsprüfung braucht die ausstellende CA: Setzen Sie sslrootcert=… auf deren Datei (Vorgabe ~/.postgresql/root.crt)</translation>
    </message>
    <message>
        <source>the server did not answer in time; check the network and the server</source>
        <translation>der Server hat nicht rechtzeitig geantwortet; prüfen Sie Netz und Server</translation>
    </message>
    <message>
        <source>%1 (SQLSTATE %2)</source>
        <translation>%1 (SQLSTATE %2)</translation>
    </message>
    <message>
        <source>pid %1</source>
        <translation>PID %1</translation>
    </message>
    <message>
        <source>%1, transaction open %2</source>
        <translation>%1, Transaktion offen seit %2</translation>
    </message>
    <message>
        <source>%1 is locked ACCESS EXCLUSIVE by %2</source>
        <translation>%1 ist von %2 mit ACCESS EXCLUSIVE gesperrt</translation>
    </message>
    <message>
        <source>%1 is queued for ACCESS EXCLUSIVE on %2, and every reader of it queues behind that</source>
        <translation>%1 wartet auf ACCESS EXCLUSIVE für %2, und jeder Leser der Tabelle steht dahinter an</translation>
    </message>
    <message>
        <source> — not read: the console does not queue behind it</source>
        <translation> — nicht gelesen: Die Konsole stellt sich nicht dahinter an</translation>
    </message>
    <message>
        <source>the table is read again as soon as the lock is gone; the rest is shown meanwhile. If that session is stuck (a migration that hangs, a transaction left open), end it (COMMIT/ROLLBACK there, or cancel it)</source>
        <translation>die Tabelle wird wieder gelesen, sobald die Sperre weg ist; der Rest wird so lange gezeigt. Hängt diese Sitzung (eine hängende Migration, eine offen gelassene Transaktion), beenden Sie sie (dort COMMIT/ROLLBACK, oder brechen Sie sie ab)</translation>
    </message>
    <message>
        <source> — the console does not queue behind it: the rest is read without it</source>
        <translation> — die Konsole stellt sich nicht dahinter an: Der Rest wird ohne sie gelesen</translation>
    </message>
    <message>
        <source> — every refresh reads it, and the console does not queue behind it: nothing new is shown until it is free</source>
        <translation> — jede Aktualisierung liest sie, und die Konsole stellt sich nicht dahinter an: Bis sie frei ist, wird nichts Neues gezeigt</translation>
    </message>
    <message>
        <source>end that session (COMMIT/ROLLBACK there, or cancel it) from a connection already open: while pg_database or pg_authid is locked this way, no new connection gets in, psql neither. The console reads again as soon as the lock is gone</source>
        <translation>beenden Sie diese Sitzung (dort COMMIT/ROLLBACK, oder brechen Sie sie ab) über eine schon offene Verbindung: Solange pg_database oder pg_authid so gesperrt ist, kommt keine neue Verbindung hinein, auch psql nicht. Die Konsole liest wieder, sobald die Sperre weg ist</translation>
    </message>
    <message>
        <source>end that session (COMMIT/ROLLBACK there, or cancel it) if it is stuck; the console reads again as soon as the lock is gone</source>
        <translation>beenden Sie diese Sitzung (dort COMMIT/ROLLBACK, oder brechen Sie sie ab), wenn sie hängt; die Konsole liest wieder, sobald die Sperre weg ist</translation>
    </message>
    <message>
        <source>the profile needs a name</source>
        <translation>das Profil braucht einen Namen</translation>
    </message>
    <message>
        <source>profile &quot;%1&quot;: give a connection string, a service name or a host and database</source>
        <translation>Profil „%1“: Geben Sie eine Verbindungsangabe, einen Servicenamen oder Host und Datenbank an</translation>
    </message>
    <message>
        <source>profile &quot;%1&quot;: %2</source>
        <translation>Profil „%1“: %2</translation>
    </message>
    <message>
        <source>profile &quot;%1&quot;: &quot;via recorder&quot; must be feed://HOST:PORT or feed://HOST:PORT/NAME (empty: this machine&apos;s recorder, when one runs)</source>
        <translation>Profil „%1“: „Über Rekorder“ muss feed://HOST:PORT oder feed://HOST:PORT/NAME sein (leer: der Rekorder dieses Rechners, wenn einer läuft)</translation>
    </message>
    <message>
        <source>profile &quot;%1&quot;: passwords are not stored in profiles; put it in ~/.pgpass (or PGPASSFILE, or the service file) and remove it from the connection string</source>
        <translation>Profil „%1“: Passwörter werden nicht in Profilen gespeichert; tragen Sie es in ~/.pgpass (oder PGPASSFILE oder die Servicedatei) ein und entfernen Sie es aus der Verbindungsangabe</translation>
    </message>
    <message>
        <source>%1 could not be read, so it is not overwritten</source>
        <translation>%1 ließ sich nicht lesen und wird deshalb nicht überschrieben</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>%1 at offset %2</source>
        <translation>%1 an Position %2</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>kein JSON-Objekt</translation>
    </message>
    <message>
        <source>%1 is not valid profile JSON (%2). It was kept as %3 and the console starts without profiles; repair that file and move it back to restore them.</source>
        <translation>%1 ist kein gültiges Profil-JSON (%2). Die Datei wurde als %3 aufbewahrt, und die Konsole startet ohne Profile; reparieren Sie diese Datei und verschieben Sie sie zurück, um sie wiederherzustellen.</translation>
    </message>
    <message>
        <source>%1 is not valid profile JSON and could not be moved aside</source>
        <translation>%1 ist kein gültiges Profil-JSON und ließ sich nicht beiseiteschieben</translation>
    </message>
    <message>
        <source>%1 is not valid profile JSON (%2) and could not be moved aside; profiles will not be saved until it is repaired or removed.</source>
        <translation>%1 ist kein gültiges Profil-JSON (%2) und ließ sich nicht beiseiteschieben; Profile werden nicht gespeichert, bis die Datei repariert oder entfernt ist.</translation>
    </message>
    <message>
        <source>: nothing was saved</source>
        <translation>: Nichts wurde gespeichert</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <source>%1: not read, its columns differ (%2)</source>
        <translation>%1: nicht gelesen, die Spalten weichen ab (%2)</translation>
    </message>
    <message>
        <source>%1 does not match the profile: %2</source>
        <translation>%1 passt nicht zum Profil: %2</translation>
    </message>
    <message>
        <source>fix the column mapping in the profile&apos;s leases-table settings (or --columns, --time-kind)</source>
        <translation>korrigieren Sie die Spaltenzuordnung in den Lease-Tabellen-Einstellungen des Profils (oder --columns, --time-kind)</translation>
    </message>
    <message>
        <source>%1: not read, no SELECT privilege</source>
        <translation>%1: nicht gelesen, keine SELECT-Berechtigung</translation>
    </message>
    <message>
        <source>permission denied: no SELECT on %1</source>
        <translation>Zugriff verweigert: kein SELECT auf %1</translation>
    </message>
    <message>
        <source>permission denied: no SELECT on %1 (%2&apos;s table)</source>
        <translation>Zugriff verweigert: kein SELECT auf %1 (die Tabelle von %2)</translation>
    </message>
    <message>
        <source>could not check the leases table</source>
        <translation>die Lease-Tabelle ließ sich nicht prüfen</translation>
    </message>
    <message>
        <source>schema &quot;%1&quot; does not exist</source>
        <translation>Schema „%1“ existiert nicht</translation>
    </message>
    <message>
        <source>set the leases table&apos;s schema in the profile or with --table (or create it)</source>
        <translation>setzen Sie das Schema der Lease-Tabelle im Profil oder mit --table (oder legen Sie es an)</translation>
    </message>
    <message>
        <source>leases table %1 does not exist</source>
        <translation>Lease-Tabelle %1 existiert nicht</translation>
    </message>
    <message>
        <source>set the leases table in the profile (schema, table) or with --table, or choose a preset (--preset default, shedlock, river)</source>
        <translation>setzen Sie die Lease-Tabelle im Profil (Schema, Tabelle) oder mit --table, oder wählen Sie eine Vorlage (--preset default, shedlock, river)</translation>
    </message>
    <message>
        <source>%1 is not %2&apos;s table: %3</source>
        <translation>%1 ist nicht die Tabelle von %2: %3</translation>
    </message>
    <message>
        <source>name the library&apos;s table with --table, or choose another --preset</source>
        <translation>nennen Sie die Tabelle der Bibliothek mit --table, oder wählen Sie ein anderes --preset</translation>
    </message>
    <message>
        <source>column &quot;%1&quot; (the %2 column) is missing</source>
        <translation>Spalte „%1“ (die %2-Spalte) fehlt</translation>
    </message>
    <message>
        <source>a text type</source>
        <translation>ein Texttyp</translation>
    </message>
    <message>
        <source> (choose &quot;naive UTC&quot; or a zone for the expiry column in the profile)</source>
        <translation> (wählen Sie im Profil „naive UTC“ oder eine Zone für die Ablaufspalte)</translation>
    </message>
    <message>
        <source> (choose &quot;timestamptz&quot; for the expiry column in the profile)</source>
        <translation> (wählen Sie im Profil „timestamptz“ für die Ablaufspalte)</translation>
    </message>
    <message>
        <source>column &quot;%1&quot; (the %2 column) is %3, expected %4%5</source>
        <translation>Spalte „%1“ (die %2-Spalte) ist %3, erwartet %4%5</translation>
    </message>
    <message>
        <source>invalid connection string: %1</source>
        <translation>ungültige Verbindungsangabe: %1</translation>
    </message>
    <message>
        <source>use key=value pairs (host=… dbname=…), a postgresql:// URI, or a service name</source>
        <translation>verwenden Sie Schlüssel=Wert-Paare (host=… dbname=…), eine postgresql://-URI oder einen Servicenamen</translation>
    </message>
    <message>
        <source>Leasewatch needs PostgreSQL %1 or newer; connect to a newer server</source>
        <translation>Leasewatch braucht PostgreSQL %1 oder neuer; verbinden Sie sich mit einem neueren Server</translation>
    </message>
    <message>
        <source>host name lookup of &quot;%1&quot; did not answer within %2 s</source>
        <translation>die Namensauflösung von „%1“ hat binnen %2 s nicht geantwortet</translation>
    </message>
    <message>
        <source>check the host name and the DNS servers of this machine</source>
        <translation>prüfen Sie den Hostnamen und die DNS-Server dieses Rechners</translation>
    </message>
    <message>
        <source>connect to PgBouncer&apos;s admin console: dbname=pgbouncer, as a user listed in admin_users or stats_users</source>
        <translation>verbinden Sie sich mit der Admin-Konsole von PgBouncer: dbname=pgbouncer, als Benutzer aus admin_users oder stats_users</translation>
    </message>
    <message>
        <source>%1 returned no rows: is this PgBouncer&apos;s admin console (dbname=pgbouncer)?</source>
        <translation>%1 lieferte keine Zeilen: Ist das die Admin-Konsole von PgBouncer (dbname=pgbouncer)?</translation>
    </message>
    <message>
        <source>cannot switch %1 to WAL mode: %2</source>
        <translation>%1 lässt sich nicht in den WAL-Modus schalten: %2</translation>
    </message>
    <message>
        <source>no record %1</source>
        <translation>kein Eintrag %1</translation>
    </message>
    <message>
        <source>could not create the server-side audit table: %1</source>
        <translation>die serverseitige Audit-Tabelle ließ sich nicht anlegen: %1</translation>
    </message>
    <message>
        <source>the server-side audit table already existed; nothing was created</source>
        <translation>die serverseitige Audit-Tabelle existierte schon; nichts wurde angelegt</translation>
    </message>
    <message>
        <source>created the server-side audit table with: %1</source>
        <translation>serverseitige Audit-Tabelle angelegt mit: %1</translation>
    </message>
    <message>
        <source>no valid audit table name in the profile (&quot;%1&quot;)</source>
        <translation>kein gültiger Name der Audit-Tabelle im Profil („%1“)</translation>
    </message>
    <message>
        <source>name it as [schema.]table</source>
        <translation>nennen Sie sie als [Schema.]Tabelle</translation>
    </message>
    <message>
        <source>not sent: operator mode is off for this connection profile</source>
        <translation>nicht gesendet: Der Operator-Modus ist für dieses Verbindungsprofil aus</translation>
    </message>
    <message>
        <source>start with --operator to create the audit table</source>
        <translation>starten Sie mit --operator, um die Audit-Tabelle anzulegen</translation>
    </message>
    <message>
        <source>cannot switch to WAL mode: %1</source>
        <translation>lässt sich nicht in den WAL-Modus schalten: %1</translation>
    </message>
    <message>
        <source>%1: no such file</source>
        <translation>%1: keine solche Datei</translation>
    </message>
    <message>
        <source>%1 is not a Leasewatch history (%2)</source>
        <translation>%1 ist kein Leasewatch-Verlauf (%2)</translation>
    </message>
    <message>
        <source>%1 was written by a newer Leasewatch (history schema %2)</source>
        <translation>%1 wurde von einem neueren Leasewatch geschrieben (Verlaufsschema %2)</translation>
    </message>
    <message>
        <source>nothing was recorded between those times</source>
        <translation>zwischen diesen Zeiten wurde nichts aufgezeichnet</translation>
    </message>
    <message>
        <source>cannot move the bundle into place at %1</source>
        <translation>das Bündel lässt sich nicht nach %1 verschieben</translation>
    </message>
    <message>
        <source>cannot create the history directory %1</source>
        <translation>das Verlaufsverzeichnis %1 lässt sich nicht anlegen</translation>
    </message>
    <message>
        <source>the history store %1 is being written by another Leasewatch (pid %2 on %3): one writer per store</source>
        <translation>der Verlaufsspeicher %1 wird von einem anderen Leasewatch geschrieben (PID %2 auf %3): ein Schreiber je Speicher</translation>
    </message>
    <message>
        <source>this host</source>
        <translation>diesem Host</translation>
    </message>
    <message>
        <source>cannot lock the history store %1</source>
        <translation>der Verlaufsspeicher %1 lässt sich nicht sperren</translation>
    </message>
    <message>
        <source>the history store %1 is damaged (%2) and cannot be moved aside</source>
        <translation>der Verlaufsspeicher %1 ist beschädigt (%2) und lässt sich nicht beiseiteschieben</translation>
    </message>
    <message>
        <source>The history store %1 was damaged (%2). It was kept as %3, and recording started again in a new store.</source>
        <translation>Der Verlaufsspeicher %1 war beschädigt (%2). Er wurde als %3 aufbewahrt, und die Aufzeichnung begann neu in einem neuen Speicher.</translation>
    </message>
</context>
<context>
    <name>lw::Evidence</name>
    <message>
        <source>looks alive</source>
        <translation>wirkt lebendig</translation>
    </message>
    <message>
        <source>looks dead</source>
        <translation>wirkt tot</translation>
    </message>
    <message>
        <source>%1 records no holder and no time in %2: whether a run still holds it cannot be told from one look</source>
        <translation>%1 vermerkt in %2 weder Halter noch Zeit: Ob ein Lauf sie noch hält, lässt sich nicht auf einen Blick sagen</translation>
    </message>
    <message>
        <source>the session(s) that could have set it at %1%2 are gone, and none runs a statement on %3</source>
        <translation>die Sitzung(en), die sie um %1%2 gesetzt haben könnten, sind weg, und keine führt eine Anweisung auf %3 aus</translation>
    </message>
    <message>
        <source> (pid %1)</source>
        <translation> (PID %1)</translation>
    </message>
    <message>
        <source>no session has run a statement on %1 for %2</source>
        <translation>seit %2 hat keine Sitzung eine Anweisung auf %1 ausgeführt</translation>
    </message>
    <message>
        <source>session(s) running statements on %1 (pid %2)</source>
        <translation>Sitzung(en), die Anweisungen auf %1 ausführen (PID %2)</translation>
    </message>
    <message>
        <source>the session(s) that could have set it at %1 are still connected (pid %2)</source>
        <translation>die Sitzung(en), die sie um %1 gesetzt haben könnten, sind noch verbunden (PID %2)</translation>
    </message>
    <message>
        <source>%1 records no holder and no time; set since at least %2, no session on %3 since %4</source>
        <translation>%1 vermerkt weder Halter noch Zeit; gesetzt seit mindestens %2, seit %4 keine Sitzung auf %3</translation>
    </message>
    <message>
        <source>last renewal seen %1 ago</source>
        <translation>letzte Erneuerung vor %1 gesehen</translation>
    </message>
    <message>
        <source>no renewal seen in the %1 the console has watched it</source>
        <translation>keine Erneuerung in den %1, in denen die Konsole sie beobachtet hat</translation>
    </message>
    <message>
        <source>renewal window %1</source>
        <translation>Erneuerungsfenster %1</translation>
    </message>
    <message>
        <source>renewal window unknown (TTL not known yet)</source>
        <translation>Erneuerungsfenster unbekannt (TTL noch nicht bekannt)</translation>
    </message>
    <message>
        <source>expired %1 ago and not taken over</source>
        <translation>vor %1 abgelaufen und nicht übernommen</translation>
    </message>
    <message>
        <source>renewal overdue: %1 (%2)</source>
        <translation>Erneuerung überfällig: %1 (%2)</translation>
    </message>
    <message>
        <source>the row disappeared (released)</source>
        <translation>die Zeile ist verschwunden (freigegeben)</translation>
    </message>
    <message>
        <source>released by its holder (the row is kept, free to take)</source>
        <translation>von ihrem Halter freigegeben (die Zeile bleibt, frei zu nehmen)</translation>
    </message>
    <message>
        <source>cannot tell: the lease has no expiry</source>
        <translation>nicht zu sagen: Die Lease hat keinen Ablauf</translation>
    </message>
    <message>
        <source>just taken over by this holder</source>
        <translation>gerade von diesem Halter übernommen</translation>
    </message>
    <message>
        <source>not expired (taken %1 ago, expires %2)</source>
        <translation>nicht abgelaufen (vor %1 genommen, Ablauf %2)</translation>
    </message>
    <message>
        <source>%1, within its %2</source>
        <translation>%1, innerhalb ihres Fensters: %2</translation>
    </message>
    <message>
        <source>not expired; watched for %1, less than its %2, so no renewal was due yet</source>
        <translation>nicht abgelaufen; seit %1 beobachtet, kürzer als ihr %2, also war noch keine Erneuerung fällig</translation>
    </message>
    <message>
        <source>not expired (%1; %2)</source>
        <translation>nicht abgelaufen (%1; %2)</translation>
    </message>
    <message>
        <source>the writer&apos;s clock runs at least %1 behind the server&apos;s: the lease looks expired that much early</source>
        <translation>die Uhr des Schreibers geht mindestens %1 hinter der des Servers: Die Lease wirkt um so viel zu früh abgelaufen</translation>
    </message>
    <message>
        <source>the LISTEN &quot;%1&quot; session(s) its worker could own (pid %2) were connected while it held the job (last seen %3 ago); none is now</source>
        <translation>die LISTEN-„%1“-Sitzung(en), die sein Worker besitzen könnte (PID %2), waren verbunden, während er den Job hielt (zuletzt vor %3 gesehen); jetzt ist keine mehr da</translation>
    </message>
    <message>
        <source>a LISTEN &quot;%1&quot; session its worker may own is connected (pid %2)</source>
        <translation>eine LISTEN-„%1“-Sitzung, die sein Worker besitzen könnte, ist verbunden (PID %2)</translation>
    </message>
    <message>
        <source>no %1 worker was seen listening while it held the job: whether %2 still runs cannot be told here; %1 frees it by itself %3</source>
        <translation>kein %1-Worker wurde beim Lauschen gesehen, während er den Job hielt: Ob %2 noch läuft, lässt sich hier nicht sagen; %1 gibt ihn von selbst frei %3</translation>
    </message>
    <message>
        <source>at its reset</source>
        <translation>bei seinem Reset</translation>
    </message>
    <message>
        <source>the session list is not available: cannot tell whether the holder&apos;s host is still connected</source>
        <translation>die Sitzungsliste ist nicht verfügbar: Ob der Host des Halters noch verbunden ist, lässt sich nicht sagen</translation>
    </message>
    <message>
        <source>the holder has no host part: its sessions cannot be matched</source>
        <translation>der Halter hat keinen Host-Teil: Seine Sitzungen lassen sich nicht zuordnen</translation>
    </message>
    <message>
        <source>%1 session(s) from host %2 still connected (pid %3)</source>
        <translation>%1 Sitzung(en) von Host %2 noch verbunden (PID %3)</translation>
    </message>
    <message>
        <source>%1 session(s) from host %2 were connected while it held the lock (last seen %3 ago); none has been since</source>
        <translation>%1 Sitzung(en) von Host %2 waren verbunden, während er die Sperre hielt (zuletzt vor %3 gesehen); seither keine mehr</translation>
    </message>
    <message>
        <source>%1 holds no database session while a job runs and names its holder by host name only: whether %2&apos;s job still runs cannot be told here; the lock frees itself at its expiry (%3)</source>
        <translation>%1 hält keine Datenbanksitzung, während ein Job läuft, und nennt seinen Halter nur beim Hostnamen: Ob der Job von %2 noch läuft, lässt sich hier nicht sagen; die Sperre gibt sich bei ihrem Ablauf selbst frei (%3)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>no session from host %1 is connected</source>
        <translation>keine Sitzung von Host %1 ist verbunden</translation>
    </message>
</context>
<context>
    <name>lw::Findings</name>
    <message>
        <source>pid %1</source>
        <translation>PID %1</translation>
    </message>
    <message>
        <source>pid %1 (%2)</source>
        <translation>PID %1 (%2)</translation>
    </message>
    <message>
        <source>pid %1 (local, no application_name%2)</source>
        <translation>PID %1 (lokal, kein application_name%2)</translation>
    </message>
    <message>
        <source>pid %1 from %2, no application_name%3</source>
        <translation>PID %1 von %2, kein application_name%3</translation>
    </message>
    <message>
        <source>pid %1 (%2 on %3%4)</source>
        <translation>PID %1 (%2 auf %3%4)</translation>
    </message>
    <message>
        <source>pid %1 (%2%3)</source>
        <translation>PID %1 (%2%3)</translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation> und %1 weitere</translation>
    </message>
    <message>
        <source>idle %1 holding this lock: the connection is out of its pool</source>
        <translation>hält diese Sperre seit %1 untätig: Die Verbindung fehlt ihrem Pool</translation>
    </message>
    <message>
        <source>session-level lock (held with no transaction open)</source>
        <translation>Sperre auf Sitzungsebene (gehalten ohne offene Transaktion)</translation>
    </message>
    <message>
        <source>waiting %1 behind pid %2</source>
        <translation>wartet seit %1 hinter PID %2</translation>
    </message>
    <message>
        <source>waiting behind pid %1</source>
        <translation>wartet hinter PID %1</translation>
    </message>
    <message>
        <source>%1 has waited %2 for advisory lock %3 held by pid %4</source>
        <translation>%1 wartet seit %2 auf die Advisory-Sperre %3, die PID %4 hält</translation>
    </message>
    <message>
        <source>A session is queued behind another session&apos;s advisory lock; its work does not progress until the holder releases it.</source>
        <translation>Eine Sitzung steht hinter der Advisory-Sperre einer anderen Sitzung an; ihre Arbeit kommt nicht voran, bis der Halter sie freigibt.</translation>
    </message>
    <message>
        <source>Use pg_try_advisory_lock with a retry, or a lock_timeout, so waits are bounded; check why the holder keeps the lock.</source>
        <translation>Verwenden Sie pg_try_advisory_lock mit Wiederholung oder ein lock_timeout, damit das Warten begrenzt ist; prüfen Sie, warum der Halter die Sperre behält.</translation>
    </message>
    <message>
        <source>%1 has been %2 for %3 holding advisory locks %4</source>
        <translation>%1 ist seit %3 %2 und hält die Advisory-Sperren %4</translation>
    </message>
    <message>
        <source>%1 has been %2 for %3 holding advisory lock %4</source>
        <translation>%1 ist seit %3 %2 und hält die Advisory-Sperre %4</translation>
    </message>
    <message>
        <source>A migration tool holds its migration lock on an idle session: the migration run died, hangs or waits for input, and the next deploy cannot migrate (it waits, or fails on the lock).</source>
        <translation>Ein Migrationswerkzeug hält seine Migrationssperre auf einer untätigen Sitzung: Der Migrationslauf ist abgestürzt, hängt oder wartet auf Eingabe, und das nächste Deployment kann nicht migrieren (es wartet oder scheitert an der Sperre).</translation>
    </message>
    <message>
        <source>Find the deploy or migration process behind this session; if it is gone, terminate pid %1 to release the lock, then check the schema&apos;s state.</source>
        <translation>Finden Sie den Deployment- oder Migrationsprozess hinter dieser Sitzung; ist er weg, beenden Sie PID %1, um die Sperre freizugeben, und prüfen Sie dann den Zustand des Schemas.</translation>
    </message>
    <message>
        <source>An idle connection that holds a session-level advisory lock is taken out of its pool until it unlocks or disconnects.</source>
        <translation>Eine untätige Verbindung, die eine Advisory-Sperre auf Sitzungsebene hält, fehlt ihrem Pool, bis sie entsperrt oder die Verbindung trennt.</translation>
    </message>
    <message>
        <source>Hold no lock over long work on a pooled connection; use a lease row, or a transaction-level lock (pg_advisory_xact_lock).</source>
        <translation>Halten Sie auf einer Pool-Verbindung keine Sperre über lange Arbeit; verwenden Sie eine Lease-Zeile oder eine Sperre auf Transaktionsebene (pg_advisory_xact_lock).</translation>
    </message>
    <message>
        <source>%1: %2 of %3 pooled connections are idle holding advisory locks %4 for %5; its work cannot get a connection</source>
        <translation>%1: %2 von %3 Pool-Verbindungen halten seit %5 untätig die Advisory-Sperren %4; seine Arbeit bekommt keine Verbindung</translation>
    </message>
    <message>
        <source>Every connection of this instance&apos;s pool is pinned by a session-level advisory lock on an idle backend; work that needs a connection waits for one its own locks hold. The server sees no deadlock.</source>
        <translation>Jede Verbindung im Pool dieser Instanz ist durch eine Advisory-Sperre auf Sitzungsebene auf einem untätigen Backend blockiert; Arbeit, die eine Verbindung braucht, wartet auf eine, die ihre eigenen Sperren festhalten. Der Server sieht keinen Deadlock.</translation>
    </message>
    <message>
        <source>Hold no lock over long work on a pooled connection; use a lease row, or a transaction-level lock. Terminating one pinned backend frees one connection.</source>
        <translation>Halten Sie auf einer Pool-Verbindung keine Sperre über lange Arbeit; verwenden Sie eine Lease-Zeile oder eine Sperre auf Transaktionsebene. Ein beendetes blockiertes Backend gibt eine Verbindung frei.</translation>
    </message>
    <message>
        <source>%1 blocks 1 session; the longest has waited %3</source>
        <translation>%1 blockiert 1 Sitzung; sie wartet seit %3</translation>
    </message>
    <message>
        <source>%1 blocks %2 sessions; the longest has waited %3</source>
        <translation>%1 blockiert %2 Sitzungen; die längste wartet seit %3</translation>
    </message>
    <message>
        <source>Sessions wait on locks held by the root blocker; waits cascade and fill the pools.</source>
        <translation>Sitzungen warten auf Sperren, die der auslösende Blockierer hält; das Warten pflanzt sich fort und füllt die Pools.</translation>
    </message>
    <message>
        <source>Set lock_timeout and statement_timeout; take row locks in a consistent order; end or cancel the root blocker if it is stuck.</source>
        <translation>Setzen Sie lock_timeout und statement_timeout; nehmen Sie Zeilensperren in fester Reihenfolge; beenden oder unterbrechen Sie den auslösenden Blockierer, wenn er hängt.</translation>
    </message>
    <message>
        <source>deadlock cycle caught in this refresh: pids %1 wait on each other</source>
        <translation>Deadlock-Zyklus in dieser Aktualisierung erfasst: Die PIDs %1 warten aufeinander</translation>
    </message>
    <message>
        <source>The sessions wait on each other; PostgreSQL&apos;s deadlock detector will abort one of them after deadlock_timeout.</source>
        <translation>Die Sitzungen warten aufeinander; die Deadlock-Erkennung von PostgreSQL bricht nach deadlock_timeout eine davon ab.</translation>
    </message>
    <message>
        <source>Lock rows and keys in one consistent order (e.g. sorted) in every transaction.</source>
        <translation>Sperren Sie Zeilen und Schlüssel in jeder Transaktion in derselben Reihenfolge (z. B. sortiert).</translation>
    </message>
    <message>
        <source>statement</source>
        <translation>Anweisung</translation>
    </message>
    <message>
        <source>pid %1&apos;s transaction</source>
        <translation>die Transaktion von PID %1</translation>
    </message>
    <message>
        <source>pid %1&apos;s snapshot</source>
        <translation>den Snapshot von PID %1</translation>
    </message>
    <message>
        <source>keeps retrying pg_try_advisory_lock for %1 held by pid %2</source>
        <translation>wiederholt pg_try_advisory_lock für %1, das PID %2 hält, immer wieder</translation>
    </message>
    <message>
        <source>waits for a lock held by pid %1</source>
        <translation>wartet auf eine Sperre, die PID %1 hält</translation>
    </message>
    <message>
        <source>waits for %1 held by pid %2</source>
        <translation>wartet auf %1, das PID %2 hält</translation>
    </message>
    <message>
        <source>whose %1 waits for %2</source>
        <translation>deren %1 auf %2 wartet</translation>
    </message>
    <message>
        <source>whose client&apos;s %1 (pid %2) waits for %3</source>
        <translation>deren Client mit %1 (PID %2) auf %3 wartet</translation>
    </message>
    <message>
        <source>and through pid %1, %2 (pid %3) waits for %4</source>
        <translation>und über PID %1 wartet %2 (PID %3) auf %4</translation>
    </message>
    <message>
        <source>pid %1 waits on no lock, it retries pg_try_advisory_lock</source>
        <translation>PID %1 wartet auf keine Sperre, sie wiederholt pg_try_advisory_lock</translation>
    </message>
    <message>
        <source>pid %1 is idle: its program, the build&apos;s own client, waits for the build before it lets go</source>
        <translation>PID %1 ist untätig: Ihr Programm, der eigene Client des Aufbaus, wartet auf den Aufbau, bevor es loslässt</translation>
    </message>
    <message>
        <source>%1 %2, %3: neither can finish</source>
        <translation>%1 %2, %3: Keine kann fertig werden</translation>
    </message>
    <message>
        <source>PostgreSQL&apos;s deadlock detector cannot see this cycle (%1): nobody gets an error, it lasts until someone acts.</source>
        <translation>Die Deadlock-Erkennung von PostgreSQL kann diesen Zyklus nicht sehen (%1): Niemand bekommt einen Fehler, er dauert, bis jemand eingreift.</translation>
    </message>
    <message>
        <source> Ending pid %1, the root of the lock chain, would let go of its lock with the build half done.</source>
        <translation> PID %1, die Wurzel der Sperrkette, zu beenden, gäbe ihre Sperre mit halb fertigem Aufbau frei.</translation>
    </message>
    <message>
        <source>Terminate pid %1 (pg_terminate_backend(%1)): it is idle in a transaction, where a cancel does nothing. Its transaction ends, the %2 finishes and the lock is let go; pid %1&apos;s work fails and can be run again.</source>
        <translation>Beenden Sie PID %1 (pg_terminate_backend(%1)): Sie ist untätig in einer Transaktion, wo ein Abbruch nichts bewirkt. Ihre Transaktion endet, %2 wird fertig und die Sperre wird freigegeben; die Arbeit von PID %1 scheitert und kann erneut laufen.</translation>
    </message>
    <message>
        <source>Cancel pid %1&apos;s statement (pg_cancel_backend(%1)), not the root blocker: its transaction fails and lets go of what the %2 waits for at once, the %2 finishes and the lock is let go; pid %1&apos;s work can be run again.</source>
        <translation>Brechen Sie die Anweisung von PID %1 ab (pg_cancel_backend(%1)), nicht den auslösenden Blockierer: Ihre Transaktion scheitert und gibt sofort frei, worauf %2 wartet, %2 wird fertig und die Sperre wird freigegeben; die Arbeit von PID %1 kann erneut laufen.</translation>
    </message>
    <message>
        <source>lock names %1 hash to the same advisory key %2</source>
        <translation>die Sperrnamen %1 ergeben denselben Advisory-Schlüssel %2</translation>
    </message>
    <message>
        <source> and </source>
        <translation> und </translation>
    </message>
    <message>
        <source>Two different jobs take the same advisory lock: they exclude each other by accident, and the console cannot tell which one holds it.</source>
        <translation>Zwei verschiedene Jobs nehmen dieselbe Advisory-Sperre: Sie schließen einander versehentlich aus, und die Konsole kann nicht sagen, welcher sie hält.</translation>
    </message>
    <message>
        <source>Use a key scheme without collisions: two-key locks (namespace, id), or ids from a table instead of hashtext().</source>
        <translation>Verwenden Sie ein Schlüsselschema ohne Kollisionen: Sperren mit zwei Schlüsseln (Namensraum, ID) oder IDs aus einer Tabelle statt hashtext().</translation>
    </message>
    <message>
        <source>%1 of %2 connections in use (max_connections %3 − %4 reserved)</source>
        <translation>%1 von %2 Verbindungen belegt (max_connections %3 − %4 reserviert)</translation>
    </message>
    <message>
        <source>New connections will fail with SQLSTATE 53300 once the budget is used up.</source>
        <translation>Neue Verbindungen scheitern mit SQLSTATE 53300, sobald das Budget aufgebraucht ist.</translation>
    </message>
    <message>
        <source>Shrink pools or put PgBouncer in front; look for pinned or idle-in-transaction sessions first.</source>
        <translation>Verkleinern Sie die Pools oder schalten Sie PgBouncer davor; suchen Sie zuerst nach blockierten oder in einer Transaktion untätigen Sitzungen.</translation>
    </message>
    <message>
        <source>shared lock table at %1 % (%2 of about %3 entries)</source>
        <translation>gemeinsame Sperrtabelle bei %1 % (%2 von etwa %3 Einträgen)</translation>
    </message>
    <message>
        <source>When the shared lock table is full, taking a lock fails with &quot;out of shared memory&quot; (SQLSTATE 53200) in any session.</source>
        <translation>Ist die gemeinsame Sperrtabelle voll, scheitert in jeder Sitzung das Nehmen einer Sperre mit „out of shared memory“ (SQLSTATE 53200).</translation>
    </message>
    <message>
        <source>Take fewer locks per transaction (batch advisory locks), or raise max_locks_per_transaction (needs a restart).</source>
        <translation>Nehmen Sie weniger Sperren pro Transaktion (Advisory-Sperren bündeln) oder erhöhen Sie max_locks_per_transaction (erfordert einen Neustart).</translation>
    </message>
    <message>
        <source>role %1 cannot see other roles&apos; sessions in full</source>
        <translation>Rolle %1 sieht die Sitzungen anderer Rollen nicht vollständig</translation>
    </message>
    <message>
        <source>Without pg_monitor, other users&apos; sessions show &lt;insufficient privilege&gt; for query, state, client address and wait events.</source>
        <translation>Ohne pg_monitor zeigen die Sitzungen anderer Benutzer &lt;insufficient privilege&gt; für Anfrage, Zustand, Client-Adresse und Warteereignisse.</translation>
    </message>
    <message>
        <source>GRANT pg_monitor TO %1;</source>
        <translation>GRANT pg_monitor TO %1;</translation>
    </message>
    <message>
        <source> Its writer&apos;s clock runs at least %1 behind the server&apos;s, so the lease looks expired that much early; the holder may be alive and renewing on its own schedule.</source>
        <translation> Die Uhr ihres Schreibers geht mindestens %1 hinter der des Servers, also wirkt die Lease um so viel zu früh abgelaufen; der Halter lebt vielleicht und erneuert nach seinem eigenen Takt.</translation>
    </message>
    <message>
        <source>%1 %2 (holder %3): %4</source>
        <translation>%1 %2 (Halter %3): %4</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keiner)</translation>
    </message>
    <message>
        <source>Judged by %1&apos;s own rule, read in its source; %2 is its table.</source>
        <translation>Beurteilt nach der eigenen Regel von %1, aus dessen Quelltext gelesen; %2 ist seine Tabelle.</translation>
    </message>
    <message>
        <source>Check that %1 is running on some instance; it takes the lease over by itself once one is.</source>
        <translation>Prüfen Sie, ob %1 auf irgendeiner Instanz läuft; sobald eine läuft, übernimmt sie die Lease von selbst.</translation>
    </message>
    <message>
        <source>%1 (pid %2)</source>
        <translation>%1 (PID %2)</translation>
    </message>
    <message>
        <source>%1 expired %2 ago; holder %3 stopped renewing at %4; nobody has taken it over</source>
        <translation>%1 ist vor %2 abgelaufen; Halter %3 hat um %4 aufgehört zu erneuern; niemand hat sie übernommen</translation>
    </message>
    <message>
        <source>%1 expired %2 ago; holder %3; nobody has taken it over</source>
        <translation>%1 ist vor %2 abgelaufen; Halter %3; niemand hat sie übernommen</translation>
    </message>
    <message>
        <source>Expired by the server&apos;s clock and not taken over.</source>
        <translation>Nach der Uhr des Servers abgelaufen und nicht übernommen.</translation>
    </message>
    <message>
        <source>The holder stopped renewing (it probably crashed) and no other instance has taken the lease yet; the work behind it is not being done.</source>
        <translation>Der Halter erneuert nicht mehr (wahrscheinlich ist er abgestürzt), und keine andere Instanz hat die Lease bisher übernommen; die Arbeit dahinter bleibt liegen.</translation>
    </message>
    <message>
        <source>Check the holder; if it is gone, wait for the next take or force-expire the lease (operator mode).</source>
        <translation>Prüfen Sie den Halter; ist er weg, warten Sie auf die nächste Übernahme oder erzwingen Sie den Ablauf der Lease (Operatormodus).</translation>
    </message>
    <message>
        <source>%1: the writer&apos;s clock (%2) runs at least %3 ahead of the server&apos;s</source>
        <translation>%1: Die Uhr des Schreibers (%2) geht mindestens %3 vor der des Servers</translation>
    </message>
    <message>
        <source>%1: the writer&apos;s clock (%2) runs at least %3 behind the server&apos;s</source>
        <translation>%1: Die Uhr des Schreibers (%2) geht mindestens %3 hinter der des Servers</translation>
    </message>
    <message>
        <source>The lease library writes times from the application&apos;s clock; a clock ahead makes leases last longer than intended.</source>
        <translation>Die Lease-Bibliothek schreibt Zeiten nach der Uhr der Anwendung; eine vorgehende Uhr lässt Leases länger gelten als gedacht.</translation>
    </message>
    <message>
        <source>The lease library writes times from the application&apos;s clock; a clock behind makes live leases look expired early, and another instance may take them while their holder still works.</source>
        <translation>Die Lease-Bibliothek schreibt Zeiten nach der Uhr der Anwendung; eine nachgehende Uhr lässt lebende Leases zu früh abgelaufen wirken, und eine andere Instanz kann sie nehmen, während ihr Halter noch arbeitet.</translation>
    </message>
    <message>
        <source>Run NTP on the application hosts, or configure the library to use the database&apos;s time.</source>
        <translation>Betreiben Sie NTP auf den Anwendungs-Hosts oder stellen Sie die Bibliothek auf die Zeit der Datenbank ein.</translation>
    </message>
    <message>
        <source>leases not shown: %1</source>
        <translation>Leases nicht angezeigt: %1</translation>
    </message>
    <message>
        <source>a lease table not read: %1</source>
        <translation>eine Lease-Tabelle nicht gelesen: %1</translation>
    </message>
    <message>
        <source>The console cannot read the leases table, so it shows no holders, no countdowns and no stale leases; locks, sessions and pools are still live.</source>
        <translation>Die Konsole kann die Lease-Tabelle nicht lesen, zeigt also keine Halter, keine Countdowns und keine verwaisten Leases; Sperren, Sitzungen und Pools sind weiter live.</translation>
    </message>
    <message>
        <source>One lease table is not read (its rows are missing, or as last read); the other tables&apos; rows, locks, sessions and pools are live.</source>
        <translation>Eine Lease-Tabelle wird nicht gelesen (ihre Zeilen fehlen oder stehen wie zuletzt gelesen); die Zeilen der anderen Tabellen, Sperren, Sitzungen und Pools sind live.</translation>
    </message>
    <message>
        <source>Check the leases-table settings of the profile.</source>
        <translation>Prüfen Sie die Lease-Tabellen-Einstellungen des Profils.</translation>
    </message>
    <message>
        <source>1 deadlock in the last %1 in database %2</source>
        <translation>1 Deadlock in den letzten %1 in Datenbank %2</translation>
    </message>
    <message>
        <source>%1 deadlocks in the last %2 in database %3</source>
        <translation>%1 Deadlocks in den letzten %2 in Datenbank %3</translation>
    </message>
    <message>
        <source>PostgreSQL aborted transactions that waited on each other; the application saw SQLSTATE 40P01 and had to retry.</source>
        <translation>PostgreSQL hat Transaktionen abgebrochen, die aufeinander warteten; die Anwendung bekam SQLSTATE 40P01 und musste es erneut versuchen.</translation>
    </message>
    <message>
        <source>Lock rows in one consistent order (ORDER BY … FOR UPDATE), keep transactions short, set lock_timeout.</source>
        <translation>Sperren Sie Zeilen in fester Reihenfolge (ORDER BY … FOR UPDATE), halten Sie Transaktionen kurz, setzen Sie lock_timeout.</translation>
    </message>
    <message>
        <source>advisory lock %1</source>
        <translation>Advisory-Sperre %1</translation>
    </message>
    <message>
        <source>stale lease</source>
        <translation>verwaiste Lease</translation>
    </message>
    <message>
        <source>pool pinned</source>
        <translation>Pool blockiert</translation>
    </message>
    <message>
        <source>idle holding advisory lock</source>
        <translation>untätig mit Advisory-Sperre</translation>
    </message>
    <message>
        <source>advisory lock wait</source>
        <translation>Warten auf Advisory-Sperre</translation>
    </message>
    <message>
        <source>blocking chain</source>
        <translation>Blockierkette</translation>
    </message>
    <message>
        <source>deadlocks</source>
        <translation>Deadlocks</translation>
    </message>
    <message>
        <source>lock table pressure</source>
        <translation>Sperrtabelle unter Druck</translation>
    </message>
    <message>
        <source>connections near limit</source>
        <translation>Verbindungen nahe am Limit</translation>
    </message>
    <message>
        <source>key collision</source>
        <translation>Schlüsselkollision</translation>
    </message>
    <message>
        <source>writer clock skew</source>
        <translation>Uhrabweichung des Schreibers</translation>
    </message>
    <message>
        <source>hidden by privileges</source>
        <translation>durch Rechte verborgen</translation>
    </message>
    <message>
        <source>bouncer slot holds lock</source>
        <translation>Bouncer-Platz hält Sperre</translation>
    </message>
    <message>
        <source>leases unreadable</source>
        <translation>Leases nicht lesbar</translation>
    </message>
    <message>
        <source>server not answering</source>
        <translation>Server antwortet nicht</translation>
    </message>
    <message>
        <source>holder gone</source>
        <translation>Halter verschwunden</translation>
    </message>
    <message>
        <source>flag left set</source>
        <translation>Flag stehen geblieben</translation>
    </message>
    <message>
        <source>double run</source>
        <translation>Doppellauf</translation>
    </message>
    <message>
        <source>hidden deadlock</source>
        <translation>verborgener Deadlock</translation>
    </message>
    <message>
        <source>%1 %2: its worker is gone (LISTEN session ended at %3) — the job stays locked until %4 (%5)</source>
        <translation>%1 %2: Sein Worker ist weg (LISTEN-Sitzung endete um %3) — der Job bleibt bis %4 gesperrt (%5)</translation>
    </message>
    <message>
        <source>A running %1 keeps a session listening on &quot;%2&quot; for its whole life; the one(s) %3 could own (pid %4) were connected while it held this job, last seen at %5, and none is now. Until %1&apos;s own reset, no other worker runs this job. If %3 is only cut off from the database, its job may still run.</source>
        <translation>Ein laufender %1 hält sein Leben lang eine Sitzung, die auf „%2“ lauscht; die, die %3 besitzen könnte (PID %4), waren verbunden, während er diesen Job hielt, zuletzt um %5 gesehen, und jetzt ist keine mehr da. Bis zum eigenen Reset von %1 führt kein anderer Worker diesen Job aus. Ist %3 nur von der Datenbank abgeschnitten, läuft sein Job womöglich noch.</translation>
    </message>
    <message>
        <source>If %1 is down, force-expire the job (%2&apos;s own reset: unlocked, run again now), or SELECT %3.force_unlock_workers(ARRAY[%4]) frees every job and queue it held.</source>
        <translation>Ist %1 ausgefallen, erzwingen Sie den Ablauf des Jobs (der eigene Reset von %2: entsperrt, läuft jetzt erneut), oder SELECT %3.force_unlock_workers(ARRAY[%4]) gibt jeden Job und jede Queue frei, die er hielt.</translation>
    </message>
    <message>
        <source>%1 %2: holder %3 is gone — its sessions ended at %4, the lock stays until %5 (%6)</source>
        <translation>%1 %2: Halter %3 ist weg — seine Sitzungen endeten um %4, die Sperre bleibt bis %5 (%6)</translation>
    </message>
    <message>
        <source>While %1 held the lock, %2 session(s) from host %1 were connected (last seen at %3); none has been since. %4 frees the lock only at its expiry, so no other instance runs this job until then. If %1 is only cut off from the database, its job may still run.</source>
        <translation>Während %1 die Sperre hielt, waren %2 Sitzung(en) von Host %1 verbunden (zuletzt um %3 gesehen); seither keine mehr. %4 gibt die Sperre erst bei ihrem Ablauf frei, bis dahin führt also keine andere Instanz diesen Job aus. Ist %1 nur von der Datenbank abgeschnitten, läuft sein Job womöglich noch.</translation>
    </message>
    <message>
        <source>If %1 is down, force-expire the lock (%2&apos;s own unlock: the expiry set to now) so the next scheduled run can take it; otherwise wait for %1 to come back.</source>
        <translation>Ist %1 ausgefallen, erzwingen Sie den Ablauf der Sperre (das eigene Entsperren von %2: Ablauf auf jetzt), damit der nächste geplante Lauf sie nehmen kann; sonst warten Sie, bis %1 zurück ist.</translation>
    </message>
    <message>
        <source>%1 %2 left set: the session that set it at %3 was gone by the next refresh</source>
        <translation>%1 %2 stehen geblieben: Die Sitzung, die es um %3 setzte, war bei der nächsten Aktualisierung weg</translation>
    </message>
    <message>
        <source>%1 %2 left set: the session(s) that could have set it at %3 (pid %4) are gone</source>
        <translation>%1 %2 stehen geblieben: Die Sitzung(en), die es um %3 gesetzt haben könnten (PID %4), sind weg</translation>
    </message>
    <message>
        <source>%1 keeps its lock as a flag in %2, with no holder and no time. The console saw it set at %3; every session of this database that ran a statement then has disconnected (since %4), and none has run one on %5 since. A run that dies while it holds the flag leaves it set, and every later run fails (&quot;Migration table is already locked&quot;).</source>
        <translation>%1 hält seine Sperre als Flag in %2, ohne Halter und ohne Zeit. Die Konsole sah es um %3 gesetzt; jede Sitzung dieser Datenbank, die damals eine Anweisung ausführte, hat sich getrennt (seit %4), und seither hat keine eine auf %5 ausgeführt. Ein Lauf, der stirbt, während er das Flag hält, lässt es stehen, und jeder spätere Lauf scheitert („Migration table is already locked“).</translation>
    </message>
    <message>
        <source>%1 %2 set for at least %3, no session on %4 for %5</source>
        <translation>%1 %2 seit mindestens %3 gesetzt, seit %5 keine Sitzung auf %4</translation>
    </message>
    <message>
        <source>%1 keeps its lock as a flag in %2, with no holder and no time. It was already set when the console began watching at %3, and no session has run a statement on %4 since %5. A run that dies while it holds the flag leaves it set, and every later run fails (&quot;Migration table is already locked&quot;).</source>
        <translation>%1 hält seine Sperre als Flag in %2, ohne Halter und ohne Zeit. Es war schon gesetzt, als die Konsole um %3 zu beobachten begann, und seit %5 hat keine Sitzung eine Anweisung auf %4 ausgeführt. Ein Lauf, der stirbt, während er das Flag hält, lässt es stehen, und jeder spätere Lauf scheitert („Migration table is already locked“).</translation>
    </message>
    <message>
        <source>If no migration is running (check the deploy jobs), free it with `%1 migrate:unlock` or force-expire it here (%2). The run that died may have left a migration half applied: check it before the next run.</source>
        <translation>Läuft keine Migration (prüfen Sie die Deployment-Jobs), geben Sie es mit `%1 migrate:unlock` frei oder erzwingen Sie hier den Ablauf (%2). Der abgestürzte Lauf hat womöglich eine Migration halb angewendet: Prüfen Sie das vor dem nächsten Lauf.</translation>
    </message>
    <message>
        <source>%1: %2 may still be running it — its sessions stayed active after %3 took the lease at %4</source>
        <translation>%1: %2 führt es womöglich noch aus — seine Sitzungen blieben aktiv, nachdem %3 die Lease um %4 nahm</translation>
    </message>
    <message>
        <source>The lease expired without a renewal from %1 (%2) and %3 took it over, but %1&apos;s sessions are still busy (pid %4): it stalled or lost the database for longer than the TTL and may not know yet. Until its next renewal fails, both may do the work the lease protects.</source>
        <translation>Die Lease lief ohne Erneuerung durch %1 (%2) ab und %3 hat sie übernommen, aber die Sitzungen von %1 sind noch beschäftigt (PID %4): Er stockte oder verlor die Datenbank länger als die TTL und weiß es vielleicht noch nicht. Bis seine nächste Erneuerung scheitert, tun womöglich beide die Arbeit, die die Lease schützt.</translation>
    </message>
    <message>
        <source>Check whether %1 still runs the job (its logs, or what pid %2 is running); stop it or cancel its statement if it does. Have the job check that it still holds the lease before it commits its work.</source>
        <translation>Prüfen Sie, ob %1 den Job noch ausführt (seine Logs, oder was PID %2 ausführt); stoppen Sie ihn oder brechen Sie seine Anweisung ab, falls ja. Lassen Sie den Job prüfen, ob er die Lease noch hält, bevor er seine Arbeit festschreibt.</translation>
    </message>
    <message>
        <source>advisory locks %1</source>
        <translation>die Advisory-Sperren %1</translation>
    </message>
    <message>
        <source>PgBouncer pool %1 (%2 pooling): server connection pid %3</source>
        <translation>PgBouncer-Pool %1 (%2-Pooling): Serververbindung PID %3</translation>
    </message>
    <message>
        <source>%1 holds session-level %2 — an application bug</source>
        <translation>%1 hält %2 auf Sitzungsebene — ein Fehler der Anwendung</translation>
    </message>
    <message>
        <source>A session-level advisory lock held on a transaction-pooled server connection leaks to the next client of that slot: after its transaction the client that took it has no claim on this connection and cannot reliably unlock it, and whoever gets the slot next holds the lock without knowing. PgBouncer runs no reset between transactions.</source>
        <translation>Eine Advisory-Sperre auf Sitzungsebene auf einer Serververbindung mit Transaktions-Pooling geht an den nächsten Client dieses Platzes über: Nach seiner Transaktion hat der Client, der sie nahm, keinen Anspruch mehr auf diese Verbindung und kann sie nicht verlässlich freigeben, und wer den Platz als Nächster bekommt, hält die Sperre, ohne es zu wissen. PgBouncer setzt zwischen Transaktionen nichts zurück.</translation>
    </message>
    <message>
        <source>Use pg_advisory_xact_lock (released at commit) on transaction-pooled connections, or take session locks over a session-pooled database or a direct connection. To free it now: pg_terminate_backend(%1) (the pool opens a new server connection).</source>
        <translation>Verwenden Sie auf Verbindungen mit Transaktions-Pooling pg_advisory_xact_lock (beim Commit freigegeben), oder nehmen Sie Sitzungssperren über eine Datenbank mit Sitzungs-Pooling oder eine direkte Verbindung. Um sie jetzt freizugeben: pg_terminate_backend(%1) (der Pool öffnet eine neue Serververbindung).</translation>
    </message>
    <message>
        <source>%1 holds %2 inside a client&apos;s transaction</source>
        <translation>%1 hält %2 innerhalb der Transaktion eines Clients</translation>
    </message>
    <message>
        <source>Fine if it is a transaction-level lock (pg_advisory_xact_lock, released at commit). If the application took it with pg_advisory_lock it stays on this server connection after the transaction and leaks to the next client of the slot.</source>
        <translation>In Ordnung, wenn es eine Sperre auf Transaktionsebene ist (pg_advisory_xact_lock, beim Commit freigegeben). Hat die Anwendung sie mit pg_advisory_lock genommen, bleibt sie nach der Transaktion auf dieser Serververbindung und geht an den nächsten Client des Platzes über.</translation>
    </message>
    <message>
        <source>Use pg_advisory_xact_lock on transaction-pooled connections.</source>
        <translation>Verwenden Sie auf Verbindungen mit Transaktions-Pooling pg_advisory_xact_lock.</translation>
    </message>
    <message>
        <source>%1 is back in the pool and still holds %2</source>
        <translation>%1 ist zurück im Pool und hält noch %2</translation>
    </message>
    <message>
        <source>The client that took the lock has gone and the server reset did not release it: the next client of this slot inherits the lock.</source>
        <translation>Der Client, der die Sperre nahm, ist weg, und das Zurücksetzen der Serververbindung hat sie nicht freigegeben: Der nächste Client dieses Platzes erbt die Sperre.</translation>
    </message>
    <message>
        <source>Keep server_reset_query = DISCARD ALL (it releases session advisory locks), or unlock (pg_advisory_unlock_all()) before disconnecting.</source>
        <translation>Behalten Sie server_reset_query = DISCARD ALL (gibt Advisory-Sperren auf Sitzungsebene frei), oder entsperren Sie vor dem Trennen (pg_advisory_unlock_all()).</translation>
    </message>
    <message>
        <source>%1 holds session-level %2 for its client</source>
        <translation>%1 hält %2 auf Sitzungsebene für seinen Client</translation>
    </message>
    <message>
        <source>%1 holds %2 for its client</source>
        <translation>%1 hält %2 für seinen Client</translation>
    </message>
    <message>
        <source>Under session pooling the client keeps this server connection until it disconnects; PgBouncer&apos;s reset (DISCARD ALL) releases session locks then.</source>
        <translation>Beim Sitzungs-Pooling behält der Client diese Serververbindung, bis er trennt; das Zurücksetzen durch PgBouncer (DISCARD ALL) gibt Sitzungssperren dann frei.</translation>
    </message>
    <message>
        <source>Nothing, unless the lock is held longer than the work needs.</source>
        <translation>Nichts, es sei denn, die Sperre wird länger gehalten, als die Arbeit braucht.</translation>
    </message>
</context>
<context>
    <name>lw::Fleet</name>
    <message>
        <source>connecting…</source>
        <translation>verbinde…</translation>
    </message>
    <message>
        <source>its history store cannot be read: %1</source>
        <translation>sein Verlaufsspeicher lässt sich nicht lesen: %1</translation>
    </message>
    <message>
        <source>the recorder has recorded no refresh for %1</source>
        <translation>der Rekorder hat seit %1 keine Aktualisierung aufgezeichnet</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>nicht beobachtet</translation>
    </message>
    <message>
        <source>recorded %1 ago, not watched now</source>
        <translation>vor %1 aufgezeichnet, jetzt nicht beobachtet</translation>
    </message>
    <message>
        <source>NOT ANSWERING</source>
        <translation>ANTWORTET NICHT</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>open window</source>
        <translation>offenes Fenster</translation>
    </message>
    <message>
        <source>leasewatch record (pid %1)</source>
        <translation>leasewatch record (PID %1)</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>Kritisch</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Worst finding</source>
        <translation>Schlimmster Befund</translation>
    </message>
    <message>
        <source>Watched by</source>
        <translation>Beobachtet von</translation>
    </message>
</context>
<context>
    <name>lw::ForceExpire</name>
    <message>
        <source>(out of range)</source>
        <translation>(außerhalb des Bereichs)</translation>
    </message>
    <message>
        <source>no expiry (NULL)</source>
        <translation>kein Ablauf (NULL)</translation>
    </message>
    <message>
        <source>(no holder)</source>
        <translation>(kein Halter)</translation>
    </message>
    <message>
        <source>released: %1; another instance may take it at its next attempt</source>
        <translation>freigegeben: %1; eine andere Instanz kann sie bei ihrem nächsten Versuch übernehmen</translation>
    </message>
    <message>
        <source>expired: its expiry is now the server&apos;s now() (%1); another instance may take it at its next attempt</source>
        <translation>abgelaufen: Ihr Ablauf ist jetzt das now() des Servers (%1); eine andere Instanz kann sie bei ihrem nächsten Versuch übernehmen</translation>
    </message>
    <message>
        <source>not changed: the lease changed hands since it was shown — now held by %1, expires %2</source>
        <translation>nicht geändert: Die Lease hat den Halter gewechselt, seit sie angezeigt wurde — jetzt gehalten von %1, läuft ab %2</translation>
    </message>
    <message>
        <source>not changed: the holder renewed it since it was shown (so it is alive) — new expiry %1</source>
        <translation>nicht geändert: Der Halter hat sie erneuert, seit sie angezeigt wurde (er lebt also) — neuer Ablauf %1</translation>
    </message>
    <message>
        <source>not changed: the lease was taken again since it was shown (taken at %1, expires %2); its holder string %3 is the same, but a holder string can be shared (every instance on one host), so this may be another instance</source>
        <translation>nicht geändert: Die Lease wurde erneut genommen, seit sie angezeigt wurde (genommen um %1, läuft ab %2); ihr Halter-Text %3 ist derselbe, aber einen Halter-Text können sich mehrere teilen (jede Instanz auf einem Host), es kann also eine andere Instanz sein</translation>
    </message>
    <message>
        <source>not changed: %1 rows are named &quot;%2&quot; (holders %3); the name column has no unique constraint, so the console cannot tell which row was shown, and the transaction was rolled back. Remove the duplicate rows, or add a unique constraint on the name column, then try again</source>
        <translation>nicht geändert: %1 Zeilen heißen „%2“ (Halter %3); die Namensspalte hat keinen Unique-Constraint, die Konsole kann also nicht sagen, welche Zeile angezeigt wurde, und die Transaktion wurde zurückgerollt. Entfernen Sie die doppelten Zeilen oder legen Sie einen Unique-Constraint auf die Namensspalte, dann versuchen Sie es erneut</translation>
    </message>
    <message>
        <source>outcome unknown: COMMIT was sent and no answer came (%1); the expiry may now be the server&apos;s now(). Look at the lease before acting again</source>
        <translation>Ergebnis unbekannt: COMMIT wurde gesendet, und keine Antwort kam (%1); der Ablauf ist jetzt womöglich das now() des Servers. Sehen Sie sich die Lease an, bevor Sie erneut handeln</translation>
    </message>
    <message>
        <source>not changed: it had already expired (expiry %1; another console may have force-expired it)</source>
        <translation>nicht geändert: Sie war schon abgelaufen (Ablauf %1; eine andere Konsole hat den Ablauf vielleicht erzwungen)</translation>
    </message>
    <message>
        <source>not changed: the lease no longer exists or is no longer held</source>
        <translation>nicht geändert: Die Lease gibt es nicht mehr, oder sie wird nicht mehr gehalten</translation>
    </message>
    <message>
        <source>refused for lack of privilege: role %1 needs %2 — %3</source>
        <translation>mangels Berechtigung abgelehnt: Rolle %1 braucht %2 — %3</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>(unbekannt)</translation>
    </message>
    <message>
        <source>timed out waiting for the row lock (another session, probably the holder renewing, holds it); nothing was changed — %1</source>
        <translation>Zeitlimit beim Warten auf die Zeilensperre (eine andere Sitzung hält sie, wahrscheinlich der Halter beim Erneuern); nichts wurde geändert — %1</translation>
    </message>
    <message>
        <source>timed out; nothing was changed — %1</source>
        <translation>Zeitlimit erreicht; nichts wurde geändert — %1</translation>
    </message>
    <message>
        <source>not sent: %1 Nothing was written.</source>
        <translation>nicht gesendet: %1 Nichts wurde geschrieben.</translation>
    </message>
    <message>
        <source>not sent: operator mode is off for this connection profile (start with --operator); nothing was written</source>
        <translation>nicht gesendet: Der Operator-Modus ist für dieses Verbindungsprofil aus (mit --operator starten); nichts wurde geschrieben</translation>
    </message>
    <message>
        <source>failed; nothing was changed — %1</source>
        <translation>fehlgeschlagen; nichts wurde geändert — %1</translation>
    </message>
    <message>
        <source>UPDATE on %1 (at least on column %2), with SELECT on it (GRANT SELECT, UPDATE (%2) ON %1 TO %3)</source>
        <translation>UPDATE auf %1 (mindestens auf Spalte %2), dazu SELECT darauf (GRANT SELECT, UPDATE (%2) ON %1 TO %3)</translation>
    </message>
    <message>
        <source>the server-side audit table %1 does not exist: create it from the console (Leases ▸ Create server-side audit table) or remove it from the profile</source>
        <translation>die serverseitige Audit-Tabelle %1 existiert nicht: Legen Sie sie in der Konsole an (Leases ▸ Serverseitige Audit-Tabelle anlegen) oder entfernen Sie sie aus dem Profil</translation>
    </message>
    <message>
        <source>the server sent no result for the update</source>
        <translation>der Server hat kein Ergebnis für das Update gesendet</translation>
    </message>
    <message>
        <source>the transaction did not commit</source>
        <translation>die Transaktion wurde nicht festgeschrieben</translation>
    </message>
    <message>
        <source>%1 keeps no expiry column to set.</source>
        <translation>%1 führt keine Ablaufspalte, die sich setzen ließe.</translation>
    </message>
</context>
<context>
    <name>lw::LeaseStates</name>
    <message>
        <source>held</source>
        <translation>gehalten</translation>
    </message>
    <message>
        <source>expiring soon</source>
        <translation>läuft bald ab</translation>
    </message>
    <message>
        <source>renewal overdue</source>
        <translation>Erneuerung überfällig</translation>
    </message>
    <message>
        <source>stale (expired, not taken over)</source>
        <translation>verwaist (abgelaufen, nicht übernommen)</translation>
    </message>
    <message>
        <source>taken over</source>
        <translation>übernommen</translation>
    </message>
    <message>
        <source>released</source>
        <translation>freigegeben</translation>
    </message>
    <message>
        <source>unknown (no expiry)</source>
        <translation>unbekannt (kein Ablauf)</translation>
    </message>
    <message>
        <source>free (released)</source>
        <translation>frei (freigegeben)</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>verwaist</translation>
    </message>
    <message>
        <source>force-expired</source>
        <translation>Ablauf erzwungen</translation>
    </message>
    <message>
        <source>held (recording began)</source>
        <translation>gehalten (Aufzeichnung begann)</translation>
    </message>
    <message>
        <source>taken</source>
        <translation>genommen</translation>
    </message>
    <message>
        <source>renewed</source>
        <translation>erneuert</translation>
    </message>
    <message>
        <source>expired (stale)</source>
        <translation>abgelaufen (verwaist)</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
</context>
<context>
    <name>lw::Libraries</name>
    <message>
        <source>the leader stopped re-electing and no other client was elected: no River client is doing leader work (the next elector deletes the row)</source>
        <translation>der Leader hat aufgehört, sich neu wählen zu lassen, und kein anderer Client wurde gewählt: Kein River-Client erledigt die Leader-Arbeit (die nächste Wahl löscht die Zeile)</translation>
    </message>
    <message>
        <source>the leader&apos;s lease ran out and no other node was elected: no Oban node is doing leader work (plugins, pruning, rescues)</source>
        <translation>die Lease des Leaders ist abgelaufen, und kein anderer Knoten wurde gewählt: Kein Oban-Knoten erledigt die Leader-Arbeit (Plugins, Pruning, Rescues)</translation>
    </message>
    <message>
        <source>Quartz recovers a failed instance itself: a live clustered scheduler repairs its triggers and deletes its check-in row (JobStoreSupport.clusterRecover). Deleting the row by hand would skip that repair; start one instance of the cluster instead.</source>
        <translation>Quartz stellt eine ausgefallene Instanz selbst wieder her: Ein laufender Scheduler des Clusters repariert ihre Trigger und löscht ihre Check-in-Zeile (JobStoreSupport.clusterRecover). Die Zeile von Hand zu löschen, übergeht diese Reparatur; starten Sie stattdessen eine Instanz des Clusters.</translation>
    </message>
    <message>
        <source>missed its check-ins; eligible for recovery by another instance</source>
        <translation>hat seine Check-ins versäumt; kann von einer anderen Instanz wiederhergestellt werden</translation>
    </message>
    <message>
        <source>rescheduled to now as db-scheduler&apos;s ReviveDeadExecution does (picked = false, version + 1: the old run&apos;s heartbeat and completion no longer match)</source>
        <translation>auf jetzt neu eingeplant, wie es db-schedulers ReviveDeadExecution tut (picked = false, version + 1: Heartbeat und Abschluss des alten Laufs passen nicht mehr)</translation>
    </message>
    <message>
        <source>no heartbeat for 30 min: a dead execution</source>
        <translation>seit 30 min kein Heartbeat: eine tote Ausführung</translation>
    </message>
    <message>
        <source>A running scheduler revives it by itself within 10 min (ReviveDeadExecution); if none runs, force-expire revives it now the same way.</source>
        <translation>Ein laufender Scheduler belebt sie binnen 10 min von selbst wieder (ReviveDeadExecution); läuft keiner, belebt „Ablauf erzwingen“ sie jetzt auf dieselbe Weise.</translation>
    </message>
    <message>
        <source>unlocked as graphile-worker&apos;s own resetLockedAt does (locked_at and locked_by cleared, run_at no earlier than now), with its queue where the same worker holds it</source>
        <translation>entsperrt, wie es graphile-workers eigenes resetLockedAt tut (locked_at und locked_by geleert, run_at nicht früher als jetzt), mit seiner Queue, wo derselbe Worker sie hält</translation>
    </message>
    <message>
        <source>locked for more than 4 h; graphile-worker frees it within 10 min</source>
        <translation>seit mehr als 4 h gesperrt; graphile-worker gibt ihn binnen 10 min frei</translation>
    </message>
    <message>
        <source>graphile-worker frees it by itself within 10 min (resetLockedAt); force-expire frees it now the same way, or SELECT graphile_worker.force_unlock_workers(ARRAY[&apos;&lt;locked_by&gt;&apos;]) frees all of a dead worker&apos;s jobs.</source>
        <translation>graphile-worker gibt ihn binnen 10 min von selbst frei (resetLockedAt); „Ablauf erzwingen“ gibt ihn jetzt auf dieselbe Weise frei, oder SELECT graphile_worker.force_unlock_workers(ARRAY[&apos;&lt;locked_by&gt;&apos;]) gibt alle Jobs eines toten Workers frei.</translation>
    </message>
    <message>
        <source>unlocked as graphile-worker&apos;s own resetLockedAt does, with the job the same worker holds in it</source>
        <translation>entsperrt, wie es graphile-workers eigenes resetLockedAt tut, mit dem Job, den derselbe Worker darin hält</translation>
    </message>
    <message>
        <source>unlocked as graphile-worker&apos;s own fail_job does (locked_at and locked_by cleared, run_at no earlier than now; no attempt is added), with its queue where the same worker holds it</source>
        <translation>entsperrt, wie es graphile-workers eigenes fail_job tut (locked_at und locked_by geleert, run_at nicht früher als jetzt; kein Versuch wird gezählt), mit seiner Queue, wo derselbe Worker sie hält</translation>
    </message>
    <message>
        <source>locked for more than 4 h; the next worker looking for jobs takes it again</source>
        <translation>seit mehr als 4 h gesperrt; der nächste Worker, der nach Jobs sucht, nimmt ihn wieder</translation>
    </message>
    <message>
        <source>A running worker takes it again at its next look for jobs (get_job); if none runs, force-expire frees it now.</source>
        <translation>Ein laufender Worker nimmt ihn bei seiner nächsten Suche nach Jobs wieder (get_job); läuft keiner, gibt „Ablauf erzwingen“ ihn jetzt frei.</translation>
    </message>
    <message>
        <source>unlocked as graphile-worker&apos;s own fail_job frees a queue, with the job the same worker holds in it</source>
        <translation>entsperrt, wie graphile-workers eigenes fail_job eine Queue freigibt, mit dem Job, den derselbe Worker darin hält</translation>
    </message>
    <message>
        <source>unlocked as Liquibase&apos;s own release does (what &quot;liquibase release-locks&quot; runs: LOCKED = FALSE, LOCKEDBY and LOCKGRANTED cleared)</source>
        <translation>entsperrt, wie es Liquibases eigene Freigabe tut (was „liquibase release-locks“ ausführt: LOCKED = FALSE, LOCKEDBY und LOCKGRANTED geleert)</translation>
    </message>
    <message>
        <source>held for more than 10 min: a migration that died or hangs</source>
        <translation>seit mehr als 10 min gehalten: eine abgestürzte oder hängende Migration</translation>
    </message>
    <message>
        <source>If no migration is running any more (no session from the holder&apos;s host), free it with force-expire or `liquibase release-locks`; Liquibase never frees it by itself.</source>
        <translation>Läuft keine Migration mehr (keine Sitzung vom Host des Halters), geben Sie sie mit „Ablauf erzwingen“ oder `liquibase release-locks` frei; Liquibase gibt sie nie von selbst frei.</translation>
    </message>
    <message>
        <source>unlocked as knex&apos;s own release does (is_locked = 0, what a finished run sets; `knex migrate:unlock` does the same by deleting and re-inserting the row)</source>
        <translation>entsperrt, wie es knex’ eigene Freigabe tut (is_locked = 0, was ein beendeter Lauf setzt; `knex migrate:unlock` erreicht dasselbe, indem es die Zeile löscht und neu einfügt)</translation>
    </message>
</context>
<context>
    <name>lw::Outage</name>
    <message>
        <source>The server has not answered for %1 (since %2).</source>
        <translation>Der Server antwortet seit %1 nicht (seit %2).</translation>
    </message>
    <message>
        <source> The refresh was cancelled after its %1 deadline</source>
        <translation> Die Aktualisierung wurde nach ihrer Frist von %1 abgebrochen</translation>
    </message>
    <message>
        <source> The refresh was cancelled at its deadline</source>
        <translation> Die Aktualisierung wurde bei ihrer Frist abgebrochen</translation>
    </message>
    <message>
        <source> The connection was lost (%1)</source>
        <translation> Die Verbindung ging verloren (%1)</translation>
    </message>
    <message>
        <source>; reconnecting now.</source>
        <translation>; verbinde jetzt neu.</translation>
    </message>
    <message>
        <source>; reconnecting in %1.</source>
        <translation>; neuer Verbindungsversuch in %1.</translation>
    </message>
    <message>
        <source> Last attempt: %1.</source>
        <translation> Letzter Versuch: %1.</translation>
    </message>
    <message>
        <source>The server refuses new connections: every max_connections slot is taken (SQLSTATE 53300), and the console, which reconnects, is one of the victims.</source>
        <translation>Der Server lehnt neue Verbindungen ab: Jeder Platz von max_connections ist belegt (SQLSTATE 53300), und die Konsole, die sich neu verbindet, ist eines der Opfer.</translation>
    </message>
    <message>
        <source>The server reports a full disk (SQLSTATE 53100, &quot;No space left on device&quot;).</source>
        <translation>Der Server meldet einen vollen Datenträger (SQLSTATE 53100, „No space left on device“).</translation>
    </message>
    <message>
        <source>The server is starting up, shutting down or recovering after a crash (SQLSTATE 57P03): it accepts no queries until that ends.</source>
        <translation>Der Server startet, fährt herunter oder erholt sich von einem Absturz (SQLSTATE 57P03): Bis das vorbei ist, nimmt er keine Anfragen an.</translation>
    </message>
    <message>
        <source>The server ended the console&apos;s session (an administrator&apos;s pg_terminate_backend, or a shutdown), and reconnecting has not succeeded.</source>
        <translation>Der Server hat die Sitzung der Konsole beendet (pg_terminate_backend eines Administrators oder ein Herunterfahren), und das Neuverbinden ist nicht gelungen.</translation>
    </message>
    <message>
        <source>Nothing accepts connections at the address: the server is down or restarting, or listens elsewhere.</source>
        <translation>Unter der Adresse nimmt nichts Verbindungen an: Der Server ist aus, startet neu oder lauscht anderswo.</translation>
    </message>
    <message>
        <source>Connections are accepted or pending but nothing answers: a hung host or server (a stopped or swapping process, storage that stalls, which includes a disk that has filled up), or a network partition that drops packets. The console cannot tell these apart from here.</source>
        <translation>Verbindungen werden angenommen oder hängen, aber nichts antwortet: ein hängender Host oder Server (ein angehaltener oder auslagernder Prozess, stockender Speicher, auch ein vollgelaufener Datenträger) oder eine Netztrennung, die Pakete verwirft. Die Konsole kann das von hier aus nicht unterscheiden.</translation>
    </message>
    <message>
        <source>The connection broke (a server crash or restart, or the network), and reconnecting has not succeeded.</source>
        <translation>Die Verbindung ist abgerissen (Absturz oder Neustart des Servers oder das Netz), und das Neuverbinden ist nicht gelungen.</translation>
    </message>
    <message>
        <source>Reconnecting fails: %1.</source>
        <translation>Neuverbinden scheitert: %1.</translation>
    </message>
    <message>
        <source> The last refresh saw %1 of %2 connections in use, so the server may also be refusing new ones.</source>
        <translation> Die letzte Aktualisierung sah %1 von %2 Verbindungen belegt, der Server lehnt also womöglich auch neue ab.</translation>
    </message>
    <message>
        <source>The console&apos;s role has reached its own CONNECTION LIMIT: end its idle sessions, or raise the limit (ALTER ROLE %1 CONNECTION LIMIT &lt;n&gt;;).</source>
        <translation>Die Rolle der Konsole hat ihr eigenes CONNECTION LIMIT erreicht: Beenden Sie ihre untätigen Sitzungen oder erhöhen Sie das Limit (ALTER ROLE %1 CONNECTION LIMIT &lt;n&gt;;).</translation>
    </message>
    <message>
        <source>The database has reached its own CONNECTION LIMIT: end idle sessions (pg_terminate_backend) or raise it (ALTER DATABASE … CONNECTION LIMIT &lt;n&gt;;).</source>
        <translation>Die Datenbank hat ihr eigenes CONNECTION LIMIT erreicht: Beenden Sie untätige Sitzungen (pg_terminate_backend) oder erhöhen Sie es (ALTER DATABASE … CONNECTION LIMIT &lt;n&gt;;).</translation>
    </message>
    <message>
        <source>End idle sessions (pg_terminate_backend) or lower the applications&apos; pool sizes.</source>
        <translation>Beenden Sie untätige Sitzungen (pg_terminate_backend) oder verkleinern Sie die Poolgrößen der Anwendungen.</translation>
    </message>
    <message>
        <source> PostgreSQL %1 keeps slots for superusers only (superuser_reserved_connections); from 16 on, GRANT pg_use_reserved_connections TO %2; with reserved_connections set lets the console in during such a storm.</source>
        <translation> PostgreSQL %1 hält Plätze nur für Superuser frei (superuser_reserved_connections); ab 16 lässt GRANT pg_use_reserved_connections TO %2; mit gesetztem reserved_connections die Konsole auch in so einem Ansturm herein.</translation>
    </message>
    <message>
        <source> So that the console still gets in next time (PostgreSQL 16+): GRANT pg_use_reserved_connections TO %1; and keep slots for it: ALTER SYSTEM SET reserved_connections = 3; (takes effect after a restart; max_connections must exceed it plus superuser_reserved_connections).</source>
        <translation> Damit die Konsole beim nächsten Mal noch hereinkommt (PostgreSQL 16+): GRANT pg_use_reserved_connections TO %1; und Plätze dafür freihalten: ALTER SYSTEM SET reserved_connections = 3; (wirkt nach einem Neustart; max_connections muss größer sein als dies plus superuser_reserved_connections).</translation>
    </message>
    <message>
        <source>The server has not answered for %1 (since %2)</source>
        <translation>Der Server antwortet seit %1 nicht (seit %2)</translation>
    </message>
    <message>
        <source> Every other finding is as of the last answer.</source>
        <translation> Alle anderen Befunde haben den Stand der letzten Antwort.</translation>
    </message>
    <message>
        <source>Free space on the server&apos;s data and WAL volumes; the server resumes on its own.</source>
        <translation>Schaffen Sie Platz auf den Daten- und WAL-Datenträgern des Servers; der Server macht von selbst weiter.</translation>
    </message>
    <message>
        <source>Check the host (is postgres running, stopped or swapping?), the network path, free disk space on the data and WAL volumes, and the connection count against max_connections.</source>
        <translation>Prüfen Sie den Host (läuft postgres, ist er angehalten oder lagert er aus?), den Netzweg, den freien Platz auf den Daten- und WAL-Datenträgern und die Zahl der Verbindungen gegenüber max_connections.</translation>
    </message>
</context>
<context>
    <name>lw::PoolModel</name>
    <message>
        <source>%1 of %2 connections are idle holding advisory locks (%3): its work cannot get a connection.</source>
        <translation>%1 von %2 Verbindungen sind untätig und halten Advisory-Sperren (%3): seine Arbeit bekommt keine Verbindung.</translation>
    </message>
    <message>
        <source>No connection now; kept for its history.</source>
        <translation>Derzeit keine Verbindung; für den Verlauf behalten.</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Conns</source>
        <translation>Verb.</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Untätig</translation>
    </message>
    <message>
        <source>Idle in tx</source>
        <translation>Untätig in Tx</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>Blockiert</translation>
    </message>
    <message>
        <source>Pool size</source>
        <translation>Poolgröße</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>Budget</translation>
    </message>
    <message>
        <source>Pinned: idle connections holding an advisory lock, unusable by the pool until the lock is released.</source>
        <translation>Blockiert: untätige Verbindungen, die eine Advisory-Sperre halten; für den Pool unbrauchbar, bis die Sperre freigegeben ist.</translation>
    </message>
    <message>
        <source>Share of max_connections − superuser_reserved_connections − reserved_connections used by this group.</source>
        <translation>Anteil von max_connections − superuser_reserved_connections − reserved_connections, den diese Gruppe belegt.</translation>
    </message>
    <message>
        <source>Pool size configured in the profile for this group or application.</source>
        <translation>Im Profil für diese Gruppe oder Anwendung eingestellte Poolgröße.</translation>
    </message>
    <message>
        <source>%1  — PINNED</source>
        <translation>%1  — BLOCKIERT</translation>
    </message>
</context>
<context>
    <name>lw::SessionActions</name>
    <message>
        <source>its client</source>
        <translation>ihr Client</translation>
    </message>
    <message>
        <source>no advisory lock</source>
        <translation>keine Advisory-Sperre</translation>
    </message>
    <message>
        <source>advisory locks %1</source>
        <translation>die Advisory-Sperren %1</translation>
    </message>
    <message>
        <source>Cancel the running statement of pid %1: %2 gets &quot;canceling statement due to user request&quot; (SQLSTATE 57014) and its transaction aborts, releasing the transaction-level locks. Session-level locks stay held (it holds %3); an idle session has nothing to cancel. Leases are rows: none is released.</source>
        <translation>Die laufende Anweisung von PID %1 abbrechen: %2 bekommt „canceling statement due to user request“ (SQLSTATE 57014), und ihre Transaktion bricht ab, was die Sperren auf Transaktionsebene freigibt. Sperren auf Sitzungsebene bleiben gehalten (sie hält %3); eine untätige Sitzung hat nichts abzubrechen. Leases sind Zeilen: Keine wird freigegeben.</translation>
    </message>
    <message>
        <source>Terminate pid %1: its connection closes, %2 sees &quot;terminating connection due to administrator command&quot; (SQLSTATE 57P01) and must reconnect; its open transaction rolls back and every lock it holds is released (%3). Leases are rows: none is released, they expire on their own or by force-expire.</source>
        <translation>PID %1 beenden: Ihre Verbindung schließt sich, %2 sieht „terminating connection due to administrator command“ (SQLSTATE 57P01) und muss sich neu verbinden; ihre offene Transaktion wird zurückgerollt, und jede Sperre, die sie hält, wird freigegeben (%3). Leases sind Zeilen: Keine wird freigegeben, sie laufen von selbst oder per „Ablauf erzwingen“ ab.</translation>
    </message>
    <message>
        <source>not sent: operator mode is off for this profile</source>
        <translation>nicht gesendet: Der Operator-Modus ist für dieses Profil aus</translation>
    </message>
    <message>
        <source>not sent: %1</source>
        <translation>nicht gesendet: %1</translation>
    </message>
    <message>
        <source>refused by the server: %1 — the console&apos;s role needs the privileges of the backend&apos;s role, or membership in pg_signal_backend (superusers&apos; backends need a superuser)</source>
        <translation>vom Server abgelehnt: %1 — die Rolle der Konsole braucht die Rechte der Rolle des Backends oder die Mitgliedschaft in pg_signal_backend (Backends von Superusern brauchen einen Superuser)</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>nothing done: pid %1 is no longer a backend of this server</source>
        <translation>nichts getan: PID %1 ist kein Backend dieses Servers mehr</translation>
    </message>
    <message>
        <source>cancel request sent to pid %1</source>
        <translation>Abbruchanforderung an PID %1 gesendet</translation>
    </message>
    <message>
        <source>pid %1 terminated; its locks are released</source>
        <translation>PID %1 beendet; ihre Sperren sind freigegeben</translation>
    </message>
</context>
<context>
    <name>lw::Tables</name>
    <message>
        <source>(no holder)</source>
        <translation>(kein Halter)</translation>
    </message>
    <message>
        <source> (unverified)</source>
        <translation> (ungeprüft)</translation>
    </message>
    <message>
        <source>%1 from %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>%1 %2 ago</source>
        <translation>%1 vor %2</translation>
    </message>
    <message>
        <source>free since %1</source>
        <translation>frei seit %1</translation>
    </message>
    <message>
        <source>
last renewal seen: %1 ago</source>
        <translation>
letzte Erneuerung gesehen: vor %1</translation>
    </message>
    <message>
        <source>
TTL (%1): %2</source>
        <translation>
TTL (%1): %2</translation>
    </message>
    <message>
        <source>from the take</source>
        <translation>aus der Übernahme</translation>
    </message>
    <message>
        <source>inferred</source>
        <translation>abgeleitet</translation>
    </message>
    <message>
        <source>
row gone from the table, seen at %1</source>
        <translation>
Zeile aus der Tabelle verschwunden, gesehen um %1</translation>
    </message>
    <message>
        <source>; its expiry was %1</source>
        <translation>; ihr Ablauf war %1</translation>
    </message>
    <message>
        <source>
the writer&apos;s clock runs at least %1 ahead of the server&apos;s</source>
        <translation>
die Uhr des Schreibers geht mindestens %1 vor der des Servers</translation>
    </message>
    <message>
        <source>
the writer&apos;s clock runs at least %1 behind the server&apos;s: its leases look expired that much early</source>
        <translation>
die Uhr des Schreibers geht mindestens %1 hinter der des Servers: Seine Leases wirken um so viel zu früh abgelaufen</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Lease</translation>
    </message>
    <message>
        <source>Holder host</source>
        <translation>Halter-Host</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Taken at</source>
        <translation>Genommen um</translation>
    </message>
    <message>
        <source>Held for</source>
        <translation>Gehalten seit</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Ablauf</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>Schema</translation>
    </message>
    <message>
        <source>1 renewal</source>
        <translation>1 Erneuerung</translation>
    </message>
    <message>
        <source>%1 renewals over %2</source>
        <translation>%1 Erneuerungen über %2</translation>
    </message>
    <message>
        <source>last at %1</source>
        <translation>zuletzt um %1</translation>
    </message>
    <message>
        <source>expires %1</source>
        <translation>Ablauf %1</translation>
    </message>
    <message>
        <source>audit record #%1</source>
        <translation>Audit-Eintrag #%1</translation>
    </message>
    <message>
        <source>When (server time)</source>
        <translation>Wann (Serverzeit)</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>Halter</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>held</source>
        <translation>gehalten</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartend</translation>
    </message>
    <message>
        <source>(session not visible)</source>
        <translation>(Sitzung nicht sichtbar)</translation>
    </message>
    <message>
        <source>(hidden)</source>
        <translation>(verborgen)</translation>
    </message>
    <message>
        <source>local</source>
        <translation>lokal</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>key collision: %1 all hash to this key</source>
        <translation>Schlüsselkollision: %1 ergeben alle diesen Schlüssel</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>Sperre</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Held / waited</source>
        <translation>Gehalten / gewartet</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>Befund</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>Anwendung</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Transaction</source>
        <translation>Transaktion</translation>
    </message>
    <message>
        <source>Wait event</source>
        <translation>Warteereignis</translation>
    </message>
    <message>
        <source>Last query</source>
        <translation>Letzte Anfrage</translation>
    </message>
    <message>
        <source>Waiting for</source>
        <translation>Wartet auf</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>Anfrage</translation>
    </message>
    <message>
        <source>terminate this one: frees the cycle</source>
        <translation>diese beenden: löst den Zyklus</translation>
    </message>
    <message>
        <source>cancel this one: frees the cycle</source>
        <translation>diese abbrechen: löst den Zyklus</translation>
    </message>
    <message>
        <source>root blocker: cancel %1 instead</source>
        <translation>auslösender Blockierer: stattdessen %1 abbrechen</translation>
    </message>
    <message>
        <source>in a hidden cycle</source>
        <translation>in einem verborgenen Zyklus</translation>
    </message>
    <message>
        <source>deadlock cycle</source>
        <translation>Deadlock-Zyklus</translation>
    </message>
    <message>
        <source>root blocker</source>
        <translation>auslösender Blockierer</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>von %1</translation>
    </message>
    <message>
        <source>No lease table found: looked in every schema for %1. Advisory locks, sessions and pools are shown as usual; name a table with --table/--preset or in the profile.</source>
        <translation>Keine Lease-Tabelle gefunden: In jedem Schema gesucht nach %1. Advisory-Sperren, Sitzungen und Pools werden wie gewohnt gezeigt; nennen Sie eine Tabelle mit --table/--preset oder im Profil.</translation>
    </message>
    <message>
        <source> (role %1)</source>
        <translation> (Rolle %1)</translation>
    </message>
    <message>
        <source>replaced %1 before its lease expired</source>
        <translation>hat %1 ersetzt, bevor dessen Lease ablief</translation>
    </message>
    <message>
        <source>%1 renewals</source>
        <translation>%1 Erneuerungen</translation>
    </message>
    <message>
        <source>taken at / expiry changed by the same holder</source>
        <translation>Nahmezeit / Ablauf vom selben Halter geändert</translation>
    </message>
    <message>
        <source> (from the audit log; local clock)</source>
        <translation> (aus dem Audit-Protokoll; lokale Uhr)</translation>
    </message>
</context>
<context>
    <name>lw::Terminal</name>
    <message>
        <source>via recorder (pid %1), refresh %2 s old
</source>
        <translation>über Rekorder (PID %1), Aktualisierung %2 s alt
</translation>
    </message>
    <message>
        <source>=== refresh %1 at %2 ===</source>
        <translation>=== Aktualisierung %1 um %2 ===</translation>
    </message>
    <message>
        <source>leasewatch: reading the live refreshes of `leasewatch record` at %1, not connecting to the database</source>
        <translation>leasewatch: liest die laufenden Aktualisierungen von `leasewatch record` unter %1 und verbindet sich nicht mit der Datenbank</translation>
    </message>
    <message>
        <source>leasewatch: reading the live refreshes of `leasewatch record` at %1, not connecting to the database (--direct connects)</source>
        <translation>leasewatch: liest die laufenden Aktualisierungen von `leasewatch record` unter %1 und verbindet sich nicht mit der Datenbank (--direct verbindet sich)</translation>
    </message>
    <message>
        <source>leasewatch: %1 NOT ANSWERING: %2 %3</source>
        <translation>leasewatch: %1 ANTWORTET NICHT: %2 %3</translation>
    </message>
    <message>
        <source>profile &quot;%1&quot;</source>
        <translation>Profil „%1“</translation>
    </message>
    <message>
        <source>leasewatch: refused: operator mode is off for %1; nothing was sent (enable operator mode in the profile, or pass --operator with a DSN)</source>
        <translation>leasewatch: abgelehnt: Der Operator-Modus ist für %1 aus; nichts wurde gesendet (schalten Sie den Operator-Modus im Profil ein, oder geben Sie --operator mit einer DSN an)</translation>
    </message>
    <message>
        <source>leasewatch: no lease named &quot;%1&quot; in any lease table; nothing was sent</source>
        <translation>leasewatch: keine Lease namens „%1“ in irgendeiner Lease-Tabelle; nichts wurde gesendet</translation>
    </message>
    <message>
        <source>leasewatch: no lease named &quot;%1&quot; in %2; nothing was sent</source>
        <translation>leasewatch: keine Lease namens „%1“ in %2; nichts wurde gesendet</translation>
    </message>
    <message>
        <source>leasewatch: several leases are named &quot;%1&quot; (in %2); name the table with --table; nothing was sent</source>
        <translation>leasewatch: mehrere Leases heißen „%1“ (in %2); nennen Sie die Tabelle mit --table; nichts wurde gesendet</translation>
    </message>
    <message>
        <source>leasewatch: force-expire is not offered for %1 (%2): %3 Nothing was sent.</source>
        <translation>leasewatch: „Ablauf erzwingen“ wird für %1 (%2) nicht angeboten: %3 Nichts wurde gesendet.</translation>
    </message>
    <message>
        <source>leasewatch: lease &quot;%1&quot; is held by &quot;%2&quot;, not &quot;%3&quot;; nothing was sent</source>
        <translation>leasewatch: Lease „%1“ wird von „%2“ gehalten, nicht von „%3“; nichts wurde gesendet</translation>
    </message>
    <message>
        <source>leasewatch: lease &quot;%1&quot; is held by nobody (NULL), not &quot;%2&quot;; nothing was sent</source>
        <translation>leasewatch: Lease „%1“ wird von niemandem (NULL) gehalten, nicht von „%2“; nichts wurde gesendet</translation>
    </message>
    <message>
        <source>holder %1: %2</source>
        <translation>Halter %1: %2</translation>
    </message>
    <message>
        <source>leasewatch: refused: the holder may be alive, and expiring its lease would let a second instance run the same work; nothing was sent. Check the evidence above and rerun with --even-if-alive to expire it anyway (it still only expires the lease if &quot;%1&quot; holds it).</source>
        <translation>leasewatch: abgelehnt: Der Halter lebt vielleicht, und seine Lease ablaufen zu lassen, ließe eine zweite Instanz dieselbe Arbeit tun; nichts wurde gesendet. Prüfen Sie die Hinweise oben und starten Sie erneut mit --even-if-alive, um sie trotzdem ablaufen zu lassen (sie läuft dann nur ab, wenn „%1“ sie hält).</translation>
    </message>
    <message>
        <source>leasewatch: WARNING: the local audit log %1 could not record this: %2</source>
        <translation>leasewatch: WARNUNG: Das lokale Audit-Protokoll %1 konnte dies nicht festhalten: %2</translation>
    </message>
    <message>
        <source>leasewatch: nothing is recorded for %1 (no history store at %2); `leasewatch record %3` or a window on it records one</source>
        <translation>leasewatch: für %1 ist nichts aufgezeichnet (kein Verlaufsspeicher unter %2); `leasewatch record %3` oder ein Fenster darauf zeichnet einen auf</translation>
    </message>
    <message>
        <source>leasewatch: the history store %1 cannot be read: %2</source>
        <translation>leasewatch: Der Verlaufsspeicher %1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>leasewatch: the history store of %1 holds no refresh yet</source>
        <translation>leasewatch: Der Verlaufsspeicher von %1 enthält noch keine Aktualisierung</translation>
    </message>
    <message>
        <source>leasewatch: the bundle was not written: %1</source>
        <translation>leasewatch: Das Bündel wurde nicht geschrieben: %1</translation>
    </message>
    <message>
        <source>wrote %1: %2 from %3 to %4 (server time); open it with leasewatch --open-bundle %1</source>
        <translation>%1 geschrieben: %2 von %3 bis %4 (Serverzeit); öffnen Sie es mit leasewatch --open-bundle %1</translation>
    </message>
    <message>
        <source>error: %1
</source>
        <translation>Fehler: %1
</translation>
    </message>
    <message>
        <source>server %1 · database %2 · user %3 · server time %4
</source>
        <translation>Server %1 · Datenbank %2 · Benutzer %3 · Serverzeit %4
</translation>
    </message>
    <message>
        <source>
ALL CLEAR: no finding
</source>
        <translation>
ALLES IN ORDNUNG: kein Befund
</translation>
    </message>
    <message>
        <source>
1 PROBLEM
</source>
        <translation>
1 PROBLEM
</translation>
    </message>
    <message>
        <source>
%1 PROBLEMS
</source>
        <translation>
%1 PROBLEME
</translation>
    </message>
    <message>
        <source>CRIT</source>
        <translation>KRIT</translation>
    </message>
    <message>
        <source>WARN</source>
        <translation>WARN</translation>
    </message>
    <message>
        <source>NOTE</source>
        <translation>HINWEIS</translation>
    </message>
    <message>
        <source>  [%1] %2
         %3 Fix: %4
</source>
        <translation>  [%1] %2
         %3 Abhilfe: %4
</translation>
    </message>
    <message>
        <source>
CLUSTER connections %1/%2 · lock table %3/~%4 (%5 advisory) · deadlocks total %6
</source>
        <translation>
CLUSTER Verbindungen %1/%2 · Sperrtabelle %3/~%4 (%5 Advisory) · Deadlocks insgesamt %6
</translation>
    </message>
    <message>
        <source>
ADVISORY LOCKS (%1)
</source>
        <translation>
ADVISORY-SPERREN (%1)
</translation>
    </message>
    <message>
        <source>  not read, these are %1 s old: %2
</source>
        <translation>  nicht gelesen, diese sind %1 s alt: %2
</translation>
    </message>
    <message>
        <source>  %1  pid %2  %3  %4%5%6
</source>
        <translation>  %1  PID %2  %3  %4%5%6
</translation>
    </message>
    <message>
        <source>held</source>
        <translation>gehalten</translation>
    </message>
    <message>
        <source>WAITING</source>
        <translation>WARTET</translation>
    </message>
    <message>
        <source> [db %1]</source>
        <translation> [DB %1]</translation>
    </message>
    <message>
        <source>
POOLS (active/idle/idle-in-tx/waiting/pinned of total)
</source>
        <translation>
POOLS (aktiv/untätig/untätig in Tx/wartend/blockiert von gesamt)
</translation>
    </message>
    <message>
        <source>  %1: %2/%3/%4/%5/%6 of %7%8%9
</source>
        <translation>  %1: %2/%3/%4/%5/%6 von %7%8%9
</translation>
    </message>
    <message>
        <source> (pool %1)</source>
        <translation> (Pool %1)</translation>
    </message>
    <message>
        <source>  PINNED</source>
        <translation>  BLOCKIERT</translation>
    </message>
    <message>
        <source>
LEASES</source>
        <translation>
LEASES</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source> in %1</source>
        <translation> in %1</translation>
    </message>
    <message>
        <source>  not read: %1
</source>
        <translation>  nicht gelesen: %1
</translation>
    </message>
    <message>
        <source>%1 reserved connection(s): %2 may use them, so the console gets in when the application has used every other slot</source>
        <translation>%1 reservierte Verbindung(en): %2 darf sie nutzen, die Konsole kommt also hinein, wenn die Anwendung jeden anderen Platz belegt hat</translation>
    </message>
    <message>
        <source>%1 reserved connection(s), which %2 may not use (GRANT pg_use_reserved_connections TO %3;)</source>
        <translation>%1 reservierte Verbindung(en), die %2 nicht nutzen darf (GRANT pg_use_reserved_connections TO %3;)</translation>
    </message>
    <message>
        <source>leasewatch: stopped and removed %1 demo cluster(s) left by a console that did not quit</source>
        <translation>leasewatch: %1 Demo-Cluster angehalten und entfernt, die eine nicht beendete Konsole hinterlassen hat</translation>
    </message>
    <message>
        <source>cannot start the demo cluster: %1</source>
        <translation>der Demo-Cluster lässt sich nicht starten: %1</translation>
    </message>
    <message>
        <source>cannot connect to the demo cluster: %1</source>
        <translation>keine Verbindung zum Demo-Cluster: %1</translation>
    </message>
    <message>
        <source>cannot create the demo database: %1</source>
        <translation>die Demo-Datenbank lässt sich nicht anlegen: %1</translation>
    </message>
    <message>
        <source>cannot start the simulated workload: %1</source>
        <translation>die simulierte Last lässt sich nicht starten: %1</translation>
    </message>
    <message>
        <source>[%1] connected: PostgreSQL %2, database %3 as %4</source>
        <translation>[%1] verbunden: PostgreSQL %2, Datenbank %3 als %4</translation>
    </message>
    <message>
        <source>[%1] answering again: %2</source>
        <translation>[%1] antwortet wieder: %2</translation>
    </message>
    <message>
        <source>had not answered since %1</source>
        <translation>hatte seit %1 nicht geantwortet</translation>
    </message>
    <message>
        <source>[%1] not answering: %2</source>
        <translation>[%1] antwortet nicht: %2</translation>
    </message>
    <message>
        <source>[%1] CRITICAL %2. %3</source>
        <translation>[%1] KRITISCH %2. %3</translation>
    </message>
    <message>
        <source>[%1] cannot connect: %2</source>
        <translation>[%1] keine Verbindung: %2</translation>
    </message>
    <message>
        <source>[%1] finding %2: %3</source>
        <translation>[%1] Befund %2: %3</translation>
    </message>
    <message>
        <source>[%1] cleared: %2</source>
        <translation>[%1] aufgehoben: %2</translation>
    </message>
    <message>
        <source>[%1] not recorded: %2</source>
        <translation>[%1] nicht aufgezeichnet: %2</translation>
    </message>
    <message>
        <source>[%1] recording into %2</source>
        <translation>[%1] zeichnet auf in %2</translation>
    </message>
    <message>
        <source>[%1] live feed for windows and watch at %2</source>
        <translation>[%1] laufende Übertragung für Fenster und watch unter %2</translation>
    </message>
    <message>
        <source>[%1] no live feed here: %2</source>
        <translation>[%1] keine laufende Übertragung hier: %2</translation>
    </message>
    <message>
        <source>[%1] recording resumed</source>
        <translation>[%1] Aufzeichnung fortgesetzt</translation>
    </message>
    <message>
        <source>[%1] recording paused: %2; monitoring goes on, and recording resumes by itself when the store can be written</source>
        <translation>[%1] Aufzeichnung pausiert: %2; die Überwachung läuft weiter, und die Aufzeichnung setzt von selbst fort, sobald sich der Speicher schreiben lässt</translation>
    </message>
    <message>
        <source>metrics at %1</source>
        <translation>Metriken unter %1</translation>
    </message>
    <message>
        <source>live feed over TCP at %1:%2 for %3; viewers present the token file %4 (copy it to them)</source>
        <translation>laufende Übertragung über TCP unter %1:%2 für %3; Betrachter legen die Token-Datei %4 vor (kopieren Sie sie zu ihnen)</translation>
    </message>
    <message>
        <source>stopping: finishing the current writes</source>
        <translation>beende: schließe die laufenden Schreibvorgänge ab</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>beendet</translation>
    </message>
</context>
<context>
    <name>lw::Words</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 T. %2 h</translation>
    </message>
    <message>
        <source>%1 years</source>
        <translation>%1 Jahre</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>expired %1 ago</source>
        <translation>abgelaufen vor %1</translation>
    </message>
    <message>
        <source>CRITICAL</source>
        <translation>KRITISCH</translation>
    </message>
    <message>
        <source>WARNING</source>
        <translation>WARNUNG</translation>
    </message>
    <message>
        <source>NOTE</source>
        <translation>HINWEIS</translation>
    </message>
</context>
<context>
    <name>lw::app::Consoles</name>
    <message>
        <source>PgBouncer</source>
        <translation>PgBouncer</translation>
    </message>
    <message>
        <source>This window shows the live refreshes of the recorder at %1, without a connection to the database; the recorder keeps the history.</source>
        <translation>Dieses Fenster zeigt die Live-Aktualisierungen des Recorders unter %1, ohne eigene Verbindung zur Datenbank; der Recorder führt den Verlauf.</translation>
    </message>
    <message>
        <source>History recording resumed at %1.</source>
        <translation>Verlaufsaufzeichnung um %1 fortgesetzt.</translation>
    </message>
    <message>
        <source>History recording paused since %1: %2. Monitoring goes on; recording resumes by itself when the store can be written again.</source>
        <translation>Verlaufsaufzeichnung pausiert seit %1: %2. Die Überwachung läuft weiter; die Aufzeichnung setzt von selbst wieder ein, sobald der Speicher wieder beschreibbar ist.</translation>
    </message>
    <message>
        <source>History of this profile is recorded by its other window; this one shows what it records.</source>
        <translation>Den Verlauf dieses Profils zeichnet sein anderes Fenster auf; dieses zeigt, was es aufzeichnet.</translation>
    </message>
    <message>
        <source>A running `leasewatch record` (pid %1) watches this database: this window shows its live refreshes and what it records, without a connection of its own (--direct connects).</source>
        <translation>Ein laufendes `leasewatch record` (PID %1) überwacht diese Datenbank: Dieses Fenster zeigt seine Live-Aktualisierungen und seine Aufzeichnung, ohne eigene Verbindung (--direct verbindet sich selbst).</translation>
    </message>
    <message>
        <source>History is recorded by a running `leasewatch record` (pid %1); this window shows what it records.</source>
        <translation>Der Verlauf wird von einem laufenden `leasewatch record` (PID %1) aufgezeichnet; dieses Fenster zeigt, was es aufzeichnet.</translation>
    </message>
    <message>
        <source>History is not recorded: %1</source>
        <translation>Der Verlauf wird nicht aufgezeichnet: %1</translation>
    </message>
    <message>
        <source>Recorded history</source>
        <translation>Aufgezeichneter Verlauf</translation>
    </message>
    <message>
        <source>Lease history</source>
        <translation>Lease-Verlauf</translation>
    </message>
    <message>
        <source>%1 holds no recorded refresh</source>
        <translation>%1 enthält keine aufgezeichnete Aktualisierung</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 lässt sich nicht öffnen: %2</translation>
    </message>
    <message>
        <source>%1 (recorded)</source>
        <translation>%1 (aufgezeichnet)</translation>
    </message>
    <message>
        <source>this console records no history</source>
        <translation>diese Konsole zeichnet keinen Verlauf auf</translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation>Letzte 15 Minuten</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Everything recorded</source>
        <translation>Alles Aufgezeichnete</translation>
    </message>
    <message>
        <source>Export incident bundle</source>
        <translation>Incident-Bundle exportieren</translation>
    </message>
    <message>
        <source>Time range:</source>
        <translation>Zeitraum:</translation>
    </message>
    <message>
        <source>Leasewatch bundles (*.lwbundle);;All files (*)</source>
        <translation>Leasewatch-Bundles (*.lwbundle);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
    <message>
        <source>The bundle was not written: %1</source>
        <translation>Das Bundle wurde nicht geschrieben: %1</translation>
    </message>
    <message>
        <source>Open incident bundle</source>
        <translation>Incident-Bundle öffnen</translation>
    </message>
    <message>
        <source>Leasewatch bundles (*.lwbundle *.sqlite);;All files (*)</source>
        <translation>Leasewatch-Bundles (*.lwbundle *.sqlite);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>lw::bouncer::PgBouncerPoolModel</name>
    <message>
        <source>A server connection of this transaction-pooled pool holds a session-level advisory lock: it leaks to the next client of that slot (an application bug).</source>
        <translation>Eine Serververbindung dieses Pools im Transaktionsmodus hält eine Advisory-Sperre auf Sitzungsebene: Sie geht an den nächsten Client dieses Platzes über (ein Fehler der Anwendung).</translation>
    </message>
    <message numerus="yes">
        <source>%n client(s) wait for a server connection: the pool is full.</source>
        <translation>
            <numerusform>%n Client wartet auf eine Serververbindung: Der Pool ist voll.</numerusform>
            <numerusform>%n Clients warten auf eine Serververbindung: Der Pool ist voll.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — session lock on a transaction-pooled slot</source>
        <translation>%1 — Sitzungssperre auf einem Platz im Transaktionsmodus</translation>
    </message>
    <message>
        <source>cl_active: clients linked to a server connection</source>
        <translation>cl_active: Clients, die mit einer Serververbindung verknüpft sind</translation>
    </message>
    <message>
        <source>cl_waiting: clients that sent a query and wait for a server connection</source>
        <translation>cl_waiting: Clients, die eine Anfrage gesendet haben und auf eine Serververbindung warten</translation>
    </message>
    <message>
        <source>sv_active: server connections linked to a client</source>
        <translation>sv_active: Serververbindungen, die mit einem Client verknüpft sind</translation>
    </message>
    <message>
        <source>sv_idle: server connections idle and ready</source>
        <translation>sv_idle: untätige, bereite Serververbindungen</translation>
    </message>
    <message>
        <source>sv_used: server connections idle past server_check_delay (checked before reuse)</source>
        <translation>sv_used: Serververbindungen, länger als server_check_delay untätig (vor erneuter Nutzung geprüft)</translation>
    </message>
    <message>
        <source>pool_size from SHOW DATABASES: server connections per database/user pair</source>
        <translation>pool_size aus SHOW DATABASES: Serververbindungen je Paar aus Datenbank und Benutzer</translation>
    </message>
    <message>
        <source>maxwait: how long the oldest waiting client has waited</source>
        <translation>maxwait: wie lange der älteste wartende Client schon wartet</translation>
    </message>
    <message>
        <source>Server connections (by remote_pid) holding advisory locks on the monitored cluster</source>
        <translation>Serververbindungen (nach remote_pid), die Advisory-Sperren auf dem überwachten Cluster halten</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Pool mode</source>
        <translation>Pool-Modus</translation>
    </message>
    <message>
        <source>cl_active</source>
        <translation>cl_active</translation>
    </message>
    <message>
        <source>cl_waiting</source>
        <translation>cl_waiting</translation>
    </message>
    <message>
        <source>sv_active</source>
        <translation>sv_active</translation>
    </message>
    <message>
        <source>sv_idle</source>
        <translation>sv_idle</translation>
    </message>
    <message>
        <source>sv_used</source>
        <translation>sv_used</translation>
    </message>
    <message>
        <source>pool_size</source>
        <translation>pool_size</translation>
    </message>
    <message>
        <source>maxwait</source>
        <translation>maxwait</translation>
    </message>
    <message>
        <source>Slots holding locks</source>
        <translation>Plätze mit Sperren</translation>
    </message>
</context>
<context>
    <name>lw::feed::FeedClient</name>
    <message>
        <source>the recorder&apos;s feed (%1)</source>
        <translation>der Feed des Recorders (%1)</translation>
    </message>
    <message>
        <source>it sent nothing for %1 s (the recorder is alive but does not answer)</source>
        <translation>er hat %1 s lang nichts gesendet (der Recorder läuft, antwortet aber nicht)</translation>
    </message>
    <message>
        <source>its token file %1 cannot be read (%2): copy the recorder&apos;s feed.token there, or name it with --token FILE</source>
        <translation>seine Token-Datei %1 ist nicht lesbar (%2): Kopieren Sie die feed.token des Recorders dorthin oder nennen Sie sie mit --token DATEI</translation>
    </message>
    <message>
        <source>the recorder closed it (it stopped, or was killed)</source>
        <translation>der Recorder hat ihn geschlossen (er wurde beendet oder abgebrochen)</translation>
    </message>
    <message>
        <source>no recorder answers there (connection refused)</source>
        <translation>dort antwortet kein Recorder (Verbindung abgelehnt)</translation>
    </message>
    <message>
        <source>no recorder answers there (it is not running)</source>
        <translation>dort antwortet kein Recorder (er läuft nicht)</translation>
    </message>
    <message>
        <source>it sent what is not a leasewatch feed</source>
        <translation>er hat etwas gesendet, das kein Leasewatch-Feed ist</translation>
    </message>
    <message>
        <source>it did not greet as a leasewatch recorder</source>
        <translation>er hat sich nicht als Leasewatch-Recorder gemeldet</translation>
    </message>
    <message>
        <source>the recorder (leasewatch %1) speaks feed protocol %2, this viewer (leasewatch %3) protocol %4: use the same leasewatch version for both</source>
        <translation>der Recorder (Leasewatch %1) spricht Feed-Protokoll %2, dieser Betrachter (Leasewatch %3) Protokoll %4: Verwenden Sie für beide dieselbe Leasewatch-Version</translation>
    </message>
    <message>
        <source>a refresh it sent did not decode</source>
        <translation>eine gesendete Aktualisierung ließ sich nicht dekodieren</translation>
    </message>
    <message>
        <source>the recorder said: %1</source>
        <translation>der Recorder meldete: %1</translation>
    </message>
    <message>
        <source>the live feed of `leasewatch record` cannot be read: %1</source>
        <translation>der Live-Feed von `leasewatch record` ist nicht lesbar: %1</translation>
    </message>
    <message>
        <source>the live feed of `leasewatch record` stopped: %1</source>
        <translation>der Live-Feed von `leasewatch record` ist abgebrochen: %1</translation>
    </message>
    <message>
        <source>This console reads `leasewatch record`&apos;s refreshes instead of connecting to the database, and reads them again by itself when the recorder is back. To watch the database directly, open it with --direct.</source>
        <translation>Diese Konsole liest die Aktualisierungen von `leasewatch record`, statt sich mit der Datenbank zu verbinden, und liest sie von selbst wieder, sobald der Recorder zurück ist. Um die Datenbank direkt zu überwachen, öffnen Sie sie mit --direct.</translation>
    </message>
</context>
<context>
    <name>lw::feed::FeedServer</name>
    <message>
        <source>the recorder stopped</source>
        <translation>der Recorder wurde beendet</translation>
    </message>
    <message>
        <source>the live feed cannot listen at %1: %2</source>
        <translation>der Live-Feed kann nicht auf %1 lauschen: %2</translation>
    </message>
    <message>
        <source>no hello within 5 s</source>
        <translation>keine Begrüßung innerhalb von 5 s</translation>
    </message>
    <message>
        <source>not a leasewatch viewer</source>
        <translation>kein Leasewatch-Betrachter</translation>
    </message>
    <message>
        <source>this recorder (leasewatch %1) speaks feed protocol %2, the viewer (leasewatch %3) protocol %4: use the same leasewatch version for both</source>
        <translation>dieser Recorder (Leasewatch %1) spricht Feed-Protokoll %2, der Betrachter (Leasewatch %3) Protokoll %4: Verwenden Sie für beide dieselbe Leasewatch-Version</translation>
    </message>
    <message>
        <source>it read too slowly: %1 MB of refreshes were waiting for it</source>
        <translation>er hat zu langsam gelesen: %1 MB an Aktualisierungen warteten auf ihn</translation>
    </message>
    <message>
        <source>the feed&apos;s token file %1 cannot be written: %2; --serve needs it (free the disk, or fix the directory&apos;s permissions)</source>
        <translation>die Token-Datei des Feeds %1 lässt sich nicht schreiben: %2; --serve braucht sie (schaffen Sie Platz auf dem Datenträger oder korrigieren Sie die Rechte des Verzeichnisses)</translation>
    </message>
    <message>
        <source>the feed&apos;s token file %1 cannot be read: %2</source>
        <translation>die Token-Datei des Feeds %1 ist nicht lesbar: %2</translation>
    </message>
    <message>
        <source>the feed&apos;s token file %1 holds %2 bytes, too few to be a token: delete it and the recorder writes a new one (then give it to the viewers again)</source>
        <translation>die Token-Datei des Feeds %1 enthält %2 Bytes, zu wenig für ein Token: Löschen Sie sie, dann schreibt der Recorder eine neue (geben Sie diese danach erneut an die Betrachter)</translation>
    </message>
    <message>
        <source>the feed&apos;s token file %1 could be read by others: made owner-only (0600); give viewers a new one if others may have copied it (delete it and restart the recorder)</source>
        <translation>die Token-Datei des Feeds %1 war für andere lesbar: jetzt nur für den Eigentümer (0600); geben Sie den Betrachtern ein neues Token, falls andere sie kopiert haben könnten (löschen Sie sie und starten Sie den Recorder neu)</translation>
    </message>
</context>
<context>
    <name>lw::feed::TcpFeedFront</name>
    <message>
        <source>no hello within 5 s</source>
        <translation>keine Begrüßung innerhalb von 5 s</translation>
    </message>
    <message>
        <source>the live feed cannot listen at %1:%2: %3</source>
        <translation>der Live-Feed kann nicht auf %1:%2 lauschen: %3</translation>
    </message>
    <message>
        <source>not a leasewatch viewer</source>
        <translation>kein Leasewatch-Betrachter</translation>
    </message>
    <message>
        <source>no token: this recorder&apos;s feed needs the token file it wrote (copy it to the viewer; leasewatch --token FILE)</source>
        <translation>kein Token: Der Feed dieses Recorders braucht die Token-Datei, die er geschrieben hat (kopieren Sie sie zum Betrachter; leasewatch --token DATEI)</translation>
    </message>
    <message>
        <source>wrong token: the viewer&apos;s token file is not this recorder&apos;s</source>
        <translation>falsches Token: Die Token-Datei des Betrachters gehört nicht zu diesem Recorder</translation>
    </message>
    <message>
        <source>this recorder records %1: name one (feed://HOST:PORT/NAME)</source>
        <translation>dieser Recorder zeichnet %1 auf: Nennen Sie eine (feed://HOST:PORT/NAME)</translation>
    </message>
    <message>
        <source>this recorder does not record %1; it records %2</source>
        <translation>dieser Recorder zeichnet %1 nicht auf; er zeichnet %2 auf</translation>
    </message>
</context>
<context>
    <name>lw::ui::AuditView</name>
    <message>
        <source>Audit log — operator actions</source>
        <translation>Audit-Protokoll — Eingriffe von Operatoren</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>DB role</source>
        <translation>DB-Rolle</translation>
    </message>
    <message>
        <source>OS user@host</source>
        <translation>OS-Benutzer@Host</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>The audit log is not available: %1</source>
        <translation>Das Audit-Protokoll ist nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>none configured</source>
        <translation>keines eingerichtet</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s), newest first, in %1</source>
        <translation>
            <numerusform>%n Eintrag, neueste zuerst, in %1</numerusform>
            <numerusform>%n Einträge, neueste zuerst, in %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lw::ui::ChartPanel</name>
    <message>
        <source>total: %1 %2</source>
        <translation>gesamt: %1 %2</translation>
    </message>
</context>
<context>
    <name>lw::ui::FleetView</name>
    <message>
        <source>Leasewatch — databases</source>
        <translation>Leasewatch — Datenbanken</translation>
    </message>
    <message>
        <source>%1 database(s): %2 not answering, %3 with a critical finding, %4 with a warning, %5 fine, %6 not watched (no window, no recorder). Worst first; Enter or a double-click opens one.</source>
        <translation>%1 Datenbank(en): %2 antworten nicht, %3 mit kritischem Befund, %4 mit Warnung, %5 in Ordnung, %6 nicht überwacht (kein Fenster, kein Recorder). Schlimmste zuerst; Eingabetaste oder Doppelklick öffnet eine.</translation>
    </message>
</context>
<context>
    <name>lw::ui::ForceExpireDialog</name>
    <message numerus="yes">
        <source>Force-expire %n lease(s)</source>
        <translation>
            <numerusform>Ablauf von %n Lease erzwingen</numerusform>
            <numerusform>Ablauf von %n Leases erzwingen</numerusform>
        </translation>
    </message>
    <message>
        <source>(no holder)</source>
        <translation>(kein Halter)</translation>
    </message>
    <message>
        <source>host &lt;b&gt;%1&lt;/b&gt;, pid &lt;b&gt;%2&lt;/b&gt; &lt;span style=&apos;color:#757575&apos;&gt;(%3)&lt;/span&gt;</source>
        <translation>Host &lt;b&gt;%1&lt;/b&gt;, PID &lt;b&gt;%2&lt;/b&gt; &lt;span style=&apos;color:#757575&apos;&gt;(%3)&lt;/span&gt;</translation>
    </message>
    <message>
        <source>host &lt;b&gt;%1&lt;/b&gt; &lt;span style=&apos;color:#757575&apos;&gt;(%2)&lt;/span&gt;</source>
        <translation>Host &lt;b&gt;%1&lt;/b&gt; &lt;span style=&apos;color:#757575&apos;&gt;(%2)&lt;/span&gt;</translation>
    </message>
    <message>
        <source>expires in %1</source>
        <translation>läuft ab in %1</translation>
    </message>
    <message>
        <source>expired %1 ago</source>
        <translation>abgelaufen vor %1</translation>
    </message>
    <message>
        <source>Holder: %1&lt;br&gt;Taken at: %2&lt;br&gt;Expiry: %3&lt;/p&gt;</source>
        <translation>Halter: %1&lt;br&gt;Genommen um: %2&lt;br&gt;Ablauf: %3&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;speaks for dead: %1&lt;/li&gt;</source>
        <translation>&lt;li&gt;spricht für tot: %1&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;speaks for alive: %1&lt;/li&gt;</source>
        <translation>&lt;li&gt;spricht für lebendig: %1&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;unknown: %1&lt;/li&gt;</source>
        <translation>&lt;li&gt;unbekannt: %1&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;connected session from the holder&apos;s host: %1&lt;/li&gt;</source>
        <translation>&lt;li&gt;verbundene Sitzung vom Host des Halters: %1&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:#616161&apos;&gt;Changed only if the holder and the expiry are still the ones shown (a renewal or a re-take since then fails it) and the lease has not expired yet.&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#616161&apos;&gt;Nur geändert, wenn Halter und Ablauf noch die angezeigten sind (eine Erneuerung oder Neuübernahme seither lässt es scheitern) und die Lease noch nicht abgelaufen ist.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:#616161&apos;&gt;Changed only if the holder and the expiry are still the ones shown (a renewal since then means the holder is alive).&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#616161&apos;&gt;Nur geändert, wenn Halter und Ablauf noch die angezeigten sind (eine Erneuerung seither heißt: Der Halter lebt).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Each lock is %1.</source>
        <translation>Jede Sperre wird %1.</translation>
    </message>
    <message>
        <source>Each lease&apos;s expiry is set to the server&apos;s now(); the row stays.</source>
        <translation>Der Ablauf jeder Lease wird auf now() des Servers gesetzt; die Zeile bleibt.</translation>
    </message>
    <message>
        <source>&lt;b&gt;What will follow.&lt;/b&gt; %1 Another instance may take the lease at its next attempt. If the old holder is still running it may keep working, so &lt;b&gt;the work may run twice&lt;/b&gt;: this lease scheme has no fencing token. Nothing is retried: each lease is tried once and you see what happened.</source>
        <translation>&lt;b&gt;Was folgt.&lt;/b&gt; %1 Eine andere Instanz kann die Lease bei ihrem nächsten Versuch nehmen. Läuft der alte Halter noch, arbeitet er womöglich weiter, also &lt;b&gt;kann die Arbeit doppelt laufen&lt;/b&gt;: Dieses Lease-Schema hat kein Fencing-Token. Nichts wird wiederholt: Jede Lease wird einmal versucht, und Sie sehen, was geschah.</translation>
    </message>
    <message numerus="yes">
        <source>I understand the holder of %n lease(s) looks alive and its work may run twice</source>
        <translation>
            <numerusform>Mir ist klar, dass der Halter von %n Lease lebendig wirkt und seine Arbeit doppelt laufen kann</numerusform>
            <numerusform>Mir ist klar, dass der Halter von %n Leases lebendig wirkt und seine Arbeit doppelt laufen kann</numerusform>
        </translation>
    </message>
    <message>
        <source>I understand a writer&apos;s clock runs at least %1 behind the server&apos;s: its lease may only look expired while its holder still renews</source>
        <translation>Mir ist klar, dass die Uhr eines Schreibers mindestens %1 hinter der des Servers geht: Seine Lease wirkt vielleicht nur abgelaufen, während ihr Halter sie noch erneuert</translation>
    </message>
    <message>
        <source>Tick the confirmation above: a holder looks alive</source>
        <translation>Bestätigen Sie oben: Ein Halter wirkt lebendig</translation>
    </message>
    <message>
        <source>Tick the confirmation above: a writer&apos;s clock runs behind</source>
        <translation>Bestätigen Sie oben: Die Uhr eines Schreibers geht nach</translation>
    </message>
    <message>
        <source>Sent; waiting for the server (bounded by lock_timeout and statement_timeout)…</source>
        <translation>Gesendet; warte auf den Server (begrenzt durch lock_timeout und statement_timeout)…</translation>
    </message>
    <message>
        <source> &lt;i&gt;(recorded in the server-side audit table)&lt;/i&gt;</source>
        <translation> &lt;i&gt;(in der serverseitigen Audit-Tabelle vermerkt)&lt;/i&gt;</translation>
    </message>
    <message>
        <source>%1 of %2 lease(s) expired. Recorded in the audit log.</source>
        <translation>%1 von %2 Lease(s) abgelaufen. Im Audit-Protokoll vermerkt.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>&lt;p&gt;Table &lt;b&gt;%1&lt;/b&gt;. Times are on the database&apos;s clock.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Tabelle &lt;b&gt;%1&lt;/b&gt;. Die Zeiten folgen der Uhr der Datenbank.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#c62828&apos;&gt;&lt;b&gt;holder looks ALIVE&lt;/b&gt;&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#c62828&apos;&gt;&lt;b&gt;Halter wirkt LEBENDIG&lt;/b&gt;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#8e24aa&apos;&gt;&lt;b&gt;holder looks dead&lt;/b&gt;&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#8e24aa&apos;&gt;&lt;b&gt;Halter wirkt tot&lt;/b&gt;&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>lw::ui::LeaseActions</name>
    <message>
        <source>Operator mode is off for this connection profile: the console sends no writes. Start with --operator to force-expire leases (on a separate connection; monitoring stays read-only).</source>
        <translation>Der Operatormodus ist für dieses Verbindungsprofil aus: Die Konsole schreibt nichts. Starten Sie mit --operator, um den Ablauf von Leases zu erzwingen (über eine eigene Verbindung; die Überwachung bleibt nur lesend).</translation>
    </message>
    <message>
        <source>Force-expire…</source>
        <translation>Ablauf erzwingen…</translation>
    </message>
    <message>
        <source>Set the selected leases&apos; expiry to the server&apos;s now() (compare-and-set)</source>
        <translation>Den Ablauf der gewählten Leases auf now() des Servers setzen (Compare-and-Set)</translation>
    </message>
    <message>
        <source>Audit log…</source>
        <translation>Audit-Protokoll…</translation>
    </message>
    <message>
        <source>Create server-side audit table…</source>
        <translation>Serverseitige Audit-Tabelle anlegen…</translation>
    </message>
    <message>
        <source>OPERATOR MODE</source>
        <translation>OPERATORMODUS</translation>
    </message>
    <message>
        <source>Writes are allowed from this console (force-expire), on a separate short-lived connection; every action is recorded in the audit log.</source>
        <translation>Diese Konsole darf schreiben (Ablauf erzwingen), über eine eigene kurzlebige Verbindung; jede Aktion wird im Audit-Protokoll vermerkt.</translation>
    </message>
    <message>
        <source>A force-expire is running</source>
        <translation>Ein erzwungener Ablauf läuft</translation>
    </message>
    <message>
        <source>Select one or more leases to force-expire</source>
        <translation>Wählen Sie eine oder mehrere Leases, deren Ablauf erzwungen werden soll</translation>
    </message>
    <message>
        <source>Force-expire the selected leases (asks for confirmation first)</source>
        <translation>Ablauf der gewählten Leases erzwingen (fragt zuerst nach Bestätigung)</translation>
    </message>
    <message>
        <source>The connection profile names no server-side audit table</source>
        <translation>Das Verbindungsprofil nennt keine serverseitige Audit-Tabelle</translation>
    </message>
    <message>
        <source>CREATE TABLE IF NOT EXISTS %1 on the monitored database</source>
        <translation>CREATE TABLE IF NOT EXISTS %1 auf der überwachten Datenbank</translation>
    </message>
    <message>
        <source>The selection spans %1 and %2: force-expire the leases of one table at a time.</source>
        <translation>Die Auswahl umfasst %1 und %2: Erzwingen Sie den Ablauf für die Leases je einer Tabelle.</translation>
    </message>
    <message>
        <source>Force-expire is not offered for %1 (%2). %3</source>
        <translation>Für %1 (%2) wird kein erzwungener Ablauf angeboten. %3</translation>
    </message>
    <message>
        <source>Force-expire</source>
        <translation>Ablauf erzwingen</translation>
    </message>
    <message>
        <source>

WARNING: the local audit log could not record this: %1</source>
        <translation>

WARNUNG: Das lokale Audit-Protokoll konnte dies nicht vermerken: %1</translation>
    </message>
    <message>
        <source>no audit log configured</source>
        <translation>kein Audit-Protokoll eingerichtet</translation>
    </message>
    <message>
        <source>Create server-side audit table</source>
        <translation>Serverseitige Audit-Tabelle anlegen</translation>
    </message>
    <message>
        <source>Create the table %1 on the monitored database (if it does not exist)?

Columns: id, at, db_role, application_name, client_addr, os_user, os_host, action, target, before (jsonb), after (jsonb), outcome.
Force-expire then writes its record there in the same transaction as the change.</source>
        <translation>Die Tabelle %1 auf der überwachten Datenbank anlegen (falls sie fehlt)?

Spalten: id, at, db_role, application_name, client_addr, os_user, os_host, action, target, before (jsonb), after (jsonb), outcome.
Ein erzwungener Ablauf schreibt seinen Eintrag dann dort, in derselben Transaktion wie die Änderung.</translation>
    </message>
    <message>
        <source>Server-side audit table</source>
        <translation>Serverseitige Audit-Tabelle</translation>
    </message>
</context>
<context>
    <name>lw::ui::LeaseStripView</name>
    <message>
        <source> (hatched)</source>
        <translation> (schraffiert)</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:%1&quot;&gt;▍&lt;/span&gt; taken over &amp;nbsp; &lt;span style=&quot;color:%2&quot;&gt;┅&lt;/span&gt; both may have run it</source>
        <translation>&lt;span style=&quot;color:%1&quot;&gt;▍&lt;/span&gt; übernommen &amp;nbsp; &lt;span style=&quot;color:%2&quot;&gt;┅&lt;/span&gt; womöglich von beiden ausgeführt</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: %2 by %3</source>
        <translation>%1: %2 von %3</translation>
    </message>
    <message>
        <source>%1: %2, last held by %3</source>
        <translation>%1: %2, zuletzt gehalten von %3</translation>
    </message>
    <message>
        <source> (taken over)</source>
        <translation> (übernommen)</translation>
    </message>
    <message>
        <source>
the previous holder may still have run it (its sessions stayed busy), %1 → %2</source>
        <translation>
der vorige Halter hat sie womöglich noch ausgeführt (seine Sitzungen blieben beschäftigt), %1 → %2</translation>
    </message>
</context>
<context>
    <name>lw::ui::LeaseTimelineView</name>
    <message>
        <source>Lease:</source>
        <translation>Lease:</translation>
    </message>
    <message>
        <source>Every lease over the last recorded hour (the first %1 of %2); click one for its events.</source>
        <translation>Jede Lease in der letzten aufgezeichneten Stunde (die ersten %1 von %2); ein Klick zeigt ihre Ereignisse.</translation>
    </message>
    <message>
        <source>Every lease over the last recorded hour; click one for its events.</source>
        <translation>Jede Lease in der letzten aufgezeichneten Stunde; ein Klick zeigt ihre Ereignisse.</translation>
    </message>
    <message>
        <source>Nothing recorded for %1.</source>
        <translation>Für %1 ist nichts aufgezeichnet.</translation>
    </message>
    <message>
        <source>%1 holder(s), %2 renewal(s), %3 takeover(s), %4 forced expiry(ies). Server time.</source>
        <translation>%1 Halter, %2 Erneuerung(en), %3 Übernahme(n), %4 erzwungene(r) Ablauf/Abläufe. Serverzeit.</translation>
    </message>
    <message>
        <source>Shaded rows were recorded by the recorder before this window opened at %1.</source>
        <translation>Schattierte Zeilen hat der Recorder aufgezeichnet, bevor dieses Fenster um %1 geöffnet wurde.</translation>
    </message>
</context>
<context>
    <name>lw::ui::LeasesView</name>
    <message>
        <source>Filter by lease name or holder…</source>
        <translation>Nach Lease-Name oder Halter filtern…</translation>
    </message>
    <message>
        <source>&lt;b&gt;No lease table&lt;/b&gt;</source>
        <translation>&lt;b&gt;Keine Lease-Tabelle&lt;/b&gt;</translation>
    </message>
    <message>
        <source>1 lease</source>
        <translation>1 Lease</translation>
    </message>
    <message>
        <source>%1 leases</source>
        <translation>%1 Leases</translation>
    </message>
    <message>
        <source>&lt;b&gt;Leases&lt;/b&gt; — &lt;span style=&apos;color:#9e9e9e&apos;&gt;%1&lt;/span&gt;</source>
        <translation>&lt;b&gt;Leases&lt;/b&gt; — &lt;span style=&apos;color:#9e9e9e&apos;&gt;%1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>not read</source>
        <translation>nicht gelesen</translation>
    </message>
    <message>
        <source>nothing read yet</source>
        <translation>noch nichts gelesen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Reading %1 leases…&lt;/b&gt;</source>
        <translation>&lt;b&gt;Lese %1 Leases…&lt;/b&gt;</translation>
    </message>
    <message>
        <source> &lt;span style=&apos;color:#757575&apos;&gt;(%1 more loading)&lt;/span&gt;</source>
        <translation> &lt;span style=&apos;color:#757575&apos;&gt;(%1 weitere werden geladen)&lt;/span&gt;</translation>
    </message>
    <message>
        <source>in %1 tables</source>
        <translation>in %1 Tabellen</translation>
    </message>
    <message>
        <source>Found, not read: %1</source>
        <translation>Gefunden, nicht gelesen: %1</translation>
    </message>
    <message>
        <source>The leases table could not be read: %1</source>
        <translation>Die Lease-Tabelle ließ sich nicht lesen: %1</translation>
    </message>
    <message>
        <source>Leases (a table not read)</source>
        <translation>Leases (eine Tabelle nicht gelesen)</translation>
    </message>
    <message>
        <source>Leases (not read)</source>
        <translation>Leases (nicht gelesen)</translation>
    </message>
    <message>
        <source>Leases (%1 stale)</source>
        <translation>Leases (%1 verwaist)</translation>
    </message>
    <message>
        <source>Leases (%1 need attention)</source>
        <translation>Leases (%1 brauchen Aufmerksamkeit)</translation>
    </message>
    <message>
        <source>Leases</source>
        <translation>Leases</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>data %1 old, not live</source>
        <translation>Daten %1 alt, nicht live</translation>
    </message>
</context>
<context>
    <name>lw::ui::LocksView</name>
    <message>
        <source>&lt;b&gt;Advisory locks&lt;/b&gt; — &lt;span style=&apos;color:#9e9e9e&apos;&gt;nothing read yet&lt;/span&gt;</source>
        <translation>&lt;b&gt;Advisory-Sperren&lt;/b&gt; — &lt;span style=&apos;color:#9e9e9e&apos;&gt;noch nichts gelesen&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Show locks of all databases</source>
        <translation>Sperren aller Datenbanken zeigen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Lock waits&lt;/b&gt; — root blockers first, the sessions waiting behind them below</source>
        <translation>&lt;b&gt;Wartende Sperren&lt;/b&gt; — zuerst die Auslöser, darunter die Sitzungen, die hinter ihnen warten</translation>
    </message>
    <message>
        <source>Cancel query of this backend…</source>
        <translation>Anfrage dieses Backends abbrechen…</translation>
    </message>
    <message>
        <source>Terminate this backend…</source>
        <translation>Dieses Backend beenden…</translation>
    </message>
    <message>
        <source>Operator mode is off for this profile: the console sends no signal or write.</source>
        <translation>Der Operatormodus ist für dieses Profil aus: Die Konsole sendet weder Signale noch Schreibzugriffe.</translation>
    </message>
    <message>
        <source>Terminate backend</source>
        <translation>Backend beenden</translation>
    </message>
    <message>
        <source>Cancel query</source>
        <translation>Anfrage abbrechen</translation>
    </message>
    <message>
        <source>

Proceed?</source>
        <translation>

Fortfahren?</translation>
    </message>
    <message>
        <source>sent, no answer yet</source>
        <translation>gesendet, noch keine Antwort</translation>
    </message>
    <message>
        <source>as of %1, not live</source>
        <translation>Stand %1, nicht live</translation>
    </message>
    <message>
        <source>not live</source>
        <translation>nicht live</translation>
    </message>
    <message>
        <source>Advisory locks &amp;&amp; sessions</source>
        <translation>Advisory-Sperren &amp;&amp; Sitzungen</translation>
    </message>
    <message>
        <source>Advisory locks &amp;&amp; sessions (1 finding)</source>
        <translation>Advisory-Sperren &amp;&amp; Sitzungen (1 Befund)</translation>
    </message>
    <message>
        <source>Advisory locks &amp;&amp; sessions (%1 findings)</source>
        <translation>Advisory-Sperren &amp;&amp; Sitzungen (%1 Befunde)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2 waiting · %3 sessions waiting on locks · lock table %4 of ~%5 entries</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, %2 wartend · %3 Sitzungen warten auf Sperren · Sperrtabelle %4 von ~%5 Einträgen</translation>
    </message>
    <message>
        <source>1 advisory lock held</source>
        <translation>1 Advisory-Sperre gehalten</translation>
    </message>
    <message>
        <source>%1 advisory locks held</source>
        <translation>%1 Advisory-Sperren gehalten</translation>
    </message>
    <message>
        <source>Role &lt;b&gt;%1&lt;/b&gt; lacks pg_monitor: for other roles&apos; sessions the query, state, client address and wait event are hidden (&amp;lt;insufficient privilege&amp;gt;). Fix: &lt;code&gt;GRANT pg_monitor TO %1;&lt;/code&gt;</source>
        <translation>Der Rolle &lt;b&gt;%1&lt;/b&gt; fehlt pg_monitor: Bei Sitzungen anderer Rollen sind Anfrage, Zustand, Client-Adresse und Warteereignis verborgen (&amp;lt;insufficient privilege&amp;gt;). Abhilfe: &lt;code&gt;GRANT pg_monitor TO %1;&lt;/code&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;pg_locks not read&lt;/b&gt;, the locks below are %1 s old — %2</source>
        <translation>&lt;b&gt;pg_locks nicht gelesen&lt;/b&gt;, die Sperren unten sind %1 s alt — %2</translation>
    </message>
    <message>
        <source>%1 &lt;i&gt;What usually fixes it:&lt;/i&gt; %2</source>
        <translation>%1 &lt;i&gt;Was meist hilft:&lt;/i&gt; %2</translation>
    </message>
</context>
<context>
    <name>lw::ui::MainWindow</name>
    <message>
        <source>Overview</source>
        <translation>Überblick</translation>
    </message>
    <message>
        <source>Leases</source>
        <translation>Leases</translation>
    </message>
    <message>
        <source>Pool occupancy</source>
        <translation>Pool-Belegung</translation>
    </message>
    <message>
        <source>Overview (%1)</source>
        <translation>Überblick (%1)</translation>
    </message>
    <message>
        <source>Leasewatch — %1 — %2 — via recorder</source>
        <translation>Leasewatch — %1 — %2 — über Recorder</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Profiles… (open another database)</source>
        <translation>&amp;Profile… (weitere Datenbank öffnen)</translation>
    </message>
    <message>
        <source>&amp;Databases at a glance…</source>
        <translation>Datenbanken im &amp;Überblick…</translation>
    </message>
    <message>
        <source>&amp;Export incident bundle…</source>
        <translation>Incident-Bundle &amp;exportieren…</translation>
    </message>
    <message>
        <source>&amp;Browse recorded history</source>
        <translation>Aufgezeichneten &amp;Verlauf durchsehen</translation>
    </message>
    <message>
        <source>Open incident &amp;bundle…</source>
        <translation>Incident-&amp;Bundle öffnen…</translation>
    </message>
    <message>
        <source>&amp;Close window</source>
        <translation>Fenster &amp;schließen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Pause refreshing</source>
        <translation>Aktualisierung &amp;pausieren</translation>
    </message>
    <message>
        <source>&amp;Filter leases</source>
        <translation>Leases &amp;filtern</translation>
    </message>
    <message>
        <source>&amp;Leases</source>
        <translation>&amp;Leases</translation>
    </message>
    <message>
        <source>&amp;Sessions</source>
        <translation>&amp;Sitzungen</translation>
    </message>
    <message>
        <source>Leasewatch</source>
        <translation>Leasewatch</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Leasewatch</source>
        <translation>&amp;Über Leasewatch</translation>
    </message>
    <message>
        <source>PostgreSQL %1 · database %2 · user %3</source>
        <translation>PostgreSQL %1 · Datenbank %2 · Benutzer %3</translation>
    </message>
    <message>
        <source>last refresh %1 · %2 ms · %3%4 kB</source>
        <translation>letzte Aktualisierung %1 · %2 ms · %3%4 kB</translation>
    </message>
    <message>
        <source>kB: bytes received for this refresh, as counted on the TCP socket</source>
        <translation>kB: für diese Aktualisierung empfangene Bytes, am TCP-Socket gezählt</translation>
    </message>
    <message>
        <source>kB: size of this refresh&apos;s results in memory (over a Unix socket the bytes received are not counted)</source>
        <translation>kB: Größe der Ergebnisse dieser Aktualisierung im Speicher (über einen Unix-Socket werden die empfangenen Bytes nicht gezählt)</translation>
    </message>
    <message>
        <source> · every %1 s, stretched from %2 s by the footprint budget</source>
        <translation> · alle %1 s, vom Lastbudget gestreckt von %2 s</translation>
    </message>
    <message>
        <source>
Refreshes are stretched by the footprint budget: one takes %1 ms of server time and the console may use %2 % of it, so it refreshes every %3 s instead of every %4 s.</source>
        <translation>
Die Aktualisierungen werden vom Lastbudget gestreckt: Eine kostet %1 ms Serverzeit, und die Konsole darf %2 % davon beanspruchen, daher aktualisiert sie alle %3 s statt alle %4 s.</translation>
    </message>
    <message>
        <source> · every %1 s, server ≤ %2 ms/refresh</source>
        <translation> · alle %1 s, Server ≤ %2 ms/Aktualisierung</translation>
    </message>
    <message>
        <source> · pg_locks not read: locked by another session (%1 s old)</source>
        <translation> · pg_locks nicht gelesen: von einer anderen Sitzung gesperrt (%1 s alt)</translation>
    </message>
    <message>
        <source> · pg_locks read every %1 refreshes (%2 rows, %3 s old)</source>
        <translation> · pg_locks alle %1 Aktualisierungen gelesen (%2 Zeilen, %3 s alt)</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>verbinde…</translation>
    </message>
    <message>
        <source>● connected, paused</source>
        <translation>● verbunden, pausiert</translation>
    </message>
    <message>
        <source>● connected</source>
        <translation>● verbunden</translation>
    </message>
    <message>
        <source>● via recorder (pid %1), paused</source>
        <translation>● über Recorder (PID %1), pausiert</translation>
    </message>
    <message>
        <source>● via recorder (pid %1)</source>
        <translation>● über Recorder (PID %1)</translation>
    </message>
    <message>
        <source> · refresh %1 s old</source>
        <translation> · Aktualisierung %1 s alt</translation>
    </message>
    <message>
        <source>✖ disconnected since %1 — retrying in %2 s — %3</source>
        <translation>✖ getrennt seit %1 — neuer Versuch in %2 s — %3</translation>
    </message>
    <message>
        <source>■ recorded, offline</source>
        <translation>■ aufgezeichnet, offline</translation>
    </message>
    <message>
        <source>About Leasewatch</source>
        <translation>Über Leasewatch</translation>
    </message>
    <message>
        <source>&lt;b&gt;Leasewatch %1&lt;/b&gt;&lt;br&gt;Live console for PostgreSQL leases, advisory locks and connection pools.&lt;br&gt;Licensed under GPL-3.0-or-later (Qt Charts is GPL-3).</source>
        <translation>&lt;b&gt;Leasewatch %1&lt;/b&gt;&lt;br&gt;Live-Konsole für PostgreSQL-Leases, Advisory-Sperren und Verbindungspools.&lt;br&gt;Lizenziert unter GPL-3.0-or-later (Qt Charts steht unter GPL-3).</translation>
    </message>
    <message>
        <source>ALERT: %1</source>
        <translation>ALARM: %1</translation>
    </message>
    <message>
        <source>alert cleared at %1: %2</source>
        <translation>Alarm um %1 aufgehoben: %2</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>The language changes when Leasewatch starts again.</source>
        <translation>Die Sprache wechselt beim nächsten Start von Leasewatch.</translation>
    </message>
</context>
<context>
    <name>lw::ui::OverviewView</name>
    <message>
        <source>Show details</source>
        <translation>Details zeigen</translation>
    </message>
    <message>
        <source>disconnected</source>
        <translation>getrennt</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>verbinde</translation>
    </message>
    <message>
        <source>not answering</source>
        <translation>antwortet nicht</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>verbinde neu</translation>
    </message>
    <message>
        <source>refresh failed</source>
        <translation>Aktualisierung fehlgeschlagen</translation>
    </message>
    <message>
        <source>reading the leases</source>
        <translation>lese die Leases</translation>
    </message>
    <message>
        <source>no finding, pg_locks not read</source>
        <translation>kein Befund, pg_locks nicht gelesen</translation>
    </message>
    <message>
        <source>recorded: no finding</source>
        <translation>aufgezeichnet: kein Befund</translation>
    </message>
    <message>
        <source>all clear</source>
        <translation>alles in Ordnung</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt; color:#c62828&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/span&gt; — %2 %3</source>
        <translation>&lt;span style=&apos;font-size:15pt; color:#c62828&apos;&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/span&gt; — %2 %3</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>Getrennt</translation>
    </message>
    <message>
        <source>Not answering</source>
        <translation>Antwortet nicht</translation>
    </message>
    <message>
        <source>The findings below are as of %1, the last answer.</source>
        <translation>Die Befunde unten sind vom Stand %1, der letzten Antwort.</translation>
    </message>
    <message>
        <source>Nothing was wrong at the last answer (%1).</source>
        <translation>Bei der letzten Antwort (%1) war nichts auffällig.</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt; color:#c62828&apos;&gt;&lt;b&gt;Disconnected&lt;/b&gt;&lt;/span&gt; since %2 — %1 What follows is data from before the connection was lost.</source>
        <translation>&lt;span style=&apos;font-size:15pt; color:#c62828&apos;&gt;&lt;b&gt;Getrennt&lt;/b&gt;&lt;/span&gt; seit %2 — %1 Was folgt, sind Daten von vor dem Verbindungsverlust.</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt; color:#c62828&apos;&gt;&lt;b&gt;Not connected&lt;/b&gt;&lt;/span&gt; — %1 Nothing has been read from this database yet; the console keeps trying.</source>
        <translation>&lt;span style=&apos;font-size:15pt; color:#c62828&apos;&gt;&lt;b&gt;Nicht verbunden&lt;/b&gt;&lt;/span&gt; — %1 Von dieser Datenbank wurde noch nichts gelesen; die Konsole versucht es weiter.</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt; color:#e08200&apos;&gt;&lt;b&gt;Refresh failed&lt;/b&gt;&lt;/span&gt; — %1 What follows is from the last good refresh.</source>
        <translation>&lt;span style=&apos;font-size:15pt; color:#e08200&apos;&gt;&lt;b&gt;Aktualisierung fehlgeschlagen&lt;/b&gt;&lt;/span&gt; — %1 Was folgt, stammt von der letzten gelungenen Aktualisierung.</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt&apos;&gt;Connecting…&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;font-size:15pt&apos;&gt;Verbinde…&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt&apos;&gt;Reading the leases…&lt;/span&gt; — a large table: their findings follow once every row is in (the Leases page counts them in). The window answers meanwhile.</source>
        <translation>&lt;span style=&apos;font-size:15pt&apos;&gt;Lese die Leases…&lt;/span&gt; — eine große Tabelle: Ihre Befunde folgen, sobald jede Zeile da ist (die Seite Leases zählt mit). Das Fenster reagiert währenddessen.</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt; color:#e08200&apos;&gt;&lt;b&gt;No finding, pg_locks not read&lt;/b&gt;&lt;/span&gt; — the locks judged are %1 s old: %2</source>
        <translation>&lt;span style=&apos;font-size:15pt; color:#e08200&apos;&gt;&lt;b&gt;Kein Befund, pg_locks nicht gelesen&lt;/b&gt;&lt;/span&gt; — die beurteilten Sperren sind %1 s alt: %2</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt; color:#2e7d32&apos;&gt;&lt;b&gt;✔ All clear&lt;/b&gt;&lt;/span&gt; — leases renewed in time, no pinned pool, no lock waits past their thresholds.</source>
        <translation>&lt;span style=&apos;font-size:15pt; color:#2e7d32&apos;&gt;&lt;b&gt;✔ Alles in Ordnung&lt;/b&gt;&lt;/span&gt; — Leases rechtzeitig erneuert, kein blockierter Pool, kein Warten auf Sperren über den Schwellen.</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt; color:#2e7d32&apos;&gt;&lt;b&gt;✔ All clear&lt;/b&gt;&lt;/span&gt; — no lease table in this database (see Leases), no pinned pool, no lock waits past their thresholds.</source>
        <translation>&lt;span style=&apos;font-size:15pt; color:#2e7d32&apos;&gt;&lt;b&gt;✔ Alles in Ordnung&lt;/b&gt;&lt;/span&gt; — keine Lease-Tabelle in dieser Datenbank (siehe Leases), kein blockierter Pool, kein Warten auf Sperren über den Schwellen.</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:15pt; color:%1&apos;&gt;&lt;b&gt;%2 %3&lt;/b&gt;&lt;/span&gt;%4 — worst first. Enter opens the detail.</source>
        <translation>&lt;span style=&apos;font-size:15pt; color:%1&apos;&gt;&lt;b&gt;%2 %3&lt;/b&gt;&lt;/span&gt;%4 — Schlimmste zuerst. Die Eingabetaste öffnet die Einzelheiten.</translation>
    </message>
    <message>
        <source>Force-expire…</source>
        <translation>Ablauf erzwingen…</translation>
    </message>
    <message>
        <source>Terminate one…</source>
        <translation>Eine beenden…</translation>
    </message>
    <message>
        <source>Terminate pid %1…</source>
        <translation>PID %1 beenden…</translation>
    </message>
    <message>
        <source>Cancel pid %1…</source>
        <translation>PID %1 abbrechen…</translation>
    </message>
    <message>
        <source>Operator mode is off for this profile.</source>
        <translation>Der Operatormodus ist für dieses Profil aus.</translation>
    </message>
    <message>
        <source>Select a finding (arrow keys) for its detail.</source>
        <translation>Wählen Sie einen Befund (Pfeiltasten), um Einzelheiten zu sehen.</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>Abhilfe: %1</translation>
    </message>
    <message>
        <source>as of %1
(not live)</source>
        <translation>Stand %1
(nicht live)</translation>
    </message>
    <message>
        <source>since %1
(%2)</source>
        <translation>seit %1
(%2)</translation>
    </message>
    <message>
        <source>1 problem</source>
        <translation>1 Problem</translation>
    </message>
    <message>
        <source>%1 problems</source>
        <translation>%1 Probleme</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>, %1 critical</source>
        <translation>, %1 kritisch</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2&lt;br&gt;&lt;i&gt;What usually fixes it:&lt;/i&gt; %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2&lt;br&gt;&lt;i&gt;Was meist hilft:&lt;/i&gt; %3</translation>
    </message>
</context>
<context>
    <name>lw::ui::PgBouncerView</name>
    <message>
        <source>Server connections holding advisory locks (SHOW SERVERS.remote_pid × pg_locks)</source>
        <translation>Serververbindungen mit Advisory-Sperren (SHOW SERVERS.remote_pid × pg_locks)</translation>
    </message>
    <message>
        <source>Connecting to PgBouncer&apos;s admin console…</source>
        <translation>Verbinde mit der Admin-Konsole von PgBouncer…</translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n pool(s), %2 server connection(s); refreshed at %3</source>
        <translation>
            <numerusform>%1 — %n Pool, %2 Serververbindung(en); aktualisiert um %3</numerusform>
            <numerusform>%1 — %n Pools, %2 Serververbindung(en); aktualisiert um %3</numerusform>
        </translation>
    </message>
    <message>
        <source>PgBouncer</source>
        <translation>PgBouncer</translation>
    </message>
    <message>
        <source>&lt;b&gt;PgBouncer unreachable&lt;/b&gt;: %1%2</source>
        <translation>&lt;b&gt;PgBouncer nicht erreichbar&lt;/b&gt;: %1%2</translation>
    </message>
    <message>
        <source> — showing the data of %1</source>
        <translation> — zeige die Daten von %1</translation>
    </message>
    <message>
        <source>No server connection of PgBouncer holds an advisory lock.</source>
        <translation>Keine Serververbindung von PgBouncer hält eine Advisory-Sperre.</translation>
    </message>
    <message>
        <source>What usually fixes it: </source>
        <translation>Was meist hilft: </translation>
    </message>
    <message>
        <source>connections</source>
        <translation>Verbindungen</translation>
    </message>
    <message>
        <source>%1 (%2 pooling)%3%4</source>
        <translation>%1 (%2-Pooling)%3%4</translation>
    </message>
    <message>
        <source> — gone</source>
        <translation> — weg</translation>
    </message>
</context>
<context>
    <name>lw::ui::PoolView</name>
    <message>
        <source>Client instance (address + application)</source>
        <translation>Client-Instanz (Adresse + Anwendung)</translation>
    </message>
    <message>
        <source>Application name</source>
        <translation>Anwendungsname</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>Group by:</source>
        <translation>Gruppieren nach:</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Zeigen:</translation>
    </message>
    <message>
        <source>Last 5 min</source>
        <translation>Letzte 5 Min.</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Since start</source>
        <translation>Seit dem Start</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Stop following the live edge to look back (drag the time bar); sampling goes on.</source>
        <translation>Nicht mehr dem Live-Rand folgen, um zurückzuschauen (Zeitleiste ziehen); die Messung läuft weiter.</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNG exportieren…</translation>
    </message>
    <message>
        <source>Save the chart on screen as a PNG image.</source>
        <translation>Das angezeigte Diagramm als PNG-Bild speichern.</translation>
    </message>
    <message>
        <source>Cluster limits now</source>
        <translation>Cluster-Grenzen jetzt</translation>
    </message>
    <message>
        <source>&lt;b&gt;Connections&lt;/b&gt; (max_connections − reserved slots)</source>
        <translation>&lt;b&gt;Verbindungen&lt;/b&gt; (max_connections − reservierte Plätze)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Shared lock table&lt;/b&gt; (≈ nominal capacity; exhausted → ERROR 53200 out of shared memory)</source>
        <translation>&lt;b&gt;Gemeinsame Sperrtabelle&lt;/b&gt; (≈ Nennkapazität; erschöpft → ERROR 53200 out of shared memory)</translation>
    </message>
    <message>
        <source>Select a group</source>
        <translation>Wählen Sie eine Gruppe</translation>
    </message>
    <message>
        <source>connections</source>
        <translation>Verbindungen</translation>
    </message>
    <message>
        <source>Connections per group against the cluster budget</source>
        <translation>Verbindungen je Gruppe gegenüber dem Budget des Clusters</translation>
    </message>
    <message>
        <source>Shared lock-table entries against the nominal capacity (≈, a floor)</source>
        <translation>Einträge der gemeinsamen Sperrtabelle gegenüber der Nennkapazität (≈, eine Untergrenze)</translation>
    </message>
    <message>
        <source>entries</source>
        <translation>Einträge</translation>
    </message>
    <message>
        <source>Lock trouble: sessions waiting on locks, deadlocks per minute</source>
        <translation>Sperrprobleme: auf Sperren wartende Sitzungen, Deadlocks pro Minute</translation>
    </message>
    <message>
        <source>advisory locks</source>
        <translation>Advisory-Sperren</translation>
    </message>
    <message>
        <source>other shared-table locks</source>
        <translation>andere Sperren der gemeinsamen Tabelle</translation>
    </message>
    <message>
        <source>≈ nominal capacity</source>
        <translation>≈ Nennkapazität</translation>
    </message>
    <message>
        <source>sessions waiting on a lock</source>
        <translation>auf eine Sperre wartende Sitzungen</translation>
    </message>
    <message>
        <source>deadlocks in the last minute</source>
        <translation>Deadlocks in der letzten Minute</translation>
    </message>
    <message>
        <source>Selected group</source>
        <translation>Gewählte Gruppe</translation>
    </message>
    <message>
        <source>Connections vs budget</source>
        <translation>Verbindungen vs. Budget</translation>
    </message>
    <message>
        <source>Lock table</source>
        <translation>Sperrtabelle</translation>
    </message>
    <message>
        <source>Lock waits &amp;&amp; deadlocks</source>
        <translation>Sperr-Wartezeiten &amp;&amp; Deadlocks</translation>
    </message>
    <message>
        <source>Drag to look back in time (pauses the view).</source>
        <translation>Ziehen, um in der Zeit zurückzuschauen (hält die Ansicht an).</translation>
    </message>
    <message>
        <source>window opened %1</source>
        <translation>Fenster geöffnet %1</translation>
    </message>
    <message>
        <source>%1 of %2 connections (%3 %)</source>
        <translation>%1 von %2 Verbindungen (%3 %)</translation>
    </message>
    <message>
        <source>%1: %2 (%3 %)</source>
        <translation>%1: %2 (%3 %)</translation>
    </message>
    <message>
        <source>No client connections.</source>
        <translation>Keine Client-Verbindungen.</translation>
    </message>
    <message>
        <source>Largest: %1</source>
        <translation>Größte: %1</translation>
    </message>
    <message>
        <source>≈ %1 % — %2 of ≈ %3 entries</source>
        <translation>≈ %1 % — %2 von ≈ %3 Einträgen</translation>
    </message>
    <message>
        <source>%1 of them advisory locks. The nominal capacity is a floor: the server usually fits somewhat more.</source>
        <translation>davon %1 Advisory-Sperren. Die Nennkapazität ist eine Untergrenze: Meist passt etwas mehr hinein.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Lock trouble:&lt;/b&gt; %1 session(s) waiting on a lock · %2 deadlock(s) in the last minute%3</source>
        <translation>&lt;b&gt;Sperrprobleme:&lt;/b&gt; %1 Sitzung(en) warten auf eine Sperre · %2 Deadlock(s) in der letzten Minute%3</translation>
    </message>
    <message>
        <source> (statistics were reset)</source>
        <translation> (Statistiken wurden zurückgesetzt)</translation>
    </message>
    <message>
        <source>Follow live</source>
        <translation>Live folgen</translation>
    </message>
    <message>
        <source>❚❚ paused view %1–%2</source>
        <translation>❚❚ angehaltene Ansicht %1–%2</translation>
    </message>
    <message>
        <source>❚❚ paused view %1–%2 (still sampling)</source>
        <translation>❚❚ angehaltene Ansicht %1–%2 (Messung läuft weiter)</translation>
    </message>
    <message>
        <source>◆ recorded, not live</source>
        <translation>◆ aufgezeichnet, nicht live</translation>
    </message>
    <message>
        <source>The charts end at the recorded refresh shown; the time bar above moves through the recording.</source>
        <translation>Die Diagramme enden bei der gezeigten aufgezeichneten Aktualisierung; die Zeitleiste oben bewegt sich durch die Aufzeichnung.</translation>
    </message>
    <message>
        <source>● live</source>
        <translation>● live</translation>
    </message>
    <message>
        <source>○ not live: no connection</source>
        <translation>○ nicht live: keine Verbindung</translation>
    </message>
    <message>
        <source>○ not live: connecting…</source>
        <translation>○ nicht live: verbinde…</translation>
    </message>
    <message>
        <source>Nothing arrives from the database; sampling resumes when the connection is back.</source>
        <translation>Von der Datenbank kommt nichts an; die Messung setzt wieder ein, sobald die Verbindung zurück ist.</translation>
    </message>
    <message>
        <source>Export chart as PNG</source>
        <translation>Diagramm als PNG exportieren</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>%1 ließ sich nicht schreiben</translation>
    </message>
    <message>
        <source>Select a group in the table above</source>
        <translation>Wählen Sie oben in der Tabelle eine Gruppe</translation>
    </message>
    <message>
        <source>idle holding advisory lock (pinned)</source>
        <translation>untätig mit Advisory-Sperre (blockiert)</translation>
    </message>
    <message>
        <source>waiting on a lock</source>
        <translation>wartet auf eine Sperre</translation>
    </message>
    <message>
        <source>idle in transaction</source>
        <translation>untätig in Transaktion</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <source>pool size %1</source>
        <translation>Poolgröße %1</translation>
    </message>
    <message>
        <source>%1 — connections by state</source>
        <translation>%1 — Verbindungen nach Zustand</translation>
    </message>
    <message>
        <source> — PINNED: %1 of %2 idle holding advisory locks</source>
        <translation> — BLOCKIERT: %1 von %2 untätig mit Advisory-Sperren</translation>
    </message>
    <message>
        <source> (no pool size configured)</source>
        <translation> (keine Poolgröße eingestellt)</translation>
    </message>
    <message>
        <source>other groups and the console</source>
        <translation>andere Gruppen und die Konsole</translation>
    </message>
    <message>
        <source>budget (max_connections − reserved)</source>
        <translation>Budget (max_connections − reserviert)</translation>
    </message>
</context>
<context>
    <name>lw::ui::ProfilesDialog</name>
    <message>
        <source>Leasewatch — connection profiles</source>
        <translation>Leasewatch — Verbindungsprofile</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Databases at a &amp;glance…</source>
        <translation>Datenbanken im &amp;Überblick…</translation>
    </message>
    <message>
        <source>Every saved profile with its state and findings, worst first</source>
        <translation>Jedes gespeicherte Profil mit Zustand und Befunden, Schlimmste zuerst</translation>
    </message>
    <message>
        <source>e.g. prod-billing</source>
        <translation>z. B. prod-billing</translation>
    </message>
    <message>
        <source>host=… dbname=…, postgresql://…, or leave empty</source>
        <translation>host=… dbname=…, postgresql://… oder leer lassen</translation>
    </message>
    <message>
        <source>host name, IP or socket directory</source>
        <translation>Hostname, IP oder Socket-Verzeichnis</translation>
    </message>
    <message>
        <source>a section of pg_service.conf</source>
        <translation>ein Abschnitt von pg_service.conf</translation>
    </message>
    <message>
        <source>CA certificate (verify-ca, verify-full)</source>
        <translation>CA-Zertifikat (verify-ca, verify-full)</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>Connection &amp;string:</source>
        <translation>Verbindungs&amp;zeichenkette:</translation>
    </message>
    <message>
        <source>&lt;i&gt;or, when the connection string is empty:&lt;/i&gt;</source>
        <translation>&lt;i&gt;oder, wenn die Verbindungszeichenkette leer ist:&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>&amp;Host:</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <source>&amp;Database:</source>
        <translation>&amp;Datenbank:</translation>
    </message>
    <message>
        <source>&amp;User:</source>
        <translation>Ben&amp;utzer:</translation>
    </message>
    <message>
        <source>Ser&amp;vice:</source>
        <translation>Ser&amp;vice:</translation>
    </message>
    <message>
        <source>SSL &amp;mode:</source>
        <translation>SSL-&amp;Modus:</translation>
    </message>
    <message>
        <source>CA certificate:</source>
        <translation>CA-Zertifikat:</translation>
    </message>
    <message>
        <source>Client certificate:</source>
        <translation>Client-Zertifikat:</translation>
    </message>
    <message>
        <source>Client key:</source>
        <translation>Client-Schlüssel:</translation>
    </message>
    <message>
        <source>Passwords are not stored here: libpq reads them from ~/.pgpass (or PGPASSFILE) or the service file.</source>
        <translation>Passwörter werden hier nicht gespeichert: libpq liest sie aus ~/.pgpass (oder PGPASSFILE) oder aus der Service-Datei.</translation>
    </message>
    <message>
        <source>timestamptz, utc or a zone name</source>
        <translation>timestamptz, utc oder ein Zonenname</translation>
    </message>
    <message>
        <source>inferred from renewals</source>
        <translation>aus den Erneuerungen abgeleitet</translation>
    </message>
    <message>
        <source>Find library lease tables (ShedLock, River, Oban, Quartz, db-scheduler, graphile-worker, Liquibase) while the table is left at its default</source>
        <translation>Lease-Tabellen von Bibliotheken suchen (ShedLock, River, Oban, Quartz, db-scheduler, graphile-worker, Liquibase), solange die Tabelle auf ihrem Standard steht</translation>
    </message>
    <message>
        <source>Leases table</source>
        <translation>Lease-Tabelle</translation>
    </message>
    <message>
        <source>P&amp;reset:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <source>&amp;Table:</source>
        <translation>&amp;Tabelle:</translation>
    </message>
    <message>
        <source>&amp;Columns:</source>
        <translation>Spa&amp;lten:</translation>
    </message>
    <message>
        <source>Time &amp;kind:</source>
        <translation>&amp;Zeitart:</translation>
    </message>
    <message>
        <source>TT&amp;L:</source>
        <translation>TT&amp;L:</translation>
    </message>
    <message>
        <source>nightly-report, billing-export-%Y-%m-%d</source>
        <translation>nightly-report, billing-export-%Y-%m-%d</translation>
    </message>
    <message>
        <source>e.g. app1:</source>
        <translation>z. B. app1:</translation>
    </message>
    <message>
        <source>billing-api=4, worker=8</source>
        <translation>billing-api=4, worker=8</translation>
    </message>
    <message>
        <source>Operator mode: allow force-expire and cancel/terminate</source>
        <translation>Operatormodus: erzwungenen Ablauf und Abbrechen/Beenden erlauben</translation>
    </message>
    <message>
        <source>optional server-side audit table</source>
        <translation>optionale serverseitige Audit-Tabelle</translation>
    </message>
    <message>
        <source>optional: host=… port=6432 dbname=pgbouncer</source>
        <translation>optional: host=… port=6432 dbname=pgbouncer</translation>
    </message>
    <message>
        <source>optional: feed://host:9472/name (empty: this machine&apos;s recorder, if one runs)</source>
        <translation>optional: feed://host:9472/name (leer: der Recorder dieser Maschine, falls einer läuft)</translation>
    </message>
    <message>
        <source>Read the live refreshes of `leasewatch record --serve` on another machine instead of connecting; the connection above is then used for operator actions only.</source>
        <translation>Die Live-Aktualisierungen von `leasewatch record --serve` auf einer anderen Maschine lesen, statt sich zu verbinden; die Verbindung oben dient dann nur Eingriffen von Operatoren.</translation>
    </message>
    <message>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <source>Desktop notifications for new problems</source>
        <translation>Desktop-Benachrichtigungen bei neuen Problemen</translation>
    </message>
    <message>
        <source>Monitoring</source>
        <translation>Überwachung</translation>
    </message>
    <message>
        <source>Refresh &amp;interval:</source>
        <translation>Aktualisierungs&amp;intervall:</translation>
    </message>
    <message>
        <source>Known lock &amp;names:</source>
        <translation>Bekannte Sperr&amp;namen:</translation>
    </message>
    <message>
        <source>Lock name prefixes:</source>
        <translation>Präfixe der Sperrnamen:</translation>
    </message>
    <message>
        <source>Pool si&amp;zes:</source>
        <translation>Pool&amp;größen:</translation>
    </message>
    <message>
        <source>Idle holding a lock after:</source>
        <translation>Untätig mit Sperre nach:</translation>
    </message>
    <message>
        <source>Waiting on a lock after:</source>
        <translation>Wartet auf Sperre nach:</translation>
    </message>
    <message>
        <source>Lock table use above:</source>
        <translation>Sperrtabelle belegt über:</translation>
    </message>
    <message>
        <source>Connections above:</source>
        <translation>Verbindungen über:</translation>
    </message>
    <message>
        <source>Audit table:</source>
        <translation>Audit-Tabelle:</translation>
    </message>
    <message>
        <source>PgBouncer admin:</source>
        <translation>PgBouncer-Admin:</translation>
    </message>
    <message>
        <source>Via recorder:</source>
        <translation>Über Recorder:</translation>
    </message>
    <message>
        <source>Keep history:</source>
        <translation>Verlauf aufbewahren:</translation>
    </message>
    <message>
        <source>… at most:</source>
        <translation>… höchstens:</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>new profile</source>
        <translation>neues Profil</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>In %1 gespeichert.</translation>
    </message>
    <message>
        <source>Removed &quot;%1&quot;.</source>
        <translation>„%1“ entfernt.</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbinde…</translation>
    </message>
</context>
<context>
    <name>lw::ui::RecordedBar</name>
    <message>
        <source>Recorded refreshes: drag to show another moment.</source>
        <translation>Aufgezeichnete Aktualisierungen: Ziehen zeigt einen anderen Zeitpunkt.</translation>
    </message>
    <message>
        <source>Previous recorded refresh</source>
        <translation>Vorige aufgezeichnete Aktualisierung</translation>
    </message>
    <message>
        <source>Next recorded refresh</source>
        <translation>Nächste aufgezeichnete Aktualisierung</translation>
    </message>
    <message>
        <source>Recorded, not live — %1 — nothing recorded</source>
        <translation>Aufgezeichnet, nicht live — %1 — nichts aufgezeichnet</translation>
    </message>
    <message>
        <source>Recorded, not live — %1 — %2</source>
        <translation>Aufgezeichnet, nicht live — %1 — %2</translation>
    </message>
</context>
</TS>
