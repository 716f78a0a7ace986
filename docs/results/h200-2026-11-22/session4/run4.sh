#!/bin/bash
# device run 4 (session 4): tiled blur with word loads + vertical registers (new) vs before (old binary), same call
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/r4; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step cllimits; .device/tools/cllimits 1920 1080 1 | head -4; .device/tools/cllimits 3840 2160 1 | head -4
  for i in 1 2 3; do for b in old new; do
    bin=build/bench/bench_blur_frames; [ $b = old ] && bin=.devbuild/bbf.old
    for sz in "1920 1080" "3840 2160"; do step "$b $sz round $i"; timeout 60 $bin $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch"; done
  done; done
  for b in old new; do bin=build/bench/bench_blur_frames; [ $b = old ] && bin=.devbuild/bbf.old
    step "$b 1080p 9x9 (sigma 1.5)"; timeout 60 $bin 1920 1080 1.5 9 200 gpu 2>&1 | grep -E "GRAY8|one-launch"; done
} > $R/blur.txt 2>&1
{ step "blur checker, GPU, tiled"; KERNELCHECK_DEVICES=gpu timeout 200 build/tests/check_blur_kernels tiled 2>&1 | grep -E "FAIL|passed" | head; echo "exit ${PIPESTATUS[0]}"
  step "histeq checker, GPU"; KERNELCHECK_DEVICES=gpu timeout 100 build/tests/check_histeq_kernels 2>&1 | grep -E "FAIL|passed" | head; echo "exit ${PIPESTATUS[0]}"; } > $R/check.txt 2>&1
step done
cd $O && tar czf r4.tgz r4 && rm -rf r4
