#!/usr/bin/python3
"""Side-by-side benchmark of the OpenCL elements against their peers.

Run with the system Python (the one with python3-opencv on Debian):

    /usr/bin/python3 bench/bench_blur.py [--build-dir build] [--frames N]
                                         [--quick] [--devices cpu,gpu,P.D,...]

It prints, for 1080p 8-bit frames in GRAY8 and NV12, the per-frame cost of
`clblur` (once per OpenCL device) and of its peers -- GStreamer `cvsmooth`,
FFmpeg `gblur` and `avgblur_opencl`, OpenCV `cv2.GaussianBlur` -- with the
ratio of each to `clblur`.

How it measures (so that the figure is the element's own cost):
  * inputs come from memory. GStreamer: `videotestsrc` with a static
    pattern, which draws the pattern once and then only copies it into a
    fresh buffer from the downstream pool (~0.04 ms/frame, in the baseline)
    -- the way a decoder feeds a filter. `--gst-source imagefreeze` instead
    repeats a generated frame (gradients + noise, from /dev/shm) with
    `imagefreeze`: every frame is then the same read-only buffer, which makes
    in-place elements copy it into newly allocated memory (cvsmooth: +1 ms
    per frame, ~500 page faults) and zero-copy elements see foreign memory.
    FFmpeg: loops over 4 generated raw frames in /dev/shm with
    `-stream_loop -1` (`-f rawvideo`); OpenCV: the generated frame in numpy.
  * every run is made twice, with n1 and n2 frames, and the per-frame cost
    is the slope (T(n2)-T(n1))/(n2-n1): start-up, program builds, the first
    frame and tear-down drop out. T is gst-launch's "Execution ended after"
    (PLAYING to EOS) and FFmpeg's `-benchmark` rtime. The constant part is
    printed as "fixed ms" (a large one on our element means work done on the
    first frames instead of in start()).
  * a baseline pipeline, the same with `identity` (GStreamer), `null`
    (FFmpeg CPU) or `hwupload,hwdownload` (FFmpeg OpenCL) in place of the
    filter, is measured the same way and subtracted.
  * every measurement is repeated (--reps, default 5) and the median kept.
The sink is `filesink location=/dev/null`, which maps every buffer for the
CPU, so asynchronous OpenCL work is waited for (like a real CPU consumer).

Details worth knowing:
  * clblur runs with kernel-size=5: with kernel-size=0 it derives 9 taps
    from sigma 1.1 (OpenCV's 8-bit rule), and every peer is 5x5.
  * cvsmooth takes GRAY8/RGB/BGR only (sigma is its `color` property): for
    NV12 it is fed BGR through videoconvert, and two rows are printed, the
    element's share (conversions subtracted) and the total.
  * FFmpeg gblur is an IIR approximation of a Gaussian and has no NV12: it
    gets yuv420p (same bytes). avgblur_opencl is a box blur (sizeX=2: 5x5),
    FFmpeg's nearest OpenCL blur. PoCL has no two-channel images, so FFmpeg
    cannot hwupload NV12 to it: it falls back to yuv420p there.
  * The OpenCL device index is FFmpeg's `-init_hw_device opencl=ocl:P.D`,
    platform.device in the ICD loader's order, the same as `clinfo -l`.
  * On the GPU machine: `. .device/env.sh && python3 bench/bench_blur.py`
    (needs some python3 >= 3.6; numpy/cv2 are optional: without them the
    cv2 row is skipped and frames are generated in pure Python). The carried
    ffmpeg there is the minimal static build from .device/make-extra-debs.sh.

More elements (clsobel, clhisteq) are added by adding a Bench entry to
BENCHES: the element, its properties and a list of peers.
"""
import argparse
import atexit
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

W, H = 1920, 1080
SHM = "/dev/shm"


# ---------------------------------------------------------------------------
# Formats

class Fmt:
    def __init__(self, name, parse, ff, size):
        self.name = name      # GStreamer format name
        self.parse = parse    # rawvideoparse format= value
        self.ff = ff          # FFmpeg pix_fmt of the same layout
        self.size = size      # bytes per frame


FORMATS = {
    "GRAY8": Fmt("GRAY8", "gray8", "gray", W * H),
    "NV12": Fmt("NV12", "nv12", "nv12", W * H * 3 // 2),
    "I420": Fmt("I420", "i420", "yuv420p", W * H * 3 // 2),
}


# ---------------------------------------------------------------------------
# Peers. Each returns, for one format, a list of Measurement specs; a spec
# knows how to run itself for n frames and which baseline it subtracts.

class Row:
    """One line of the table: a measurement minus its baseline."""

    def __init__(self, label, run, baseline=None, note="", is_ref=None):
        self.label = label
        self.run = run            # Runner
        self.baseline = baseline  # Runner or None
        self.note = note
        self.is_ref = is_ref      # device spec if this row is the element under test
        self.ms = None
        self.fixed_ms = None
        self.error = None
        self.spread = None


class Runner:
    """Something that can be timed for n frames. Identical runners (same key)
    are measured once and shared between rows (baselines)."""
    kind = "?"
    n_min = 5         # smallest n2

    def key(self):
        raise NotImplementedError

    def time_n(self, n):
        """seconds for n frames (fixed costs included); raises RunError"""
        raise NotImplementedError


class RunError(Exception):
    pass


class GstRunner(Runner):
    kind = "gst"

    def __init__(self, ctx, fmt, middle):
        self.ctx, self.fmt, self.middle = ctx, fmt, middle

    def desc(self, n):
        f = FORMATS[self.fmt]
        if self.ctx.args.gst_source == "pool":
            src = (f"videotestsrc pattern={self.ctx.args.pattern} num-buffers={n} ! "
                   f"video/x-raw,format={f.name},width={W},height={H},framerate=30/1")
        else:
            src = (f"filesrc location={self.ctx.one_frame(f)} ! rawvideoparse format={f.parse} "
                   f"width={W} height={H} framerate=30/1 ! imagefreeze num-buffers={n}")
        return f"{src} ! {self.middle} ! filesink location=/dev/null"

    def key(self):
        return ("gst", self.fmt, self.middle)  # source fixed for the whole run

    def time_n(self, n):
        d = self.desc(n)
        try:
            p = subprocess.run(["gst-launch-1.0"] + split_pipeline(d), env=self.ctx.gst_env,
                               capture_output=True, text=True, timeout=self.ctx.args.timeout)
        except subprocess.TimeoutExpired:
            raise RunError("timeout")
        m = re.search(r"Execution ended after (\d+):(\d+):(\d+\.\d+)", p.stdout)
        if p.returncode != 0 or not m:
            err = [l for l in (p.stdout + p.stderr).splitlines() if "ERROR" in l or "rror" in l]
            raise RunError((err[0] if err else f"gst-launch rc={p.returncode}")[:160])
        return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))


class FFRunner(Runner):
    kind = "ffmpeg"

    def __init__(self, ctx, pix_fmt, vf, ocl_dev=None):
        self.ctx, self.pix_fmt, self.vf, self.ocl_dev = ctx, pix_fmt, vf, ocl_dev

    def key(self):
        return ("ff", self.pix_fmt, self.vf, self.ocl_dev)

    def argv(self, n):
        a = [self.ctx.ffmpeg, "-hide_banner", "-nostdin", "-benchmark"]
        if self.ocl_dev is not None:
            a += ["-init_hw_device", f"opencl=ocl:{self.ocl_dev}", "-filter_hw_device", "ocl"]
        a += ["-stream_loop", "-1", "-f", "rawvideo", "-pix_fmt", self.pix_fmt,
              "-s", f"{W}x{H}", "-framerate", "30", "-i", self.ctx.ff_frames(self.pix_fmt),
              "-frames:v", str(n), "-vf", self.vf, "-f", "null", "-"]
        return a

    def time_n(self, n):
        try:
            p = subprocess.run(self.argv(n), capture_output=True, text=True,
                               timeout=self.ctx.args.timeout)
        except subprocess.TimeoutExpired:
            raise RunError("timeout")
        m = re.search(r"bench: utime=\S+ stime=\S+ rtime=([\d.]+)s", p.stderr)
        if p.returncode != 0 or not m:
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            err = [l for l in lines if re.search(r"rror|nvalid|not supported|fail", l, re.I)]
            raise RunError(((err or lines or ["ffmpeg rc=%d" % p.returncode])[0]).strip()[:160])
        return float(m.group(1))


class CVRunner(Runner):
    kind = "opencv"
    n_min = 10

    def __init__(self, ctx, fmt, fn):
        self.ctx, self.fmt, self.fn = ctx, fmt, fn
        self.planes = None

    def key(self):
        return ("cv", self.fmt, id(self.fn))

    def time_n(self, n):
        np, cv2 = self.ctx.np, self.ctx.cv2
        if self.planes is None:
            f = FORMATS[self.fmt]
            buf = np.frombuffer(self.ctx.frame_bytes(f), np.uint8)
            y = buf[:W * H].reshape(H, W)
            if self.fmt == "GRAY8":
                srcs = [y]
            elif self.fmt == "NV12":
                srcs = [y, buf[W * H:].reshape(H // 2, W // 2, 2)]
            else:  # I420
                srcs = [y, buf[W * H:W * H * 5 // 4].reshape(H // 2, W // 2),
                        buf[W * H * 5 // 4:].reshape(H // 2, W // 2)]
            self.planes = [(np.ascontiguousarray(s), np.empty_like(s)) for s in srcs]
        fn = self.fn
        t0 = time.perf_counter()
        for _ in range(n):
            for s, d in self.planes:
                fn(cv2, s, d)
        return time.perf_counter() - t0


# -- peer kinds ---------------------------------------------------------------

class GstPeer:
    """A GStreamer element. `accepts`: formats it takes directly; for the
    others `convert` names the format it is fed through videoconvert; the row
    then is the element's share (conversions subtracted), and a second row
    gives the total with the conversions."""

    def __init__(self, label, element, accepts, convert=None):
        self.label, self.element, self.accepts, self.convert = label, element, accepts, convert or {}

    def available(self, ctx):
        fac = self.element.split()[0]
        return ctx.gst_has(fac), f"{fac}: element not found"

    def rows(self, ctx, fmt):
        if fmt in self.accepts:
            return [Row(self.label, GstRunner(ctx, fmt, self.element),
                        GstRunner(ctx, fmt, "identity"))]
        conv = self.convert.get(fmt)
        if not conv:
            return []
        wrap = lambda mid: (f"videoconvert ! video/x-raw,format={conv} ! {mid} ! "
                            f"videoconvert ! video/x-raw,format={fmt}")
        run = GstRunner(ctx, fmt, wrap(self.element))
        return [Row(f"{self.label} [{conv}, element only]", run, GstRunner(ctx, fmt, wrap("identity")),
                    note=f"no {fmt}: fed {conv} via videoconvert; conversions subtracted"),
                Row(f"{self.label} [+videoconvert {fmt}<->{conv}]", run, GstRunner(ctx, fmt, "identity"),
                    note="total incl. both conversions")]


class ElementUnderTest(GstPeer):
    def __init__(self, element, props):
        super().__init__(element, f"{element} {props}", accepts=())
        self.factory, self.props = element, props

    def rows_for_device(self, ctx, fmt, dev):
        mid = f"{self.factory} {self.props} device={dev}"
        return [Row(f"{self.factory} device={dev}", GstRunner(ctx, fmt, mid),
                    GstRunner(ctx, fmt, "identity"), is_ref=dev)]


class FFPeer:
    """An FFmpeg CPU filter; pix_fmts maps our format to the pix_fmt fed."""

    def __init__(self, label, vf, pix_fmts):
        self.label, self.vf, self.pix_fmts = label, vf, pix_fmts

    def available(self, ctx):
        name = self.vf.split("=")[0]
        return ctx.ff_has(name), f"{name}: not in this ffmpeg"

    def rows(self, ctx, fmt):
        pf = self.pix_fmts.get(fmt)
        if not pf:
            return []
        note = "" if pf == FORMATS[fmt].ff else f"as {pf}: no {FORMATS[fmt].ff} support (same bytes)"
        return [Row(self.label, FFRunner(ctx, pf, self.vf), FFRunner(ctx, pf, "null"), note=note)]


class FFCLPeer:
    """An FFmpeg OpenCL filter, run on each OpenCL device measured: a row with
    the filter only (hwupload/hwdownload subtracted) and one with the total."""

    def __init__(self, label, vf, pix_fmts):
        self.label, self.vf, self.pix_fmts = label, vf, pix_fmts

    def available(self, ctx):
        name = self.vf.split("=")[0]
        return ctx.ff_has(name) and ctx.ff_has("hwupload"), f"{name}: not in this ffmpeg"

    def rows_for_device(self, ctx, fmt, pd, devlabel):
        rows = []
        for pf in self.pix_fmts.get(fmt, []):
            chain = f"hwupload,{self.vf},hwdownload,format={pf}"
            base = f"hwupload,hwdownload,format={pf}"
            run = FFRunner(ctx, pf, chain, pd)
            # probe: does this device take this pix_fmt? (PoCL has no RG
            # images, so NV12 cannot be uploaded there)
            try:
                run.time_n(1)
            except RunError as e:
                ctx.notes.append(f"{self.label} @{pd}: {pf} refused ({e}); trying next pix_fmt")
                continue
            note = "" if pf == FORMATS[fmt].ff else f"as {pf}: {FORMATS[fmt].ff} not usable on this device"
            rows.append(Row(f"{self.label} @{devlabel} [filter]", run,
                            FFRunner(ctx, pf, base, pd), note=note))
            rows.append(Row(f"{self.label} @{devlabel} [+up/down]", run,
                            FFRunner(ctx, pf, "null"), note="total: hwupload+filter+hwdownload"))
            break
        return rows


class CVPeer:
    """An OpenCV call on numpy planes (NV12: Y plane + interleaved UV plane)."""

    def __init__(self, label, fn):
        self.label, self.fn = label, fn

    def available(self, ctx):
        return ctx.cv2 is not None, "cv2/numpy not importable in this python"

    def rows(self, ctx, fmt):
        threads = ctx.cv2.getNumThreads()
        return [Row(self.label, CVRunner(ctx, fmt, self.fn), None,
                    note=f"in-process loop, {threads} OpenCV threads")]


class Bench:
    def __init__(self, name, title, formats, element, props, peers):
        self.name, self.title, self.formats = name, title, formats
        self.element = ElementUnderTest(element, props)
        self.peers = peers


def _cv_gauss(cv2, s, d):
    cv2.GaussianBlur(s, (5, 5), 1.1, dst=d, borderType=cv2.BORDER_REFLECT_101)


def _cv_sobel_mag(cv2, s, d):
    # Called per plane: edges of the luma only, as clsobel.
    if s.shape != (H, W):
        return
    gx = cv2.Sobel(s, cv2.CV_32F, 1, 0, ksize=3, borderType=cv2.BORDER_REFLECT_101)
    gy = cv2.Sobel(s, cv2.CV_32F, 0, 1, ksize=3, borderType=cv2.BORDER_REFLECT_101)
    cv2.convertScaleAbs(cv2.magnitude(gx, gy), dst=d)


BENCHES = {
    "blur": Bench(
        "blur", "Gaussian blur 5x5, sigma 1.1", ["GRAY8", "NV12"],
        "clblur", "sigma=1.1 kernel-size=5",
        [
            GstPeer("cvsmooth", "cvsmooth type=gaussian kernel-width=5 kernel-height=5 color=1.1",
                    accepts=("GRAY8", "RGB", "BGR"), convert={"NV12": "BGR", "I420": "BGR"}),
            FFPeer("ffmpeg gblur", "gblur=sigma=1.1",
                   {"GRAY8": "gray", "NV12": "yuv420p", "I420": "yuv420p"}),
            FFCLPeer("ffmpeg avgblur_opencl (box)", "avgblur_opencl=sizeX=2:sizeY=2",
                     {"GRAY8": ["gray"], "NV12": ["nv12", "yuv420p"], "I420": ["yuv420p"]}),
            CVPeer("cv2.GaussianBlur", _cv_gauss),
        ]),
    "sobel": Bench(
        "sobel", "Sobel 3x3 magnitude (GRAY8 out)", ["GRAY8", "NV12"],
        "clsobel", "kernel-size=3 mode=magnitude",
        [
            # cvsobel takes RGB only and outputs one derivative order.
            GstPeer("cvsobel", "cvsobel x-order=1 y-order=1 aperture-size=3",
                    accepts=("RGB",), convert={"GRAY8": "RGB", "NV12": "RGB"}),
            FFPeer("ffmpeg sobel", "sobel", {"GRAY8": "gray", "NV12": "yuv420p"}),
            FFCLPeer("ffmpeg sobel_opencl", "sobel_opencl",
                     {"GRAY8": ["gray"], "NV12": ["nv12", "yuv420p"]}),
            CVPeer("cv2.Sobel x,y + magnitude", _cv_sobel_mag),
        ]),
    # To add later (same shape):
    # "histeq": Bench("histeq", "histogram equalisation", ["GRAY8"], "clhisteq", "...",
    #     [GstPeer("cvequalizehist", "cvequalizehist", accepts=("GRAY8",)),
    #      FFPeer("ffmpeg histeq", "histeq", {"GRAY8": "gray"}),
    #      CVPeer("cv2.equalizeHist", lambda cv2, s, d: cv2.equalizeHist(s, dst=d))]),
}


# ---------------------------------------------------------------------------
# Context: tools, inputs, OpenCL devices

def split_pipeline(desc):
    # gst-launch-1.0 takes the description as separate argv words; none of
    # ours contains quoted spaces.
    return desc.split()


class Ctx:
    def __init__(self, args):
        self.args = args
        self.notes = []
        self.files = []
        self.gst_env = dict(os.environ)
        self.build_dir = os.path.abspath(args.build_dir)
        if os.path.isdir(self.build_dir):
            old = self.gst_env.get("GST_PLUGIN_PATH")
            self.gst_env["GST_PLUGIN_PATH"] = self.build_dir + (":" + old if old else "")
        self._gst_has = {}
        self.ffmpeg = shutil.which("ffmpeg")
        self._ff_filters = None
        try:
            import numpy as np
            import cv2
            self.np, self.cv2 = np, cv2
        except Exception:
            self.np = self.cv2 = None
        self._frames = {}

    # -- tools --
    def gst_has(self, factory):
        if factory not in self._gst_has:
            if not shutil.which("gst-inspect-1.0"):
                self._gst_has[factory] = False
            else:
                # not --exists: it also demands plugin version >= GStreamer's,
                # and ours is 0.x
                p = subprocess.run(["gst-inspect-1.0", factory], env=self.gst_env,
                                   capture_output=True)
                self._gst_has[factory] = p.returncode == 0
        return self._gst_has[factory]

    def ff_has(self, name):
        if not self.ffmpeg:
            return False
        if self._ff_filters is None:
            p = subprocess.run([self.ffmpeg, "-hide_banner", "-filters"], capture_output=True, text=True)
            self._ff_filters = set(l.split()[1] for l in p.stdout.splitlines()
                                   if len(l.split()) >= 3 and "->" in l)
        return name in self._ff_filters

    # -- inputs --
    def frame_bytes(self, f):
        """one real-looking frame: gradients, ripples and noise in luma; smooth chroma"""
        if f.name in self._frames:
            return self._frames[f.name]
        luma = self._luma(0)
        if f.name == "GRAY8":
            data = luma
        else:
            u, v = self._chroma()
            if f.name == "NV12":
                uv = bytearray(W * H // 2)
                uv[0::2], uv[1::2] = u, v
                data = luma + bytes(uv)
            else:
                data = luma + u + v
        self._frames[f.name] = data
        return data

    def _luma(self, seed):
        np = self.np
        if np is not None:
            rng = np.random.default_rng(seed + 1)
            y, x = np.mgrid[0:H, 0:W].astype(np.float32)
            img = (0.45 * x * 255 / W + 0.3 * y * 255 / H + 40 * np.sin(x / 37.0 + seed) * np.cos(y / 23.0)
                   + rng.normal(0, 18, (H, W)))
            return img.clip(0, 255).astype(np.uint8).tobytes()
        noise = os.urandom(W * H)
        out = bytearray(W * H)
        for yy in range(H):
            base = yy * 76 // H + seed * 7
            o = yy * W
            out[o:o + W] = bytes(((xx * 115 // W) + base + (noise[o + xx] & 31)) & 255 for xx in range(W))
        return bytes(out)

    def _chroma(self):
        w, h = W // 2, H // 2
        u = bytes((96 + (x * 64 // w)) & 255 for y in range(h) for x in range(w))
        v = bytes((160 - (y * 64 // h)) & 255 for y in range(h) for x in range(w))
        return u, v

    def _shm(self, name, data):
        path = os.path.join(SHM, f"bench_blur_{os.getpid()}_{name}")
        if path not in self.files:
            with open(path, "wb") as fh:
                fh.write(data)
            self.files.append(path)
        return path

    def one_frame(self, f):
        return self._shm(f"one_{f.name}.raw", self.frame_bytes(f))

    def ff_frames(self, pix_fmt):
        """a few frames in pix_fmt for FFmpeg's -stream_loop"""
        name = {"gray": "GRAY8", "nv12": "NV12", "yuv420p": "I420"}[pix_fmt]
        f = FORMATS[name]
        first = self.frame_bytes(f)
        # 4 distinct frames: the first plus luma variants (rotated rows)
        frames = [first]
        for k in (1, 2, 3):
            off = k * 37 * W
            luma = first[off:W * H] + first[:off]
            frames.append(luma + first[W * H:])
        return self._shm(f"loop_{pix_fmt}.raw", b"".join(frames))

    def cleanup(self):
        if self.args.keep:
            return
        for p in self.files:
            try:
                os.unlink(p)
            except OSError:
                pass


def opencl_devices():
    """[(platform_index, device_index, type, name, platform)] from clinfo --raw"""
    if not shutil.which("clinfo"):
        return []
    try:
        out = subprocess.run(["clinfo", "--raw"], capture_output=True, text=True, timeout=60).stdout
    except Exception:
        return []
    devs, plats, tags = {}, [], {}
    for line in out.splitlines():
        m = re.match(r"\[([^/\]]+)/\*\]\s+CL_PLATFORM_NAME\s+(.*)", line)
        if m:
            tags[m.group(1)] = len(plats)
            plats.append(m.group(2).strip())
            continue
        m = re.match(r"\[([^/\]]+)/(\d+)\]\s+CL_DEVICE_(NAME|TYPE)\s+(.*)", line)
        if m and m.group(1) in tags:
            pi, di = tags[m.group(1)], int(m.group(2))
            d = devs.setdefault((pi, di), {"type": "?", "name": "?"})
            if m.group(3) == "NAME":
                d["name"] = m.group(4).strip()
            else:
                t = m.group(4)
                d["type"] = "GPU" if "GPU" in t else "CPU" if "CPU" in t else "ACCEL" if "ACCEL" in t else t
    return [(pi, di, d["type"], d["name"], plats[pi]) for (pi, di), d in sorted(devs.items())]


def resolve_device(spec, devs):
    """our device spec -> (P.D for FFmpeg, short label) or None"""
    s = spec.lower()
    for pi, di, typ, name, plat in devs:
        if (s in ("cpu", "gpu") and typ.lower() == s) or s == f"{pi}.{di}" or \
                (s not in ("cpu", "gpu", "auto") and s in name.lower()):
            return f"{pi}.{di}", f"{pi}.{di} {typ}"
    return None


# ---------------------------------------------------------------------------
# Measuring

class Measurer:
    def __init__(self, ctx):
        self.ctx = ctx
        a = ctx.args
        self.reps = a.reps
        self.target = a.target
        self.n_max = a.frames
        self.cache = {}     # runner key -> (ms, fixed_ms) or RunError

    def plan(self, r):
        """calibrate: choose n1 < n2 so that T(n2) ~ target seconds"""
        ts = {}

        def t(n):
            ts[n] = r.time_n(n)
            return ts[n]
        if r.kind == "opencv":
            t(3)
            per = max(t(10) / 10, 1e-7)
            n2 = max(r.n_min, min(self.n_max, int(self.target / per)))
            return 0, n2
        t(2)                       # warm-up (caches, PoCL kernel cache), fixed cost
        per = (t(6) - ts[2]) / 4
        if per * 4 < 0.05:         # too short to tell: take a longer step
            n = min(self.n_max, 40)
            per = (t(n) - ts[2]) / (n - 2)
        per = max(per, 1e-7)
        n2 = max(r.n_min, min(self.n_max, int(self.target / per)))
        n1 = max(1 if r.kind == "ffmpeg" else 2, n2 // 10)
        if n2 - n1 < 3:
            n2 = n1 + 3
        return n1, n2

    def measure(self, r):
        k = r.key()
        if k in self.cache:
            v = self.cache[k]
            if isinstance(v, RunError):
                raise v
            return v
        try:
            n1, n2 = self.plan(r)
            slopes, fixed, t1s, t2s = [], [], [], []
            for _ in range(self.reps):
                t1 = r.time_n(n1) if n1 else 0.0
                t2 = r.time_n(n2)
                s = (t2 - t1) / (n2 - n1)
                slopes.append(s)
                fixed.append(t1 - n1 * s)
                t1s.append(t1)
                t2s.append(t2)
            med = statistics.median(slopes)
            spread = (max(slopes) - min(slopes)) / med * 100 if med > 0 else 0.0
            if self.ctx.args.stat == "min":
                # least-disturbed run of each length (interference only adds time)
                med = (min(t2s) - min(t1s)) / (n2 - n1)
                fixed = [min(t1s) - n1 * med]
            v = (med * 1e3, statistics.median(fixed) * 1e3, n1, n2, spread)
        except RunError as e:
            self.cache[k] = e
            raise
        self.cache[k] = v
        if self.ctx.args.verbose:
            print(f"  [{r.kind}] {k[1:]}: {v[0]:.3f} ms/frame (spread {v[4]:.0f}%), "
                  f"fixed {v[1]:.0f} ms (n {n1}->{n2})",
                  file=sys.stderr)
        return v

    def fill(self, row):
        try:
            ms, fixed, _, _, row.spread = self.measure(row.run)
            if row.baseline is not None:
                bms, bfixed, _, _, _ = self.measure(row.baseline)
                ms -= bms
                fixed -= bfixed
            row.ms, row.fixed_ms = ms, fixed
        except RunError as e:
            row.error = str(e)


# ---------------------------------------------------------------------------

def machine_line(devs):
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as fh:
            for l in fh:
                if l.startswith("model name"):
                    cpu = l.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    ocl = "; ".join(f"{pi}.{di} {name} ({typ}, {plat})" for pi, di, typ, name, plat in devs) or "none found"
    return f"machine: nproc={os.cpu_count()} ({len(os.sched_getaffinity(0))} usable), CPU {cpu}; OpenCL: {ocl}"


def versions(ctx):
    v = []
    try:
        out = subprocess.run(["gst-launch-1.0", "--version"], capture_output=True, text=True).stdout
        m = re.search(r"GStreamer ([\d.]+)", out)
        v.append(f"GStreamer {m.group(1) if m else '?'}")
    except OSError:
        v.append("GStreamer missing")
    if ctx.ffmpeg:
        out = subprocess.run([ctx.ffmpeg, "-version"], capture_output=True, text=True).stdout
        v.append(out.split("\n")[0].replace(" Copyright", "").split(" (c)")[0].strip())
    else:
        v.append("ffmpeg missing")
    v.append(f"OpenCV {ctx.cv2.__version__}" if ctx.cv2 is not None else "OpenCV (python) missing")
    return ", ".join(v)


def fmt_ms(ms):
    if ms is None:
        return "-"
    if ms <= 0:
        return "<0.001"
    return f"{ms:.3f}" if ms < 10 else f"{ms:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default="/work/main/build",
                    help="meson build folder holding the plugin (GST_PLUGIN_PATH)")
    ap.add_argument("--bench", default="blur", choices=sorted(BENCHES))
    ap.add_argument("--formats", help="comma list, default: the bench's (GRAY8,NV12)")
    ap.add_argument("--devices", help="clblur device= values, comma list (cpu,gpu,P.D,name); "
                                      "default: cpu, plus gpu if clinfo shows one")
    ap.add_argument("--frames", type=int, default=500, help="most frames per run (default 500)")
    ap.add_argument("--reps", type=int, default=5, help="repetitions, median kept (default 5)")
    ap.add_argument("--stat", choices=["median", "min"], default="median",
                    help="median of the per-repetition slopes (default), or the slope between the "
                         "fastest run of each length (for busy machines)")
    ap.add_argument("--target", type=float, default=0.8,
                    help="seconds one timed run aims at (default 0.8)")
    ap.add_argument("--quick", action="store_true", help="1 repetition, 0.25 s runs, 100 frames max")
    ap.add_argument("--gst-source", choices=["pool", "imagefreeze"], default="pool",
                    help="pool (default): videotestsrc with a static pattern, which it draws once "
                         "and copies into a fresh writable buffer from the downstream pool "
                         "(~0.04 ms/frame, subtracted); imagefreeze: our generated frame from "
                         "/dev/shm, the SAME read-only buffer pushed N times (in-place and "
                         "zero-copy elements then pay a copy into newly allocated memory per frame)")
    ap.add_argument("--pattern", default="pinwheel",
                    help="videotestsrc pattern for --gst-source pool (default pinwheel; not "
                         "zone-plate, which is flat with default settings)")
    ap.add_argument("--only", help="comma list of substrings: measure only peers whose label matches")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run before giving up")
    ap.add_argument("--keep", action="store_true", help="keep the /dev/shm input files")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every measurement on stderr")
    args = ap.parse_args()
    if args.quick:
        args.reps, args.target, args.frames = 1, 0.25, min(args.frames, 100)

    bench = BENCHES[args.bench]
    formats = args.formats.split(",") if args.formats else bench.formats
    ctx = Ctx(args)
    atexit.register(ctx.cleanup)
    t_start = time.time()

    devs = opencl_devices()
    if args.devices:
        dev_specs = [d.strip() for d in args.devices.split(",") if d.strip()]
    else:
        dev_specs = ["cpu"] + (["gpu"] if any(d[2] == "GPU" for d in devs) else [])

    el = bench.element
    el_ok = ctx.gst_has(el.factory)
    print(f"# {bench.title}, {W}x{H}, per frame; build dir {ctx.build_dir}")
    if not el_ok:
        print(f"{el.factory}: not built (no {el.factory} under GST_PLUGIN_PATH={ctx.build_dir})")
    print(f"# {versions(ctx)}")
    src = (f"videotestsrc pattern={args.pattern} (into the downstream pool)"
           if args.gst_source == "pool" else "imagefreeze (one read-only buffer repeated)")
    print(f"# GStreamer input: {src}; sink filesink location=/dev/null; "
          f"slope of T(n2)-T(n1), {args.stat} of {args.reps}, baseline subtracted")

    peers_ok = []
    for p in bench.peers:
        ok, why = p.available(ctx)
        if args.only and not any(s in p.label for s in args.only.split(",")):
            continue
        if ok:
            peers_ok.append(p)
        else:
            print(f"{p.label}: skipped ({why})")

    m = Measurer(ctx)
    all_rows = {}
    for fmt in formats:
        rows = []
        if el_ok:
            for d in dev_specs:
                rows += el.rows_for_device(ctx, fmt, d)
        for p in peers_ok:
            if isinstance(p, FFCLPeer):
                seen = set()
                for d in dev_specs:
                    r = resolve_device(d, devs)
                    if r is None:
                        ctx.notes.append(f"{p.label}: no OpenCL device matches '{d}'")
                        continue
                    if r[0] in seen:
                        continue
                    seen.add(r[0])
                    rows += p.rows_for_device(ctx, fmt, r[0], r[1])
            else:
                rows += p.rows(ctx, fmt)
        for r in rows:
            m.fill(r)
        all_rows[fmt] = rows

    # -- table --
    refs = [d for d in dev_specs] if el_ok else []
    lw = max([len(r.label) for rows in all_rows.values() for r in rows] + [20])
    hdr = f"{'format':6}  {'peer':{lw}} {'ms/frame':>9} {'fps':>8} {'spread':>6} {'fixed ms':>8}"
    for d in refs:
        hdr += f" {'x ' + bench.element.factory + '(' + d + ')':>15}"
    print()
    print(hdr + "  notes")
    print("-" * (len(hdr) + 7))
    for fmt, rows in all_rows.items():
        ref_ms = {r.is_ref: r.ms for r in rows if r.is_ref and r.ms and r.ms > 0}
        for r in rows:
            if r.error:
                line = f"{fmt:6}  {r.label:{lw}} {'n/a':>9} {'':>8} {'':>6} {'':>8}"
                line += " " * (16 * len(refs)) + f"  error: {r.error}"
                print(line)
                continue
            fps = f"{1000 / r.ms:.1f}" if r.ms and r.ms > 0 else "-"
            line = f"{fmt:6}  {r.label:{lw}} {fmt_ms(r.ms):>9} {fps:>8} {r.spread:5.0f}% {r.fixed_ms:8.0f}"
            for d in refs:
                ratio = f"{r.ms / ref_ms[d]:.2f}" if d in ref_ms and r.ms and r.ms > 0 else "-"
                line += f" {ratio:>15}"
            print(line + (f"  {r.note}" if r.note else ""))
    print()
    print(f"ratio = peer ms / {bench.element.factory} ms (>1: {bench.element.factory} is faster). spread = (max-min)/median of the "
          "repetitions. fixed ms = constant part of a run (start-up, builds, first frames) beyond "
          "its baseline's.")
    base = {}
    for rows in all_rows.values():
        for r in rows:
            if r.baseline is not None and r.baseline.key() in m.cache and \
                    not isinstance(m.cache[r.baseline.key()], RunError):
                k = r.baseline.key()
                base[(k[0],) + tuple(str(x) for x in k[1:])] = m.cache[k][0]
    if base:
        print("baselines (ms/frame, subtracted above): " + "; ".join(
            f"{'/'.join(x for x in k if x and x != 'None')} {v:.3f}" for k, v in base.items()))
    for n in dict.fromkeys(ctx.notes):
        print("note: " + n)
    print(machine_line(devs) + f"; {versions(ctx)}; run took {time.time() - t_start:.0f} s")


if __name__ == "__main__":
    main()
