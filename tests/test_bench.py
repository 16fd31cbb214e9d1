"""The benchmarks run the whole path and report every part (their figures are not asserted: speed
lives in their output, and test machines are shared and noisy)."""

import os
import re
import subprocess
import sys

import pytest

from codenames_board.benchtouch import PI_BUDGET_MS, bench_resume, mpr121_sensing_ms, pi_estimate, table_debounce, ws2812_ms

MS = r"p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms"


def test_bench_touch_times_every_touch_through_the_firmware_and_run(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text("[tiles]\ntouch_debounce = 3\n")
    environment = {
        **os.environ, "CODENAMES_BOARD_LANG": "en", "PYTHONUNBUFFERED": "1", "CODENAMES_BOARD_CONFIG": str(config),
    }
    result = subprocess.run(
        [sys.executable, "-m", "codenames_board", "bench", "touch", "--touches", "30"],
        capture_output=True, text=True, timeout=300, env=environment,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # 30 touches need a second game (22 guesses keep a game going): NEW GAME held through the mock pins.
    assert re.search(r"^Touch to LED through the whole table: 30 touches in [2-9] games$", out, re.M), out
    for part in ("pad to TOUCH sent", "TOUCH sent to FRAME read", "FRAME read to LEDs written", "pad to LEDs:"):
        assert re.search(re.escape(part) + r".*" + MS, out), part
    assert re.search(r"over 10 ms: \d+", out)
    assert re.search(r"firmware per LED message in this run, all \d+ .*: p50 \d+ µs", out)
    assert re.search(r"firmware alone in a quiet process.*FRAME p50 \d+ µs.*SET p50 \d+ µs", out)
    assert "left out: USB" in out and "Pi Zero 2 W" in out
    assert re.search(r"start to the first LED frame on the board: [\d.]+ s", out)
    assert re.search(r"resume of a record of 10000 actions .*: [\d.]+ s", out)
    # The MPR121's part of the estimate uses the debounce the table runs with, and says whose it is.
    assert f"MPR121 debounce 3 ([tiles] touch_debounce in {config}): the chip reports a touch 12 to 16 ms" in out
    assert "Traceback" not in result.stderr


def test_resume_of_a_long_record_with_undos_replays_to_the_same_game():
    result = bench_resume(actions=3000, undo_every=10)  # it checks the replayed state itself
    assert result["actions"] == 3000 and result["resume_s"] > 0


def test_the_mpr121_sensing_time_follows_the_firmware_registers_and_the_debounce():
    # ESI 1 ms x SFI 4 samples per detection, DT detections (datasheet 5.7), one period more at worst.
    assert mpr121_sensing_ms(1) == (4, 8)
    assert mpr121_sensing_ms(0) == (0, 4)
    assert mpr121_sensing_ms(7) == (28, 32)


def test_the_debounce_is_the_tables_configuration_or_the_firmwares(tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text("[tiles]\ntouch_debounce = 5\n")
    assert table_debounce(str(config)) == (5, str(config))
    monkeypatch.setenv("CODENAMES_BOARD_CONFIG", str(config))
    assert table_debounce() == (5, str(config))
    config.write_text("[tiles]\ntouch_debounce = 9\n")  # out of range: the firmware's own
    from codenames_firmware import board

    assert table_debounce() == (board.DEBOUNCE, None)
    monkeypatch.setenv("CODENAMES_BOARD_CONFIG", "")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "none"))
    monkeypatch.setenv("XDG_CONFIG_DIRS", str(tmp_path / "none"))
    assert table_debounce()[0] == 1  # no file: the defaults' [tiles] touch_debounce


def test_the_ws2812_write_takes_24_bits_of_1_25_us_per_led_and_a_reset():
    assert ws2812_ms(37) == pytest.approx((37 * 24 * 1.25 + 50) / 1000)


def test_the_pi_budget_adds_up_to_10_ms_and_the_estimate_adds_the_parts():
    assert sum(PI_BUDGET_MS.values()) == pytest.approx(10)
    part = {"p50": 0.0, "p99": 0.0, "max": 0.0}
    nothing = {"total": {"pad": part, "host": part, "frame": part}, "firmware_alone_us": 0, "debounce": 1}
    estimate = pi_estimate(nothing)
    # with nothing measured, only the parts left out remain: sensing, USB, the LED write
    assert estimate["low"] == pytest.approx(4 + 0.5 + ws2812_ms(37))
    assert estimate["high"] == pytest.approx(8 + 2 + ws2812_ms(37))
