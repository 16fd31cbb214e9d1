"""The firmware's portable core (touch edges, noisy and stuck pads, LED scaling, FRAME and SET), under MicroPython and CPython."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from needs import micropython, mpy_cross

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "firmware"
SCRIPT = HERE / "mp_core_scenarios.py"


def run(interpreter: str, scenario: str) -> list[str]:
    environment = {**os.environ, "MICROPYPATH": str(FIRMWARE), "PYTHONPATH": str(FIRMWARE)}
    result = subprocess.run(
        [interpreter, str(SCRIPT), scenario], capture_output=True, text=True, env=environment, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


# Scans are 2 ms apart (app.SCAN_MS); every status change the MPR121s report
# is an edge at the scan that reads it (pads.py: the chip debounces).
EXPECTED = {
    # the pad reads down from the 2nd scan (4 ms) and up from the 7th (14 ms).
    "clean_press": ["edge 4 12 1", "edge 14 12 0"],
    # a status that changes at every scan: every change is an edge (7 of
    # them, fewer than the 10 that mute a pad).
    "bounce": [f"edge {2 + 2 * n} 3 {1 - n % 2}" for n in range(7)],
    # 9 edges go out, the 10th within 2 s mutes the pad; 5 s after its last
    # change it is quiet again (and already reported as pressed: no new edge).
    "noisy": [f"edge {2 + 8 * n} 7 {1 - n % 2}" for n in range(9)] + ["problem 74 noisy 7", "problem 5130 quiet 7"],
    # One 4 ms detection over the threshold, then a real touch (the MPR121's status modelled
    # per detection, tests/firmware/mp_core_scenarios.py, chip_status). With debounce 0 the
    # blip is a touch like any other (down and up: the host takes it as a guess; the noisy
    # guard mutes a pad only at its 10th edge) and the real touch goes out 4 ms sooner; with
    # debounce 1 the blip never leaves the chip. firmware/TUNING.md, "Debounce 0 or 1".
    "blip": [
        "debounce 0", "edge 14 9 1", "edge 18 9 0", "edge 42 9 1", "edge 82 9 0",
        "debounce 1", "edge 46 9 1", "edge 86 9 0",
    ],
    # held for 60 s: reported stuck once; the release still goes out.
    "stuck": ["edge 2 20 1", "problem 60002 stuck 20", "edge 60022 20 0"],
    "chord": ["edge 2 0 1", "edge 2 24 1", "edge 10 0 0", "edge 18 24 0"],
    "led_scaling": [
        # default brightness 64 until the host says; chain order applied (logical 0 -> chain 2),
        # written into the strip's buffer in its byte order (green, red, blue)
        "show 18 (0, 64, 0) (0, 0, 64) (64, 0, 0)",
        "show 63 (0, 255, 0) (0, 0, 255) (255, 0, 0)",
        # 33 mA: 3 mA idle, 30 mA left for 60 mA of colour: half
        "show 32 (0, 127, 0) (0, 0, 127) (127, 0, 0)",
        # less than the idle draw: dark
        "show 3 (0, 0, 0) (0, 0, 0) (0, 0, 0)",
        # idle pattern: status LEDs dim white, tiles dark, the host's brightness kept
        "idle [(13, 13, 13), (13, 13, 13), (0, 0, 0)] 255",
    ],
    # ORDER: the bytes each LED takes, red green blue in the order named; a bad name changes nothing
    "led_order": [
        "order GRB 00ff00ff00000000ff",
        "order RGB ff000000ff000000ff",
        "order BRG 00ff000000ffff0000",
        "refused 00ff000000ffff0000",
    ],
}


# FRAME and SET through TileApp.handle (tests/firmware/mp_core_scenarios.py,
# partial_frames): after each host line, the strip's writes so far and the
# logical frame it shows; a SET changes only its LEDs, a bad one nothing.
EXPECTED["partial_frames"] = """
SET 1 0 ffffff -> 1 000000000000000000000000000000
sent BOARD 2 test 3 2 0000000
HELLO 2 -> 1 000000000000000000000000000000
LIMIT 255 10000 -> 2 000000000000000000000000000000
sent ACK 1
FRAME 1 010101020202030303040404050505 -> 3 010101020202030303040404050505
sent ACK 2
SET 2 0 ff0000 -> 4 ff0000020202030303040404050505
sent ACK 3
SET 3 4 00ff00 1 0000ff -> 5 ff00000000ff03030304040400ff00
sent ACK 4
SET 4 2 ABCDEF -> 6 ff00000000ffabcdef04040400ff00
sent ACK 5
SET 5 3 111111 3 222222 -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 6 5 ffffff -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 7 -1 ffffff -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 8 0 fffff -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 9 0 fffffff -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 10 0 gggggg -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 11 0 ffffff 1 -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 12 -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 65536 0 ffffff -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 13 0 ffffff 9 000000 -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 14 0 ffffff 0 ffffff 0 ffffff 0 ffff -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET x 0 ffffff -> 7 ff00000000ffabcdef22222200ff00
sent ERROR syntax SET
SET 15 one ffffff -> 7 ff00000000ffabcdef22222200ff00
sent ACK 16
SET 16 0 ffffff 0 ffffff 0 ffffff 0 ffff -> 8 ffffff0000ffabcdef222222123456
sent ACK 17
FRAME 17 000000000000000000000000000000 -> 9 000000000000000000000000000000
sent ERROR syntax FRAME
FRAME 18 zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz -> 9 000000000000000000000000000000
sent ERROR length 14 15
FRAME 19 ffffffffffffffffffffffffffff -> 9 000000000000000000000000000000
""".strip().splitlines()


# While the host listens the shown frame is written again every second (app.REFRESH_MS: LEDs whose
# supply came on after the Pico's catch up); the host silent for a second, the board goes dark and
# idles. At 1000, 2000 and 3000 ms the heartbeat is due first: the rewrite follows a millisecond later.
EXPECTED["refresh"] = [
    "shown 3 " + "ff0000" * 5,
    "write 1001 True ff0000ff0000",
    "write 2001 True ff0000ff0000",
    "write 3001 True ff0000ff0000",
    "write 3400 False 000000000000",  # 1 s after the last BEAT (2.4 s): dark
    "write 3401 False 000000000000",  # the idle pattern's steps (tiles dark)
    "write 3451 False 000000000000",
]


# The strip gets value * brightness // 255 for every byte value (leds.py
# computes it without a division, in machine code on MicroPython).
EXPECTED["led_levels"] = [
    f"levels {b} " + bytes(v * b // 255 for v in bytes(range(256)) + bytes(2)).hex()
    for b in (1, 2, 64, 127, 128, 200, 254, 255)
]


@pytest.mark.parametrize("scenario", sorted(EXPECTED))
def test_core_behaves_as_specified_under_micropython(scenario):
    assert run(micropython(), scenario) == EXPECTED[scenario]


@pytest.mark.parametrize("scenario", sorted(EXPECTED))
def test_core_behaves_the_same_under_cpython(scenario):
    assert run(sys.executable, scenario) == EXPECTED[scenario]


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    compiler = mpy_cross()
    sources = sorted(FIRMWARE.glob("*.py"))
    assert {"main.py", "app.py", "tileproto.py", "mpr121.py", "board.py"} <= {source.name for source in sources}
    for source in sources:
        # -march: the Pico's Cortex-M0+, for the @micropython.viper functions (machine code)
        result = subprocess.run(
            [compiler, "-march=armv6m", "-o", str(tmp_path / (source.stem + ".mpy")), str(source)],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, f"{source.name}: {result.stderr}"
        assert (tmp_path / (source.stem + ".mpy")).stat().st_size > 0


def test_the_portable_core_never_imports_machine():
    for name in ("tileproto.py", "pads.py", "tuning.py", "leds.py", "link.py", "app.py", "mpr121.py", "board.py"):
        text = (FIRMWARE / name).read_text()
        assert "import machine" not in text and "from machine" not in text, name
