"""Pairing a spymaster's phone with the table, one game at a time.

The hooded display shows a QR code of ``BASE/pair#t=TOKEN`` and a six-digit PIN
(``card()``). A phone that sends the token or the PIN back gets a session: a random
value the server keeps in an HttpOnly cookie. ``new_round()`` (a new game, or the
table's "unpair") forgets every session and makes a new token and PIN.

Guessing the PIN is bounded for the whole table, not per address (addresses are
cheap on a home network): ``FREE_TRIES`` wrong tries, then one more every
``TRY_SECONDS``. A million guesses then take 58 days; a night of 12 hours allows
about 8,600, a chance of under 1 % to find one PIN, and the PIN changes every game.
The token is 128 random bits: it needs no such bound. A good PIN resets the bound.
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
MAX_PHONES = 8  # paired at once: two spymasters with a spare phone each, and then some


class PhonesChanged:
    """Posted to the table's queue when a phone paired: the hooded display shows the new count."""


class PairRefused(Exception):
    """``msgid``: web.pair_wrong, web.pair_wait (``seconds`` until the next try), web.pair_full."""

    def __init__(self, msgid: str, seconds: int = 0) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.seconds = seconds


class Pairing:
    """The token, the PIN and the paired sessions of this round. Thread-safe: the table's thread
    starts rounds, the server's thread pairs and checks."""

    def __init__(self, base_url: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.base_url = base_url
        self.clock = clock
        self._lock = threading.Lock()
        self._sessions: set[str] = set()
        self._tries = float(FREE_TRIES)  # wrong tries allowed now
        self._tried_at = clock()
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

    def pair(self, token: str | None = None, pin: str | None = None) -> str:
        """A new session for a right token or PIN; raises PairRefused otherwise."""
        with self._lock:
            if token is not None and hmac.compare_digest(token.encode(), self._token.encode()):
                return self._open()
            now = self.clock()
            self._tries = min(float(FREE_TRIES), self._tries + (now - self._tried_at) / TRY_SECONDS)
            self._tried_at = now
            if self._tries < 1:
                raise PairRefused("web.pair_wait", int((1 - self._tries) * TRY_SECONDS) + 1)
            if pin is not None and hmac.compare_digest(pin.encode(), self._pin.encode()):
                self._tries = float(FREE_TRIES)
                return self._open()
            self._tries -= 1
            raise PairRefused("web.pair_wrong")

    def _open(self) -> str:
        if len(self._sessions) >= MAX_PHONES:
            raise PairRefused("web.pair_full")
        session = secrets.token_urlsafe(16)
        self._sessions.add(session)
        return session

    def paired(self, session: str | None) -> bool:
        return session is not None and session in self._sessions
