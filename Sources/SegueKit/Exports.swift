// Rational lives in SegueMedia so that both layers share it; it is part of
// SegueKit's public API (frame rates, time bases), so it comes along.
@_exported import struct SegueMedia.Rational
