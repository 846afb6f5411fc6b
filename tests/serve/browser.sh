#!/bin/sh
# browser.sh - runs the browser test of `varia serve` (tests/serve/browser.cjs): installs
# puppeteer-core from npm once per package-lock.json (under build/browser/npm), starts
# `varia serve` on a free loopback port, runs the test in Chromium, stops the server.
# Usage: tests/serve/browser.sh [VARIA] [--paint | --doc]
set -e
varia=${1:-./varia}
mode=$2
out=build/browser
npmdir=$out/npm
mkdir -p "$npmdir"
if ! cmp -s tests/serve/package-lock.json "$npmdir/package-lock.json" || [ ! -d "$npmdir/node_modules/puppeteer-core" ]; then
    cp tests/serve/package.json tests/serve/package-lock.json "$npmdir/"
    (cd "$npmdir" && npm ci --no-audit --no-fund --loglevel=error) || {
        echo "browser: npm ci failed (puppeteer-core is fetched from the npm registry)" >&2
        exit 1
    }
fi
log=$out/serve.log
"$varia" serve --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT INT TERM
port=
for _ in $(seq 100); do
    port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$log")
    [ -n "$port" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
done
if [ -z "$port" ]; then
    echo "browser: varia serve did not start:" >&2
    cat "$log" >&2
    exit 1
fi
PUPPETEER_DIR=$npmdir node tests/serve/browser.cjs "http://127.0.0.1:$port/" "$varia" "$out" $mode
