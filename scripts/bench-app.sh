#!/usr/bin/env bash
# The app benchmark: builds the app and a hello-world Tauri window (the same Tauri, features
# and profile: WebKitGTK's own cost is the denominator), seeds a Memo home with long
# sessions, measures both under Xvfb through WebDriver and prints a table with the
# baseline and the ratio. Runs outside the test suite.
#
#   scripts/bench-app.sh            # release builds (whole-program optimised; slow to build)
#   scripts/bench-app.sh --debug    # debug builds, for a quick look
#
# What it measures is listed in tests/e2e/bench/app-bench.mjs. Knobs: BENCH_STREAM_SECONDS
# (60), BENCH_IDLE_SECONDS (30), BENCH_FLOOD_MB (100; 0 skips the terminal flood),
# BENCH_ROUNDS (20 warm switches), BENCH_STARTS (3 cold starts of each app);
# BENCH_SKIP_BUILD=1 measures the binaries already in target/<profile>.
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"

profile=release
[ "${1:-}" = "--debug" ] && profile=debug
cargo_flags=()
[ "$profile" = release ] && cargo_flags+=(--release)

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  step "Building ($profile)"
  require_toolchains
  ensure_apt_packages "${APT_APP_PACKAGES[@]}" "${APT_TEST_PACKAGES[@]}"
  ensure_npm_deps ui
  ensure_npm_deps tests/e2e
  (cd ui && npm run build)
  # Memo with exactly the features the package has, so its functions carry the names the
  # start-up code order gives (src-tauri/build.rs); the hello-world needs its own feature.
  cargo build "${cargo_flags[@]}" -p memo-desktop --features tauri/custom-protocol --bin memo-desktop
  cargo build "${cargo_flags[@]}" -p memo-desktop --features tauri/custom-protocol,bench-hello --bin memo-bench-hello
  cargo build "${cargo_flags[@]}" -p memo-test-support --bin memo-seed-sessions --bin memo-mock-llm
  ensure_tauri_driver
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
home="$work/home"
folder="$work/project"
mkdir -p "$home" "$folder"
folder=$(cd "$folder" && pwd -P)

# The provider the seeded sessions name (the benchmark points it at its mock LLM).
cat >"$home/config.toml" <<'TOML'
current_provider = "bench"
[[providers.bench]]
name = "bench"
model = "bench-model"
base_url = "http://127.0.0.1:9/v1"
TOML

step "Seeding a 10,000-message session with 100 MB of tool output, and two of 1,000 messages"
# Every fourth turn runs a command: 1,250 outputs of 80 KiB in the long one.
"target/$profile/memo-seed-sessions" --home "$home" --cwd "$folder" --sessions 1 --messages 10000 \
  --tool-output-bytes 81920 --title-prefix Long
"target/$profile/memo-seed-sessions" --home "$home" --cwd "$folder" --sessions 2 --messages 1000 --title-prefix Bench
du -sh "$home" | sed 's/^/store: /'

step "Measuring"
result=$(MEMO_MOCK_LLM="target/$profile/memo-mock-llm" \
  BENCH_LONG_TITLE="Long 1" BENCH_LONG_LAST="Answer 4999." BENCH_SHORT_LAST="Answer 499." \
  xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session -- \
  node tests/e2e/bench/app-bench.mjs "$home" "$folder" "$PWD/target/$profile/memo-bench-hello" "$PWD/target/$profile/memo-desktop" | tail -n 1)
echo "$result" >"target/bench-app-$profile.json"

node tests/e2e/bench/table.mjs "$result" "$profile"
