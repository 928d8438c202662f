#!/usr/bin/env bash
# Regenerates every icon in build/ from the drawing below with ImageMagick (apt: imagemagick).
# The outputs are committed; run this only after changing the design.
#   build/icon.png            1024x1024 app icon (electron-builder makes the macOS .icns from it)
#   build/icon.ico            Windows icon, 16-256 px
#   build/icons/NxN.png       Linux icon set
#   build/tray/<state>.png    16 px tray icons (+ @2x), one per server state and chatgpt-<state> per tunnel state
set -euo pipefail
cd "$(dirname "$0")"
CONVERT=${CONVERT:-convert}
[ -x /usr/bin/convert ] && CONVERT=${CONVERT_BIN:-/usr/bin/convert}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The plug glyph on a 1024 canvas, white on transparent.
glyph() {
  "$CONVERT" -size 1024x1024 xc:none -fill white -stroke none \
    -draw "roundrectangle 392,210 452,420 30,30" \
    -draw "roundrectangle 572,210 632,420 30,30" \
    -draw "path 'M 300,400 L 724,400 L 724,520 Q 724,720 512,720 Q 300,720 300,520 Z'" \
    -draw "roundrectangle 482,700 542,830 24,24" \
    "$1"
}

# A rounded square (app icon) or circle (tray) in a colour, with the glyph on top.
badge() { # out size colour1 colour2 shape
  local out=$1 size=$2 c1=$3 c2=$4 shape=$5
  if [ "$shape" = app ]; then
    "$CONVERT" -size 1024x1024 gradient:"$c1"-"$c2" \
      \( -size 1024x1024 xc:none -fill white -draw "roundrectangle 64,64 960,960 200,200" \) \
      -alpha set -compose DstIn -composite "$work/bg.png"
    "$CONVERT" "$work/bg.png" \( "$work/glyph.png" -resize 62% -background none -gravity center -extent 1024x1024 \) \
      -gravity center -compose Over -composite -resize "${size}x${size}" -depth 8 "$out"
  else
    "$CONVERT" -size 1024x1024 xc:none -fill "$c1" -draw "circle 512,512 512,24" "$work/bg.png"
    "$CONVERT" "$work/bg.png" \( "$work/glyph.png" -resize 74% -background none -gravity center -extent 1024x1024 \) \
      -gravity center -compose Over -composite -filter Lanczos -resize "${size}x${size}" "$out"
  fi
}

glyph "$work/glyph.png"

badge icon.png 1024 '#19b48c' '#0a6b53' app
mkdir -p icons
for n in 16 32 48 64 128 256 512; do "$CONVERT" icon.png -filter Lanczos -resize "${n}x${n}" -depth 8 "icons/${n}x${n}.png"; done
"$CONVERT" icons/16x16.png icons/32x32.png icons/48x48.png icons/64x64.png icons/128x128.png icons/256x256.png icon.ico

mkdir -p tray
for state in running:#17a57f busy:#2f7de1 paused:#d38b12 stopped:#7b828c error:#d2453d; do
  name=${state%%:*} colour=${state#*:}
  badge "tray/${name}.png" 16 "$colour" "$colour" tray
  badge "tray/${name}@2x.png" 32 "$colour" "$colour" tray
done
# ChatGPT connection states: the same badge with a white ring, so "connected" reads at a glance.
ring() { # out size colour
  local out=$1 size=$2 colour=$3
  badge "$work/ring.png" 1024 "$colour" "$colour" tray
  "$CONVERT" "$work/ring.png" -fill none -stroke white -strokewidth 110 -draw "circle 512,512 512,80" \
    -filter Lanczos -resize "${size}x${size}" "$out"
}
for state in starting:#5b5fd6 ready:#17a57f degraded:#d38b12 error:#d2453d; do
  name=${state%%:*} colour=${state#*:}
  ring "tray/chatgpt-${name}.png" 16 "$colour"
  ring "tray/chatgpt-${name}@2x.png" 32 "$colour"
done
echo "icons written to $(pwd)"
