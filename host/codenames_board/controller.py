"""The controller: one queue, one consumer, and the wiring of ``codenames-board run``.

gpiozero callbacks, the tile board's reader thread and signal handlers only
post events to the queue; the controller's thread takes them one at a time
and hands them to the Table. Between events it sleeps until the Table's
next_wake() (an animation step, the sand timer's next second) or for ever:
no busy polling, nothing redrawn unless it changed.
"""

from __future__ import annotations

import gc
import logging
import os
import queue
import threading
import time
from typing import Callable

from .config import Config
from .i18n import Translator
from .sounds import Sounder
from .table import Table
from .tileboard import TileTouched

log = logging.getLogger(__name__)

STOP = object()
#: seconds: the longest the controller's thread sleeps with nothing due (see Controller.run)
IDLE_WAKE = 0.5


class _Handled:
    """Posted by :meth:`EventQueue.join`: set when the consumer reaches it."""

    def __init__(self) -> None:
        self.done = threading.Event()


class EventQueue:
    """The controller's queue: ``queue.SimpleQueue``, whose lock is in C and wakes the consumer
    about twice as fast as ``queue.Queue`` (a touch waits for that hand-over), plus ``join()``.

    Touches are coalesced: a touch (tile, down or up) that is already waiting is not queued
    again, so a misbehaving tile board can fill the queue with at most one event per tile and
    state (50), and a button pressed during a storm of touches waits behind those at most.
    The consumer calls :meth:`taken` for every touch it takes.
    """

    def __init__(self) -> None:
        self._queue = queue.SimpleQueue()
        self.get = self._queue.get
        self.get_nowait = self._queue.get_nowait
        self._touches: set[tuple[int, bool]] = set()  # waiting now (set operations are atomic)
        self.coalesced = 0  # touches not queued because the same one was waiting

    def put(self, event) -> None:
        if type(event) is TileTouched:
            waiting = (event.tile, event.down)
            if waiting in self._touches:
                self.coalesced += 1
                return
            self._touches.add(waiting)
        self._queue.put(event)

    def taken(self, event) -> None:
        self._touches.discard((event.tile, event.down))

    def qsize(self) -> int:
        return self._queue.qsize()

    def join(self, timeout: float | None = 10.0) -> bool:
        """Wait until the consumer has taken everything posted before this call."""
        marker = _Handled()
        self._queue.put(marker)
        return marker.done.wait(timeout)


class Controller:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.queue = EventQueue()
        self.clock = clock
        self.table: Table | None = None
        self.handled = 0
        self._woken_at: float | None = None  # advance(): when the table was last woken

    def post(self, event) -> None:
        """Any thread: hand an event to the controller."""
        self.queue.put(event)

    def stop(self) -> None:
        self.queue.put(STOP)

    def drain(self) -> None:
        """Handle everything posted so far, in this thread, without waiting (scripted runs)."""
        while True:
            try:
                event = self.queue.get_nowait()
            except queue.Empty:
                return
            if event is not STOP and self._accept(event):
                self.table.handle(event)
                self.handled += 1

    def _accept(self, event) -> bool:
        """Bookkeeping for an event just taken from the queue; False: nothing for the table."""
        if type(event) is TileTouched:
            self.queue.taken(event)
        elif isinstance(event, _Handled):
            event.done.set()
            return False
        return True

    def advance(self, seconds: float, clock) -> None:
        """Let ``seconds`` pass on a settable clock (``clock.now``), waking the table when it asked to."""
        target = clock.now + seconds
        while True:
            wake = self.table.next_wake()
            if wake is None or wake > target:
                break
            if wake <= clock.now and self._woken_at == clock.now:
                raise RuntimeError(f"the table asks to wake at {wake} again and again at {clock.now}: no progress")
            self._woken_at = clock.now
            clock.now = max(clock.now, wake)
            self.table.update()
            self.drain()
        clock.now = target
        self.table.update()
        self.drain()

    def run(self) -> None:
        """Take events until stop(); the table must be started.

        The wait never lasts longer than ``IDLE_WAKE``: Ctrl-C's SIGINT may reach any of the
        process's threads (gpiozero's, the display's), and Python runs its handler, the one that
        calls stop(), only in the main thread, once that thread wakes; blocked with no timeout it
        would wait for the next touch, so ``run`` hung on Ctrl-C now and then."""
        table = self.table
        while True:
            wake = table.next_wake()
            due = None if wake is None else max(0.0, wake - self.clock())
            timed = due is not None and due <= IDLE_WAKE
            try:
                event = self.queue.get(timeout=due if timed else IDLE_WAKE)
            except queue.Empty:
                if timed:
                    table.update()
                continue
            if event is STOP:
                return
            if not self._accept(event):
                continue
            try:
                table.handle(event)
            except Exception:  # noqa: BLE001 - one bad event must not end the evening
                log.exception("while handling %r", event)
            self.handled += 1


class Runtime:
    """Everything ``codenames-board run`` starts, built from the config, closed in reverse."""

    def __init__(
        self,
        config: Config,
        tr: Translator,
        pin_factory=None,
        tileboard=None,
        display=None,
        clock=time.monotonic,
        buzzer=None,
        deal_words=None,
        another_word=None,
    ):
        from . import compositor
        from .controls import Controls
        from .outputs import standard_outputs
        from .tileboard import open_tileboard

        self.config = config
        self.controller = Controller(clock)
        post = self.controller.post
        self.controls = Controls(config, post, pin_factory=pin_factory)
        status_leds = config.tiles.timer_leds + config.tiles.turn_leds
        if tileboard is None:
            options = {"port": config.tiles.port} if config.tiles.driver == "serial" else {}
            tileboard = open_tileboard(config.tiles.driver, on_event=post, status_leds=status_leds, **options)
        else:
            tileboard.on_event = post
        self.tileboard = tileboard
        configure_tileboard(tileboard, config)
        worst = compositor.frame_ma(bytes([255]) * 3 * (25 + status_leds), config.tiles.brightness)
        log.info(  # the board caps them once it answers: the driver says so then
            "LEDs: %d at brightness %d: worst case %d mA, [tiles] max_current_ma %d mA",
            25 + status_leds, config.tiles.brightness, worst, config.tiles.max_current_ma,
        )
        self.display = display
        sounder = Sounder(buzzer if buzzer is not None else self.controls.buzzer, enabled=config.game.sound)
        self.web = None
        if config.web.enabled:  # the web page listens now: a port in use stops the start here (web.CannotListen)
            from .config import games_folder
            from .web import Web

            self.web = Web(config.web, tr, games_folder(config.state_dir), post, config.game.clue_entry)
            try:
                self.web.start()
            except Exception:
                self.controls.close()
                tileboard.close()
                raise
        # The table publishes its state; these outputs show it: the LEDs first, the buzzer, the page, the display.
        self.outputs = standard_outputs(config, tileboard, display, sounder, self.web)
        self.table = Table(
            config, tr, tileboard, clock, deal_words=deal_words, post=post, outputs=self.outputs, another_word=another_word,
        )
        self.controller.table = self.table
        if display is not None and hasattr(display, "on_closed") and display.on_closed is None:
            display.on_closed = self.controller.stop  # someone closed the display's window

    def start(self, resume: bool = True, wait_display: Callable[[], object] | None = None) -> None:
        """Resume or deal: the first LED frame goes out here. ``wait_display`` (if given) is
        called next, so "ready" waits for a display still opening on its own thread (and
        what it raises, such as a display that cannot be opened, stops the start)."""
        if resume:
            self.table.start()
        else:
            self.table.deal()
        log.debug("first frame shown")
        if wait_display is not None:
            wait_display()
        # What start-up made stays for the evening: keep the cyclic garbage collector from
        # walking it again and again (its pauses would land on touches).
        gc.collect()
        gc.freeze()
        self.controls.ready(True)
        log.info("ready")

    def serve(self) -> None:
        """Take events until stopped, then close everything."""
        try:
            self.controller.run()
        finally:
            self.close()

    def run(self) -> None:
        self.start()
        self.serve()

    def close(self) -> None:
        self.controls.ready(False)
        self.table.close()
        self.tileboard.close()
        self.controls.close()
        if self.display is not None:
            self.display.close()


def configure_tileboard(tileboard, config: Config) -> None:
    """What the configuration asks of the tile board, which the driver sends after every handshake:
    the LED limits and colour order, the touch thresholds and debounce, and some tiles' own
    thresholds ([tiles.thresholds]). ``run``, ``selftest`` and ``selftest --pads`` all call it."""
    tiles = config.tiles
    tileboard.limit(tiles.brightness, tiles.max_current_ma)
    tileboard.order(config.leds.order)
    tileboard.tune(tiles.touch_threshold, tiles.release_threshold, tiles.touch_debounce)
    tileboard.tune_pads(tiles.thresholds)


def prepare_mock_pins(environ=os.environ) -> None:
    """Off the Pi with GPIOZERO_PIN_FACTORY=mock: use PWM-capable mock pins so the buzzer works too."""
    if environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock":
        environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
