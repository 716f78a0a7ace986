#!/bin/sh
# Fault injection on a GPU, for the calls only made on devices that do not
# share host memory (staging map, uploads and their barrier, downloads).
# The pipeline's consumer maps no frame, so only the download queued right
# after the last kernel is reached here: tests/check_faults.c
# (test_faults_transfers, run with GST_CL_STAGING=1 by the test
# faults-staged) fails downloads under a consumer that checks every frame. Needs a build with
# the shim (build/tests/libclshim.so) and a GPU OpenCL driver. Each fault
# must end gst-launch with an element error naming it (exit status 1), and
# clshim must report no OpenCL object alive at exit.
# Usage: tools/faults-gpu.sh [device]   (default: gpu)
# With AUTO_GPU=P.D (the GPU's platform.device index; a CPU OpenCL device,
# e.g. PoCL, must be present too) it also runs device=auto with faults
# aimed at that GPU (clshim's NAME@P.D): each must move the chain to the
# CPU device (a gst-cl-device-switch message of reason fault), every frame
# delivered (exit status 0), nothing alive at exit.
set -u
cd "$(dirname "$0")/.."
device=${1:-gpu}
export GST_PLUGIN_PATH=$PWD/build
status=0

# clshim's report of a run's output: sets $live and $injected, and fails
# the script if an OpenCL object was left alive. The last report is
# gst-launch's own (the registry scanner may report first).
read_report () {
  live=$(echo "$1" | sed -n 's/.*live at exit: //p' | tail -1)
  injected=$(echo "$live" | sed -n 's/.*faults injected \([0-9]*\).*/\1/p')
  case "$live" in
    "mem 0 "*"kernel 0 "*"program 0 "*"queue 0 "*"context 0 "*"event 0 "*) ;;
    *) status=1 ;;
  esac
}
# Faults the chain must report, then faults it must absorb (exit 0): an
# upload queued at the writer's unmap that fails is made again at the
# kernel's map, and a download queued after the last kernel that fails is
# made again at the consumer's map (GST_CL_EARLY_UPLOADS and
# GST_CL_EARLY_DOWNLOADS at their defaults).
for spec in clEnqueueMapBuffer:1:CL_MAP_FAILURE clEnqueueMapBuffer:3 \
    clEnqueueWriteBuffer:2+ clEnqueueBarrierWithWaitList:3 \
    clWaitForEvents:4 \
    clEnqueueNDRangeKernel:5:CL_OUT_OF_RESOURCES clCreateBuffer:4 \
    absorbed: clEnqueueWriteBuffer:2 clEnqueueReadBuffer:2; do
  if [ "$spec" = absorbed: ]; then
    absorbed=yes
    continue
  fi
  out=$(CLSHIM_FAIL=$spec CLSHIM_REPORT=- \
    LD_PRELOAD=$PWD/build/tests/libclshim.so gst-launch-1.0 -q \
    videotestsrc num-buffers=30 ! video/x-raw,format=NV12,width=640,height=480 \
    ! clblur device=$device ! clsobel device=$device ! videoconvert ! \
    fakesink 2>&1)
  rc=$?
  read_report "$out"
  err=$(echo "$out" | grep -m1 '^ERROR' || true)
  echo "$spec: exit $rc; $err; live at exit: $live"
  if [ "$injected" = 0 ]; then
    # The driver's path never made that call (e.g. no ReadBuffer where
    # downloads are maps): nothing was injected, so nothing to judge.
    echo "  $spec: not reached on this device (no such call made)"
    [ $rc -eq 0 ] || status=1
  elif [ "${absorbed:-}" = yes ]; then
    [ $rc -eq 0 ] || status=1
  else
    [ $rc -ne 0 ] || status=1
  fi
done
if [ -n "${AUTO_GPU:-}" ]; then
  # A cache of its own: a refused cached binary is deleted.
  auto_cache=$(mktemp -d)
  # The last one is absorbed where it happens (an early upload made
  # again): every frame, with or without a move.
  for spec in clEnqueueNDRangeKernel@$AUTO_GPU:5:CL_OUT_OF_RESOURCES \
      clEnqueueWriteBuffer@$AUTO_GPU:20+ \
      clBuildProgram@$AUTO_GPU:1+ clCreateContext@$AUTO_GPU:1 \
      clEnqueueWriteBuffer@$AUTO_GPU:2; do
    out=$(CLSHIM_FAIL=$spec CLSHIM_REPORT=- GST_CL_CACHE_DIR=$auto_cache \
      LD_PRELOAD=$PWD/build/tests/libclshim.so gst-launch-1.0 -m \
      videotestsrc num-buffers=30 ! \
      video/x-raw,format=NV12,width=640,height=480 ! clblur ! clhisteq ! \
      videoconvert ! fakesink 2>&1)
    rc=$?
    read_report "$out"
    moved=$(echo "$out" | grep -c 'reason=(string)fault' || true)
    echo "auto, $spec: exit $rc; $moved fault switch messages; live at exit: $live"
    if [ "$injected" = 0 ]; then
      echo "  auto, $spec: not reached on this device (no such call made)"
      [ $rc -eq 0 ] || status=1
    elif [ "$spec" = "clEnqueueWriteBuffer@$AUTO_GPU:2" ]; then
      [ $rc -eq 0 ] || status=1
    else
      [ $rc -eq 0 ] && [ "$moved" -gt 0 ] || status=1
    fi
  done
  rm -rf "$auto_cache"
fi
exit $status
