"""Import pygame without what it does not need here.

pygame's ``pkgdata`` module imports ``pkg_resources`` when it can (about 70 ms
and several MB on a laptop, far more on a Pi Zero 2 W) only to find its bundled
font, and falls back to the package folder when it cannot. Our display and
simulator need nothing else from it, so the first import of pygame goes
through :func:`load`, which keeps ``pkg_resources`` out of that import.
"""

from __future__ import annotations

import os
import sys


def load():
    """pygame, imported once (without pkg_resources unless something else already loaded it)."""
    if "pygame" in sys.modules:
        return sys.modules["pygame"]
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    blocked = "pkg_resources" not in sys.modules
    if blocked:
        sys.modules["pkg_resources"] = None  # makes "import pkg_resources" raise ImportError
    try:
        import pygame
    finally:
        if blocked and sys.modules.get("pkg_resources", 0) is None:
            del sys.modules["pkg_resources"]
    return pygame
