"""Pairing a spymaster's phone with the table, one game at a time.

The hooded display shows a QR code of ``BASE/pair#t=TOKEN`` and a six-digit PIN
(``card()``). A phone that sends the token or the PIN back gets a session: a random
value the server keeps in an HttpOnly cookie. ``new_round()`` (a new game, or the
table's "unpair") forgets every session and makes a new token and PIN.

Guessing the PIN is bounded twice. Each address has ``FREE_TRIES`` wrong tries, then
one more every ``TRY_SECONDS``, so one guesser cannot lock the others out; and the
whole table has ``TABLE_FREE_TRIES``, then one every ``TABLE_TRY_SECONDS``, against
a guesser with many addresses. A million guesses then take 35 days; a night of 12
hours allows 14,400 (1.4 % of the PINs), and the PIN changes every game. The token
is 128 random bits: it needs no bound. A good PIN resets its address's bound.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from typing import Callable

from ..ui import PairingCard

FREE_TRIES = 5
TRY_SECONDS = 5.0
TABLE_FREE_TRIES = 10
TABLE_TRY_SECONDS = 3.0
ADDRESSES_KEPT = 256  # the addresses whose tries are counted; the oldest is forgotten first
MAX_PHONES = 8  # paired at once: two spymasters with a spare phone each, and then some


class PhonesChanged:
    """Posted to the table's queue when a phone paired: the hooded display shows the new count."""


class PairRefused(Exception):
    """``msgid``: web.pair_wrong, web.pair_wait (``seconds`` until the next try), web.pair_full."""

    def __init__(self, msgid: str, seconds: int = 0) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.seconds = seconds


class _Tries:
    """Wrong tries left: ``free`` at most, one more every ``seconds``."""

    def __init__(self, free: int, seconds: float, now: float) -> None:
        self.free, self.seconds = free, seconds
        self.left, self.at = float(free), now

    def wait(self, now: float) -> int:
        """Seconds until the next try is allowed (0: now)."""
        self.left = min(float(self.free), self.left + (now - self.at) / self.seconds)
        self.at = now
        return 0 if self.left >= 1 else int((1 - self.left) * self.seconds) + 1


class Pairing:
    """The token, the PIN and the paired sessions of this round. Thread-safe: the table's thread
    starts rounds, the server's thread pairs and checks."""

    def __init__(self, base_url: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.base_url = base_url
        self.clock = clock
        self._lock = threading.Lock()
        self._sessions: set[str] = set()
        self._table = _Tries(TABLE_FREE_TRIES, TABLE_TRY_SECONDS, clock())
        self._addresses: dict[str, _Tries] = {}
        self.round = 0
        self.new_round()

    def new_round(self) -> None:
        with self._lock:
            self.round += 1
            self._token = secrets.token_urlsafe(16)  # 128 bits
            self._pin = f"{secrets.randbelow(10**6):06d}"
            self._sessions = set()

    def card(self) -> PairingCard:
        with self._lock:
            return PairingCard(f"{self.base_url}/pair#t={self._token}", self._pin, len(self._sessions))

    @property
    def devices(self) -> int:
        return len(self._sessions)

    def pair(self, token: str | None = None, pin: str | None = None, address: str = "") -> str:
        """A new session for a right token or PIN; raises PairRefused otherwise. ``address``: the phone's."""
        with self._lock:
            if token is not None and hmac.compare_digest(token.encode(), self._token.encode()):
                return self._open()
            now = self.clock()
            mine = self._addresses.pop(address, None) or _Tries(FREE_TRIES, TRY_SECONDS, now)
            self._addresses[address] = mine  # the newest last: the oldest is forgotten first
            while len(self._addresses) > ADDRESSES_KEPT:
                del self._addresses[next(iter(self._addresses))]
            wait = mine.wait(now) or self._table.wait(now)
            if wait:
                raise PairRefused("web.pair_wait", wait)
            if pin is not None and hmac.compare_digest(pin.encode(), self._pin.encode()):
                mine.left = float(FREE_TRIES)
                return self._open()
            mine.left -= 1
            self._table.left -= 1
            raise PairRefused("web.pair_wrong")

    def _open(self) -> str:
        if len(self._sessions) >= MAX_PHONES:
            raise PairRefused("web.pair_full")
        session = secrets.token_urlsafe(16)
        self._sessions.add(session)
        return session

    def paired(self, session: str | None) -> bool:
        return session is not None and session in self._sessions
