import Foundation
internal import SegueMedia
import SegueModel

/// The font captions and text cards are drawn in (`--font`): a TrueType or
/// OpenType file, opened through the input policy like every local input, and
/// the name libass finds that one face by.
package struct FontFile: Equatable {
    /// The file's real path (symlinks resolved), as opened.
    let path: String
    /// Its full name ("DejaVu Sans Bold"), from the font's own name table:
    /// libass picks the face whose full name matches before any by family,
    /// so a bold or condensed file is drawn as itself.
    let family: String

    /// Debian's fonts-dejavu-core, installed by Scripts/setup.
    static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// The most a font file may hold (a CJK font with every weight is ~20 MB).
    static let maxBytes = 64 << 20

    /// The font `path` names, or with nil the default (DejaVu Sans, else the
    /// sans-serif font fontconfig gives); throws the `BadInputReason` it can't be used for.
    static func open(_ path: String?, access: InputAccess) throws -> FontFile {
        // The default font is the system's, not the user's: the input roots don't confine it.
        let local: String
        if let path {
            guard case .file(let file) = try access.location(of: path) else { throw BadInputReason.notAFont }
            local = file
        } else {
            local = systemSans()
        }
        guard FileManager.default.fileExists(atPath: local) else { throw BadInputReason.noSuchFile }
        let file = path == nil ? try LocalFile(path: local) : try access.openFile(local)
        guard file.size > 0 else { throw BadInputReason.emptyFile }
        guard let bytes = file.contents(limit: maxBytes), let family = family(in: [UInt8](bytes)) else {
            throw BadInputReason.notAFont
        }
        return FontFile(path: file.resolvedPath, family: family)
    }

    /// Why the font `path` (nil: the default) can't be used, as the bad input that names it; nil when it can.
    package static func check(_ path: String?, access: InputAccess) -> BadInput? {
        do {
            _ = try open(path, access: access)
            return nil
        } catch let reason as BadInputReason {
            return BadInput(path: path ?? systemSans(), cause: .font(reason))
        } catch LocalFile.OpenFailure.notRegularFile {
            return BadInput(path: path ?? systemSans(), cause: .font(.notRegularFile))
        } catch {
            return BadInput(path: path ?? systemSans(), cause: .font(.cantOpen("\(error)")))
        }
    }

    /// DejaVu Sans when installed, else what `fc-match sans-serif` names.
    static func systemSans() -> String {
        if FileManager.default.isReadableFile(atPath: defaultPath) { return defaultPath }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fc-match")
        process.arguments = ["--format=%{file}", "sans-serif"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return defaultPath }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let found = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !found.isEmpty ? found : defaultPath
    }

    /// The name of an sfnt (TrueType, OpenType, the first font of a
    /// collection) in its `name` table as libass matches it: the full name
    /// (name 4), else the family (name 1); Windows (UTF-16BE) records first.
    static func family(in bytes: [UInt8]) -> String? {
        func u16(_ at: Int) -> Int? { at >= 0 && at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(at), let low = u16(at + 2) else { return nil }
            return high << 16 | low
        }
        var font = 0
        if bytes.starts(with: Array("ttcf".utf8)) { guard let first = u32(12) else { return nil }; font = first }
        guard let tag = u32(font), [0x0001_0000, 0x4F54_544F, 0x7472_7565].contains(tag), let tables = u16(font + 4) else {
            return nil // not 1.0, 'OTTO' nor 'true'
        }
        var nameTable: Int?
        for index in 0..<tables {
            let record = font + 12 + 16 * index
            if bytes.count >= record + 16, String(decoding: bytes[record..<record + 4], as: UTF8.self) == "name" {
                nameTable = u32(record + 8)
            }
        }
        guard let table = nameTable, let count = u16(table + 2), let storage = u16(table + 4) else { return nil }
        var found: [Int: String] = [:] // keyed by preference, lower first
        for index in 0..<count {
            let record = table + 6 + 12 * index
            guard let platform = u16(record), let encoding = u16(record + 2), let nameID = u16(record + 6),
                  let length = u16(record + 8), let offset = u16(record + 10), nameID == 4 || nameID == 1 else { continue }
            let start = table + storage + offset
            guard start + length <= bytes.count else { continue }
            let raw = Array(bytes[start..<start + length])
            let text: String?
            if platform == 3 || platform == 0 {
                text = String(bytes: raw, encoding: .utf16BigEndian)
            } else if platform == 1, encoding == 0 {
                text = String(bytes: raw, encoding: .macOSRoman)
            } else {
                text = nil
            }
            guard let text, !text.isEmpty else { continue }
            let preference = (nameID == 4 ? 0 : 3) + (platform == 3 ? 0 : platform == 0 ? 1 : 2)
            if found[preference] == nil { found[preference] = text }
        }
        return found.min { $0.key < $1.key }?.value
    }
}
