#!/usr/bin/env python3
"""Editors' timelines made and read by OpenTimelineIO and its adapters: the
judge of Segue's OTIO, CMX 3600 and FCP 7 XML parsers.

usage (with .build/pyenv/bin/python3, which Scripts/setup makes):
  edit_timelines.py make DIR           writes NAME.otio, NAME.edl, NAME.xml for each case into DIR
  edit_timelines.py dump FILE [RATE]   prints what the package reads from FILE as simple JSON
                                       (RATE: the EDL's frame rate, e.g. 30000/1001)

The dump: the first video track's items in order, each
  {"kind": "clip"|"gap"|"transition", "name", "start", "duration", "url", "before", "after"}
(times in seconds; a clip's start is its source_range's, in the media's own
time), the markers on the record timeline {"name", "time"}, the timeline's
name and global start (seconds, or null).
"""
import json
import sys

import opentimelineio as otio

RT = otio.opentime.RationalTime
TR = otio.opentime.TimeRange


def clip(name, url, start, duration, rate, media_start, media_duration, markers=()):
    reference = otio.schema.ExternalReference(
        target_url=url, available_range=TR(RT(media_start, rate), RT(media_duration, rate)))
    item = otio.schema.Clip(name=name, media_reference=reference,
                            source_range=TR(RT(start, rate), RT(duration, rate)))
    for marker_name, frame in markers:
        item.markers.append(otio.schema.Marker(name=marker_name, marked_range=TR(RT(frame, rate), RT(0, rate))))
    return item


def timed(item, effect):
    item.effects.append(effect)
    return item


def dissolve(before, after, rate):
    return otio.schema.Transition(transition_type=otio.schema.TransitionTypes.SMPTE_Dissolve,
                                  in_offset=RT(before, rate), out_offset=RT(after, rate))


def timeline(name, rate, children, markers=(), start=None):
    track = otio.schema.Track(name="V1", kind=otio.schema.TrackKind.Video)
    for child in children:
        track.append(child)
    for marker_name, frame in markers:
        track.markers.append(otio.schema.Marker(name=marker_name, marked_range=TR(RT(frame, rate), RT(0, rate))))
    result = otio.schema.Timeline(name=name)
    result.tracks.append(track)
    if start is not None:
        result.global_start_time = RT(start, rate)
    return result


def cases():
    """Cuts and a gap at 24; dissolves with unequal offsets at 23.976; drop-frame 29.97 across minutes."""
    hour24 = 86400
    yield "cuts24", 24, timeline("Cuts 24", 24, [
        clip("Intro", "/media/intro.mov", hour24 + 10, 48, 24, hour24, 2400),
        clip("Beach", "/media/beach.mov", hour24 + 100, 72, 24, hour24, 2400, markers=[("wave", hour24 + 124)]),
        otio.schema.Gap(source_range=TR(RT(0, 24), RT(24, 24))),
        clip("Sunset", "/media/sunset.mov", 5, 36, 24, 0, 500),
    ], markers=[("Act two", 120)], start=hour24)
    film = 24000 / 1001
    hour_film = 86400
    yield "dissolves23976", film, timeline("Dissolves 23.976", film, [
        clip("A", "/media/a.mov", hour_film + 200, 96, film, hour_film, 4800),
        dissolve(6, 12, film),
        clip("B", "/media/b.mov", hour_film + 300, 120, film, hour_film, 4800),
        dissolve(0, 10, film),
        clip("C", "/media/c.mov", hour_film + 400, 60, film, hour_film, 4800),
    ], markers=[("Midpoint", 150)], start=hour_film)
    ntsc = 30000 / 1001
    hour_df = 107892  # 01:00:00;00 in drop-frame labels
    yield "dropframe2997", ntsc, timeline("Drop frame 29.97", ntsc, [
        clip("Long", "/media/long.mov", hour_df + 1790, 300, ntsc, hour_df, 36000),
        dissolve(8, 8, ntsc),
        clip("Next", "/media/next.mov", hour_df + 17970, 240, ntsc, hour_df, 36000),
        otio.schema.Gap(source_range=TR(RT(0, ntsc), RT(45, ntsc))),
        clip("Last", "/media/last.mov", hour_df + 60, 90, ntsc, hour_df, 36000),
    ], start=hour_df)


    # Cuts only: the cmx_3600 adapter writes a dissolve into a speed change with another clip's media.
    yield "speeds24", 24, timeline("Speeds 24", 24, [
        timed(clip("Fast", "/media/fast.mov", hour24 + 10, 24, 24, hour24, 2400), otio.schema.LinearTimeWarp(time_scalar=2.0)),
        timed(clip("Slow", "/media/slow.mov", hour24 + 40, 36, 24, hour24, 2400), otio.schema.LinearTimeWarp(time_scalar=0.5)),
        timed(clip("Held", "/media/held.mov", hour24 + 70, 12, 24, hour24, 2400), otio.schema.FreezeFrame()),
    ], start=hour24)


def make(folder):
    for name, rate, made in cases():
        otio.adapters.write_to_file(made, f"{folder}/{name}.otio")
        otio.adapters.write_to_file(made, f"{folder}/{name}.xml", adapter_name="fcp_xml")
        otio.adapters.write_to_file(made, f"{folder}/{name}.edl", adapter_name="cmx_3600", rate=rate)


def seconds(time):
    return time.to_seconds()


def item_dump(item):
    if isinstance(item, otio.schema.Transition):
        return {"kind": "transition", "before": seconds(item.in_offset), "after": seconds(item.out_offset)}
    if isinstance(item, otio.schema.Gap) or not item.enabled or (
            isinstance(item, otio.schema.Clip) and isinstance(item.media_reference, otio.schema.GeneratorReference)):
        return {"kind": "gap", "duration": seconds(item.trimmed_range().duration)}
    url = getattr(item.media_reference, "target_url", None)
    source = item.trimmed_range()
    speed = 1.0
    for effect in item.effects:
        if isinstance(effect, otio.schema.LinearTimeWarp):
            speed *= effect.time_scalar
    return {"kind": "clip", "name": item.name or None, "url": url or None,
            "start": seconds(source.start_time), "duration": seconds(source.duration), "speed": speed}


def dump(path, rate=None):
    if rate and "/" in rate:
        numerator, denominator = rate.split("/")
        rate = int(numerator) / int(denominator)
    kwargs = {"rate": float(rate)} if rate else {}
    result = otio.adapters.read_from_file(path, **kwargs)
    track = next(t for t in result.tracks if t.kind == otio.schema.TrackKind.Video)
    markers = [{"name": m.name, "time": seconds(m.marked_range.start_time)}
               for owner in (result.tracks, track) for m in owner.markers]
    position = 0.0
    for item in track:
        if isinstance(item, otio.schema.Clip):
            source = item.trimmed_range()
            markers += [{"name": m.name, "time": position + seconds(m.marked_range.start_time) - seconds(source.start_time)}
                        for m in item.markers]
        if not isinstance(item, otio.schema.Transition):
            position += seconds(item.trimmed_range().duration)
    start = result.global_start_time
    print(json.dumps({"name": result.name or None, "start": seconds(start) if start is not None else None,
                      "items": [item_dump(item) for item in track],
                      "markers": sorted(markers, key=lambda m: m["time"])}))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        make(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    else:
        sys.exit(__doc__)
