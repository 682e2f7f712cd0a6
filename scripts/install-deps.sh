#!/usr/bin/env bash
# Installs what Leasewatch needs to build, test and run its demo, from Debian's archive only.
# Idempotent and fast when everything is present (dpkg is asked first; apt runs only if needed).
# Debian 12 (bookworm) and 13 (trixie); `--list` prints this release's package names and exits.
set -euo pipefail

codename=
[ -r /etc/os-release ] && codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")

packages=(
  # build (ccache: CMakeLists.txt makes it the compiler launcher when it is installed)
  cmake ninja-build g++ pkg-config git ccache
  # Qt 6 (Widgets, Sql + SQLite driver, Charts, Test) and libpq
  qt6-base-dev qt6-charts-dev libqt6sql6-sqlite libgl-dev qt6-qpa-plugins
  # translations: lupdate/lrelease and their CMake package (qt_add_translations), Qt's own German
  qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
  libpq-dev
  # the release's own PostgreSQL server for the tests and the demo (15 on Debian 12, 17 on 13; the
  # tests start their own throwaway cluster); its contrib modules are in the server package
  postgresql pgbouncer
  # tests: offscreen/Xvfb screenshots, process tools, wall-clock skew, TLS certificates
  xvfb xauth procps faketime openssl postgresql-client
  # metrics tests: the real promtool and prometheus server
  prometheus
  # packaging (.deb via CPack) and its installation test
  dpkg-dev file gzip lintian appstream desktop-file-utils jq
)
# Names that are real packages on one release and virtual on another: dpkg never reports a
# virtual name installed, so listing one would run apt on every call (and fail as a user).
case "$codename" in
  bookworm) packages+=(libqt6opengl6-dev) ;; # from Debian 13 on, qt6-base-dev holds Qt6OpenGL
esac

if [ "${1:-}" = --list ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root (or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
