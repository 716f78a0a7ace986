#!/bin/bash
# Session 38, run 1: device=auto (the elements' default) with untimed
# queues on NVIDIA. 1. its per-frame latency on the host's clock against
# the device's (GST_CL_PROFILING=1 logs both), idle and under a load;
# 2. the queued chain and the chain alone (bench_pipeline --touch):
# device=auto with session 37's plugin (build/oldgst: timed queues), with
# this one (untimed), with this one timed, and device=gpu, in turns;
# 3. the auto timeline under four loaders at 640x480 (the switch is made
# on the latency signal, now the host's clock).
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run1.log") 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache
AUTO="clblur sigma=1.1 kernel-size=5 ! clsobel kernel-size=3 mode=magnitude ! clhisteq"
GPU="clblur device=gpu sigma=1.1 kernel-size=5 ! clsobel device=gpu kernel-size=3 mode=magnitude ! clhisteq device=gpu"
bp() { local e=$1; shift; env $e timeout 60 build/bench/bench_pipeline --touch --warmup 200 "$@" 2>&1 | grep '^{' | sed -E 's/"pipeline":"[^"]*",//; s/"out_bytes.*host-waits":/waits=/; s/,"NVIDIA H200\|frame-copies.*//'; }
venv() {
  case $1 in
    old-auto) echo "GST_PLUGIN_PATH=$PWD/build/oldgst" ;;
    new-auto|new-gpu) echo "GST_PLUGIN_PATH=$PWD/build" ;;
    new-auto-timed) echo "GST_PLUGIN_PATH=$PWD/build GST_CL_PROFILING=1" ;;
  esac
}
chain() { case $1 in new-gpu) echo "$GPU" ;; *) echo "$AUTO" ;; esac; }

echo "=== 0. which queues $(date +%T)"
for v in old-auto new-auto new-auto-timed; do
  env $(venv $v) GST_DEBUG=cl:4 timeout 60 gst-launch-1.0 -q videotestsrc num-buffers=30 ! \
    video/x-raw,width=640,height=480 ! clblur ! fakesink 2>&1 | grep -o "created context on.*" | sort | uniq -c | sed "s/^/$v /"
done

echo "=== 1. latency: device clock against host clock $(date +%T)"
for size in 640x480 1920x1080; do
  log=$out/latency-$size.log
  build/tools/gpu-load --kernel tools/gpu-load.cl --device gpu --delay 3 --seconds 3 > "$out/load-lat-$size.txt" 2>&1 &
  lp=$!
  GST_PLUGIN_PATH=$PWD/build GST_CL_PROFILING=1 GST_DEBUG=cl:6 GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE=$log \
    timeout 60 build/bench/auto_timeline auto 8 ${size%x*} ${size#*x} "$out/lat-$size.csv" "$out/lat-$size-events.csv" 2>/dev/null
  wait $lp
  grep -o "frame latency on slot.*" "$log" | awk '{d=$7; h=$10; n++; diff=h-d; s+=diff; if (diff>mx) mx=diff; if (n==1||diff<mn) mn=diff; ds+=d; hs+=h; c[int(diff*100)]++}
    END {printf "%s: %d frames, device mean %.4f ms, host mean %.4f ms, host-device mean %.4f min %.4f max %.4f ms\n", "'$size'", n, ds/n, hs/n, s/n, mn, mx}'
  grep -o "frame latency on slot.*" "$log" | awk '{print $10-$7}' | sort -n | awk '{a[NR]=$1} END {printf "  host-device quantiles: p10 %.4f p50 %.4f p90 %.4f p99 %.4f ms\n", a[int(NR*.1)], a[int(NR*.5)], a[int(NR*.9)], a[int(NR*.99)]}'
  grep -c "switch" "$out/lat-$size-events.csv" || true
  gzip -f "$log"
done

echo "=== 2. bench_pipeline --touch $(date +%T)"
for sf in 1920x1080:GRAY8 1920x1080:NV12 3840x2160:GRAY8; do
  size=${sf%:*} fmt=${sf#*:}
  for round in 1 2 3; do
    for q in queued alone; do
      for v in old-auto new-auto new-auto-timed new-gpu; do
        c=$(chain $v)
        [ $q = queued ] && mid="queue ! $c ! queue" || mid="$c"
        r=$(bp "$(venv $v)" --format $fmt --width ${size%x*} --height ${size#*x} --frames 20000 --seconds 1.2 "$mid")
        echo "$size $fmt round=$round $q $v $r"
      done
    done
  done
done

echo "=== 3. auto timeline, four loaders, 640x480 $(date +%T)"
SIZE=640x480 LOADERS=4 timeout 200 bench/auto-timeline.sh "$out/tl-640x480" 24 6 10 || echo "timeline exit $?"
echo "=== done $(date +%T)"
