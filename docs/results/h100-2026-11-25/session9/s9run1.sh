#!/bin/bash
# session 9, device run 1: the vertical-first blur tiles with 4, 8 and 16 bytes per work-item across
# (GST_CL_BLUR_COLW), checker on the GPU, tile shapes, bench.py kernel/floor
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s9r1; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
b() { for sz in "1920 1080" "3840 2160"; do timeout 60 build/bench/bench_blur_frames $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"; done; }
{ nvidia-smi -L; for i in 1 2; do .device/tools/cllimits 1920 1080 1 | head -7; .device/tools/cllimits 3840 2160 1 | head -7; done; } > $R/cllimits.txt 2>&1
{ for cw in 16 8 4; do step "blur checker GPU tiled colw=$cw"; GST_CL_BLUR_COLW=$cw KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_blur_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5; echo "exit ${PIPESTATUS[0]}"; done; } > $R/check.txt 2>&1
{ for pass in 1 2; do for cw in 4 16 8; do for t in auto 8:32x4 32:32x4 16:32x8 32:32x8 8:64x4 16:64x4 16:16x8; do
  step "pass $pass colw=$cw tile=$t"
  if [ $t = auto ]; then GST_CL_BLUR_COLW=$cw b; else GST_CL_BLUR_COLW=$cw GST_CL_BLUR_TILE=$t b; fi
done; done; done; } > $R/blur.txt 2>&1
{ for cw in 4 16 4 16; do step "bench.py colw=$cw"; GST_CL_BLUR_COLW=$cw timeout 120 python3 bench/bench.py --items clblur --sizes 1080p,4K --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --out $R/bp$cw 2>&1 | grep -A8 "Headline"; done; } > $R/benchpy.txt 2>&1
step "all done"
cd $O && tar czf s9r1.tgz s9r1 && rm -rf s9r1
