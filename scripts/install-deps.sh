#!/usr/bin/env bash
# Installs what Leasewatch needs to build, test and run its demo, from Debian's archive only.
# Idempotent and fast when everything is present (dpkg is asked first; apt runs only if needed).
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ pkg-config git
  # Qt 6 (Widgets, Sql + SQLite driver, Charts, Test) and libpq
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libqt6sql6-sqlite libgl-dev qt6-qpa-plugins
  libpq-dev
  # PostgreSQL 15 server for the tests and the demo (the tests start their own throwaway cluster)
  postgresql-15 postgresql-contrib pgbouncer
  # tests: offscreen/Xvfb screenshots, process tools, wall-clock skew, TLS certificates
  xvfb xauth procps faketime openssl postgresql-client
  # metrics tests: the real promtool and prometheus server
  prometheus
  # packaging (.deb via CPack) and its installation test
  dpkg-dev file gzip lintian appstream desktop-file-utils jq
)

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
