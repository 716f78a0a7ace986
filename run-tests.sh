#!/bin/sh
# One command for the whole test suite: install, build, fetch the real test
# photographs, run every test (kernel checker, element tests, OpenCV pipelines).
set -eu
cd "$(dirname "$0")"
tools/setup.sh
tests/fetch-frames.sh build/test-frames
status=0
meson test -C build --print-errorlogs "$@" || status=$?
/usr/bin/python3 tools/test-summary.py build/meson-logs/testlog.json
exit $status
