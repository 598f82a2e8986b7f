"""The geometry batch of gl-transitions effects, from their GLSL, for judge.py.

Mostly float64; two in float32 with libm's sinf/cosf in Segue's order of
operations: crazyparametricfun's offsets (its sines of large arguments are
magnified tenfold into sample positions) and mosaic (pixel centres on tile
sides)."""
import ctypes

import numpy as np

from judge import fract, in_bounds, libm, mix, mod, rand32, select, sinf32, smoothstep, step

F = np.float32
libm.cosf.restype = ctypes.c_float
libm.cosf.argtypes = [ctypes.c_float]


def colour(values):
    return np.array(values, dtype=np.float64)


def fr(c, x, y):
    """getFromColor where some positions may be NaN (never shown; GLSL leaves them undefined)."""
    return c.fr(np.nan_to_num(x, nan=-1.0), np.nan_to_num(y, nan=-1.0))


def to(c, x, y):
    return c.to(np.nan_to_num(x, nan=-1.0), np.nan_to_num(y, nan=-1.0))


def uv32(c):
    """Each pixel's uv in float32, as Segue computes it."""
    h, w = c.u.shape
    u = (np.arange(w, dtype=F) + F(0.5)) / F(w)
    v = F(1) - (np.arange(h, dtype=F) + F(0.5)) / F(h)
    return np.broadcast_to(u[None, :], (h, w)), np.broadcast_to(v[:, None], (h, w))


def cosf32(x):
    """cos in single precision with libm's cosf, element by element."""
    flat = np.asarray(x, dtype=F).ravel()
    values = {key: F(libm.cosf(key)) for key in set(flat.tolist())}
    return np.array([values[key] for key in flat.tolist()], dtype=F).reshape(np.shape(x))


def rgb1(r, g, b):
    return np.stack([r, g, b, np.ones_like(r)], -1)


# cube


def _xskew(x, y, persp, center):
    x = mix(x, 1 - x, center)
    d = abs(center - 0.5)
    qx = (x - (0.5 - d)) * (0.5 / d * (1 if center < 0.5 else -1)) + (0 if center < 0.5 else 1)
    return qx, (y - 0.5 * (1 - persp) * x) / (1 + (persp - 1) * x)


def cube(c, persp=0.7, unzoom=0.3, reflection=0.4, floating=3.0, bgcolor=(0.0, 0.0, 0.0, 1.0)):
    with np.errstate(all="ignore"):
        p = c.p
        uz = unzoom * 2 * (0.5 - abs(0.5 - p))
        px, py = -uz * 0.5 + (1 + uz) * c.u, -uz * 0.5 + (1 + uz) * c.v
        fx, fy = _xskew((px - p) / (1 - p), py, 1 - mix(p, 0, persp), 0)
        tx, ty = _xskew(px / p, py, mix(p ** 2, 1, persp), 1)
        bg = np.broadcast_to(colour(bgcolor), c.u.shape + (4,))
        for sampler, x, y in ((fr, fx, fy), (to, tx, ty)):
            y = y * -1.2 - floating / 100
            bg = bg + select(in_bounds(x, y), sampler(c, x, y) * (reflection * (1 - y))[..., None], 0.0)
        return select(in_bounds(fx, fy), fr(c, fx, fy), select(in_bounds(tx, ty), to(c, tx, ty), bg))


# InvertedPageCurl

PC_PI = 3.141592653589793
PC_R = 1 / PC_PI / 2


def _anti_alias(c1, c2, d):
    d = d * 512
    dd = ((1 - d / 2) ** 3)[..., None]
    return select(d < 0, c2, select(d > 2, c1, (c2 - c1) * dd + c1))


def _edge_distance(x, y):
    dx = np.abs(np.where(x > 0.5, 1 - x, x))
    dy = np.abs(np.where(y > 0.5, 1 - y, y))
    dx = np.where(x < 0, -x, np.where(x > 1, x - 1, dx))
    dy = np.where(y < 0, -y, np.where(y > 1, y - 1, dy))
    corner = ((x < 0) | (x > 1)) & ((y < 0) | (y > 1))
    return np.where(corner, np.sqrt(dx * dx + dy * dy), np.minimum(dx, dy))


def invertedpagecurl(c):
    with np.errstate(all="ignore"):
        return _page_curl(c)


def _page_curl(c):
    u, v = c.u, c.v
    amount = c.p * (1.5 + 0.16) - 0.16
    curl = 2 * PC_PI * amount
    angle = 100 * PC_PI / 180
    c1, s1, c2, s2 = np.cos(-angle), np.sin(-angle), np.cos(angle), np.sin(angle)
    px, py = c1 * u - s1 * v - 0.801, s1 * u + c1 * v + 0.89

    def hit(hit_angle, x):
        y = hit_angle / (2 * PC_PI)
        return c2 * x - s2 * y + 0.985, s2 * x + c2 * y + 0.985

    def outside(x, y):
        return (x < 0) | (y < 0) | (x > 1) | (y > 1)

    frm, inc = fr(c, u, v), to(c, u, v)
    yc = py - amount
    # behind the surface
    yb = -PC_R - PC_R - yc
    hab = (np.arccos(yb / PC_R) + curl) - PC_PI
    bx, by = hit(hab, px)
    lit = (yb < 0) & (bx >= 0) & (by >= 0) & (bx <= 1) & (by <= 1) & ((hab < PC_PI) | (amount > 0.5))
    shado = np.where(lit, (1 - np.sqrt((bx - 0.5) ** 2 + (by - 0.5) ** 2) / 0.71) * (-yb / PC_R) ** 3 * 0.5, 0.0)
    behind = rgb1(inc[..., 0] - shado, inc[..., 1] - shado, inc[..., 2] - shado)
    # seen through the curl
    hst = PC_PI - (np.arccos(yc / PC_R) - curl)
    sx, sy = hit(hst, px)
    through = select((yc <= 0) & outside(sx, sy), inc,
                     select(yc > 0, frm, _anti_alias(fr(c, sx, sy), np.zeros(4), _edge_distance(sx, sy))))
    # on the curl
    ha = (np.arccos(yc / PC_R) + curl) - PC_PI
    ham = mod(ha, 2 * PC_PI)
    see = ((ham > PC_PI) & (amount < 0.5)) | ((ham > PC_PI / 2) & (amount < 0))
    hx, hy = hit(ha, px)
    shadow = (1 - _edge_distance(hx, hy) * 30) / 3
    shadow = np.where(shadow < 0, 0.0, shadow * amount)[..., None]
    shadowed = np.concatenate([through[..., :3] - shadow, through[..., 3:]], -1)
    back = fr(c, hx, hy)
    gray = (back[..., 0] + back[..., 2] + back[..., 1]) / 15
    gray = gray + 0.8 * (np.maximum(0, 1 - np.abs(yc / PC_R)) ** 0.2 / 2 + 0.5)
    shade = (1 - np.sqrt((hx - 0.5) ** 2 + (hy - 0.5) ** 2) / 0.71) * (-yc / PC_R) ** 3 * 0.5
    other = select(yc < 0, np.stack([0 * shade, 0 * shade, 0 * shade, shade], -1), frm)
    front = _anti_alias(_anti_alias(rgb1(gray, gray, gray), other, PC_R - np.abs(yc)), shadowed, _edge_distance(hx, hy))
    curled = select(see, through, select(outside(hx, hy), shadowed, front))
    return select(yc < -PC_R, behind, select(yc > PC_R, frm, curled))


# The bow ties


def _check(p1, p2, p3):
    return (p1[0] - p3[0]) * (p2[1] - p3[1]) - (p2[0] - p3[0]) * (p1[1] - p3[1])


def _in_triangle(pt, p1, p2, p3):
    b1, b2, b3 = _check(pt, p1, p2) < 0, _check(pt, p2, p3) < 0, _check(pt, p3, p1) < 0
    return (b1 == b2) & (b2 == b3)


def _blur_edge(bot1, bot2, top, pt):
    def dist(bot):
        nx, ny = bot[1] - top[1], -(bot[0] - top[0])
        n = np.hypot(nx, ny)
        return np.abs(nx / n * (bot[0] - pt[0]) + ny / n * (bot[1] - pt[1]))
    m = np.minimum(dist(bot2), dist(bot1))
    return np.where(m < 0.005, m / 0.005, 1.0)


def _bowtie(c, first, second, near_first):
    pt = (c.u, c.v)
    f, t = c.fr(c.u, c.v), c.to(c.u, c.v)
    one = f if c.p < 0.1 else select(near_first, mix(f, t, _blur_edge(first[1], first[2], first[0], pt)), t if c.p > 0 else f)
    two = select(near_first, f, mix(f, t, _blur_edge(second[1], second[2], second[0], pt)))
    return select(_in_triangle(pt, *first), one, select(_in_triangle(pt, *second), two, f))


def bowtiehorizontal(c):
    p = c.p
    return _bowtie(c, ((p, 0.5), (0, 0.5 - p), (0, 0.5 + p)), ((1 - p, 0.5), (1, 0.5 - p), (1, 0.5 + p)), c.u < 0.5)


def bowtievertical(c):
    p = c.p
    return _bowtie(c, ((0.5, p), (0.5 - p, 0), (0.5 + p, 0)), ((0.5, 1 - p), (0.5 - p, 1), (0.5 + p, 1)), c.v < 0.5)


def _bowtie_first(c, prog, adjust):
    pt, h = (c.u, c.v), 0.5
    low = _in_triangle(pt, (0, prog - h), (1, prog - h), (adjust, prog))
    high = _in_triangle(pt, (0, 1 - prog + h), (1, 1 - prog + h), (adjust, 1 - prog))
    return select(np.where(c.v < 0.5, low, high), c.to(c.u, c.v), c.fr(c.u, c.v))


def _bowtie_second(c, prog, adjust):
    pt, h = (c.u, c.v), 0.5
    right = _in_triangle(pt, (prog + h, 1), (prog + h, 0), (adjust + (1 - adjust) * 2 * (prog - 0.5), 0.5))
    left = _in_triangle(pt, (1 - prog - h, 1), (1 - prog - h, 0), (adjust * (1 - 2 * (prog - 0.5)), 0.5))
    return select(np.where(c.u > adjust, right, left), c.fr(c.u, c.v), c.to(c.u, c.v))


def bowtiewithparameter(c, adjust=0.5, reverse=False):
    p = c.p
    if reverse:
        return _bowtie_second(c, 1 - p, adjust) if p < 0.5 else _bowtie_first(c, 1 - p, adjust)
    return _bowtie_first(c, p, adjust) if p < 0.5 else _bowtie_second(c, p, adjust)


# Colour-separated displacements


def _fringe(c, tx, ty, fx, fy, sep):
    p, u, v = c.p, c.u, c.v
    red = c.fr(u + fx * (1 - sep), v + fy * (1 - sep))[..., 0]
    green = c.fr(u + fx, v + fy)[..., 1]
    blue = c.fr(u + fx * (1 + sep), v + fy * (1 + sep))[..., 2]
    return c.to(u + tx, v + ty) * p + rgb1(red, green, blue) * (1 - p)


def butterflywavescrawler(c, amplitude=1.0, waves=30.0, colorSeparation=0.3):
    p = c.p
    if p <= 0:
        return c.fr(c.u, c.v)
    if p >= 1:
        return c.to(c.u, c.v)
    theta = np.arccos(c.u * np.sin(p * amplitude) - 0.5) * waves
    s = np.sin((2 * theta - np.pi) / 24)
    disp = (np.exp(np.cos(theta)) - 2 * np.cos(4 * theta) + s ** 5) / 10
    return _fringe(c, (1 - p) * disp, (1 - p) * disp, p * disp, p * disp, colorSeparation)


def flyeye(c, size=0.04, zoom=50.0, colorSeparation=0.3):
    p = c.p
    dx, dy = size * np.cos(zoom * c.u), size * np.sin(zoom * c.v)
    return _fringe(c, (1 - p) * dx, (1 - p) * dy, p * dx, p * dy, colorSeparation)


# Shapes on a background colour


def circlecrop(c, bgcolor=(0.0, 0.0, 0.0, 1.0)):
    s = (2 * abs(c.p - 0.5)) ** 3
    dist = np.hypot(c.u - 0.5, (c.v - 0.5) / c.ratio)
    base = c.fr(c.u, c.v) if c.p < 0.5 else c.to(c.u, c.v)
    return mix(base, colour(bgcolor), step(s, dist))


def rectangle(c, bgcolor=(0.0, 0.0, 0.0, 1.0)):
    p = c.p
    s, e = (2 * abs(p - 0.5)) ** 3, abs(1 - 2 * p)
    dist = step(e, c.u + 0.25) * step(e, c.v + 0.25) * step(e, 1.25 - c.u) * step(e, 1.25 - c.v)
    base = c.fr(c.u, c.v) if p < 0.5 else c.to(c.u, c.v)
    return mix(base, colour(bgcolor), step(s, dist))


def colourdistance(c, power=5.0):
    f, t = c.fr(c.u, c.v), c.to(c.u, c.v)
    m = step(np.sqrt(((f - t) ** 2).sum(-1)), c.p)
    return mix(mix(f, t, m), t, c.p ** power)


def crazyparametricfun(c, a=4.0, b=1.0, amplitude=120.0, smoothness=0.1):
    u, v = uv32(c)
    p, a, b, amplitude, smoothness = F(c.p), F(a), F(b), F(amplitude), F(smoothness)
    dx, dy = u - F(0.5), v - F(0.5)
    dist = np.sqrt(dx * dx + dy * dy)
    k = p * ((a / b) - F(1))
    x = (a - b) * F(libm.cosf(float(p))) + b * F(libm.cosf(float(k)))
    y = (a - b) * F(libm.sinf(float(p))) - b * F(libm.sinf(float(k)))
    ox = dx * sinf32(p * dist * amplitude * x) / smoothness
    oy = dy * sinf32(p * dist * amplitude * y) / smoothness
    return mix(c.fr((u + ox).astype(np.float64), (v + oy).astype(np.float64)), c.to(c.u, c.v), smoothstep(0.2, 1, c.p))


# Warps and wipes


def crosswarp(c):
    x = smoothstep(0, 1, c.p * 2 + c.u - 1)
    return mix(c.fr((c.u - .5) * (1 - x) + .5, (c.v - .5) * (1 - x) + .5), c.to((c.u - .5) * x + .5, (c.v - .5) * x + .5), x)


def _sweep_edge(c, direction, smoothness):
    vx, vy = direction
    n = np.hypot(vx, vy)
    vx, vy = vx / n, vy / n
    s = abs(vx) + abs(vy)
    vx, vy = vx / s, vy / s
    d = vx * 0.5 + vy * 0.5
    return smoothstep(-smoothness, 0, vx * c.u + vy * c.v - (d - 0.5 + c.p * (1 + smoothness)))


def directionalwarp(c, smoothness=0.1, direction=(-1.0, 1.0)):
    m = 1 - _sweep_edge(c, direction, smoothness)
    return mix(c.fr((c.u - .5) * (1 - m) + .5, (c.v - .5) * (1 - m) + .5), c.to((c.u - .5) * m + .5, (c.v - .5) * m + .5), m)


def directionalwipe(c, direction=(1.0, -1.0), smoothness=0.5):
    m = (1 - step(c.p, 0)) * (1 - _sweep_edge(c, direction, smoothness))
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), m)


def squareswire(c, squares=(10, 10), direction=(1.0, -0.5), smoothness=1.6):
    pr = _sweep_edge(c, direction, smoothness)
    sx, sy = fract(c.u * squares[0]), fract(c.v * squares[1])
    low, high = pr / 2, 1 - pr / 2
    a = (1 - step(c.p, 0)) * step(low, sx) * step(low, sy) * step(sx, high) * step(sy, high)
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), a)


def dreamy(c):
    p = c.p

    def shift(prog):
        return 0.03 * prog * np.cos(10 * (prog + c.u))
    return mix(c.fr(c.u, c.v + shift(p)), c.to(c.u, c.v + shift(1 - p)), p)


def dreamyzoom(c, rotation=6.0, scale=1.2):
    deg2rad = 0.03926990816987241548078304229099
    p, early = c.p, c.p < 0.5
    phase = p * 2 if early else (p - 0.5) * 2
    turn = phase * rotation * deg2rad if early else -rotation * deg2rad * (1 - phase)
    zoom = 1 + (scale - 1) * phase if early else scale + (1 - scale) * phase
    x, y = (c.u - 0.5) / zoom * c.ratio, (c.v - 0.5) / zoom
    angle, dist = np.arctan2(y, x) + turn, np.hypot(x, y)
    sx, sy = np.cos(angle) * dist / c.ratio + 0.5, np.sin(angle) * dist + 0.5
    picture = c.fr(sx, sy) if early else c.to(sx, sy)
    return picture + (phase if early else 1 - phase)


def gridflip(c, size=(4, 4), pause=0.1, dividerWidth=0.05, bgcolor=(0.0, 0.0, 0.0, 1.0), randomness=0.1):
    p, u, v = c.p, c.u, c.v
    sx, sy = float(size[0]), float(size[1])
    bg = colour(bgcolor)
    tx, ty = np.floor(sx * u), np.floor(sy * v)
    rx, ry = 1 / sx, 1 / sy
    delta = np.minimum(np.minimum(np.abs(u - rx * tx), np.abs(u - rx * (tx + 1))),
                       np.minimum(np.abs(v - ry * (ty + 1)), np.abs(v - ry * ty)))
    divider = delta < min(rx, ry) * dividerWidth
    if p < pause:
        return mix(bg, c.fr(u, v), np.where(divider, 1 - p / pause, 1.0))
    if p >= 1 - pause:
        return mix(bg, c.to(u, v), np.where(divider, (p - 1 + pause) / pause, 1.0))
    r = rand32(tx, ty) - randomness
    cp = smoothstep(0, 1 - r, (p - pause) / (1 - pause * 2))
    left = tx * rx
    offset = rx / 2 + left
    with np.errstate(all="ignore"):
        fx = (u - offset) / np.abs(cp - 0.5) * 0.5 + offset
    shown = step(np.abs(sx * (u - left) - 0.5), np.abs(cp - 0.5))
    flipped = mix(bg, mix(to(c, fx, v), fr(c, fx, v), step(cp, 0.5)), shown)
    return select(divider, bg, flipped)


def hexagonalize(c, steps=50, horizontalHexagons=20.0):
    p = c.p
    dist = 2 * min(p, 1 - p)
    dist = np.ceil(dist * steps) / steps if steps > 0 else dist
    size = (np.sqrt(3) / 3) * dist / horizontalHexagons
    if dist <= 0:
        return mix(c.fr(c.u, c.v), c.to(c.u, c.v), p)
    x, y = (c.u - 0.5) / size, (c.v / c.ratio - 0.5) / size
    hq, hr = np.sqrt(3) / 3 * x - y / 3, 2 / 3 * y
    hs = -hq - hr
    q, r, s = np.floor(hq + 0.5), np.floor(hr + 0.5), np.floor(hs + 0.5)
    dq, dr, ds = np.abs(q - hq), np.abs(r - hr), np.abs(s - hs)
    q_off = (dq > dr) & (dq > ds)
    q, r = np.where(q_off, -r - s, q), np.where(~q_off & (dr > ds), -q - s, r)
    px, py = (np.sqrt(3) * q + np.sqrt(3) / 2 * r) * size + 0.5, (1.5 * r * size + 0.5) * c.ratio
    return mix(c.fr(px, py), c.to(px, py), p)


def kaleidoscope(c, speed=1.0, angle=1.0, power=1.5):
    p = c.p
    t = p ** power * speed
    x, y = c.u - 0.5, c.v - 0.5
    for _ in range(7):
        x, y = np.sin(t) * x + np.cos(t) * y, np.sin(t) * y - np.cos(t) * x
        t += angle
        x, y = np.abs(mod(x, 2) - 1), np.abs(mod(y, 2) - 1)
    return mix(mix(c.fr(c.u, c.v), c.to(c.u, c.v), p), mix(c.fr(x, y), c.to(x, y), p), 1 - 2 * abs(p - 0.5))


def morph(c, strength=0.1):
    p = c.p
    ca, cb = c.fr(c.u, c.v), c.to(c.u, c.v)
    ox = ((ca[..., 0] + ca[..., 2] + cb[..., 0] + cb[..., 2]) / 2 - 1) * strength
    oy = ((ca[..., 1] + ca[..., 2] + cb[..., 1] + cb[..., 2]) / 2 - 1) * strength
    return mix(c.fr(c.u + ox * p, c.v + oy * p), c.to(c.u - ox * (1 - p), c.v - oy * (1 - p)), p)


def mosaic(c, endx=2, endy=-1):
    """In float32 as Segue runs it: at progress 0.5 some pixel centres fall exactly on a tile's side."""
    pi = F(3.14159265358979323)
    u, v = uv32(c)
    p = F(c.p)
    rpr = p * F(2) - F(1)
    z = np.abs(-(rpr * rpr * F(2)) + F(3))
    ci = -F(libm.cosf(float(p * pi))) / F(2) + F(0.5)
    a = ci * ci
    x = (u - F(0.5)) * z + (F(0.5) * (F(1) - a) + (F(endx) + F(0.5)) * a)
    y = (v - F(0.5)) * z + (F(0.5) * (F(1) - a) + (F(endy) + F(0.5)) * a)
    tx, ty = np.floor(x), np.floor(y)
    on_end = (tx == endx) & (ty == endy)
    r = rand32(tx, ty)
    angle = (np.floor(r * 4).astype(F) * F(0.5)) * pi
    cs, sn = cosf32(angle), sinf32(angle)
    mx, my = (x - np.floor(x)) - F(0.5), (y - np.floor(y)) - F(0.5)
    sx = F(0.5) + np.where(on_end, mx, cs * mx + sn * my)
    sy = F(0.5) + np.where(on_end, my, -sn * mx + cs * my)
    sx, sy = sx.astype(np.float64), sy.astype(np.float64)
    return select(on_end | (r > 0.5), c.to(sx, sy), c.fr(sx, sy))


def polkadotscurtain(c, dots=20.0, center=(0.0, 0.0)):
    inside = np.hypot(fract(c.u * dots) - 0.5, fract(c.v * dots) - 0.5) < c.p / np.hypot(c.u - center[0], c.v - center[1])
    return select(inside, c.to(c.u, c.v), c.fr(c.u, c.v))


def rotate_scale_fade(c, center=(0.5, 0.5), rotations=5.0, scale=10.0, backColor=(0.15, 0.15, 0.15, 1.0)):
    p = c.p
    dx, dy = c.u - center[0], c.v - center[1]
    dist = np.hypot(dx, dy)
    angle = 2 * 3.14159265359 * rotations * p
    cs, sn = np.cos(angle), np.sin(angle)
    k = dist / (scale + (1 - scale) * 2 * abs(p - 0.5)) / dist
    x, y = center[0] + (dx * cs - dy * sn) * k, center[1] + (dx * sn + dy * cs) * k
    out = (x < 0) | (x > 1) | (y < 0) | (y > 1)
    return select(out, colour(backColor), mix(c.fr(x, y), c.to(x, y), p))


def squeeze(c, colorSeparation=0.04):
    with np.errstate(all="ignore"):
        y = 0.5 + (c.v - 0.5) / (1 - c.p)
    off = c.p * colorSeparation
    squeezed = rgb1(fr(c, c.u, y - off)[..., 0], fr(c, c.u, y)[..., 1], fr(c, c.u, y + off)[..., 2])
    return select((y < 0) | (y > 1), c.to(c.u, c.v), squeezed)


def swap(c, reflection=0.4, perspective=0.2, depth=3.0):
    p, u, v = c.p, c.u, c.v
    with np.errstate(all="ignore"):
        size = 1 + (depth - 1) * p
        fx, fy = u * size / (1 - perspective * p), (v - 0.5) * size / (1 - size * perspective * p * u) + 0.5
        size = 1 + (depth - 1) * (1 - p)
        q = 1 - p
        tx, ty = (u - 1) * size / (1 - perspective * q) + 1, (v - 0.5) * size / (1 - size * perspective * q * (0.5 - u)) + 0.5
    black = colour((0.0, 0.0, 0.0, 1.0))
    floor = np.broadcast_to(black, u.shape + (4,))
    for sampler, x, y in ((fr, fx, fy), (to, tx, ty)):
        y = y * -1.2 - 0.02
        floor = floor + select(in_bounds(x, y), mix(black, sampler(c, x, y), reflection * (1 - y)), 0.0)
    first, second = ((fr, fx, fy), (to, tx, ty)) if p < 0.5 else ((to, tx, ty), (fr, fx, fy))
    return select(in_bounds(first[1], first[2]), first[0](c, first[1], first[2]),
                  select(in_bounds(second[1], second[2]), second[0](c, second[1], second[2]), floor))


def bounce(c, shadow_colour=(0.0, 0.0, 0.0, 0.6), shadow_height=0.075, bounces=3.0):
    pi = 3.14159265358
    p = c.p
    y = abs(np.cos(p * pi * bounces)) * (1 - np.sin(p * pi / 2))
    d = c.v - y
    shade = colour(shadow_colour)
    fade = mix((d / shadow_height) * shade[3] + (1 - shade[3]), 1.0, smoothstep(0.95, 1, p))
    shadowed = mix(c.to(c.u, c.v), shade, step(d, shadow_height) * (1 - fade))
    return mix(shadowed, c.fr(c.u, c.v + (1 - y)), step(d, 0))


EFFECTS = {f.__name__: f for f in (cube, invertedpagecurl, bowtiehorizontal, bowtievertical, bowtiewithparameter,
                                   butterflywavescrawler, circlecrop, colourdistance, crazyparametricfun, crosswarp,
                                   directionalwarp, directionalwipe, dreamy, dreamyzoom, flyeye, gridflip, hexagonalize,
                                   kaleidoscope, morph, mosaic, polkadotscurtain, rotate_scale_fade, squareswire,
                                   squeeze, swap, bounce, rectangle)}
