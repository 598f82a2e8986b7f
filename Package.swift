// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Segue",
    products: [
        .library(name: "SegueKit", targets: ["SegueKit"]),
        .executable(name: "segue", targets: ["segue"]),
    ],
    dependencies: [
        // Its documented API only (property wrappers, option groups, validate()); Package.resolved
        // is committed, so a build takes the version it names.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // FFmpeg's libraries from Debian's -dev packages, found through pkg-config.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev",
                              "libswscale-dev", "libswresample-dev", "libavutil-dev"])]
        ),
        // libheif from Debian's libheif-dev: HEIC/HEIF photos (iPhone), read only by SegueMedia.
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        // LittleCMS from Debian's liblcms2-dev: a photo's ICC profile applied, read only by SegueMedia.
        .systemLibrary(
            name: "CLCMS",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        // H.264/HEVC bitstream syntax in pure Swift (avcC/hvcC records, NAL units,
        // bit reading and writing, emulation prevention): no FFmpeg needed.
        .target(name: "SegueBitstream"),
        // Facts in pure Swift that the model and the wrappers share, no FFmpeg needed:
        // Rational, colour descriptions, the codec choice, xfade's transition names,
        // what a network input is and the formats an input may be opened as.
        .target(name: "SegueCore"),
        // The FFmpeg, libheif and LittleCMS wrappers: the only target that imports CFFmpeg, CHeif
        // or CLCMS (internally); no raw pointer leaves it.
        .target(name: "SegueMedia", dependencies: ["CFFmpeg", "CHeif", "CLCMS", "SegueBitstream", "SegueCore"]),
        // The tiers above, each seeing only those below it:
        // what a stitch is (settings, clip lists, timelines, the plan, errors), pure data without FFmpeg;
        .target(name: "SegueModel", dependencies: ["SegueCore"]),
        // what runs things: threads, stop requests and signals, output-file writing, the process's hooks;
        .target(name: "SegueRuntime", dependencies: ["SegueModel", "SegueMedia"]),
        // reading inputs: probing, sound, decoding and normalising pictures;
        .target(name: "SegueInput", dependencies: ["SegueRuntime", "SegueModel", "SegueCore", "SegueMedia"]),
        // writing the output: the stitcher, joins, --smart's copies, segments, the encoders;
        .target(name: "SegueRender", dependencies: ["SegueInput", "SegueRuntime", "SegueModel", "SegueCore", "SegueMedia", "SegueBitstream"]),
        // the one public face: jobs (stitch, probe, plan, render, join) and their reports.
        .target(name: "SegueKit", dependencies: ["SegueRender", "SegueInput", "SegueRuntime", "SegueModel", "SegueCore", "SegueMedia"]),
        .executableTarget(
            name: "segue",
            dependencies: [
                "SegueKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The model's unit tests: no FFmpeg, no tools, no fixtures (lists, manifests, the plan, timelines).
        .testTarget(name: "SegueModelTests", dependencies: ["SegueModel", "SegueCore"]),
        // End to end, the proof: fixture clips from the ffmpeg CLI, the built `segue`, Python judges, daemons.
        .testTarget(name: "SegueKitTests", dependencies: ["SegueKit", "SegueRender", "SegueInput", "SegueModel", "SegueMedia", "segue"]),
        // The bitstream records' unit tests, on recorded and made-up bytes: no FFmpeg libraries; the H.264
        // slice tests run the ffmpeg CLI for real x264 streams and its decoder as their judge.
        .testTarget(name: "SegueBitstreamTests", dependencies: ["SegueBitstream"]),
        // The unit tests of the tiers above the model (option table, subtitles, colour, smart plans, the render loop,
        // its sinks and sound stages on frames made in memory): FFmpeg's libraries, no tools.
        .testTarget(name: "SegueUnitTests", dependencies: ["SegueKit", "SegueRender", "SegueInput", "SegueRuntime", "SegueModel",
                                                           "SegueCore", "SegueMedia", "segue"]),
    ],
    swiftLanguageModes: [.v6]
)
