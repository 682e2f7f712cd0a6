#!/bin/sh
# Regenerates the committed icon renders from resources/icons/leasewatch.svg:
#   resources/icons/png/leasewatch-N.png  (N = 16 22 24 32 48 64 128 256: hicolor sizes, Linux)
#   resources/icons/leasewatch.ico        (Windows: installer and .exe icon)
#   resources/icons/leasewatch.icns       (macOS: app bundle icon)
# Needs librsvg2-bin (rsvg-convert), imagemagick (convert) and icnsutils (png2icns). Not part of the
# build: the renders are committed so that a build needs none of these tools.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)/resources/icons
svg=$here/leasewatch.svg
convert=/usr/bin/convert   # ImageMagick's; anything else named convert on PATH may not be it
mkdir -p "$here/png"
for n in 16 22 24 32 48 64 128 256; do
  rsvg-convert -w "$n" -h "$n" "$svg" -o "$here/png/leasewatch-$n.png"
done
set --
for n in 16 24 32 48 64 128 256; do set -- "$@" "$here/png/leasewatch-$n.png"; done
"$convert" "$@" "$here/leasewatch.ico"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rsvg-convert -w 512 -h 512 "$svg" -o "$tmp/leasewatch-512.png"
set --
for n in 16 32 48 128 256; do set -- "$@" "$here/png/leasewatch-$n.png"; done
png2icns "$here/leasewatch.icns" "$@" "$tmp/leasewatch-512.png" >/dev/null
echo "icons rendered into $here"
