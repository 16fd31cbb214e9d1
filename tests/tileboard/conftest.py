"""The firmware under the real MicroPython interpreter, on the far end of a real pseudo-terminal."""

import os
import queue
import signal
import subprocess
import threading
import time
import tty
from pathlib import Path

import pytest

from needs import micropython as micropython_command
from patience import PATIENCE_S

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
SHIMS = ROOT / "host" / "codenames_board" / "unixboard"
RESET_EXIT = 75  # unixboard/unix_board.py: where a Pico would machine.reset()


class PtyFirmware:
    """A Pico running our firmware, as far as the host can tell: plug it in, touch pads, read its LEDs.

    The host opens ``link`` (a symlink, like the udev rule's /dev/codenames-tiles)
    to the slave side of a pty; the firmware process owns the master side.
    Unplugging kills the process and closes the pty; plugging in again makes a
    new one behind the same link.

    ``flash`` is the board's flash: the firmware runs from that folder (its
    current directory and first import path). Unless a test fills it first, it
    holds the shipped firmware with its identity, as ``codenames-board
    firmware install`` leaves a Pico. When the firmware resets after new
    firmware (the process exits with RESET_EXIT), the board is plugged in
    again by itself, as a Pico comes back on USB; ``resets`` counts that.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.link = directory / "codenames-tiles"
        self.control = directory / "control"
        self.flash = directory / "flash"
        self.process: subprocess.Popen | None = None
        self._slave: int | None = None
        self.plugs = 0
        self.strip_order = "GRB"  # the colour order the emulated LEDs take their bytes in (unixboard/virtual_strip.py)
        self._resets = 0
        self._lock = threading.RLock()  # plug/unplug from the test and from the reset watcher

    @property
    def resets(self) -> int:
        """Resets the firmware did (after new firmware), each counted once the board is back."""
        with self._lock:  # a reset being plugged in again is waited for
            return self._resets

    @property
    def led_log(self) -> Path:
        return self.directory / f"leds-{self.plugs}"

    def plug(self) -> None:
        with self._lock:
            self._plug()

    def _plug(self) -> None:
        if not self.flash.exists():
            from codenames_board.tileboard.firmware_files import firmware_files, stage

            stage(self.flash, firmware_files(FIRMWARE))
        self.plugs += 1
        self.control.write_bytes(b"")
        self.led_log.write_bytes(b"")
        master, slave = os.openpty()
        tty.setraw(slave)
        # The firmware reads a whole frame per read on a non-blocking pty (unixboard/unix_stdin.py).
        os.set_blocking(master, False)
        environment = {
            **os.environ,
            "MICROPYPATH": f"{self.flash}:{SHIMS}",
            "TILES_CONTROL": str(self.control),
            "TILES_LEDS": str(self.led_log),
            "TILES_STRIP_ORDER": self.strip_order,
        }
        stderr = open(self.directory / f"stderr-{self.plugs}", "wb")
        self.process = subprocess.Popen(
            [micropython_command(), str(SHIMS / "unix_board.py")],
            stdin=master,
            stdout=master,
            stderr=stderr,
            env=environment,
            cwd=self.flash,
        )
        stderr.close()
        os.close(master)
        # The test keeps the slave open, so the pty survives the host closing and reopening it.
        self._slave = slave
        temporary = self.directory / "link.tmp"
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(os.ttyname(slave))
        temporary.replace(self.link)
        threading.Thread(target=self._watch, args=(self.process,), daemon=True).start()

    def _watch(self, process: subprocess.Popen) -> None:
        """A firmware that resets comes back, as a Pico does on USB (a kill is an unplug: it stays out)."""
        if process.wait() != RESET_EXIT:
            return
        with self._lock:
            if self.process is process:
                self._unplug()
                self._plug()
                self._resets += 1

    def unplug(self) -> None:
        with self._lock:
            self._unplug()

    def _unplug(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None
        self.link.unlink(missing_ok=True)

    def command(self, line: str) -> None:
        with open(self.control, "ab") as control:
            control.write(line.encode() + b"\n")

    def touch(self, tile: int, down: bool = True) -> None:
        self.command(f"touch {tile} {1 if down else 0}")

    def led_writes(self) -> list[bytes]:
        """Every write to the LEDs so far; a line the firmware is still writing is not one yet."""
        text = self.led_log.read_text()
        return [bytes.fromhex(line) for line in text[: text.rfind("\n") + 1].split()]

    def last_led_write(self) -> bytes:
        """The LEDs as last written (all dark before the firmware's first write)."""
        writes = self.led_writes()
        return writes[-1] if writes else bytes(3 * 37)

    def stderr(self) -> str:
        return (self.directory / f"stderr-{self.plugs}").read_text(errors="replace")


@pytest.fixture
def firmware(tmp_path):
    board = PtyFirmware(tmp_path)
    board.plug()
    yield board
    board.unplug()


@pytest.fixture
def flashed_firmware(tmp_path):
    """``flashed_firmware(files)``: a board whose flash holds these firmware files (with their
    identity, as the installer leaves them), not yet plugged in; unplugged at the end."""
    boards = []

    def make(files=None, folder="board"):
        from codenames_board.tileboard.firmware_files import stage

        board = PtyFirmware(tmp_path / folder)
        board.directory.mkdir()
        if files is not None:
            stage(board.flash, files)
        boards.append(board)
        return board

    yield make
    for board in boards:
        board.unplug()


class Events:
    """What a tile board reported, with waiting that ends as soon as the event is there."""

    def __init__(self) -> None:
        self.queue: queue.Queue = queue.Queue()
        self.seen: list = []

    def __call__(self, event) -> None:
        self.queue.put(event)

    def wait_for(self, predicate, timeout: float = PATIENCE_S):
        deadline = time.monotonic() + timeout
        for event in self.seen:
            if predicate(event):
                self.seen.remove(event)
                return event
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no matching event within {timeout} s; saw {self.seen}")
            try:
                event = self.queue.get(timeout=remaining)
            except queue.Empty:
                continue
            if predicate(event):
                return event
            self.seen.append(event)


@pytest.fixture
def events():
    return Events()


def _wait_until(condition, timeout: float = PATIENCE_S, what: str = "condition"):
    """Wait for a condition on a real process's output (files the firmware writes)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.02)


@pytest.fixture
def wait_until():
    return _wait_until
