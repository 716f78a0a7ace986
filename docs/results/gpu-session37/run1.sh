#!/bin/bash
# Session 37, run 1: do uploads and downloads run at the same time on the
# H200, by the way they are ordered (bench/transfer_overlap.c)?
out=${1:?output folder}
mkdir -p "$out"
exec > >(tee "$out/run1.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for bytes in 2073600 3110400 8294400; do
    echo "## round $round, $bytes bytes"
    build/bench/transfer_overlap gpu $bytes 400
  done
done
