#!/bin/bash
# bench.py on the 2-core VM with the guest's halt polling off (this VM's
# boot setting, haltpoll.guest_halt_poll_ns=0) and on (200000 ns, the
# haltpoll module's default), taking turns; restores the setting it found.
# Needs root (writes /sys/module/haltpoll/parameters/guest_halt_poll_ns).
# usage: poll-ab.sh ROUNDS OUTDIR   (env: SIZES, FORMATS, ITEMS, KINDS)
set -u
rounds=$1 out=$2
P=/sys/module/haltpoll/parameters/guest_halt_poll_ns
was=$(cat $P)
trap 'echo $was > $P' EXIT
mkdir -p "$out"
for r in $(seq "$rounds"); do
  for ns in 0 200000; do
    echo $ns > $P
    POCL_AFFINITY=1 /usr/bin/python3 bench/bench.py --build-dir build \
      --sizes "${SIZES:-480p}" --formats "${FORMATS:-GRAY8}" \
      --items "${ITEMS:-clblur,clsobel,clhisteq,blur+sobel,blur+sobel+histeq}" \
      --kinds "${KINDS:-ours,gst,ff,cv,floor}" --devices cpu --reps 3 \
      --out "$out/bench-poll$ns-r$r" > "$out/poll$ns-r$r.log" 2>&1
    echo "== poll $ns round $r"
    sed -n '/^## Goals/,/^$/p' "$out/poll$ns-r$r.log"
  done
done
