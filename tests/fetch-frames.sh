#!/bin/sh
# Real photographs for the pipeline tests: the sample images that Debian's
# python3-skimage package ships, extracted from its .deb (no install needed).
# Usage: tests/fetch-frames.sh DIR
set -eu
dir=${1:?usage: fetch-frames.sh DIR}
[ -f "$dir/astronaut.png" ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A machine whose package lists were never fetched needs an update first.
(cd "$tmp" && apt-get download -q python3-skimage >/dev/null 2>&1) || {
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q >/dev/null
  (cd "$tmp" && apt-get download -q python3-skimage >/dev/null)
}
dpkg-deb -x "$tmp"/python3-skimage_*.deb "$tmp/x"
mkdir -p "$dir"
for f in astronaut.png coffee.png camera.png chelsea.png; do
  cp "$tmp/x/usr/lib/python3/dist-packages/skimage/data/$f" "$dir/"
done
