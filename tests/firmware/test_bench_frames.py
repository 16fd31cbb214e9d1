"""The firmware's frame benchmark (unixboard/bench_frames.py) runs under MicroPython and says what it measured.

It checks itself that every frame was shown and acknowledged; here only that
it ran and printed its documented lines. Its numbers are for the benchmark's
reader, never asserted: a test does not time.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

from needs import micropython

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
UNIXBOARD = ROOT / "host" / "codenames_board" / "unixboard"
STATS = r"p50=(\d+) p99=(\d+) max=(\d+) mean=(\d+) n=(\d+)"


@pytest.mark.parametrize("mode", ["bulk", "bytewise", "bytewise-memory"])
def test_frame_benchmark_prints_its_lines(mode, tmp_path):
    arguments = ["30"] + {"bulk": [], "bytewise": ["--bytewise"], "bytewise-memory": ["--bytewise", "--memory"]}[mode]
    result = subprocess.run(
        [micropython(), str(UNIXBOARD / "bench_frames.py"), *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "MICROPYPATH": f"{FIRMWARE}:{UNIXBOARD}", "TMPDIR": str(tmp_path)},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    frame, partial, scan, scan_polled = result.stdout.splitlines()
    for line, name, leds in ((frame, "frame_us", 37), (partial, "set_us", 1)):
        found = re.fullmatch(rf"{name} {STATS} fps=(\d+) read=([\w-]+) leds={leds}", line)
        assert found, line
        p50, p99, most, _, count = (int(value) for value in found.groups()[:5])
        assert p50 <= p99 <= most and count == 30 and found.group(7) == mode
    found = re.fullmatch(rf"scan_us {STATS}", scan)
    assert found and int(found.group(5)) == 30, scan
    found = re.fullmatch(rf"scan_poll_us {STATS}", scan_polled)  # every board read every scan: no IRQ lines
    assert found and int(found.group(5)) == 30, scan_polled
    assert list(tmp_path.iterdir()) == []  # the socket's file is gone


def test_a_loaded_machine_still_times_only_the_frames(tmp_path):
    # Every frame's turn 0.2 s after the last: the heartbeat (0.25 s) and the LED refresh (1 s) fall
    # due between frames. They stay out of the timed steps, so each frame is shown exactly once
    # (a refresh inside one wrote the strip a 21st time and the benchmark failed on loaded machines).
    result = subprocess.run(
        [micropython(), str(Path(__file__).parent / "mp_slow_bench_frames.py"), "20"],
        capture_output=True,
        text=True,
        env={**os.environ, "MICROPYPATH": f"{FIRMWARE}:{UNIXBOARD}", "TMPDIR": str(tmp_path)},
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr  # MicroPython's tracebacks go to stdout
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["frame_us", "set_us", "scan_us", "scan_poll_us"]
