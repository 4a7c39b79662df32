#!/bin/sh
# The browser check of `dfasolve serve` (issue 40): Chromium from the distribution's packages
# (apt-get install chromium) driven by playwright-core from the npm registry. Plays a few moves
# on the page by clicking, checks each value against `dfasolve query --json`, and writes the
# screenshots here. Run from the repository's top: sh results/serve/check.sh
set -eu
out=results/serve
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm install --silent --prefix "$work" playwright-core@1 >/dev/null
bin="$PWD/target/release/dfasolve"
"$bin" breakthrough --width 4 --height 4 --strong --quiet --out "$work/bt4x4.dfas" >/dev/null
NODE_PATH="$work/node_modules" node "$out/browser-check.cjs" "$bin" "$work/bt4x4.dfas" "$out" 4
