"""``bench touch --arm64``: the table's ``run`` process inside the Debian arm64 root that
``.ci/arm64-install`` builds, under qemu's user-mode emulation: a slow CPU with the Pi's
instruction set, libraries and Python build, not a Pi.

The root is a Debian Bookworm arm64 (Raspberry Pi OS's base) with the repository cloned in
``/srv/codenames-board`` and installed into its ``.venv`` (editable, the dependencies built for
arm64). The kernel hands its programs to qemu-aarch64 (binfmt_misc).

Only ``run`` goes in there. The stand-in tile board (the firmware under MicroPython's unix port),
the pseudo-terminal and the timing stay on this machine: a touch is timed by the firmware's clock
from TOUCH sent to FRAME read, as natively, so what slows down is the table's own path.

What runs is this tree, never the clone's copy: the package and the firmware this process
imported are bind-mounted, read-only, over the clone's, in a mount namespace of the run process's
own (``unshare``), so nothing stays mounted when it ends, however it ends. The benchmark's folder
is mounted at the same path inside (the configuration's paths mean the same on both sides) and
/dev with it (the pseudo-terminal). Needs root: mounts and chroot.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

CHECKOUT = "/srv/codenames-board"  # where .ci/arm64-install clones the repository inside the root
PYTHON = CHECKOUT + "/.venv/bin/python"
PYCACHE = "/var/cache/codenames-board-bench"  # the root's own: this tree is mounted read-only
DEPENDENCIES = ("gpiozero", "pygame", "serial")
# What run needs from the environment it is given; the rest of this machine's stays out.
PASSED = ("CODENAMES_BOARD_", "GPIOZERO_", "SDL_", "PYTHONUNBUFFERED")

# Mounts in the new namespace, then the run process itself in the root; $1.. as below.
_ENTER = """set -e
root=$1 package=$2 firmware=$3 folder=$4; shift 4
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"
mkdir -p "$root$folder"
mount --bind "$folder" "$root$folder"
mount --bind -o ro "$package" "$root/srv/codenames-board/host/codenames_board"
mount --bind -o ro "$firmware" "$root/srv/codenames-board/firmware"
exec chroot "$root" /usr/bin/env -i "$@"
"""


def default_root() -> Path:
    """Where ``.ci/arm64-install`` keeps the root: ``$ARM64_ROOT/bookworm``, /var/tmp by default."""
    return Path(os.environ.get("ARM64_ROOT", "/var/tmp/codenames-board-arm64")) / "bookworm"


def emulated() -> bool:
    """Whether arm64 programs run through an emulator here (not on an arm64 machine)."""
    return platform.machine().lower() not in ("aarch64", "arm64")


class RootNotReady(Exception):
    """The root cannot run the benchmark; ``msgid`` and ``params`` say why and the fix."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.params = params


def check(root: Path) -> None:
    """Raise :class:`RootNotReady` unless ``run`` can start in ``root`` from here: the root built,
    codenames-board installed in it, this process root, arm64 programs runnable."""
    if not (root / ".complete").is_file():  # debootstrap finished (arm64-install writes it last)
        raise RootNotReady("bench.arm64_missing", root=str(root))
    checkout = root / CHECKOUT.lstrip("/")
    site = sorted((checkout / ".venv" / "lib").glob("python3*/site-packages"))
    missing = [name for name in DEPENDENCIES if not site or not (site[-1] / name).is_dir()]
    if not (root / PYTHON.lstrip("/")).exists() or not (checkout / "host" / "codenames_board").is_dir():
        missing.insert(0, "codenames-board")
    if missing:
        raise RootNotReady("bench.arm64_not_installed", root=str(root), missing=", ".join(missing))
    if os.geteuid() != 0:
        raise RootNotReady("bench.arm64_not_root")
    if emulated() and not Path("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists():
        raise RootNotReady("bench.arm64_no_qemu", machine=platform.machine())


def run_command(root: Path, folder: Path, argv: list[str], environment: dict[str, str]) -> list[str]:
    """The command that starts ``python ARGV`` (``-m codenames_board.benchrun ...``) in ``root``
    with this tree's code, ``folder`` (absolute) mounted at the same path; the process it starts
    keeps its id from ``unshare`` to Python (each step execs the next)."""
    from codenames_firmware import tileproto

    package = Path(__file__).resolve().parent  # this package, the one the benchmark runs from
    firmware = Path(tileproto.__file__).resolve().parent
    inside = {"HOME": "/root", "LANG": "C.UTF-8", "PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONPYCACHEPREFIX": PYCACHE}
    inside.update((name, value) for name, value in environment.items() if name.startswith(PASSED))
    return [
        "unshare", "--mount", "--propagation", "private", "--", "sh", "-c", _ENTER, "arm64",
        str(root), str(package), str(firmware), str(folder),
        *(f"{name}={value}" for name, value in sorted(inside.items())), PYTHON, *argv,
    ]
