#!/usr/bin/env bash
# Regenerates icons/ from shapes only (no fonts), so the result is the same on any machine
# with ImageMagick 6 or 7. The generated files are committed; run this only to change them.
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v magick >/dev/null 2>&1; then IM=(magick); else IM=(convert); fi
out=icons
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1024px master: an indigo rounded square carrying a white "M" stroke that ends in a
# small chat-bubble dot — Memo is a conversation with a coding agent.
"${IM[@]}" -size 1024x1024 xc:none \
  \( -size 1024x1024 gradient:'#6366F1'-'#4338CA' \) \
  \( -size 1024x1024 xc:none -fill white -draw 'roundrectangle 64,64 960,960 200,200' \) \
  -delete 0 -compose DstIn -composite \
  -compose Over \
  -fill none -stroke white -strokewidth 96 \
  -draw "stroke-linecap round stroke-linejoin round polyline 292,716 292,316 512,556 732,316 732,716" \
  -stroke none -fill '#C7D2FE' -draw 'circle 732,716 732,676' \
  "PNG32:$tmp/master.png"

"${IM[@]}" "$tmp/master.png" -resize 512x512 "PNG32:$out/icon.png"
for size in 16 24 32 48 64 256; do
  "${IM[@]}" "$tmp/master.png" -resize "${size}x${size}" "PNG32:$out/${size}x${size}.png"
done
"${IM[@]}" "$tmp/master.png" -resize 128x128 "PNG32:$out/128x128.png"
"${IM[@]}" "$tmp/master.png" -resize 256x256 "PNG32:$out/128x128@2x.png"
"${IM[@]}" "$tmp/master.png" -define icon:auto-resize=256,128,64,48,32,16 "$out/icon.ico"
echo "icons written to $out/"
