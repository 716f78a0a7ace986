#!/bin/bash
# Session 42, run 1: where NVIDIA's compile time goes. Each kernel of the
# chain's programs built alone, its PTX kept (build/bench/build_time with
# BUILD_TIME_BINARIES), the compute cache off; then the chain's fresh start
# (1080p NV12, device=gpu, every cache empty) with NVIDIA's
# -cl-nv-opt-level=3 (its default), 2, 1 and 0 appended to every build
# (GST_CL_BUILD_OPTIONS), and for 3, 2 and 1 the kernels' times at 1080p
# and 4K (bench.py, ours and the floor).
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run1.log") 2>&1
export GST_PLUGIN_PATH=$PWD/build GST_REGISTRY=/tmp/registry-new.bin
gst-inspect-1.0 clblur > /dev/null 2>&1
chain() {
  timeout 200 gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! clblur device=gpu ! \
    clsobel device=gpu ! clhisteq device=gpu ! fakesink 2>&1 | \
    sed 's/\x1b\[[0-9;]*m//g' | grep -o "building .*\|built .*"
}
caches=$(mktemp -d)
GST_CL_CACHE_DIR=$caches/gst CUDA_CACHE_PATH=$caches/cuda GST_DEBUG=cl:4 \
  chain > "$out/building.txt"
rm -rf "$caches"
cat "$out/building.txt" | grep built
opts() { sed -n "$1s/^building $2 \[\(.*\)\] for .*/\1/p" "$out/building.txt"; }
echo "=== PTX of each kernel alone ($(date +%T))"
for prog in histeq sobel blur; do
  n=$(grep -n "^building $prog" "$out/building.txt" | head -1 | cut -d: -f1)
  mkdir -p "$out/ptx/$prog"
  BUILD_TIME_BINARIES=$out/ptx/$prog timeout 120 build/bench/build_time \
    $prog "$(opts $n $prog)" gpu 2>&1 | grep -v "at once\|again"
done
(cd "$out/ptx" && tar czf ../ptx.tgz . && cd .. && rm -rf ptx)
for level in 3 2 1 0; do
  echo "=== -cl-nv-opt-level=$level: fresh start ($(date +%T))"
  caches=$(mktemp -d)
  export GST_CL_BUILD_OPTIONS=-cl-nv-opt-level=$level
  TIMEFORMAT="start %R s"
  time (GST_CL_CACHE_DIR=$caches/gst CUDA_CACHE_PATH=$caches/cuda \
    GST_DEBUG=cl:4 chain | grep built)
  if [ $level -ge 1 ]; then
    GST_CL_CACHE_DIR=$caches/gst CUDA_CACHE_PATH=$caches/cuda \
      timeout 110 python3 bench/bench.py --build-dir build --devices gpu \
      --sizes 1080p,4K --formats GRAY8,NV12 \
      --items clblur,clsobel,clhisteq,clhisteq-clahe --kinds ours,floor \
      --reps 2 --seconds 0.1 --out "$out/b$level" > "$out/bench$level.txt" 2>&1
    echo "bench exit $?"
    awk -F, '$7=="ours"||$7=="floor"{printf "  %s %s %s %s ms %s kernel_ms %s\n", $2, $8, $3, $6, $10, $13}' "$out/b$level/bench.csv"
  fi
  rm -rf "$caches"
done
unset GST_CL_BUILD_OPTIONS
echo "=== done $(date +%T)"
