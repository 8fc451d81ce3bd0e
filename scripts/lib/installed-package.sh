#!/usr/bin/env bash
# Installs the .deb given as $1 on this machine, checks what it put where, launches the
# installed app under the current display and has it answer one message, runs memo-cli
# from PATH, then removes the package and checks that nothing of it is left. Runs inside
# the headless session of desktop-session.sh. Never touches a Memo someone installed.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

deb=${1:?usage: installed-package.sh PACKAGE.deb}
package=$(dpkg-deb -f "$deb" Package)
if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
  echo "skipped: $package is already installed on this machine; the package test does not replace it"
  exit 0
fi

files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print substr($6, 2)}')
removed=0
remove() {
  if [ "$removed" -eq 0 ]; then
    removed=1
    as_root dpkg -r "$package" >/dev/null || true
  fi
}
trap remove EXIT

step "Installing $(basename "$deb") ($(( $(stat -c %s "$deb") / 1024 )) KB)"
as_root dpkg -i "$deb"

step "Installed files"
for path in /usr/bin/memo-desktop /usr/bin/memo-cli /usr/share/applications/Memo.desktop; do
  [ -f "$path" ] || die "missing after install: $path"
done
for size in 16x16 32x32 48x48 64x64 128x128 256x256 512x512; do
  [ -f "/usr/share/icons/hicolor/$size/apps/memo-desktop.png" ] || die "missing icon: $size"
done
desktop-file-validate /usr/share/applications/Memo.desktop
for binary in /usr/bin/memo-desktop /usr/bin/memo-cli; do
  # What users get carries no debug info; neither may what the suite installs.
  if file "$binary" | grep -q 'with debug_info'; then
    die "$binary is packaged with its debug info (not stripped)"
  fi
done
# Declaring folders would make Memo the default folder opener where no default is set
# ("Memo.desktop" sorts before the file manager), as VS Code and Zed found: the entry
# declares none, and Dolphin gets an "Open with Memo" action instead.
if grep -q '^MimeType=' /usr/share/applications/Memo.desktop; then
  die "the desktop entry declares MIME types: it could become the default for folders"
fi
grep -q '^Exec=memo-desktop %f' /usr/share/kio/servicemenus/memo-open-folder.desktop ||
  die "the folder action for file managers (KDE service menu) is missing"
echo "binaries, desktop entry and icons in place; desktop entry valid"

step "memo-cli from PATH"
[ "$(command -v memo-cli)" = /usr/bin/memo-cli ] || die "memo-cli is not the installed one on PATH"
version=$(memo-cli --version)
echo "$version"
[[ "$version" == "memo-cli "* ]] || die "unexpected: $version"

step "The installed app answers a message"
(cd tests/e2e && MEMO_APP_BINARY=/usr/bin/memo-desktop \
  node --test --test-concurrency=1 --test-reporter=spec installed/)

step "Removing the package"
remove
for path in $files; do
  [ ! -e "$path" ] || die "left behind after dpkg -r: $path"
done
echo "nothing of $package is left"
