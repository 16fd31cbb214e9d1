"""The tile board on USB serial: the Pico running our firmware (pyserial).

``SerialTileBoard`` is the driver the table knows (``TileBoard``'s interface);
it puts together five parts, one job each, and keeps none of their state:

- ``link.SerialLink``, the port: finding and opening it, one line out, the
  lines that came in, and the reader thread that reopens the port after any
  trouble (unplugged, silent for a second, garbage) with a growing pause;
- ``session.Session``, one session on that port: HELLO, BOARD and the
  refusals, heartbeats, silence, and each line the board sends handed to the
  part it is for (touches are counted and posted there);
- ``frames.Frames``, the LEDs: FRAME or SET, the ACKs, the repair of a lost line;
- ``tuning.Tuner``, the settings (LIMIT, ORDER, TUNE, TUNEPAD, PADS): sent at
  once and after every handshake, and the board's answers to them;
- ``reports.Reports``, what the board reports, to the log through ``Repeats``
  and to the table as ``BoardProblem``s, flooding neither.

Why this cut: each part has one reason to change and its own state (the
port; what the board said in this session; the seqs and the frame the board
shows; the settings the board has in force; the rate limits). What they share
is the driver itself: its settings, ``frame`` and ``connected``, read through
``TileBoard``, and its lock and event callback, handed to each. The tuning is apart from the session
because the answers to it (TUNED, PADS, ERROR unknown) make a job of their
own, and the rate limits because the session and the tuning both report.
Imports flow one way, and no part imports this module: serial_board →
session → tuning → reports → link → base, and frames (→ link) beside tuning.

Threads: the reader thread (``link``) runs the session; ``show()`` and the
settings run on the caller's thread (the controller's; ``show()`` is on the
touch's path) and write straight to the port under ``_lock``, which every
line written holds (firmware/PROTOCOL.md says what each line means).

Every part logs under this module's name (``codenames_board.tileboard.serial_board``),
as the driver did when it was one class. The counters and what the board said
(``malformed``, ``repairs``, ``tuned``, ...) are attributes of this driver that
read (and write) the part that keeps them.
"""

from __future__ import annotations

import time
from typing import Callable

from .base import EventCallback, TileBoard
from .frames import REPAIR_S, SET_MOST, Frames
from .link import (
    BACKOFF_S,
    BEAT_S,
    MICROPYTHON_PID,
    PICO_VID,
    READ_SIZE,
    STABLE_NAME,
    WRITE_TIMEOUT_S,
    LinkDown,
    SerialLink,
    find_board,
    stop_board,
)
from .reports import PROBLEMS_PER_S, Reports
from .session import HANDSHAKE_S, SILENT_S, Session
from .tuning import Tuner

__all__ = [
    "BACKOFF_S",
    "BEAT_S",
    "HANDSHAKE_S",
    "MICROPYTHON_PID",
    "PICO_VID",
    "PROBLEMS_PER_S",
    "READ_SIZE",
    "REPAIR_S",
    "SET_MOST",
    "SILENT_S",
    "STABLE_NAME",
    "WRITE_TIMEOUT_S",
    "LinkDown",
    "SerialTileBoard",
    "find_board",
    "stop_board",
]


class _Kept:
    """An attribute of the driver that one of its parts keeps: read, and written, there."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, board: SerialTileBoard | None, owner: type | None = None):
        if board is None:
            return self
        return getattr(getattr(board, self.part), self.name)

    def __set__(self, board: SerialTileBoard, value: object) -> None:
        setattr(getattr(board, self.part), self.name, value)


class SerialTileBoard(TileBoard):
    """``SerialTileBoard(port="auto", on_event=queue.put)``; ``start()`` begins connecting in the background.

    :param port: the board's serial port; "auto" or None: the udev name, else a MicroPython Pico by USB id.
    :param tiles: tiles on the board; :param status_leds: LEDs after the tiles (a BOARD with others is refused).
    :param on_event: gets every ``TileBoardEvent``, on the reader thread (it must not block).
    :param clock: seconds, monotonic (tests pass a fake one); :param find: the port for a setting, or None.
    """

    port_setting = _Kept("link")  # as configured: a path, or "auto" / None
    find = _Kept("link")
    port = _Kept("link")  # the port last opened
    reconnects = _Kept("link")  # sessions that ended after a handshake
    damaged = _Kept("link")  # lines dropped for a bad checksum or characters, or for being too long
    info = _Kept("session")  # the last BoardConnected
    malformed = _Kept("session")  # lines with a good checksum but fields that make no sense
    lost_touches = _Kept("session")  # gaps in the board's touch numbering
    board_counters = _Kept("session")  # damaged, overflows, dropped, as the board says in BEAT
    acked_frame = _Kept("frames")  # the seq of the board's last ACK
    repairs = _Kept("frames")  # whole frames sent again because a FRAME or SET went missing
    tuned = _Kept("tuner")  # (touch, release, debounce) as the board said in its last TUNED
    tuned_pads = _Kept("tuner")  # the tiles' own thresholds, as in that TUNED
    tunable = _Kept("tuner")  # False once the board answered TUNE or PADS as unknown
    pads_tunable = _Kept("tuner")  # False once it answered TUNEPAD as unknown

    def __init__(
        self,
        port: str | None = "auto",
        tiles: int = 25,
        status_leds: int = 12,
        on_event: EventCallback | None = None,
        clock: Callable[[], float] = time.monotonic,
        find: Callable[[str | None], str | None] = find_board,
    ) -> None:
        super().__init__(tiles, status_leds, on_event)
        self.clock = clock
        lock, post = self._lock, self._post
        self.link = SerialLink(self, port, find, lock, post, clock)
        self.frames = Frames(self, self.link, lock, clock)
        self.reports = Reports(post, clock)
        self.tuner = Tuner(self, self.link, lock, post, self.reports)
        self.session = Session(self, self.link, self.frames, self.tuner, self.reports, lock, post, clock)

    def start(self) -> SerialTileBoard:
        self.link.start(self.session)
        return self

    def show(self, frame: bytes) -> None:
        frame = self.check_frame(frame)
        with self._lock:
            self.frame = frame
            self.frames.shown = True
            if self.connected:
                self.frames.send_changes()

    def limit(self, brightness: int, max_ma: int) -> None:
        super().limit(brightness, max_ma)
        self.tuner.send_now("LIMIT", brightness, max_ma)

    def tune(self, touch: int, release: int, debounce: int) -> None:
        super().tune(touch, release, debounce)
        self.tuner.send_now("TUNE", touch, release, debounce)

    def tune_pads(self, thresholds: dict[int, tuple[int, int]]) -> None:
        super().tune_pads(thresholds)
        self.tuner.pads_changed()

    def order(self, colours: str) -> None:
        super().order(colours)
        self.tuner.send_now("ORDER", colours)

    def request_pads(self) -> bool:
        return self.tuner.request_pads()

    def close(self) -> None:
        self.link.stop()
        super().close()
        self.link.close()
