#!/usr/bin/env bash
# One-command setup for a fresh machine: tmux (>= 3.2), Node.js (>= 20.19), and the npm
# dependencies from package-lock.json. Safe to run again: it installs only what is missing
# and `npm ci` puts node_modules back exactly as the lockfile says.
#
#   bash scripts/setup.sh
#
# Installs tmux when it is missing: with Homebrew on macOS, with apt-get elsewhere (directly as
# root, as CI does, through sudo otherwise). Without either it says what to install and stops.
# Runs on macOS's own bash 3.2 and without GNU tools.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'setup: %s\n' "$*"; }
die() {
  printf 'setup: %s\n' "$*" >&2
  exit 1
}

# --- tmux ---------------------------------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1 && [[ $(uname -s) == Darwin ]]; then
  command -v brew >/dev/null 2>&1 ||
    die "tmux is missing and Homebrew is not installed; install Homebrew (https://brew.sh) or tmux 3.2 or newer some other way, then run this again."
  say "installing tmux with Homebrew"
  brew install tmux || die "'brew install tmux' failed; install tmux 3.2 or newer, then run this again."
  command -v tmux >/dev/null 2>&1 || die "brew installed tmux but it is not on PATH; open a new terminal (brew shellenv) and run this again."
fi
if ! command -v tmux >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 ||
    die "tmux is missing and there is no apt-get here; install tmux 3.2 or newer with your package manager (e.g. 'dnf install tmux'), then run this again."
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
    say "tmux is missing; installing it with 'sudo apt-get' (sudo may ask for your password)"
  else
    die "tmux is missing and this user is not root and has no sudo; as root run 'apt-get update && apt-get install -y tmux', then run this again."
  fi
  say "installing tmux with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  # ${a[@]+"${a[@]}"}: an empty array under set -u is an error in bash before 4.4.
  ${as_root[@]+"${as_root[@]}"} apt-get update -qq
  ${as_root[@]+"${as_root[@]}"} apt-get install -y -qq --no-install-recommends tmux >/dev/null
  command -v tmux >/dev/null 2>&1 || die "apt-get ran but tmux is still not on PATH."
fi
# "tmux 3.3a", "tmux next-3.4", "tmux master"
tmux_version=$(tmux -V 2>&1) || die "tmux is on PATH but 'tmux -V' failed: $tmux_version"
if [[ $tmux_version =~ ([0-9]+)\.([0-9]+) ]]; then
  major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}
  if ((major < 3 || (major == 3 && minor < 2))); then
    die "$tmux_version is too old; nudge needs tmux 3.2 or newer (for 'copy-mode -q'). Upgrade tmux and run this again."
  fi
fi
say "$tmux_version"

# --- node ---------------------------------------------------------------------------------
command -v node >/dev/null 2>&1 ||
  die "node is not installed; install Node.js 20.19 or newer (https://nodejs.org or your package manager), then run this again."
node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  process.exit(major > 20 || (major === 20 && minor >= 19) ? 0 : 1);
' || die "node $(node -v) is too old; nudge needs Node.js 20.19 or newer. Upgrade node and run this again."
command -v npm >/dev/null 2>&1 || die "npm is not on PATH; it comes with Node.js, reinstall node."
say "node $(node -v), npm $(npm -v 2>/dev/null)"

# --- npm dependencies ---------------------------------------------------------------------
say "npm ci"
npm ci --no-audit --no-fund
say "done: 'npm run demo' shows nudge at work, 'npm test' runs the tests"
