import Foundation

/// A file's size, read one way everywhere: nil when the file can't be read
/// (missing, no permission), so each caller says what that means for it.
package enum FileSize {
    package static func bytes(atPath path: String) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue
    }
}
