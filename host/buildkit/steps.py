"""The build guide's step pictures: ``hardware/steps/NN-name.png``, rendered from ``hardware/enclosure.scad``
(``part = "step"``, drawn by ``hardware/steps.scad``) so that they stay in step with the model.

``python host/buildkit hardware --steps`` renders them all: this module says what to draw and from where,
hardware.py runs OpenSCAD (its preview renderer: a few seconds each, with xvfb-run where there is no display); the guide shows the wiring pages' own drawings for the steps that are wiring
(steps 1, 2 and 14) and the table's picture for the bring-up (step 15). The tests check that every picture here is
committed and shown by its step; rendering them all again is a builder's or a maintainer's command, not CI's.

So that CI can still tell a picture older than the model, ``--steps`` also draws ``hardware/table.png`` (the
guide's and the README's picture of the whole table, as ``--picture`` does) and writes ``hardware/steps/SOURCES``
(``manifest``): the sha256 of every file the pictures are drawn from (enclosure.scad and what it includes or uses),
OpenSCAD's arguments for each step picture and each picture's own sha256 (table.png's camera comes from the model
itself, so its line holds its sha256 alone). The tests compute it again without OpenSCAD.
It is the same on any machine: files by their names in hardware/, text with \n line ends, no times.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from pathlib import Path, PurePosixPath

SIZE = (900, 600)
MANIFEST = "SOURCES"
#: The whole table's picture, in hardware/: drawn with the step pictures, and in their manifest.
TABLE = "table.png"
#: The command that draws them again, as the guide spells it (from the checkout's folder).
REDRAW = ".venv/bin/python host/buildkit hardware --steps"
COUPON_CENTRE = (48, 35.5, 9.2)
#: file name: (step, OpenSCAD's gimbal camera: rotation about x, y, z, and a distance: 0 frames the whole view
#: (--viewall); the coupon is framed by hand from that distance (--viewall counts the cutters the preview keeps,
#: and the coupon is cut from the whole plate), looking at the centre of its 96 x 71 x 18 mm as printed)
PICTURES = {
    "03-coupon.png": (3, (50, 0, 30, 260)),
    "04-plate.png": (4, (40, 0, 20, 0)),
    "05-ledboard.png": (5, (0, 0, 0, 0)),
    "06-box.png": (6, (50, 0, 20, 0)),
    "07-leds.png": (7, (0, 0, 0, 0)),
    "08-pads.png": (8, (30, 0, 190, 0)),
    "09-under.png": (9, (55, 0, 200, 0)),
    "10-test.png": (10, (40, 0, 15, 0)),
    "11-screws.png": (11, (35, 0, 10, 0)),
    "12-hood.png": (12, (60, 0, 200, 0)),
    "13-top.png": (13, (55, 0, 25, 0)),
    "16-floor.png": (16, (0, 0, 0, 0)),
}


def command(scad_command: list[str], step: int, camera: tuple[int, int, int, int]) -> list[str]:
    """OpenSCAD drawing one step's picture: ``scad_command`` (hardware.scad_command with ``part="step"`` and
    ``step=N``) with the picture's size, colours and camera."""
    *rotation, distance = camera
    if distance:  # an eye looking at the coupon's centre from the front left, above: rotation ignored
        eye = (COUPON_CENTRE[0] - 0.35 * distance, COUPON_CENTRE[1] - 0.6 * distance, COUPON_CENTRE[2] + 0.7 * distance)
        gimbal = ",".join(f"{n:g}" for n in (*eye, *COUPON_CENTRE))
    else:
        gimbal = ",".join(f"{n:g}" for n in (0, 0, 0, *rotation, 2000))
    program, *rest = scad_command
    return [program, "--imgsize", f"{SIZE[0]},{SIZE[1]}", "--colorscheme", "Tomorrow Night", f"--camera={gimbal}",
            *([] if distance else ["--autocenter", "--viewall"]), *rest]


def scad_files(folder: Path, name: str = "enclosure.scad") -> list[str]:
    """``name`` and every file it includes or uses, and theirs in turn, by their paths in ``folder`` (hardware/)."""
    found, queue = [], [PurePosixPath(name)]
    while queue:
        path = queue.pop(0)
        if str(path) in found:
            continue
        found.append(str(path))
        if (folder / path).is_file():
            text = (folder / path).read_text("utf-8")
            queue += [path.parent / used for used in re.findall(r"^\s*(?:include|use)\s*<([^>]+)>", text, re.M)]
    return found


def manifest(folder: Path, arguments: dict[str, list[str]]) -> str:
    """hardware/steps/SOURCES for the pictures in ``folder``/steps as they are now: ``arguments`` are OpenSCAD's for
    each picture (hardware.step_commands from hardware/ itself, without the program's name)."""
    def sha(data: bytes | None) -> str:
        return "missing" if data is None else "sha256:" + hashlib.sha256(data).hexdigest()

    def text(path: Path) -> bytes | None:
        return path.read_text("utf-8").replace("\r\n", "\n").encode() if path.is_file() else None

    lines = [f"# The step pictures here and ../{TABLE}, drawn by `{REDRAW}` from these files, each step",
             "# with these arguments. tests/buildkit/test_hardware.py checks that this still holds: run it again after a change.",
             *(f"{name} {sha(text(folder / name))}" for name in scad_files(folder))]
    table = folder / TABLE
    lines.append(f"{TABLE} {sha(table.read_bytes() if table.is_file() else None)}: the whole table, from the spymasters' corner")
    for name, argv in arguments.items():
        picture = folder / "steps" / name
        lines.append(f"steps/{name} {sha(picture.read_bytes() if picture.is_file() else None)}: openscad {shlex.join(argv)}")
    return "\n".join(lines) + "\n"


def stale(committed: str, fresh: str) -> list[str]:
    """The files (a model's or a picture's) whose lines differ between two manifests, in order."""
    old, new = set(committed.splitlines()), set(fresh.splitlines())
    return list(dict.fromkeys(line.split(" ")[0] for line in [*committed.splitlines(), *fresh.splitlines()]
                              if not line.startswith("#") and (line in old) != (line in new)))


def stale_message(changed: list[str]) -> str:
    """What a check says when ``stale`` found files: one line, naming them and the command that draws the pictures."""
    return f"the step pictures or {TABLE} are older than {', '.join(changed)}: run `{REDRAW}` and look at them"
