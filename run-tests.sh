#!/bin/sh
# One command for the whole test suite: install, build, fetch the real test
# photographs, run every test (kernel checker, element tests, OpenCV pipelines),
# then the kernel, element and device=auto tests again under AddressSanitizer
# and UndefinedBehaviorSanitizer (build-asan, with the first run's program cache;
# PoCL's programs are in PoCL's own cache, which both runs share).
# Test names given as arguments run only those, without the sanitizer pass.
set -eu
cd "$(dirname "$0")"
tools/setup.sh
tests/fetch-frames.sh build/test-frames
status=0
meson test -C build --print-errorlogs "$@" || status=$?
/usr/bin/python3 tools/test-summary.py build/meson-logs/testlog.json
if [ $# -eq 0 ]; then
  [ -f build-asan/build.ninja ] ||
    meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false
  ninja -C build-asan
  # (empty where the only device is PoCL's: PoCL keeps its programs)
  mkdir -p build/test-cl-cache build-asan/test-cl-cache
  cp -r build/test-cl-cache/. build-asan/test-cl-cache/
  meson test -C build-asan --print-errorlogs --suite elements --suite kernels \
    --suite auto ||
    status=$?
  printf 'sanitizers: '
  /usr/bin/python3 tools/test-summary.py build-asan/meson-logs/testlog.json
fi
exit $status
