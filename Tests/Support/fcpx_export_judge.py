#!/usr/bin/env python3
"""Judges Segue's FCPXML exports (--export-timeline x.fcpxml) with readers
that are not Segue's: OpenTimelineIO's fcpx_xml adapter
(otio-fcpx-xml-adapter) and Python's ElementTree with exact Fractions.

usage (with .build/pyenv/bin/python3, which Scripts/setup makes):
  fcpx_export_judge.py clips FILE   what the adapter reads, as JSON: each video
                                    track (by lane) as its clips in order:
                                    [name, url, start value, start rate,
                                     duration value, duration rate]
  fcpx_export_judge.py spine FILE   the sequence's spine read exactly, as JSON:
                                    {"frameDuration", "duration", "tcStart",
                                     "items": [[tag, name, offset, duration,
                                     start in its asset's frames]]} with every
                                    time as frames of the sequence's frame
                                    duration ("43", or "5/2" when not whole)
  fcpx_export_judge.py tree FILE    the whole document as JSON
                                    ({"tag", "attributes", "text", "children"})

What the adapter (1.0.0) can't read is given to it as it reads it, on a copy:
it takes an asset's media from an `src` attribute on `asset` (FCPXML 1.10
puts it in `media-rep`, and its DTD forbids `src` on `asset`), so the copy
has `media-rep`'s there; it needs a frame duration in every format (a still's
has none, as Final Cut Pro writes them), so the copy gives a still's format
the sequence's; it reads a `video` only inside a `clip` (Final Cut Pro puts a
still's `video` in the spine itself), so the copy names such a `video` an
`asset-clip` (the same attributes mean the same there). It drops `transition` elements, counts 23.976 and 29.97 as
23 and 29 and truncates times to whole frames: `spine` reads those exactly.
"""
import json
import sys
import xml.etree.ElementTree as ElementTree
from fractions import Fraction

import opentimelineio as otio


def seconds(text):
    """An FCPXML time (`N/Ds`, `Ns`) as an exact Fraction of a second."""
    if text is None:
        return Fraction(0)
    assert text.endswith("s"), text
    numerator, _, denominator = text[:-1].partition("/")
    return Fraction(int(numerator), int(denominator or 1))


def frames_text(value):
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def sequence_of(root):
    return root.find("./library/event/project/sequence")


def adapter_copy(root):
    """The document as the adapter reads it (see the module's notes)."""
    sequence_format = root.find(f"./resources/format[@id='{sequence_of(root).get('format')}']")
    for asset in root.findall("./resources/asset"):
        rep = asset.find("media-rep")
        if rep is not None and asset.get("src") is None:
            asset.set("src", rep.get("src"))
    for media_format in root.findall("./resources/format"):
        if media_format.get("frameDuration") is None:
            media_format.set("frameDuration", sequence_format.get("frameDuration"))
    for parent in root.iter():
        if parent.tag in ("spine", "asset-clip", "ref-clip", "gap", "video", "title"):
            for child in parent:
                if child.tag == "video":
                    child.tag = "asset-clip"
    return ElementTree.tostring(root, encoding="unicode")


def clips(path):
    root = ElementTree.parse(path).getroot()
    result = otio.adapters.read_from_string(adapter_copy(root), adapter_name="fcpx_xml")
    timeline = next(iter(result)) if isinstance(result, otio.schema.SerializableCollection) else result
    tracks = {}
    for track in timeline.tracks:
        if track.kind != otio.schema.TrackKind.Video:
            continue
        rows = []
        for item in track:
            if not isinstance(item, otio.schema.Clip):
                continue
            source = item.source_range
            url = getattr(item.media_reference, "target_url", None)
            rows.append([item.name, url, source.start_time.value, source.start_time.rate,
                         source.duration.value, source.duration.rate])
        tracks[str(track.name)] = rows
    print(json.dumps(tracks))


def spine(path):
    root = ElementTree.parse(path).getroot()
    sequence = sequence_of(root)
    formats = {f.get("id"): f for f in root.findall("./resources/format")}
    assets = {a.get("id"): a for a in root.findall("./resources/asset")}
    frame = seconds(formats[sequence.get("format")].get("frameDuration"))
    items = []
    for element in sequence.find("spine"):
        start = None
        asset = assets.get(element.get("ref", ""))
        if asset is not None and element.get("start") is not None:
            duration = formats[asset.get("format")].get("frameDuration")
            start = frames_text(seconds(element.get("start")) / seconds(duration)) if duration else None
        items.append([element.tag, element.get("name"), frames_text(seconds(element.get("offset")) / frame),
                      frames_text(seconds(element.get("duration")) / frame), start])
    print(json.dumps({"frameDuration": formats[sequence.get("format")].get("frameDuration"),
                      "duration": frames_text(seconds(sequence.get("duration")) / frame),
                      "tcStart": frames_text(seconds(sequence.get("tcStart")) / frame), "items": items}))


def tree(path):
    def node(element):
        return {"tag": element.tag, "attributes": dict(element.attrib), "text": element.text,
                "children": [node(child) for child in element]}
    print(json.dumps(node(ElementTree.parse(path).getroot())))


if __name__ == "__main__":
    commands = {"clips": clips, "spine": spine, "tree": tree}
    if len(sys.argv) >= 3 and sys.argv[1] in commands:
        commands[sys.argv[1]](sys.argv[2])
    else:
        sys.exit(__doc__)
