#!/bin/sh
# Fault injection on a GPU, for the calls only made on devices that do not
# share host memory (staging map, uploads, downloads). Needs a build with
# the shim (build/tests/libclshim.so) and a GPU OpenCL driver. Each fault
# must end gst-launch with an element error naming it (exit status 1), and
# clshim must report no OpenCL object alive at exit.
# Usage: tools/faults-gpu.sh [device]   (default: gpu)
set -u
cd "$(dirname "$0")/.."
device=${1:-gpu}
export GST_PLUGIN_PATH=$PWD/build
status=0
for spec in clEnqueueMapBuffer:1:CL_MAP_FAILURE clEnqueueMapBuffer:3 \
    clEnqueueWriteBuffer:2 clEnqueueReadBuffer:2 clWaitForEvents:4 \
    clEnqueueNDRangeKernel:5:CL_OUT_OF_RESOURCES clCreateBuffer:4; do
  out=$(CLSHIM_FAIL=$spec CLSHIM_REPORT=- \
    LD_PRELOAD=$PWD/build/tests/libclshim.so gst-launch-1.0 -q \
    videotestsrc num-buffers=30 ! video/x-raw,format=NV12,width=640,height=480 \
    ! clblur device=$device ! clsobel device=$device ! videoconvert ! \
    fakesink 2>&1)
  rc=$?
  # The last report is gst-launch's own (the registry scanner may report
  # first).
  live=$(echo "$out" | sed -n 's/.*live at exit: //p' | tail -1)
  injected=$(echo "$live" | sed -n 's/.*faults injected \([0-9]*\).*/\1/p')
  err=$(echo "$out" | grep -m1 '^ERROR' || true)
  echo "$spec: exit $rc; $err; live at exit: $live"
  case "$live" in
    "mem 0 "*"kernel 0 "*"program 0 "*"queue 0 "*"context 0 "*"event 0 "*) ;;
    *) status=1 ;;
  esac
  if [ "$injected" = 0 ]; then
    # The driver's path never made that call (e.g. no ReadBuffer where
    # downloads are maps): nothing was injected, so nothing to judge.
    echo "  $spec: not reached on this device (no such call made)"
    [ $rc -eq 0 ] || status=1
  else
    [ $rc -ne 0 ] || status=1
  fi
done
exit $status
