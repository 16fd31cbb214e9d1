"""The spymasters' private display: render the key and the status, then show it somewhere.

``render(surface, game, ui, tr)`` draws a whole screen onto any pygame Surface
as a pure function of its inputs; outputs put those pixels in a window, on a
framebuffer (SPI TFTs) or in PNG files. Legible from 320x240 up to 800x480.
"""

from ..pygame_import import load as _load_pygame

_load_pygame()  # before any of our modules imports pygame

from .layout import Layout, layout, tile_rect
from .outputs import (
    DisplayError,
    DisplayOutput,
    FramebufferOutput,
    NoScreen,
    PngOutput,
    SpymasterScreen,
    WindowOutput,
    open_output,
)
from .render import render

__all__ = [
    "DisplayError",
    "DisplayOutput",
    "FramebufferOutput",
    "Layout",
    "NoScreen",
    "PngOutput",
    "SpymasterScreen",
    "WindowOutput",
    "layout",
    "open_output",
    "render",
    "tile_rect",
]
