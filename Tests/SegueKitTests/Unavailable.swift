import Foundation
import XCTest

/// What a test throws when something it needs isn't on this machine (a tool,
/// root, a corpus file): a skip that says why. In CI (`CI=true`) the machine is
/// meant to have everything, so a skip would hide a check that never ran: there
/// it is a failure instead.
func unavailable(_ reason: String, file: StaticString = #filePath, line: UInt = #line) -> Error {
    guard ProcessInfo.processInfo.environment["CI"] == "true" else { return XCTSkip(reason) }
    XCTFail("can't run in CI: \(reason)", file: file, line: line)
    return Unavailable(reason: reason)
}

struct Unavailable: Error, CustomStringConvertible {
    var reason: String
    var description: String { "unavailable: \(reason)" }
}
