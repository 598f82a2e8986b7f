/// The gl-transitions effects (github.com/gl-transitions/gl-transitions, MIT)
/// Segue draws on the CPU (`Frame.gl`), each under `gl_` + the effect's name in
/// lower case, in listing order.
package enum GLEffect: String, CaseIterable, Sendable {
    case fade, wipeleft, wiperight, directional, circleopen, angular, swirl, heart, pinwheel, windowslice, radial, ripple
    case randomsquares, doorway
    case cube, invertedpagecurl, bowtiehorizontal, bowtievertical, bowtiewithparameter, butterflywavescrawler, circlecrop
    case colourdistance, crazyparametricfun, crosswarp, directionalwarp, directionalwipe, dreamy, dreamyzoom, flyeye
    case gridflip, hexagonalize, kaleidoscope, morph, mosaic, polkadotscurtain, rotate_scale_fade, squareswire, squeeze
    case swap, bounce, rectangle
    case burn, cannabisleaf, circle, colorphase, crosshatch, doomscreentransition, fadecolor, fadegrayscale
    case glitchdisplace, glitchmemories, horizontalclose, horizontalopen, verticalclose, verticalopen, leftright
    case topbottom, multiply_blend, overexposure, perlin, pixelize, polar_function, randomnoisex, rectanglecrop
    case rolls, simplezoom, simplezoomout, staticfade, undulatingburnout, waterdrop, wind, windowblinds, wipedown
    case wipeup, zoomincircles, zoomleftwipe, zoomrigthwipe

    /// The name `--transition` takes: `gl_` + the effect's.
    package var transitionName: String { "gl_" + rawValue }

    /// The effect a transition name names (without parameters), if it is a `gl_` name.
    package init?(transitionName name: String) {
        guard name.hasPrefix("gl_") else { return nil }
        self.init(rawValue: String(name.dropFirst(3)))
    }

    /// The effect's uniforms a user may set, in the GLSL's order, with its defaults.
    package var uniforms: [GLUniform] { GLEffect.uniformTable[self] ?? [] }

    private static let uniformTable: [GLEffect: [GLUniform]] = [
        .directional: [.vec2("direction", 0, 1, in: -10...10)],
        .circleopen: [.float("smoothness", 0.3, in: 0...10), .bool("opening", true)],
        .pinwheel: [.float("speed", 2, in: -1000...1000)],
        .windowslice: [.float("count", 10, in: 1...1000), .float("smoothness", 0.5, in: 0...10)],
        .radial: [.float("smoothness", 1, in: 0...10)],
        .ripple: [.float("amplitude", 100, in: -10000...10000), .float("speed", 50, in: -10000...10000)],
        .randomsquares: [.ivec2("size", 10, 10, in: 1...1000), .float("smoothness", 0.5, in: 0...10)],
        .doorway: [.float("reflection", 0.4, in: 0...1), .float("perspective", 0.4, in: 0...10), .float("depth", 3, in: 0.01...100)],
        .cube: [.float("persp", 0.7, in: 0...1), .float("unzoom", 0.3, in: 0...1), .float("reflection", 0.4, in: 0...1),
                .float("floating", 3, in: 0...100), .vec4("bgcolor", 0, 0, 0, 1)],
        .bowtiewithparameter: [.float("adjust", 0.5, in: 0...1), .bool("reverse", false)],
        .butterflywavescrawler: [.float("amplitude", 1, in: 0...3), .float("waves", 30, in: 0...1000),
                                 .float("colorSeparation", 0.3, in: 0...10)],
        .circlecrop: [.vec4("bgcolor", 0, 0, 0, 1)],
        .colourdistance: [.float("power", 5, in: 0...100)],
        .crazyparametricfun: [.float("a", 4, in: -100...100), .float("b", 1, in: 0.01...100),
                              .float("amplitude", 120, in: -10000...10000), .float("smoothness", 0.1, in: 0.001...10)],
        .directionalwarp: [.float("smoothness", 0.1, in: 0...10), .vec2("direction", -1, 1, in: -10...10)],
        .directionalwipe: [.vec2("direction", 1, -1, in: -10...10), .float("smoothness", 0.5, in: 0...10)],
        .dreamyzoom: [.float("rotation", 6, in: -360...360), .float("scale", 1.2, in: 0.01...100)],
        .flyeye: [.float("size", 0.04, in: 0...1), .float("zoom", 50, in: 0...1000), .float("colorSeparation", 0.3, in: 0...10)],
        .gridflip: [.ivec2("size", 4, 4, in: 1...100), .float("pause", 0.1, in: 0...0.45), .float("dividerWidth", 0.05, in: 0...1),
                    .vec4("bgcolor", 0, 0, 0, 1), .float("randomness", 0.1, in: 0...1)],
        .hexagonalize: [.int("steps", 50, in: 0...1000), .float("horizontalHexagons", 20, in: 0.01...1000)],
        .kaleidoscope: [.float("speed", 1, in: -100...100), .float("angle", 1, in: -100...100), .float("power", 1.5, in: 0...10)],
        .morph: [.float("strength", 0.1, in: -1...1)],
        .mosaic: [.int("endx", 2, in: -10...10), .int("endy", -1, in: -10...10)],
        .polkadotscurtain: [.float("dots", 20, in: 1...1000), .vec2("center", 0, 0, in: 0...1)],
        .rotate_scale_fade: [.vec2("center", 0.5, 0.5, in: 0...1), .float("rotations", 5, in: -100...100),
                             .float("scale", 10, in: 0.01...100), .vec4("backColor", 0.15, 0.15, 0.15, 1)],
        .squareswire: [.ivec2("squares", 10, 10, in: 1...1000), .vec2("direction", 1, -0.5, in: -10...10),
                       .float("smoothness", 1.6, in: 0...10)],
        .squeeze: [.float("colorSeparation", 0.04, in: 0...1)],
        .swap: [.float("reflection", 0.4, in: 0...1), .float("perspective", 0.2, in: 0...1), .float("depth", 3, in: 0.01...100)],
        .bounce: [.vec4("shadow_colour", 0, 0, 0, 0.6), .float("shadow_height", 0.075, in: 0.01...0.5),
                  .float("bounces", 3, in: 1...10)],
        .rectangle: [.vec4("bgcolor", 0, 0, 0, 1)],
        .burn: [.vec3("color", 0.9, 0.4, 0.2)],
        .circle: [.vec2("center", 0.5, 0.5, in: 0...1), .vec3("backColor", 0.1, 0.1, 0.1), .bool("usebgcolor", false), .vec4("bgcolor", 0, 0, 0, 1)],
        .colorphase: [.vec4("fromStep", 0, 0.2, 0.4, 0), .vec4("toStep", 0.6, 0.8, 1, 1)],
        .crosshatch: [.vec2("center", 0.5, 0.5, in: 0...1), .float("threshold", 3, in: 0.01...100), .float("fadeEdge", 0.1, in: 0.001...1)],
        .doomscreentransition: [.int("bars", 30, in: 2...1000), .float("amplitude", 2, in: 0...100), .float("noise", 0.1, in: 0...1),
                                .float("frequency", 0.5, in: 0...100), .float("dripScale", 0.5, in: 0...10)],
        .fadecolor: [.vec3("color", 0, 0, 0), .float("colorPhase", 0.4, in: 0...1), .bool("usebgcolor", false), .vec4("bgcolor", 0, 0, 0, 1)],
        .fadegrayscale: [.float("intensity", 0.3, in: 0...1)],
        .overexposure: [.float("strength", 0.6, in: 0...10)],
        .perlin: [.float("scale", 4, in: 0.01...1000), .float("smoothness", 0.01, in: 0.001...10), .float("seed", 12.9898, in: -1000...1000)],
        .pixelize: [.ivec2("squaresMin", 20, 20, in: 1...1000), .int("steps", 50, in: 0...1000)],
        .polar_function: [.int("segments", 5, in: 0...100)],
        .rectanglecrop: [.vec4("bgcolor", 0, 0, 0, 1)],
        .rolls: [.int("type", 0, in: 0...3), .bool("RotDown", false)],
        .simplezoom: [.float("zoom_quickness", 0.8, in: 0.2...1)],
        .simplezoomout: [.float("zoom_quickness", 0.8, in: 0.2...1), .bool("fade", true)],
        .staticfade: [.float("n_noise_pixels", 200, in: 1...10000), .float("static_luminosity", 0.8, in: 0...1)],
        .undulatingburnout: [.float("smoothness", 0.03, in: 0.001...1), .vec2("center", 0.5, 0.5, in: 0...1), .vec3("color", 0, 0, 0)],
        .waterdrop: [.float("amplitude", 30, in: -1000...1000), .float("speed", 30, in: -1000...1000)],
        .wind: [.float("size", 0.2, in: 0.001...1)],
        .zoomleftwipe: [.float("zoom_quickness", 0.8, in: 0.01...1)],
        .zoomrigthwipe: [.float("zoom_quickness", 0.8, in: 0.01...1)],
    ]
}

/// One uniform of a gl-transitions effect a user may set by name.
package struct GLUniform: Sendable, Equatable {
    /// GLSL's type: how the value is written and read.
    package enum Kind: String, Sendable { case float, int, bool, vec2, vec3, vec4, ivec2 }

    package let name: String
    package let kind: Kind
    /// The effect's default, one number a component (a bool is 0 or 1).
    package let defaults: [Float]
    /// What each component may be (a bool: 0...1).
    package let range: ClosedRange<Float>

    package var components: Int {
        switch kind {
        case .float, .int, .bool: return 1
        case .vec2, .ivec2: return 2
        case .vec3: return 3
        case .vec4: return 4
        }
    }

    /// Whole numbers only.
    package var isIntegral: Bool { kind == .int || kind == .ivec2 || kind == .bool }

    package static func float(_ name: String, _ value: Float, in range: ClosedRange<Float>) -> GLUniform {
        GLUniform(name: name, kind: .float, defaults: [value], range: range)
    }
    package static func int(_ name: String, _ value: Int, in range: ClosedRange<Float>) -> GLUniform {
        GLUniform(name: name, kind: .int, defaults: [Float(value)], range: range)
    }
    package static func bool(_ name: String, _ value: Bool) -> GLUniform {
        GLUniform(name: name, kind: .bool, defaults: [value ? 1 : 0], range: 0...1)
    }
    package static func vec2(_ name: String, _ x: Float, _ y: Float, in range: ClosedRange<Float>) -> GLUniform {
        GLUniform(name: name, kind: .vec2, defaults: [x, y], range: range)
    }
    package static func ivec2(_ name: String, _ x: Int, _ y: Int, in range: ClosedRange<Float>) -> GLUniform {
        GLUniform(name: name, kind: .ivec2, defaults: [Float(x), Float(y)], range: range)
    }
    /// A colour (each component 0...1) or another vec3.
    package static func vec3(_ name: String, _ x: Float, _ y: Float, _ z: Float, in range: ClosedRange<Float> = 0...1) -> GLUniform {
        GLUniform(name: name, kind: .vec3, defaults: [x, y, z], range: range)
    }
    package static func vec4(_ name: String, _ x: Float, _ y: Float, _ z: Float, _ w: Float,
                             in range: ClosedRange<Float> = 0...1) -> GLUniform {
        GLUniform(name: name, kind: .vec4, defaults: [x, y, z, w], range: range)
    }
}
