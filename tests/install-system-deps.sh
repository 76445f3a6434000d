#!/bin/sh
# What the tests need from outside Python, installed when it is missing, so the README's test
# command runs every test on a fresh machine (Debian, as root or with sudo):
#   - Debian's Chromium, which the browser tests drive (tests/web/test_web_browser.py);
#   - PostgreSQL's server binaries, from which the server tests start a private cluster
#     (memfold_bench.pg_cluster; not needed when MEMFOLD_TEST_PG names a server);
#   - Node.js with npm, and the official TypeScript MCP client pinned in
#     tests/mcp_ts_client/package-lock.json (tests/agents/test_mcp_clients.py).
# Nothing already present is touched; a second run installs nothing.
set -eu
cd "$(dirname "$0")/.."
as_root=$([ "$(id -u)" = 0 ] || echo sudo)
packages=""
command -v chromium >/dev/null 2>&1 || packages="$packages chromium"
if [ -z "${MEMFOLD_TEST_PG:-}" ] && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 \
        && ! command -v pg_ctl >/dev/null 2>&1; then
    packages="$packages postgresql"
fi
command -v npm >/dev/null 2>&1 || packages="$packages nodejs npm"
if [ -n "$packages" ]; then
    echo "installing what the tests need:$packages" >&2
    $as_root apt-get update -q
    # shellcheck disable=SC2086  # one word a package
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $packages
fi
if [ ! -d tests/mcp_ts_client/node_modules/@modelcontextprotocol/sdk ]; then
    npm ci --prefix tests/mcp_ts_client --no-audit --no-fund --loglevel=error
fi
