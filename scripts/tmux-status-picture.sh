#!/usr/bin/env bash
# The picture in docs/tmux-status.md: a real tmux status bar, rendered by a real terminal
# (xterm under Xvfb), with the three lines of docs/tmux-status.md in its config and real nudge
# jobs on its panes — one done, one blocked at a dialog, one at work with another queued.
#
#   bash scripts/tmux-status-picture.sh [OUT.png]     # default docs/tmux-status.png
#
# Needs (Debian): xvfb xterm imagemagick fonts-dejavu-core; and a built nudge (npm run build).
# Everything runs on a private tmux server in a temporary folder, ended at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-docs/tmux-status.png}
for tool in xvfb-run xterm import tmux; do
  command -v "$tool" >/dev/null || { echo "tmux-status-picture: $tool is missing" >&2; exit 1; }
done

dir=$(mktemp -d /tmp/nudge-picture.XXXXXX)
sock=$dir/sock
cleanup() {
  # The jobs' workers first (each ends its job and leaves), then the server and the folder.
  for job in "$dir"/home/jobs/*; do
    [[ -d $job ]] && nudge cancel "${job##*/}" >/dev/null 2>&1
  done
  tmux -S "$sock" kill-server 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

# `nudge` on PATH, as an install puts it there.
mkdir -p "$dir/bin" "$dir/config/nudge/agents"
printf '#!/bin/sh\nexec %q %q "$@"\n' "$(command -v node)" "$PWD/dist/src/cli.js" >"$dir/bin/nudge"
chmod +x "$dir/bin/nudge"
export PATH=$dir/bin:$PATH NUDGE_HOME=$dir/home XDG_CONFIG_HOME=$dir/config HOME=$dir
# The stand-in agent of the tests, which stops at a permission dialog (test/fixtures).
cat >"$dir/config/nudge/agents/asker.toml" <<'EOF'
name = 'asker'
kind = 'agent'
clearKeys = [['C-u']]
minEnterDelayMs = 100
composerLine = '^(❯) ?(.*)$'
ruleLine = '^─{20,}$'
promptEcho = '^» (.*)$'
busy = ['esc to interrupt']
programs = ['(^|/)asking-agent\.mjs$']

[[dialogs]]
kind = 'permission'
question = '^│\s*(Do you want to proceed\?)'
firstOption = '❯ 1\. Yes'
denyKeys = [['Escape']]
EOF

# The three lines of docs/tmux-status.md (and a quicker refresh for the picture).
cat >"$dir/tmux.conf" <<'EOF'
set -g status-right '#{@nudge-status} '
set -g window-status-format ' #I:#W#{?@nudge-state, · #{@nudge-state},} '
bind-key N run-shell 'nudge next -S "#{socket_path}" --client "#{client_name}"'
set -g status-interval 1
set -g status-right-length 90
set -g status-style bg=colour236,fg=colour250
set -g window-status-current-style fg=colour231,bold,underscore
set -g window-status-bell-style default
set -g window-status-activity-style default
set -g window-status-current-format ' #I:#W#{?@nudge-state, · #{@nudge-state},} '
EOF

export PS1='$ ' HISTFILE=
tmux -S "$sock" -f "$dir/tmux.conf" new-session -d -s work -n api -x 120 -y 14 bash --norc
tmux -S "$sock" new-window -d -n agent node "$PWD/test/fixtures/asking-agent.mjs" "$dir/agent.log"
tmux -S "$sock" new-window -d -n build bash --norc
sleep 1

quick=(--delay 0 --interval 300ms --stable-checks 2 --no-notice)
nudge submit -S "$sock" --pane work:api "${quick[@]}" --until exit -- 'echo 42 tests passed' >/dev/null
nudge submit -S "$sock" --pane work:agent "${quick[@]}" -- 'please ask about the deploy' >/dev/null
nudge submit -S "$sock" --pane work:build "${quick[@]}" --until exit -- 'sleep 600' >/dev/null
sleep 2
nudge submit -S "$sock" --pane work:build "${quick[@]}" --until stable -- 'make release' >/dev/null

# Wait for the three states, as the status bar will show them.
for _ in $(seq 60); do
  line=$(nudge status-line -S "$sock" --plain)
  [[ $line == *blocked*done*working*queued* ]] && break
  sleep 0.5
done
echo "status-line: $line"
tmux -S "$sock" select-window -t work:agent

xvfb-run -a -s '-screen 0 1100x330x24' bash -c '
  xterm -geometry 120x14+0+0 -fa "DejaVu Sans Mono" -fs 11 -bg "#1e1e1e" -fg "#d4d4d4" \
    -e tmux -S "$0" attach -t work:agent &
  sleep 4
  import -window root "$1"
  kill %1
' "$sock" "$dir/shot.png"
# Only the terminal: the root window is larger than the xterm.
convert "$dir/shot.png" -trim +repage "$out"
echo "wrote $out"
