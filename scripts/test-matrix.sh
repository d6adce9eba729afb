#!/usr/bin/env bash
# The version matrix, as a focused subset (`npm test` runs everything on the default tmux,
# Node and the pinned agents; this runs what depends on the versions on the others):
#
#   tmux     each version scripts/install-test-tmux.sh provides besides the machine's own:
#            the tmux-facing core (typing byte for byte over both transports, wait, expect,
#            --until exit/regex/stable, doctor, a watcher line) and one Claude Code scenario
#            at the model; paired with the Node lines (the oldest tmux with Node 22, the
#            newest with Node 24: each pair once, not every tmux on every Node)
#   agents   each agent CLI whose newest release differs from the pinned one
#            (scripts/install-agents.sh --newest): every at-model scenario
#   node     Node 24 and 22, from the npm registry: the unit tests (and the tmux-facing
#            core on Node 24 when the tmux part is not run)
#
#   bash scripts/test-matrix.sh [tmux|agents|node]...   # default: all three
#
# Each run writes .vitest-summary.matrix-<what> (added up by .ci/run) and its log in
# .ci/matrix-<what>.log; with NUDGE_VERIFIED_DIR set, what passed goes into the
# verified-versions table (npm run verified). Needs `npm run build` first. Exits 1 if a run
# failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The tmux-facing core: typing byte for byte over both transports (with --until exit, regex
# and stable), wait, expect, the mode guard (copy mode entered mid-typing: it rests on tmux
# dropping a command list after `set-option -o` fails, and on if-shell -F running at once),
# the pane options a status bar reads (#{@nudge-state} expanded by display -p); a busy pane
# followed by the format its wait needs (tmux's own search #{C/r:…}, #{T;l:%s} for a lull, the
# pattern translations run through tmux's regcomp); every key name a profile may hold pressed
# into a raw program, typing no text; the asker proven by its process tree (a pane's nudge with
# $TMUX_PANE unset, forged, or orphaned with the pane's terminal: no other session reached);
# then, by name, --until exit in a shell, doctor inside a pane (what it says of this tmux), a
# watcher line in a shell (a comment; a command with --allow-commands), and the status bar a
# real client draws from #{@nudge-status} (a server option in status-right: found, styled, never
# run, redrawn when it changes); a notice of DELs, and one the pane's program rewrote into a
# command (taken back off the line).
CORE=(test/integration/transports.test.ts test/integration/wait-command.test.ts
  test/integration/expect.test.ts test/integration/copy-mode.test.ts
  test/integration/pane-status.test.ts test/integration/control-activity.test.ts
  test/integration/busy-pane.test.ts test/integration/tmux-search.test.ts
  test/integration/key-names.test.ts test/integration/proven-asker.test.ts)
CORE_NAMED=(test/integration/until.test.ts test/integration/doctor.test.ts
  test/integration/watch.test.ts test/integration/status-line.test.ts
  test/integration/shell-truth.test.ts)
CORE_NAMES='^(submit --until exit|nudge doctor inside a pane|nudge watch the line in a shell pane|status-line and next the status bar shows|a shell pane a notice (of DELs|the pane.s program rewrote))'
AGENTS_DIR=${NUDGE_AGENTS_DIR:-$HOME/.cache/tmux-nudge-agents}
NODE_DIR=${NUDGE_NODE_DIR:-$HOME/.cache/tmux-nudge-node}
mkdir -p .ci
status=0

# run LABEL [env…] -- vitest arguments…
run() {
  local label=$1
  shift
  local envs=()
  while [[ $1 != -- ]]; do
    envs+=("$1")
    shift
  done
  shift
  local began=$SECONDS
  rm -f ".vitest-summary.matrix-$label" ".vitest-failures.matrix-$label"
  env "${envs[@]}" NUDGE_SUMMARY_LABEL="matrix-$label" npx vitest run "$@" </dev/null >".ci/matrix-$label.log" 2>&1 ||
    status=1
  # One line per run, as it ends (the lanes run side by side): its count and its seconds.
  echo "test-matrix: $label: $(tail -n 1 ".ci/matrix-$label.log") ($((SECONDS - began)) s)"
}

# One tmux version's runs, in order, with its tmux (and its Node line's node, when it has one)
# first on the PATH; its own exit status (1 if any failed).
tmux_version() {
  local version=$1 path=$2
  run "tmux-$version" "PATH=$path" -- --project integration "${CORE[@]}"
  run "tmux-$version-named" "PATH=$path" -- --project integration "${CORE_NAMED[@]}" \
    -t "$CORE_NAMES"
  # The fence behind the pane lock rests on two tmux behaviours (an unset option's show
  # fails; a command list stops at a failing command): proven on each version.
  run "tmux-$version-fence" "PATH=$path" -- --project faults test/faults/fence.test.ts
  # The server's waiter killed, stopped and its server killed under it (issue 44).
  run "tmux-$version-waiter" "PATH=$path" -- --project faults test/faults/waiter.test.ts \
    test/faults/pane-pause.test.ts
  run "tmux-$version-claude" "PATH=$path" -- --project at-model \
    test/integration/agents-at-model.test.ts -t '^claude \(default approvals\) self-execution'
  return "$status"
}

# The Node lines the tmux versions are paired with, oldest first.
NODE_LINES=(22 24)

# The folder of Node line $1's node (installed on first use), or nothing if it cannot be had.
node_dir() {
  local bin
  bin=$(bash scripts/install-test-node.sh "$1") || {
    echo "test-matrix: Node $1 could not be installed" >&2
    return 1
  }
  dirname "$bin"
}

# The versions side by side (each on private tmux servers of its own binary): the tests wait
# on signals, not time, and the machine's two cores are mostly idle while tmux answers.
# The versions besides the machine's own come oldest first: each takes the next Node line.
matrix_tmux() {
  local stable version path pids=() line=0 node
  stable=$(tmux -V | awk '{print $2}')
  while read -r version path; do
    [[ $version == "$stable" ]] && continue
    node=''
    if ((line < ${#NODE_LINES[@]})); then
      node=$(node_dir "${NODE_LINES[line]}") || status=1
      echo "test-matrix: tmux $version with Node ${NODE_LINES[line]}"
      line=$((line + 1))
    fi
    tmux_version "$version" "$(dirname "$path")${node:+:$node}:$PATH" &
    pids+=($!)
  done < <(bash scripts/install-test-tmux.sh)
  for pid in ${pids[@]+"${pids[@]}"}; do
    wait "$pid" || status=1
  done
}

matrix_agents() {
  local line agent files
  # "<agent> <pinned> <newest>" for each agent whose newest release is not the pinned one.
  while read -r agent _ _; do
    [[ -n $agent ]] || continue
    # The stall watchdog's held stream only (its --on-stall continue:2 runs on the pinned
    # release in npm test: it tests nudge's loop, not the agent's screens), to keep CI's time.
    # Every scenario in the default mode (for Claude Code: auto, and manual too); with
    # everything approved, the scenarios where approval decides (the model's own call).
    # The three agents with code of their own, or one of the agents of data alone: only the
    # files that hold its tests (a file with none fails vitest).
    files=(test/integration/agents-at-model.test.ts test/integration/install-agents.test.ts
      test/integration/blocked-at-model.test.ts test/integration/many-sessions-at-model.test.ts)
    case $agent in
      claude | codex) files+=(test/integration/doors-at-model.test.ts
        test/integration/stall-at-model.test.ts test/integration/recover-at-model.test.ts) ;;
      gemini) ;;
      *) files=(test/integration/data-agents-at-model.test.ts
        test/integration/data-agents-2-at-model.test.ts test/integration/install-newer-agents.test.ts
        test/integration/blocked-at-model.test.ts) ;;
    esac
    # Done means settled: a background shell holds the job (issue 60).
    [[ $agent == claude || $agent == codex || $agent == gemini ]] && files+=(test/integration/settled-at-model.test.ts)
    run "newest-$agent" "NUDGE_AGENTS_DIR=$AGENTS_DIR/newest" -- --project integration \
      --project at-model "${files[@]}" \
      -t "^($agent \((default|manual) approvals\)|$agent \(all approvals\) (self-execution|a build in another pane)|nudge install $agent|$agent stops at|$agent asks the person|$agent door|$agent: the stall watchdog a model that holds|nudge recover: $agent|$agent: many sessions|$agent settles)"
  done < <(bash scripts/install-agents.sh --newest 2>/dev/null | grep '^newer ' | cut -d' ' -f2-)
}

matrix_node() {
  local major dir
  for major in 24 22; do
    dir=$(node_dir "$major") || {
      status=1
      continue
    }
    run "node-$major-unit" "PATH=$dir:$PATH" -- --project unit
    # The core on Node 24 runs with the newest tmux (matrix_tmux) when that part runs.
    if [[ $major == 24 ]] && ! want tmux; then
      run "node-$major" "PATH=$dir:$PATH" -- --project integration "${CORE[@]}"
    fi
  done
  return 0
}

parts=("$@")
((${#parts[@]})) || parts=(tmux agents node)
for part in "${parts[@]}"; do
  case $part in
    tmux | agents | node) ;;
    *)
      echo "test-matrix: unknown part '$part'; choose from tmux, agents, node." >&2
      exit 2
      ;;
  esac
done
want() { [[ " ${parts[*]} " == *" $1 "* ]]; }

if want agents; then
  # The tmux versions' and the Node lines' runs, one after the other, beside the agents'
  # (which spend their minutes waiting on the agents and the model's held turns).
  (
    if want tmux; then matrix_tmux; fi
    if want node; then matrix_node; fi
    exit "$status"
  ) &
  others_pid=$!
  matrix_agents
  wait "$others_pid" || status=1
else
  if want tmux; then matrix_tmux; fi
  if want node; then matrix_node; fi
fi
exit $status
