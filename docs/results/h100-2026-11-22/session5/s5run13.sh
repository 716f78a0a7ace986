#!/bin/bash
# session 5, device run 13 (H100): the committed code: checkers (tiled, both orders), blur back to back, bench.py kernels
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r13; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step cllimits; nvidia-smi -L; .device/tools/cllimits 1920 1080 1 | head -7; .device/tools/cllimits 3840 2160 1 | head -7; } > $R/cllimits.txt 2>&1
{ for pass in 1 2; do step "pass $pass blur default"; for sz in "1920 1080" "3840 2160"; do timeout 60 build/bench/bench_blur_frames $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"; done; done; } > $R/blur.txt 2>&1
{ for o in 1 0; do step "blur checker GPU tiled vfirst=$o"; GST_CL_BLUR_VFIRST=$o KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_blur_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5; echo "exit ${PIPESTATUS[0]}"
  step "sobel checker GPU tiled vfirst=$o"; GST_CL_SOBEL_VFIRST=$o KERNELCHECK_DEVICES=gpu timeout 150 build/tests/check_sobel_kernels tiled 2>&1 | grep -E "FAIL|passed" | cut -c1-300 | tail -5; echo "exit ${PIPESTATUS[0]}"; done; } > $R/check.txt 2>&1
{ step "bench.py gpu"; timeout 150 python3 bench/bench.py --items clblur,clsobel --sizes 1080p,4K --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --out $R/chain; echo "exit $?"; } > $R/benchpy.txt 2>&1
step "all done"
cd $O && tar czf s5r13.tgz s5r13 && rm -rf s5r13
