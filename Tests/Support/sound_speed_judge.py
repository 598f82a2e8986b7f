#!/usr/bin/env python3
"""Judges sound played at another speed, and dual-mono routing, in a rendered output.

usage: sound_speed_judge.py chirp OUTPUT SPEC.json   source time heard, every 10 ms
       sound_speed_judge.py sides OUTPUT REFERENCE   each side's level and likeness

chirp: the medium is a sine whose frequency rises 500 Hz a second from
500 Hz (f = 500 + 500 s at source time s), so the pitch heard in a window
names the source time it plays: time-stretched with its pitch kept, it is
the source time the timeline says; resampled instead, the pitch (and so
the time read off it) is off by the speed. SPEC: {"until": S, "pieces":
[{"start": S, "end": E, "source": S0, "speed": V}]}: from output time S to
E the medium plays from source time S0 at speed V (0: silence). Prints,
per 10 ms step, the worst difference between the source time heard and the
one expected (ms) and the loudest window expected silent (dBFS).

sides: OUTPUT and REFERENCE decoded as stereo: each side's RMS level
difference (dB) and correlation with the same side of REFERENCE.
"""
import json
import subprocess
import sys

import numpy as np

RATE = 48000


def decode(path, channels):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-vn", "-f", "f32le", "-ac", str(channels), "-ar", str(RATE), "-"],
                         check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.float32).reshape(-1, channels).astype(np.float64)


def pitch(window):
    """The strongest frequency (Hz) of a window, interpolated between FFT bins."""
    size = 1 << 16
    spectrum = np.abs(np.fft.rfft(window * np.hanning(len(window)), size))
    peak = int(np.argmax(spectrum[1:-1])) + 1
    a, b, c = np.log(spectrum[peak - 1:peak + 2] + 1e-20)
    shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0
    return (peak + shift) * RATE / size


def chirp(output, spec):
    sound = decode(output, 1)[:, 0]
    half = RATE // 50  # 20 ms either side of each step
    worst, loudest, judged, failures = 0.0, -200.0, 0, []
    for step in range(int(spec["until"] * 100)):
        t = step / 100
        piece = next((p for p in spec["pieces"] if p["start"] + 0.03 <= t < p["end"] - 0.03), None)
        near_edge = any(abs(t - p["start"]) < 0.05 or abs(t - p["end"]) < 0.05 for p in spec["pieces"])
        window = sound[max(0, step * 480 - half):step * 480 + half]
        if len(window) < 2 * half:
            continue
        if piece is None or piece["speed"] == 0:
            if not near_edge:
                loudest = max(loudest, 20 * np.log10(max(np.sqrt(np.mean(window ** 2)), 1e-10)))
            continue
        heard = (pitch(window) - 500) / 500
        expected = piece["source"] + piece["speed"] * (t - piece["start"])
        error = (heard - expected) * 1000
        judged += 1
        worst = max(worst, abs(error))
        if abs(error) > 25:
            failures.append(f"{t:.2f} s: hears source {heard:.3f} s, not {expected:.3f} s")
    return dict(judged=judged, worst_ms=worst, loudest_silence_dbfs=loudest, failures=failures[:20])


def sides(output, reference):
    out, ref = decode(output, 2), decode(reference, 2)
    count = min(len(out), len(ref))
    skip = RATE // 10  # the encoder's first frames aside
    out, ref = out[skip:count - skip], ref[skip:count - skip]
    result = {}
    for index, side in enumerate(("left", "right")):
        level = 20 * np.log10(np.sqrt(np.mean(out[:, index] ** 2)) / np.sqrt(np.mean(ref[:, index] ** 2)))
        likeness = float(np.corrcoef(out[:, index], ref[:, index])[0, 1])
        result[side] = dict(level_db=float(level), correlation=likeness)
    return result


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "chirp":
        print(json.dumps(chirp(sys.argv[2], json.load(open(sys.argv[3])))))
    elif len(sys.argv) == 4 and sys.argv[1] == "sides":
        print(json.dumps(sides(sys.argv[2], sys.argv[3])))
    else:
        sys.exit(__doc__)
