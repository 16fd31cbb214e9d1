"""The build guide's step pictures: ``hardware/steps/NN-name.png``, rendered from ``hardware/enclosure.scad``
(``part = "step"``, drawn by ``hardware/steps.scad``) so that they stay in step with the model.

``python host/buildkit hardware --steps`` renders them all: this module says what to draw and from where,
hardware.py runs OpenSCAD (its preview renderer: a few seconds each, with xvfb-run where there is no display); the guide shows the wiring pages' own drawings for the steps that are wiring
(steps 1, 2 and 14) and the table's picture for the bring-up (step 15). The tests check that every picture here is
committed and shown by its step, and that ``steps/SOURCES`` (written with them) matches the model as it is now: a
change to the model fails until the pictures are drawn again. Rendering them is a builder's or a maintainer's
command, not CI's.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

SIZE = (900, 600)
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
    "08-pads.png": (8, (30, 0, 10, 0)),
    "09-under.png": (9, (55, 0, 200, 0)),
    "10-test.png": (10, (40, 0, 15, 0)),
    "11-screws.png": (11, (35, 0, 10, 0)),
    "12-hood.png": (12, (60, 0, 200, 0)),
    "13-top.png": (13, (55, 0, 25, 0)),
    "16-floor.png": (16, (0, 0, 0, 0)),
}


#: The pictures' sources, beside them: ``--steps`` writes it, a test compares it with the model as it is now.
SOURCES = "SOURCES"
_DRAWN_FROM = ("enclosure.scad", "steps.scad")  # the model and what it includes for part = "step"


def sources_digest(folder: Path) -> str:
    """A sha256 over what the step pictures are drawn from: the model's files (their bytes, line ends made one) and
    the pictures' cameras and size here. Another value than the one written beside the pictures: they are stale."""
    digest = hashlib.sha256()
    for name in _DRAWN_FROM:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes().replace(b"\r\n", b"\n") + b"\0")
    digest.update(repr((SIZE, COUPON_CENTRE, sorted(PICTURES.items()))).encode())
    return digest.hexdigest()


def sources_text(folder: Path) -> str:
    return (f"# written by `python host/buildkit hardware --steps`: the pictures here were drawn from\n"
            f"sha256 {sources_digest(folder)}\n")


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
