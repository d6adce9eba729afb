#!/usr/bin/env bash
# Run a command beside a CPU hog: one busy loop per core (`yes > /dev/null`), for as long as
# the command runs, then the loops are ended (by their pids). What a loaded machine does to
# timing, on purpose: CI runs the fault suite this way (issue 29), and
#   bash scripts/with-cpu-hog.sh npm run test:faults
# reproduces it. Exits with the command's status.
set -uo pipefail
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2)
pids=()
stop() { [[ ${#pids[@]} -gt 0 ]] && kill "${pids[@]}" 2>/dev/null; pids=(); }
trap stop EXIT INT TERM
for ((i = 0; i < cores; i++)); do
  yes >/dev/null &
  pids+=($!)
done
echo "with-cpu-hog: $cores busy loops beside: $*"
"$@"
status=$?
stop
exit "$status"
