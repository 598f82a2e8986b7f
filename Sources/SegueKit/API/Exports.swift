// SegueKit is the one public face: a user imports it alone and gets the
// public types of the tiers below (settings, plans, reports, errors) with it.
// Only what the command line uses is public; the rest is `package`.
@_exported import SegueModel
@_exported import SegueInput
@_exported import SegueRender
// Rational lives in SegueMedia so that both layers share it; it is part of
// SegueKit's public API (frame rates, time bases), so it comes along.
@_exported import struct SegueMedia.Rational
