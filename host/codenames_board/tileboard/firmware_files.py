"""The firmware this package ships (``codenames_firmware``, from firmware/) and its identity.

The identity is a short hash of the firmware's files (every ``*.py``, by name
and content). The installer (``codenames-board firmware install``) writes it
onto the board as ``fwid.txt`` beside the files it copied; the firmware
reports it in its BOARD line after its version (``0.1.0+3f2a9c1b7e01``), so
the host can tell whether the board runs exactly the files it ships.
Firmware copied by hand, or older than the identity, reports none: unknown.
Standard library only; nothing here touches a port.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

IDENTITY_FILE = "fwid.txt"  # firmware/board.py's IDENTITY_FILE
IDENTITY_DIGITS = 12  # of the SHA-256, in hex: 48 bits, no two firmware builds alike in practice
UNKNOWN = "unknown"


def firmware_folder() -> Path:
    """The folder of the shipped firmware files.

    ``codenames_firmware`` is a namespace package (firmware/ has no __init__.py)
    and importlib.resources cannot read one that an editable install also
    hooks: its real folder is the entry of ``__path__`` that holds tileproto.py.
    """
    import codenames_firmware

    for entry in codenames_firmware.__path__:
        folder = Path(entry)
        if (folder / "tileproto.py").is_file():
            return folder
    raise FileNotFoundError("the codenames_firmware package has no firmware files")


def firmware_files(folder: Path | None = None) -> dict[str, bytes]:
    """{name: content} of the firmware's files (``*.py``), main.py last (copied last, run first)."""
    folder = firmware_folder() if folder is None else folder
    names = sorted(path.name for path in folder.glob("*.py"))
    if "main.py" in names:
        names.remove("main.py")
        names.append("main.py")
    return {name: (folder / name).read_bytes() for name in names}


def identity(files: dict[str, bytes]) -> str:
    """The identity of a set of firmware files: the same files, whatever their order, the same identity."""
    digest = hashlib.sha256()
    for name in sorted(files):
        content = files[name]
        digest.update(b"%s\0%d\0" % (name.encode(), len(content)))
        digest.update(content)
    return digest.hexdigest()[:IDENTITY_DIGITS]


@cache
def shipped_identity() -> str:
    """The identity of the firmware this package ships (read once per process)."""
    return identity(firmware_files())


def board_identity(firmware: str) -> str:
    """The identity in a BOARD line's firmware field (``0.1.0+3f2a9c1b7e01``), or ``unknown``."""
    version, plus, found = firmware.partition("+")
    return found if plus and found else UNKNOWN


def runs_shipped(firmware: str) -> bool:
    """True when a board reporting this firmware field runs exactly the files this package ships."""
    return board_identity(firmware) == shipped_identity()


def stage(folder: Path, files: dict[str, bytes] | None = None) -> str:
    """Write firmware files and their identity file into ``folder`` (made if need be), as the
    board's flash holds them after an install; the identity. For mpremote's first install, and
    the tests' emulated flash."""
    files = firmware_files() if files is None else files
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (folder / name).write_bytes(content)
    found = identity(files)
    (folder / IDENTITY_FILE).write_text(found + "\n")
    return found
