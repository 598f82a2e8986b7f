import Foundation
import Synchronization
import SegueModel
internal import SegueMedia

/// A `ColourMapping` as a 3D LUT in the .cube format, for libavfilter's
/// `lut3d`, written once per process into a private folder under the system
/// temporary folder and named by the mapping's key, so every clip (and every
/// process) with the same conversion reads the same file.
enum ColourLUT {
    /// Points per side: tetrahedral interpolation between 33 points keeps
    /// these smooth curves within a 10-bit code, and the file parses fast.
    static let size = 33

    /// The .cube text: red changes fastest; values with six decimals, so the
    /// same mapping always gives the same bytes.
    static func cube(_ mapping: ColourMapping, size: Int = size) -> String {
        precondition(size >= 2, "a LUT of at least 2 points a side")
        var text = "TITLE \"segue \(mapping.key)\"\nLUT_3D_SIZE \(size)\n"
        text.reserveCapacity(text.utf8.count + size * size * size * 27)
        let step = 1 / Double(size - 1)
        for blue in 0..<size {
            for green in 0..<size {
                for red in 0..<size {
                    let out = mapping.map(RGB(Double(red) * step, Double(green) * step, Double(blue) * step))
                    text += "\(decimal(out.r)) \(decimal(out.g)) \(decimal(out.b))\n"
                }
            }
        }
        return text
    }

    /// `value` (clamped to 0...1) with six decimals, e.g. "0.501234".
    private static func decimal(_ value: Double) -> String {
        let millionths = Int((min(max(value, 0), 1) * 1_000_000).rounded())
        if millionths == 1_000_000 { return "1.000000" }
        let digits = String(millionths)
        return "0." + String(repeating: "0", count: 6 - digits.count) + digits
    }

    private static let written = Mutex<[String: String]>([:])

    /// The path of the mapping's .cube file, written on first use in this
    /// process; nil when no folder can hold it.
    static func file(for mapping: ColourMapping) -> String? {
        written.withLock { paths in
            if let path = paths[mapping.key] { return path }
            guard let folder = privateFolder() else { return nil }
            let path = folder + "/\(mapping.key)-\(size).cube"
            let data = Data(cube(mapping).utf8)
            // Another process may have written it already: the same bytes.
            if FileManager.default.contents(atPath: path) != data {
                // Written beside and renamed into place, so no reader sees half a file.
                guard (try? data.write(to: URL(fileURLWithPath: path), options: .atomic)) != nil else { return nil }
            }
            paths[mapping.key] = path
            return path
        }
    }

    /// `segue-colour-<uid>` in the temporary folder (a plain path, so the
    /// filter description needs no escaping), made readable by this user
    /// alone; a folder of that name that isn't this user's own private
    /// directory is not trusted, and a fresh one of this process is used instead.
    private static func privateFolder() -> String? {
        let temporary = NSTemporaryDirectory()
        let isPlain = !temporary.isEmpty && temporary.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-".unicodeScalars.contains($0))
        }
        let base = (isPlain ? temporary : "/tmp").replacingOccurrences(of: "//", with: "/")
        let user = getuid()
        for name in ["segue-colour-\(user)", "segue-colour-\(user)-\(UUID().uuidString)"] {
            let folder = (base.hasSuffix("/") ? base : base + "/") + name
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                                     attributes: [.posixPermissions: 0o700])
            if isPrivate(folder, owner: user) { return folder }
        }
        return nil
    }

    private static func isPrivate(_ folder: String, owner: uid_t) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: folder),
              attributes[.type] as? FileAttributeType == .typeDirectory,
              (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == owner,
              let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue else { return false }
        return permissions & 0o077 == 0
    }
}
