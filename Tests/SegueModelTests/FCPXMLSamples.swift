/// FCPXML as Final Cut Pro writes it (1.11 and 1.8), for FCPXMLParseTests.
enum FCPXMLSamples {
    /// 1.11 at 23.976, starting at 01:00:00:00: asset-clip A on the
    /// primary storyline with B connected above it (half size, top right)
    /// and music below it (-6 dB); a dissolve into a compound clip; a gap
    /// with a title on it. Frame f is written f×1001/24000 s.
    static let v111 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE fcpxml>
        <fcpxml version="1.11">
          <resources>
            <format id="r1" name="FFVideoFormat1080p2398" frameDuration="1001/24000s" width="1920" height="1080" colorSpace="1-1-1 (Rec. 709)"/>
            <asset id="r2" name="A" uid="A1" start="86486400/24000s" duration="2402400/24000s" hasVideo="1" format="r1" hasAudio="1" audioSources="1" audioChannels="2" audioRate="48000">
              <media-rep kind="original-media" sig="A1" src="file:///media/A.mov"/>
            </asset>
            <asset id="r3" name="B" start="0s" duration="2402400/24000s" hasVideo="1" format="r1" hasAudio="0">
              <media-rep kind="original-media" src="file:///media/B.mov"/>
            </asset>
            <asset id="r4" name="Music" start="0s" duration="600s" hasAudio="1" audioSources="1" audioChannels="2" audioRate="48000">
              <media-rep kind="original-media" src="file:///media/music.wav"/>
            </asset>
            <asset id="r5" name="C" start="0s" duration="2402400/24000s" hasVideo="1" format="r1" hasAudio="0">
              <media-rep kind="original-media" src="file:///media/C.mov"/>
            </asset>
            <media id="r6" name="Compound" uid="M1">
              <sequence format="r1" duration="72072/24000s" tcStart="0s" tcFormat="NDF" audioLayout="stereo" audioRate="48k">
                <spine>
                  <asset-clip ref="r5" offset="0s" name="C" start="240240/24000s" duration="72072/24000s" tcFormat="NDF"/>
                </spine>
              </sequence>
            </media>
            <effect id="r7" name="Cross Dissolve" uid="FxPlug:4731E73A-8DAC-4113-9A30-AE85B1761265"/>
            <effect id="r8" name="Basic Title" uid=".../Titles.localized/Bumper:Opener.localized/Basic Title.localized/Basic Title.moti"/>
          </resources>
          <library location="file:///Users/editor/Movies/Untitled.fcpbundle/">
            <event name="Day 1" uid="E1">
              <project name="Cut" uid="P1" modDate="2024-05-01 10:00:00 +0000">
                <sequence format="r1" duration="168168/24000s" tcStart="86486400/24000s" tcFormat="NDF" audioLayout="stereo" audioRate="48k">
                  <spine>
                    <asset-clip ref="r2" offset="86486400/24000s" name="A" start="86510424/24000s" duration="96096/24000s" tcFormat="NDF" audioRole="dialogue">
                      <asset-clip ref="r3" lane="1" offset="86522436/24000s" name="B" start="0s" duration="24024/24000s">
                        <adjust-transform position="44.4444 25" scale="0.5 0.5"/>
                      </asset-clip>
                      <asset-clip ref="r4" lane="-1" offset="86510424/24000s" name="Music" start="0s" duration="96096/24000s" audioRole="music">
                        <adjust-volume amount="-6dB"/>
                      </asset-clip>
                      <marker start="86558472/24000s" duration="1001/24000s" value="Half"/>
                    </asset-clip>
                    <transition name="Cross Dissolve" offset="86576490/24000s" duration="12012/24000s">
                      <filter-video ref="r7" name="Cross Dissolve"/>
                    </transition>
                    <ref-clip ref="r6" offset="86582496/24000s" name="Compound" duration="48048/24000s"/>
                    <gap name="Gap" offset="86630544/24000s" start="3600s" duration="24024/24000s">
                      <title ref="r8" lane="1" offset="3600s" name="Lower third" duration="24024/24000s">
                        <text><text-style ref="ts1">Name</text-style></text>
                      </title>
                    </gap>
                  </spine>
                </sequence>
              </project>
            </event>
          </library>
        </fcpxml>
        """

    /// 1.8 at 25 (assets' `src`): a clip wrapping a video with a clip
    /// connected below it; a synchronised clip (camera and recorder); a
    /// clip at half speed (timeMap, conformed from 23.98); a clip whose
    /// conform-rate asks for 29.97 media to be conformed.
    static let v18 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE fcpxml>
        <fcpxml version="1.8">
          <resources>
            <format id="r1" name="FFVideoFormat1080p25" frameDuration="100/2500s" width="1920" height="1080"/>
            <asset id="r2" name="Wrapped" src="file:///media/wrapped.mov" start="0s" duration="100s" hasVideo="1" hasAudio="0" format="r1"/>
            <asset id="r3" name="Under" src="file:///media/under.mov" start="0s" duration="100s" hasVideo="1" hasAudio="0" format="r1"/>
            <asset id="r4" name="Cam" src="file:///media/cam.mov" start="0s" duration="200s" hasVideo="1" hasAudio="0" format="r1"/>
            <asset id="r5" name="Rec" src="file:///media/rec.wav" start="0s" duration="200s" hasVideo="0" hasAudio="1"/>
            <asset id="r6" name="Slow" src="file:///media/slow.mov" start="0s" duration="100s" hasVideo="1" hasAudio="1" format="r1"/>
            <asset id="r7" name="Conformed" src="file:///media/conformed.mov" start="0s" duration="100s" hasVideo="1" hasAudio="0" format="r1"/>
          </resources>
          <event name="Shoot">
            <project name="Sample 1.8">
              <sequence format="r1" duration="165/25s" tcFormat="NDF">
                <spine>
                  <clip name="Wrapped" offset="0s" duration="2s" start="10s" format="r1" tcFormat="NDF">
                    <video ref="r2" offset="10s" start="20s" duration="100s"/>
                    <asset-clip ref="r3" lane="-1" offset="11s" name="Under" start="0s" duration="1s"/>
                  </clip>
                  <sync-clip name="Synced" offset="2s" duration="40/25s" start="5s" format="r1" tcFormat="NDF">
                    <asset-clip ref="r4" offset="5s" name="Cam" start="100s" duration="80/25s"/>
                    <audio ref="r5" lane="-1" offset="5s" name="Rec" start="0s" duration="80/25s" role="dialogue"/>
                    <sync-source sourceID="storyline"/>
                  </sync-clip>
                  <asset-clip ref="r6" offset="90/25s" name="Slow" start="0s" duration="2s">
                    <conform-rate srcFrameRate="23.98"/>
                    <timeMap>
                      <timept time="0s" value="50s" interp="linear"/>
                      <timept time="4s" value="52s" interp="linear"/>
                    </timeMap>
                  </asset-clip>
                  <asset-clip ref="r7" offset="140/25s" name="Conformed" start="0s" duration="1s">
                    <conform-rate scaleEnabled="1" srcFrameRate="29.97"/>
                  </asset-clip>
                </spine>
              </sequence>
            </project>
          </event>
        </fcpxml>
        """
}
