// SegueKit is the one public face: a user imports it alone and gets the
// public types of the tiers below (settings, plans, reports, errors, the stop
// request) with it. Only what the command line uses is public; the rest is
// `package`. No C module comes along: SegueMedia imports CFFmpeg and CHeif
// `internal`ly, and nothing here re-exports SegueMedia.
@_exported import SegueModel
@_exported import SegueRuntime
@_exported import SegueInput
@_exported import SegueRender
// Rational lives in SegueCore, under both the model and the wrappers; it is
// part of SegueKit's public API (frame rates, time bases), so it comes along;
// so does the codec choice, the value of `--codec`.
@_exported import struct SegueCore.Rational
@_exported import enum SegueCore.VideoCodecChoice
