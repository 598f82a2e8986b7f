/// An input that libavformat recognised as a format Segue does not open
/// (`MediaFormats`): its demuxer's short and long names.
package struct RefusedFormat: Error, Equatable {
    package var name: String
    package var longName: String
}

/// A picture larger than the limit a demuxer was opened with, refused before
/// any of its pixels were decoded.
package struct PictureTooLarge: Error, Equatable {
    package var width: Int
    package var height: Int
}
