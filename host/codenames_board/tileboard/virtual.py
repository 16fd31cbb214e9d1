"""A tile board in memory, for the simulator and the tests.

It records every frame it is shown (like gpiozero's MockPin records states),
lets a test or the simulator touch tiles, and can be unplugged and plugged
back in, re-showing the last frame the way the serial driver does.
"""

from __future__ import annotations

from .base import BoardConnected, BoardDisconnected, EventCallback, TileBoard, TileTouched

PORT = "virtual"


class VirtualTileBoard(TileBoard):
    def __init__(self, tiles: int = 25, status_leds: int = 12, on_event: EventCallback | None = None) -> None:
        super().__init__(tiles, status_leds, on_event)
        self.frames: list[bytes] = []  # every frame that reached the LEDs, in order
        self.pressed: set[int] = set()
        self.on_show = None  # called (from the showing thread) after each frame reaches the LEDs
        self.plug()

    # --- what the host does

    def show(self, frame: bytes) -> None:
        frame = self.check_frame(frame)
        with self._lock:
            self.frame = frame
            if not self.connected:
                return
            self.frames.append(frame)
        if self.on_show is not None:
            self.on_show()

    def tile_colour(self, tile: int, frame: bytes | None = None) -> tuple[int, int, int]:
        """The colour a tile shows in the last frame (or in ``frame``)."""
        frame = self.frames[-1] if frame is None else frame
        return tuple(frame[3 * tile : 3 * tile + 3])

    # --- what the table does

    def press(self, tile: int) -> None:
        self._check_tile(tile)
        if self.connected and tile not in self.pressed:
            self.pressed.add(tile)
            self._post(TileTouched(tile, True))

    def release(self, tile: int) -> None:
        self._check_tile(tile)
        if self.connected and tile in self.pressed:
            self.pressed.discard(tile)
            self._post(TileTouched(tile, False))

    def tap(self, tile: int) -> None:
        self.press(tile)
        self.release(tile)

    def unplug(self) -> None:
        if self.connected:
            self.connected = False
            self.pressed.clear()
            self._post(BoardDisconnected(PORT, "unplugged"))

    def plug(self) -> None:
        if not self.connected and not self.closed:
            self.connected = True
            self._post(BoardConnected(PORT, 1, "virtual", self.tiles, self.status_leds))
            with self._lock:
                self.frames.append(self.frame)  # the host's last frame, re-sent

    def _check_tile(self, tile: int) -> None:
        if not 0 <= tile < self.tiles:
            raise ValueError(f"there is no tile {tile}: tiles are 0-{self.tiles - 1}")

    def close(self) -> None:
        super().close()
