"""Tile boards: the 25 touch tiles and the LED chain, behind one interface.

Drivers: ``serial`` (the Pico over USB, see firmware/PROTOCOL.md) and
``virtual`` (in memory, for the simulator and the tests). Like gpiozero's pin
factories, the driver is chosen by name; CODENAMES_TILEBOARD sets the default.
"""

from __future__ import annotations

import os

from .base import (
    COLOUR_ORDERS,
    BoardConnected,
    BoardDisconnected,
    BoardProblem,
    EventCallback,
    PadSignals,
    TileBoard,
    TileBoardEvent,
    TileTouched,
)
from .virtual import VirtualTileBoard

DRIVERS = ("serial", "virtual")


def open_tileboard(driver: str | None = None, on_event: EventCallback | None = None, **options) -> TileBoard:
    """A started tile board of the named driver (default: $CODENAMES_TILEBOARD, else serial)."""
    driver = driver or os.environ.get("CODENAMES_TILEBOARD", "serial")
    if driver == "virtual":
        return VirtualTileBoard(on_event=on_event, **options)
    if driver == "serial":
        from .serial_board import SerialTileBoard  # pyserial only when it is used

        return SerialTileBoard(on_event=on_event, **options).start()
    raise ValueError(f"unknown tile board driver {driver!r}: use one of {', '.join(DRIVERS)}")


__all__ = [
    "COLOUR_ORDERS",
    "BoardConnected",
    "BoardDisconnected",
    "BoardProblem",
    "DRIVERS",
    "EventCallback",
    "PadSignals",
    "TileBoard",
    "TileBoardEvent",
    "TileTouched",
    "VirtualTileBoard",
    "open_tileboard",
]
