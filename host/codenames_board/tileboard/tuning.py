"""What the host sets on the board besides the LEDs: the brightness limit, the colour order, touch thresholds.

The board's settings live in the driver (``TileBoard.limit``, ``order``,
``tune``, ``tune_pads``); ``Tuner`` sends them at once when the board is
connected (``send_now``) and all again after every handshake (``send_all``),
since a board that restarted has forgotten them.

The tiles' own thresholds: the board says in ``TUNED`` which it has, and one
``TUNEPAD`` goes out only when they differ from what is wanted (one per
handshake or ``tune_pads``, and a retry). ``request_pads()`` asks for every
pad's signal, which comes back as a ``PadSignals`` event. A board whose
firmware knows none of these (``ERROR unknown``) is said once in the log and
plays on with its own thresholds; when it cannot take what the configuration
asks for (its own thresholds, a colour order other than its green-first one),
a ``BoardProblem`` "firmware_tunepad" or "firmware_order" says so.
"""

from __future__ import annotations

import logging
import threading

from codenames_firmware.tileproto import message, number

from .base import EventCallback, PadSignals, TileBoard
from .link import SerialLink, log
from .reports import Reports


class Tuner:
    """``Tuner(board, link, lock, post, reports)``: the settings of ``board`` to the board, and its answers.

    :param board: the driver: its settings (``brightness``, ``tuning``, ...), ``tiles`` and ``connected``.
    :param lock: the driver's lock: ``send_all`` runs under it; every other line written here takes it.
    """

    def __init__(
        self, board: TileBoard, link: SerialLink, lock: threading.Lock, post: EventCallback, reports: Reports
    ) -> None:
        self.board = board
        self.link = link
        self.lock = lock
        self.post = post
        self.reports = reports
        self.tuned: tuple[int, int, int] | None = None  # what the board said in its last TUNED
        self.tuned_pads: dict[int, tuple[int, int]] = {}  # the tiles' own thresholds, as in that TUNED
        self.tunable = True  # False once the board answered TUNE or PADS as unknown
        self.pads_tunable = True  # False once it answered TUNEPAD as unknown
        self._tunepads_left = 0  # TUNEPADs this session may still send (one per TUNE, and a retry)

    # --- the host's side

    def send_all(self) -> None:
        """(Under the lock, after a handshake.) Every setting, as the board forgot them."""
        board = self.board
        self.link.write(message("LIMIT", board.brightness, board.max_ma))
        if board.led_order is not None:
            self.link.write(message("ORDER", board.led_order))
        self._tunepads_left = 2 if board.pad_tuning else 1
        if board.tuning is not None:
            self.link.write(message("TUNE", *board.tuning))

    def send_now(self, kind: str, *fields: object) -> None:
        """A setting just changed (LIMIT, TUNE, ORDER): to the board at once if it is there."""
        with self.lock:
            if self.board.connected:
                self.link.write(message(kind, *fields))

    def pads_changed(self) -> None:
        """The tiles' own thresholds just changed: a TUNEPAD if the board's differ (once it said which)."""
        with self.lock:
            if self.board.connected and self.tuned is not None:
                self._tunepads_left = 1
                self._send_tunepad()

    def request_pads(self) -> bool:
        with self.lock:
            if not (self.board.connected and self.tunable):
                return False
            self.link.write(message("PADS"))
        return True

    def _send_tunepad(self) -> None:
        """(Under the lock.) One TUNEPAD naming every tile that should have its own thresholds and
        every tile that has some it should not (0 0), when what the board said in TUNED differs."""
        wanted, board = self.board.pad_tuning, self.tuned_pads
        if wanted == board or not self.pads_tunable or self._tunepads_left <= 0:
            return
        self._tunepads_left -= 1
        fields: list[int] = []
        for tile in sorted(set(wanted) | set(board)):
            fields.extend((tile, *wanted.get(tile, (0, 0))))
        self.link.write(message("TUNEPAD", *fields))

    # --- the board's answers (reader thread; ValueError or IndexError for a malformed line)

    def refused(self, words: list[bytes]) -> bool:
        """An ERROR line: True when it is ``ERROR unknown`` for one of the settings (said here), else False."""
        if words[1:2] != [b"unknown"]:
            return False
        kind = words[2:3]
        if kind in ([b"TUNE"], [b"PADS"]):
            if self.tunable:
                self.tunable = False
                log.warning(
                    "the tile board's firmware cannot be tuned or show its pads (it answers %s as unknown): "
                    "codenames-board firmware install", kind[0].decode()
                )
        elif kind == [b"TUNEPAD"]:
            if self.pads_tunable:
                self.pads_tunable = False
                self.reports.too_old("TUNEPAD", "thresholds of their own for some tiles ([tiles.thresholds])")
        elif kind == [b"ORDER"]:
            led_order = self.board.led_order
            if led_order not in (None, "GRB"):  # an older board lays out frames green first anyway
                self.reports.too_old("ORDER", f"the LED colour order {led_order} ([leds] order)")
        else:
            return False
        return True

    def tuned_line(self, words: list[bytes]) -> None:
        """``TUNED touch release debounce [tile,touch,release ...]``: what the board has in force."""
        tuned = (number(words[1]), number(words[2]), number(words[3]))
        pads = {}
        for word in words[4:]:
            tile, touch, release = (number(part) for part in word.split(b","))
            pads[tile] = (touch, release)
        self.tuned, self.tuned_pads = tuned, pads
        own = " ".join(f"{tile}:{touch}/{release}" for tile, (touch, release) in sorted(pads.items()))
        self.reports.said.say(
            ("TUNED", *words[1:]), logging.INFO,
            "tile board: touch threshold %d, release %d, debounce %d%s", *tuned, f"; tiles' own {own}" if own else "",
        )
        with self.lock:
            if self.board.connected:
                self._send_tunepad()

    def pads_line(self, words: list[bytes]) -> None:
        """``PADS touch release debounce filtered,baseline|- ...``: every pad's signal, as a PadSignals."""
        touch, release, debounce = number(words[1]), number(words[2]), number(words[3])
        tiles = self.board.tiles
        if len(words) != 4 + tiles:
            raise ValueError("a PADS line for another tile count")
        pads = []
        for word in words[4:]:
            if word == b"-":
                pads.append(None)
                continue
            filtered, baseline = word.split(b",")
            pads.append((number(filtered), number(baseline)))
        own = tuple(self.tuned_pads.get(tile) for tile in range(tiles))
        self.post(PadSignals(touch, release, debounce, tuple(pads), own))
