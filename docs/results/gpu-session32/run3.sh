#!/bin/bash
# Session 32, device run 3: run2.sh's checks and benchmark, unchanged, on
# a build-dev of the committed kernel with run3-median-bins.diff applied
# (run 2 and three more changes: the parallel median's bins counted in
# cut_body ()'s first loop over the tiles, the tile's state read just
# before the wait or the cut, the cut flag's old value checked after the
# maker's own LUT). Against 3a55963 (build-base).
# . .device/env.sh && bash THIS "$OUT/r3"
out=${1:-/tmp/run3}; mkdir -p "$out"
bash "$(dirname "$0")/run2.sh" "$out" && mv "$out/run2.out" "$out/run3.out"
