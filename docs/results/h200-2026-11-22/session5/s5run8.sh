#!/bin/bash
# session 5, device run 8: register use (-cl-nv-verbose) and -cl-nv-maxrregcount against the default
export GST_PLUGIN_PATH=$PWD/build GST_CL_CACHE_DIR=/tmp/clcache
O=${OUT:-/tmp/out}; R=$O/s5r8; mkdir -p $R
step() { echo "=== $1 ($(date +%T))"; }
W5="7.076637133e-02f,2.444603989e-01f,3.695464595e-01f,2.444603989e-01f,7.076637133e-02f"; W3="1.384645883e-01f,7.230708233e-01f,1.384645883e-01f"
BASE="-cl-std=CL1.2 -DKX=5 -DKY=5 -DWX=$W5 -DWY=$W5 -DWITH_PLANES=1 -DKXC=3 -DKYC=3 -DWXC=$W3 -DWYC=$W3 -DWITH_ROWS=1 -DWITH_BANDS=0 -DWITH_FIXED=0 -cl-nv-verbose"
{ step "blur vfirst 16:32x4"; .devbuild/exp/buildlog kernels/common.cl kernels/blur.cl "$BASE -DTILE_H1=16 -DTILE_H2=16 -DTILE_H4=16 -DTILE_HC1=16 -DTILE_HC2=16 -DWG_X=32 -DWG_Y=4 -DVFIRST=1" | grep -iE "status|Function properties|Compiling entry|registers|spill|error" | head -40
  step "blur hfirst 32:32x8"; .devbuild/exp/buildlog kernels/common.cl kernels/blur.cl "$BASE -DTILE_H1=32 -DTILE_H2=32 -DTILE_H4=32 -DTILE_HC1=32 -DTILE_HC2=32 -DWG_X=32 -DWG_Y=8 -DVFIRST=0" | grep -iE "status|Compiling entry|registers|spill|error" | head -40
  step "sobel vfirst"; .devbuild/exp/buildlog kernels/common.cl kernels/sobel.cl "-cl-std=CL1.2 -DK=3 -DMODE=0 -DTHRESH=0 -DBAND_H=8 -DTILED=1 -DWG_X=32 -DWG_Y=4 -DTH=16 -DVFIRST=1 -DSM=1.0f,2.0f,1.0f -DDV=-1.0f,0.0f,1.0f -DSCALE=1.0f -DDELTA=0.0f -cl-nv-verbose" | grep -iE "status|Compiling entry|registers|spill|error" | head -20
} > $R/registers.txt 2>&1
b() { for sz in "1920 1080" "3840 2160"; do timeout 60 build/bench/bench_blur_frames $sz 1.1 5 200 gpu 2>&1 | grep -E "GRAY8|one-launch|rror|FAIL|ail"; done; }
{ for pass in 1 2; do for r in none 32 40 48 64; do
    if [ $r = none ]; then unset GST_CL_BUILD_OPTIONS; else export GST_CL_BUILD_OPTIONS="-cl-nv-maxrregcount=$r"; fi
    step "pass $pass blur maxrregcount $r"; b; done; done; unset GST_CL_BUILD_OPTIONS; } > $R/blur-regs.txt 2>&1
step "all done"
cd $O && tar czf s5r8.tgz s5r8 && rm -rf s5r8
