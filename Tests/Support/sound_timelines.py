#!/usr/bin/env python3
"""Editors' timelines with sound tracks, written by OpenTimelineIO and its
fcp_xml adapter, for Segue's timeline-sound tests.

usage (with .build/pyenv/bin/python3):
  sound_timelines.py jl OUT.otio A B M N    the J/L-cut and crossfade timeline (below) as OTIO
  sound_timelines.py xml IN.otio OUT.xml    the same timeline through the fcp_xml adapter
  sound_timelines.py speed OUT.otio A C     the "speed" timeline (below) as OTIO

The "jl" timeline, at 24 fps (frames on the record timeline):
  V1: A src 0-16 (rec 0-16), B src 12-28 (rec 16-32), A src 30-46 (rec 32-48)
  A1: A src 0-20 (rec 0-20: an L cut, A heard 4 frames past its picture),
      B src 16-24 (rec 20-28), A src 26-42 (rec 28-44: a J cut, A heard 4
      frames before its picture), then silence
  A2: gap 12, M src 24-36 (rec 12-24) at -6 dB, a 3+3 frame dissolve,
      N src 6-18 (rec 24-36), gap 12

The "speed" timeline, at 24 fps: V1: A src 0-48 (rec 0-48);
  A1: C src 24 at 2x (rec 0-24, C's 1 s to 3 s), C src 60 at 0.5x
      (rec 24-36, 2.5 s to 2.75 s), C src 84 frozen (rec 36-42), gap 6
"""
import sys

import opentimelineio as otio

RT = otio.opentime.RationalTime
TR = otio.opentime.TimeRange
RATE = 24


def clip(name, url, start, duration, media_frames, level_db=None):
    reference = otio.schema.ExternalReference(target_url=url, available_range=TR(RT(0, RATE), RT(media_frames, RATE)))
    item = otio.schema.Clip(name=name, media_reference=reference, source_range=TR(RT(start, RATE), RT(duration, RATE)))
    if level_db is not None:
        # As the fcp_xml adapter keeps an xmeml Audio Levels filter (a linear gain).
        item.effects.append(otio.schema.Effect(name="Audio Levels", metadata={"fcp_xml": {
            "effectid": "audiolevels", "effecttype": "audiolevels", "mediatype": "audio", "effectcategory": "audiolevels",
            "parameter": {"parameterid": "level", "name": "Level", "valuemin": "0", "valuemax": "3.98109",
                          "value": str(10 ** (level_db / 20))}}}))
    return item


def gap(frames):
    return otio.schema.Gap(source_range=TR(RT(0, RATE), RT(frames, RATE)))


def dissolve(before, after):
    return otio.schema.Transition(transition_type=otio.schema.TransitionTypes.SMPTE_Dissolve,
                                  in_offset=RT(before, RATE), out_offset=RT(after, RATE))


def track(name, kind, children):
    result = otio.schema.Track(name=name, kind=kind)
    for child in children:
        result.append(child)
    return result


def jl(a, b, m, n):
    video = track("V1", otio.schema.TrackKind.Video, [
        clip("A", a, 0, 16, 48), clip("B", b, 12, 16, 48), clip("A again", a, 30, 16, 48)])
    a1 = track("A1", otio.schema.TrackKind.Audio, [
        clip("A", a, 0, 20, 48), clip("B", b, 16, 8, 48), clip("A again", a, 26, 16, 48)])
    a2 = track("A2", otio.schema.TrackKind.Audio, [
        gap(12), clip("M", m, 24, 12, 96, level_db=-6), dissolve(3, 3), clip("N", n, 6, 12, 48), gap(12)])
    timeline = otio.schema.Timeline(name="J and L cuts")
    for item in (video, a1, a2):
        timeline.tracks.append(item)
    return timeline


def speed(a, c):
    video = track("V1", otio.schema.TrackKind.Video, [clip("A", a, 0, 48, 48)])
    fast, slow, frozen = clip("C 2x", c, 24, 24, 96), clip("C 0.5x", c, 60, 12, 96), clip("C frozen", c, 84, 6, 96)
    fast.effects.append(otio.schema.LinearTimeWarp(time_scalar=2.0))
    slow.effects.append(otio.schema.LinearTimeWarp(time_scalar=0.5))
    frozen.effects.append(otio.schema.FreezeFrame())
    a1 = track("A1", otio.schema.TrackKind.Audio, [fast, slow, frozen, gap(6)])
    timeline = otio.schema.Timeline(name="Sound at another speed")
    for item in (video, a1):
        timeline.tracks.append(item)
    return timeline


def main(argv):
    if len(argv) == 7 and argv[1] == "jl":
        otio.adapters.write_to_file(jl(*argv[3:7]), argv[2])
    elif len(argv) == 5 and argv[1] == "speed":
        otio.adapters.write_to_file(speed(*argv[3:5]), argv[2])
    elif len(argv) == 4 and argv[1] == "xml":
        otio.adapters.write_to_file(otio.adapters.read_from_file(argv[2]), argv[3], adapter_name="fcp_xml")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
