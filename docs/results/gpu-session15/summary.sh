#!/bin/bash
# Rebuilds summary.txt from the runs' logs: bash summary.sh > summary.txt
cd "$(dirname "$0")"
echo "# Parsed from runN/ratios.log and runN/kernels.log by the awk lines of"
echo "# summary.sh (kept beside this file). Values in the order of the passes."
echo
for r in run1 run2 run3 run4 run6; do
  echo "## $r ratios.log: bench.py kernel / floor, one value per run"
  awk '/^=== bench.py/{lab=$3; next}
    /GPU: kernel/{key=lab" "$(NF-5)" "$(NF-4)" "$(NF-3); v[key]=v[key]" "$NF;
      if(!(key in seen)){seen[key]=1; order[++n]=key}}
    END{for(i=1;i<=n;i++) print order[i]":"v[order[i]]}' $r/ratios.log | sort
done
for r in run1 run2; do
  echo "## $r kernels.log: bench_blur_frames kernel medians (ms)"
  awk '/^=== GST/{lab=$2; next} /^blur frames/{size=$3; next}
    / (plane|per-plane|one-launch) /{key=lab" "size" "$(NF-9)" "$(NF-8);
      v[key]=v[key]" "$(NF-7); if(!(key in seen)){seen[key]=1; order[++n]=key}}
    END{for(i=1;i<=n;i++) print order[i]":"v[order[i]]}' $r/kernels.log | sort
done
for r in run3 run4; do
  echo "## $r kernels.log: bench_sobel_kernels kernel medians (ms)"
  awk '/^=== build/{lab=$2; next} /^sobel /{size=$2; next}
    / tiled /{key=lab" "size" "$(NF-8)" "$(NF-6)" "$(NF-5); v[key]=v[key]" "$(NF-4);
      if(!(key in seen)){seen[key]=1; order[++n]=key}}
    END{for(i=1;i<=n;i++) print order[i]":"v[order[i]]}' $r/kernels.log | sort
done
