#!/bin/sh
# Instructions per call of the core's hot paths, counted by callgrind: the
# figures of docs/performance.md that do not move with the machine's load.
#
#   lightcycles-core/benches/callgrind.sh [WHAT…]
#
# Builds the criterion binary of lightcycles-core (release), runs each
# measure `--count WHAT TIMES` under callgrind with two values of TIMES and
# prints a Markdown table of (second total - first total) / (difference of
# TIMES): the cost of one call, free of the setup. Without arguments it
# counts every measure. Needs valgrind (apt-get install valgrind).
set -eu

cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

bin=$(cargo bench -p lightcycles-core --bench engines --no-run --message-format=json 2>/dev/null \
    | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[ -x "$bin" ] || { echo "callgrind.sh: could not build the engines bench" >&2; exit 1; }

if [ "$#" -eq 0 ]; then
    set -- step lean-step copy-step lean-copy-step \
        reachable-early lean-reachable-early voronoi-early lean-voronoi-early \
        reachable-mid lean-reachable-mid voronoi-mid lean-voronoi-mid \
        voronoi-four lean-voronoi-four lean-voronoi-four-ahead
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Total instructions of one run of `--count WHAT TIMES`.
total() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" --count "$1" "$2" 2>"$out/log" >/dev/null
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log"
}

low=200
high=2200
echo "| measure (\`--count WHAT\`) | instructions per call |"
echo "| --- | ---: |"
for what in "$@"; do
    a=$(total "$what" "$low")
    b=$(total "$what" "$high")
    echo "| $what | $(( (b - a) / (high - low) )) |"
done
