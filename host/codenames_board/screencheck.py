"""Is there a screen to draw on? Asked before a window is opened, and of SDL after.

When SDL finds nothing to draw on (a machine without a desktop, a session over
SSH, a Pi whose pygame was built without KMS/DRM) it falls back to an
off-screen video driver and opens a window nobody sees: the program would run
on, invisible, as if all were well. So a window or full-screen output is
checked twice: before SDL starts (no display in the environment: nothing to
open) and after (SDL chose an off-screen driver). An off-screen driver the
user asked for (``SDL_VIDEODRIVER=dummy`` in the tests, ``offscreen`` in a
container) is what they wanted and passes.

Standard library only: ``run`` asks before pygame is imported (its import is
slow and happens on the display's own thread).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Mapping

OFFSCREEN_DRIVERS = frozenset({"offscreen", "dummy"})
# Systems where windows need X11 or Wayland (macOS and Windows always have their own screen).
_UNIX_DESKTOPS = ("linux", "freebsd", "openbsd", "netbsd", "dragonfly", "sunos")


def asked_drivers(environ: Mapping[str, str] | None = None) -> list[str]:
    """The video drivers named in SDL_VIDEODRIVER (SDL takes a comma-separated list)."""
    environ = os.environ if environ is None else environ
    return [part.strip().lower() for part in environ.get("SDL_VIDEODRIVER", "").split(",") if part.strip()]


def unasked_offscreen(driver: str | None, environ: Mapping[str, str] | None = None) -> bool:
    """True when SDL draws off screen although nobody asked it to."""
    name = (driver or "").lower()
    return name in OFFSCREEN_DRIVERS and name not in asked_drivers(environ)


def no_display(
    environ: Mapping[str, str] | None = None, platform: str = sys.platform, dri: str | os.PathLike = "/dev/dri"
) -> bool:
    """True where no window could be seen: neither DISPLAY nor WAYLAND_DISPLAY set and no KMS/DRM
    screen (``/dev/dri/card*``), on systems whose windows need them. SDL_VIDEODRIVER set: the user
    chose, and SDL will say if it cannot."""
    environ = os.environ if environ is None else environ
    if asked_drivers(environ) or not platform.startswith(_UNIX_DESKTOPS):
        return False
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return False
    try:
        return not any(Path(dri).glob("card*"))
    except OSError:
        return True
