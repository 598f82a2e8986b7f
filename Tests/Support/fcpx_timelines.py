#!/usr/bin/env python3
"""FCPXML timelines written and read by OpenTimelineIO's fcpx_xml adapter
(otio-fcpx-xml-adapter): the judge of Segue's FCPXML reader.

usage (with .build/pyenv/bin/python3, which Scripts/setup makes):
  fcpx_timelines.py make DIR     writes NAME.fcpxml for each case into DIR (and
                                 NAME.speeds.json: the clips given a speed)
  fcpx_timelines.py frames FILE  prints what the adapter reads from FILE, frame
                                 by frame, as JSON: the top-most visible clip's
                                 [url, source seconds], or null for black

The adapter writes neither transitions nor speed effects (and reads neither):
the transition case has a Cross Dissolve written into the spine after it, centred
on its cut (it takes no frames: what shows either side of it is unchanged), and
the speed case a two-point timeMap; `frames` plays the clips of NAME.speeds.json
at their speed, output frame k showing source frame start + floor(k x speed).
"""
import json
import math
import os
import sys
import xml.etree.ElementTree as ElementTree

import opentimelineio as otio

RT = otio.opentime.RationalTime
TR = otio.opentime.TimeRange
HOUR = 3600


def clip(name, start, duration, rate, media_start=HOUR):
    """A clip of /media/NAME.mov from `start` frames past the media's start timecode (an hour)."""
    reference = otio.schema.ExternalReference(
        target_url=f"file:///media/{name}.mov",
        available_range=TR(RT(media_start * rate, rate), RT(2400, rate)))
    return otio.schema.Clip(name=name, media_reference=reference,
                            source_range=TR(RT(media_start * rate + start, rate), RT(duration, rate)))


def gap(duration, rate):
    return otio.schema.Gap(source_range=TR(RT(0, rate), RT(duration, rate)))


def timeline(name, rate, tracks):
    result = otio.schema.Timeline(name=name)
    for index, children in enumerate(tracks):
        track = otio.schema.Track(name=f"V{index + 1}", kind=otio.schema.TrackKind.Video)
        for child in children:
            track.append(child)
        result.tracks.append(track)
    return result


def cases():
    """(name, timeline, transitions [(cut frame, frames)], speeds {clip: speed})."""
    yield "lanes24", timeline("Lanes 24", 24, [
        [clip("Long", 10, 240, 24)],
        [gap(24, 24), clip("Upper", 100, 48, 24), gap(24, 24), clip("Later", 5, 36, 24)],
    ]), [], {}
    yield "transition25", timeline("Transition 25", 25, [
        [clip("First", 50, 100, 25), clip("Second", 200, 75, 25)],
        [gap(10, 25), clip("Over", 0, 20, 25)],
    ]), [(100, 20)], {}
    yield "speed24", timeline("Speed 24", 24, [
        [clip("Fast", 20, 48, 24), clip("Plain", 300, 24, 24)],
        [gap(60, 24), clip("Top", 12, 24, 24)],
    ]), [], {"Fast": 2.0}


def seconds_text(frames, rate):
    return f"{frames * 100}/{rate * 100}s"


def add_transitions(root, rate, transitions):
    """A Cross Dissolve of `frames` centred on the cut at record frame `cut`, put in the spine before the clip starting there."""
    spine = root.find("./project/sequence/spine")
    for cut, frames in transitions:
        children = list(spine)
        after = next(i for i, child in enumerate(children)
                     if otio_frames(child.get("offset"), rate) == cut)
        element = ElementTree.Element("transition", {
            "name": "Cross Dissolve", "offset": seconds_text(cut - frames // 2, rate), "duration": seconds_text(frames, rate)})
        spine.insert(after, element)


def add_speeds(root, rate, speeds):
    """A two-point timeMap on each named spine clip: its own time from its start maps to media time at `speed`."""
    for element in root.find("./project/sequence/spine"):
        speed = speeds.get(element.get("name"))
        if speed is None:
            continue
        start = otio_frames(element.get("start", "0s"), rate)
        time_map = ElementTree.Element("timeMap")
        for k in (0, 48):
            ElementTree.SubElement(time_map, "timept", {
                "time": seconds_text(start + k, rate), "value": seconds_text(start + int(k * speed), rate), "interp": "linear"})
        element.insert(0, time_map)


def otio_frames(text, rate):
    if text in (None, "0s"):
        return 0
    numerator, _, denominator = text[:-1].partition("/")
    return round(float(numerator) / float(denominator or 1) * rate)


def make(folder):
    for name, made, transitions, speeds in cases():
        path = os.path.join(folder, f"{name}.fcpxml")
        otio.adapters.write_to_file(made, path, adapter_name="fcpx_xml")
        rate = int(made.duration().rate)
        tree = ElementTree.parse(path)
        add_transitions(tree.getroot(), rate, transitions)
        add_speeds(tree.getroot(), rate, speeds)
        with open(path, "wb") as out:
            out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE fcpxml>\n')
            tree.write(out, encoding="utf-8")
        with open(os.path.join(folder, f"{name}.speeds.json"), "w") as out:
            json.dump(speeds, out)


def frames(path):
    result = otio.adapters.read_from_file(path, adapter_name="fcpx_xml")
    speeds_path = path[:-len(".fcpxml")] + ".speeds.json"
    speeds = json.load(open(speeds_path)) if os.path.exists(speeds_path) else {}
    video = otio.schema.Stack(children=[track.clone() for track in result.tracks
                                        if track.kind == otio.schema.TrackKind.Video])
    flat = otio.algorithms.flatten_stack(video)
    shown = []
    for item in flat:
        length = round(item.trimmed_range().duration.to_frames())
        if not isinstance(item, otio.schema.Clip):
            shown += [None] * length
            continue
        source = item.trimmed_range()
        rate = source.start_time.rate
        speed = speeds.get(item.name, 1.0)
        shown += [[item.media_reference.target_url, (source.start_time.value + math.floor(k * speed)) / rate]
                  for k in range(length)]
    print(json.dumps(shown))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        make(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "frames":
        frames(sys.argv[2])
    else:
        sys.exit(__doc__)
