#!/usr/bin/env python3
"""Tests of Scripts/judges.py on tiny clips the ffmpeg CLI makes (64x36, 1 s, pink noise, two chapters): each judge
says "same" for an identical output and catches a real difference. Run: python3 Tests/scripts/test_judges.py
"""
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.dont_write_bytecode = True   # no __pycache__ in Scripts/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts"))
import judges

OPTS = {"smart_psnr": 35.0, "min_snr": 0.0, "level_db": 1.0}
CHAPTERS = ";FFMETADATA1\n" + "".join("[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\ntitle=%s\n" % c
                                      for c in [(0, 500, "One"), (500, 1000, "Two")])
# name: (picture filters or rate, sound filters, chapters file): each a change from "plain"
CLIPS = {"plain": ("", "", "chapters"), "dropped": (",select='not(eq(n\\,10))',setpts=N/30/TB", "", "chapters"),
         "shifted": ("", ",adelay=10ms:all=1,atrim=end_sample=48000", "chapters"),
         "quieter": ("", ",volume=0.5", "chapters"), "rate25": ("RATE25", "", "chapters"),
         "one-chapter": ("", "", "one")}


def make(folder, name, picture, sound, chapters):
    rate = 25 if picture == "RATE25" else 30
    path = os.path.join(folder, name + ".mp4")
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=64x36:rate=%d:duration=1%s" % (rate, "" if rate == 25 else picture),
                    "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.3:sample_rate=48000:duration=1:seed=1" + sound,
                    "-i", os.path.join(folder, chapters + ".txt"), "-map", "0:v", "-map", "1:a", "-map_chapters", "2",
                    "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", "-threads", "1", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-ac", "2", "-fflags", "+bitexact", "-flags", "+bitexact", path], check=True)
    return path


class JudgesTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="segue-judges-")
        with open(os.path.join(cls.folder, "chapters.txt"), "w") as f:
            f.write(CHAPTERS)
        with open(os.path.join(cls.folder, "one.txt"), "w") as f:
            f.write(CHAPTERS[:CHAPTERS.index("[CHAPTER]", 20)])
        cls.paths = {name: make(cls.folder, name, *clip) for name, clip in CLIPS.items()}
        cls.plain = judges.Output(cls.paths["plain"])
        cls.outputs = {name: judges.Output(path, like=cls.plain) for name, path in cls.paths.items()}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def verdicts(self, mode, name):
        """Whether all agreed, and each judge's verdict (True: OK), for output `name` against plain."""
        said = io.StringIO()
        with redirect_stdout(said):
            ok = judges.judge(judges.Verdict(mode), mode, self.plain, self.outputs[name], OPTS, chapters=True)
        lines = [line.split() for line in said.getvalue().splitlines()]
        return ok, {words[2].rstrip(":"): words[0] == "OK" for words in lines}

    def test_an_identical_output_is_the_same_to_every_judge(self):
        for mode in ("segments", "smart"):
            self.assertEqual(self.verdicts(mode, "plain"),
                             (True, {"pictures": True, "durations": True, "chapters": True, "sound": True}))

    def test_a_dropped_frame_fails_the_pictures(self):
        for mode in ("segments", "smart"):
            ok, said = self.verdicts(mode, "dropped")
            self.assertFalse(ok)
            self.assertFalse(said["pictures"], mode)
            self.assertTrue(said["sound"], mode)

    def test_a_shifted_sound_fails_the_sound_only(self):
        ok, said = self.verdicts("segments", "shifted")
        self.assertFalse(ok)
        self.assertEqual(said, {"pictures": True, "durations": True, "chapters": True, "sound": False})

    def test_a_quieter_sound_fails_the_levels(self):
        for mode in ("segments", "smart"):
            self.assertFalse(self.verdicts(mode, "quieter")[1]["sound"], mode)

    def test_another_frame_rate_fails_the_durations(self):
        self.assertFalse(self.verdicts("segments", "rate25")[1]["durations"])

    def test_a_missing_chapter_fails_the_chapters(self):
        ok, said = self.verdicts("segments", "one-chapter")
        self.assertEqual((ok, said["chapters"], said["pictures"]), (False, False, True))

    def test_check_output_wants_a_file_of_about_the_expected_duration(self):
        self.assertEqual(judges.check_output(self.paths["plain"], 1), "")
        self.assertEqual(judges.check_output(self.paths["plain"], 3), "output is 1.00 s, expected 3.00 s")
        self.assertEqual(judges.check_output(os.path.join(self.folder, "none.mp4"), 1), "no output file")

    def test_packet_digests_tell_changed_packets(self):
        plain, shifted = (judges.packet_digests(self.paths[n], "a") for n in ("plain", "shifted"))
        self.assertEqual(judges.packet_digests(self.paths["plain"], "v"), judges.packet_digests(self.paths["shifted"], "v"))
        self.assertEqual(len(plain), len(judges.packet_digests(self.paths["quieter"], "a")))
        self.assertNotEqual(plain, shifted)

    def test_report_hash_leaves_out_the_wall_clock_and_places(self):
        def hashed(name, report):
            path = os.path.join(self.folder, name + ".json")
            with open(path, "w") as f:
                json.dump(report, f)
            return judges.report_hash(path, [("/x/cache", "$CACHE")])
        base = {"output": "/x/cache/out.mp4", "frames": 30, "wallSeconds": 1.5, "joins": [{"stallSeconds": 0.1}]}
        same = dict(base, output="/y/cache/out.mp4", wallSeconds=9.0, joins=[{"stallSeconds": 0.7}])
        self.assertEqual(hashed("a", base), hashed("b", dict(base, wallSeconds=2.0, joins=[{"stallSeconds": 3}])))
        self.assertNotEqual(hashed("a", base), hashed("c", same))   # another place is another path
        self.assertNotEqual(hashed("a", base), hashed("d", dict(base, frames=29)))


if __name__ == "__main__":
    unittest.main()
