"""Helpers shared by Scripts/bench, differential and identical: running commands, ffprobe, timing and peak
memory, Markdown tables, the corpus, usage errors. The output judges are in judges.py.

Each script sets sys.dont_write_bytecode before importing this, so no __pycache__ lands in Scripts/.
"""
import csv
import hashlib
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def logger(name):
    """A function printing `NAME: message` on stderr, at once."""
    return lambda message: print(f"{name}: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- commands and files

def run(command, **options):
    """subprocess.run with stdout and stderr captured as text."""
    return subprocess.run(command, capture_output=True, text=True, **options)


def ffprobe(*args):
    """ffprobe's stdout (errors only on stderr, not shown)."""
    return run(["ffprobe", "-v", "error", *args]).stdout


def ffprobe_json(args):
    """ffprobe's answer as JSON; RuntimeError naming the arguments when it fails."""
    result = run(["ffprobe", "-v", "error", "-of", "json"] + args)
    if result.returncode != 0:
        raise RuntimeError("ffprobe %s: %s" % (" ".join(args), result.stderr.strip()[:200]))
    return json.loads(result.stdout or "{}")


def sha256(path):
    """The file's SHA-256, read a megabyte at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))


def last_line(log, width, skip="", prefer=""):
    """A log's last non-empty line (progress redrawn with \\r counts as lines) cut to `width`, for a one-line
    failure reason: lines starting with `skip` left out, the first holding `prefer` (any case) if any."""
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            lines = f.read().replace("\r", "\n").split("\n")
    except OSError:
        return ""
    lines = [l.strip() if skip else l for l in lines if l.strip() and not (skip and l.startswith(skip))]
    chosen = next((l for l in lines if prefer and prefer in l.lower()), lines[-1] if lines else "")
    return chosen[:width]


def corpus_manifest(folder):
    """The rows of the real-world corpus's MANIFEST.tsv (name, container, damaged, ...)."""
    with open(os.path.join(folder, "MANIFEST.tsv"), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


# ---------------------------------------------------------------- timing, peak memory, tables

def timed(command, timefile, logfile):
    """Runs command under GNU time (/usr/bin/time -v), its output in logfile: (exit status, wall seconds,
    peak RSS MB, user + system CPU seconds), the numbers as printed ("%.2f", "%.0f"), "" when unknown."""
    with open(logfile, "wb") as out:
        rc = subprocess.run(["/usr/bin/time", "-v", "-o", timefile] + command, stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL).returncode
    wall, rss, cpu = "", "", []   # cpu: user and system seconds
    try:
        report = open(timefile, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        report = []
    for line in report:
        value = line.rsplit(": ", 1)[-1].strip()
        if "Elapsed (wall clock) time" in line:
            seconds = 0.0
            for part in value.split(":"):   # h:mm:ss or m:ss
                seconds = seconds * 60 + float(part)
            wall = "%.2f" % seconds
        elif "Maximum resident set size" in line:
            rss = "%.0f" % (float(value) / 1024)
        elif "User time (seconds)" in line or "System time (seconds)" in line:
            cpu.append(float(value))
    return rc, wall, rss, "%.2f" % sum(cpu) if cpu else ""


def median(values):
    """The middle value as measured (odd count), the mean of the middle two to 2 places (even), "" for none."""
    if not values:
        return ""
    ordered = sorted(values, key=float)
    n = len(ordered)
    if n % 2:
        return ordered[n // 2]
    return "%.2f" % ((float(ordered[n // 2 - 1]) + float(ordered[n // 2])) / 2)


def ratio(a, b):
    """a/b to two places, or an em dash when either is missing or b is 0."""
    if not a or not b or float(b) <= 0:
        return "—"
    return "%.2f" % (float(a) / float(b))


def num(text):
    """A number as text, 0 when it is none."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return 0.0


def table(header, align, rows):
    """Header, alignment row (l or r per column) and rows, as Markdown lines; a cell of None is left out (`| |`),
    "" is an empty value (`|  |`)."""
    def row(cells):
        return "|" + "".join(" |" if cell is None else f" {cell} |" for cell in cells)
    return [row(header), "|" + "".join("---|" if a == "l" else "---:|" for a in align)] + [row(r) for r in rows]


class Usage(Exception):
    """A usage error: the script says it and exits 2."""
