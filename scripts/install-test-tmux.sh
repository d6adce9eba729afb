#!/usr/bin/env bash
# The tmux versions the matrix tests run on, each in a cache folder as <dir>/<version>/bin/tmux:
#
#   stable   Debian stable's tmux (bookworm: 3.3a), the one apt installs (scripts/setup.sh)
#   trixie   tmux built from Debian trixie's source package (3.5a): `apt-get source` through
#            a private deb-src list, configure + make against this machine's libraries
#   newest   the newest tmux Debian has (unstable's): built from its source package when the
#            archive serves it, else unstable's own binary run by unstable's own loader with
#            the libraries from unstable's packages (the archive serves binaries longer than
#            sources; 3.8-1 had no source on 2026-11-25)
#
#   bash scripts/install-test-tmux.sh        # prints "<version> <path to tmux>" per line
#
# Where: ${NUDGE_TMUX_DIR:-$HOME/.cache/tmux-nudge-tmux}. A version already there is kept
# (a second run takes a second). Nothing changes the machine's apt sources: the deb-src and
# unstable lists live in the cache folder. Needs apt-get (root or sudo) for the build
# dependencies. 3.2a and 3.4 are not here: no Debian suite served on deb.debian.org carries
# them (bullseye has 3.1c, below nudge's minimum; they are Ubuntu 22.04's and 24.04's).
set -euo pipefail

DIR=${NUDGE_TMUX_DIR:-$HOME/.cache/tmux-nudge-tmux}
MIRROR=${NUDGE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { printf 'install-test-tmux: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

command -v apt-get >/dev/null 2>&1 || die "apt-get is needed (Debian or Ubuntu); install tmux versions by hand into $DIR/<version>/bin/tmux."
as_root=()
[[ $(id -u) -eq 0 ]] || as_root=(sudo)
mkdir -p "$DIR"
APT=$DIR/apt
mkdir -p "$APT/parts" "$APT/lists/partial" "$APT/cache/archives/partial"
cat >"$APT/parts/debian.sources" <<EOF
Types: deb deb-src
URIs: $MIRROR
Suites: trixie sid
Components: main
Architectures: amd64
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$APT/parts"
  -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache" -o Dir::State::status=/dev/null
  -o APT::Architecture=amd64 -o APT::Sandbox::User=root -qq)
lists_fresh=''
refresh_lists() {
  [[ -n $lists_fresh ]] && return 0
  say "reading Debian trixie's and unstable's package lists"
  apt-get "${apt_opts[@]}" update >/dev/null || die "apt-get update of $MIRROR failed."
  lists_fresh=1
}
build_deps_ready=''
build_deps() {
  [[ -n $build_deps_ready ]] && return 0
  local missing=()
  for p in libevent-dev libncurses-dev bison pkgconf dpkg-dev make gcc xz-utils; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if ((${#missing[@]})); then
    say "installing the build dependencies: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
      { "${as_root[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } ||
      die "could not install ${missing[*]}."
  fi
  build_deps_ready=1
}

# Build tmux from a Debian source package (its patches applied) into $DIR/<name>.
build_from_source() {
  local name=$1 version=$2 work
  build_deps
  work=$(mktemp -d "$DIR/build.XXXXXX")
  (
    cd "$work"
    apt-get "${apt_opts[@]}" source "tmux=$version" >/dev/null 2>&1 || exit 3
    cd tmux-*/
    ./configure --prefix="$DIR/$name" >/dev/null
    make -j"$(nproc)" >/dev/null 2>&1
    make install >/dev/null
  )
  local status=$?
  rm -rf "$work"
  return $status
}

# Unstable's binary, its loader and libraries, unpacked into $DIR/<name>/root with a bin/tmux
# that runs it through that loader (the machine's own libc may be older than it needs).
install_binary() {
  local name=$1 root=$DIR/$1/root debs
  debs=$(mktemp -d "$DIR/debs.XXXXXX")
  local closure
  closure=$(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances tmux 2>/dev/null | grep -v '^ ' | sort -u)
  (cd "$debs" && apt-get "${apt_opts[@]}" download $closure >/dev/null) || die "could not download unstable's tmux and its libraries."
  rm -rf "$root"
  mkdir -p "$root" "$DIR/$name/bin"
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$root"; done
  rm -rf "$debs"
  cat >"$DIR/$name/bin/tmux" <<EOF
#!/bin/sh
# tmux from Debian unstable, run by unstable's own loader and libraries.
exec "$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$root/usr/lib/x86_64-linux-gnu" "$root/usr/bin/tmux" "\$@"
EOF
  chmod +x "$DIR/$name/bin/tmux"
}

have() { [[ -x $DIR/$1/bin/tmux ]] && "$DIR/$1/bin/tmux" -V >/dev/null 2>&1; }

# --- stable: the machine's own tmux -----------------------------------------------------------
system_tmux=$(command -v tmux || true)
[[ -n $system_tmux ]] || die "tmux is not installed; run scripts/setup.sh first."
stable=$("$system_tmux" -V | awk '{print $2}')
mkdir -p "$DIR/$stable/bin"
ln -sf "$system_tmux" "$DIR/$stable/bin/tmux"
echo "$stable $DIR/$stable/bin/tmux"

# --- trixie: built from source --------------------------------------------------------------------
trixie_name=$(cat "$DIR/trixie.name" 2>/dev/null || true)
if [[ -z $trixie_name ]] || ! have "$trixie_name"; then
  refresh_lists
  v=$(apt-cache "${apt_opts[@]}" showsrc tmux 2>/dev/null | awk '/^Version:/ {print $2}' | sort -V | head -n 1)
  # showsrc lists both suites; trixie's is the older of the two.
  [[ -n $v ]] || die "no tmux source package in Debian trixie."
  trixie_name=${v%%-*}
  say "building tmux $trixie_name from Debian's source package tmux=$v (about a minute)"
  build_from_source "$trixie_name" "$v" || die "building tmux $v from source failed."
  echo "$trixie_name" >"$DIR/trixie.name"
fi
echo "$trixie_name $DIR/$trixie_name/bin/tmux"

# --- newest: unstable's ---------------------------------------------------------------------------
newest_name=$(cat "$DIR/newest.name" 2>/dev/null || true)
if [[ -z $newest_name ]] || ! have "$newest_name" || [[ -n ${NUDGE_TMUX_REFRESH:-} ]]; then
  refresh_lists
  v=$(apt-cache "${apt_opts[@]}" madison tmux 2>/dev/null | awk '/sid/ && /Packages/ {print $3}' | sort -V | tail -n 1)
  [[ -n $v ]] || die "no tmux binary package in Debian unstable."
  newest_name=${v%%-*}
  if [[ $newest_name != "$trixie_name" && $newest_name != "$stable" ]] && ! have "$newest_name"; then
    say "tmux $v (unstable): trying its source package"
    if build_from_source "$newest_name" "$v"; then
      say "built tmux $newest_name from source"
    else
      say "unstable's source for tmux $v is not served; using its binary with its own loader and libraries"
      install_binary "$newest_name"
    fi
  fi
  echo "$newest_name" >"$DIR/newest.name"
fi
echo "$newest_name $DIR/$newest_name/bin/tmux"

for name in "$stable" "$trixie_name" "$newest_name"; do
  have "$name" || die "$DIR/$name/bin/tmux does not run."
done
