"""The TileBoard interface: touches in, LED frames out.

A tile board reports what happens on the table as events, delivered to one
callback (the controller posts them to its queue; the callback must not
block). Frames are bytes in logical order: 3 bytes (red, green, blue) per
tile, row-major as the operatives see the grid, then the status LEDs.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable


COLOUR_ORDERS = ("GRB", "RGB", "RBG", "GBR", "BRG", "BGR")  # as firmware/leds.py ORDERS


@dataclass(frozen=True)
class TileTouched:
    tile: int
    down: bool  # True when the tile is touched, False when let go


@dataclass(frozen=True)
class BoardConnected:
    port: str
    protocol: int
    firmware: str  # its version, then "+" and its identity when it has one: "0.1.0+3f2a9c1b7e01"
    tiles: int
    status_leds: int
    # True when the board runs other firmware than this package ships (or cannot say which):
    # the fix is ``codenames-board firmware install`` (tileboard/firmware_files.py).
    other_firmware: bool = False


@dataclass(frozen=True)
class BoardDisconnected:
    port: str
    reason: str  # what the driver saw: "unplugged", "silent", "no board found", ...


@dataclass(frozen=True)
class BoardProblem:
    """Something the board reported or the link saw, for the log and the display."""

    code: str  # noisy, quiet, stuck, pads, protocol, length, ...
    detail: str


@dataclass(frozen=True)
class PadSignals:
    """Every pad's signal, as the board measured it on request (``request_pads``)."""

    touch: int  # the thresholds in force: touched above ``touch`` counts, let go under ``release``
    release: int
    debounce: int
    pads: tuple[tuple[int, int] | None, ...]  # per tile (filtered, baseline), None: its controller is missing
    own: tuple[tuple[int, int] | None, ...] = ()  # per tile its own (touch, release) in force, None: the ones above

    def signal(self, tile: int) -> int | None:
        """How far the tile's reading is below its baseline, in counts (a finger makes it grow)."""
        reading = self.pads[tile]
        return None if reading is None else max(0, reading[1] - reading[0])

    def thresholds(self, tile: int) -> tuple[int, int]:
        """(touch, release) in force on a tile: its own, or the board's."""
        own = self.own[tile] if tile < len(self.own) else None
        return own if own is not None else (self.touch, self.release)


TileBoardEvent = TileTouched | BoardConnected | BoardDisconnected | BoardProblem | PadSignals
EventCallback = Callable[[TileBoardEvent], None]


class TileBoard:
    """Base class of the drivers. ``on_event`` receives every event; ``show`` takes a frame."""

    def __init__(self, tiles: int = 25, status_leds: int = 12, on_event: EventCallback | None = None) -> None:
        self.tiles = tiles
        self.status_leds = status_leds
        self.on_event = on_event
        self.frame: bytes = bytes(3 * (tiles + status_leds))  # the last frame shown (re-sent on reconnect)
        self.brightness = 64
        self.max_ma = 500
        self.tuning: tuple[int, int, int] | None = None  # touch, release, debounce; None: the board's own
        self.pad_tuning: dict[int, tuple[int, int]] = {}  # tile -> its own (touch, release), in place of tuning's
        self.led_order: str | None = None  # the strip's colour order ("GRB", "RGB", ...); None: the board's own
        self.connected = False
        self._closed = False
        self._lock = threading.Lock()

    @property
    def leds(self) -> int:
        return self.tiles + self.status_leds

    @property
    def closed(self) -> bool:
        return self._closed

    def __repr__(self) -> str:
        state = "closed" if self._closed else "connected" if self.connected else "disconnected"
        return f"<{type(self).__name__} {state}>"

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _post(self, event: TileBoardEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def check_frame(self, frame: bytes) -> bytes:
        frame = bytes(frame)
        if len(frame) != 3 * self.leds:
            raise ValueError(f"a frame has {3 * self.leds} bytes (3 per LED), not {len(frame)}")
        return frame

    def show(self, frame: bytes) -> None:
        """Show a full frame on the LEDs (and remember it for a reconnect)."""
        raise NotImplementedError

    def limit(self, brightness: int, max_ma: int) -> None:
        """Brightness (0-255) and the most current the LEDs may draw (mA)."""
        if not (0 <= brightness <= 255 and 0 <= max_ma <= 10000):
            raise ValueError(f"brightness is 0-255 and max_ma 0-10000, not {brightness} and {max_ma}")
        self.brightness, self.max_ma = brightness, max_ma

    def tune(self, touch: int, release: int, debounce: int) -> None:
        """Touch sensing for every pad (firmware/TUNING.md); ValueError unless
        0 < release < touch <= 255 and 0 <= debounce <= 7."""
        if not (0 < release < touch <= 255 and 0 <= debounce <= 7):
            raise ValueError(f"tuning needs 0 < release < touch <= 255 and debounce 0-7, not {touch} {release} {debounce}")
        self.tuning = (touch, release, debounce)

    def tune_pads(self, thresholds: dict[int, tuple[int, int]]) -> None:
        """Thresholds of their own for some tiles, in place of ``tune``'s (firmware/TUNING.md): every
        tile that should have its own, the others get ``tune``'s. ValueError unless each tile exists
        and 0 < release < touch <= 255."""
        for tile, (touch, release) in thresholds.items():
            if not (0 <= tile < self.tiles and 0 < release < touch <= 255):
                raise ValueError(f"tile {tile}: thresholds need 0 < release < touch <= 255, not {touch} {release}")
        self.pad_tuning = dict(thresholds)

    def order(self, colours: str) -> None:
        """The LED strip's colour order (``COLOUR_ORDERS``: "GRB" for WS2812B, "RGB" for many WS2811)."""
        if colours not in COLOUR_ORDERS:
            raise ValueError(f"no colour order {colours!r}: use one of {', '.join(COLOUR_ORDERS)}")
        self.led_order = colours

    def request_pads(self) -> bool:
        """Ask for every pad's signal: a ``PadSignals`` event follows. False when this board cannot say."""
        return False

    def close(self) -> None:
        self._closed = True
        self.connected = False
