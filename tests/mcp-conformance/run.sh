#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against memo-mcp's client
# (the memo-mcp-conformance binary) and prints one line per scenario.
#
# Installs what it needs first (idempotent): the suite and a Node 22 binary from npm into
# tests/mcp-conformance/node_modules; builds the binary with cargo. Needs no display.
#
# Exit status: 0 when every scenario passes or is listed in expected-failures.txt;
# 1 when a scenario not listed there fails, or a listed one now passes (the list is
# stale and must shrink); 2 when the suite could not be installed or run at all.
#
# A scenario passes when the suite reports neither failed nor warning checks (a warning
# is a SHOULD the client ignored) and the client did not time out.
#
#   tests/mcp-conformance/run.sh                 # every client scenario
#   tests/mcp-conformance/run.sh initialize ...  # only these
set -euo pipefail
# shellcheck source=../../scripts/lib/common.sh
source "$(dirname "$0")/../../scripts/lib/common.sh"
HERE="$REPO_ROOT/tests/mcp-conformance"
OUT="$REPO_ROOT/target/mcp-conformance"
EXPECTED="$HERE/expected-failures.txt"
# Scenarios run this many at a time; the suite's timing checks (sse-retry waits for a
# 500 ms retry with 200 ms tolerance) fail on a loaded two-core machine when all 26
# run at once, so those run alone afterwards.
PARALLEL=${MCP_CONFORMANCE_PARALLEL:-4}
TIMING_SENSITIVE=(sse-retry)

# As scripts/lib/common.sh's ensure_npm_deps (reinstall only when the lock changed), but
# a failed install ends the run with status 2 instead of leaving a stamp behind.
stamp="$HERE/node_modules/.memo-install-stamp"
hash=$(cat "$HERE/package.json" "$HERE/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$hash" ]; then
  echo "tests/mcp-conformance: npm install (locked versions)"
  (cd "$HERE" && npm install --no-save --no-audit --no-fund) || {
    echo "could not install the conformance suite from npm" >&2
    exit 2
  }
  printf '%s\n' "$hash" >"$stamp"
fi
NODE="$HERE/node_modules/node/bin/node"
SUITE="$HERE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -x "$NODE" ] && [ -f "$SUITE" ] || {
  echo "the conformance suite or its Node binary is missing under $HERE/node_modules" >&2
  exit 2
}
node_major=$("$NODE" -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 22 ] || {
  echo "the suite needs Node 22+, $NODE is $("$NODE" --version)" >&2
  exit 2
}

(cd "$REPO_ROOT" && cargo build --quiet -p memo-mcp --bin memo-mcp-conformance) || exit 2
CLIENT="$REPO_ROOT/target/debug/memo-mcp-conformance"

if [ "$#" -gt 0 ]; then
  scenarios=("$@")
else
  mapfile -t scenarios < <("$NODE" "$SUITE" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
fi
[ "${#scenarios[@]}" -gt 0 ] || {
  echo "the suite listed no client scenarios" >&2
  exit 2
}

rm -rf "$OUT"
mkdir -p "$OUT"

# One scenario: the suite's own verdict (exit status) plus its checks, saved under
# $OUT/<scenario with / as __>/.
run_one() {
  local scenario=$1 dir
  dir="$OUT/${scenario//\//__}"
  mkdir -p "$dir"
  local status=0
  "$NODE" "$SUITE" client --command "$CLIENT" --scenario "$scenario" \
    --timeout 30000 --verbose >"$dir/checks.json" 2>"$dir/suite.log" || status=$?
  echo "$status" >"$dir/exit"
}
export -f run_one
export NODE SUITE CLIENT OUT

parallel=() alone=()
for scenario in "${scenarios[@]}"; do
  if [[ " ${TIMING_SENSITIVE[*]} " == *" $scenario "* ]]; then
    alone+=("$scenario")
  else
    parallel+=("$scenario")
  fi
done
if [ "${#parallel[@]}" -gt 0 ]; then
  printf '%s\n' "${parallel[@]}" | xargs -P "$PARALLEL" -I{} bash -c 'run_one "$1"' _ {}
fi
for scenario in "${alone[@]}"; do
  run_one "$scenario"
done

# The expected failures: scenario names, one a line, '#' comments.
expected=()
if [ -f "$EXPECTED" ]; then
  mapfile -t expected < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$EXPECTED")
fi
is_expected() {
  local s
  for s in "${expected[@]}"; do [ "$s" = "$1" ] && return 0; done
  return 1
}

passed=0 failed=0 unexpected=() stale=()
printf '\n%-44s %-16s %s\n' "scenario" "result" "checks (passed/failed/warnings)"
for scenario in "${scenarios[@]}"; do
  dir="$OUT/${scenario//\//__}"
  counts=$("$NODE" -e '
    const fs = require("fs");
    let checks = [];
    try { checks = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch {}
    const n = (s) => checks.filter((c) => c.status === s).length;
    console.log(`${n("SUCCESS")} ${n("FAILURE")} ${n("WARNING")}`);
  ' "$dir/checks.json")
  read -r ok bad warn <<<"$counts"
  if [ "$(cat "$dir/exit")" = 0 ] && [ "$bad" = 0 ] && [ "$warn" = 0 ] && [ "$ok" -gt 0 ]; then
    result=pass
    passed=$((passed + 1))
    is_expected "$scenario" && stale+=("$scenario")
  else
    result=FAIL
    failed=$((failed + 1))
    is_expected "$scenario" && result="fail (expected)" || unexpected+=("$scenario")
  fi
  printf '%-44s %-16s %s/%s/%s\n' "$scenario" "$result" "$ok" "$bad" "$warn"
done
printf '\n%s passed, %s failed\n' "$passed" "$failed"
echo "details: $OUT/<scenario>/{checks.json,suite.log}"

status=0
if [ "${#unexpected[@]}" -gt 0 ]; then
  echo "failed and not in $(basename "$EXPECTED"): ${unexpected[*]}" >&2
  for scenario in "${unexpected[@]}"; do
    dir="$OUT/${scenario//\//__}"
    echo "--- $scenario" >&2
    "$NODE" -e '
      const fs = require("fs");
      let checks = [];
      try { checks = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch {}
      for (const c of checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING"))
        console.log(`  ${c.status} ${c.id}: ${c.errorMessage || c.description}`);
    ' "$dir/checks.json" >&2
    grep -E '^(Client exited|Stderr:|conformance|auth/|[a-z_-]+: )' "$dir/suite.log" | tail -5 >&2 || true
  done
  status=1
fi
if [ "${#stale[@]}" -gt 0 ]; then
  echo "listed in $(basename "$EXPECTED") but passing now (remove them): ${stale[*]}" >&2
  status=1
fi
exit "$status"
