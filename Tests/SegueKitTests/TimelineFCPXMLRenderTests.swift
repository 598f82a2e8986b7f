import Foundation
import XCTest
@testable import SegueModel

/// An FCPXML project rendered by the `segue` binary: a clip connected on
/// lane 1 covers the primary storyline's clip for its length, frame-exact.
extension TimelineRenderTests {
    /// Frame f at 23.976 as FCPXML writes it.
    private func fcpxTime(_ frames: Int) -> String { "\(frames * 1001)/24000s" }

    func testAnFCPXMLProjectRendersItsConnectedClipOverThePrimaryStoryline() throws {
        let (a, b, _) = try filmMedia()
        let folder = store.folder.appendingPathComponent("tl-fcpx-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let aStart = Int(Self.aStart), bStart = Int(Self.bStart)
        let project = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE fcpxml>
            <fcpxml version="1.10">
              <resources>
                <format id="r1" frameDuration="1001/24000s" width="320" height="180"/>
                <asset id="ra" name="A" start="\(fcpxTime(aStart))" duration="\(fcpxTime(48))" hasVideo="1" hasAudio="0" format="r1">
                  <media-rep kind="original-media" src="file://\(a)"/>
                </asset>
                <asset id="rb" name="B" start="\(fcpxTime(bStart))" duration="\(fcpxTime(48))" hasVideo="1" hasAudio="0" format="r1">
                  <media-rep kind="original-media" src="file://\(b)"/>
                </asset>
              </resources>
              <library><event name="E"><project name="Lanes">
                <sequence format="r1" tcStart="0s">
                  <spine>
                    <asset-clip ref="ra" offset="0s" name="A" start="\(fcpxTime(aStart + 5))" duration="\(fcpxTime(20))">
                      <asset-clip ref="rb" lane="1" offset="\(fcpxTime(aStart + 13))" name="B over" start="\(fcpxTime(bStart + 10))" duration="\(fcpxTime(6))"/>
                    </asset-clip>
                    <asset-clip ref="rb" offset="\(fcpxTime(20))" name="B" start="\(fcpxTime(bStart + 20))" duration="\(fcpxTime(12))"/>
                  </spine>
                </sequence>
              </project></event></library>
            </fcpxml>
            """
        try project.write(toFile: folder + "/lanes.fcpxml", atomically: true, encoding: .utf8)
        let output = store.outputPath()
        let result = try Tools.segue(["stitch", folder + "/lanes.fcpxml", "-o", output, "--preset", "ultrafast", "--crf", "12", "--quiet"])
        XCTAssertEqual(result.status, 0, result.standardError)
        assertFrames(try DecodedOutput(path: output), frames(1, 5...12) + frames(2, 10...15) + frames(1, 19...24) + frames(2, 20...31))
        // The same project as a .fcpxmld bundle: its Info.fcpxml is read.
        try FileManager.default.createDirectory(atPath: folder + "/lanes.fcpxmld", withIntermediateDirectories: true)
        try project.write(toFile: folder + "/lanes.fcpxmld/Info.fcpxml", atomically: true, encoding: .utf8)
        let probed = try Tools.segue(["probe", folder + "/lanes.fcpxmld/", "--json"])
        XCTAssertEqual(probed.status, 0, probed.standardError)
        XCTAssertTrue(probed.standardOutput.contains((b as NSString).lastPathComponent), probed.standardOutput)
    }
}
