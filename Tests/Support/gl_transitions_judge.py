"""The gl-transitions effects Segue draws (gl_*), evaluated independently in
numpy from the effects' GLSL (github.com/gl-transitions/gl-transitions, MIT),
on planar 4:2:0 pictures, for GLTransitionTests to compare Segue's frames with.

Conversion, as Segue documents it: limited-range Y'CbCr (BT.709; 8 or 10 bits)
to R'G'B' floats, not clamped, each pixel taking its 2x2 block's chroma; the
effect at every pixel centre (uv origin bottom left), textures sampled
bilinearly with edges repeated (GL's LINEAR + CLAMP_TO_EDGE); back to codes
rounded half up, chroma from the mean of the block's own Cb and Cr.

usage: gl_transitions_judge.py EFFECT WIDTH HEIGHT STEPS BITS A.raw B.raw OUT.raw
A and B hold STEPS pictures each; step k is drawn at progress (k+1)/(STEPS+1).
"""
import ctypes
import sys

import numpy as np

KR, KB = 0.2126, 0.0722
KG = 1 - KR - KB
PI = 3.141592653589
libm = ctypes.CDLL("libm.so.6")
libm.sinf.restype = ctypes.c_float
libm.sinf.argtypes = [ctypes.c_float]


def to_rgb(y, u, v, s):
    luma = (y - 16 * s) / (219 * s)
    cb = (np.repeat(np.repeat(u, 2, 0), 2, 1)[:y.shape[0], :y.shape[1]] - 128 * s) / (224 * s)
    cr = (np.repeat(np.repeat(v, 2, 0), 2, 1)[:y.shape[0], :y.shape[1]] - 128 * s) / (224 * s)
    r = luma + 2 * (1 - KR) * cr
    b = luma + 2 * (1 - KB) * cb
    g = (luma - KR * r - KB * b) / KG
    return np.stack([r, g, b], -1)


def to_yuv(rgb, s, top):
    luma = KR * rgb[..., 0] + KG * rgb[..., 1] + KB * rgb[..., 2]
    cb = (rgb[..., 2] - luma) / (2 * (1 - KB))
    cr = (rgb[..., 0] - luma) / (2 * (1 - KR))
    h, w = luma.shape

    def block_mean(c):
        return c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))

    def code(x):
        return np.clip(np.floor(x + 0.5), 0, top)
    return [code(16 * s + 219 * s * luma), code(128 * s + 224 * s * block_mean(cb)), code(128 * s + 224 * s * block_mean(cr))]


def sample(img, u, v):
    """GL LINEAR + CLAMP_TO_EDGE at texture coordinates u, v (origin bottom left)."""
    h, w = img.shape[:2]
    x = np.clip(u * w - 0.5, -1, w)
    y = np.clip((1 - v) * h - 0.5, -1, h)
    x0, y0 = np.floor(x), np.floor(y)
    fx, fy = (x - x0)[..., None], (y - y0)[..., None]
    c0, c1 = np.clip(x0, 0, w - 1).astype(int), np.clip(x0 + 1, 0, w - 1).astype(int)
    r0, r1 = np.clip(y0, 0, h - 1).astype(int), np.clip(y0 + 1, 0, h - 1).astype(int)
    top = img[r0, c0] * (1 - fx) + img[r0, c1] * fx
    bottom = img[r1, c0] * (1 - fx) + img[r1, c1] * fx
    return top * (1 - fy) + bottom * fy


def mix(x, y, a):
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 2:
        a = a[..., None]
    return x * (1 - a) + y * a


def step(edge, x):
    return np.where(x < edge, 0.0, 1.0)


def smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0, 1)
    return t * t * (3 - 2 * t)


def fract(x):
    return x - np.floor(x)


def rand_cells(cx, cy):
    """randomsquares' rand, in single precision with libm's sinf as Segue's Float code runs it."""
    f = np.float32
    out = np.zeros(cx.shape)
    for key in set(zip(cx.ravel().tolist(), cy.ravel().tolist())):
        d = f(f(key[0]) * f(12.9898)) + f(f(key[1]) * f(78.233))
        r = f(libm.sinf(float(f(d)))) * f(43758.5453)
        out[(cx == key[0]) & (cy == key[1])] = float(f(r - np.floor(r)))
    return out


def effect(name, A, B, p, u, v):
    fr = lambda x, y: sample(A, x, y)
    to = lambda x, y: sample(B, x, y)
    if name == "fade":
        return mix(fr(u, v), to(u, v), p)
    if name == "wipeleft":
        return mix(fr(u, v), to(u, v), step(1 - u, p))
    if name == "wiperight":
        return mix(fr(u, v), to(u, v), step(u, p))
    if name == "directional":
        px, py = u, v + p
        fx, fy = fract(px), fract(py)
        m = step(0, py) * step(py, 1) * step(0, px) * step(px, 1)
        return mix(to(fx, fy), fr(fx, fy), m)
    if name == "circleopen":
        m = smoothstep(-0.3, 0, np.sqrt(2) * np.hypot(u - 0.5, v - 0.5) - p * 1.3)
        return mix(fr(u, v), to(u, v), 1 - m)
    if name == "angular":
        n = (np.arctan2(v - 0.5, u - 0.5) + PI) / (2 * PI)
        return np.where((n > p)[..., None], fr(u, v), to(u, v))
    if name == "swirl":
        x, y = u - 0.5, v - 0.5
        dist = np.hypot(x, y)
        a = 2 * p if p <= 0.5 else 2 * (1 - p)
        theta = np.where(dist < 1, (1 - dist) ** 2 * a * 8 * 3.14159, 0)
        sn, cs = np.sin(theta), np.cos(theta)
        x, y = x * cs - y * sn + 0.5, x * sn + y * cs + 0.5
        return mix(fr(x, y), to(x, y), p)
    if name == "heart":
        ox, oy = (u - 0.5) / (1.6 * p), (v - 0.4) / (1.6 * p)
        a = ox ** 2 + oy ** 2 - 0.3
        return mix(fr(u, v), to(u, v), step(a ** 3, ox ** 2 * oy ** 3))
    if name == "pinwheel":
        c = np.arctan2(v - 0.5, u - 0.5) + p * 2
        q = 3.1415 / 4
        mod = c - q * np.floor(c / q)
        return mix(to(u, v), fr(u, v), step(np.sign(p - mod), 0.5))
    if name == "windowslice":
        pr = smoothstep(-0.5, 0, u - p * 1.5)
        return mix(fr(u, v), to(u, v), step(pr, fract(10 * u)))
    if name == "radial":
        m = smoothstep(0, 1, np.arctan2(2 * v - 1, 2 * u - 1) - (p - 0.5) * PI * 2.5)
        return mix(to(u, v), fr(u, v), m)
    if name == "ripple":
        dx, dy = u - 0.5, v - 0.5
        w = (np.sin(p * np.hypot(dx, dy) * 100 - p * 50) + 0.5) / 30
        return mix(fr(u + dx * w, v + dy * w), to(u, v), smoothstep(0.2, 1, p))
    if name == "randomsquares":
        r = rand_cells(np.floor(10 * u), np.floor(10 * v))
        return mix(fr(u, v), to(u, v), smoothstep(0, -0.5, r - p * 1.5))
    if name == "doorway":
        inside = lambda x, y: (0 < x) & (0 < y) & (x < 1) & (y < 1)
        slit = 2 * np.abs(u - 0.5) - p
        d = 1 / (1 + 0.4 * p * (1 - slit))
        fx = np.where(slit > 0, u + np.where(u > 0.5, -1, 1) * 0.5 * p, -1)
        fy = np.where(slit > 0, (v - d / 2) * d + d / 2, -1)
        size = 1 * p + 3 * (1 - p)
        tx, ty = (u - 0.5) * size + 0.5, (v - 0.5) * size + 0.5
        mx, my = tx, ty * -1.2 - 0.02
        floor = np.where(inside(mx, my)[..., None], to(mx, my) * (0.4 * (1 - my))[..., None], 0)
        out = np.where(inside(tx, ty)[..., None], to(tx, ty), floor)
        return np.where(inside(fx, fy)[..., None], fr(fx, fy), out)
    raise SystemExit(f"unknown effect {name}")


def main():
    name, width, height, steps, bits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    dtype = np.uint8 if bits == 8 else np.dtype("<u2")
    s, top = float(1 << (bits - 8)), float((1 << bits) - 1)
    a_all = np.fromfile(sys.argv[6], dtype=dtype).astype(np.float64)
    b_all = np.fromfile(sys.argv[7], dtype=dtype).astype(np.float64)
    cw, ch = width // 2, height // 2
    picture = width * height + 2 * cw * ch
    v, u = np.meshgrid(1 - (np.arange(height) + 0.5) / height, (np.arange(width) + 0.5) / width, indexing="ij")
    out = []
    for k in range(steps):
        p = (k + 1) / (steps + 1)
        planes = []
        for src in (a_all, b_all):
            o = k * picture
            y = src[o:o + width * height].reshape(height, width)
            cb = src[o + width * height:o + width * height + cw * ch].reshape(ch, cw)
            cr = src[o + width * height + cw * ch:o + picture].reshape(ch, cw)
            planes.append(to_rgb(y, cb, cr, s))
        rgb = effect(name, planes[0], planes[1], p, u, v)
        out.extend(plane.astype(dtype).ravel() for plane in to_yuv(rgb, s, top))
    np.concatenate(out).tofile(sys.argv[8])


if __name__ == "__main__":
    main()
