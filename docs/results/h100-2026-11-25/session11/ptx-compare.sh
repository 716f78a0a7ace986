#!/bin/bash
# The review after session 11 changed NVIDIA-only kernel code with no device
# time left; this is how it was checked here: both versions of clsobel's and
# clblur's tiled programs compiled to PTX with Debian's clang-15 (nvptx64),
# inlined and unrolled as NVIDIA's compiler does them, then compared.
#   ptx-compare.sh OLD_KERNELS_DIR NEW_KERNELS_DIR OLD_XCHG_DEFINE
# e.g. (before the review the kernel chose by __NV_CL_C_VERSION):
#   mkdir /tmp/old && for f in common sobel blur; do
#     git show 9c9b57c:kernels/$f.cl > /tmp/old/$f.cl; done
#   ptx-compare.sh /tmp/old kernels -D__NV_CL_C_VERSION=120
# Blur programs: every vertical-first option set check_blur_kernels builds
# (ptx-blur-opts.txt, from GST_DEBUG=*:5). Sobel: K 3/5/7, magnitude and x.
# Prints, per program and per WARP_XCHG, whether the PTX is identical or has
# the same count of every instruction (clang orders them differently).
here=$(cd "$(dirname "$0")" && pwd)
old=$1 new=$2 oldx=$3 out=$(mktemp -d)
CL=(clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -target nvptx64-nvidia-nvcl
    -Dasm=__asm__ "-Dinline=static __inline__ __attribute__((always_inline))"
    -Dcl_nv_pragma_unroll=1 -O2 -S)
build () {      # DIR TAG DEFINES...
  local dir=$1 tag=$2; shift 2
  ( cat $dir/common.cl; echo '#line 1'; cat $dir/sobel.cl ) > $out/$tag-sobel.cl
  ( cat $dir/common.cl; echo '#line 1'; cat $dir/blur.cl ) > $out/$tag-blur.cl
  for k in 3 5 7; do
    case $k in 3) SM=1.0f,2.0f,1.0f; DV=-1.0f,0.0f,1.0f;;
      5) SM=1.0f,4.0f,6.0f,4.0f,1.0f; DV=-1.0f,-2.0f,0.0f,2.0f,1.0f;;
      7) SM=1.0f,6.0f,15.0f,20.0f,15.0f,6.0f,1.0f; DV=-1.0f,-4.0f,-5.0f,0.0f,5.0f,4.0f,1.0f;; esac
    for m in 0 1; do
      "${CL[@]}" "$@" -DK=$k -DMODE=$m -DTHRESH=0 -DBAND_H=8 -DTILED=1 -DWG_X=32 -DWG_Y=4 -DTH=16 \
        -DVFIRST=1 -DSM=$SM -DDV=$DV -DSCALE=1.0f -DDELTA=0.0f -o $out/$tag-sobel$k-$m.ptx \
        $out/$tag-sobel.cl || exit 1
    done
  done
  local i=0
  while read -r opts; do i=$((i + 1))
    "${CL[@]}" "$@" $opts -o $out/$tag-blur$i.ptx $out/$tag-blur.cl || exit 1
  done < "$here/ptx-blur-opts.txt"
}
build "$old" o1 $oldx; build "$old" o0 -DWARP_XCHG=0
build "$new" n1 -DWARP_XCHG=1; build "$new" n0 -DWARP_XCHG=0
ops () { grep -oE "^\s+[a-z][a-z0-9._]+" "$1" | sort | uniq -c; }
for x in 1 0; do
  for p in $out/o$x-*.ptx; do
    n=$out/n$x-${p##*/o$x-}
    if cmp -s <(grep -v '^//' "$p") <(grep -v '^//' "$n"); then r=identical
    elif cmp -s <(ops "$p") <(ops "$n"); then r="same instructions"
    else r=DIFFERENT; fi
    echo "WARP_XCHG=$x ${n##*/n$x-}: $r"
  done
done
rm -rf "$out"
