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
keyring_runtime=""
cleanup() {
  if [ -n "$keyring_pid" ]; then kill "$keyring_pid" 2>/dev/null || true; fi
  if [ -n "$keyring_control" ]; then rm -rf "$keyring_control"; fi
  if [ -n "$keyring_runtime" ]; then rm -rf "$keyring_runtime"; fi
  rm -rf "$XDG_DATA_HOME"
}
trap cleanup EXIT

step "Unlocking a throwaway gnome-keyring (Secret Service)"
# --unlock reads the password from stdin; the daemon forks once it owns its bus name.
# Its own runtime dir, and no inherited control socket: otherwise --unlock may find a
# daemon of another session, unlock that one and exit, and this bus never gets a keychain.
keyring_runtime=$(mktemp -d)
chmod 700 "$keyring_runtime"
daemon_env=$(printf '%s' memo-test |
  env -u GNOME_KEYRING_CONTROL XDG_RUNTIME_DIR="$keyring_runtime" \
    gnome-keyring-daemon --unlock --components=secrets)
keyring_control=$(printf '%s\n' "$daemon_env" | sed -n 's/^GNOME_KEYRING_CONTROL=//p')
# The daemon usually owns its bus name by the time it forks, but not always (CI on
# a fresh clone once found it unowned): wait for the name, up to 10 s.
secrets_owned() {
  dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true
}
for _ in $(seq 1 100); do
  secrets_owned && break
  sleep 0.1
done
secrets_owned || die "gnome-keyring-daemon did not take org.freedesktop.secrets on the session bus within 10 s"
keyring_pid=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / \
  org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '{print $2}')
echo "gnome-keyring-daemon pid $keyring_pid, XDG_DATA_HOME=$XDG_DATA_HOME"
export MEMO_TEST_KEYRING=1

# E2E_ONLY="specs/a.test.mjs ..." runs just those end-to-end specs (while working on them).
if [ -n "${E2E_ONLY:-}" ]; then
  step "End-to-end specs: $E2E_ONLY"
  # shellcheck disable=SC2086 # a list of spec files
  (cd tests/e2e && node --test --test-concurrency=1 --test-reporter=spec $E2E_ONLY)
  exit
fi

# Convention: tests that need the real OS keychain have "keyring" in their name and skip
# unless MEMO_TEST_KEYRING=1. Already compiled by the earlier `cargo test` step.
step "Keyring tests (cargo test --workspace --exclude memo-desktop keyring)"
cargo test --workspace --exclude memo-desktop keyring

step "End-to-end tests (tests/e2e, real app via tauri-driver)"
(cd tests/e2e && npm test)

step "A real input method (fcitx5 pinyin) typing into the app"
bash "$REPO_ROOT/scripts/lib/ime-test.sh"

# Installs the package built by test-all.sh, runs it, removes it (see installed-package.sh).
if [ -n "${MEMO_TEST_DEB:-}" ]; then
  step "Installed package: dpkg -i, launch, memo-cli, dpkg -r"
  bash "$REPO_ROOT/scripts/lib/installed-package.sh" "$MEMO_TEST_DEB"
fi
