#!/bin/bash
# Runs a league on a Slurm cluster: builds the bots once, here (`arena build`), then submits
# the shards as one array job and the merge as a job that waits for all of them (afterany: it
# runs even when a shard failed, and then fails itself, listing the matches missing: run the
# failed tasks again, alone, as league.sbatch's header says, then merge.sbatch).
#
#   deploy/slurm/submit.sh CONFIG LEAGUE_DIR [SHARDS]
#
# LEAGUE_DIR must be on a file system the compute nodes share. ARENA names the arena binary
# (default: `arena` on PATH); SBATCH_ARGS adds options to both sbatch calls (partition,
# account); SLURM_WAIT=1 makes this script wait until the merge has ended and exit with its
# status (what tools/slurm-test does).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 CONFIG LEAGUE_DIR [SHARDS]" >&2
  exit 64
fi
CONFIG=$1
LEAGUE=$(realpath -m "$2")
SHARDS=${3:-4}
ARENA=${ARENA:-arena}
ARENA_SHARDS=$SHARDS
HERE=$(cd "$(dirname "$0")" && pwd)
# The jobs take these from the environment (sbatch passes it on).
export LEAGUE ARENA ARENA_SHARDS
"$ARENA" build "$CONFIG" --out "$LEAGUE"
mkdir -p "$LEAGUE/slurm"
# shellcheck disable=SC2086
ARRAY=$(sbatch --parsable ${SBATCH_ARGS:-} --array=1-"$SHARDS" --chdir="$LEAGUE" \
  --output="$LEAGUE/slurm/shard-%A_%a.out" "$HERE/league.sbatch")
ARRAY=${ARRAY%%;*}
echo "shards: job $ARRAY (array 1-$SHARDS)"
WAIT=()
if [ "${SLURM_WAIT:-0}" = 1 ]; then WAIT=(--wait); fi
# shellcheck disable=SC2086
sbatch --parsable ${SBATCH_ARGS:-} "${WAIT[@]}" --dependency=afterany:"$ARRAY" \
  --chdir="$LEAGUE" --output="$LEAGUE/slurm/merge-%j.out" "$HERE/merge.sbatch"
