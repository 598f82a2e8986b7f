"""The gl-transitions effects Segue draws (gl_*), evaluated independently in
numpy from the effects' GLSL (github.com/gl-transitions/gl-transitions, MIT),
on planar 4:2:0 pictures, for GLTransitionTests to compare Segue's frames with.

Conversion, as Segue documents it: limited-range Y'CbCr (BT.709 or BT.2020;
8 or 10 bits) to R'G'B' floats, not clamped, each pixel taking its 2x2 block's
chroma; the effect at every pixel centre (uv origin bottom left), textures
sampled bilinearly with edges repeated (GL's LINEAR + CLAMP_TO_EDGE); back to
codes rounded half up, chroma from the mean of the block's own Cb and Cr. Where
the GLSL is undefined (a power of a progress below 0), as Segue documents: a NaN
component stored as 0, as a GPU stores it; a NaN place sampling the top left.

Each effect is a function in one of the effects_*.py modules beside this one
(listed in the module's EFFECTS), called as effect(c, **uniforms) with a
Context c; its keyword arguments' defaults are the GLSL's.

usage: judge.py MATRIX WIDTH HEIGHT STEPS BITS A.raw B.raw (EFFECT UNIFORMS_JSON OUT.raw)...
A and B hold STEPS pictures each; step k is drawn at progress (k+1)/(STEPS+1),
or, for STEPS written `at:P0,P1,...`, at Pk (past 0 or 1 too, as editly's eased
progress reaches gl-transition's draw).
"""
import ctypes
import glob
import importlib
import json
import os
import sys

import numpy as np

MATRICES = {"bt709": (0.2126, 0.0722), "bt2020": (0.2627, 0.0593)}
PI = 3.141592653589
libm = ctypes.CDLL("libm.so.6")
libm.sinf.restype = ctypes.c_float
libm.sinf.argtypes = [ctypes.c_float]


def to_rgb(y, u, v, s, kr, kb):
    luma = (y - 16 * s) / (219 * s)
    cb = (np.repeat(np.repeat(u, 2, 0), 2, 1)[:y.shape[0], :y.shape[1]] - 128 * s) / (224 * s)
    cr = (np.repeat(np.repeat(v, 2, 0), 2, 1)[:y.shape[0], :y.shape[1]] - 128 * s) / (224 * s)
    r = luma + 2 * (1 - kr) * cr
    b = luma + 2 * (1 - kb) * cb
    g = (luma - kr * r - kb * b) / (1 - kr - kb)
    return np.stack([r, g, b, np.ones_like(r)], -1)


def to_yuv(rgb, s, top, kr, kb):
    rgb = np.where(np.isnan(rgb), 0.0, rgb)  # a NaN component stored as 0, as a GPU stores it
    luma = kr * rgb[..., 0] + (1 - kr - kb) * rgb[..., 1] + kb * rgb[..., 2]
    cb = (rgb[..., 2] - luma) / (2 * (1 - kb))
    cr = (rgb[..., 0] - luma) / (2 * (1 - kr))
    h, w = luma.shape

    def block_mean(c):
        return c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))

    def code(x):
        return np.clip(np.floor(x + 0.5), 0, top)
    return [code(16 * s + 219 * s * luma), code(128 * s + 224 * s * block_mean(cb)), code(128 * s + 224 * s * block_mean(cr))]


def sample(img, u, v):
    """GL LINEAR + CLAMP_TO_EDGE at texture coordinates u, v (origin bottom left)."""
    h, w = img.shape[:2]
    u, v = np.broadcast_arrays(np.asarray(u, dtype=np.float64), np.asarray(v, dtype=np.float64))
    # A NaN place (the GLSL undefined there: a power of a progress below 0) takes the first column or row, as Segue's.
    x = np.nan_to_num(np.clip(u * w - 0.5, -1, w), nan=-1.0)
    y = np.nan_to_num(np.clip((1 - v) * h - 0.5, -1, h), nan=-1.0)
    x0, y0 = np.floor(x), np.floor(y)
    fx, fy = (x - x0)[..., None], (y - y0)[..., None]
    c0, c1 = np.clip(x0, 0, w - 1).astype(int), np.clip(x0 + 1, 0, w - 1).astype(int)
    r0, r1 = np.clip(y0, 0, h - 1).astype(int), np.clip(y0 + 1, 0, h - 1).astype(int)
    top = img[r0, c0] * (1 - fx) + img[r0, c1] * fx
    bottom = img[r1, c0] * (1 - fx) + img[r1, c1] * fx
    return top * (1 - fy) + bottom * fy


# GLSL's built-ins on arrays: a scalar field has the picture's shape (h, w),
# a colour (h, w, 4).

def widen(a):
    """A scalar field as a colour's weight: (h, w) -> (h, w, 1)."""
    a = np.asarray(a, dtype=np.float64)
    return a[..., None] if a.ndim == 2 else a


def mix(x, y, a):
    a = widen(a) if np.ndim(x) == 3 or np.ndim(y) == 3 else np.asarray(a, dtype=np.float64)
    return x * (1 - a) + y * a


def step(edge, x):
    return np.where(np.asarray(x) < edge, 0.0, 1.0)


def smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0, 1)
    return t * t * (3 - 2 * t)


def fract(x):
    return x - np.floor(x)


def mod(x, y):
    return x - y * np.floor(x / y)


def select(condition, x, y):
    """Per pixel: x where condition holds, else y (colours or fields)."""
    condition = np.asarray(condition)
    if np.ndim(x) == 3 or np.ndim(y) == 3:
        condition = condition[..., None]
    return np.where(condition, x, y)


def in_bounds(x, y):
    return (0 < x) & (0 < y) & (x < 1) & (y < 1)


def sinf32(x):
    """sin in single precision with libm's sinf, as Segue's Float code runs it, element by element."""
    f = np.float32
    flat = np.asarray(x, dtype=np.float32).ravel()
    values = {key: f(libm.sinf(float(key))) for key in set(flat.tolist())}
    return np.array([values[key] for key in flat.tolist()], dtype=np.float32).reshape(np.shape(x))


def rand32(x, y):
    """The common fract(sin(dot(co, vec2(12.9898, 78.233))) * 43758.5453), in single precision."""
    f = np.float32
    d = (np.asarray(x, dtype=f) * f(12.9898)).astype(f) + (np.asarray(y, dtype=f) * f(78.233)).astype(f)
    r = (sinf32(d.astype(f)) * f(43758.5453)).astype(f)
    return (r - np.floor(r)).astype(np.float64)


class Context:
    """What an effect reads besides its uniforms: both pictures, progress, ratio and each pixel's uv."""

    def __init__(self, a, b, p, u, v):
        # p a numpy float: a power of a progress past 0 is NaN (as C's pow), never Python's complex number.
        self.a, self.b, self.p, self.u, self.v = a, b, np.float64(p), u, v
        self.ratio = a.shape[1] / a.shape[0]

    def fr(self, x, y):
        return sample(self.a, x, y)

    def to(self, x, y):
        return sample(self.b, x, y)


def effects():
    found = {}
    folder = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, folder)
    for path in sorted(glob.glob(os.path.join(folder, "effects_*.py"))):
        found.update(importlib.import_module(os.path.basename(path)[:-3]).EFFECTS)
    return found


def progresses_of(steps):
    """Each step's progress: STEPS evenly inside 0...1, or those listed after `at:`."""
    if steps.startswith("at:"):
        return [float(p) for p in steps[3:].split(",")]
    return [(k + 1) / (int(steps) + 1) for k in range(int(steps))]


def main():
    matrix, width, height, bits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[5])
    progresses = progresses_of(sys.argv[4])
    steps = len(progresses)
    kr, kb = MATRICES[matrix]
    dtype = np.uint8 if bits == 8 else np.dtype("<u2")
    s, top = float(1 << (bits - 8)), float((1 << bits) - 1)
    a_all = np.fromfile(sys.argv[6], dtype=dtype).astype(np.float64)
    b_all = np.fromfile(sys.argv[7], dtype=dtype).astype(np.float64)
    cw, ch = width // 2, height // 2
    picture = width * height + 2 * cw * ch
    v, u = np.meshgrid(1 - (np.arange(height) + 0.5) / height, (np.arange(width) + 0.5) / width, indexing="ij")
    pairs = []
    for k in range(steps):
        planes = []
        for src in (a_all, b_all):
            o = k * picture
            y = src[o:o + width * height].reshape(height, width)
            cb = src[o + width * height:o + width * height + cw * ch].reshape(ch, cw)
            cr = src[o + width * height + cw * ch:o + picture].reshape(ch, cw)
            planes.append(to_rgb(y, cb, cr, s, kr, kb))
        pairs.append(planes)
    table = effects()
    jobs = sys.argv[8:]
    for name, uniforms, out_path in zip(jobs[0::3], jobs[1::3], jobs[2::3]):
        out = []
        for k, (a, b) in enumerate(pairs):
            with np.errstate(invalid="ignore"):  # NaN where the GLSL is undefined: to_yuv stores it as 0
                rgb = table[name](Context(a, b, progresses[k], u, v), **json.loads(uniforms))
            rgb = np.broadcast_to(rgb, (height, width, 4))
            out.extend(plane.astype(dtype).ravel() for plane in to_yuv(rgb, s, top, kr, kb))
        np.concatenate(out).tofile(out_path)


if __name__ == "__main__":
    main()
