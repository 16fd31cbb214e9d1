"""What long work has done so far, on one line of a terminal rewritten in place.

``progress = Progress(tr)``, then ``progress("bench.progress_touches", done=120, total=1000)`` as the
work goes on and ``progress.close()`` at the end (which clears the line, so the results that follow
start on a clean one). Nothing at all is written when standard error is not a terminal: a log, a
pipe or a test reads only the results.
"""

from __future__ import annotations

import sys
import time

from .i18n import Translator

EVERY_S = 0.1  # at most ten lines a second: a terminal is slower than a loop


def silent(msgid: str, **params) -> None:
    """No progress shown: the long work's default when nobody watches."""


class Progress:
    def __init__(self, tr: Translator, stream=None, clock=time.monotonic) -> None:
        self.tr = tr
        self.stream = sys.stderr if stream is None else stream
        self.clock = clock
        try:
            self.live = self.stream.isatty()
        except (AttributeError, ValueError):  # no stream, or a closed one
            self.live = False
        self._width = 0
        self._last = float("-inf")
        self._msgid = None

    def __call__(self, msgid: str, **params) -> None:
        if not self.live:
            return
        now = self.clock()
        if msgid == self._msgid and now - self._last < EVERY_S and params.get("done") != params.get("total"):
            return
        self._msgid, self._last = msgid, now
        text = self.tr(msgid, **params)
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = max(self._width, len(text))

    def close(self) -> None:
        if self.live and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
