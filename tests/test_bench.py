"""The benchmarks run the whole path and report every part (their figures are not asserted: speed
lives in their output, and test machines are shared and noisy)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from codenames_board.benchtouch import (
    HOST_FACTOR, PI_BUDGET_MS, bench_resume, mpr121_sensing_ms, pi_estimate, table_debounce, ws2812_ms,
)

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


def test_the_pi_budget_adds_up_to_20_ms_and_the_estimate_adds_the_parts():
    # 20 ms: what the parts can do (the MPR121 alone takes 4-8 ms with debounce 1), under the 32 ms
    # at which a light looks late (benchtouch.PI_BUDGET_MS)
    assert sum(PI_BUDGET_MS.values()) == pytest.approx(20)
    assert PI_BUDGET_MS["sense"] == mpr121_sensing_ms(1)[1]
    part = {"p50": 0.0, "p99": 0.0, "max": 0.0}
    nothing = {
        "total": {"pad": part, "host": part, "frame": part}, "firmware_alone_us": 0, "firmware_alone_p50_us": 0,
        "debounce": 1,
    }
    estimate = pi_estimate(nothing)
    # with nothing measured, only the parts left out remain: sensing, USB, the LED write
    assert estimate["low"] == pytest.approx(4 + 0.5 + ws2812_ms(37))
    assert estimate["high"] == pytest.approx(8 + 2 + ws2812_ms(37))
    # the host's p50 scales by the CPU factor; its spread is added as measured at the low end
    host = {"p50": 1.0, "p99": 3.0, "max": 4.0}
    some = {**nothing, "total": {"pad": part, "host": host, "frame": part}}
    estimate = pi_estimate(some)
    assert estimate["low"] == pytest.approx(4 + 0.5 + ws2812_ms(37) + 1.0 * HOST_FACTOR[0] + 2.0)
    assert estimate["high"] == pytest.approx(8 + 2 + ws2812_ms(37) + 3.0 * HOST_FACTOR[1])


def test_bench_web_times_the_page_at_every_client_and_the_leds_with_it_on_and_off():
    host = Path(__file__).resolve().parents[1] / "host"  # this tree's, in every process the benchmark starts
    environment = {**os.environ, "CODENAMES_BOARD_LANG": "en", "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(host)}
    result = subprocess.run(
        [sys.executable, "-m", "codenames_board", "bench", "web", "--touches", "12", "--clients", "3", "--seconds", "1"],
        capture_output=True, text=True, timeout=300, env=environment,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"^The web page's budgets: 12 touches \(\d+ games\) .* 3 clients on loopback$", out, re.M), out
    figures = {}
    for name, part in {
        "page": "the page's message showing the tile, all 3 clients:", "first": "the first client alone:",
        "last": "the last client of each touch:", "led_off": "pad to LEDs, page off:",
        "led_on": "pad to LEDs, page on, 3 clients and one that never reads:",
    }.items():
        found = re.search(re.escape(part) + r"\s+p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms", out)
        assert found, part
        figures[name] = [float(value) for value in found.groups()]
    for p50, p99, most in figures.values():  # quoted, never held to a budget here: only sane
        assert 0 < p50 <= p99 <= most
    first, every = figures["first"], figures["page"]
    assert every[2] >= first[2]  # the first client's receipts are among all of them
    assert re.search(r"\(budget: p99 at most 50 ms\)", out)
    assert re.search(r"TOUCH sent to FRAME read \(the host\), p99: [\d.]+ ms page off, [\d.]+ ms page on", out)
    assert re.search(r"the socket that never reads: dropped by the page \d+ times .* \d+ KB waited for it", out)
    memory = re.search(r"page on with 3 clients: (\d+) MB, peak (\d+) MB \(budget: 80 MB\)\n.*page off: (\d+) MB, peak (\d+) MB", out)
    assert memory, out
    on, on_peak, off, off_peak = (int(value) for value in memory.groups())
    assert 0 < on <= on_peak and 0 < off <= off_peak
    idle = re.search(r"idle CPU of run over 1 s, .* with 5 idle clients ([\d.]+) % of one core, page off ([\d.]+) % \(budget: 1 %\)", out)
    assert idle and all(float(value) >= 0 for value in idle.groups()), out
    assert re.search(r"this machine: \d+ CPUs, load average [\d.]+ at the start and [\d.]+ at the end", out)
    assert "left out: the page's own rendering in a browser" in out
    assert "Traceback" not in result.stderr
