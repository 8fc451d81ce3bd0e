#!/usr/bin/env bash
# Builds Memo's .deb (the app, memo-cli on PATH, icons, a desktop entry, and Dolphin's
# "Open with Memo" for folders). `--release` for the optimised package; without it a debug
# build, which is what the test suite installs (a release build takes far longer).
# Prints the package's absolute path on stdout (progress goes to stderr).
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"
# Progress goes to stderr; stdout carries only the package's path (fd 3 keeps it).
exec 3>&1 1>&2

profile=debug
tauri_flags=(--debug)
cargo_flags=()
if [ "${1:-}" = "--release" ]; then
  profile=release
  tauri_flags=()
  cargo_flags=(--release)
fi

step "memo-cli ($profile)"
cargo build -p memo-cli "${cargo_flags[@]}"

step "The app and its .deb ($profile)"
# memo-cli goes in beside the app; the path depends on the profile, so it is given here.
config=$(printf '{"bundle":{"linux":{"deb":{"files":{"/usr/bin/memo-cli":"target/%s/memo-cli"}}}}}' "$profile")
"$REPO_ROOT/ui/node_modules/.bin/tauri" build "${tauri_flags[@]}" --bundles deb --config "$config" ||
  die "tauri build failed"

deb=$(ls -t target/"$profile"/bundle/deb/*.deb | head -n 1)
[ -f "$deb" ] || die "no .deb was produced"

# The release profile strips (Cargo.toml); a debug build keeps its debug info, which would
# make the package the suite installs ~76 MB. What is packaged is stripped either way, so
# the tested package is built like the one users get.
if [ "$profile" = debug ]; then
  step "Stripping the packaged binaries"
  unpacked=$(mktemp -d)
  dpkg-deb -R "$deb" "$unpacked"
  strip --strip-debug "$unpacked/usr/bin/memo-desktop" "$unpacked/usr/bin/memo-cli"
  # The checksums dpkg keeps for the files must be those of the stripped ones.
  if [ -f "$unpacked/DEBIAN/md5sums" ]; then
    (cd "$unpacked" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z |
      xargs -0 md5sum >DEBIAN/md5sums)
  fi
  dpkg-deb --root-owner-group -b "$unpacked" "$deb" >/dev/null
  rm -rf "$unpacked"
fi
printf 'package: %s (%s KB)\n' "$deb" "$(( $(stat -c %s "$deb") / 1024 ))"
echo "$REPO_ROOT/$deb" >&3
