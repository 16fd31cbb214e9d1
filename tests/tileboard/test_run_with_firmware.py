"""`codenames-board run` as a real process with mock pins and the real firmware on a pty: kill -9 and resume."""

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from codenames_board.engine import Key
from patience import PATIENCE_S

_spec = importlib.util.spec_from_file_location("firmware_board", Path(__file__).parents[2] / "firmware" / "board.py")
PIN_TABLE = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(PIN_TABLE)


@pytest.fixture
def table_config(tmp_path, firmware):
    path = tmp_path / "config.toml"
    path.write_text(
        f'state_dir = "{tmp_path / "state"}"\n'
        f'[tiles]\nport = "{firmware.link}"\nbrightness = 255\nmax_current_ma = 10000\n'
        f'[display]\noutput = "png"\npng = "{tmp_path / "spymaster.png"}"\n'
        "[game]\nclue_entry = false\n"  # touches are guesses: no buttons needed to play
    )
    return path


class Run:
    """``codenames-board run`` as a real process; ``lines`` fills with its log as it is written."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process = process
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.decode(errors="replace").rstrip())

    def connected(self) -> bool:
        """The tile board answered this process (not a session before it, whose frame the LEDs may still show)."""
        return any("codenames_board.tileboard.serial_board: tile board on" in line for line in self.lines)

    def output(self) -> str:
        self.reader.join(timeout=PATIENCE_S)
        return "\n".join(self.lines)


def start_run(config) -> Run:
    environment = {
        **os.environ,
        "GPIOZERO_PIN_FACTORY": "mock",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYTHONUNBUFFERED": "1",
        "CODENAMES_BOARD_LOG": "debug",
    }
    return Run(subprocess.Popen(
        [sys.executable, "-m", "codenames_board", "run", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=environment,
    ))


def record_lines(state):
    records = sorted((state / "games").glob("*.jsonl"))
    if len(records) != 1:
        return []
    return [json.loads(line) for line in records[0].read_text().splitlines() if line.strip()]


def tile_lit(firmware, tile):
    writes = firmware.led_writes()
    if not writes:
        return False
    at = 3 * PIN_TABLE.CHAIN[tile]
    return sum(writes[-1][at : at + 3]) > 3 * 40  # well above the faint idle glow


def test_a_game_survives_kill_9_and_resumes_with_its_leds(tmp_path, firmware, table_config, wait_until):
    state = tmp_path / "state"
    run = start_run(table_config)
    try:
        header = wait_until(lambda: (record_lines(state) or [None])[0], what="a new game record")
        key = Key.from_text(f"{header['key']}:{header['start']}")
        first, second = key.agents(key.start)[:2]
        wait_until(lambda: len(record_lines(state)) == 2, what="the automatic clue")
        wait_until(run.connected, what="the tile board answering run")  # a touch before is nobody's
        wait_until(firmware.led_writes, what="the host drawing on the board")
        firmware.touch(first, True)  # a finger stays on the tile until the table has it
        wait_until(lambda: len(record_lines(state)) == 3, what="the touch in the record")
        firmware.touch(first, False)
        wait_until(lambda: tile_lit(firmware, first), what="the revealed tile lit")
    finally:
        run.process.send_signal(signal.SIGKILL)
        run.process.wait(timeout=PATIENCE_S)
        print(run.output())
    before = record_lines(state)
    assert before[-1]["action"] == "touch" and before[-1]["tile"] == first

    shown_before = len(firmware.led_writes())
    again = start_run(table_config)
    try:
        wait_until(again.connected, what="the tile board answering the new run")
        wait_until(
            lambda: len(firmware.led_writes()) > shown_before and tile_lit(firmware, first),
            what="the new session's LEDs showing the game again",
        )
        firmware.touch(second, True)
        wait_until(lambda: len(record_lines(state)) == 4, what="the next touch in the same record")
        firmware.touch(second, False)
        assert record_lines(state)[:3] == before
        again.process.send_signal(signal.SIGTERM)
        assert again.process.wait(timeout=PATIENCE_S) == 0
    finally:
        if again.process.poll() is None:
            again.process.kill()
    assert "resumed" in again.output()


def test_run_refuses_a_bad_config_before_touching_any_hardware(tmp_path, run_cli):
    path = tmp_path / "config.toml"
    path.write_text("[pins]\nundo = 99\n")
    result = run_cli("run", "--config", path, env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"{path}: [pins] undo = 99: the Pi has no such pin on its header; use a BCM GPIO number from 2 to 27"
    ]


def test_run_without_gpio_says_what_to_do(tmp_path, run_cli):
    path = tmp_path / "config.toml"
    path.write_text(f'state_dir = "{tmp_path}"\n[tiles]\ndriver = "virtual"\n[display]\noutput = "png"\npng = "{tmp_path / "s.png"}"\n')
    result = run_cli("run", "--config", path, env={"GPIOZERO_PIN_FACTORY": "nonesuch", "SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].startswith("no GPIO pins here:")
    assert len(result.stderr.strip().splitlines()) == 1
