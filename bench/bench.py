#!/usr/bin/python3
"""One benchmark of every element and chain against its peers, in one run.

    /usr/bin/python3 bench/bench.py [--quick] [--sizes 480p,1080p,4K]
        [--formats GRAY8,NV12] [--devices cpu,gpu,P.D] [--items clblur,...]
        [--kinds ours,gst,ff,ffcl,cv] [--out DIR]
    /usr/bin/python3 bench/bench.py --merge DIR1 DIR2 ... --out DIR
        (no measuring: results of runs that each measured a part, one
        result, its tables and goals)

For each item (clblur, clsobel, clhisteq, clhisteq CLAHE, cloptflow when
it is built, and the chains clblur ! clsobel and clblur ! clsobel !
clhisteq), each frame size and format, it prints the per-frame time and fps
of our element on each OpenCL device and, beside them, of the peers:
GStreamer's OpenCV elements, FFmpeg's CPU filters, FFmpeg's OpenCL filters on
the same devices, OpenCV's own calls, and the device floor (a kernel reading
and writing every byte of the frame, as ../shared/tools/cllimits.c). Ratios
are the headline: `xD` columns are peer time / our time on device D (>1: ours
is faster), `k/floor` our kernel time / the floor.

How each thing is timed:
  ours, gst   build/bench/bench_pipeline: benchsrc copies pre-made frames
              from memory into the element's pool (as a decoder would),
              the sink maps every buffer for the CPU. Wall time per frame
              after warm-up frames, minus the same pipeline with `identity`
              (`ms`); `kernel ms`: device time of all kernels per frame
              (profiling events through build/bench/libclprof.so, in one
              shorter pass of its own: timed queues slow NVIDIA's
              pipelines);
              `waits`: host waits per frame (our elements' `stats`).
  ff, ffcl    ffmpeg reading the same frames from /dev/shm (-stream_loop),
              slope of -benchmark's rtime between two frame counts, minus
              the baseline (`null`; `hwupload,hwdownload` for the OpenCL
              filter only; `[+up/down]` rows include the transfers).
              FFmpeg's OpenCL kernel time and host waits come from
              libclprof.so too.
  cv          cv2 calls on numpy planes in this process (OpenCV's threads).
  floor       build/bench/bench_floor: read+write kernel, device copy,
              pinned upload and download of the frame, per device; for
              clhisteq, a read-only kernel (+ the read+write: the least
              two launches do) and on GPUs the frame read, one grid-wide
              wait and written (the least one launch does).

Results also go to DIR/bench.json and DIR/bench.csv (one row per
measurement); bench/plot.py draws the PNGs from them. Needs a build
(`ninja -C build`); numpy/cv2 are optional (without them the cv rows are
skipped). A report, never a test.

Adding an element: append an Item to ITEMS (its gst-launch fragment and
peers); it is measured when gst-inspect finds every element it names.
"""
import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = {"480p": (640, 480), "1080p": (1920, 1080), "4K": (3840, 2160)}
FF_PIX = {"GRAY8": "gray", "NV12": "nv12", "I420": "yuv420p"}


# bench_floor's floors for a filter whose every output needs the whole
# frame (bench/floor.cl): two launches' least, and one launch's
TWO_LAUNCH_FLOOR = "read kernel + read+write kernel"
WAIT_FLOOR = "read, grid-wide wait, write kernel"
# the same kernel with clhisteq's local-atomic histogram before the wait
# (bench/floor.cl HIST)
HIST_WAIT_FLOOR = "read, local histogram, grid-wide wait, write kernel"


def frame_bytes(fmt, w, h):
    return w * h if fmt == "GRAY8" else w * h * 3 // 2


# ---------------------------------------------------------------------------
# What is measured. Peers are tuples the runners below understand:
#   Gst(label, fragment, accepts, convert)   GStreamer element(s); formats
#       not in `accepts` are fed `convert` through videoconvert (two rows:
#       element only, and with the conversions)
#   FF(label, vf, pix, pre, post)            FFmpeg CPU filter; `pix` maps
#       our format to the pix_fmt fed; `pre`/`post` conversions around it
#   FFCL(label, vf, pix, post)               FFmpeg OpenCL filter(s) between
#       hwupload and hwdownload; `pix`: pix_fmts to try; `post`: CPU filters
#       after the download
#   CV(label, fn)                            fn(cv2, np, planes, state)

class Gst:
    def __init__(self, label, frag, accepts, convert=None):
        self.label, self.frag, self.accepts, self.convert = label, frag, accepts, convert


class FF:
    def __init__(self, label, vf, pix, pre="", post=""):
        self.label, self.vf, self.pix, self.pre, self.post = label, vf, pix, pre, post


class FFCL:
    def __init__(self, label, vf, pix, post=""):
        self.label, self.vf, self.pix, self.post = label, vf, pix, post


class CV:
    def __init__(self, label, fn):
        self.label, self.fn = label, fn


class Item:
    def __init__(self, name, title, frag, peers, formats=("GRAY8", "NV12")):
        self.name, self.title, self.frag, self.peers, self.formats = name, title, frag, peers, formats

    def ours(self, dev):
        # device= on every element of the fragment
        return " ! ".join(f"{p.strip()} device={dev}" for p in self.frag.split("!"))

    def factories(self):
        return [p.split()[0] for p in self.frag.split("!")]


def _blur(cv2, np, planes, st):
    for s, d in planes:
        cv2.GaussianBlur(s, (5, 5), 1.1, dst=d, borderType=cv2.BORDER_REFLECT_101)


def _sobel_mag(cv2, s, d):
    gx = cv2.Sobel(s, cv2.CV_32F, 1, 0, ksize=3, borderType=cv2.BORDER_REFLECT_101)
    gy = cv2.Sobel(s, cv2.CV_32F, 0, 1, ksize=3, borderType=cv2.BORDER_REFLECT_101)
    cv2.convertScaleAbs(cv2.magnitude(gx, gy), dst=d)


def _sobel(cv2, np, planes, st):
    _sobel_mag(cv2, *planes[0])          # luma only, as clsobel


def _eq(cv2, np, planes, st):
    cv2.equalizeHist(planes[0][0], dst=planes[0][1])


def _clahe(cv2, np, planes, st):
    if "clahe" not in st:
        st["clahe"] = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))
    st["clahe"].apply(planes[0][0], dst=planes[0][1])


def _chain2(cv2, np, planes, st):
    (s, d) = planes[0]
    t = st.setdefault("tmp", np.empty_like(s))
    cv2.GaussianBlur(s, (5, 5), 1.1, dst=t, borderType=cv2.BORDER_REFLECT_101)
    _sobel_mag(cv2, t, d)
    for s2, d2 in planes[1:]:
        cv2.GaussianBlur(s2, (5, 5), 1.1, dst=d2, borderType=cv2.BORDER_REFLECT_101)


def _chain3(cv2, np, planes, st):
    _chain2(cv2, np, planes, st)
    d = planes[0][1]
    cv2.equalizeHist(d, dst=d)


def _flow(kind):
    def fn(cv2, np, planes, st):
        # consecutive frames: planes cycle through the pre-made sequence
        prev, cur = st["prev"], planes[0][0]
        if kind == "farneback":
            st["flow"] = cv2.calcOpticalFlowFarneback(prev, cur, st.get("flow"), 0.5, 3, 15, 3, 5, 1.2, 0)
        else:
            if kind not in st:
                st[kind] = cv2.DISOpticalFlow_create(
                    cv2.DISOPTICAL_FLOW_PRESET_FAST if kind == "fast" else cv2.DISOPTICAL_FLOW_PRESET_MEDIUM)
            st["flow"] = st[kind].calc(prev, cur, None)
    return fn


BLUR = "clblur sigma=1.1 kernel-size=5"
SOBEL = "clsobel kernel-size=3 mode=magnitude"
CVSMOOTH = "cvsmooth type=gaussian kernel-width=5 kernel-height=5 color=1.1"
CVSOBEL = "cvsobel x-order=1 y-order=1 aperture-size=3"
TO_GRAY = "videoconvert ! video/x-raw,format=GRAY8"
AVG_CL = "avgblur_opencl=sizeX=2:sizeY=2"
CL_PIX = {"GRAY8": ["gray"], "NV12": ["nv12", "yuv420p"]}
CPU_PIX = {"GRAY8": "gray", "NV12": "yuv420p"}

ITEMS = [
    Item("clblur", "Gaussian blur 5x5, sigma 1.1", BLUR, [
        Gst("cvsmooth", CVSMOOTH, ("GRAY8",), "BGR"),
        FF("ffmpeg gblur (IIR)", "gblur=sigma=1.1", CPU_PIX),
        FFCL("ffmpeg avgblur_opencl (box 5x5)", AVG_CL, CL_PIX),
        CV("cv2.GaussianBlur", _blur),
    ]),
    Item("clsobel", "Sobel 3x3 gradient magnitude", SOBEL, [
        Gst("cvsobel (d2/dxdy, RGB only)", CVSOBEL, (), "RGB"),
        FF("ffmpeg sobel", "sobel", CPU_PIX),
        FFCL("ffmpeg sobel_opencl", "sobel_opencl", CL_PIX),
        CV("cv2.Sobel x,y + magnitude", _sobel),
    ]),
    Item("clhisteq", "histogram equalisation, global (smoothing 8)", "clhisteq", [
        Gst("cvequalizehist", "cvequalizehist", ("GRAY8",), "GRAY8"),
        FF("ffmpeg histeq (RGB only)", "histeq=strength=1", {"GRAY8": "gray", "NV12": "nv12"},
           pre="format=rgb24", post="format={pix}"),
        CV("cv2.equalizeHist", _eq),
    ]),
    Item("clhisteq-clahe", "CLAHE 8x8 tiles, clip 2", "clhisteq mode=clahe clip-limit=2", [
        CV("cv2.createCLAHE.apply", _clahe),
    ]),
    Item("cloptflow", "dense optical flow (flow field only: output=passthrough)",
         "cloptflow output=passthrough", [
        CV("cv2 DIS fast", _flow("fast")),
        CV("cv2 DIS medium", _flow("medium")),
        CV("cv2 Farneback", _flow("farneback")),
    ]),
    # DIS refines its field down to a scale and upsamples it (medium: half
    # the resolution, fast: a quarter); cloptflow does so with finest-level.
    Item("cloptflow-half", "dense optical flow refined at half resolution (finest-level=1)",
         "cloptflow output=passthrough finest-level=1", [
        CV("cv2 DIS fast", _flow("fast")),
        CV("cv2 DIS medium", _flow("medium")),
    ]),
    Item("cloptflow-quarter", "dense optical flow refined at a quarter of the resolution "
         "(finest-level=2), DIS fast's finest scale", "cloptflow output=passthrough finest-level=2", [
        CV("cv2 DIS fast", _flow("fast")),
    ]),
    Item("blur+sobel", "chain clblur ! clsobel", f"{BLUR} ! {SOBEL}", [
        Gst("cvsmooth ! cvsobel", f"{CVSMOOTH} ! {CVSOBEL}", (), "RGB"),
        FF("ffmpeg gblur,sobel", "gblur=sigma=1.1,sobel", CPU_PIX),
        FFCL("ffmpeg avgblur_opencl,sobel_opencl", f"{AVG_CL},sobel_opencl", CL_PIX),
        CV("cv2 GaussianBlur+Sobel", _chain2),
    ]),
    Item("blur+sobel+histeq", "chain clblur ! clsobel ! clhisteq",
         f"{BLUR} ! {SOBEL} ! clhisteq", [
             Gst("cvsmooth ! cvsobel ! cvequalizehist",
                 f"{CVSMOOTH} ! {CVSOBEL} ! {TO_GRAY} ! cvequalizehist", (), "RGB"),
             FF("ffmpeg gblur,sobel,histeq", "gblur=sigma=1.1,sobel,format=rgb24,histeq=strength=1",
                CPU_PIX, post="format={pix}"),
             FFCL("ffmpeg avgblur_opencl,sobel_opencl +histeq(CPU)", f"{AVG_CL},sobel_opencl", CL_PIX,
                  post="format=rgb24,histeq=strength=1,format={pix}"),
             CV("cv2 GaussianBlur+Sobel+equalizeHist", _chain3),
         ]),
]


# ---------------------------------------------------------------------------
# Tools and devices

class Ctx:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build_dir)
        self.env = dict(os.environ)
        old = self.env.get("GST_PLUGIN_PATH")
        self.env["GST_PLUGIN_PATH"] = os.path.abspath(args.plugin_dir or self.build) + \
            (":" + old if old else "")
        self.prof = os.path.join(self.build, "bench", "libclprof.so")
        if not os.path.exists(self.prof):
            self.prof = None
        self.ffmpeg = shutil.which("ffmpeg")
        self._has, self._filters, self.files = {}, None, []
        self.notes = []
        try:
            import numpy as np
            import cv2
            self.np, self.cv2 = np, cv2
        except Exception:
            self.np = self.cv2 = None

    def gst_has(self, factory):
        if factory not in self._has:
            p = subprocess.run(["gst-inspect-1.0", factory], env=self.env, capture_output=True)
            self._has[factory] = p.returncode == 0
        return self._has[factory]

    def ff_has(self, name):
        if not self.ffmpeg:
            return False
        if self._filters is None:
            out = subprocess.run([self.ffmpeg, "-hide_banner", "-filters"], capture_output=True,
                                 text=True).stdout
            self._filters = {l.split()[1] for l in out.splitlines() if "->" in l and len(l.split()) > 2}
        return name in self._filters

    def frames_file(self, fmt, w, h):
        """the 8 pre-made frames bench_pipeline feeds, packed, in /dev/shm"""
        path = f"/dev/shm/bench_{os.getpid()}_{fmt}_{w}x{h}.raw"
        if path not in self.files:
            subprocess.run([self.bin("bench_pipeline"), "--format", fmt, "--width", str(w),
                            "--height", str(h), "--dump", path], check=True, env=self.env)
            self.files.append(path)
        return path

    def bin(self, name):
        return os.path.join(self.build, "bench", name)

    def cleanup(self):
        for p in self.files:
            try:
                os.unlink(p)
            except OSError:
                pass


def opencl_devices(ctx):
    """[(index 'P.D', type, name)]: the devices our runtime sees (bench_floor),
    indices as our device= property and FFmpeg's -init_hw_device opencl=P.D"""
    try:
        out = subprocess.run([ctx.bin("bench_floor"), "1"], capture_output=True, text=True,
                             timeout=120, env=ctx.env).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    devs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    ctx.device_info = "; ".join(f"{d['index']} {d['device']} ({d['type']}, {d['compute_units']} compute "
                                f"units, driver {d['driver']})" for d in devs) or "none"
    return [(d["index"], d["type"], d["device"]) for d in devs]


def resolve(spec, devs):
    s = spec.lower()
    for idx, typ, name in devs:
        if s == typ.lower() or s == idx or (s not in ("cpu", "gpu") and s in name.lower()):
            return idx, typ, name
    return None


# ---------------------------------------------------------------------------
# Runners

class Result(dict):
    pass


def over_budget(ctx):
    if ctx.args.budget and time.time() - ctx.t_start > ctx.args.budget:
        if not any("--budget" in n for n in ctx.notes):
            ctx.notes.append(f"--budget {ctx.args.budget:.0f} s reached: later measurements skipped")
        return True
    return False


def budget_timeout(ctx, seconds):
    """@seconds, or less where --budget ends sooner: a run that would
    overrun the budget is stopped, so the results are still written before
    an outer time limit (the budget itself is only checked between runs)"""
    if not ctx.args.budget:
        return seconds
    left = ctx.args.budget - (time.time() - ctx.t_start)
    return max(1.0, min(seconds, left + 5.0))


def run_pipelines(ctx, fmt, w, h, middles):
    """{middle: [result per repetition]} from bench_pipeline, with clprof's figures"""
    a = ctx.args
    if over_budget(ctx):
        return {m: [{"pipeline": m, "error": "skipped (--budget)"}] for m in middles}
    argv = [ctx.bin("bench_pipeline"), "--format", fmt, "--width", str(w), "--height", str(h),
            "--frames", str(a.frames), "--warmup", str(a.warmup), "--seconds", str(a.seconds)]
    res = {m: [] for m in middles}

    def one_pass(env, seconds):
        """{middle: result} of one bench_pipeline run; None: out of budget"""
        run_argv = argv[:argv.index("--seconds") + 1] + [str(seconds)] + list(middles)
        try:
            p = subprocess.run(run_argv, env=env, capture_output=True, text=True,
                               timeout=budget_timeout(ctx, a.timeout * len(middles)))
        except subprocess.TimeoutExpired:
            if over_budget(ctx):
                return None
            ctx.notes.append(f"bench_pipeline {fmt} {w}x{h}: timeout")
            return {}
        if p.returncode != 0:
            ctx.notes.append(f"bench_pipeline rc={p.returncode}: {p.stderr.strip()[-200:]}")
        return {r["pipeline"]: r for r in map(json.loads, (
            line for line in p.stdout.splitlines() if line.startswith("{")))}

    # The timed passes run without clprof: it times every queue, and timed
    # queues made NVIDIA's queued 1080p chain 0.12 ms a frame against 0.08
    # (docs/PERFORMANCE.md, session 37); kernel times come from one shorter
    # pass under it.
    for rep in range(a.reps):           # interleaved repetitions
        if rep and over_budget(ctx):
            break
        got = one_pass(ctx.env, a.seconds)
        if got is None:
            for m in middles:
                if not res[m]:
                    res[m].append({"pipeline": m, "error": "skipped (--budget)"})
            break
        for m, r in got.items():
            res.setdefault(m, []).append(r)
    if ctx.prof and not over_budget(ctx):
        env = dict(ctx.env)
        env["LD_PRELOAD"] = ctx.prof + (" " + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
        for m, r in (one_pass(env, min(a.seconds, 0.2)) or {}).items():
            if "prof" in r:
                r["prof"].setdefault("frames", r["frames"])
                for timed in res.get(m, []):
                    timed["prof"] = r["prof"]
                    timed["profiled_ms"] = r["ms"]
    return res


def median_result(rs):
    ok = [r for r in rs if "ms" in r]
    if not ok:
        return {"error": (rs[0].get("error") if rs else "no result")}
    ok.sort(key=lambda r: r["ms"])
    r = dict(ok[(len(ok) - 1) // 2])
    # the median time itself: of two runs, their mean (the upper one, taken
    # for a baseline, once left a GPU pipeline with less than nothing)
    r["ms"] = statistics.median(x["ms"] for x in ok)
    r["spread"] = (ok[-1]["ms"] - ok[0]["ms"]) / r["ms"] * 100 if r["ms"] > 0 else 0
    return r


def ff_time(ctx, argv, prof_out=None):
    env = dict(os.environ)
    if prof_out and ctx.prof:
        env["LD_PRELOAD"] = ctx.prof
        env["CLPROF_OUT"] = prof_out
    try:
        p = subprocess.run(argv, capture_output=True, text=True,
                           timeout=budget_timeout(ctx, ctx.args.timeout), env=env)
    except subprocess.TimeoutExpired:
        raise RuntimeError("skipped (--budget)" if over_budget(ctx) else "timeout")
    m = re.search(r"bench: utime=\S+ stime=\S+ rtime=([\d.]+)s", p.stderr)
    if p.returncode or not m:
        lines = [l for l in p.stderr.splitlines() if re.search(r"rror|nvalid|not supported|fail", l, re.I)]
        raise RuntimeError((lines or [f"ffmpeg rc={p.returncode}"])[0].strip()[:160])
    return float(m.group(1))


def ff_measure(ctx, fmt, w, h, pix, vf, dev=None, prof=False):
    """per-frame ms (slope) of ffmpeg -vf vf; with prof: also clprof totals of the long run"""
    src = ctx.frames_file({"gray": "GRAY8", "nv12": "NV12", "yuv420p": "I420"}[pix], w, h)
    key = (pix, w, h, vf, dev, prof)
    if key in ctx.ff_cache:
        return ctx.ff_cache[key]
    if over_budget(ctx):
        return {"error": "skipped (--budget)"}

    def argv(n):
        a = [ctx.ffmpeg, "-hide_banner", "-nostdin", "-benchmark"]
        if dev:
            a += ["-init_hw_device", f"opencl=ocl:{dev}", "-filter_hw_device", "ocl"]
        return a + ["-stream_loop", "-1", "-f", "rawvideo", "-pix_fmt", pix, "-s", f"{w}x{h}",
                    "-framerate", "30", "-i", src, "-frames:v", str(n), "-vf", vf, "-f", "null", "-"]
    try:
        # slope between a short run and `reps` runs of about --seconds:
        # start-up (OpenCL init, program builds) drops out
        n1 = 2
        t1 = ff_time(ctx, argv(n1))
        tc = ff_time(ctx, argv(n1 + 6))
        per = max((tc - t1) / 6, 1e-5)
        n2 = int(min(ctx.args.frames, max(n1 + 6, ctx.args.seconds / per)))
        t2s, prof_data = [tc] if n2 == n1 + 6 and not prof else [], None
        while len(t2s) < ctx.args.reps:
            po = f"/dev/shm/bench_{os.getpid()}_prof.json" if prof and prof_data is None else None
            t2s.append(ff_time(ctx, argv(n2), po))
            if po and os.path.exists(po):
                with open(po) as fh:
                    prof_data = json.load(fh)
                prof_data["frames"] = n2
                os.unlink(po)
        slopes = [(t - t1) / (n2 - n1) for t in t2s]
        med = statistics.median(slopes)
        r = {"ms": med * 1e3, "frames": n2,
             "spread": (max(slopes) - min(slopes)) / med * 100 if med > 0 else 0}
        if prof_data:
            r["prof"] = prof_data
    except RuntimeError as e:
        r = {"error": str(e)}
    ctx.ff_cache[key] = r
    return r


def cv_measure(ctx, fmt, w, h, fn):
    np, cv2 = ctx.np, ctx.cv2
    if over_budget(ctx):
        return {"error": "skipped (--budget)"}
    path = ctx.frames_file(fmt, w, h)
    data = np.fromfile(path, np.uint8).reshape(8, -1)
    seq = []
    for k in range(8):
        y = data[k, :w * h].reshape(h, w)
        planes = [(y, np.empty_like(y))]
        if fmt == "NV12":
            uv = data[k, w * h:].reshape(h // 2, w // 2, 2)
            planes.append((uv, np.empty_like(uv)))
        seq.append(planes)
    st = {"prev": seq[-1][0][0]}

    def loop(n, start):
        t0 = time.perf_counter()
        for i in range(start, start + n):
            planes = seq[i % 8]
            fn(cv2, np, planes, st)
            st["prev"] = planes[0][0]
        return time.perf_counter() - t0
    try:
        loop(3, 0)                                       # warm-up
        per = max(loop(5, 3) / 5, 1e-6)
        n = int(min(ctx.args.frames, max(5, ctx.args.seconds / per)))
        times = [loop(n, 8) / n for _ in range(ctx.args.reps)]
        med = statistics.median(times)
        return {"ms": med * 1e3, "frames": n, "spread": (max(times) - min(times)) / med * 100,
                "note": f"{cv2.getNumThreads()} OpenCV threads, in-process"}
    except Exception as e:  # a cv2 build without the call
        return {"error": f"{type(e).__name__}: {str(e)[:120]}"}


def prof_summary(prof, frames):
    """(kernel ms, transfer ms, host waits) per frame from clprof totals"""
    if not prof:
        return None, None, None
    k = sum(v[1] for n, v in prof["ops"].items() if n.startswith("kernel:"))
    t = sum(v[1] for n, v in prof["ops"].items() if not n.startswith("kernel:"))
    return k / frames, t / frames, prof.get("host_waits", 0) / frames


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--build-dir", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--plugin-dir", help="where the plugin is (default: the build dir; e.g. "
                                         "another branch's build)")
    ap.add_argument("--sizes", default="480p,1080p,4K", help="of " + ",".join(SIZES) + " or WxH")
    ap.add_argument("--formats", default="GRAY8,NV12")
    ap.add_argument("--devices", help="device= values (cpu, gpu, P.D, name); default: every "
                                      "OpenCL device clinfo lists")
    ap.add_argument("--items", help="comma list of item names (default: all built): " +
                    ",".join(i.name for i in ITEMS))
    ap.add_argument("--kinds", default="ours,gst,ff,ffcl,cv,floor",
                    help="what to measure: ours,gst,ff,ffcl,cv,floor (default all)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions, median kept (default 3)")
    ap.add_argument("--seconds", type=float, default=0.3, help="timed part of one run (default 0.3)")
    ap.add_argument("--frames", type=int, default=500, help="most frames per run")
    ap.add_argument("--warmup", type=int, default=10, help="untimed frames per pipeline run")
    ap.add_argument("--quick", action="store_true",
                    help="1 repetition, 0.1 s runs, 480p and 1080p unless --sizes is given")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run")
    ap.add_argument("--budget", type=float, default=0,
                    help="seconds; once the run has taken this long, what is left is skipped "
                         "(listed as errors) and a pipeline or FFmpeg run still going is stopped "
                         "5 s after it, so a time-limited job still writes its results")
    ap.add_argument("--tag", default="", help="label stored with every row (e.g. cores=4)")
    ap.add_argument("--out", default="bench-results", help="folder for bench.json / bench.csv")
    ap.add_argument("--merge", nargs="+", metavar="DIR",
                    help="measure nothing: merge earlier results (rows a run skipped or failed "
                         "taken from a later DIR that measured them) into --out, then print the "
                         "tables and goals of the whole")
    a = ap.parse_args()
    if a.merge:
        meta, rows = merge_results([load_results(d) for d in a.merge], a.merge)
        write_results(a.out, meta, rows)
        print_tables(rows, meta)
        return
    if a.quick:
        a.reps, a.seconds, a.frames, a.warmup = 1, 0.1, min(a.frames, 200), 5
        if "--sizes" not in " ".join(sys.argv):
            a.sizes = "480p,1080p"
    ctx = Ctx(a)
    ctx.ff_cache = {}
    ctx.t_start = time.time()
    kinds = set(a.kinds.split(","))
    t_start = time.time()
    try:
        rows = run(ctx, a, kinds)
    finally:
        ctx.cleanup()
    meta = {"machine": machine(ctx), "versions": versions(ctx), "args": vars(a), "notes": ctx.notes,
            "seconds": round(time.time() - t_start)}
    write_results(a.out, meta, rows)
    print_tables(rows, meta)
    print(f"\nwrote {a.out}/bench.json and bench.csv; plots: /usr/bin/python3 bench/plot.py {a.out}")


def write_results(out, meta, rows):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "bench.json"), "w") as fh:
        json.dump({"meta": meta, "rows": rows}, fh, indent=1)
    cols = ["tag", "item", "size", "width", "height", "format", "kind", "impl", "device", "ms",
            "fps", "spread", "kernel_ms", "transfer_ms", "host_waits", "floor_ms", "wait_floor_ms",
            "hist_floor_ms", "raw_ms", "error",
            "note"]
    with open(os.path.join(out, "bench.csv"), "w", newline="") as fh:
        wr = csv.DictWriter(fh, cols, extrasaction="ignore")
        wr.writeheader()
        wr.writerows(rows)


def load_results(path):
    with open(os.path.join(path, "bench.json") if os.path.isdir(path) else path) as fh:
        return json.load(fh)


def merge_results(results, names):
    """One result from runs on one machine that each measured a part (a run
    cut by --budget, then one for what it skipped): the first run's rows, in
    its order, each that has an error replaced by a later run's measurement
    of the same thing; rows only later runs have are appended."""
    key = lambda r: tuple(r.get(k) for k in ("tag", "item", "size", "format", "kind", "impl",
                                            "device"))
    rows, at = [], {}
    for res in results:
        for r in res["rows"]:
            k = key(r)
            if k not in at:
                at[k] = len(rows)
                rows.append(r)
            elif "error" in rows[at[k]] and "error" not in r:
                rows[at[k]] = r
    first = results[0]["meta"]
    machines = dict.fromkeys(res["meta"]["machine"] for res in results)
    meta = {"machine": first["machine"], "versions": first["versions"],
            "args": {"merge": list(names)},
            "notes": [f"merged from {', '.join(names)}"] +
                     ([f"other machine line: {m}" for m in list(machines)[1:]]) +
                     [n for res in results for n in res["meta"]["notes"]],
            "seconds": sum(res["meta"]["seconds"] for res in results)}
    return meta, rows


def run(ctx, a, kinds):
    devs = opencl_devices(ctx)
    specs = a.devices.split(",") if a.devices else [d[0] for d in devs]
    devices = []                       # (device= value, 'P.D', label)
    for s in specs:
        r = resolve(s, devs)
        if r is None:
            ctx.notes.append(f"no OpenCL device matches '{s}'")
            continue
        if r[0] not in [d[1] for d in devices]:
            devices.append((s if a.devices else r[0], r[0], f"{r[0]} {r[1]}"))
    sizes = []
    for s in a.sizes.split(","):
        if s in SIZES:
            sizes.append((s, *SIZES[s]))
        elif re.match(r"\d+x\d+$", s):
            sizes.append((s, *map(int, s.split("x"))))
    formats = a.formats.split(",")
    items = [i for i in ITEMS if not a.items or i.name in a.items.split(",")]
    for i in list(items):
        missing = [f for f in i.factories() if not ctx.gst_has(f)]
        if missing:
            ctx.notes.append(f"{i.name}: skipped, {', '.join(missing)} not built")
            items.remove(i)
    rows = []
    base = {"tag": a.tag}

    # floors, all sizes and formats in one call
    floors = {}
    if "floor" in kinds:
        nbytes = sorted({frame_bytes(f, w, h) for _, w, h in sizes for f in formats})
        out = subprocess.run([ctx.bin("bench_floor"), "30"] + [str(b) for b in nbytes], env=ctx.env,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                floors[(r["index"], r["bytes"])] = r
        for name, w, h in sizes:
            for f in formats:
                b = (frame_bytes(f, w, h) + 63) // 64 * 64
                for _, idx, label in devices:
                    fl = floors.get((idx, b))
                    if fl:
                        rows.append(Result(base, item="floor", size=name, width=w, height=h, format=f,
                                           kind="floor", impl="read+write kernel", device=label,
                                           ms=fl["rw_kernel_ms"], kernel_ms=fl["rw_kernel_ms"],
                                           note=f"copy {fl['copy_ms']:.4f}, pinned upload "
                                                f"{fl['upload_ms']:.4f} / download "
                                                f"{fl['download_ms']:.4f} ms; "
                                                f"{fl['compute_units']} CUs"))
                        rows.append(Result(base, item="floor", size=name, width=w, height=h, format=f,
                                           kind="floor", impl="pinned upload+download", device=label,
                                           ms=fl["upload_ms"] + fl["download_ms"],
                                           upload_ms=fl["upload_ms"], download_ms=fl["download_ms"]))
                        # what a filter whose every output needs the whole
                        # frame cannot go below (bench/floor.cl)
                        if "read_kernel_ms" in fl:
                            two = fl["read_kernel_ms"] + fl["rw_kernel_ms"]
                            rows.append(Result(base, item="floor", size=name, width=w, height=h, format=f,
                                               kind="floor", impl=TWO_LAUNCH_FLOOR,
                                               device=label, ms=two, kernel_ms=two,
                                               note=f"read {fl['read_kernel_ms']:.4f} ms"))
                        # the one-launch floors (GPUs), the histogram's on
                        # GRAY8 only: on a frame of planes it would count the
                        # chroma too, which clhisteq copies
                        for key, impl, what in (
                                ("", WAIT_FLOOR, f"{fl.get('sync_groups')} groups, "
                                                 f"{fl.get('sync_chunks')} chunks an item"),
                                ("hist_", HIST_WAIT_FLOOR, "16 local atomics a 16-byte chunk, "
                                                           "frame of noise")):
                            if key + "sync_kernel_ms" not in fl or (key and f != "GRAY8"):
                                continue
                            ms, gave = fl[key + "sync_kernel_ms"], fl[key + "sync_giveups"]
                            rows.append(Result(base, item="floor", size=name, width=w, height=h,
                                               format=f, kind="floor", impl=impl, device=label,
                                               ms=ms, kernel_ms=ms, giveups=gave,
                                               note=what + (f"; {gave} groups stopped waiting: not valid"
                                                            if gave else "")))

    for name, w, h in sizes:
        for f in formats:
            def add(item, kind, impl, dev, r, baseline=None, note=""):
                row = Result(base, item=item.name, size=name, width=w, height=h, format=f, kind=kind,
                             impl=impl, device=dev, note=(r.get("note") or note))
                if "error" in r:
                    row["error"] = r["error"]
                    rows.append(row)
                    return
                ms = r["ms"]
                row["raw_ms"] = ms
                if baseline is not None:
                    if "ms" not in baseline:
                        row["error"] = "baseline failed: " + baseline.get("error", "?")
                        rows.append(row)
                        return
                    ms -= baseline["ms"]
                row.update(ms=ms, spread=r.get("spread"), fps=1000 / ms if ms > 0 else None)
                if "out_bytes" in r:        # what reached the sink
                    row.update(out_bytes=r["out_bytes"], out_format=r.get("out_format"))
                if r.get("prof") and r["prof"]["ops"]:     # it used OpenCL
                    k, t, hw = prof_summary(r["prof"], r["prof"].get("frames", r["frames"]))
                    row.update(kernel_ms=k, transfer_ms=t, host_waits=hw)
                st = r.get("stats") or {}
                waits = [v for k, v in st.items() if k.endswith("|host-waits")]
                if waits:
                    row["host_waits"] = sum(waits)
                    row["stats"] = st
                rows.append(row)

            # -- GStreamer: ours and the OpenCV elements, one process per repetition
            mids = ["identity"]
            plan = []
            for it in items:
                if f not in it.formats:
                    continue
                if "ours" in kinds:
                    for spec, idx, label in devices:
                        plan.append((it, "ours", it.name if "!" not in it.frag else
                                     " ! ".join(it.factories()), label,
                                     it.ours(spec), "identity", ""))
                if "gst" in kinds:
                    for p in it.peers:
                        if not isinstance(p, Gst):
                            continue
                        facs = [x.split()[0] for x in p.frag.split("!") if "=" not in x.split()[0]]
                        if not all(ctx.gst_has(x) for x in facs if x not in ("videoconvert",)):
                            ctx.notes.append(f"{p.label}: element not found")
                            continue
                        if f in p.accepts:
                            plan.append((it, "gst", p.label, None, p.frag, "identity", ""))
                        elif p.convert:
                            wrap = (lambda m, c=p.convert: f"videoconvert ! video/x-raw,format={c} ! {m} "
                                    f"! videoconvert ! video/x-raw,format={f}")
                            plan.append((it, "gst", p.label + f" [{p.convert}, element only]", None,
                                         wrap(p.frag), wrap("identity"),
                                         f"no {f}: fed {p.convert} via videoconvert, conversions "
                                         "subtracted"))
                            plan.append((it, "gst", p.label + f" [+videoconvert {f}<->{p.convert}]",
                                         None, wrap(p.frag), "identity", "with both conversions"))
            for x in plan:
                for m in (x[4], x[5]):
                    if m not in mids:
                        mids.append(m)
            if len(mids) > 1:
                print(f"# {name} {f}: {len(mids)} GStreamer pipelines x {a.reps}", file=sys.stderr)
                res = {m: median_result(v) for m, v in run_pipelines(ctx, f, w, h, mids).items()}
                for it, kind, impl, dev, mid, bl, note in plan:
                    add(it, kind, impl, dev, res[mid], res[bl], note)

            # -- FFmpeg
            for it in items:
                if f not in it.formats or not ctx.ffmpeg:
                    continue
                for p in it.peers:
                    if isinstance(p, FF) and "ff" in kinds:
                        if not all(ctx.ff_has(x.split("=")[0]) for x in p.vf.split(",")):
                            continue
                        pix = p.pix[f]
                        pre = p.pre + "," if p.pre else ""
                        post = "," + p.post.format(pix=pix) if p.post else ""
                        note = "" if pix == FF_PIX[f] else f"as {pix} (no {FF_PIX[f]})"
                        r = ff_measure(ctx, f, w, h, pix, pre + p.vf + post)
                        if pre or post:
                            add(it, "ff", p.label + " [element only]", None, r,
                                ff_measure(ctx, f, w, h, pix, pre + "null" + post),
                                "conversions subtracted " + note)
                        add(it, "ff", p.label, None, r, ff_measure(ctx, f, w, h, pix, "null"), note)
                    if isinstance(p, FFCL) and "ffcl" in kinds:
                        if not all(ctx.ff_has(x.split("=")[0]) for x in p.vf.split(",")):
                            continue
                        for _, idx, label in devices:
                            for pix in p.pix[f]:
                                post = "," + p.post.format(pix=pix) if p.post else ""
                                vf = f"hwupload,{p.vf},hwdownload,format={pix}{post}"
                                r = ff_measure(ctx, f, w, h, pix, vf, idx, prof=True)
                                if "error" in r and pix != p.pix[f][-1]:
                                    ctx.notes.append(f"{p.label} @{label}: {pix} refused ({r['error']}), "
                                                     "next pix_fmt")
                                    continue
                                note = "" if pix == FF_PIX[f] else f"as {pix}"
                                bl = ff_measure(ctx, f, w, h, pix, f"hwupload,hwdownload,format={pix}{post}", idx)
                                add(it, "ffcl", p.label + " [filter]", label, r, bl,
                                    ("hwupload/hwdownload subtracted " + note).strip())
                                add(it, "ffcl", p.label + " [+up/down]", label, r,
                                    ff_measure(ctx, f, w, h, pix, "null"), note)
                                break

            # -- OpenCV calls
            if "cv" in kinds and ctx.cv2 is not None:
                for it in items:
                    if f not in it.formats:
                        continue
                    for p in it.peers:
                        if isinstance(p, CV):
                            add(it, "cv", p.label, None, cv_measure(ctx, f, w, h, p.fn))
            elif "cv" in kinds:
                ctx.notes.append("cv rows skipped: numpy/cv2 not importable in this python")

    # the items' floors and ratios
    for r in rows:
        if r["kind"] == "ours" and r.get("kernel_ms") is not None:
            for fr in rows:
                if fr["kind"] == "floor" and \
                        (fr["size"], fr["format"], fr["device"]) == (r["size"], r["format"], r["device"]):
                    if fr["impl"] == "read+write kernel":
                        r["floor_ms"] = fr["ms"]
                    elif fr["impl"] == WAIT_FLOOR and not fr["giveups"] and \
                            r["item"].startswith("clhisteq"):
                        r["wait_floor_ms"] = fr["ms"]
                    elif fr["impl"] == HIST_WAIT_FLOOR and not fr["giveups"] and \
                            r["item"] == "clhisteq":
                        r["hist_floor_ms"] = fr["ms"]
    return rows


# ---------------------------------------------------------------------------
# Printing

def ratio(a, b, digits=2):
    return f"{a / b:.{digits}f}" if a and b and a > 0 and b > 0 else None


def fmt_ms(x):
    if x is None:
        return "-"
    if x < 0.001:
        return "<0.001"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def print_tables(rows, meta):
    items = list(dict.fromkeys(r["item"] for r in rows if r["item"] != "floor"))
    for item in items:
        title = next((i.title for i in ITEMS if i.name == item), item)
        print(f"\n## {item}: {title}")
        for size in dict.fromkeys(r["size"] for r in rows if r["item"] == item):
            for f in dict.fromkeys(r["format"] for r in rows if r["item"] == item and r["size"] == size):
                sel = [r for r in rows if r["item"] == item and r["size"] == size and r["format"] == f]
                ours = [r for r in sel if r["kind"] == "ours" and r.get("ms") and r["ms"] > 0]
                fl = [r for r in rows if r["item"] == "floor" and r["size"] == size and r["format"] == f
                      and (item.startswith("clhisteq") or r["impl"] in ("read+write kernel",
                                                                         "pinned upload+download"))]
                print(f"\n{size} {f}  (ms per frame; xD = that row's ms / ours on D: >1 ours faster)")
                hdr = f"  {'kind':5} {'implementation':58} {'device':8} {'ms':>8} {'fps':>8} " \
                      f"{'kernel':>7} {'k/floor':>7} {'waits':>5}"
                for o in ours:
                    d = o["device"].split()
                    hdr += f" {'x' + d[0] + d[-1][:1]:>7}"
                print(hdr)
                for r in sel + fl:
                    if "error" in r:
                        print(f"  {r['kind']:5} {r['impl'][:58]:58} {(r['device'] or '')[:8]:8} "
                              f"{'n/a':>8}  error: {r['error']}")
                        continue
                    ms = r.get("ms")
                    kf = ratio(r.get("kernel_ms"), r.get("floor_ms"))
                    fps = f"{1000 / ms:.0f}" if ms and ms > 0 else "-"
                    kern = fmt_ms(r.get("kernel_ms")) if r.get("kernel_ms") is not None else ""
                    waits = f"{r['host_waits']:.2f}" if r.get("host_waits") is not None else ""
                    line = (f"  {r['kind']:5} {r['impl'][:58]:58} {(r['device'] or '-')[:8]:8} "
                            f"{fmt_ms(ms):>8} {fps:>8} {kern:>7} {kf or '':>7} {waits:>5}")
                    for o in ours:
                        line += f" {ratio(ms, o['ms']) or '-':>7}"
                    print(line + (f"  {r['note']}" if r.get("note") else ""))
    print_headline(rows)
    print_goals(rows)
    print(f"\n# {meta['machine']}\n# {meta['versions']}; run took {meta['seconds']} s")
    for n in dict.fromkeys(meta["notes"]):
        print("note: " + n)


def print_headline(rows):
    """ours against the fastest CPU peer and FFmpeg's OpenCL filter on the same device"""
    print("\n## Headline ratios (peer ms / ours ms; >1: ours faster). kernel/floor: kernel "
          "time / read+write kernel of the frame")
    print(f"  {'item':18} {'size':6} {'format':6} {'device':10} {'ours ms':>8} {'fps':>6} "
          f"{'best CPU peer':>34} {'x':>6} {'FFmpeg OpenCL same dev':>22} {'x':>6} {'k/floor':>7} "
          f"{'xfer%':>5} {'waits':>5}")
    for r in rows:
        if r["kind"] != "ours" or not r.get("ms") or r["ms"] <= 0:
            continue
        peers = [p for p in rows if (p["item"], p["size"], p["format"]) == (r["item"], r["size"], r["format"])
                 and p.get("ms") and p["ms"] > 0]
        cpu = [p for p in peers if p["kind"] in ("gst", "ff", "cv") and "element only]" not in p["impl"]]
        best = min(cpu, key=lambda p: p["ms"]) if cpu else None
        cl = [p for p in peers if p["kind"] == "ffcl" and p["device"] == r["device"] and "[+up/down]" in p["impl"]]
        kf = ratio(r.get("kernel_ms"), r.get("floor_ms")) or "-"
        bl = f"{best['impl'][:24]} {fmt_ms(best['ms'])}" if best else "-"
        bx = ratio(best["ms"], r["ms"]) if best else "-"
        cm = fmt_ms(cl[0]["ms"]) if cl else "-"
        cx = ratio(cl[0]["ms"], r["ms"], 1) if cl else "-"
        waits = f"{r['host_waits']:.2f}" if r.get("host_waits") is not None else "-"
        bound = transfer_bound(r, rows)
        xfer = f"{bound[0] / r['ms'] * 100:.0f}" if bound else "-"
        print(f"  {r['item'][:18]:18} {r['size']:6} {r['format']:6} {r['device'][:10]:10} "
              f"{fmt_ms(r['ms']):>8} {1000 / r['ms']:6.0f} {bl:>34} {bx:>6} {cm:>22} {cx:>6} {kf:>7} "
              f"{xfer:>5} {waits:>5}")
    print("  best CPU peer: fastest GStreamer element, FFmpeg CPU filter or cv2 call doing the "
          "work on this format, conversions included; FFmpeg OpenCL: with hwupload/hwdownload "
          "(our rows include the same transfers on a GPU); k/floor: our kernel time / one "
          "read+write kernel over the frame (a chain runs several passes); xfer%: pinned "
          "upload of the frame in + download of the frame out / our time per frame (100: "
          "limited by the transfers; meaningful on a discrete GPU); waits: host waits per "
          "frame (our stats counters)")


# The peer that refines its field at the same scale as each cloptflow row:
# Farneback every pixel, DIS medium at half the resolution, DIS fast at a
# quarter (tests/test_opencv_optflow.py puts their accuracy side by side).
FLOW_SAME_SCALE = {"cloptflow": "cv2 Farneback", "cloptflow-half": "cv2 DIS medium",
                   "cloptflow-quarter": "cv2 DIS fast"}


def transfer_bound(r, rows):
    """(ms, note): the least time the pinned transfers of row @r's frame take,
    its input uploaded and its output downloaded. A chain may hand the sink
    another format than it was fed (NV12 in, GRAY8 out of clsobel): the
    download floor of the input's size is then scaled by the output's bytes
    (transfers of a few MB take time in proportion). None without a floor."""
    fl = [p for p in rows if p["kind"] == "floor" and p["impl"] == "pinned upload+download" and
          (p["size"], p["format"], p["device"]) == (r["size"], r["format"], r["device"])]
    if not fl:
        return None
    up = fl[0].get("upload_ms", fl[0]["ms"] / 2)
    down = fl[0].get("download_ms", fl[0]["ms"] / 2)
    in_bytes = frame_bytes(r["format"], r["width"], r["height"])
    out = r.get("out_bytes")
    if not out or abs(out - in_bytes) < 64:
        return up + down, ""
    return (up + down * out / in_bytes,
            f" ({r['format']} in, {r.get('out_format') or out} out: download scaled by the bytes)")


def print_goals(rows):
    """issue 7's goals, read off the rows: met or not, with the figure"""
    out = []
    for r in rows:
        if r["kind"] != "ours" or not r.get("ms") or r["ms"] <= 0:
            continue
        same = [p for p in rows if (p["item"], p["size"], p["format"]) == (r["item"], r["size"], r["format"])
                and p.get("ms") and p["ms"] > 0]
        where = f"{r['item']} {r['size']} {r['format']} @{r['device']}"
        single = "+" not in r["item"]
        if r["device"].endswith("CPU") and not r["item"].startswith("cloptflow"):
            cpu = [p for p in same if p["kind"] in ("gst", "ff", "cv") and "element only]" not in p["impl"]]
            if cpu:
                b = min(cpu, key=lambda p: p["ms"])
                out.append(("CPU: not slower than the fastest CPU peer", where,
                            f"{b['ms'] / r['ms']:.2f}x ({b['impl']})", b["ms"] >= r["ms"]))
            cl = [p for p in same if p["kind"] == "ffcl" and p["device"] == r["device"]
                  and "[+up/down]" in p["impl"]]
            if cl:
                out.append(("CPU: >= 20x faster than FFmpeg OpenCL, same device", where,
                            f"{cl[0]['ms'] / r['ms']:.1f}x", cl[0]["ms"] >= 20 * r["ms"]))
        if r["device"].endswith("GPU") and r["size"] in ("1080p", "4K"):
            if single and r.get("floor_ms") and r.get("kernel_ms") and not r["item"].startswith("cloptflow"):
                k = r["kernel_ms"] / r["floor_ms"]
                # a histogram's LUT needs the whole frame: the least one
                # launch can do beside it (bench/floor.cl)
                dep = (f" (read+wait+write floor {r['wait_floor_ms']:.4f} ms: "
                       f"{r['kernel_ms'] / r['wait_floor_ms']:.2f}x)") if r.get("wait_floor_ms") else ""
                # and with the histogram counted too (global mode, GRAY8)
                if r.get("hist_floor_ms"):
                    dep += (f" (read+histogram+wait+write floor {r['hist_floor_ms']:.4f} ms: "
                            f"{r['kernel_ms'] / r['hist_floor_ms']:.2f}x)")
                out.append(("GPU: kernel <= 1.5x the floor", where, f"{k:.2f}x{dep}", k <= 1.5))
            if r["item"].count("+") == 2:
                bound = transfer_bound(r, rows)
                if bound:
                    x = bound[0] / r["ms"]
                    # above 100%: faster than its own transfers, so the
                    # identity baseline subtracted was off (noise), not met
                    above = x > 1.05
                    # the device's own share: its transfers and kernels
                    # (profiling events), without the host's time between
                    # frames (the source, the sink)
                    dev_ms = (r.get("transfer_ms") or 0) + (r.get("kernel_ms") or 0)
                    dev = (f" (device busy {dev_ms:.4f} ms a frame: {bound[0] / dev_ms * 100:.0f}%)"
                           if r.get("transfer_ms") else "")
                    out.append(("GPU: 3-element chain >= 80% of the pinned up+down bound", where,
                                f"{x * 100:.0f}%" + (" (above the bound: baseline noise, run again)"
                                                      if above else "") + bound[1] + dev,
                                None if above else x >= 0.8))
        if r["item"] in FLOW_SAME_SCALE and r["device"].endswith("CPU"):
            peer = [p for p in same if p["impl"] == FLOW_SAME_SCALE[r["item"]]]
            if peer:
                out.append(("CPU: dense flow as fast as the peer at its scale", where,
                            f"{peer[0]['ms'] / r['ms']:.2f}x ({peer[0]['impl']})",
                            peer[0]["ms"] >= r["ms"]))
        if r["item"] == "cloptflow" and r["size"] == "1080p" and r["device"].endswith("GPU"):
            out.append(("GPU: optical flow 1080p >= 200 fps", where, f"{1000 / r['ms']:.0f} fps",
                        r["ms"] <= 5.0))
    if out:
        print("\n## Goals of issue 7 (from the rows above)")
        for goal, where, val, ok in out:
            status = "unsure" if ok is None else "met" if ok else "NOT met"
            print(f"  {status:7} {goal:58} {where:40} {val}")


def machine(ctx):
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(l.split(":", 1)[1].strip() for l in fh if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    opencl_devices(ctx)
    pocl = pocl_settings(os.environ)
    return (f"nproc={os.cpu_count()} ({len(os.sched_getaffinity(0))} usable), CPU {cpu}; "
            f"OpenCL devices: {ctx.device_info}" + (f"; {pocl}" if pocl else ""))


def pocl_settings(environ):
    """The POCL_* variables set, for the machine line: PoCL's settings change
    its figures (POCL_AFFINITY: docs/PERFORMANCE.md, session 10)."""
    return " ".join(f"{k}={v}" for k, v in sorted(environ.items()) if k.startswith("POCL_"))


def versions(ctx):
    v = []
    out = subprocess.run(["gst-launch-1.0", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"GStreamer ([\d.]+)", out)
    v.append(f"GStreamer {m.group(1) if m else '?'}")
    if ctx.ffmpeg:
        out = subprocess.run([ctx.ffmpeg, "-version"], capture_output=True, text=True).stdout
        v.append(out.split("\n")[0].split(" Copyright")[0])
    v.append(f"OpenCV {ctx.cv2.__version__}" if ctx.cv2 is not None else "no cv2")
    v.append("clprof: " + ("yes" if ctx.prof else "not built (no kernel times)"))
    return ", ".join(v)


if __name__ == "__main__":
    main()
