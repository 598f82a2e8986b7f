// SegueKit is the one public face: a user imports it alone and gets the
// public types of the tiers below (settings, plans, reports, errors) with it.
@_exported import SegueModel
@_exported import SegueInput
@_exported import SegueRender
// Rational lives in SegueMedia so that both layers share it; it is part of
// SegueKit's public API (frame rates, time bases), so it comes along.
@_exported import struct SegueMedia.Rational
// A clip's colour facts (ClipInfo.colour, .fieldOrder) are SegueMedia's values too.
@_exported import struct SegueMedia.ColourInfo
@_exported import enum SegueMedia.FieldOrder
// The codec choice is the encoder's own.
@_exported import enum SegueMedia.VideoCodecChoice
@_exported import enum SegueMedia.DynamicRange
@_exported import struct SegueMedia.OutputColour
@_exported import struct SegueMedia.HDRMetadata
