/// The facts about one input clip that planning needs, found by probing it.
public struct ClipInfo: Sendable, Equatable {
    public var path: String
    public var container: String
    public var videoCodec: String
    /// Size of the stored pictures.
    public var codedWidth: Int
    public var codedHeight: Int
    /// Size as shown: rotation applied, pixel aspect made square.
    public var displayWidth: Int
    public var displayHeight: Int
    /// Clockwise degrees the picture must turn to stand upright (0, 90, 180, 270).
    public var rotation: Int
    public var sampleAspectRatio: Rational
    public var frameRate: Rational
    public var pixelFormat: String
    /// Video duration in seconds.
    public var duration: Double
    public var audio: AudioInfo?

    public struct AudioInfo: Sendable, Equatable {
        public var codec: String
        public var sampleRate: Int
        public var channels: Int
    }

    public init(path: String, container: String, videoCodec: String, codedWidth: Int, codedHeight: Int,
                rotation: Int, sampleAspectRatio: Rational, frameRate: Rational, pixelFormat: String,
                duration: Double, audio: AudioInfo?) {
        self.path = path
        self.container = container
        self.videoCodec = videoCodec
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.rotation = rotation
        self.sampleAspectRatio = sampleAspectRatio
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.duration = duration
        self.audio = audio
        // Anamorphic pictures widen (or narrow) to square pixels; a quarter turn swaps the sides.
        let squareWidth = Int((Double(codedWidth) * sampleAspectRatio.value).rounded())
        let turned = rotation == 90 || rotation == 270
        displayWidth = turned ? codedHeight : squareWidth
        displayHeight = turned ? squareWidth : codedHeight
    }
}
