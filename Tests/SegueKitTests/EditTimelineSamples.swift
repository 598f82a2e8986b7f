/// Timelines written by hand the way editors export them, for EditTimelineParseTests.
enum EditSamples {
    /// xmeml as Premiere writes it: a DOCTYPE, NTSC 30, a sequence timecode, a
    /// second clip naming its file by id only, transitions aligned at their end and start,
    /// a hole, a sequence marker, a second video track, audio, entities and CDATA.
    static let premiereXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE xmeml>
        <xmeml version="4">
          <!-- exported by hand -->
          <sequence id="sequence-1">
            <name>Premiere &amp; friends</name>
            <rate><timebase>30</timebase><ntsc>TRUE</ntsc></rate>
            <timecode><rate><timebase>30</timebase><ntsc>TRUE</ntsc></rate><string>01:00:00;00</string><frame>107892</frame><displayformat>DF</displayformat></timecode>
            <marker><name>Chorus</name><in>75</in><out>-1</out></marker>
            <media>
              <video>
                <track>
                  <clipitem id="clipitem-1">
                    <name><![CDATA[Opening <wide>]]></name>
                    <start>0</start><end>-1</end><in>30</in><out>115</out>
                    <file id="file-1">
                      <name>a b.mov</name>
                      <pathurl>file://localhost/media/a%20b.mov</pathurl>
                      <rate><timebase>30</timebase><ntsc>TRUE</ntsc></rate>
                      <duration>900</duration>
                      <timecode><rate><timebase>30</timebase><ntsc>TRUE</ntsc></rate><string>00:00:10;00</string><frame>300</frame><displayformat>DF</displayformat></timecode>
                    </file>
                    <filter><effect><name>Basic Motion</name><effectid>basic</effectid></effect></filter>
                  </clipitem>
                  <transitionitem>
                    <start>70</start><end>90</end><alignment>end</alignment>
                    <effect><name>Cross Dissolve</name><effectid>Cross Dissolve</effectid></effect>
                  </transitionitem>
                  <clipitem id="clipitem-2">
                    <name>Second</name>
                    <start>-1</start><end>150</end><in>400</in><out>480</out>
                    <file id="file-1"/>
                  </clipitem>
                  <clipitem id="clipitem-3">
                    <name>After the hole</name>
                    <start>180</start><end>240</end><in>0</in><out>60</out>
                    <file id="file-2"><name>c.mov</name><pathurl>file://localhost/media/c.mov</pathurl><duration>600</duration></file>
                  </clipitem>
                  <transitionitem>
                    <start>240</start><end>250</end><alignment>start</alignment>
                    <effect><name>Dip to White</name><effectid>Dip to White</effectid></effect>
                  </transitionitem>
                  <clipitem id="clipitem-4">
                    <name>From the start</name>
                    <start>-1</start><end>300</end><in>100</in><out>160</out>
                    <file id="file-2"/>
                  </clipitem>
                </track>
                <track>
                  <clipitem id="clipitem-9"><name>Title</name><start>0</start><end>30</end><in>0</in><out>30</out><file id="file-1"/></clipitem>
                </track>
              </video>
              <audio><track><clipitem id="clipitem-20"><name>a b.mov</name><start>0</start><end>90</end><in>30</in><out>120</out><file id="file-1"/></clipitem></track></audio>
            </media>
          </sequence>
        </xmeml>
        """

    /// OTIO with a Clip.2 (media_references), a clip without source_range,
    /// 23.976 written as a float, a second video track, an audio track and global_start_time.
    static let clip2OTIO = """
        {"OTIO_SCHEMA": "Timeline.1", "name": "Clip two", "metadata": {},
         "global_start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 86400},
         "tracks": {"OTIO_SCHEMA": "Stack.1", "name": "tracks", "metadata": {}, "source_range": null, "effects": [], "markers": [], "enabled": true,
          "children": [
           {"OTIO_SCHEMA": "Track.1", "name": "V1", "kind": "Video", "metadata": {}, "source_range": null, "effects": [], "enabled": true,
            "markers": [{"OTIO_SCHEMA": "Marker.2", "name": "beat", "metadata": {}, "color": "GREEN", "comment": "",
                         "marked_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 30},
                                          "duration": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 0}}}],
            "children": [
             {"OTIO_SCHEMA": "Clip.2", "name": "two refs", "metadata": {}, "effects": [], "markers": [], "enabled": true,
              "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 12},
                               "duration": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 48}},
              "active_media_reference_key": "HIGH",
              "media_references": {
                "DEFAULT_MEDIA": {"OTIO_SCHEMA": "ExternalReference.1", "name": "", "metadata": {}, "available_range": null, "target_url": "/proxy/a.mp4"},
                "HIGH": {"OTIO_SCHEMA": "ExternalReference.1", "name": "", "metadata": {}, "available_range": null, "target_url": "/high/a.mov"}}},
             {"OTIO_SCHEMA": "Transition.1", "name": "mix", "metadata": {}, "transition_type": "SMPTE_Dissolve",
              "in_offset": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 4}, "out_offset": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 8}},
             {"OTIO_SCHEMA": "Clip.1", "name": "whole file", "metadata": {}, "effects": [], "markers": [], "enabled": true, "source_range": null,
              "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "name": "", "metadata": {}, "target_url": "/media/b.mov",
                "available_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 1000},
                                    "duration": {"OTIO_SCHEMA": "RationalTime.1", "rate": 23.976, "value": 72}}}}]},
           {"OTIO_SCHEMA": "Track.1", "name": "V2", "kind": "Video", "metadata": {}, "source_range": null, "effects": [], "markers": [], "enabled": true, "children": []},
           {"OTIO_SCHEMA": "Track.1", "name": "A1", "kind": "Audio", "metadata": {}, "source_range": null, "effects": [], "markers": [], "enabled": true, "children": []}]}}
        """
}
