"""The output judges: what a written output holds (decoded once) and whether it matches another, for
Scripts/differential (every judge), bench (check_output, packet_digests) and identical (report_hash).
Tested by Tests/scripts/test_judges.py.
"""
import copy
import hashlib
import json
import math
import os
import subprocess

import numpy as np

from segue_scripts import ffprobe, ffprobe_json

AAC_FRAME = 1024
QUIET_DB = -50.0
# Normalised correlations within this of the best count as as good a match:
# two AAC encodes of one sound 10 dB apart in a window correlate at about 0.95
# (FFmpeg's intensity stereo adds 2-frame bursts of up to +3.7 dB).
AS_WELL = 0.05


# ---------------------------------------------------------------- decoding

def packet_digests(path, stream):
    """The MD5 of each packet's bytes of the first video (v) or audio (a) stream, in file order."""
    listing = ffprobe("-select_streams", stream + ":0", "-show_entries", "packet=pos,size", "-of", "compact=p=0", path)
    digests = []
    with open(path, "rb") as f:
        for line in listing.splitlines():
            fields = dict(kv.split("=", 1) for kv in line.split("|") if "=" in kv)
            if fields.get("pos", "").isdigit() and fields.get("size", "").isdigit():
                f.seek(int(fields["pos"]))
                digests.append(hashlib.md5(f.read(int(fields["size"]))).digest())
    return digests


def samples(path, channels, args):
    """The sound ffmpeg decodes to float samples (frames x channels, float64); `args` go before the output
    (the stream's map, a resampler)."""
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, *args, "-f", "f32le", "-"],
                         capture_output=True).stdout
    data = np.frombuffer(raw, dtype="<f4")
    return data[:len(data) // channels * channels].reshape(-1, channels).astype(np.float64)


def frames(path, width, height, deep):
    """Each decoded picture of the first video stream, as the bytes of one yuv420p (or, `deep`,
    yuv420p10le) frame, one at a time (the same buffer, refilled)."""
    chroma = ((width + 1) // 2) * ((height + 1) // 2)
    size = (width * height + 2 * chroma) * (2 if deep else 1)
    with subprocess.Popen(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                           "-f", "rawvideo", "-pix_fmt", "yuv420p10le" if deep else "yuv420p", "-"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        buffer = bytearray(size)
        while proc.stdout.readinto(buffer) == size:   # a buffered read: whole frames until the end
            yield buffer


# ---------------------------------------------------------------- judging differential's modes

def frame_rate(text):
    """A rate such as 30000/1001 as a number, None when unknown."""
    if not text or text in ("0/0", "N/A"):
        return None
    num, _, den = str(text).partition("/")
    return float(num) / float(den or 1)


def duration(stream):
    """A stream's duration in seconds, None when unknown."""
    d = stream.get("duration") if stream else None
    return float(d) if d not in (None, "N/A") else None


class Output:
    """What the judges read from one output file, decoded once."""

    def __init__(self, path, report=None, like=None):
        """`like`: the plain stitch's Output, whose sound rate and channels this one's sound is decoded at when
        they differ (--smart takes the clips' own: 44.1 kHz mono from iPhones)."""
        self.path = path
        info = ffprobe_json(["-show_streams", "-show_chapters", "-show_format", path])
        self.chapters = info.get("chapters", [])
        self.video, self.audio = (next((s for s in info.get("streams", []) if s.get("codec_type") == kind), None)
                                  for kind in ("video", "audio"))
        self.report = None
        if report and os.path.exists(report):
            with open(report) as f:
                self.report = json.load(f)
        self.fps = frame_rate(self.video.get("r_frame_rate")) if self.video else None
        listing = ffprobe("-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0",
                              path) if self.video else ""
        times = (line.split(",")[0].strip() for line in listing.splitlines())
        self.video_pts = sorted(float(t) for t in times if t not in ("N/A", ""))
        self.audio_payloads = packet_digests(path, "a") if self.audio else []
        self.read_pictures()
        self.sound, self.rate, self.native_rate, self.native_channels = None, None, None, None
        if self.audio:
            self.rate = self.native_rate = int(self.audio["sample_rate"])
            channels = self.native_channels = int(self.audio["channels"])
            resample = []
            if like is not None and like.audio and (self.rate, channels) != (like.rate, int(like.audio["channels"])):
                self.rate, channels = like.rate, int(like.audio["channels"])
                resample = ["-ar", str(self.rate), "-ac", str(channels)]
            self.sound = samples(path, channels, ["-map", "0:a:0", *resample, "-acodec", "pcm_f32le"])

    def heard_in_mono(self):
        """This output as judged against one written in mono: its sound's two channels both their mean (what
        a mono track's -3 dB downmix sounds like spread back to both sides at -3 dB)."""
        mono = copy.copy(self)
        mono.sound = np.repeat(self.sound.mean(axis=1, keepdims=True), 2, axis=1)
        return mono

    def read_pictures(self):
        """Each frame's MD5 (at 10 bits when the output is 10-bit) and its grey, downscaled to about 96 wide
        (10-bit grey scaled to 8) for PSNR."""
        self.hashes, self.grey = [], []
        if not self.video:
            return
        w, h = int(self.video["width"]), int(self.video["height"])
        # As a player shows it: the ffmpeg CLI turns the picture by the track's display matrix (--smart's phone clips).
        if any(abs(int(d.get("rotation", 0))) in (90, 270) for d in self.video.get("side_data_list", [])):
            w, h = h, w
        deep = "10" in self.video.get("pix_fmt", "")
        f = max(1, w // 96)
        gw, gh = w // f, h // f
        for buf in frames(self.path, w, h, deep):
            self.hashes.append(hashlib.md5(buf).hexdigest())
            luma = np.frombuffer(buf, dtype=np.uint16 if deep else np.uint8, count=w * h).reshape(h, w)
            grey = luma[:gh * f, :gw * f].reshape(gh, f, gw, f).mean(axis=(1, 3), dtype=np.float32)
            self.grey.append(grey / 4 if deep else grey)
        self.grey = np.array(self.grey, dtype=np.float32) if self.grey else np.zeros((0, gh, gw), np.float32)


class Verdict:
    """One mode's OK and FAIL lines; failed once any was a FAIL."""

    def __init__(self, prefix):
        self.prefix, self.failed = prefix, False

    def say(self, ok, judge, text, problems=()):
        """OK or FAIL (and the problems named after the numbers)."""
        self.failed = self.failed or not ok or bool(problems)
        print("%s %s %s: %s" % ("OK  " if ok and not problems else "FAIL", self.prefix, judge,
                                text + (" -- off: " + ", ".join(problems) if problems else "")), flush=True)


def quiet(samples):
    """Whether a stretch of mono sound is at or under QUIET_DB."""
    return 10 * math.log10(np.mean(samples * samples) + 1e-20) <= QUIET_DB


def snr(reference, other):
    """Signal-to-noise ratio in dB of `other` against `reference` (inf when they are equal)."""
    noise = float(np.sum((reference - other) ** 2))
    return 10 * math.log10(float(np.sum(reference ** 2)) / noise) if noise > 0 else float("inf")


def psnr(mse):
    return float("inf") if mse <= 1e-12 else 10 * math.log10(255.0 ** 2 / mse)


def judge_pictures(v, mode, plain, out, opts):
    n, m = len(plain.hashes), len(out.hashes)
    if n == 0 and m == 0:
        return v.say(True, "pictures", "no video in either")
    counts, common = "%d frames, plain %d" % (m, n), min(n, m)
    if mode in ("segments", "jobs"):
        differ = [i for i in range(common) if plain.hashes[i] != out.hashes[i]]
        if not differ and n == m:
            return v.say(True, "pictures", "%d of %d frames identical (MD5 of each decoded picture)" % (m, n))
        text = "%s; %d of %d compared frames differ" % (counts, len(differ), common)
        if differ:
            worst = min(psnr(float(np.mean((plain.grey[i] - out.grey[i]) ** 2))) for i in differ)
            text += " (first at frame %d = %.3f s; worst grey PSNR %.1f dB)" % (
                differ[0], differ[0] / (plain.fps or 30), worst)
        return v.say(False, "pictures", text)
    # smart: copied pictures are the source's own, so compare with a tolerance.
    if common == 0:
        return v.say(False, "pictures", counts)
    values, misplaced, low = [], [], []
    for i in range(common):
        lo, hi = max(0, i - 6), min(n, i + 7)   # plain's frames up to 6 away
        mses = np.mean((plain.grey[lo:hi] - out.grey[i]) ** 2, axis=(1, 2))
        own, best = float(mses[i - lo]), int(np.argmin(mses)) + lo
        values.append(psnr(own))
        # Its own index must be (among) the best matches: same pictures in the same order.
        if best != i and own > float(mses[best - lo]) * 1.05 + 0.5:
            misplaced.append((i, best))
        if psnr(own) < opts["smart_psnr"]:
            low.append(i)
    finite = [x for x in values if x != float("inf")]
    text = "%s; %d identical, min PSNR %s, mean %s (downscaled grey); %d below %.0f dB; %d best matched elsewhere" % (
        counts, len(values) - len(finite), ("%.1f dB" % min(finite)) if finite else "inf",
        ("%.1f dB" % np.mean(finite)) if finite else "inf", len(low), opts["smart_psnr"], len(misplaced))
    if low:
        text += " (first below at frame %d)" % low[0]
    if misplaced:
        text += " (first: frame %d matches plain's %d)" % misplaced[0]
    v.say(n == m and not low and not misplaced, "pictures", text)


def judge_durations(v, mode, plain, out):
    if bool(plain.video) != bool(out.video) or bool(plain.audio) != bool(out.audio):
        return v.say(False, "durations", "streams differ: video %s/%s, audio %s/%s (mode/plain)" % (
            bool(out.video), bool(plain.video), bool(out.audio), bool(plain.audio)))
    problems, parts = [], []
    fps = plain.fps or 30.0
    if plain.video:
        dv, pv, fv, pf = duration(out.video), duration(plain.video), len(out.video_pts), len(plain.video_pts)
        parts.append("video %.4f s/%d frames (plain %.4f s/%d)" % (dv or -1, fv, pv or -1, pf))
        if dv is None or pv is None or abs(dv - pv) > 1 / fps + 1e-6:
            problems.append("video duration")
        if abs(fv - pf) > 1:
            problems.append("frame count")
        if fv == pf:
            worst = max((abs(a - b) for a, b in zip(out.video_pts, plain.video_pts)), default=0.0)
            parts.append("frame times max diff %.4f s" % worst)
            if worst > 0.5 / fps:
                problems.append("frame times")
    if plain.audio:
        da, pa, ka, pk = duration(out.audio), duration(plain.audio), len(out.audio_payloads), len(plain.audio_payloads)
        parts.append("audio %.4f s/%d packets (plain %.4f s/%d)" % (da or -1, ka, pa or -1, pk))
        if da is None or pa is None or abs(da - pa) > AAC_FRAME / (plain.rate or 48000) + 1e-6:
            problems.append("audio duration")
        # AAC frames of 1024 samples at the output's own rate (--smart may take the clips'); rescaled, one more may round.
        rescaled = out.native_rate != plain.rate
        if abs(ka - pk * out.native_rate / plain.rate) > (2 if rescaled else 1):
            problems.append("audio packet count")
        if out.sound is not None and plain.sound is not None:
            parts.append("decoded samples %d (plain %d)" % (len(out.sound), len(plain.sound)))
            if abs(len(out.sound) - len(plain.sound)) > AAC_FRAME:
                problems.append("decoded samples")
    v.say(True, "durations", "; ".join(parts), problems)


def judge_chapters(v, plain, out):
    a, b = ([(c.get("tags", {}).get("title", ""), float(c.get("start_time", 0))) for c in o.chapters]
            for o in (plain, out))
    fps = plain.fps or 30.0
    same = len(a) == len(b) and all(x[0] == y[0] and abs(x[1] - y[1]) <= 0.5 / fps for x, y in zip(a, b))
    worst = max((abs(x[1] - y[1]) for x, y in zip(a, b)), default=0.0)
    text = "%d chapters (plain %d), titles %s, start times max diff %.4f s" % (
        len(b), len(a), "same" if [x[0] for x in a] == [y[0] for y in b] else "differ", worst)
    if not same and a != b:
        text += "; plain %s; mode %s" % (a[:4], b[:4])
    v.say(same, "chapters", text)


def xcorr(a, b, start, maxlag):
    """Normalised cross-correlation of a with b[start + lag : start + lag + len(a)] for lag in -maxlag..maxlag."""
    n = len(a)
    if n == 0:
        return np.zeros(2 * maxlag + 1)
    lo = start - maxlag
    bp = np.zeros(n + 2 * maxlag)
    s, e = max(0, lo), min(len(b), lo + len(bp))
    if e > s:
        bp[s - lo:e - lo] = b[s:e]
    size = 1 << int(math.ceil(math.log2(len(bp) + n)))
    c = np.fft.irfft(np.fft.rfft(bp, size) * np.conj(np.fft.rfft(a, size)), size)[:2 * maxlag + 1]
    cs = np.concatenate([[0.0], np.cumsum(bp * bp)])
    eb = cs[n:n + 2 * maxlag + 1] - cs[:2 * maxlag + 1]
    return c / np.sqrt(np.maximum(float(np.dot(a, a)) * eb, 1e-30))


def window_lags(p, o, starts, win, maxlag, near=None):
    """(start, lag, match) of each window of p with sound (from each of starts) found in o: the best match's lag,
    or with `near`, of the lags within 512 samples that match as well as the best (within AS_WELL: a tone matches
    as well a period away, give or take coding noise), the one nearest `near`."""
    found = []
    for s0 in starts:
        seg = p[s0:s0 + win]
        if quiet(seg):
            continue
        cc = xcorr(seg, o, s0, maxlag)
        peak, lag = float(cc.max()), int(np.argmax(cc)) - maxlag
        if near is not None:
            fits = np.nonzero(cc[maxlag - 512:maxlag + 513] >= peak - AS_WELL)[0] - 512
            lag = int(fits[np.argmin(np.abs(fits - near))]) if len(fits) else lag
        found.append((s0, lag, peak))
    return found


def levels(sound, rate, shift=0):
    """RMS level (dBFS) of each channel in every 100 ms window, each window
    moved by `shift` samples (clamped inside the track): windows x channels."""
    w = rate // 10
    count = len(sound) // w
    if count == 0:
        return np.zeros((0, sound.shape[1]))
    cs = np.concatenate([np.zeros((1, sound.shape[1])), np.cumsum(sound * sound, axis=0)])
    starts = np.clip(np.arange(count) * w + shift, 0, len(sound) - w)
    return 10 * np.log10((cs[starts + w] - cs[starts]) / w + 1e-20)


def judge_level(plain, out, opts, bound=0):
    """(problems, text): each channel's RMS level in every 100 ms window within the tolerance where either is
    above -50 dBFS. With `bound` (--smart), a window may match plain's window moved by up to that many samples
    (the documented offset of a clip's sound), in steps of 32."""
    if plain.sound.shape[1] != out.sound.shape[1]:
        return ["level"], "level: %d channels, plain %d" % (out.sound.shape[1], plain.sound.shape[1])
    b = levels(out.sound, out.rate)
    # The last two AAC frames are the encoder's flush: how it ends a stream
    # depends on its whole history (FFmpeg's encoder can overshoot by 4 dB there).
    n = max(0, min(len(b), (min(len(plain.sound), len(out.sound)) - 2 * AAC_FRAME) // (plain.rate // 10)))
    b = b[:n]
    moved = [levels(plain.sound, plain.rate, shift)[:n] for shift in range(-bound, bound + 1, 32)]
    louds = [np.maximum(a, b) > QUIET_DB for a in moved]
    best = np.min([(np.abs(a - b) * loud).max(axis=1) if n else np.zeros(0) for a, loud in zip(moved, louds)], axis=0)
    bad = np.nonzero(best > opts["level_db"])[0]
    worst = int(np.argmax(best)) if n else 0
    # The windows counted as judged, and plain's levels shown, are those at the first shift.
    text = "level: %d of %d 100 ms windows judged (each channel%s), worst %.2f dB at %.1f s" % (
        int(louds[0].any(axis=1).sum()), n, (", plain's moved up to %d samples" % bound) if bound else "",
        float(best[worst]) if n else 0, worst / 10)
    if len(bad):
        text += ", %d over %.1f dB (first at %.1f s: %s vs plain %s dBFS)" % (
            len(bad), opts["level_db"], bad[0] / 10, "/".join("%.1f" % x for x in b[bad[0]]),
            "/".join("%.1f" % x for x in moved[0][bad[0]]))
    return ["level"] if len(bad) else [], text


def judge_sound(v, mode, plain, out, opts):
    if plain.sound is None and out.sound is None:
        return v.say(True, "sound", "no audio in either")
    if plain.sound is None or out.sound is None or len(plain.sound) == 0 or len(out.sound) == 0:
        return v.say(False, "sound", "audio in one only (or empty)")
    judge = judge_smart_sound if mode == "smart" else judge_segmented_sound
    text, problems = judge(plain, out, plain.sound.mean(axis=1), out.sound.mean(axis=1), opts)
    v.say(True, "sound", text, problems)


def judge_segmented_sound(plain, out, p, o, opts):
    """segments, jobs: (text, problems) of the lags over the track and in every 1 s window, and the levels."""
    level_problems, level_text = judge_level(plain, out, opts)
    n, sec = min(len(p), len(o)), plain.rate
    whole = int(np.argmax(xcorr(p[:n], o, 0, 4096))) - 4096
    count = n // sec + (1 if n % sec > sec // 4 else 0)   # 1 s windows, the last part one if over a quarter second
    found = window_lags(p[:n], o, range(0, count * sec, sec), sec, 1024)
    off = [(s // sec, lag) for s, lag, _ in found if lag != 0]
    snrs = [(s // sec, snr(plain.sound[s:min(n, s + sec)], out.sound[s:min(n, s + sec)])) for s, _, _ in found]
    worst = min(snrs, key=lambda x: x[1]) if snrs else None
    low = [k for k, s in snrs if s < opts["min_snr"]] if opts["min_snr"] > 0 else []
    problems = [name for name, bad in [("whole-track lag", whole != 0), ("window lag", off), ("window SNR", low)]
                if bad] + level_problems
    same = sum(1 for x, y in zip(plain.audio_payloads, out.audio_payloads) if x == y)
    text = "whole-track lag %d; %d 1 s windows with sound, %d at lag 0%s; SNR whole %.1f dB, worst window %s%s; " % (
        whole, len(found), len(found) - len(off), (" (first off: %d s lag %d)" % off[0]) if off else "",
        snr(plain.sound[:n], out.sound[:n]), ("%.1f dB at %d s" % (worst[1], worst[0])) if worst else "-",
        (", %d under %.0f dB" % (len(low), opts["min_snr"])) if low else "")
    return text + "AAC packets identical %d/%d; %s" % (same, len(plain.audio_payloads), level_text), problems


def judge_smart_sound(plain, out, p, o, opts):
    """smart: (text, problems) of each clip's sound, where it is heard alone (a quarter second in from
    either end), within 512 samples of plain's, window by window (a clip between copied ones is read
    through a time map whose shift changes across it), and at its middle where the report says it
    stands; and the levels."""
    rate, report = plain.rate, plain.report or {}
    smart_clips = {c["index"]: c for c in ((out.report or {}).get("smart") or {}).get("clips", [])}
    fps = frame_rate(report.get("output", {}).get("frameRate")) or plain.fps or 30.0
    inputs = report.get("inputs", [])
    # 50 ms windows: short enough that a time map's tempo change (up to 1024
    # samples over a window of a few seconds) can't smear a window's match.
    win, maxlag, margin = rate // 20, 2048, rate // 4
    problems, parts = [], []
    for i, clip in enumerate(inputs):
        start, end = clip["startFrame"], clip["startFrame"] + clip["frames"]
        if i > 0:
            start = max(start, inputs[i - 1]["startFrame"] + inputs[i - 1]["frames"])
        if i + 1 < len(inputs):
            end = min(end, inputs[i + 1]["startFrame"])
        a, b = int(start / fps * rate) + margin, min(int(end / fps * rate) - margin, len(p), len(o))
        stated = ((smart_clips.get(i) or {}).get("sound") or {}).get("offsetSamples")
        if stated is not None:   # counted at the output's own rate, judged at plain's
            stated = round(stated * rate / out.native_rate)
        found = window_lags(p, o, range(a, b - win + 1, win), win, maxlag, near=stated or 0)
        if not found:
            continue
        lags, weakest = [lag for _, lag, _ in found], min(match for _, _, match in found)
        parts.append("clip %d: %d windows, lags %d..%d, weakest match %.3f" % (
            i, len(found), min(lags), max(lags), weakest))
        if max(abs(x) for x in lags) > 512 * rate / out.native_rate + 1:
            problems.append("clip %d lag %d over 512 at %d Hz" % (i, max(lags, key=abs), out.native_rate))
        if weakest < 0.9:
            problems.append("clip %d not plain's sound (match %.3f)" % (i, weakest))
        if stated is not None:
            # The report gives the shift at the middle of the clip's own frames: a window centred there.
            middle = (a + b) // 2
            cc = xcorr(p[middle - win // 2:middle + win // 2], o, middle - win // 2, maxlag)
            peak = float(cc.max())
            there = cc[maxlag + stated - 3:maxlag + stated + 4] if abs(stated) <= maxlag - 3 else np.zeros(1) - 1
            agrees = float(there.max()) >= peak - AS_WELL
            parts[-1] += ", report %d%s" % (stated, "" if agrees else " (not there: match %.3f, best %.3f at lag %d)"
                                            % (float(there.max()), peak, int(np.argmax(cc)) - maxlag))
            if not agrees:
                problems.append("clip %d offset not the report's" % i)
    level_problems, level_text = judge_level(plain, out, opts, bound=512)
    text = "%d clips judged: %s; %s" % (len(parts), "; ".join(parts) if parts else "-", level_text)
    return text, problems + level_problems


# ---------------------------------------------------------------- judging one output

def check_output(path, expected):
    """Why the output is not plausible (missing, unreadable, duration off by more than max(1 s, 2 %)), or ""."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return "no output file"
    d = ffprobe("-show_entries", "format=duration", "-of", "default=nw=1:nk=1", path).strip()
    if not d or d == "N/A":
        return "output unreadable by ffprobe"
    d, e = float(d), float(expected)
    tol = max(e * 0.02, 1)
    if d < e - tol or d > e + tol:
        return "output is %.2f s, expected %.2f s" % (d, e)
    return ""


# Report fields that differ between runs of one binary (wall clock, memory), by path from the top ("*": each item)
VARYING = [("wallSeconds",), ("startupSeconds",), ("peakMemoryBytes",), ("stall",), ("joins", "*", "stallSeconds")]


def report_hash(path, places):
    """SHA-256 of a --report JSON without its VARYING fields, each (prefix, name) of places replaced in its
    strings, as canonical JSON."""
    with open(path) as f:
        data = json.load(f)

    def clean(v, path=()):
        if isinstance(v, dict):
            return {k: clean(x, path + (k,)) for k, x in v.items() if path + (k,) not in VARYING}
        if isinstance(v, list):
            return [clean(x, path + ("*",)) for x in v]
        if isinstance(v, str):
            for prefix, name in places:
                v = v.replace(prefix, name)
        return v
    text = json.dumps(clean(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def judge(v, mode, plain, out, opts, chapters=False):
    """Every judge of `out`, written in `mode` (smart, segments or jobs), against the plain stitch's output, said
    on v: True when all agreed. opts: smart_psnr, min_snr, level_db (differential's options)."""
    judge_pictures(v, mode, plain, out, opts)
    judge_durations(v, mode, plain, out)
    if chapters or plain.chapters:
        judge_chapters(v, plain, out)
    stereo = plain.sound is not None and plain.sound.shape[1] == 2
    judge_sound(v, mode, plain.heard_in_mono() if stereo and out.native_channels == 1 else plain, out, opts)
    return not v.failed
