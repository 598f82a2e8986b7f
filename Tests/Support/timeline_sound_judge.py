#!/usr/bin/env python3
"""Judges a rendered timeline's sound against what its sound tracks say,
in 10 ms windows: each medium at the right source time and weight on
every track, hard cuts (J and L cuts) at their time, gaps silent.

usage: timeline_sound_judge.py SPEC.json   prints the judgement as JSON

SPEC: {"output": PATH, "media": {NAME: PATH}, "until": SECONDS,
       "pieces": [{"medium": NAME, "start": S, "end": E, "offset": O,
                   "gain": G, "fade_in": SECONDS, "fade_out": SECONDS}]}
A piece plays medium NAME from output time S to E, its source time being
t + O, at linear gain G, fading in over its first fade_in seconds and out
over its last fade_out (linear; a crossfade's two weights sum to 1).

The judgement: per window with sound, the least-squares weight of each
piece heard there (1 when right: a wrong medium, source time or level
gives a weight far from 1) and the lag (ms) at which the window best
matches what is expected; per hard edge (a piece's start or end without a
fade, not at 0 or `until`) where it is measured to be against where it
should be (ms); the loudest window expected silent (dBFS); SNR of the
whole against what is expected.
"""
import json
import subprocess
import sys

import numpy as np

RATE = 48000
WINDOW = RATE // 100


def decode(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-vn", "-f", "f32le", "-ac", "2", "-ar", str(RATE), "-"],
                         check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.float32).reshape(-1, 2).mean(axis=1).astype(np.float64)


def weights(piece, times):
    w = np.where((times >= piece["start"]) & (times < piece["end"]), 1.0, 0.0)
    if piece.get("fade_in", 0) > 0:
        w *= np.clip((times - piece["start"]) / piece["fade_in"], 0, 1)
    if piece.get("fade_out", 0) > 0:
        w *= np.clip((piece["end"] - times) / piece["fade_out"], 0, 1)
    return w * piece.get("gain", 1.0)


def contribution(piece, media, times, edge_shift=(0.0, 0.0)):
    shifted = dict(piece, start=piece["start"] + edge_shift[0], end=piece["end"] + edge_shift[1])
    source = media[piece["medium"]]
    index = np.round((times + piece["offset"]) * RATE).astype(np.int64)
    inside = (index >= 0) & (index < len(source))
    samples = np.where(inside, source[np.clip(index, 0, len(source) - 1)], 0.0)
    return weights(shifted, times) * samples


def judge_windows(spec, media, output, expected, times):
    worst_weight, worst_lag, loudest_silence, windows = 0.0, 0.0, -200.0, 0
    failures = []
    count = int(spec["until"] * RATE) // WINDOW
    for k in range(count):
        span = slice(k * WINDOW, (k + 1) * WINDOW)
        out, exp = output[span], expected[span]
        if np.sqrt(np.mean(exp ** 2)) < 1e-4:
            level = 20 * np.log10(max(np.sqrt(np.mean(out ** 2)), 1e-10))
            loudest_silence = max(loudest_silence, level)
            continue
        windows += 1
        heard = [p for p in spec["pieces"] if p["start"] < times[span][-1] and p["end"] > times[span][0]]
        columns = np.stack([contribution(p, media, times[span]) for p in heard], axis=1)
        strong = np.sqrt(np.mean(columns ** 2, axis=0)) > 0.02
        solved, *_ = np.linalg.lstsq(columns, out, rcond=None)
        for piece, weight, counted in zip(heard, solved, strong):
            if counted and abs(weight - 1) > abs(worst_weight):
                worst_weight = weight - 1
            if counted and abs(weight - 1) > 0.15:
                failures.append(f"window {k} ({k * 10} ms): {piece['medium']} weighs {weight:.2f}, not 1")
        lag = best_lag(output, expected, k * WINDOW)
        worst_lag = max(worst_lag, abs(lag))
        if abs(lag) > 1.0:
            failures.append(f"window {k} ({k * 10} ms): best match {lag:.2f} ms off")
    return dict(windows=windows, worst_weight_error=worst_weight, worst_lag_ms=worst_lag,
                loudest_silence_dbfs=loudest_silence), failures


def best_lag(output, expected, start, reach=480):
    """Lag (ms) in -10..10 ms at which the window's output best matches the expected sound."""
    out = output[start:start + WINDOW]
    scores = []
    for lag in range(-reach, reach + 1):
        lo = start - lag
        if lo < 0 or lo + WINDOW > len(expected):
            scores.append(-1)
            continue
        exp = expected[lo:lo + WINDOW]
        scores.append(np.dot(out, exp) / (np.linalg.norm(out) * np.linalg.norm(exp) + 1e-12))
    return (int(np.argmax(scores)) - reach) * 1000 / RATE


def edges(spec, media, output, times):
    """Each hard edge's measured time less where it should be (ms): the shift, in 0.25 ms steps within
    ±10 ms, that best explains the output over ±20 ms around it."""
    found = []
    for number, piece in enumerate(spec["pieces"]):
        for side, fade in ((0, "fade_in"), (1, "fade_out")):
            edge = piece["start"] if side == 0 else piece["end"]
            if piece.get(fade, 0) > 0 or edge <= 0 or edge >= spec["until"] - 0.05:
                continue
            span = slice(int((edge - 0.02) * RATE), int((edge + 0.02) * RATE))
            others = sum(contribution(p, media, times[span]) for i, p in enumerate(spec["pieces"]) if i != number)
            best, error = None, 0.0
            for shift in np.arange(-0.010, 0.01001, 0.00025):
                moved = (shift, 0.0) if side == 0 else (0.0, shift)
                residual = np.sum((output[span] - others - contribution(piece, media, times[span], moved)) ** 2)
                if best is None or residual < best:
                    best, error = residual, shift * 1000
            found.append(dict(medium=piece["medium"], side="start" if side == 0 else "end", time=edge, error_ms=error))
    return found


def main(path):
    spec = json.load(open(path))
    media = {name: decode(file) for name, file in spec["media"].items()}
    output = decode(spec["output"])
    times = np.arange(len(output)) / RATE
    expected = sum(contribution(p, media, times) for p in spec["pieces"])
    result, failures = judge_windows(spec, media, output, expected, times)
    result["edges"] = edges(spec, media, output, times)
    failures += [f"{e['medium']} {e['side']} at {e['time']:.4f} s is {e['error_ms']:.2f} ms off"
                 for e in result["edges"] if abs(e["error_ms"]) > 5]
    judged = slice(0, int(spec["until"] * RATE))
    noise = np.sum((output[judged] - expected[judged]) ** 2)
    result["snr_db"] = 10 * np.log10(np.sum(expected[judged] ** 2) / max(noise, 1e-20))
    if result["loudest_silence_dbfs"] > -60:
        failures.append(f"a window expected silent is at {result['loudest_silence_dbfs']:.1f} dBFS")
    result["failures"] = failures[:20]
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
