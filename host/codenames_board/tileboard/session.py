"""One session with the board, on the reader thread: the handshake, then its lines until it goes away.

``handshake()`` says HELLO and waits ``HANDSHAKE_S`` for BOARD: a board that
speaks another protocol, or has another layout than the configuration, is
refused with a ``BoardProblem`` that says so; a good one gets every setting
again (``Tuner.send_all``) and the whole last frame, so the LEDs are right at
once, and ``BoardConnected`` goes to the table. ``serve()`` then reads the
board's lines and hands each to the part it is for, sends a heartbeat when
nothing went out for ``BEAT_S``, watches the ACKs (``Frames``), and raises
``LinkDown`` when the board was silent for ``SILENT_S``; the link reconnects.

Damaged or malformed lines are dropped and counted, never raised: a touch
event comes only from a line whose checksum and fields are right. Every number
the board sends is read with ``tileproto.number``: ASCII digits only.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from codenames_firmware.tileproto import PROTOCOL, message, number

from .base import BoardConnected, BoardProblem, EventCallback, TileBoard, TileTouched
from .firmware_files import board_identity, runs_shipped, shipped_identity
from .frames import Frames
from .link import BEAT_S, LinkDown, SerialLink, log
from .reports import Reports
from .tuning import Tuner

SILENT_S = 1.0
HANDSHAKE_S = 1.0


class Session:
    """``Session(board, link, frames, tuner, reports, lock, post, clock)``: the reader thread's work on an open port.

    :param board: the driver: its layout and settings, and ``connected``, set here after a good handshake.
    :param lock: the driver's lock, held for every line written and while a handshake's lines go out.
    """

    def __init__(
        self, board: TileBoard, link: SerialLink, frames: Frames, tuner: Tuner, reports: Reports,
        lock: threading.Lock, post: EventCallback, clock: Callable[[], float],
    ) -> None:
        self.board = board
        self.link = link
        self.frames = frames
        self.tuner = tuner
        self.reports = reports
        self.lock = lock
        self.post = post
        self.clock = clock
        self.info: BoardConnected | None = None  # what the board said in its last BOARD
        self.malformed = 0  # lines with a good checksum but fields that make no sense
        self.lost_touches = 0  # gaps in the board's touch numbering
        self.board_counters: tuple[int, int, int] = (0, 0, 0)  # damaged, overflows, dropped, as the board says
        self._touch_seq: int | None = None
        self._last_heard = 0.0
        self._said_other_firmware = False

    def handshake(self) -> None:
        with self.lock:
            self.link.write(message("HELLO", PROTOCOL))
        deadline = self.clock() + HANDSHAKE_S
        while self.clock() < deadline and not self.link.stopping.is_set():
            for words in self.link.read_messages():
                if words[0] == b"BOARD":
                    self.board_line(words)
                    return
                if words[0] == b"ERROR" and words[1:2] == [b"protocol"]:
                    self._refuse(b" ".join(words[2:]).decode())
        raise LinkDown("no answer to HELLO")

    def _refuse(self, protocol: str) -> None:
        self.post(BoardProblem("protocol", protocol))
        raise LinkDown(f"the board speaks protocol {protocol}, this program {PROTOCOL}: update the firmware")

    def board_line(self, words: list[bytes]) -> None:
        """``BOARD protocol firmware tiles status_leds ...``: the board, if it is one this program can drive."""
        board = self.board
        try:
            protocol, firmware = number(words[1]), words[2].decode()
            tiles, status_leds = number(words[3]), number(words[4])
        except (IndexError, ValueError, UnicodeDecodeError):
            self.malformed += 1
            raise LinkDown("malformed BOARD") from None
        if protocol != PROTOCOL:
            self._refuse(str(protocol))
        if (tiles, status_leds) != (board.tiles, board.status_leds):
            self.post(BoardProblem("layout", f"{tiles} {status_leds}"))
            raise LinkDown(
                f"the board has {tiles} tiles and {status_leds} status LEDs, the configuration says "
                f"{board.tiles} and {board.status_leds}"
            )
        other = not runs_shipped(firmware)
        if other and not self._said_other_firmware:  # once a run: the log is not a reconnect counter
            self._said_other_firmware = True
            log.warning(
                "the tile board runs other firmware (%s) than this codenames-board ships (%s): "
                "codenames-board firmware install",
                board_identity(firmware),
                shipped_identity(),
            )
        port = self.link.port
        self.info = BoardConnected(port or "", protocol, firmware, tiles, status_leds, other)
        log.info(
            "tile board on %s: firmware %s, %d tiles, %d status LEDs; LEDs at brightness %d, capped at %d mA",
            port, firmware, tiles, status_leds, board.brightness, board.max_ma,
        )
        self._touch_seq = None
        self._last_heard = self.clock()
        with self.lock:
            board.connected = True
            self.frames.forget()
            self.tuner.send_all()
            if self.frames.shown:  # nothing drawn yet: no dark frame flashing up before the first one
                self.frames.send_frame()
        self.post(self.info)

    def serve(self) -> None:
        said = self.reports.said
        try:
            while not self.link.stopping.is_set():
                for words in self.link.read_messages():
                    self._last_heard = self.clock()
                    self.dispatch(words)
                now = self.clock()
                if now - self._last_heard > SILENT_S:
                    raise LinkDown("silent")
                self.frames.check_acknowledged(now)
                said.flush(now)
                if now - self.link.last_sent >= BEAT_S:
                    with self.lock:
                        self.link.write(message("BEAT", 0))
        finally:
            said.flush(everything=True)  # the counts so far, before the session's end is logged

    def dispatch(self, words: list[bytes]) -> None:
        """One line from the board, to the part it is for; a malformed one is counted and dropped."""
        kind = words[0]
        try:
            if kind == b"TOUCH":
                self._touch(number(words[1]), number(words[2]), number(words[3]))
            elif kind == b"BEAT":
                counters = (number(words[3]), number(words[4]), number(words[5]))
                if counters != self.board_counters:
                    self.board_counters = counters
                    self.reports.said.say(
                        "counts", logging.WARNING, "tile board counts: damaged %d, too long %d, not sent %d", *counters
                    )
            elif kind == b"ACK":
                seq = number(words[1])
                if 0 <= seq <= 0xFFFF:
                    self.frames.acknowledged(seq)
                else:
                    self.malformed += 1
            elif kind == b"PADS":
                self.tuner.pads_line(words)
            elif kind == b"TUNED":
                self.tuner.tuned_line(words)
            elif kind == b"ERROR":
                if not self.tuner.refused(words):
                    code = words[1].decode()
                    detail = b" ".join(words[2:]).decode()
                    self.reports.said.say(
                        ("ERROR", code, detail), logging.WARNING, "tile board reports %s %s", code, detail
                    )
                    self.reports.problem(code, detail)
            else:
                self.malformed += 1
        except (IndexError, ValueError, UnicodeDecodeError):
            self.malformed += 1
            log.debug("malformed line from the tile board: %r", words)

    def _touch(self, seq: int, tile: int, state: int) -> None:
        if not (0 <= tile < self.board.tiles and state in (0, 1) and 0 <= seq <= 0xFFFF):
            self.malformed += 1
            return
        last = self._touch_seq
        if last is not None:
            gap = (seq - last) & 0xFFFF
            if gap == 0 or gap > 0x8000:  # a repeat or an old one: already handled
                return
            if gap > 1:
                self.lost_touches += gap - 1
                self.reports.said.say("lost", logging.WARNING, "tile board: %d touch events lost", gap - 1)
        self._touch_seq = seq
        self.post(TileTouched(tile, bool(state)))
