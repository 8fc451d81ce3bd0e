#!/usr/bin/env bash
# The check to run before each release: builds the optimised .deb (the one users get) and
# puts it through the same installed-package test the suite gives the debug package —
# install, files and desktop entry, launch and one answered message, memo-cli on PATH,
# removal leaving nothing — under a headless display with its own D-Bus and keychain.
# Not part of test-all.sh: a release build takes far longer than CI allows.
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"

step "System packages (apt: app + tests)"
ensure_apt_packages "${APT_APP_PACKAGES[@]}" "${APT_TEST_PACKAGES[@]}"
ensure_npm_deps ui
ensure_npm_deps tests/e2e
build_ui

step "The release package"
deb=$(scripts/package-deb.sh --release)

step "Installing, launching and removing it"
MEMO_TEST_DEB="$deb" xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session -- \
  bash -c 'bash scripts/lib/installed-package.sh "$MEMO_TEST_DEB"'
echo "release package checked: $deb"
