#!/usr/bin/env bash
# Install the real agent CLIs that the real-agent tests drive (Gemini CLI, Claude Code,
# Codex CLI, and the agents supported by a profile file alone: opencode, Qwen Code, Pi, GitHub
# Copilot CLI) into a cache folder — never as dependencies of this package.
#
#   bash scripts/install-agents.sh              # all of them
#   bash scripts/install-agents.sh claude codex # only these
#   bash scripts/install-agents.sh --newest     # also the newest release of each (npm view),
#                                               # where it is not the pinned one, into
#                                               # <cache>/newest/<agent>; prints a line
#                                               # "newer <agent> <pinned> <newest>" for each
#
# Where:   ${NUDGE_AGENTS_DIR:-$HOME/.cache/tmux-nudge-agents}/<agent>/node_modules/.bin/<bin>
# Which:   the versions pinned below; override one with e.g. NUDGE_CLAUDE_VERSION=2.1.330.
# Again:   safe to run again; an agent already installed at the wanted version is skipped.
# Failure: one CLI that fails to install is reported and the others are still installed;
#          the exit status is 1 only when none of the requested agents is usable.
#
# Each agent gets its own npm prefix so that installing (or failing to install) one never
# prunes or breaks another. Only the npm registry is needed. Runs on macOS's own bash 3.2 and
# without GNU tools (no `timeout`: see bounded below).
set -uo pipefail

# Versions known to run offline in a private tmux on Node 20 (see docs/agent-screens.md).
# Claude Code newer than 2.1.2xx declares engines.node >= 22; 2.1.197 runs on Node 20.
GEMINI_VERSION=${NUDGE_GEMINI_VERSION:-0.61.0}
CLAUDE_VERSION=${NUDGE_CLAUDE_VERSION:-2.1.197}
CODEX_VERSION=${NUDGE_CODEX_VERSION:-0.169.0}
# A native executable from the platform package (opencode-linux-x64), all on npm.
OPENCODE_VERSION=${NUDGE_OPENCODE_VERSION:-1.18.33}
QWEN_VERSION=${NUDGE_QWEN_VERSION:-0.24.4}
PI_VERSION=${NUDGE_PI_VERSION:-0.73.1}
# A native executable from the platform package (copilot-linux-x64), all on npm.
COPILOT_VERSION=${NUDGE_COPILOT_VERSION:-1.0.102}

AGENTS_DIR=${NUDGE_AGENTS_DIR:-${HOME}/.cache/tmux-nudge-agents}

say() { printf 'install-agents: %s\n' "$*"; }
die() {
  printf 'install-agents: %s\n' "$*" >&2
  exit 2
}

command -v npm >/dev/null 2>&1 || die "npm is not on PATH; install Node.js 20.19 or newer first."
command -v node >/dev/null 2>&1 || die "node is not on PATH; install Node.js 20.19 or newer first."

# agent -> package, version, bin name
spec() {
  case $1 in
    gemini) echo "@google/gemini-cli $GEMINI_VERSION gemini" ;;
    claude) echo "@anthropic-ai/claude-code $CLAUDE_VERSION claude" ;;
    codex) echo "@openai/codex $CODEX_VERSION codex" ;;
    opencode) echo "opencode-ai $OPENCODE_VERSION opencode" ;;
    qwen) echo "@qwen-code/qwen-code $QWEN_VERSION qwen" ;;
    pi) echo "@mariozechner/pi-coding-agent $PI_VERSION pi" ;;
    copilot) echo "@github/copilot $COPILOT_VERSION copilot" ;;
    *) return 1 ;;
  esac
}

# The version recorded in an installed package's package.json, or nothing.
installed_version() {
  local manifest=$1/node_modules/$2/package.json
  [[ -f $manifest ]] || return 0
  node -e 'try { console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).version ?? "") } catch {}' "$manifest"
}

# Run a command for at most $1 seconds: GNU timeout where there is one, else the command in the
# background and a sleeper that ends it (macOS has no timeout).
bounded() {
  local secs=$1
  shift
  if command -v timeout >/dev/null 2>&1; then
    timeout "$secs" "$@"
    return
  fi
  "$@" &
  local pid=$!
  (sleep "$secs" && kill "$pid" 2>/dev/null) &
  local sleeper=$!
  wait "$pid"
  local status=$?
  kill "$sleeper" 2>/dev/null
  return "$status"
}

# The CLI's own answer to --version, with a short bound; it must run offline. The first line
# that holds a version number, from stdout or stderr (Pi prints its version on stderr).
probe_version() {
  local bin=$1
  bounded 60 env DISABLE_AUTOUPDATER=1 NO_UPDATE_NOTIFIER=1 "$bin" --version 2>&1 |
    grep -m 1 -E '[0-9]+\.[0-9]+'
}

newest=''
if [[ ${1:-} == --newest ]]; then
  newest=1
  shift
fi
agents=("$@")
((${#agents[@]} > 0)) || agents=(gemini claude codex opencode qwen pi copilot)

mkdir -p "$AGENTS_DIR" || die "cannot create $AGENTS_DIR; set NUDGE_AGENTS_DIR to a writable folder."
say "cache folder: $AGENTS_DIR"

ok=()
failed=()
for agent in "${agents[@]}"; do
  spec "$agent" >/dev/null || die "unknown agent '$agent'; choose from gemini, claude, codex, opencode, qwen, pi, copilot."
done
for agent in "${agents[@]}"; do
  read -r pkg version bin <<<"$(spec "$agent")"
  prefix=$AGENTS_DIR/$agent
  bin_path=$prefix/node_modules/.bin/$bin
  have=$(installed_version "$prefix" "$pkg")
  if [[ $have == "$version" && -x $bin_path ]]; then
    say "$agent: $pkg@$version already installed, skipping"
  else
    say "$agent: installing $pkg@$version${have:+ (found $have)}"
    mkdir -p "$prefix"
    started=$SECONDS
    # --prefix with --no-save: no package.json is written in the cache folder and nothing
    # touches this repository's package.json or lockfile.
    if ! npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-update-notifier \
      --loglevel=error "$pkg@$version" </dev/null; then
      say "$agent: npm install $pkg@$version FAILED (the other agents are unaffected)"
      failed+=("$agent")
      continue
    fi
    say "$agent: installed in $((SECONDS - started))s"
  fi
  if [[ ! -x $bin_path ]]; then
    say "$agent: $bin_path is missing after the install"
    failed+=("$agent")
    continue
  fi
  reported=$(probe_version "$bin_path")
  if [[ -z $reported ]]; then
    say "$agent: '$bin_path --version' printed nothing; the CLI may not run on this machine"
    failed+=("$agent")
    continue
  fi
  ok+=("$agent")
  printf '%-7s %-28s %-18s %s\n' "$agent" "$pkg@$version" "$reported" "$bin_path"
done

# The newest releases, each beside the pinned one (the at-model scenarios run on both).
if [[ -n $newest ]]; then
  # ${a[@]+"${a[@]}"}: an empty array under set -u is an error in bash before 4.4.
  for agent in ${ok[@]+"${ok[@]}"}; do
    read -r pkg version bin <<<"$(spec "$agent")"
    latest=$(npm view "$pkg" version --no-update-notifier 2>/dev/null | tail -n 1)
    if [[ -z $latest ]]; then
      say "$agent: npm view $pkg version said nothing; the newest release is not tested"
      continue
    fi
    if [[ $latest == "$version" ]]; then
      say "$agent: the newest release is the pinned one ($version)"
      continue
    fi
    prefix=$AGENTS_DIR/newest/$agent
    if [[ $(installed_version "$prefix" "$pkg") != "$latest" ]]; then
      say "$agent: installing the newest release $pkg@$latest"
      mkdir -p "$prefix"
      npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-update-notifier \
        --loglevel=error "$pkg@$latest" </dev/null || {
        say "$agent: npm install $pkg@$latest FAILED"
        continue
      }
    fi
    [[ -n $(probe_version "$prefix/node_modules/.bin/$bin") ]] || {
      say "$agent: $pkg@$latest does not run here"
      continue
    }
    echo "newer $agent $version $latest"
  done
fi

if ((${#failed[@]} > 0)); then
  say "not usable: ${failed[*]} (tests for them are skipped)"
fi
if ((${#ok[@]} == 0)); then
  say "no agent CLI is usable"
  exit 1
fi
say "usable: ${ok[*]}"
