"""codenames-board selftest --pads end to end: the real firmware under MicroPython on a pty, the
real serial driver, the command as a process; its output parsed as a maker would read it."""

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from codenames_board.tileboard import PadSignals, TileTouched
from codenames_board.tileboard.serial_board import SerialTileBoard
from patience import PATIENCE_S

CELL = re.compile(r"([+~x.]) +(--|\d+)/(\d+)")


class Command:
    """The command as a process; its stdout as lines, read as they come."""

    def __init__(self, *args, cwd):
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_CONFIG_HOME": str(cwd), "CODENAMES_BOARD_LOG": "warning"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "codenames_board", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd, start_new_session=True,
        )
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, predicate, timeout=PATIENCE_S, what="a line"):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{what}: not within {timeout} s; saw {self.seen[-20:]}\n{self.stderr()}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(line)
            if predicate(line):
                return line

    def stderr(self):
        if self.process.poll() is None:
            return ""
        return self.process.stderr.read()


def row_cells(line):
    return [(mark, now, int(best)) for mark, now, best in CELL.findall(line)]


def row(command, letter, column, mark, best, what):
    """Wait for a grid whose row ``letter`` shows ``mark`` and the best signal ``best`` at ``column``
    (1-5); its cells."""

    def shows(line):
        cells = row_cells(line) if line.startswith(f"{letter}   ") else []
        return len(cells) == 5 and (cells[column - 1][0], cells[column - 1][2]) == (mark, best)

    return row_cells(command.wait_for(shows, what=what))


@pytest.fixture
def pads_command(firmware, tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(f'[tiles]\nport = "{firmware.link}"\ntouch_threshold = 10\nrelease_threshold = 5\n')
    command = Command("selftest", "--pads", "--config", str(config), "--lang", "en", cwd=tmp_path)
    yield command
    if command.process.poll() is None:
        command.process.kill()
        command.process.wait(timeout=10)


def test_selftest_pads_shows_each_tiles_margin_and_ends_with_a_verdict_per_pad(pads_command, firmware):
    command = pads_command
    command.wait_for(lambda line: line.startswith("Touch every tile"), what="the invitation")
    # The thresholds shown are the board's own answer: the config's, sent with TUNE after the handshake.
    command.wait_for(lambda line: line == "Signal now/best in counts (touch threshold 10, release 5):", what="the grid")
    firmware.command("touch 0 1 40")  # A1: 40 counts, 4 times the threshold
    cells = row(command, "A", 1, "+", 40, "A1 good")
    assert cells[1] == (".", "0", 0)
    firmware.command("touch 0 0")
    firmware.command("touch 1 1 15")  # A2: over 10, under twice 10
    row(command, "A", 2, "~", 15, "A2 marginal")
    firmware.command("touch 1 0")
    firmware.command("touch 2 1 6")  # A3: the pad moves, but never past the threshold
    assert row(command, "A", 3, "x", 6, "A3 dead")[0][0] == "+"
    firmware.command("touch 2 0")
    command.process.send_signal(signal.SIGINT)  # Ctrl-C
    assert command.process.wait(timeout=15) == 130
    command.wait_for(lambda line: line == "Pads:", what="the summary")
    summary = [command.wait_for(lambda line: True, what="summary lines") for _ in range(5)]
    assert summary[:4] == [
        "  good (1): A1",
        "  marginal (1): A2",
        "  dead (1): A3",
        "  untested (22): " + " ".join(f"{row}{column}" for row in "ABCDE" for column in range(1, 6))[9:],
    ]
    assert "firmware/TUNING.md" in summary[4]


def test_the_serial_driver_tunes_the_board_and_reads_its_pads(firmware, events):
    board = SerialTileBoard(port=str(firmware.link), on_event=events)
    board.tune(9, 4, 2)  # before the handshake: sent after it
    board.start()
    try:
        deadline = time.monotonic() + PATIENCE_S
        while board.tuned != (9, 4, 2):
            assert time.monotonic() < deadline, "no TUNED"
            time.sleep(0.02)
        firmware.command("touch 12 1 9")  # 9 counts: not over 9
        firmware.command("touch 13 1 10")
        assert events.wait_for(lambda event: isinstance(event, TileTouched)) == TileTouched(13, True)

        def pads(event):
            return isinstance(event, PadSignals) and event.signal(12) == 9

        deadline = time.monotonic() + PATIENCE_S
        while True:
            board.request_pads()
            try:
                signals = events.wait_for(pads, timeout=0.2)
                break
            except AssertionError:
                assert time.monotonic() < deadline
        assert (signals.touch, signals.release, signals.debounce) == (9, 4, 2)
        assert len(signals.pads) == 25 and signals.signal(13) == 10 and signals.signal(0) == 0
        assert signals.pads[12] == (600 - 9, 600)  # filtered, baseline
        with pytest.raises(ValueError):
            board.tune(3, 3, 1)  # refused by the driver already
    finally:
        board.close()
    assert board.malformed == 0


def test_a_bad_tune_is_refused_by_the_board_and_changes_nothing(firmware, events):
    board = SerialTileBoard(port=str(firmware.link), on_event=events).start()
    try:
        events.wait_for(lambda event: type(event).__name__ == "BoardConnected")
        with board._lock:
            board.link.write(b"TUNE 4 6*b98c0b29\n")  # as PROTOCOL.md's example
        problem = events.wait_for(lambda event: type(event).__name__ == "BoardProblem")
        assert (problem.code, problem.detail) == ("tune", "4 6 1")
    finally:
        board.close()
