#!/usr/bin/env bash
# Runs inside `xvfb-run ... dbus-run-session` (see test-all.sh): gives the session a fresh,
# unlocked Secret Service keychain, then runs the tests that need a display or a keychain.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

# A fresh data dir every run: an existing keyring from an earlier run may be locked with
# another password, and the tests must never touch the user's real keychain.
XDG_DATA_HOME=$(mktemp -d)
export XDG_DATA_HOME
keyring_pid=""
keyring_control=""
cleanup() {
  if [ -n "$keyring_pid" ]; then kill "$keyring_pid" 2>/dev/null || true; fi
  if [ -n "$keyring_control" ]; then rm -rf "$keyring_control"; fi
  rm -rf "$XDG_DATA_HOME"
}
trap cleanup EXIT

step "Unlocking a throwaway gnome-keyring (Secret Service)"
# --unlock reads the password from stdin; the daemon forks once it owns its bus name.
daemon_env=$(printf '%s' memo-test | gnome-keyring-daemon --unlock --components=secrets)
keyring_control=$(printf '%s\n' "$daemon_env" | sed -n 's/^GNOME_KEYRING_CONTROL=//p')
keyring_pid=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / \
  org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '{print $2}')
echo "gnome-keyring-daemon pid $keyring_pid, XDG_DATA_HOME=$XDG_DATA_HOME"
export MEMO_TEST_KEYRING=1

# Convention: tests that need the real OS keychain have "keyring" in their name and skip
# unless MEMO_TEST_KEYRING=1. Already compiled by the earlier `cargo test` step.
step "Keyring tests (cargo test --workspace --exclude memo-desktop keyring)"
cargo test --workspace --exclude memo-desktop keyring

step "End-to-end tests (tests/e2e, real app via tauri-driver)"
(cd tests/e2e && npm test)
