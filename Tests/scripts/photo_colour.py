#!/usr/bin/python3
"""Photos in their own colours: fixtures and the judge for PhotoColourTests (Tests/SegueKitTests).

  photo_colour.py make DIR
      DIR/display-p3.icc   Display P3 (D65, P3 primaries, sRGB's curve), written by LittleCMS through ctypes
      DIR/p3.png, p3.jpg   ten flat patches (PATCHES, 320x180) carrying that profile (Pillow)
      DIR/plain.png        the same values without a profile
      DIR/srgb.png         the same values with LittleCMS's sRGB profile
      DIR/garbage.png      the same values with 600 bytes that are no profile
  photo_colour.py judge DIR OUT.mp4 --at SECONDS [--hdr]
      decodes the output's picture at SECONDS (ffmpeg) and prints JSON: each patch's centre as measured, as
      expected (LittleCMS through Pillow's ImageCms, relative colorimetric, into sRGB; with --hdr: into
      BT.2020 primaries, worked out here from the primaries, at Segue's reference white in HLG, and its
      light's CIE xy), and as it would be if the profile were ignored; the mean and largest errors, in 8-bit steps.

Debian's python3 (Pillow from python3-pil, numpy from python3-numpy), the ffmpeg CLI.
"""
import ctypes
import ctypes.util
import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageCms

WIDTH, HEIGHT = 320, 180
# Two rows of five 64x90 patches, values as stored in the photo (Display P3's R'G'B').
PATCHES = [("red", (230, 40, 40)), ("green", (40, 210, 60)), ("blue", (40, 50, 220)), ("skin", (224, 172, 140)),
           ("grey", (128, 128, 128)), ("p3 red", (255, 0, 0)), ("p3 green", (0, 255, 0)), ("yellow", (240, 200, 40)),
           ("cyan", (40, 200, 220)), ("dark", (60, 60, 60))]
WHITE = (0.3127, 0.3290)
P3 = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
SRGB = [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)]
BT2020 = [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
REFERENCE_WHITE, HLG_PEAK, HLG_GAMMA = 203.0, 1000.0, 1.2


def centre(index):
    """The (x, y) of patch `index`'s centre."""
    return 64 * (index % 5) + 32, 90 * (index // 5) + 45


def picture():
    image = Image.new("RGB", (WIDTH, HEIGHT))
    for index, (_, value) in enumerate(PATCHES):
        x, y = 64 * (index % 5), 90 * (index // 5)
        image.paste(value, (x, y, x + 64, y + 90))
    return image


class XYY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


def display_p3_profile(path):
    """Display P3 as Apple's: D65, P3 primaries, sRGB's curve (parametric type 4), built by LittleCMS."""
    lcms = ctypes.CDLL(ctypes.util.find_library("lcms2") or "liblcms2.so.2")
    lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
    lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
    lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
    lcms.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(XYY), ctypes.POINTER(XYY * 3), ctypes.POINTER(ctypes.c_void_p * 3)]
    lcms.cmsSaveProfileToFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lcms.cmsCloseProfile.argtypes = [ctypes.c_void_p]
    parameters = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    curve = lcms.cmsBuildParametricToneCurve(None, 4, parameters)
    primaries = (XYY * 3)(*[XYY(x, y, 1.0) for x, y in P3])
    profile = lcms.cmsCreateRGBProfile(ctypes.byref(XYY(WHITE[0], WHITE[1], 1.0)), ctypes.byref(primaries),
                                       ctypes.byref((ctypes.c_void_p * 3)(curve, curve, curve)))
    assert profile and lcms.cmsSaveProfileToFile(profile, path.encode()), "LittleCMS could not write the profile"
    lcms.cmsCloseProfile(profile)


def make(folder):
    os.makedirs(folder, exist_ok=True)
    icc = os.path.join(folder, "display-p3.icc")
    display_p3_profile(icc)
    p3 = open(icc, "rb").read()
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    image = picture()
    image.save(os.path.join(folder, "p3.png"), icc_profile=p3)
    image.save(os.path.join(folder, "p3.jpg"), icc_profile=p3, quality=95, subsampling=0)
    image.save(os.path.join(folder, "plain.png"))
    image.save(os.path.join(folder, "srgb.png"), icc_profile=srgb)
    image.save(os.path.join(folder, "garbage.png"), icc_profile=bytes(range(200)) * 3)


def expected_srgb(folder):
    """Each patch converted by LittleCMS (Pillow's ImageCms) into sRGB, relative colorimetric."""
    p3 = ImageCms.ImageCmsProfile(os.path.join(folder, "display-p3.icc"))
    converted = ImageCms.profileToProfile(picture(), p3, ImageCms.createProfile("sRGB"), renderingIntent=1)
    return [list(converted.getpixel(centre(index))) for index in range(len(PATCHES))]


def to_xyz(primaries):
    """The RGB-to-XYZ matrix of linear light on `primaries` with D65 white."""
    columns = np.array([[x / y, 1.0, (1 - x - y) / y] for x, y in primaries]).T
    white = np.array([WHITE[0] / WHITE[1], 1.0, (1 - WHITE[0] - WHITE[1]) / WHITE[1]])
    return columns * np.linalg.solve(columns, white)


def srgb_decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def srgb_encode(v):
    v = np.clip(v, 0, 1)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def hlg(light):
    """BT.2100 HLG signal of display light (cd/m², BT.2020) on its 1000 cd/m² reference display."""
    luminance = max(float(light @ np.array([0.2627, 0.6780, 0.0593])), 1e-9)
    scene = light / HLG_PEAK / (luminance / HLG_PEAK) ** ((HLG_GAMMA - 1) / HLG_GAMMA)
    a = 0.17883277
    b, c = 1 - 4 * a, 0.5 - a * np.log(4 * a)
    return np.where(scene <= 1 / 12, np.sqrt(3 * np.clip(scene, 0, None)), a * np.log(np.maximum(12 * scene - b, 1e-9)) + c)


def hlg_light(signal):
    """Display light (cd/m², BT.2020) of an HLG signal on its 1000 cd/m² reference display."""
    a = 0.17883277
    b, c = 1 - 4 * a, 0.5 - a * np.log(4 * a)
    scene = np.where(signal <= 0.5, signal ** 2 / 3, (np.exp((signal - c) / a) + b) / 12)
    luminance = max(float(scene @ np.array([0.2627, 0.6780, 0.0593])), 1e-9)
    return HLG_PEAK * luminance ** (HLG_GAMMA - 1) * scene


def chromaticity(light):
    """The CIE xy of BT.2020 linear light."""
    xyz = to_xyz(BT2020) @ light
    return [round(float(xyz[0] / xyz.sum()), 4), round(float(xyz[1] / xyz.sum()), 4)]


def expected_hlg(value):
    """A Display P3 photo's R'G'B' as Segue places it in HLG, in 8-bit steps: converted into BT.2020 primaries
    with sRGB's curve (as LittleCMS does, worked out here from the primaries), read as SDR (gamma 2.4) with
    100 % at BT.2408's 203 cd/m²."""
    linear = srgb_decode(np.array(value) / 255.0)
    bt2020 = np.linalg.solve(to_xyz(BT2020), to_xyz(P3) @ linear)
    return list(hlg(REFERENCE_WHITE * srgb_encode(bt2020) ** 2.4) * 255)


def ignored_hlg(value):
    """The same R'G'B' placed as a photo without a profile is: read as SDR BT.709 (gamma 2.4), into BT.2020."""
    light = np.linalg.solve(to_xyz(BT2020), to_xyz(SRGB) @ ((np.array(value) / 255.0) ** 2.4))
    return list(hlg(REFERENCE_WHITE * light) * 255)


def decode(output, at, hdr):
    """The output's picture at `at` seconds as R'G'B' in 8-bit steps (floats; 16-bit read for HDR)."""
    matrix = "bt2020" if hdr else "bt709"
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-ss", str(at), "-i", output, "-frames:v", "1",
                          "-vf", "scale=in_color_matrix=%s:in_range=tv:flags=bicubic+accurate_rnd+full_chroma_int,format=%s"
                          % (matrix, "rgb48le" if hdr else "rgb24"), "-f", "rawvideo", "pipe:1"],
                         check=True, capture_output=True).stdout
    samples = np.frombuffer(raw, dtype=np.uint16 if hdr else np.uint8).astype(float)
    return samples.reshape(HEIGHT, WIDTH, 3) / (257.0 if hdr else 1.0)


def judge(folder, output, at, hdr):
    frame = decode(output, at, hdr)
    expected = [expected_hlg(value) for _, value in PATCHES] if hdr else expected_srgb(folder)
    ignored = [ignored_hlg(value) if hdr else list(value) for _, value in PATCHES]
    patches = []
    for index, (name, value) in enumerate(PATCHES):
        x, y = centre(index)
        measured = frame[y - 8:y + 8, x - 8:x + 8].reshape(-1, 3).mean(axis=0)
        patches.append({"name": name, "stored": list(value), "measured": [round(v, 2) for v in measured],
                        "expected": [round(float(v), 2) for v in expected[index]],
                        "ignored": [round(float(v), 2) for v in ignored[index]],
                        "error": round(float(np.abs(measured - expected[index]).max()), 2),
                        "fromIgnored": round(float(np.abs(measured - np.array(ignored[index])).max()), 2)})
        if hdr:
            patches[-1]["xy"] = chromaticity(hlg_light(measured / 255))
    errors = np.array([np.abs(np.array(p["measured"]) - p["expected"]) for p in patches])
    return {"patches": patches, "meanError": round(float(errors.mean()), 3), "maxError": round(float(errors.max()), 2)}


def main(arguments):
    if arguments[:1] == ["make"] and len(arguments) == 2:
        make(arguments[1])
        return 0
    if arguments[:1] == ["judge"] and len(arguments) >= 5 and arguments[3] == "--at":
        print(json.dumps(judge(arguments[1], arguments[2], float(arguments[4]), "--hdr" in arguments[5:]), indent=1))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
