/// A gl-transitions effect with its uniforms' values: the defaults, or what
/// a name such as `gl_cube(floating=5)` sets. Spelt back (`spelling`) with
/// only the values that differ from the defaults, in the effect's order.
package struct GLTransition: Hashable, Sendable {
    package let effect: GLEffect
    /// Every uniform's value, one number a component, in `effect.uniforms`' order.
    package private(set) var values: [[Float]]

    package init(_ effect: GLEffect) {
        self.effect = effect
        values = effect.uniforms.map(\.defaults)
    }

    /// The value of uniform `name` (which the effect must declare).
    package func value(_ name: String) -> [Float] {
        guard let index = effect.uniforms.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("\(effect.transitionName) declares no uniform '\(name)'")
        }
        return values[index]
    }

    package func float(_ name: String) -> Float { value(name)[0] }
    package func bool(_ name: String) -> Bool { value(name)[0] != 0 }
    package func int(_ name: String) -> Int { Int(value(name)[0]) }

    /// The name with the values that differ from the defaults: `gl_cube(floating=5)`.
    package var spelling: String {
        let changed = zip(effect.uniforms, values).filter { $0.0.defaults != $0.1 }
        guard !changed.isEmpty else { return effect.transitionName }
        let settings = changed.map { uniform, _ in uniform.name + "=" + spelling(of: uniform) }
        return effect.transitionName + "(" + settings.joined(separator: ",") + ")"
    }

    /// A number as short as it reads: `5`, `0.7`, `-1.25`.
    private static func number(_ value: Float) -> String {
        if value == value.rounded(), abs(value) < 1e7 { return String(Int(value)) }
        return String(describing: value)
    }
}

/// Why a `gl_` name with parameters was refused.
package struct GLTransitionError: Error, Equatable, CustomStringConvertible {
    package let description: String
}

extension GLTransition {
    /// Parses `gl_<effect>` or `gl_<effect>(name=value,...)`, a vector's
    /// components separated by commas (`gl_directional(direction=1,0)`), a
    /// bool `true` or `false`. Returns nil for a name that isn't a gl_ effect's.
    package static func parse(_ text: String) -> Result<GLTransition, GLTransitionError>? {
        let name = text.prefix { $0 != "(" }
        guard let effect = GLEffect(transitionName: String(name)) else { return nil }
        var transition = GLTransition(effect)
        guard name.count < text.count else { return .success(transition) }
        let fail = { (reason: String) in Result<GLTransition, GLTransitionError>.failure(GLTransitionError(description: "\(text): \(reason)")) }
        guard text.hasSuffix(")") else { return fail("the parameters end with ')'") }
        let uniforms = effect.uniforms
        let listing = uniforms.isEmpty ? "\(effect.transitionName) takes no parameters"
            : "\(effect.transitionName) takes " + uniforms.map { "\($0.name) (\($0.kind.rawValue), default \(transition.spelling(of: $0)))" }.joined(separator: ", ")
        let list = text.dropFirst(name.count + 1).dropLast()
        guard list.contains(where: { $0 != " " }) else { return .success(transition) }   // `gl_fade()`
        var given = Set<String>()
        for (key, components) in settings(list) {
            guard let index = uniforms.firstIndex(where: { $0.name == key }) else {
                return fail(key.isEmpty ? "a parameter needs a name: \(listing)" : "no parameter '\(key)'; \(listing)")
            }
            guard given.insert(key).inserted else { return fail("'\(key)' is given twice") }
            let uniform = uniforms[index]
            guard let value = read(components, as: uniform) else {
                return fail("'\(key)' takes \(describe(uniform)), not '\(components.joined(separator: ","))'")
            }
            transition.values[index] = value
        }
        return .success(transition)
    }

    /// `a=1,b=2,3` as [("a", ["1"]), ("b", ["2", "3"])]: a part without `=` continues the vector before it.
    private static func settings(_ list: Substring) -> [(String, [String])] {
        var settings: [(String, [String])] = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingSpaces
            if let equals = trimmed.firstIndex(of: "=") {
                settings.append((String(trimmed[..<equals]).trimmingSpaces, [String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces]))
            } else if settings.isEmpty {
                settings.append(("", [trimmed]))
            } else {
                settings[settings.count - 1].1.append(trimmed)
            }
        }
        return settings
    }

    private static func read(_ components: [String], as uniform: GLUniform) -> [Float]? {
        guard components.count == uniform.components else { return nil }
        var values: [Float] = []
        for text in components {
            let value: Float
            if uniform.kind == .bool {
                guard let flag = ["false": Float(0), "true": 1, "0": 0, "1": 1][text] else { return nil }
                value = flag
            } else {
                guard let number = Double(text), number.isFinite else { return nil }
                value = Float(number)
            }
            guard uniform.range.contains(value), !uniform.isIntegral || value == value.rounded() else { return nil }
            values.append(value)
        }
        return values
    }

    private static func describe(_ uniform: GLUniform) -> String {
        if uniform.kind == .bool { return "true or false" }
        let range = "\(number(uniform.range.lowerBound)) to \(number(uniform.range.upperBound))"
        let each = uniform.isIntegral ? "a whole number from \(range)" : "a number from \(range)"
        return uniform.components == 1 ? each : "\(uniform.components) components, each \(each)"
    }

    /// A uniform's value as `spelling` writes it.
    private func spelling(of uniform: GLUniform) -> String {
        value(uniform.name).map { uniform.kind == .bool ? ($0 != 0 ? "true" : "false") : Self.number($0) }.joined(separator: ",")
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
