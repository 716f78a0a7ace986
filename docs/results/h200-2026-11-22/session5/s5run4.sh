#!/bin/bash
# session 5, device run 4: narrow work-groups for tiled and vertical-first
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r4; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
b() { for sz in "1920 1080" "3840 2160"; do timeout 60 build/bench/bench_blur_frames $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"; done; }
{ for pass in 1 2; do for vf in 1 0; do for t in auto 16:32x4 8:32x2 16:32x2 32:32x2 4:32x1 8:32x1 16:32x1 8:32x4 32:32x4 4:32x2; do
    export GST_CL_BLUR_VFIRST=$vf; if [ $t = auto ]; then unset GST_CL_BLUR_TILE; else export GST_CL_BLUR_TILE=$t; fi
    step "pass $pass vfirst $vf tile $t"; b
  done; done; done; unset GST_CL_BLUR_TILE GST_CL_BLUR_VFIRST; } > $R/shapes.txt 2>&1
step "all done"
cd $O && tar czf s5r4.tgz s5r4 && rm -rf s5r4
