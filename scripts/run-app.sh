#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (or a warm one, in seconds), builds the UI and the app
# with the UI embedded, and starts Memo. Extra arguments go to the app.
#   --build-only   build everything but do not start the app
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"

start_app=1
if [ "${1:-}" = "--build-only" ]; then
  start_app=0
  shift
fi

step "Toolchains"
require_toolchains

step "System packages (apt)"
ensure_apt_packages "${APT_APP_PACKAGES[@]}"

step "UI dependencies (npm)"
ensure_npm_deps ui

step "Building the UI (ui/dist)"
build_ui

step "Building the app (cargo, UI embedded)"
build_app_with_ui

binary="${CARGO_TARGET_DIR:-$REPO_ROOT/target}/debug/memo-desktop"
if [ "$start_app" -eq 0 ]; then
  step "Built $binary"
  exit 0
fi

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  die "no display to open a window on (DISPLAY/WAYLAND_DISPLAY unset). The app is built at $binary;
on a headless machine try: xvfb-run -a dbus-run-session -- $binary"
fi

step "Starting Memo (MEMO_HOME=${MEMO_HOME:-$HOME/.memo})"
exec "$binary" "$@"
