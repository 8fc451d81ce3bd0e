# Shared by run-app.sh and test-all.sh: step headers and idempotent installers.
# Sourced, not executed; the caller has already `set -euo pipefail`.

# shellcheck disable=SC2034  # REPO_ROOT is used by the scripts that source this file.
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Packages the app links against (webkit2gtk-4.1, gtk-3, soup-3) plus what tray/menu/icon
# features of Tauri pull in, and a C toolchain for -sys crates.
APT_APP_PACKAGES=(
  libwebkit2gtk-4.1-dev build-essential pkg-config file
  libxdo-dev libayatana-appindicator3-dev librsvg2-dev
  # HTTPS trusts the system's certificate store (rustls-platform-verifier).
  ca-certificates
)
# Headless display, WebDriver for WebKitGTK, a Secret Service keychain for the keyring
# tests, ImageMagick for icon generation and screenshots, and desktop-file-validate for
# the package test, a notification daemon (dunst) whose notifications the tests click, and
# xdotool for key presses that go through the X server (WebDriver's never reach GTK), and
# tzdata for the time-zone test's real zone (a minimal Debian has none).
APT_TEST_PACKAGES=(
  xvfb xauth imagemagick webkit2gtk-driver gnome-keyring dbus-x11 libsecret-tools libdbus-1-dev
  desktop-file-utils dunst xdotool tzdata
  # A small CJK font, so the Chinese interface's screenshots show real glyphs.
  fonts-wqy-microhei
  # A real input method (pinyin) for scripts/lib/ime-test.sh.
  fcitx5 fcitx5-chinese-addons fcitx5-frontend-gtk3
)

# Vite 7 refuses older Node releases.
NODE_MIN_MAJOR=20
NODE_MIN_MINOR=19

STEP_STARTED_AT=0
step() {
  local now
  now=$(date +%s)
  if [ "$STEP_STARTED_AT" -ne 0 ]; then
    printf '    (%ss)\n' "$((now - STEP_STARTED_AT))"
  fi
  STEP_STARTED_AT=$now
  printf '\n==> %s\n' "$*"
}

die() {
  printf '\nerror: %s\n' "$*" >&2
  exit 1
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root for: $* (run as root or install sudo)"
  fi
}

node_is_recent() {
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 1
  local version major minor
  version=$(node -p 'process.versions.node')
  major=${version%%.*}
  minor=${version#*.}
  minor=${minor%%.*}
  [ "$major" -gt "$NODE_MIN_MAJOR" ] ||
    { [ "$major" -eq "$NODE_MIN_MAJOR" ] && [ "$minor" -ge "$NODE_MIN_MINOR" ]; }
}

# Debian 12's nodejs is 18: take npm from apt, then a current Node from the npm registry's
# platform package (a plain binary, no install script), into /usr/local, which comes
# before /usr on PATH.
install_node() {
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64) arch=arm64 ;;
    *) die "no Node.js package for $(uname -m); install Node.js ${NODE_MIN_MAJOR}.${NODE_MIN_MINOR}+ yourself" ;;
  esac
  command -v npm >/dev/null 2>&1 || ensure_apt_packages nodejs npm
  echo "installing Node.js ${NODE_MIN_MAJOR}.${NODE_MIN_MINOR}+ from the npm registry (node-linux-$arch)"
  as_root npm install --global --prefix /usr/local "node-linux-$arch@^${NODE_MIN_MAJOR}.${NODE_MIN_MINOR}"
  hash -r
}

require_toolchains() {
  command -v cargo >/dev/null 2>&1 ||
    die "cargo not found. Install Rust with rustup (https://rustup.rs), then open a new shell."
  node_is_recent || install_node
  node_is_recent || die "Node.js ${NODE_MIN_MAJOR}.${NODE_MIN_MINOR}+ is needed and could not be installed"
  echo "cargo: $(cargo --version)"
  echo "node:  $(node --version), npm $(npm --version 2>/dev/null)"
}

apt_package_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# Installs only the packages that are missing; does nothing (not even `apt-get update`)
# when all are present, so a warm machine pays no network round trip.
ensure_apt_packages() {
  local missing=() package
  for package in "$@"; do
    apt_package_installed "$package" || missing+=("$package")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "all ${#} apt packages present"
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install by hand: ${missing[*]}"
  echo "installing: ${missing[*]}"
  # Some images delete downloaded .debs between dpkg runs, which fails large installs with
  # "cannot access archive"; a private archive directory sidesteps that.
  local archives=/var/tmp/memo-apt-archives
  as_root mkdir -p "$archives/partial"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  local attempt
  for attempt in 1 2; do
    if as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dir::Cache::Archives="$archives" "${missing[@]}"; then
      return 0
    fi
    echo "apt-get install failed (attempt $attempt); retrying once"
  done
  die "could not install: ${missing[*]}"
}

# Installs only when package-lock.json (or package.json) changed since the last install,
# recorded in node_modules so deleting node_modules also forces a reinstall.
#
# Why `npm install --no-save` and not `npm ci`: lockfiles written against a registry
# mirror that lacks other platforms' optional binaries (@rollup/rollup-darwin-*,
# @tauri-apps/cli-win32-*, ...) omit those entries, and `npm ci` then rejects the lock as
# out of sync. `install --no-save` still installs exactly the locked versions and never
# rewrites the lockfile.
ensure_npm_deps() {
  local dir="$1" stamp hash
  stamp="$dir/node_modules/.memo-install-stamp"
  hash=$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ]; then
    echo "$dir: node_modules up to date"
    return 0
  fi
  echo "$dir: npm install (locked versions)"
  (cd "$dir" && npm install --no-save --no-audit --no-fund)
  printf '%s\n' "$hash" >"$stamp"
}

tauri_driver_path() {
  if command -v tauri-driver >/dev/null 2>&1; then
    command -v tauri-driver
  elif [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/tauri-driver" ]; then
    echo "${CARGO_HOME:-$HOME/.cargo}/bin/tauri-driver"
  fi
}

ensure_tauri_driver() {
  local found listed
  found=$(tauri_driver_path)
  # tauri-driver has no --version flag; cargo's install record says which one we have.
  listed=$(cargo install --list 2>/dev/null | grep '^tauri-driver ' || true)
  if [ -n "$found" ] && { [ -z "$listed" ] || [[ "$listed" == "tauri-driver v2."* ]]; }; then
    echo "tauri-driver present: $found ${listed:+(${listed%:})}"
    return 0
  fi
  cargo install tauri-driver --version '^2' --locked
}

build_ui() {
  (cd "$REPO_ROOT/ui" && npm run build)
}

# The binary that the e2e suite and run-app.sh use: UI embedded through Tauri's custom
# protocol, so it needs no dev server.
build_app_with_ui() {
  (cd "$REPO_ROOT" && cargo build -p memo-desktop --features tauri/custom-protocol "$@")
}
