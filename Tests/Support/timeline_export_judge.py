"""Reads a timeline Segue exported with the format's own reader and prints
what it holds as JSON, for XMEMLExportTests and EDLExportTests.

  xmeml PATH            the first sequence, read by otio-fcp-adapter
  edl PATH NUM DEN      the EDL at NUM/DEN fps, read by otio-cmx3600-adapter
  links PATH            every clipitem of an xmeml file with its links and
                        the track rates, read with ElementTree (no reader
                        follows links; this only lists what the file says)

Each track prints as a list of items in record order: clips (name, target
url, source start and duration as frame values at the track's rate, speed
effects), gaps, generators and transitions (in and out offsets in frames).
"""

import json
import sys
import xml.etree.ElementTree as ElementTree

import opentimelineio as otio


def frames(time, rate):
    return round(time.rescaled_to(rate).value, 6)


def item_json(item, rate):
    if isinstance(item, otio.schema.Transition):
        return {
            "kind": "transition",
            "name": item.name,
            "type": item.transition_type,
            "in": frames(item.in_offset, rate),
            "out": frames(item.out_offset, rate),
            "cmx": item.metadata.get("cmx_3600", {}).get("transition"),
        }
    if isinstance(item, otio.schema.Gap):
        return {"kind": "gap", "duration": frames(item.source_range.duration, rate)}
    reference = item.media_reference
    source = item.source_range
    if isinstance(reference, otio.schema.GeneratorReference):
        return {
            "kind": "generator",
            "generator": reference.generator_kind,
            "name": item.name,
            "duration": frames(source.duration, rate),
        }
    effects = [type(effect).__name__ + ":" + str(getattr(effect, "time_scalar", "")) for effect in item.effects]
    return {
        "kind": "clip",
        "name": item.name,
        "url": getattr(reference, "target_url", None),
        "start": frames(source.start_time, rate),
        "duration": frames(source.duration, rate),
        "reel": item.metadata.get("cmx_3600", {}).get("reel"),
        "effects": effects,
    }


def timeline_json(timeline, rate):
    tracks = []
    for track in timeline.tracks:
        tracks.append({
            "name": track.name,
            "kind": track.kind,
            "items": [item_json(item, rate) for item in track],
        })
    start = timeline.global_start_time
    markers = [
        {"name": marker.name, "at": frames(marker.marked_range.start_time, rate)}
        for marker in timeline.tracks.markers
    ]
    return {
        "name": timeline.name,
        "rate": rate,
        "start": frames(start, rate) if start is not None else None,
        "tracks": tracks,
        "markers": markers,
    }


def read_xmeml(path):
    timeline = otio.adapters.read_from_file(path, adapter_name="fcp_xml")
    if isinstance(timeline, otio.schema.SerializableCollection):
        timeline = timeline[0]
    video = timeline.video_tracks()[0]
    first = next(item for item in video if isinstance(item, otio.schema.Clip))
    return timeline_json(timeline, first.source_range.duration.rate)


def read_edl(path, numerator, denominator):
    rate = float(numerator) / float(denominator)
    timeline = otio.adapters.read_from_file(path, adapter_name="cmx_3600", rate=rate)
    return timeline_json(timeline, rate)


def text(element, path):
    found = element.find(path)
    return None if found is None or found.text is None else found.text


def rate_json(element):
    rate = element.find("rate")
    if rate is None:
        return None
    return {"timebase": text(rate, "timebase"), "ntsc": text(rate, "ntsc")}


def read_links(path):
    root = ElementTree.parse(path).getroot()
    sequence = root.find("sequence")
    items = []
    for kind in ("video", "audio"):
        for number, track in enumerate(sequence.findall("media/%s/track" % kind), start=1):
            index = 0
            for element in track:
                if element.tag not in ("clipitem", "generatoritem", "transitionitem"):
                    continue
                if element.tag != "transitionitem":
                    index += 1
                if element.tag != "clipitem":
                    continue
                items.append({
                    "id": element.get("id"),
                    "mediatype": kind,
                    "track": number,
                    "clipindex": index,
                    "exploded": track.get("currentExplodedTrackIndex"),
                    "sourcetrack": text(element, "sourcetrack/trackindex"),
                    "start": text(element, "start"),
                    "end": text(element, "end"),
                    "rate": rate_json(element),
                    "links": [{
                        "ref": text(link, "linkclipref"),
                        "mediatype": text(link, "mediatype"),
                        "track": text(link, "trackindex"),
                        "clipindex": text(link, "clipindex"),
                    } for link in element.findall("link")],
                })
    return {
        "version": root.get("version"),
        "sequence_rate": rate_json(sequence),
        "timecode_rate": rate_json(sequence.find("timecode")),
        "timecode": text(sequence, "timecode/string"),
        "displayformat": text(sequence, "timecode/displayformat"),
        "width": text(sequence, "media/video/format/samplecharacteristics/width"),
        "height": text(sequence, "media/video/format/samplecharacteristics/height"),
        "files": len([f for f in root.iter("file") if len(f) > 0]),
        "file_refs": len([f for f in root.iter("file") if len(f) == 0]),
        "clipitems": items,
    }


def main():
    command = sys.argv[1]
    if command == "xmeml":
        result = read_xmeml(sys.argv[2])
    elif command == "edl":
        result = read_edl(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "links":
        result = read_links(sys.argv[2])
    else:
        raise SystemExit("unknown command " + command)
    json.dump(result, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
