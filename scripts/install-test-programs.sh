#!/usr/bin/env bash
# The programs the detection corpus runs in its panes (test/integration/detection-corpus.test.ts):
# zsh, vim, less, top and watch (procps), python3; cron, whose daemon the slow test
# (test/slow/schedule-cron.test.ts) starts; and a real desktop notification daemon (dunst, on
# a virtual X display, Xvfb, and a private D-Bus session) with notify-send, which the
# notification test (test/integration/notify.test.ts) sends to; OpenSSH's server and client,
# which the remote tests (test/integration/remote.test.ts) start as hosts on loopback; and
# libfaketime (faketime), with which test/faults/clock-step.test.ts steps the wall clock of
# nudge's own processes (never the machine's). Installs
# what is missing with apt-get, as root (CI) or through sudo; on a machine without apt-get it
# says what is missing and stops.
set -euo pipefail
declare -A package=([zsh]=zsh [vim]=vim [less]=less [top]=procps [watch]=procps [python3]=python3 [cron]=cron
  [dunst]=dunst [notify-send]=libnotify-bin [Xvfb]=xvfb [xauth]=xauth [dbus-daemon]=dbus
  [ssh]=openssh-client [ssh-keygen]=openssh-client [ps]=procps [lsof]=lsof)
missing=()
for program in "${!package[@]}"; do
  command -v "$program" >/dev/null 2>&1 || missing+=("${package[$program]}")
done
# sshd is in /usr/sbin, not on every user's PATH.
[[ -x /usr/sbin/sshd ]] || command -v sshd >/dev/null 2>&1 || missing+=(openssh-server)
# libfaketime is a library, found by its folder.
compgen -G '/usr/lib/*/faketime/libfaketime.so.1' >/dev/null || missing+=(faketime)
((${#missing[@]} == 0)) && exit 0
readarray -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-test-programs: missing ${missing[*]}; install them with your package manager." >&2
  exit 1
fi
as_root=()
[[ $(id -u) -eq 0 ]] || as_root=(sudo)
echo "install-test-programs: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
