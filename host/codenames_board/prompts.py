"""What the table says to the spymasters: one question at a time and the last three notices,
each going away on its own after a while.

``Prompts`` keeps them with their expiry times; the table shows ``question`` and
``notices`` (the newest last) through its published state. ``board_notice`` words what
the tile board reports; ``BoardWatch`` follows the board's events.
"""

from __future__ import annotations

import logging

from .engine import tile_name
from .tileboard import BoardConnected, BoardDisconnected, BoardProblem
from .ui import Confirm, Notice

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 15.0  # an unanswered question goes away
NOTICE_SECONDS = 8.0
NOTICES_SHOWN = 3

#: The three MPR121s' (I2C bus, address) in the firmware's order (firmware/board.py, MPR121S).
TOUCH_CONTROLLERS = ((0, 0x5A), (0, 0x5B), (1, 0x5A))


class Prompts:
    def __init__(self) -> None:
        self.question: Confirm | None = None
        self.notices: tuple[Notice, ...] = ()
        self._question_until: float | None = None
        self._notices_until: list[float] = []  # one per notice, in the same order

    def ask(self, question: Confirm | None, now: float) -> None:
        """Ask (None: take the question away)."""
        if question is not None:
            log.info("asking the spymasters: %s", question.name.lower())  # the journal tells what the table waits for
        self.question = question
        self._question_until = now + CONFIRM_SECONDS if question is not None else None

    def notice(self, notice: Notice, now: float) -> None:
        self.notices = (*self.notices, notice)[-NOTICES_SHOWN:]
        self._notices_until = (self._notices_until + [now + NOTICE_SECONDS])[-NOTICES_SHOWN:]

    def showing(self, msgids: frozenset[str]) -> bool:
        return any(notice.msgid in msgids for notice in self.notices)

    def forget(self, msgids: frozenset[str]) -> None:
        """Take these notices away now (what they said is no longer true)."""
        kept = [i for i, notice in enumerate(self.notices) if notice.msgid not in msgids]
        self.notices = tuple(self.notices[i] for i in kept)
        self._notices_until = [self._notices_until[i] for i in kept]

    def update(self, now: float) -> None:
        """Questions and notices whose time is up go away."""
        if self._question_until is not None and now >= self._question_until:
            self.ask(None, now)
        if self._notices_until and now >= self._notices_until[0]:
            self._notices_until = [until for until in self._notices_until if until > now]
            self.notices = self.notices[-len(self._notices_until) :] if self._notices_until else ()

    def next_wake(self) -> float | None:
        times = [time for time in (self._question_until, *self._notices_until[:1]) if time is not None]
        return min(times) if times else None


def board_notice(code: str, detail: str, tr) -> Notice:
    """The notice for a tile board's report (``BoardProblem``): its tile or touch controllers by name."""
    if code in ("noisy", "quiet", "stuck") and detail.isdigit() and int(detail) < 25:
        detail = tile_name(int(detail))
    msgid = f"notice.board_{code}"
    if code == "pads" and detail == "-":
        msgid = "notice.board_pads_ok"
    elif code == "pads":
        detail, count = touch_controllers(detail)
        if count > 1:
            msgid = "notice.board_pads_many"
    elif not tr.has(msgid):
        msgid = "notice.board_other"
    return Notice(msgid, (("detail", detail),))


def touch_controllers(detail: str) -> tuple[str, int]:
    """The firmware's controller indexes ("1", "0,2": from 0) as the build guide names them.

    hardware/README.md and wiring/README.md count the boards from 1 ("MPR121 2" is 0x5B on I2C0), so
    "1" becomes "2 (I2C0 0x5B)". Returns the names, comma-separated, and how many there are.
    """
    names = []
    for part in (part.strip() for part in detail.split(",")):
        if part.isdigit() and int(part) < len(TOUCH_CONTROLLERS):
            bus, address = TOUCH_CONTROLLERS[int(part)]
            names.append(f"{int(part) + 1} (I2C{bus} 0x{address:02X})")
        elif part:
            names.append(part)
    return ", ".join(names), len(names)


class BoardWatch:
    """The tile board as the table knows it: ``connected``, and its reports as notices (a board running
    firmware this package does not ship is said once)."""

    def __init__(self, connected: bool, prompts: Prompts, tr) -> None:
        self.connected = connected
        self.prompts = prompts
        self.tr = tr
        self._said_other_firmware = False

    def event(self, event, now: float) -> bool:
        """True if ``event`` was the board's (and is taken care of)."""
        kind = type(event)
        if kind is BoardConnected:
            self.connected = True
            if event.other_firmware and not self._said_other_firmware:
                self._said_other_firmware = True
                self.prompts.notice(Notice("firmware_install.other_firmware"), now)
        elif kind is BoardDisconnected:
            self.connected = False
        elif kind is BoardProblem:
            self.prompts.notice(board_notice(event.code, event.detail, self.tr), now)
        else:
            return False
        return True
