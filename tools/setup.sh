#!/bin/sh
# Installs what the plugin, its tests and its demo need (Debian 12 packages)
# and builds it with meson into ./build. Re-running is cheap.
# Usage: tools/setup.sh [--bench]   (--bench adds the benchmark's peers)
set -eu
cd "$(dirname "$0")/.."

packages="meson ninja-build pkg-config gcc libc6-dev
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo libva-dev
  python3-opencv python3-numpy python3-gst-1.0 gir1.2-gst-plugins-base-1.0
  gir1.2-gstreamer-1.0
  gstreamer1.0-plugins-ugly gstreamer1.0-plugins-bad gstreamer1.0-libav
  gstreamer1.0-rtsp gir1.2-gst-rtsp-server-1.0 ffmpeg"
# ugly: x264enc; bad: h264parse; libav: H.264 decoding; rtsp + gir: the RTSP
# server; ffmpeg: ffprobe, the integration tests' outside view.
[ "${1:-}" = "--bench" ] && packages="$packages gstreamer1.0-opencv
  python3-matplotlib"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "Installing:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends $missing
fi

[ -f build/build.ninja ] || meson setup build
ninja -C build
