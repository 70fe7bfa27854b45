#!/bin/bash
# Queues a LightCycles tournament on Slurm from the current folder (where
# the bots are): an array of SHARDS shard jobs, then the merge, which waits
# for all of them to end well.
#   SHARDS=16 GAMES=20000 BOTS="new=./new/main.py old=./old/main.py" path/to/submit.sh
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SHARDS="${SHARDS:-8}"
mkdir -p shards   # the shards' logs and results go there
ARRAY=$(sbatch --parsable --export=ALL --array="0-$((SHARDS - 1))" "$HERE/tournament.sbatch")
sbatch --export=ALL --dependency="afterok:$ARRAY" "$HERE/merge.sbatch"
echo "queued the shards as job $ARRAY, and the merge after them"
