"""A condition that repeats is logged once, then counted: a board cannot flood the journal.

A misbehaving board can send tens of thousands of lines a second (the same
``ERROR``, a ``BEAT`` whose counters change every time). ``Repeats.say()``
logs a condition at once when it is new, or has not come for ``interval``;
while it keeps coming it is counted, and at most one line per condition and
interval gives the latest report and how many came (``flush()``, which the
owner calls now and then, says it when no further report comes).

Not thread-safe: one thread owns it (the serial driver's reader thread).
Times come from the ``clock`` it is given, so tests pass a fake one.
"""

from __future__ import annotations

import logging
from typing import Callable, Hashable

INTERVAL_S = 60.0
MOST_KINDS = 16  # conditions followed at once; more (a board making up new ones) are counted as one
OTHERS = "others"  # the key of those


class _Kind:
    __slots__ = ("since", "count", "level", "text", "args")

    def __init__(self, since: float, level: int, text: str, args: tuple) -> None:
        self.since = since  # when its last line was logged
        self.count = 0  # reports since then, not logged yet
        self.level, self.text, self.args = level, text, args  # the latest report


class Repeats:
    """``Repeats(log, clock)``; ``say(key, level, text, *args)`` instead of ``log.log(level, text, *args)``.

    :param log: the logger the lines go to.
    :param clock: seconds, monotonic (the driver's injected clock).
    :param interval: the least time between two lines about one condition.
    :param most: conditions followed at once; further ones share the key ``OTHERS``.
    """

    def __init__(
        self,
        log: logging.Logger,
        clock: Callable[[], float],
        interval: float = INTERVAL_S,
        most: int = MOST_KINDS,
    ) -> None:
        self.log = log
        self.clock = clock
        self.interval = interval
        self.most = most
        self._kinds: dict[Hashable, _Kind] = {}

    def say(self, key: Hashable, level: int, text: str, *args: object) -> bool:
        """Log this report now and return True (the condition is news), or count it and return False."""
        now = self.clock()
        kinds = self._kinds
        if key not in kinds and len(kinds) >= self.most:
            self.flush(now)  # forgets the conditions that went quiet
            if len(kinds) >= self.most:
                key = OTHERS
        kind = kinds.get(key)
        if kind is None or (kind.count == 0 and now - kind.since >= self.interval):
            kinds[key] = _Kind(now, level, text, args)
            self.log.log(level, text, *args)
            return True
        kind.count += 1
        kind.level, kind.text, kind.args = level, text, args
        if now - kind.since >= self.interval:
            self._summary(key, kind, now)
        return False

    def flush(self, now: float | None = None, everything: bool = False) -> None:
        """Say the counts whose interval is over (``everything``: all of them, and forget every
        condition, as when the board goes away); forget the conditions that went quiet."""
        now = self.clock() if now is None else now
        for key, kind in list(self._kinds.items()):
            due = everything or now - kind.since >= self.interval
            if kind.count and due:
                self._summary(key, kind, now)
            elif due:
                del self._kinds[key]
        if everything:
            self._kinds.clear()

    def _summary(self, key: Hashable, kind: _Kind, now: float) -> None:
        seconds = max(1, round(now - kind.since))
        times = "once" if kind.count == 1 else f"{kind.count:,} times"
        what = "this and other conditions" if key == OTHERS else "again"
        self.log.log(kind.level, f"{kind.text} ({what} {times} in the last {seconds} s)", *kind.args)
        kind.since, kind.count = now, 0
