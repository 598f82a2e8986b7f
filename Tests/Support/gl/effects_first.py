"""The first gl-transitions effects Segue drew, from their GLSL, for judge.py."""
import numpy as np

from judge import PI, fract, in_bounds, mix, mod, rand32, select, smoothstep, step


def fade(c):
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), c.p)


def wipeleft(c):
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), step(1 - c.u, c.p))


def wiperight(c):
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), step(c.u, c.p))


def directional(c, direction=(0.0, 1.0)):
    px, py = c.u + c.p * np.sign(direction[0]), c.v + c.p * np.sign(direction[1])
    fx, fy = fract(px), fract(py)
    return mix(c.to(fx, fy), c.fr(fx, fy), step(0, py) * step(py, 1) * step(0, px) * step(px, 1))


def circleopen(c, smoothness=0.3, opening=True):
    x = c.p if opening else 1 - c.p
    m = smoothstep(-smoothness, 0, np.sqrt(2) * np.hypot(c.u - 0.5, c.v - 0.5) - x * (1 + smoothness))
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), 1 - m if opening else m)


def angular(c):
    n = (np.arctan2(c.v - 0.5, c.u - 0.5) + PI) / (2 * PI)
    return select(n > c.p, c.fr(c.u, c.v), c.to(c.u, c.v))


def swirl(c):
    x, y = c.u - 0.5, c.v - 0.5
    dist = np.hypot(x, y)
    a = 2 * c.p if c.p <= 0.5 else 2 * (1 - c.p)
    theta = np.where(dist < 1, (1 - dist) ** 2 * a * 8 * 3.14159, 0)
    sn, cs = np.sin(theta), np.cos(theta)
    x, y = x * cs - y * sn + 0.5, x * sn + y * cs + 0.5
    return mix(c.fr(x, y), c.to(x, y), c.p)


def heart(c):
    ox, oy = (c.u - 0.5) / (1.6 * c.p), (c.v - 0.4) / (1.6 * c.p)
    a = ox ** 2 + oy ** 2 - 0.3
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), step(a ** 3, ox ** 2 * oy ** 3))


def pinwheel(c, speed=2.0):
    m = mod(np.arctan2(c.v - 0.5, c.u - 0.5) + c.p * speed, 3.1415 / 4)
    return mix(c.to(c.u, c.v), c.fr(c.u, c.v), step(np.sign(c.p - m), 0.5))


def windowslice(c, count=10.0, smoothness=0.5):
    pr = smoothstep(-smoothness, 0, c.u - c.p * (1 + smoothness))
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), step(pr, fract(count * c.u)))


def radial(c, smoothness=1.0):
    m = smoothstep(0, smoothness, np.arctan2(2 * c.v - 1, 2 * c.u - 1) - (c.p - 0.5) * PI * 2.5)
    return mix(c.to(c.u, c.v), c.fr(c.u, c.v), m)


def ripple(c, amplitude=100.0, speed=50.0):
    dx, dy = c.u - 0.5, c.v - 0.5
    w = (np.sin(c.p * np.hypot(dx, dy) * amplitude - c.p * speed) + 0.5) / 30
    return mix(c.fr(c.u + dx * w, c.v + dy * w), c.to(c.u, c.v), smoothstep(0.2, 1, c.p))


def randomsquares(c, size=(10, 10), smoothness=0.5):
    r = rand32(np.floor(size[0] * c.u), np.floor(size[1] * c.v))
    return mix(c.fr(c.u, c.v), c.to(c.u, c.v), smoothstep(0, -smoothness, r - c.p * (1 + smoothness)))


def doorway(c, reflection=0.4, perspective=0.4, depth=3.0):
    u, v, p = c.u, c.v, c.p
    slit = 2 * np.abs(u - 0.5) - p
    d = 1 / (1 + perspective * p * (1 - slit))
    fx = np.where(slit > 0, u + np.where(u > 0.5, -1, 1) * 0.5 * p, -1)
    fy = np.where(slit > 0, (v - d / 2) * d + d / 2, -1)
    size = 1 * p + depth * (1 - p)
    tx, ty = (u - 0.5) * size + 0.5, (v - 0.5) * size + 0.5
    mx, my = tx, ty * -1.2 - 0.02
    black = np.array([0.0, 0.0, 0.0, 1.0])
    floor = select(in_bounds(mx, my), black + mix(black, c.to(mx, my), reflection * (1 - my)), black)
    out = select(in_bounds(tx, ty), c.to(tx, ty), floor)
    return select(in_bounds(fx, fy), c.fr(fx, fy), out)


EFFECTS = {f.__name__: f for f in (fade, wipeleft, wiperight, directional, circleopen, angular, swirl, heart, pinwheel,
                                   windowslice, radial, ripple, randomsquares, doorway)}
