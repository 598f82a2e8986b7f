import Foundation
import SegueCore

/// FCPXML's attribute values: times as rational seconds (`1001/24000s`,
/// `5s`), number lists (`"0.5 0.5"`), levels in decibels (`-6dB`). Each is
/// refused naming the element and the attribute when it doesn't parse.
enum FCPXMLValues {
    /// Seconds from a time attribute (`N/Ds` or `Ns`; N may be negative or
    /// have a decimal point, D is a positive whole number), nil when absent;
    /// within `EditReading.maxSeconds` either side of zero.
    static func seconds(_ element: ParsedXMLElement, _ attribute: String, _ label: String) throws -> Double? {
        guard let text = element.attributes[attribute] else { return nil }
        guard let value = parse(time: text.trimmingCharacters(in: .whitespaces)) else {
            throw EditTimelineError("\(label): \(attribute) '\(text.prefix(40))' is not a time (N/Ds or Ns seconds)")
        }
        guard abs(value) <= EditReading.maxSeconds else {
            throw EditTimelineError("\(label): \(attribute) \(text.prefix(40)) is beyond \(Int(EditReading.maxSeconds)) s")
        }
        return value
    }

    /// A length: a time that isn't negative (nil when absent).
    static func length(_ element: ParsedXMLElement, _ attribute: String, _ label: String) throws -> Double? {
        guard let value = try seconds(element, attribute, label) else { return nil }
        guard value >= 0 else { throw EditTimelineError("\(label): \(attribute) \(element.attributes[attribute] ?? "") is negative") }
        return value
    }

    /// `N/Ds` or `Ns` as seconds; nil when it is neither.
    static func parse(time text: String) -> Double? {
        guard text.hasSuffix("s"), text.count <= 48 else { return nil }
        let parts = text.dropLast().split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let numerator = decimal(parts[0]) else { return nil }
        guard parts.count == 2 else { return numerator }
        let denominator = parts[1]
        guard (1...12).contains(denominator.count), denominator.allSatisfy(\.isASCIIDigit),
              let divisor = Double(denominator), divisor > 0 else { return nil }
        return numerator / divisor
    }

    /// A decimal number as FCPXML writes one: an optional minus, digits, an optional fraction.
    static func decimal(_ text: Substring) -> Double? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text
        let pieces = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), !(pieces[0].isEmpty && pieces.count == 1), digits.count <= 24,
              pieces.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), pieces.contains(where: { !$0.isEmpty }) else { return nil }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    /// A list of `count` numbers separated by spaces (`"0 0"`, `"1.5 1.5"`), nil when absent.
    static func numbers(_ element: ParsedXMLElement, _ attribute: String, count: Int, _ label: String) throws -> [Double]? {
        guard let text = element.attributes[attribute] else { return nil }
        let values = text.split(whereSeparator: \.isWhitespace).map { decimal($0) }
        guard values.count == count, values.allSatisfy({ $0 != nil }) else {
            throw EditTimelineError("\(label): \(element.name) \(attribute) '\(text.prefix(40))' is not \(count) number(s)")
        }
        let numbers = values.compactMap { $0 }
        guard numbers.allSatisfy({ abs($0) <= 1_000_000 }) else {
            throw EditTimelineError("\(label): \(element.name) \(attribute) '\(text.prefix(40))' is out of range")
        }
        return numbers
    }

    /// A level in dB (`-6dB`, `3.5 dB`, `-inf dB` for silence), nil when absent; within ±`AudioLevel.limit`.
    static func decibels(_ element: ParsedXMLElement, _ attribute: String, _ label: String) throws -> Double? {
        guard let text = element.attributes[attribute] else { return nil }
        var number = text.trimmingCharacters(in: .whitespaces)
        if number.lowercased().hasSuffix("db") { number = String(number.dropLast(2)).trimmingCharacters(in: .whitespaces) }
        if ["-inf", "-∞", "-infinity"].contains(number.lowercased()) { return -AudioLevel.limit }
        guard let value = decimal(Substring(number)) else {
            throw EditTimelineError("\(label): \(element.name) \(attribute) '\(text.prefix(40))' is not a level in dB")
        }
        return try AudioLevel.checked(decibels: value, label)
    }

    /// A format's frame rate from its `frameDuration` (`100/2400s` is 24, `1001/30000s` 29.97), snapped to the standard rate it means.
    static func rate(of format: ParsedXMLElement, _ label: String) throws -> Rational? {
        guard let text = format.attributes["frameDuration"] else { return nil }
        let parts = text.trimmingCharacters(in: .whitespaces).dropLast().split(separator: "/")
        guard text.hasSuffix("s"), (1...2).contains(parts.count), parts.allSatisfy({ (1...12).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
              let numerator = Int(parts[0]), let denominator = parts.count == 2 ? Int(parts[1]) : 1, numerator > 0, denominator > 0,
              Double(denominator) / Double(numerator) < 1000 else {
            throw EditTimelineError("\(label): frameDuration '\(text.prefix(40))' is not a frame's duration")
        }
        return Rational(denominator, numerator).reduced.snappedToStandard
    }
}
