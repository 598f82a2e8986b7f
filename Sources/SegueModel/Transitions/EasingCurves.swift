import Foundation

extension Easing {
    /// The eased progress at `t` (0...1): 0 at 0 and 1 at 1 (a steps curve may start above 0); between, the curve.
    package func callAsFunction(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        switch curve {
        case .linear: return t
        case .squareRoot: return t.squareRoot()
        case .cubeRoot: return cbrt(t)
        case .penner(let family, let ends): return Self.penner(family, ends, t)
        case .bezier(let x1, let y1, let x2, let y2): return Self.bezier(x1, y1, x2, y2, at: t)
        case .steps(let count, let jump): return Self.steps(count, jump, at: t)
        }
    }

    /// Penner's curves as easings.net writes them: `in` as given, `out` its mirror, `in-out` both halves
    /// (elastic's and back's in-out with their own period and overshoot, as Penner's are).
    private static func penner(_ family: Family, _ ends: Ends, _ t: Double) -> Double {
        if ends == .inOut, family == .elastic, t > 0, t < 1 {
            let wave = sin((20 * t - 11.125) * 2 * .pi / 4.5)
            return t < 0.5 ? -pow(2, 20 * t - 10) * wave / 2 : pow(2, -20 * t + 10) * wave / 2 + 1
        }
        if ends == .inOut, family == .back {
            let c = 1.70158 * 1.525
            return t < 0.5 ? pow(2 * t, 2) * ((c + 1) * 2 * t - c) / 2 : (pow(2 * t - 2, 2) * ((c + 1) * (2 * t - 2) + c) + 2) / 2
        }
        switch ends {
        case .in: return easeIn(family, t)
        case .out: return 1 - easeIn(family, 1 - t)
        case .inOut: return t < 0.5 ? easeIn(family, 2 * t) / 2 : 1 - easeIn(family, 2 - 2 * t) / 2
        }
    }

    /// Each family's `in` curve.
    private static func easeIn(_ family: Family, _ t: Double) -> Double {
        switch family {
        case .quadratic: return t * t
        case .cubic: return t * t * t
        case .quartic: return t * t * t * t
        case .quintic: return t * t * t * t * t
        case .sinusoidal: return 1 - cos(t * .pi / 2)
        case .exponential: return t == 0 ? 0 : pow(2, 10 * t - 10)
        case .circular: return 1 - (1 - t * t).squareRoot()
        case .elastic: return t == 0 || t == 1 ? t : -pow(2, 10 * t - 10) * sin((10 * t - 10.75) * 2 * .pi / 3)
        case .back: return 2.70158 * t * t * t - 1.70158 * t * t
        case .bounce: return 1 - bounceOut(1 - t)
        }
    }

    private static func bounceOut(_ t: Double) -> Double {
        let n = 7.5625, d = 2.75
        if t < 1 / d { return n * t * t }
        if t < 2 / d { let u = t - 1.5 / d; return n * u * u + 0.75 }
        if t < 2.5 / d { let u = t - 2.25 / d; return n * u * u + 0.9375 }
        let u = t - 2.625 / d
        return n * u * u + 0.984375
    }

    /// CSS's cubic Bézier from (0,0) to (1,1): the curve's y where its x is `t`
    /// (x is monotonic for x1, x2 in 0...1: Newton's steps, bisection where they stall).
    private static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at t: Double) -> Double {
        func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * x1 + 6 * u * s * (x2 - x1) + 3 * s * s * (1 - x2)
        }
        var s = t
        for _ in 0..<8 {
            let error = coordinate(s, x1, x2) - t
            if abs(error) < 1e-12 { return coordinate(s, y1, y2) }
            let d = slope(s)
            if abs(d) < 1e-9 { break }
            s = min(max(s - error / d, 0), 1)
        }
        var low = 0.0, high = 1.0
        s = t
        for _ in 0..<64 {
            let x = coordinate(s, x1, x2)
            if abs(x - t) < 1e-12 { break }
            if x < t { low = s } else { high = s }
            s = (low + high) / 2
        }
        return coordinate(s, y1, y2)
    }

    /// CSS's `steps(n, position)`: the step `t` is in, as the spec counts it.
    private static func steps(_ count: Int, _ jump: Jump, at t: Double) -> Double {
        var step = Int((t * Double(count)).rounded(.down))
        if jump == .start || jump == .both { step += 1 }
        let jumps: Int
        switch jump {
        case .start, .end: jumps = count
        case .none: jumps = count - 1
        case .both: jumps = count + 1
        }
        step = min(max(step, 0), jumps)
        return Double(step) / Double(jumps)
    }

    /// Every name `segue transitions --easings` lists, with a few words.
    public static let catalogue: [(name: String, summary: String)] = {
        var entries: [(String, String)] = [("linear", "constant speed (the default)")]
        let words: [Family: String] = [
            .quadratic: "t²", .cubic: "t³", .quartic: "t⁴", .quintic: "t⁵", .sinusoidal: "a quarter sine", .exponential: "2^(10t−10)",
            .circular: "a quarter circle", .elastic: "springs past the end and back", .back: "pulls back, then overshoots",
            .bounce: "bounces at the end",
        ]
        for family in Family.allCases {
            for ends in Ends.allCases {
                let how = ends == .in ? "slow start" : ends == .out ? "slow end" : "slow start and end"
                entries.append(("\(family.rawValue)-\(ends.rawValue)", "Penner's \(family.rawValue) (\(words[family] ?? "")), \(how)"))
            }
        }
        entries += [("squareroot", "√t: fast start"), ("cuberoot", "∛t: faster start"),
                    ("ease", "CSS ease, cubic-bezier(0.25,0.1,0.25,1)"), ("ease-in", "CSS ease-in, cubic-bezier(0.42,0,1,1)"),
                    ("ease-out", "CSS ease-out, cubic-bezier(0,0,0.58,1)"), ("ease-in-out", "CSS ease-in-out, cubic-bezier(0.42,0,0.58,1)"),
                    ("cubic-bezier(x1,y1,x2,y2)", "CSS's cubic Bézier; x1 and x2 from 0 to 1"),
                    ("steps(n[,position])", "CSS's n steps; position jump-start, jump-end (default), jump-none or jump-both")]
        return entries
    }()
}
