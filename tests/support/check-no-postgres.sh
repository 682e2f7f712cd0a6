#!/bin/sh
# Fails if a postmaster whose data directory lies below $1 is still running (the suite's cluster
# or a private cluster of a test): after the fixture's cleanup nothing may be left behind.
dir="$1"
left=$(pgrep -af "bin/postgres -D $dir" || true)
if [ -n "$left" ]; then
    echo "postgres left running:"
    echo "$left"
    exit 1
fi
echo "no postgres left behind under $dir"
