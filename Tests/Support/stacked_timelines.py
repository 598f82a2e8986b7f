#!/usr/bin/env python3
"""Timelines of several video tracks and nested stacks, made and read by
OpenTimelineIO and its FCP 7 XML adapter: the judge of how Segue stacks an
editor's tracks (EditTimeline.stackTracks).

usage (with .build/pyenv/bin/python3, which Scripts/setup makes):
  stacked_timelines.py make DIR     writes NAME.otio and NAME.xml for each case into DIR, and
                                    NAME.frames.json: what each record frame of the case shows
  stacked_timelines.py frames FILE  prints what each record frame of FILE shows, as OTIO reads it

What a frame shows: {"rate": r, "frames": [[layer, ...], ...]}, one list per
record frame at the timeline's rate, its visible layers top-most first (so
the first is what is seen): a clip {"name", "url", "source"} (the media time
it shows, in seconds), a generator {"generator": kind, "name"}, or a nested
stack OTIO read without its contents {"nested": name, "frame": its frame}.
Gaps, disabled items and disabled tracks show nothing; an enabled nested
stack shows its own tracks' layers in its place; a speed change
(LinearTimeWarp, FreezeFrame) picks frame floor(k x speed) of what it plays.
Transitions lie across cuts and take no frame here.

The FCP 7 XML adapter (1.0.0) neither writes nor reads <enabled>, writes no
speed for a nested stack, and reads a nested sequence as a Stack without its
tracks: `make` writes the XML's <enabled> elements and a nested stack's Time
Remap itself, `frames` applies an xmeml file's <enabled> to what the adapter
read, and each case's frames come from the timeline it was made from.
"""
import json
import math
import sys
import xml.etree.ElementTree as ElementTree

import opentimelineio as otio

RT = otio.opentime.RationalTime
TR = otio.opentime.TimeRange
RATE = 24


def clip(name, start, duration, effect=None, enabled=True):
    reference = otio.schema.ExternalReference(
        target_url=f"/media/{name.lower()}.mov", available_range=TR(RT(0, RATE), RT(100000, RATE)))
    item = otio.schema.Clip(name=name, media_reference=reference, source_range=TR(RT(start, RATE), RT(duration, RATE)))
    item.enabled = enabled
    if effect is not None:
        item.effects.append(effect)
    return item


def gap(duration):
    return otio.schema.Gap(source_range=TR(RT(0, RATE), RT(duration, RATE)))


def dissolve(before, after):
    return otio.schema.Transition(transition_type=otio.schema.TransitionTypes.SMPTE_Dissolve,
                                  in_offset=RT(before, RATE), out_offset=RT(after, RATE))


def track(name, children, enabled=True):
    result = otio.schema.Track(name=name, kind=otio.schema.TrackKind.Video)
    for child in children:
        result.append(child)
    result.enabled = enabled
    return result


def stack(name, tracks, start=None, duration=None, effect=None):
    result = otio.schema.Stack(name=name)
    for child in tracks:
        result.append(child)
    if start is not None:
        result.source_range = TR(RT(start, RATE), RT(duration, RATE))
    if effect is not None:
        result.effects.append(effect)
    return result


def timeline(name, tracks):
    result = otio.schema.Timeline(name=name)
    for child in tracks:
        result.tracks.append(child)
    return result


def cases():
    """Layers: V1 one long clip, V2 two clips with a gap between and a disabled one, V3 disabled.
    Nested: a stack with in and out over V1, one at 2x, a frozen one; tracks directly inside a track.
    Joins: dissolves on V1 and an upper track's fades from and to its gaps."""
    yield "layers", timeline("Layers", [
        track("V1", [clip("Long", 1000, 240)]),
        track("V2", [gap(24), clip("Over", 100, 48), gap(48), clip("Again", 300, 36), clip("Off", 400, 24, enabled=False)]),
        track("V3", [gap(60), clip("Hidden", 500, 100)], enabled=False),
    ])
    inner = [track("T1", [clip("X", 0, 50), clip("Y", 200, 50)]), track("T2", [gap(30), clip("Z", 300, 30)])]
    yield "nested", timeline("Nested", [
        track("V1", [clip("Base", 2000, 300)]),
        track("V2", [gap(20), stack("inner", inner, start=10, duration=60), gap(10),
                     stack("fast", [track("F", [clip("Quick", 600, 45), clip("Quicker", 700, 45)])], start=3, duration=31,
                           effect=otio.schema.LinearTimeWarp(time_scalar=2.0)),
                     gap(10), stack("held", [track("H", [clip("Still", 800, 40)])], start=5, duration=20,
                                    effect=otio.schema.FreezeFrame())]),
    ])
    # The xmeml adapter can't write a track directly inside a track: OTIO only.
    yield "trackintrack", timeline("Track in track", [
        track("V1", [clip("Under", 3000, 100)]),
        track("V2", [gap(10), track("one", [clip("Alone", 900, 40)]), gap(10), track("cut", [gap(5), clip("Part", 950, 40)])]),
    ])
    yield "joins", timeline("Joins", [
        track("V1", [clip("A", 100, 96), dissolve(6, 6), clip("B", 200, 96)]),
        track("V2", [gap(40), dissolve(0, 8), clip("Up", 300, 60), dissolve(8, 0), gap(40)]),
        track("V3", [gap(90), clip("Cover", 400, 12)]),
    ])


def speed_of(item):
    scalar = 1.0
    for effect in item.effects:
        if isinstance(effect, otio.schema.FreezeFrame):
            scalar = 0.0
        elif isinstance(effect, otio.schema.LinearTimeWarp):
            scalar *= effect.time_scalar
    return scalar


def layers_of_item(item, frame, rate):
    """The layers `item` shows at `frame` of its own record length (a whole frame at `rate`)."""
    if isinstance(item, otio.schema.Gap) or not item.enabled:
        return []
    start = item.trimmed_range().start_time
    played = math.floor(frame * speed_of(item) + 1e-9)
    if isinstance(item, otio.schema.Clip):
        reference = item.media_reference
        if isinstance(reference, otio.schema.GeneratorReference):
            return [{"generator": reference.generator_kind, "name": item.name}]
        return [{"name": item.name, "url": getattr(reference, "target_url", None),
                 "source": start.to_seconds() + played / rate}]
    local = start + RT(played, rate)
    if isinstance(item, otio.schema.Stack):
        if len(item) == 0:
            return [{"nested": item.name, "frame": round(local.to_seconds() * rate)}]
        return layers_of_stack(item, local, rate)
    if isinstance(item, otio.schema.Track):
        return layers_of_track(item, local, rate)
    return []


def layers_of_track(track_, time, rate):
    for child in track_:
        if isinstance(child, otio.schema.Transition):
            continue
        span = track_.range_of_child(child)
        if span.start_time <= time < span.end_time_exclusive():
            return layers_of_item(child, round((time - span.start_time).to_seconds() * rate), rate)
    return []


def layers_of_stack(stack_, time, rate):
    result = []
    for child in reversed(list(stack_)):
        if isinstance(child, otio.schema.Track) and child.kind != otio.schema.TrackKind.Video:
            continue
        if child.enabled:
            result += layers_of_track(child, time, rate) if isinstance(child, otio.schema.Track) else []
    return result


def frames(made):
    video = [t for t in made.tracks if t.kind == otio.schema.TrackKind.Video]
    # The sequence's rate as the xmeml adapter keeps it (its timecode's), else the first clip's.
    start = made.global_start_time
    rate = start.rate if start is not None else next((item.trimmed_range().duration.rate for t in video for item in t
                                                       if isinstance(item, otio.schema.Clip)), RATE)
    total = round(max(t.duration().to_seconds() for t in video) * rate)
    return {"rate": rate, "frames": [layers_of_stack(made.tracks, RT(k, rate), rate) for k in range(total)]}


def apply_enabled(made, path):
    """The <enabled> of an xmeml file's first sequence's video tracks and their items, on what the adapter read."""
    root = ElementTree.parse(path).getroot()
    sequence = root.find(".//sequence")
    tracks = sequence.findall("./media/video/track")
    video = [t for t in made.tracks if t.kind == otio.schema.TrackKind.Video]
    for element, read in zip(tracks, video):
        if (element.findtext("enabled") or "").strip().upper() == "FALSE":
            read.enabled = False
        items = [e for e in element if e.tag in ("clipitem", "generatoritem")]
        children = [c for c in read if not isinstance(c, (otio.schema.Gap, otio.schema.Transition))]
        for element_item, child in zip(items, children):
            if (element_item.findtext("enabled") or "").strip().upper() == "FALSE":
                child.enabled = False


def complete_xmeml(path, made):
    """Writes into the adapter's xmeml what it leaves out: <enabled>FALSE</enabled> where `made`
    disables a video track or item, and a nested stack's speed as a Time Remap filter."""
    document = ElementTree.parse(path)
    sequence = document.getroot().find(".//sequence")
    video = [t for t in made.tracks if t.kind == otio.schema.TrackKind.Video]
    for element, source in zip(sequence.findall("./media/video/track"), video):
        if not source.enabled:
            ElementTree.SubElement(element, "enabled").text = "FALSE"
        items = [e for e in element if e.tag in ("clipitem", "generatoritem")]
        children = [c for c in source if not isinstance(c, (otio.schema.Gap, otio.schema.Transition))]
        for element_item, child in zip(items, children):
            if not child.enabled:
                for old in element_item.findall("enabled"):
                    element_item.remove(old)
                ElementTree.SubElement(element_item, "enabled").text = "FALSE"
            if isinstance(child, otio.schema.Stack) and speed_of(child) != 1:
                effect = ElementTree.SubElement(ElementTree.SubElement(element_item, "filter"), "effect")
                ElementTree.SubElement(effect, "name").text = "Time Remap"
                ElementTree.SubElement(effect, "effectid").text = "timeremap"
                parameter = ElementTree.SubElement(effect, "parameter")
                ElementTree.SubElement(parameter, "parameterid").text = "speed"
                ElementTree.SubElement(parameter, "value").text = str(speed_of(child) * 100)
    document.write(path, encoding="UTF-8", xml_declaration=True)


def make(folder):
    for name, made in cases():
        otio.adapters.write_to_file(made, f"{folder}/{name}.otio")
        if name != "trackintrack":
            otio.adapters.write_to_file(made, f"{folder}/{name}.xml", adapter_name="fcp_xml")
            complete_xmeml(f"{folder}/{name}.xml", made)
        with open(f"{folder}/{name}.frames.json", "w") as out:
            json.dump(frames(made), out)


def read_frames(path):
    made = otio.adapters.read_from_file(path)
    if path.endswith(".xml"):
        apply_enabled(made, path)
    print(json.dumps(frames(made)))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        make(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "frames":
        read_frames(sys.argv[2])
    else:
        sys.exit(__doc__)
