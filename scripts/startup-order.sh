#!/usr/bin/env bash
# Writes src-tauri/startup-order.txt: memo-desktop's functions in the order a start, then
# ordinary use, runs them (see release_link_args in src-tauri/build.rs). Builds the
# release app with a linker map, runs it under callgrind through WebDriver on a seeded
# home (tests/e2e/bench/startup-order.mjs), and turns the profiles into the order
# (tests/e2e/bench/order-file.mjs). Takes ~15 minutes; run it again after large changes
# to what starts (a stale order still links: missing names are skipped), and after any
# change to the dependencies (one added or removed, a feature turned on): every function's
# name carries a hash of its crate's build, which such a change renames throughout, and
# the whole order goes stale at once (measured: the binary's resident code at idle grew
# from ~2.5 to 8.5 MiB before this was run again).
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"

step "Building (release, with a linker map)"
require_toolchains
ensure_apt_packages "${APT_APP_PACKAGES[@]}" "${APT_TEST_PACKAGES[@]}" valgrind
ensure_npm_deps ui
ensure_npm_deps tests/e2e
(cd ui && npm run build)
map="$REPO_ROOT/target/release/memo-desktop.map"
MEMO_LINK_MAP="$map" cargo build --release -p memo-desktop --features tauri/custom-protocol --bin memo-desktop
cargo build --release -p memo-test-support --bin memo-seed-sessions --bin memo-mock-llm
ensure_tauri_driver

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/project" "$work/profiles"
folder=$(cd "$work/project" && pwd -P)
target/release/memo-seed-sessions --home "$work/home" --cwd "$folder" --sessions 1 --messages 10000 \
  --tool-output-bytes 81920 --title-prefix Long >/dev/null
target/release/memo-seed-sessions --home "$work/home" --cwd "$folder" --sessions 2 --messages 1000 \
  --title-prefix Bench >/dev/null

step "Profiling under callgrind (slow)"
binary="$REPO_ROOT/target/release/memo-desktop"
MEMO_MOCK_LLM="target/release/memo-mock-llm" xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session -- \
  node tests/e2e/bench/startup-order.mjs "$work/home" "$folder" "$binary" "$work/profiles"

step "Writing src-tauri/startup-order.txt"
mapfile -t profiles < <(ls -tr "$work"/profiles/callgrind.out.*.[0-9]*)
node tests/e2e/bench/order-file.mjs "$binary" "$map" "${profiles[@]}" >"$work/order.txt"
mv "$work/order.txt" src-tauri/startup-order.txt
echo "$(wc -l <src-tauri/startup-order.txt) functions; rebuild the release app to use the order"
