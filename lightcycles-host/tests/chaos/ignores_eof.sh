#!/bin/sh
# Plays N, and when its input ends does not stop: it and a child of its
# own (whose command line holds "$1-child") keep running.
sh -c 'trap "" HUP TERM; while :; do sleep 1; done' "$1-child" </dev/null >/dev/null 2>&1 &
while read -r line; do
    echo N
done
trap '' TERM
while :; do sleep 1; done
