#!/usr/bin/env bash
# `npm test` (after the build): the unit and integration projects, and beside them the
# at-model project (the files that run real agent CLIs: WAITING_FILES in vitest.config.ts).
# Those files spend their minutes mostly waiting — on the agents' start, on the model's held
# turns — so they run in a vitest process of their own next to the rest instead of after it. Its output is
# printed when both are done; the closing line adds both up. Exits non-zero if either failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p .ci
rm -f .vitest-summary.at-model .vitest-summary.integration+unit
npx vitest run --project at-model </dev/null >.ci/at-model.log 2>&1 &
at_model=$!
npx vitest run --project unit --project integration "$@"
main_status=$?
wait "$at_model"
at_model_status=$?
echo
echo "--- the at-model project (.ci/at-model.log) ---"
cat .ci/at-model.log
passed=0 failed=0 skipped=0
for label in integration+unit at-model; do
  file=".vitest-summary.$label"
  if [[ ! -s $file ]]; then
    echo "vitest ($label) wrote no $file."
    failed=$((failed + 1))
    continue
  fi
  read -r p _ f _ s _ <<<"$(tr -d ',' <"$file")"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
line="$passed passed, $failed failed, $skipped skipped"
echo "$line"
echo "$line" >.vitest-summary.test
[[ $main_status -eq 0 && $at_model_status -eq 0 && $failed -eq 0 ]]
