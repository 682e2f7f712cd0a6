#!/usr/bin/env bash
# First contact (issue 23): everything this build used and every program the tests run must come
# from a package that scripts/install-deps.sh installs, or from the recursive Depends closure of
# its list. A machine that had a package installed by hand (libqt6opengl6-dev, say) builds and
# passes either way; this test reads what the build actually used and fails on such a machine too.
#
# What the build used, read from the build's own files:
#   - the CMake package configs it loaded (CMakeCache.txt's *_DIR entries);
#   - every header any object was compiled with (ninja's dependency log, `ninja -t deps`);
#   - every library on a link line (`ninja -t commands`: absolute paths and -l names);
#   - the compiler and the build tool.
# Each file is mapped to its package with `dpkg -S`. A file under /usr that no package owns came
# from a hand install: that fails too.
#
# env: LW_SOURCE_DIR, LW_BINARY_DIR (set by ctest); LW_DEPS_SCRIPT overrides the list's script.
set -uo pipefail

src=${LW_SOURCE_DIR:?}
bin=${LW_BINARY_DIR:?}
deps_script=${LW_DEPS_SCRIPT:-$src/scripts/install-deps.sh}
fail() { echo "dependency_closure: $*" >&2; exit 1; }

command -v dpkg-query >/dev/null || { echo "dependency_closure: not a Debian system (no dpkg): skipped"; exit 77; }
command -v apt-cache >/dev/null || fail "apt-cache is missing"
[ -f "$bin/build.ninja" ] || fail "$bin is not a Ninja build tree (the presets use Ninja)"
command -v ninja >/dev/null || fail "ninja is missing"

# --- The list, exactly as install-deps.sh has it for this release ---------------------------------
mapfile -t listed < <(bash "$deps_script" --list)
[ ${#listed[@]} -gt 0 ] || fail "$deps_script --list printed no packages"
# install-deps.sh asks dpkg whether each name is installed: a virtual name never is, so it would
# run apt-get every time (and a typo would go unnoticed). Every name must be a real package.
for p in "${listed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    fail "listed package '$p' is not an installed real package (a virtual name or a typo?): run scripts/install-deps.sh, or list the real package that provides it"
done

# Its closure: the listed packages and everything they depend on, recursively (Depends and
# Pre-Depends; no Recommends: install-deps.sh installs with --no-install-recommends). Virtual
# names are resolved to the installed packages providing them. --installed: this machine's
# package status is enough, no package lists needed.
closure=$(mktemp)
trap 'rm -f "$closure" "$closure".*' EXIT
apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances "${listed[@]}" 2>"$closure.err" |
  sed -n 's/^\([^ <][^ ]*\)$/\1/p; s/^<\(.*\)>$/\1/p' | sed 's/:[a-z0-9]*$//' >"$closure.raw"
# The base system every Debian root has (debootstrap --variant=minbase: Essential and Priority
# required), e.g. util-linux's flock, apt's apt-cache.
dpkg-query -W -f='${Package} ${Essential} ${Priority}\n' | awk '$2 == "yes" || $3 == "required" { print $1 }' >>"$closure.raw"
sort -u "$closure.raw" >"$closure"
grep -qxF "${listed[0]}" "$closure" || fail "apt-cache depends gave no closure: $(head -3 "$closure.err")"

# --- What the build used ---------------------------------------------------------------------------
used=$(mktemp)
{
  # Package configs that CMake loaded.
  sed -n 's/^[A-Za-z0-9_]*_DIR:PATH=\(\/.*\)$/\1/p' "$bin/CMakeCache.txt" | while read -r d; do
    [ -d "$d" ] && ls "$d"/*[Cc]onfig.cmake 2>/dev/null | head -1
  done
  # The compiler and the build tool.
  sed -n 's/^CMAKE_\(CXX_COMPILER\|MAKE_PROGRAM\):FILEPATH=\(\/.*\)$/\2/p' "$bin/CMakeCache.txt"
  # Headers, from the dependency log of every object built.
  ninja -C "$bin" -t deps 2>/dev/null | sed -n 's/^    \(\/.*\)$/\1/p'
  # Libraries on the link lines.
  ninja -C "$bin" -t commands 2>/dev/null | grep -E ' -o [^ ]+ ' | tr ' ' '\n' | grep -E '^(/[^ ]+\.so(\.[0-9.]+)?|/[^ ]+\.a|-l[A-Za-z0-9_+.-]+)$' |
    while read -r w; do
      case "$w" in
        -l*) f=$(g++ -print-file-name="lib${w#-l}.so"); [ "$f" != "lib${w#-l}.so" ] && echo "$f" ;;
        *) echo "$w" ;;
      esac
    done
} | grep -v -e "^$src/" -e "^$bin/" -e '^/tmp/' | sort -u >"$used"
[ -s "$used" ] || fail "found nothing the build used in $bin (is it built?)"

# --- Programs the tests and scripts run -----------------------------------------------------------
# Named here, plus whatever the sources look up with findExecutable(…) or `command -v`.
programs=(cmake ninja g++ pkg-config git
          initdb pg_ctl postgres psql pgbouncer
          xvfb-run Xvfb xauth faketime openssl
          dpkg-deb lintian appstreamcli desktop-file-validate jq file gzip flock)
# node and npm are optional: only tst_real_libraries runs them, and it skips without them.
mapfile -t -O ${#programs[@]} programs < <(
  grep -rhoE 'findExecutable\((QStringLiteral\()?"[A-Za-z0-9_.+-]+"|command -v [A-Za-z0-9_.+-]+' \
    "$src/tests" "$src/scripts" "$src/models" "$src/app" 2>/dev/null |
    sed -E 's/.*"([^"]+)"$/\1/; s/^command -v //' | grep -vx -e python3 -e flock -e apt-get -e debootstrap -e node -e npm | sort -u)
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
: >"$used.programs"
for p in $(printf '%s\n' "${programs[@]}" | sort -u); do
  path=$(command -v "$p" 2>/dev/null || true)
  [ -z "$path" ] && [ -n "$pgbin" ] && [ -x "$pgbin/$p" ] && path=$pgbin/$p
  if [ -z "$path" ]; then
    echo "dependency_closure: program '$p' that the tests or scripts run is not installed" >&2
    echo "MISSING $p" >>"$used.programs"
    continue
  fi
  real=$(readlink -f "$path")
  echo "$real $p" >>"$used.programs"
  echo "$real" >>"$used"
done
sort -u -o "$used" "$used"

# --- File → package -------------------------------------------------------------------------------
# dpkg -S knows paths as packaged: /lib/… and /usr/lib/… are one directory on a merged /usr, and
# alternatives (/usr/bin/c++) are symlinks into /etc/alternatives.
owners=$(mktemp)
candidates() {
  local f=$1 r
  echo "$f"
  r=$(readlink -f "$f" 2>/dev/null) && [ "$r" != "$f" ] && echo "$r"
  for x in "$f" "$r"; do
    case "$x" in
      /usr/lib/*|/usr/lib64/*|/usr/bin/*|/usr/sbin/*) echo "${x#/usr}" ;;
      /lib/*|/lib64/*|/bin/*|/sbin/*) echo "/usr$x" ;;
    esac
  done
}
# One dpkg -S for every candidate path at once (it reads every package's file list per call).
while read -r f; do candidates "$f" | sed "s|\$|	$f|"; done <"$used" >"$owners.cand"
cut -f1 "$owners.cand" | sort -u | xargs -d '\n' dpkg-query -S 2>/dev/null |
  awk '{ i = index($0, ": /"); if (i > 0 && $0 !~ /^diversion /) print substr($0, i + 2) "\t" substr($0, 1, i - 1) }' >"$owners.map"
problems=0
declare -A pkg_of reported
while IFS=$'\t' read -r path pkgs; do pkg_of[$path]=$pkgs; done <"$owners.map"
while read -r f; do
  found=
  while read -r c; do
    if [ -n "${pkg_of[$c]:-}" ]; then found=${pkg_of[$c]}; break; fi
  done < <(candidates "$f")
  if [ -z "$found" ]; then
    case "$f" in
      /usr/*|/lib/*|/bin/*|/sbin/*|/opt/*)
        echo "dependency_closure: $f is used but no Debian package owns it (installed by hand?)" >&2
        problems=$((problems + 1)) ;;
    esac
    continue
  fi
  ok=
  for p in ${found//,/ }; do
    p=${p%%:*}
    grep -qxF "$p" "$closure" && { ok=1; break; }
  done
  if [ -z "$ok" ]; then
    p=${found%%,*}; p=${p%%:*}
    [ -n "${reported[$p]:-}" ] && continue
    reported[$p]=1
    what=$(grep -F "$f " "$used.programs" | cut -d' ' -f2)
    echo "dependency_closure: package $p is used (${what:+program $what, }$f) but is neither in scripts/install-deps.sh nor pulled in by it: add it to the list" >&2
    problems=$((problems + 1))
  fi
done <"$used"
grep -q '^MISSING ' "$used.programs" && problems=$((problems + $(grep -c '^MISSING ' "$used.programs")))

n_files=$(wc -l <"$used")
n_closure=$(wc -l <"$closure")
if [ "$problems" -gt 0 ]; then
  echo "dependency_closure: $problems problem(s) among $n_files files and programs used; closure of ${#listed[@]} listed packages: $n_closure packages" >&2
  exit 1
fi
echo "dependency_closure: all $n_files files and programs used come from the ${#listed[@]} listed packages' closure ($n_closure packages)"
