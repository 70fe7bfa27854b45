#!/bin/sh
# Leaves a daemon behind (a new session, a double fork, SIGHUP and SIGTERM
# ignored), then plays N for ever. The daemon's command line holds the
# marker "$1-daemon".
( setsid sh -c 'trap "" HUP TERM; while :; do sleep 1; done' "$1-daemon" </dev/null >/dev/null 2>&1 & )
while read -r line; do
    echo N
done
