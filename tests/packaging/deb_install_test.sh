#!/usr/bin/env bash
# Packaging test (ctest: packaging.deb_install, label "packaging", fixture "pg").
#
#  1. cpack -G "DEB;TGZ" from this build tree's binaries, into a temporary directory
#  2. checks the .deb: version, Depends, files in the standard places, lintian (no errors),
#     appstreamcli validate --no-net, desktop-file-validate (when installed); checks the .tar.gz
#  3. installs the .deb with apt-get (root with apt, and no leasewatch installed already), otherwise
#     unpacks it with dpkg-deb -x into a temporary root; skips (77) only where neither can be done
#  4. runs the installed leasewatch: --version, and `snapshot DSN --json` against a fresh database on
#     the suite's cluster, with a lease row that must show up; then a short offscreen start of the
#     window to see that the Qt plugins it needs (platform, QSQLITE) are there
#  5. removes what it installed (the package, and dependencies apt pulled in for it), drops the
#     database and deletes its temporary files
#
# Environment (set by tests/packaging/CMakeLists.txt): LW_BINARY_DIR LW_SOURCE_DIR LW_VERSION
# LW_APP_ID LW_CMAKE LW_CPACK LW_TEST_CLUSTER_DIR. Set LW_PKG_TEST_NO_INSTALL=1 to never install
# into the machine (unpack only), e.g. on a workstation.
set -euo pipefail

say() { printf '[packaging] %s\n' "$*"; }
fail() {
  printf '[packaging] FAIL: %s\n' "$*" >&2
  exit 1
}
skip() {
  printf '[packaging] SKIP: %s\n' "$*"
  exit 77
}

for v in LW_BINARY_DIR LW_SOURCE_DIR LW_VERSION LW_APP_ID LW_CMAKE LW_CPACK LW_TEST_CLUSTER_DIR; do
  [ -n "${!v:-}" ] || fail "$v is not set (run this through ctest)"
done

command -v dpkg-deb >/dev/null || skip "dpkg-deb not found: not a Debian-based system, the .deb cannot be checked here"

# One at a time: every build tree of this checkout runs this same script, and they would install and
# remove the same package. The lock is on the script file itself, so that it leaves nothing behind.
if command -v flock >/dev/null; then
  exec 9<"${BASH_SOURCE[0]}"
  flock 9
fi

work=$(mktemp -d /tmp/lw-pkg.XXXXXX)
chmod 755 "$work" # apt's _apt user reads the .deb from here
installed_by_us=""
db=""
# The suite's cluster (tests/support): superuser postgres when run as root, else the current user.
if [ "$(id -u)" -eq 0 ]; then pg_user=postgres; else pg_user=$(id -un); fi
psql_base="host=$LW_TEST_CLUSTER_DIR port=5432 user=${LW_TEST_PG_USER:-$pg_user}"

cleanup() {
  local rc=$?
  set +e
  if [ -n "$installed_by_us" ]; then
    say "removing what the test installed: $installed_by_us"
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -q $installed_by_us >"$work/apt-remove.log" 2>&1 ||
      { cat "$work/apt-remove.log"; rc=1; }
    if dpkg-query -W -f='${Status}' leasewatch 2>/dev/null | grep -q 'install ok installed'; then
      printf '[packaging] FAIL: leasewatch is still installed after apt-get remove\n' >&2
      rc=1
    fi
  fi
  if [ -n "$db" ]; then
    psql "$psql_base dbname=postgres" -qAt -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
  fi
  rm -rf "$work"
  exit $rc
}
trap cleanup EXIT

# --- 1. Build the packages ------------------------------------------------------------------------
say "building leasewatch and leasewatch-sim in $LW_BINARY_DIR (usually already up to date)"
"$LW_CMAKE" --build "$LW_BINARY_DIR" --target leasewatch leasewatch-sim >"$work/build.log" 2>&1 ||
  { tail -50 "$work/build.log"; fail "building the programs failed"; }

say "cpack -G DEB;TGZ into $work/out"
start=$(date +%s)
"$LW_CPACK" --config "$LW_BINARY_DIR/CPackConfig.cmake" -G "DEB;TGZ" -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
say "cpack took $(($(date +%s) - start)) s"
shopt -s nullglob
debs=("$work"/out/leasewatch_"$LW_VERSION"_*.deb)
tgzs=("$work"/out/leasewatch-"$LW_VERSION"-linux-*.tar.gz)
shopt -u nullglob
[ ${#debs[@]} -eq 1 ] || { ls -la "$work/out"; fail "expected one leasewatch_${LW_VERSION}_<arch>.deb"; }
[ ${#tgzs[@]} -eq 1 ] || { ls -la "$work/out"; fail "expected one leasewatch-${LW_VERSION}-linux-<arch>.tar.gz"; }
deb=${debs[0]}
tgz=${tgzs[0]}
say "built $(basename "$deb") and $(basename "$tgz")"

# --- 2. Check the packages ------------------------------------------------------------------------
dpkg-deb -I "$deb" | sed 's/^/  /'
[ "$(dpkg-deb -f "$deb" Package)" = leasewatch ] || fail "package name is not leasewatch"
[ "$(dpkg-deb -f "$deb" Version)" = "$LW_VERSION" ] || fail "package version is not $LW_VERSION (project(VERSION))"
depends=$(dpkg-deb -f "$deb" Depends)
for dep in libqt6sql6-sqlite libqt6widgets6 libqt6charts6 libqt6gui6 libpq5 libc6; do
  grep -Eq "(^|, )$dep( |,|$)" <<<"$depends" || fail "Depends lacks $dep: $depends"
done

root="$work/root"
dpkg-deb -x "$deb" "$root"
expected=(
  usr/bin/leasewatch
  usr/bin/leasewatch-sim
  "usr/share/applications/$LW_APP_ID.desktop"
  "usr/share/metainfo/$LW_APP_ID.metainfo.xml"
  "usr/share/icons/hicolor/scalable/apps/$LW_APP_ID.svg"
  usr/share/man/man1/leasewatch.1.gz
  usr/share/man/man1/leasewatch-sim.1.gz
  usr/share/man/de/man1/leasewatch.1.gz
  usr/share/doc/leasewatch/copyright
  usr/share/doc/leasewatch/changelog.gz
  "usr/lib/systemd/user/leasewatch-record@.service"
  usr/share/leasewatch/prometheus/leasewatch-alerts.yml
  usr/share/leasewatch/grafana/leasewatch-dashboard.json
)
for size in 16 22 24 32 48 64 128 256; do
  expected+=("usr/share/icons/hicolor/${size}x${size}/apps/$LW_APP_ID.png")
done
for f in "${expected[@]}"; do
  [ -f "$root/$f" ] || fail "the .deb lacks /$f"
done
for f in usr/bin/leasewatch usr/bin/leasewatch-sim; do
  [ -x "$root/$f" ] || fail "/$f is not executable"
done
grep -q "<release version=\"$LW_VERSION\"" "$root/usr/share/metainfo/$LW_APP_ID.metainfo.xml" ||
  fail "the metainfo's release is not $LW_VERSION"
grep -qx "ExecStart=/usr/bin/leasewatch record %I" "$root/usr/lib/systemd/user/leasewatch-record@.service" ||
  fail "the recorder's unit does not run /usr/bin/leasewatch record %I"
# German (issue 51): the desktop entry, the AppStream metadata and the manual page.
grep -q '^Comment\[de\]=' "$root/usr/share/applications/$LW_APP_ID.desktop" || fail "the desktop file has no German comment"
grep -q '<summary xml:lang="de">' "$root/usr/share/metainfo/$LW_APP_ID.metainfo.xml" || fail "the metainfo has no German summary"
gzip -dc "$root/usr/share/man/de/man1/leasewatch.1.gz" | grep -q '^\.SH BESCHREIBUNG' || fail "the German manual page has no BESCHREIBUNG"
say "the .deb holds the programs, desktop file, metainfo, icons, man pages, copyright, changelog, the recorder's user unit, its alerting rules and dashboard"

tgz_list=$(tar -tzf "$tgz")
top="leasewatch-$LW_VERSION-linux-$(uname -m)"
for f in bin/leasewatch bin/leasewatch-sim "share/applications/$LW_APP_ID.desktop" share/doc/leasewatch/COPYING; do
  grep -qx "$top/$f" <<<"$tgz_list" || fail "the .tar.gz lacks $top/$f"
done
mkdir "$work/tgz"
tar -xzf "$tgz" -C "$work/tgz"
tgz_version=$(env -u DISPLAY -u WAYLAND_DISPLAY "$work/tgz/$top/bin/leasewatch" --version) ||
  fail "leasewatch --version from the unpacked .tar.gz failed"
grep -qF "$LW_VERSION" <<<"$tgz_version" || fail "the .tar.gz's leasewatch --version does not print $LW_VERSION"
say "the .tar.gz holds $top/{bin,share}; its bin/leasewatch --version: $tgz_version"

command -v lintian >/dev/null || fail "lintian is not installed (scripts/install-deps.sh installs it)"
say "lintian $(basename "$deb")"
lintian_rc=0
mkdir "$work/lintian-tmp" # lintian's man page check leaves man-db files in TMPDIR
TMPDIR="$work/lintian-tmp" lintian --fail-on error "$deb" >"$work/lintian.log" 2>&1 || lintian_rc=$?
sed 's/^/  /' "$work/lintian.log"
[ $lintian_rc -eq 0 ] || fail "lintian reports errors (exit $lintian_rc)"
if grep -q '^E: ' "$work/lintian.log"; then fail "lintian reports errors"; fi

command -v appstreamcli >/dev/null || fail "appstreamcli is not installed (package appstream)"
appstreamcli validate --no-net "$root/usr/share/metainfo/$LW_APP_ID.metainfo.xml" ||
  fail "appstreamcli validate --no-net rejects the metainfo"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/$LW_APP_ID.desktop" || fail "desktop-file-validate rejects the desktop file"
  say "desktop-file-validate: ok"
else
  say "desktop-file-validate not installed (package desktop-file-utils): desktop file not validated"
fi

# --- 3. Install --------------------------------------------------------------------------------
mode=extract
if [ -n "${LW_PKG_TEST_NO_INSTALL:-}" ]; then
  say "LW_PKG_TEST_NO_INSTALL is set: unpacking the .deb into $root instead of installing it"
elif [ "$(id -u)" -ne 0 ]; then
  say "not root: unpacking the .deb into $root instead of installing it"
elif ! command -v apt-get >/dev/null; then
  say "no apt-get: unpacking the .deb into $root instead of installing it"
elif dpkg-query -W -f='${Status}' leasewatch 2>/dev/null | grep -q 'install ok installed'; then
  say "leasewatch is already installed on this machine: leaving it alone, running from $root instead"
else
  mode=apt
fi

if [ $mode = apt ]; then
  dpkg-query -W -f='${Package}\n' | sort >"$work/before"
  say "apt-get install $deb"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" >"$work/apt.log" 2>&1; then
    cat "$work/apt.log"
    fail "apt-get install of the .deb failed"
  fi
  dpkg-query -W -f='${Package}\n' | sort >"$work/after"
  installed_by_us=$(comm -13 "$work/before" "$work/after" | tr '\n' ' ')
  say "installed: $installed_by_us"
  grep -qw leasewatch <<<"$installed_by_us" || fail "apt-get did not install leasewatch"
  [ "$(dpkg-query -W -f='${Version}' leasewatch)" = "$LW_VERSION" ] || fail "installed version is not $LW_VERSION"
  prefix=/usr
else
  prefix="$root/usr"
fi
exe="$prefix/bin/leasewatch"

for f in "$exe" "$prefix/bin/leasewatch-sim"; do
  if ldd "$f" | grep -q 'not found'; then
    ldd "$f"
    fail "$f has unresolved libraries"
  fi
done

# --- 4. Run the installed program ---------------------------------------------------------------
# Headless: no display, no platform override; a private HOME so nothing is left in root's.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
export XDG_CACHE_HOME="$work/home/.cache" XDG_STATE_HOME="$work/home/.local/state"
export XDG_RUNTIME_DIR="$work/runtime"
mkdir -p "$HOME"
mkdir -m 700 "$XDG_RUNTIME_DIR"
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM PGHOST PGPORT PGUSER PGDATABASE PGSERVICE || true

version_out=$("$exe" --version) || fail "$exe --version failed"
say "$exe --version: $version_out"
grep -Eq "(^|[^0-9.])${LW_VERSION//./\\.}([^0-9.]|$)" <<<"$version_out" ||
  fail "--version does not print $LW_VERSION"

command -v psql >/dev/null || fail "psql is not installed (package postgresql-client)"
db="lw_pkg_test_$$"
lease="pkg-test-lease-$$"
psql "$psql_base dbname=postgres" -qAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db" >/dev/null ||
  fail "could not create database $db on the test cluster ($LW_TEST_CLUSTER_DIR)"
psql "$psql_base dbname=$db" -qAt -v ON_ERROR_STOP=1 >/dev/null <<SQL || fail "could not create the leases table"
CREATE TABLE leases (name text PRIMARY KEY, holder text, taken_at timestamptz, expires_at timestamptz);
INSERT INTO leases VALUES ('$lease', 'packaging-test@localhost', now(), now() + interval '10 minutes');
SQL
dsn="$psql_base dbname=$db"

say "$exe snapshot \"$dsn\" --json"
snap_rc=0
timeout 120 "$exe" snapshot "$dsn" --json >"$work/snapshot.json" 2>"$work/snapshot.err" || snap_rc=$?
sed 's/^/  /' "$work/snapshot.json" | head -60
sed 's/^/  stderr: /' "$work/snapshot.err"
[ $snap_rc -eq 0 ] || fail "snapshot exited with $snap_rc"
if command -v jq >/dev/null; then
  jq -e --arg name "$lease" '(.leases | type == "object") and ([.leases.rows[]?.name] | index($name) != null)' \
    "$work/snapshot.json" >/dev/null || fail "snapshot JSON lacks a leases object listing $lease"
elif command -v python3 >/dev/null; then
  python3 - "$work/snapshot.json" "$lease" <<'PY' || fail "snapshot JSON lacks a leases object listing $lease"
import json, sys
doc = json.load(open(sys.argv[1]))
names = [r.get("name") for r in doc["leases"].get("rows", [])]
sys.exit(0 if sys.argv[2] in names else 1)
PY
else
  if ! grep -q '"leases"' "$work/snapshot.json" || ! grep -q "\"$lease\"" "$work/snapshot.json"; then
    fail "snapshot output lacks \"leases\" or $lease"
  fi
fi
say "snapshot: JSON with the lease $lease"

# The window, offscreen, for a few seconds: it must still be running (no missing platform plugin,
# no missing QSQLITE driver for the history store) when it is asked to quit.
say "starting the window offscreen for 5 s"
gui_rc=0
QT_QPA_PLATFORM=offscreen timeout -s TERM -k 10 5 "$exe" "$dsn" >"$work/gui.log" 2>&1 || gui_rc=$?
sed 's/^/  /' "$work/gui.log" | head -40
if grep -Eiq 'could not (find|load) the Qt platform plugin|driver not loaded' "$work/gui.log"; then
  fail "the installed program misses a Qt plugin (see above)"
fi
case $gui_rc in
  0 | 124) say "window: ran until asked to quit" ;;
  *) fail "the window exited with $gui_rc before it was asked to quit" ;;
esac

say "all packaging checks passed (mode: $mode)"
