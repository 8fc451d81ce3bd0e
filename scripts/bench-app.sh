#!/usr/bin/env bash
# The app benchmark: builds the app, seeds a Memo home with long sessions, and measures the
# real app under Xvfb through WebDriver. Prints a table. Runs outside the test suite.
#
#   scripts/bench-app.sh            # release build (whole-program optimised; slow to build)
#   scripts/bench-app.sh --debug    # the debug build, for a quick look
#
# Today it measures
# - switching between two 1,000-message sessions (issue 12's target: < 150 ms to an
#   interactive transcript): the first, cold open of each (resumed, its history replayed)
#   and warm switches back and forth (kept in the window);
# - a flood through the terminal panel (`yes` for BENCH_FLOOD_MB, default 100 MB): how
#   long it takes, the longest frame gap meanwhile, and the memory of the app and its
#   WebKit processes before, at peak and after;
# - idle CPU over BENCH_IDLE_SECONDS (default 30) after that, with the terminal open.
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"

profile=release
[ "${1:-}" = "--debug" ] && profile=debug
cargo_flags=()
[ "$profile" = release ] && cargo_flags+=(--release)
MESSAGES=${BENCH_MESSAGES:-1000}
ROUNDS=${BENCH_ROUNDS:-20}
FLOOD_MB=${BENCH_FLOOD_MB:-100}

step "Building ($profile)"
require_toolchains
ensure_apt_packages "${APT_APP_PACKAGES[@]}" "${APT_TEST_PACKAGES[@]}"
ensure_npm_deps ui
ensure_npm_deps tests/e2e
(cd ui && npm run build)
cargo build "${cargo_flags[@]}" -p memo-desktop --features tauri/custom-protocol
cargo build "${cargo_flags[@]}" -p memo-test-support --bin memo-seed-sessions --bin memo-mock-llm
ensure_tauri_driver

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
home="$work/home"
folder="$work/project"
mkdir -p "$home" "$folder"
folder=$(cd "$folder" && pwd -P)

# The provider the seeded sessions name. Nothing here asks the model anything, so its
# address is a closed port.
cat >"$home/config.toml" <<'TOML'
current_provider = "bench"
[[providers.bench]]
name = "bench"
model = "bench-model"
base_url = "http://127.0.0.1:9/v1"
TOML

step "Seeding two $MESSAGES-message sessions"
"target/$profile/memo-seed-sessions" --home "$home" --cwd "$folder" --sessions 2 --messages "$MESSAGES"
last_turn=$(( (MESSAGES + 1) / 2 - 1 ))

step "Switching between them ($ROUNDS warm switches), then $FLOOD_MB MB through the terminal"
result=$(MEMO_APP_BINARY="target/$profile/memo-desktop" MEMO_MOCK_LLM="target/$profile/memo-mock-llm" \
  BENCH_LAST_ANSWER="Answer $last_turn." \
  xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session -- \
  node tests/e2e/bench/app-bench.mjs "$home" "$folder" "$ROUNDS" "$FLOOD_MB" | tail -n 1)

node -e '
const r = JSON.parse(process.argv[1]);
const sorted = (a) => [...a].sort((x, y) => x - y);
const pct = (a, p) => sorted(a)[Math.min(a.length - 1, Math.round((a.length - 1) * p))];
const f = (ms) => `${ms.toFixed(1)} ms`;
const rows = [
  ["open a session cold (first time), each", r.cold.map(f).join(", "), "-"],
  ["switch between two kept sessions, median", f(pct(r.warm, 0.5)), "< 150 ms"],
  ["switch between two kept sessions, p95", f(pct(r.warm, 0.95)), "< 150 ms"],
  ["switch between two kept sessions, max", f(Math.max(...r.warm)), "-"],
  [`terminal: ${r.floodMb} MB of \`yes\` shown`, `${r.floodSeconds.toFixed(1)} s`, "-"],
  ["terminal flood: longest frame gap", f(r.floodMaxFrameGap), "no freeze"],
  [`idle CPU over ${r.idleSeconds} s (app + WebKit, of one core)`, `${r.idleCpuPercent.toFixed(2)} %`, "< 1 %"],
  ["memory (PSS, app + WebKit): before / peak / after the flood", `${r.pssBefore.toFixed(0)} / ${r.pssPeak.toFixed(0)} / ${r.pssAfter.toFixed(0)} MiB`, "bounded"],
];
console.log(`\n| ${process.argv[2]}-message sessions (${process.argv[3]} build) | measured | target |`);
console.log("|---|---|---|");
for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);
' "$result" "$MESSAGES" "$profile"
