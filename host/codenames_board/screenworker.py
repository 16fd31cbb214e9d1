"""The spymaster display on a thread of its own, so that rendering never delays a tile's LED.

``ScreenWorker(open_screen)`` starts a thread that opens the display (importing
pygame and opening a window, a framebuffer or a PNG file takes a while: the
tiles light meanwhile), then renders whenever ``update(game, ui)`` handed it a
new state. ``update`` returns at once; states handed over while a render runs
are coalesced, and the newest wins. Everything pygame does happens on this one
thread: opening the output, rendering, showing, and pumping a window's events
(SDL wants a window's events handled by the thread that made it).

The game handed to ``update`` must not change afterwards (``Game.copy()``).
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Callable

log = logging.getLogger(__name__)

PUMP_EVERY_S = 0.25  # a window's events are handled this often while nothing is drawn


def _lower_priority() -> None:
    """Linux schedules threads one by one: this one yields the CPU to touches (nice 10)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):  # not Linux, or not allowed: it only matters when CPUs are busy
        pass


class ScreenWorker:
    """``update(game, ui)`` from the controller's thread; rendering on the worker's.

    :param open_screen: called on the worker's thread; returns a
        ``SpymasterScreen`` (anything with ``update``, ``close`` and
        optionally ``needs_pumping``/``pump``). What it raises is kept in
        ``error`` and raised again by :meth:`wait_open`.
    :param on_closed: called (on the worker's thread) when someone closes the
        display's window.
    """

    def __init__(self, open_screen: Callable[[], object], on_closed: Callable[[], None] | None = None) -> None:
        self._open = open_screen
        self.on_closed = on_closed
        self.screen = None
        self.error: BaseException | None = None
        self.rendered = 0  # frames drawn so far
        self._pending: tuple | None = None
        self._busy = False
        self._stopping = False
        self._opened = threading.Event()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def start(self) -> ScreenWorker:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="spymaster-display", daemon=True)
            self._thread.start()
        return self

    def wait_open(self, timeout: float | None = None) -> bool:
        """Wait until the display is open; raises what opening it raised. False on a timeout."""
        if not self._opened.wait(timeout):
            return False
        if self.error is not None:
            raise self.error
        return True

    def update(self, game, ui) -> None:
        """Hand over the newest state; returns at once."""
        with self._changed:
            self._pending = (game, ui)
            self._changed.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every state handed over is drawn (tests, screenshots); False on a timeout."""
        with self._changed:
            return self._changed.wait_for(
                lambda: (self._pending is None and not self._busy) or self._stopping or self.error is not None,
                timeout,
            )

    def _run(self) -> None:
        _lower_priority()
        try:
            self.screen = self._open()
        except BaseException as error:  # noqa: BLE001 - handed to the thread that waits for it
            self.error = error
            self._opened.set()
            with self._changed:
                self._changed.notify_all()
            return
        self._opened.set()
        pumping = bool(getattr(self.screen, "needs_pumping", False))
        try:
            while True:
                with self._changed:
                    self._changed.wait_for(
                        lambda: self._pending is not None or self._stopping, PUMP_EVERY_S if pumping else None
                    )
                    if self._stopping:
                        return
                    pending, self._pending = self._pending, None
                    self._busy = pending is not None
                if pumping and not self.screen.pump():
                    if self.on_closed is not None:
                        self.on_closed()
                    pumping = False
                if pending is not None:
                    try:
                        self.screen.update(*pending)
                        self.rendered += 1
                    except Exception:  # noqa: BLE001 - a display fault must not end the evening
                        log.exception("the spymaster display failed to draw")
                    with self._changed:
                        self._busy = False
                        self._changed.notify_all()
        finally:
            self.screen.close()

    def close(self) -> None:
        """Stop the thread and close the display; safe to call twice."""
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._stopping else "open" if self.screen is not None else "opening"
        return f"<ScreenWorker {state} rendered={self.rendered}>"
