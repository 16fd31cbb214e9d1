"""What the board reports, to the log and to the table, without flooding either.

The log goes through ``Repeats`` (``said``): a condition that repeats (the
same ``ERROR``, ``BEAT`` counters that keep changing, ``TUNED``) is logged
once, then counted, at most a line a minute for each. ``problem()`` tells the
table (a ``BoardProblem``) when it is news: another detail than its code's
last one, or the same after a quiet minute; and never more than
``PROBLEMS_PER_S`` a second, whatever the board sends.

Not thread-safe: the reader thread owns it.
"""

from __future__ import annotations

import logging
from typing import Callable

from .base import BoardProblem, EventCallback
from .link import log
from .repeats import Repeats

PROBLEMS_PER_S = 4  # BoardProblems the table gets a second at most, whatever the board sends


class Reports:
    """``Reports(post, clock)``: ``said.say(...)`` for the log, ``problem(code, detail)`` for the table."""

    def __init__(self, post: EventCallback, clock: Callable[[], float]) -> None:
        self.post = post
        self.clock = clock
        self.said = Repeats(log, clock)  # the reader thread's log of what the board says
        self._problems: dict[str, tuple[str, float]] = {}  # code: (detail, when) last told to the table
        self._problem_second, self._problem_count = 0.0, 0

    def too_old(self, kind: str, what: str) -> None:
        """The board's firmware answered ``kind`` as unknown, so ``what`` the configuration asks is not in force."""
        self.said.say(
            ("too old", kind), logging.WARNING,
            "the tile board's firmware does not know %s, so %s is not in force: codenames-board firmware install",
            kind, what,
        )
        self.problem(f"firmware_{kind.lower()}", kind)

    def problem(self, code: str, detail: str) -> None:
        """A BoardProblem for the table when it is news: another detail than this code's last one
        (a tile noisy again after it went quiet), or the same after a quiet interval; and never more
        than PROBLEMS_PER_S a second, so a board that floods cannot flood the table's queue."""
        now = self.clock()
        last = self._problems.get(code)
        if last is not None and last[0] == detail and now - last[1] < self.said.interval:
            self._problems[code] = (detail, now)  # still going: quiet means a whole interval without it
            return
        if now - self._problem_second >= 1.0:
            self._problem_second, self._problem_count = now, 0
        if self._problem_count >= PROBLEMS_PER_S:
            return
        self._problem_count += 1
        if len(self._problems) >= 64:  # a board making up codes: forget, rather than grow
            self._problems.clear()
        self._problems[code] = (detail, now)
        self.post(BoardProblem(code, detail))
