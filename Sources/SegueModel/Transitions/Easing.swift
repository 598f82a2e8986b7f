import Foundation
import SegueCore

/// How a transition's progress runs from 0 to 1 (`--easing`, a join's
/// `"easing"`): linear, Robert Penner's curves, root curves, and CSS's named
/// curves, `cubic-bezier(x1,y1,x2,y2)` and `steps(n[,position])`. Curves
/// that overshoot (elastic, back) do: the transition draws what it draws at
/// that progress. Codable as its name, as written.
public struct Easing: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as given (CSS functions normalised: no spaces).
    public let rawValue: String
    let curve: Curve

    enum Curve: Hashable, Sendable {
        case linear
        case penner(Family, Ends)
        case squareRoot, cubeRoot
        case bezier(Double, Double, Double, Double)
        case steps(Int, Jump)
    }

    enum Family: String, CaseIterable, Sendable {
        case quadratic, cubic, quartic, quintic, sinusoidal, exponential, circular, elastic, back, bounce
    }

    enum Ends: String, CaseIterable, Sendable {
        case `in`, out, inOut = "in-out"
    }

    /// CSS `steps()` positions: where the jumps are.
    enum Jump: String, CaseIterable, Sendable {
        case start = "jump-start", end = "jump-end", none = "jump-none", both = "jump-both"
    }

    public static let linear = Easing(name: "linear", curve: .linear)

    private init(name: String, curve: Curve) {
        rawValue = name
        self.curve = curve
    }

    public var description: String { rawValue }

    /// A curve by its name; nil when there is none such (`parse` says why).
    public init?(name: String) {
        guard case .success(let easing) = Easing.parse(name) else { return nil }
        self = easing
    }

    /// The curve `text` names, or why it names none (for a usage error).
    static func parse(_ text: String) -> Result<Easing, EasingError> {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let curve = named[name] { return .success(Easing(name: name, curve: curve)) }
        if name.hasPrefix("cubic-bezier(") || name.hasPrefix("steps(") { return function(name) }
        return .failure(EasingError("unknown easing '\(text)' (run `segue transitions --easings` for the list)"))
    }

    /// Every named curve: linear, Penner's families with their ends, the roots, CSS's names.
    private static let named: [String: Curve] = {
        var curves: [String: Curve] = ["linear": .linear, "squareroot": .squareRoot, "cuberoot": .cubeRoot]
        for family in Family.allCases {
            for ends in Ends.allCases { curves["\(family.rawValue)-\(ends.rawValue)"] = .penner(family, ends) }
        }
        for (name, points) in cssNamed { curves[name] = .bezier(points.0, points.1, points.2, points.3) }
        return curves
    }()

    /// CSS Easing Functions Level 1's named cubic Béziers.
    private static let cssNamed: [(String, (Double, Double, Double, Double))] = [
        ("ease", (0.25, 0.1, 0.25, 1)), ("ease-in", (0.42, 0, 1, 1)), ("ease-out", (0, 0, 0.58, 1)), ("ease-in-out", (0.42, 0, 0.58, 1)),
    ]

    /// `cubic-bezier(x1,y1,x2,y2)` (x in 0...1, every value finite) or `steps(n[,position])` (n ≥ 1; ≥ 2 for jump-none).
    private static func function(_ name: String) -> Result<Easing, EasingError> {
        let compact = name.filter { !$0.isWhitespace }
        guard compact.hasSuffix(")"), let open = compact.firstIndex(of: "(") else {
            return .failure(EasingError("easing '\(name)': expected cubic-bezier(x1,y1,x2,y2) or steps(n[,position])"))
        }
        let head = compact[..<open], arguments = compact[compact.index(after: open)..<compact.index(before: compact.endIndex)]
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if head == "cubic-bezier" {
            let values = arguments.compactMap { Double($0) }.filter(\.isFinite)
            guard arguments.count == 4, values.count == 4 else {
                return .failure(EasingError("easing '\(name)': cubic-bezier takes four finite numbers"))
            }
            guard (0...1).contains(values[0]), (0...1).contains(values[2]) else {
                return .failure(EasingError("easing '\(name)': cubic-bezier's x1 and x2 must be from 0 to 1"))
            }
            return .success(Easing(name: compact, curve: .bezier(values[0], values[1], values[2], values[3])))
        }
        guard head == "steps", (1...2).contains(arguments.count), let count = Int(arguments[0]), count >= 1, count <= 10_000 else {
            return .failure(EasingError("easing '\(name)': steps takes a whole number of steps from 1 to 10000 and an optional position"))
        }
        let jump = arguments.count == 2 ? Jump(rawValue: arguments[1]) ?? (arguments[1] == "start" ? .start : arguments[1] == "end" ? .end : nil)
            : .end
        guard let jump else {
            return .failure(EasingError("easing '\(name)': a steps position is jump-start, jump-end, jump-none or jump-both"))
        }
        guard jump != .none || count >= 2 else { return .failure(EasingError("easing '\(name)': steps(n, jump-none) needs n of 2 or more")) }
        return .success(Easing(name: compact, curve: .steps(count, jump)))
    }

    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        switch Easing.parse(name) {
        case .success(let easing): self = easing
        case .failure(let error): throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func == (lhs: Easing, rhs: Easing) -> Bool { lhs.curve == rhs.curve }
    public func hash(into hasher: inout Hasher) { hasher.combine(curve) }

    /// Whether it is the straight line (the progress as it is).
    package var isLinear: Bool { curve == .linear }
}

/// Why an easing's text names no curve.
struct EasingError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension OptionReader where Value == Easing {
    static var easing: OptionReader {
        OptionReader(expects: "an easing curve", text: { Easing(name: $0) }, json: { value, _ in (value as? String).flatMap(Easing.init(name:)) },
                     accepts: { _ in true }, describe: { $0.rawValue },
                     unknown: { text in if case .failure(let error) = Easing.parse(text) { return error.message } else { return "" } })
    }
}
