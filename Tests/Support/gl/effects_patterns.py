"""gl-transitions effects Segue draws (batch B: patterns, fades, zooms, noise),
from their GLSL, for judge.py.

Hashes that amplify rounding (fract(sin(x) * big)) are computed in float32
with libm's sinf/cosf on the same float32 coordinates Segue uses, so both
sides pick the same pseudo-random values; everything else is float64."""
import numpy as np

from judge import PI, fract, in_bounds, libm, mix, mod, rand32, select, sinf32, smoothstep, step

import ctypes

f32 = np.float32
libm.cosf.restype = ctypes.c_float
libm.cosf.argtypes = [ctypes.c_float]


def cosf32(x):
    flat = np.asarray(x, dtype=f32).ravel()
    return np.array([f32(libm.cosf(float(key))) for key in flat.tolist()], dtype=f32).reshape(np.shape(x))


def uv32(c):
    """Each pixel centre's uv as Segue computes it in Float."""
    h, w = c.u.shape
    u = (np.arange(w) + 0.5).astype(f32) / f32(w)
    v = f32(1) - (np.arange(h) + 0.5).astype(f32) / f32(h)
    return np.broadcast_to(u[None, :], (h, w)), np.broadcast_to(v[:, None], (h, w))


def hash32(dt, scale):
    """fract(sin(dt) * scale) in float32."""
    r = (sinf32(dt) * f32(scale)).astype(f32)
    return (r - np.floor(r)).astype(np.float64)


def mod32(x, y):
    x, y = np.asarray(x, dtype=f32), f32(y)
    return (x - (y * np.floor((x / y).astype(f32))).astype(f32)).astype(f32)


def colour(rgb, alpha=1.0):
    return np.array([rgb[0], rgb[1], rgb[2], alpha], dtype=np.float64)


def both(c):
    return c.fr(c.u, c.v), c.to(c.u, c.v)


def burn(c, color=(0.9, 0.4, 0.2)):
    a, b = both(c)
    col = colour(color, 0.0)
    return mix(a + c.p * col, b + (1 - c.p) * col, c.p)


def cannabisleaf(c):
    a, b = both(c)
    if c.p == 0:
        return a
    x = (c.u - 0.5) / 10 / c.p ** 3.5
    y = (c.v - 0.5) / 10 / c.p ** 3.5 + 0.35
    o = np.arctan2(y, x)
    shape = 0.18 * (1 + np.sin(o)) * (1 + 0.9 * np.cos(8 * o)) * (1 + 0.1 * np.cos(24 * o)) * (0.9 + 0.05 * np.cos(200 * o))
    return mix(a, b, 1 - step(1 - np.hypot(x, y) + shape, 1))


def circle(c, center=(0.5, 0.5), backColor=(0.1, 0.1, 0.1), usebgcolor=False, bgcolor=(0.0, 0.0, 0.0, 1.0)):
    a, b = both(c)
    radius = np.sqrt(8.0) * abs(c.p - 0.5)
    outside = np.array(bgcolor, dtype=np.float64) if usebgcolor else colour(backColor)
    inside = a if c.p < 0.5 else b
    return select(np.hypot(c.u - center[0], c.v - center[1]) > radius, outside, inside)


def colorphase(c, fromStep=(0.0, 0.2, 0.4, 0.0), toStep=(0.6, 0.8, 1.0, 1.0)):
    a, b = both(c)
    weight = np.array([smoothstep(e0, e1, c.p) for e0, e1 in zip(fromStep, toStep)])
    return a * (1 - weight) + b * weight


def crosshatch(c, center=(0.5, 0.5), threshold=3.0, fadeEdge=0.1):
    a, b = both(c)
    u, v = uv32(c)
    dist = np.hypot(center[0] - c.u, center[1] - c.v) / threshold
    r = c.p - np.minimum(rand32(v, 0), rand32(0, u))
    m = mix(0.0, mix(step(dist, r), 1.0, smoothstep(1 - fadeEdge, 1, c.p)), smoothstep(0, fadeEdge, c.p))
    return mix(a, b, m)


def doomscreentransition(c, bars=30, amplitude=2.0, noise=0.1, frequency=0.5, dripScale=0.5):
    bars = int(bars)
    n = np.arange(bars)
    fn32 = n.astype(f32)
    rnd = (mod32((fn32 * f32(67123.313)).astype(f32), 12.0) * sinf32((fn32 * f32(10.3)).astype(f32))).astype(f32)
    rnd = (rnd * cosf32(fn32)).astype(f32)
    rnd = (rnd - np.floor(rnd)).astype(np.float64)
    fn = n * frequency * 0.1 * bars
    wave = np.cos(fn * 0.5) * np.cos(fn * 0.13) * np.sin((fn + 10) * 0.3) / 2 + 0.5
    drip = np.sin(n / (bars - 1) * 3.141592) * dripScale
    pos = (wave if noise == 0 else mix(wave, rnd, noise)) + (0 if dripScale == 0 else drip)
    bar = np.clip((c.u * bars).astype(int), 0, bars - 1)
    phase = c.p * (1 + pos[bar] * amplitude)
    return select(phase + c.v < 1, c.fr(c.u, c.v + phase), c.to(c.u, c.v))


def fadecolor(c, color=(0.0, 0.0, 0.0), colorPhase=0.4, usebgcolor=False, bgcolor=(0.0, 0.0, 0.0, 1.0)):
    a, b = both(c)
    m = np.array(bgcolor, dtype=np.float64) if usebgcolor else colour(color)
    return mix(mix(m, a, smoothstep(1 - colorPhase, 0, c.p)), mix(m, b, smoothstep(colorPhase, 1, c.p)), c.p)


def gray(x):
    g = 0.2126 * x[..., 0] + 0.7152 * x[..., 1] + 0.0722 * x[..., 2]
    return np.stack([g, g, g, np.ones_like(g)], -1)


def fadegrayscale(c, intensity=0.3):
    a, b = both(c)
    return mix(mix(gray(a), a, smoothstep(1 - intensity, 0, c.p)), mix(gray(b), b, smoothstep(intensity, 1, c.p)), c.p)


def displace(tex, u, v, dot_depth, texture_depth, strength):
    dis = tex * dot_depth + 1 - tex * texture_depth
    return u + (dis[..., 0] - 1 + texture_depth * dot_depth) * strength, v + (dis[..., 1] - 1 + texture_depth * dot_depth) * strength


def ease1(t):
    return t if t in (0, 1) else (0.5 * 2 ** (20 * t - 10) if t < 0.5 else -0.5 * 2 ** (10 - t * 20) + 1)


def ease2(t):
    return t if t == 1 else 1 - 2 ** (-10 * t)


def glitchdisplace(c):
    a, b = both(c)
    d1 = c.to(*displace(a, c.u, c.v, 0.33, 0.7, 1 - ease1(c.p)))
    d2 = c.fr(*displace(b, c.u, c.v, 0.33, 0.5, ease2(c.p)))
    low = np.minimum(d2, d1)
    g = 0.299 * low[..., 0] + 0.587 * low[..., 1] + 0.114 * low[..., 2]
    grey = np.stack([g, g, g, np.ones_like(g)], -1) * 2
    one = mix(a, grey, smoothstep(0, 0.5, c.p))
    two = mix(b, d1, smoothstep(1, 0.5, c.p))
    return mix(one, two, ease1(c.p))


def glitchmemories(c):
    p = c.p
    # every pixel's block is 0 (uv / 16 < 1): one shift for the whole picture
    nx, ny = np.floor(p * 1200.0) / 64, np.floor(p * 3500.0) / 64
    dx, dy = ((fract(nx) - 0.5) * 0.3 * (1 - p), (fract(ny) - 0.5) * 0.3 * (1 - p)) if p > 0 else (0.0, 0.0)
    out = []
    for channel, k in enumerate((0.2, 0.3, 0.5)):
        x, y = c.u + dx * k, c.v + dy * k
        out.append(mix(c.fr(x, y), c.to(x, y), p)[..., channel])
    return np.stack(out + [np.ones_like(out[0])], -1)


def horizontalclose(c):
    a, b = both(c)
    s = 2 - np.abs((c.v - 0.5) / (c.p - 1)) - 2 * c.p
    return mix(a, b, smoothstep(0.5, 0, s))


def horizontalopen(c):
    a, b = both(c)
    r = 1 - c.p
    s = 2 - np.abs((c.v - 0.5) / (r - 1)) - 2 * r
    return mix(a, b, smoothstep(0, 0.5, s))


def verticalclose(c):
    a, b = both(c)
    s = 2 - np.abs((c.u - 0.5) / (c.p - 1)) - 2 * c.p
    return mix(a, b, smoothstep(0.5, 0, s))


def verticalopen(c):
    a, b = both(c)
    r = 1 - c.p
    s = 2 - np.abs((c.u - 0.5) / (r - 1)) - 2 * r
    return mix(a, b, smoothstep(0, 0.5, s))


def shrink_slide(c, fx, fy):
    # At progress 0.5 the shrunk picture's edge falls on pixel centres, so its
    # bounds are computed in float32, as the GLSL does.
    u, v = uv32(c)
    a = (f32(c.p) * f32(0.2)).astype(f32)
    size = f32(1) * (f32(1) - a) + f32(3) * a
    tx, ty = (u - f32(0.5)) * size + f32(0.5), (v - f32(0.5)) * size + f32(0.5)
    black = np.array([0.0, 0.0, 0.0, 1.0])
    out = select(in_bounds(tx, ty), c.fr(tx, ty) * (1 - c.p), black)
    return select(in_bounds(fx, fy), c.to(fx, fy), out)


def leftright(c):
    return shrink_slide(c, c.u - (1 - c.p), c.v)


def topbottom(c):
    return shrink_slide(c, c.u, c.v + (1 - c.p))


def multiply_blend(c):
    a, b = both(c)
    return mix(a, a * b, 2 * c.p) if c.p < 0.5 else mix(a * b, b, 2 * c.p - 1)


def overexposure(c, strength=0.6):
    a, b = both(c)
    s = np.sin(3.141592653589793 * c.p) * strength
    rgb = a * (1 - c.p + s) + b * (c.p + s)
    rgb[..., 3] = 1
    return rgb


def perlin(c, scale=4.0, smoothness=0.01, seed=12.9898):
    a, b = both(c)
    u, v = uv32(c)
    x, y = (u * f32(scale)).astype(f32), (v * f32(scale)).astype(f32)
    ix, iy = np.floor(x), np.floor(y)

    def random(px, py):
        dt = ((px * f32(seed)).astype(f32) + (py * f32(78.233)).astype(f32)).astype(f32)
        return hash32(mod32(dt, 3.14), 43758.5453)
    ca, cb, cc, cd = random(ix, iy), random(ix + 1, iy), random(ix, iy + 1), random(ix + 1, iy + 1)
    fx, fy = (x - ix).astype(np.float64), (y - iy).astype(np.float64)
    ux, uy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
    n = mix(ca, cb, ux) + (cc - ca) * uy * (1 - ux) + (cd - cb) * ux * uy
    p = mix(-smoothness, 1 + smoothness, c.p)
    return mix(a, b, 1 - smoothstep(p - smoothness, p + smoothness, n))


def pixelize(c, squaresMin=(20, 20), steps=50):
    dist = min(c.p, 1 - c.p)
    dist = np.ceil(dist * steps) / steps if steps > 0 else dist
    sx, sy = 2 * dist / squaresMin[0], 2 * dist / squaresMin[1]
    x, y = (c.u, c.v) if dist <= 0 else ((np.floor(c.u / sx - 0.5) + 0.5) * sx, (np.floor(c.v / sy - 0.5) + 0.5) * sy)
    return mix(c.fr(x, y), c.to(x, y), c.p)


def polar_function(c, segments=5):
    a, b = both(c)
    angle = np.arctan2(c.v - 0.5, c.u - 0.5) - 0.5 * 3.14159265359
    radius = (np.cos(segments * angle) + 4) / 4
    return select(np.hypot(c.u - 0.5, c.v - 0.5) > radius * c.p, a, b)


def randomnoisex(c):
    a, b = both(c)
    u, v = uv32(c)
    return mix(a, b, np.floor(rand32(u, v) + c.p))


def rectanglecrop(c, bgcolor=(0.0, 0.0, 0.0, 1.0)):
    s = (2 * abs(c.p - 0.5)) ** 3
    edge = 1 - 2 * abs(c.p - 0.5)
    inside = step(edge, c.u + 0.25) * step(edge, c.v + 0.25) * step(edge, 1.25 - c.u) * step(edge, 1.25 - c.v)
    picture = c.fr(c.u, c.v) if c.p < 0.5 else c.to(c.u, c.v)
    return mix(picture, np.array(bgcolor, dtype=np.float64), step(s, np.abs(1 - inside)))


def rolls(c, type=0, RotDown=False):
    # At 45 degrees the turned picture's edges pass through pixel centres, so
    # this is computed in float32 with libm's sinf and cosf, as the GLSL does.
    kind, w = int(type), f32(c.a.shape[1]) / f32(c.a.shape[0])
    pi = f32(3.14159265358979323846)
    turn = (pi if RotDown else -pi) if kind < 2 else (-pi if RotDown else pi)
    theta = (turn / f32(2)) * f32(c.p)
    c1, s1 = cosf32(theta), sinf32(theta)
    u, v = uv32(c)
    ux = f32(1) - u if kind in (0, 3) else u
    uy = f32(1) - v if kind in (2, 3) else v
    x = (ux * w) * c1 - uy * s1
    y = (ux * w) * s1 + uy * c1
    shown = (x >= 0) & (x <= w) & (y >= 0) & (y <= 1)
    x = x / w
    x = f32(1) - x if kind in (0, 3) else x
    y = f32(1) - y if kind in (2, 3) else y
    return select(shown, c.fr(x, y), c.to(c.u, c.v))


def simplezoom(c, zoom_quickness=0.8):
    q = np.clip(zoom_quickness, 0.2, 1.0)
    k = 1 - smoothstep(0, q, c.p)
    return mix(c.fr(0.5 + (c.u - 0.5) * k, 0.5 + (c.v - 0.5) * k), c.to(c.u, c.v), smoothstep(q - 0.2, 1, c.p))


def simplezoomout(c, zoom_quickness=0.8, fade=True):
    q = np.clip(zoom_quickness, 0.2, 1.0)
    k = 1 - (1 - smoothstep(1 - q, 1, c.p))
    m = smoothstep(1 - q, 1, c.p) if fade else (0.0 if c.p < 1 - q else 1.0)
    return mix(c.fr(c.u, c.v), c.to(0.5 + (c.u - 0.5) * k, 0.5 + (c.v - 0.5) * k), m)


def rnd_static(x, y):
    dt = ((x * f32(10.5302340293)).astype(f32) + (y * f32(70.23492931)).astype(f32)).astype(f32)
    return hash32(dt, 12345.5453123)


def staticfade(c, n_noise_pixels=200.0, static_luminosity=0.8):
    u, v = uv32(c)
    n, p = f32(n_noise_pixels), f32(c.p)
    sx, sy = (np.floor((u * n).astype(f32)) / n).astype(f32), (np.floor((v * n).astype(f32)) / n).astype(f32)
    noise = [static_luminosity * rnd_static((sx * (p * f32(a))).astype(f32), (sy * (p * f32(b))).astype(f32))
             for a, b in ((2, 3), (3, 5), (5, 7))]
    static = np.stack(noise + [np.ones_like(noise[0])], -1)
    picture = mix(c.fr(c.u, c.v), c.to(c.u, c.v), step(0.5, c.p))
    threshold = min(1.0, 1.2 * (1 - abs(2 * (c.p - 0.5))) - 0.1)
    return mix(picture, static, step(rnd_static(sx, sy), threshold))


def undulatingburnout(c, smoothness=0.03, center=(0.5, 0.5), color=(0.0, 0.0, 0.0)):
    x = c.p
    degs = (np.degrees(np.arctan2(c.v - center[1], c.u - center[0])) + 180) * (3.14159265358979323846 * 30 / 360)
    s = np.sin(degs)
    ease = np.where(s < 0.5, 2 * s * s, -2 * s * s + 4 * s - 1)
    wave = x + ease * mix(0.02, 0.09, smoothstep(0, 1, x)) * np.sin(x * mix(40.0, 30.0, smoothstep(0, 1, x)))
    dist = np.hypot(center[0] - c.u, center[1] - c.v)
    d = wave - dist
    m = mix(smoothstep(-smoothness, 0, wave - dist * (1 + smoothness)), -1 - step(0.005, d), step(-0.005, d) * step(d, 0.01))
    a, b = both(c)
    return mix(mix(a, b, m), mix(a, colour(color), 0.75), step(m, -2))


def waterdrop(c, amplitude=30.0, speed=30.0):
    dx, dy = c.u - 0.5, c.v - 0.5
    dist = np.hypot(dx, dy)
    w = np.where(dist > c.p, 0.0, np.sin(dist * amplitude - c.p * speed))
    return mix(c.fr(c.u + dx * w, c.v + dy * w), c.to(c.u, c.v), c.p)


def wind(c, size=0.2):
    u, v = uv32(c)
    r = rand32(0, v)
    return mix(*both(c), smoothstep(0, -size, c.u * (1 - size) + size * r - c.p * (1 + size)))


def windowblinds(c):
    t = c.p
    if 0.05 < t < 0.95:
        t = np.where(mod(np.floor(c.v * 100 * c.p), 2) == 0, t * 1.5, t)
    return mix(*both(c), t)


def wipedown(c):
    return mix(*both(c), step(1 - c.v, c.p))


def wipeup(c):
    return mix(*both(c), step(c.v, c.p))


def zoomincircles(c):
    rx, ry = 2 * (c.u - 0.5), 2 * ((c.v - 0.5) / c.ratio)
    pro = c.p / 0.8
    z, t = pro * 0.2, 0.0
    if pro > 1:
        z, t = 0.2 + (pro - 1) * 5, np.clip((c.p - 0.8) / 0.07, 0, 1)
    r = np.hypot(rx, ry)
    ring = np.select([r < 0.5 + z, r < 0.8 + z * 1.5, r < 1.2 + z * 2.5], [0, 1, 2], 3)
    k = np.choose(ring, [1.0, 1 - 0.15 * pro, 1 - 0.2 * pro, 1 - 0.25 * pro])
    tt = np.choose(ring, [t, t * 0.5, t * 0.2, t])
    x, y = 0.5 + (c.u - 0.5) * k, 0.5 + (c.v - 0.5) * k
    return mix(c.fr(x, y), c.to(x, y), tt)


def zoom_wipe(c, zoom_quickness, edge):
    if c.p < 0.5:
        amount = smoothstep(0, np.clip(zoom_quickness, 0.0, 0.5), c.p)
        k = 1 - amount if amount < 0.5 else amount
        return c.fr(0.5 + (c.u - 0.5) * k, 0.5 + (c.v - 0.5) * k)
    return mix(*both(c), step(edge, (c.p - 0.5) * 2))


def zoomleftwipe(c, zoom_quickness=0.8):
    return zoom_wipe(c, zoom_quickness, 1 - c.u)


def zoomrigthwipe(c, zoom_quickness=0.8):
    return zoom_wipe(c, zoom_quickness, c.u)


EFFECTS = {f.__name__: f for f in (burn, cannabisleaf, circle, colorphase, crosshatch, doomscreentransition, fadecolor,
                                   fadegrayscale, glitchdisplace, glitchmemories, horizontalclose, horizontalopen,
                                   verticalclose, verticalopen, leftright, topbottom, multiply_blend, overexposure,
                                   perlin, pixelize, polar_function, randomnoisex, rectanglecrop, rolls, simplezoom,
                                   simplezoomout, staticfade, undulatingburnout, waterdrop, wind, windowblinds,
                                   wipedown, wipeup, zoomincircles, zoomleftwipe, zoomrigthwipe)}
