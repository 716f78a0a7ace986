#!/bin/bash
# session 5, device run 12 (H200): the committed code: bench.py (GPU items against the floor), blur back to back, cllimits
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r12; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
{ step cllimits; nvidia-smi -L; for i in 1 2; do .device/tools/cllimits 1920 1080 1 | head -7; .device/tools/cllimits 3840 2160 1 | head -7; done; } > $R/cllimits.txt 2>&1
{ for pass in 1 2; do step "pass $pass blur default"; for sz in "1920 1080" "3840 2160"; do timeout 60 build/bench/bench_blur_frames $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"; done; done; } > $R/blur.txt 2>&1
{ step "bench.py gpu"; timeout 200 python3 bench/bench.py --items clblur,clsobel,blur+sobel,blur+sobel+histeq --sizes 1080p,4K --formats GRAY8,NV12 --devices gpu --kinds ours,floor --reps 3 --seconds 0.2 --out $R/chain; echo "exit $?"; } > $R/benchpy.txt 2>&1
step "all done"
cd $O && tar czf s5r12.tgz s5r12 && rm -rf s5r12
