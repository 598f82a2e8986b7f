import Foundation
internal import SegueMedia
import SegueInput
import SegueModel
import SegueCore

/// Small PNG strips that show each transition: a user picks by looking, not
/// by guessing from names (`segue transitions --preview DIR`).
public enum TransitionPreview {
    /// Pictures per strip: the steps of a transition that many frames long.
    public static let frames = 5

    /// Writes `NAME.png` into `folder` (made if missing) for every transition
    /// that draws something: `frames` steps of it between two built-in test
    /// pictures of `width` x `height`, side by side. Returns the files written.
    public static func write(into folder: String, width: Int = 192, height: Int = 108) throws -> [String] {
        precondition(width % 2 == 0 && height % 2 == 0 && width > 0 && height > 0, "preview pictures have even sizes")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw SegueError.outputFolder(folder, reason: "can't make the preview folder (\(error.localizedDescription))")
        }
        let outgoing = try colourBars(width: width, height: height)
        let incoming = try rings(width: width, height: height)
        let canvas = Canvas(width: width, height: height, frameRate: Rational(30, 1), sampleRate: OutputAudio.sampleRate)
        var written: [String] = []
        for kind in TransitionCatalogue.pickable {
            let painter = try TransitionPainter(PlannedJoin(index: 0, transition: kind, frameCount: frames), canvas: canvas)
            let steps = try (0..<frames).map { try painter.draw(step: $0, from: outgoing, to: incoming) }
            let path = URL(fileURLWithPath: folder).appendingPathComponent("\(kind.rawValue).png").path
            do {
                try Frame.strip(steps, gap: 4).writePNG(to: path)
            } catch {
                throw SegueError(.writeFailed, subject: path, detail: "can't write the preview (\(error))", underlying: error)
            }
            written.append(path)
        }
        return written
    }

    /// The picture going out: eight colour bars over a grey ramp.
    static func colourBars(width: Int, height: Int) throws -> Frame {
        // White, yellow, cyan, green, magenta, red, blue, black in BT.709 limited-range YUV.
        let bars: [(UInt8, UInt8, UInt8)] = [(235, 128, 128), (219, 16, 138), (188, 154, 16), (173, 42, 26),
                                             (78, 214, 230), (63, 102, 240), (32, 240, 118), (16, 128, 128)]
        return try picture(width: width, height: height) { x, y in
            if y >= height * 3 / 4 { return (UInt8(16 + 219 * x / max(width - 1, 1)), 128, 128) }
            return bars[min(bars.count - 1, x * bars.count / width)]
        }
    }

    /// The picture coming in: orange and blue rings round the centre.
    static func rings(width: Int, height: Int) throws -> Frame {
        let ring = Double(min(width, height)) / 8
        return try picture(width: width, height: height) { x, y in
            let dx = Double(x - width / 2), dy = Double(y - height / 2)
            return Int((dx * dx + dy * dy).squareRoot() / ring) % 2 == 0 ? (141, 59, 189) : (90, 182, 80)
        }
    }

    /// A yuv420p picture whose pixel (x, y) is `colour(x, y)` (chroma from each 2x2 block's top left).
    private static func picture(width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) throws -> Frame {
        let frame = try Frame.video(width: width, height: height)
        var luma = PlaneImage(width: width, height: height, filledWith: 0)
        var blue = PlaneImage(width: width / 2, height: height / 2, filledWith: 128)
        var red = blue
        for y in 0..<height {
            for x in 0..<width {
                let (l, u, v) = colour(x, y)
                luma[x, y] = l
                if x % 2 == 0 && y % 2 == 0 { blue[x / 2, y / 2] = u; red[x / 2, y / 2] = v }
            }
        }
        frame.setPlane(0, to: luma)
        frame.setPlane(1, to: blue)
        frame.setPlane(2, to: red)
        return frame
    }
}
