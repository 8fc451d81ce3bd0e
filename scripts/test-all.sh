#!/usr/bin/env bash
# Everything CI checks, in the order that fails fastest. Installs what is missing first
# (apt packages, npm dependencies, tauri-driver), so it also sets up a fresh Debian 12 box.
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"
started_at=$(date +%s)

step "Toolchains"
require_toolchains
cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1 ||
  die "rustfmt and clippy are needed: rustup component add rustfmt clippy"

step "System packages (apt: app + tests)"
ensure_apt_packages "${APT_APP_PACKAGES[@]}" "${APT_TEST_PACKAGES[@]}"

step "npm dependencies (ui, tests/e2e, tests/mcp, tests/acp)"
ensure_npm_deps ui
ensure_npm_deps tests/e2e
# Real MCP servers (server-everything, server-filesystem, a fault fixture) for memo-mcp.
ensure_npm_deps tests/mcp
# The ACP SDK's client, which drives `memo-cli acp` in memo-cli's tests.
ensure_npm_deps tests/acp

step "tauri-driver"
ensure_tauri_driver

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (workspace, all targets, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings

# The engine crates first: they build without WebKit, so their failures show up minutes
# before the app's dependencies finish compiling.
step "cargo test: engine crates (--workspace --exclude memo-desktop)"
cargo test --workspace --exclude memo-desktop

# The official MCP conformance suite's client scenarios against memo-mcp (its own Node 22
# from npm, local servers only, ~20 s). Skipped only when npm cannot be reached to
# install the suite (run.sh exits 2 when it could not install or run it).
step "MCP conformance: client scenarios (tests/mcp-conformance/run.sh)"
conformance_status=0
tests/mcp-conformance/run.sh || conformance_status=$?
if [ "$conformance_status" -eq 2 ] && ! npm ping >/dev/null 2>&1; then
  echo "SKIPPED: the npm registry cannot be reached, so the MCP conformance suite could not be installed"
elif [ "$conformance_status" -ne 0 ]; then
  die "MCP conformance: see the table above and target/mcp-conformance/"
fi

step "cargo test: desktop shell (-p memo-desktop)"
cargo test -p memo-desktop

step "UI: lint (tsc --noEmit) and unit tests (vitest)"
(cd ui && npm run lint && npm test)

step "Building the UI and the app with the UI embedded"
build_ui
build_app_with_ui

# The e2e specs talk to this scripted model server instead of a real provider, and the
# long-session spec reads sessions the seeder writes into a real store.
step "Building the mock LLM server for the end-to-end tests"
cargo build -p memo-test-support --bin memo-mock-llm --bin memo-seed-sessions

# A debug build: a release package (scripts/package-deb.sh --release) takes far longer.
step "Debian package (debug build) for the install test"
MEMO_TEST_DEB=$(./scripts/package-deb.sh)
export MEMO_TEST_DEB

step "Headless session: xvfb + D-Bus + keychain"
xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session -- \
  bash "$REPO_ROOT/scripts/lib/desktop-session.sh"

step "All checks passed in $(($(date +%s) - started_at))s"
