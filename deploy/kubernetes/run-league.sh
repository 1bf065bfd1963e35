#!/bin/bash
# Runs a league on Kubernetes: the build Job, then the shards (the Indexed Job), then the merge,
# each applied once the one before has ended. It stops with an error when the build Job fails
# (a `kubectl wait` for the condition Complete alone waits for a failed Job until its timeout), and
# merges anyway when a slice failed (the merge lists the missing matches and fails, exit 2 of
# this script). See docs/scale-out.md.
#
#   deploy/kubernetes/run-league.sh [build|league|merge]
#
# build (the default) runs all three; league runs the shards again (each resumes its slice)
# and the merge; merge, the merge alone. Kubernetes runs no Job again that exists: the Jobs
# run here are deleted first (a running one's pods with it).
# KUBECTL names kubectl with its options (default `kubectl`; `kubectl --namespace course`);
# BUILD_TIMEOUT, LEAGUE_TIMEOUT and MERGE_TIMEOUT (seconds: 2 h, 48 h, 1 h) bound each wait;
# POLL_SECONDS (10) is how often the Jobs are looked at.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
read -r -a KUBECTL <<<"${KUBECTL:-kubectl}"
POLL=${POLL_SECONDS:-10}
FROM=${1:-build}
case "$FROM" in
  build | league | merge) ;;
  *)
    echo "usage: $0 [build|league|merge]" >&2
    exit 64
    ;;
esac

# How Job $1 ended: prints Complete or Failed once it has (its conditions True), waiting up to
# $2 seconds; fails, saying so, when it has not ended by then.
ended() {
  local job=$1 timeout=$2 start=$SECONDS state
  while :; do
    # (Kubernetes 1.31 and later add SuccessCriteriaMet and FailureTarget first: not the end.)
    state=" $("${KUBECTL[@]}" get job "$job" -o jsonpath='{.status.conditions[?(@.status=="True")].type}' || true) "
    case "$state" in
      *" Failed "*)
        echo Failed
        return 0
        ;;
      *" Complete "*)
        echo Complete
        return 0
        ;;
    esac
    if ((SECONDS - start >= timeout)); then
      echo "run-league: job/$job has not ended after ${timeout}s (kubectl get job $job; kubectl logs job/$job)" >&2
      return 1
    fi
    sleep "$POLL"
  done
}

start() {
  "${KUBECTL[@]}" delete job "$1" --ignore-not-found
  "${KUBECTL[@]}" apply -f "$HERE/$2"
}

if [ "$FROM" = build ]; then
  start arena-build build-job.yaml
  state=$(ended arena-build "${BUILD_TIMEOUT:-7200}") # (a timeout ends this script)
  if [ "$state" = Failed ]; then
    echo "run-league: job/arena-build failed: the league was not built, no shard is started. Its log's end:" >&2
    "${KUBECTL[@]}" logs job/arena-build --tail=40 >&2 || true
    exit 1
  fi
fi
if [ "$FROM" != merge ]; then
  start arena-league league-job.yaml
  state=$(ended arena-league "${LEAGUE_TIMEOUT:-172800}") # (a timeout ends this script)
  if [ "$state" = Failed ]; then
    echo "run-league: job/arena-league failed (a slice failed on every retry): merging what the shards played;" \
      "the merge lists what is missing" >&2
  fi
fi
start arena-merge merge-job.yaml
state=$(ended arena-merge "${MERGE_TIMEOUT:-3600}")
if [ "$state" = Failed ]; then
  echo "run-league: job/arena-merge failed: the league is not complete (or the merge could not run). Its log's end:" >&2
  "${KUBECTL[@]}" logs job/arena-merge --tail=40 >&2 || true
  exit 2
fi
"${KUBECTL[@]}" logs job/arena-merge --tail=40 || true
echo "run-league: the league is merged"
