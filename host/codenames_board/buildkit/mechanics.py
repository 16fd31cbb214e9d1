"""The table's mechanics, computed from the OpenSCAD model: screws, cables, the assembly order, sight lines.

``hardware/enclosure.scad`` echoes ``figure NAME = VALUE`` lines (its joints'
stacks, the panels at the buttons, where wires start and end, the hood's
profile, the display's area, the tiles); :func:`figures` reads them. The rules
here say what a builder's parts must satisfy against those figures, and the
tests apply them to ``hardware/bom.csv`` and the guide, so a change to the
model that a screw, a cable or a sight line no longer survives fails a test.

Pure functions of their arguments; only :func:`figures` runs OpenSCAD.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from . import hardware

Point = tuple[float, float, float]


def figures(scad: Path, *defines: str) -> dict[str, object]:
    """The model's ``figure NAME = VALUE`` echoes as Python values (OpenSCAD's lists are JSON)."""
    out = {}
    for line in hardware.echoes(scad, *defines).splitlines():
        match = re.match(r'ECHO: "figure (\w+) = (.*)"$', line)
        if match:
            out[match[1]] = json.loads(match[2].replace('\\"', '"'))
    return out


# --- screws


@dataclass(frozen=True)
class Joint:
    """A screwed joint as the model sees it: ``stack`` mm clamped, then ``into`` (``thread`` mm of it, ``room`` mm free)."""

    name: str
    route: str
    screws: int
    stack: float
    into: str
    thread: float
    room: float


def joints(figs: dict[str, object]) -> list[Joint]:
    return [Joint(*row) for row in figs["joints"]]


def screw_size(part: str) -> tuple[float, float]:
    """(diameter, length) in mm from a parts-list name such as ``wood screw 3 x 40 mm`` or ``screw M3 x 12 mm``."""
    match = re.search(r"\bM?(\d+(?:\.\d+)?) x (\d+(?:\.\d+)?) mm", part)
    if not match:
        raise ValueError(f"{part!r}: no 'D x L mm' size in the name")
    return float(match[1]), float(match[2])


def engagement_needed(into: str, diameter: float, thread: float) -> float:
    """The least length past the clamped stack a screw needs, by what its thread goes into.

    Wood (a plywood edge): 4 diameters. A self-tapping screw in a printed
    boss: 2 diameters. A threaded insert: its whole length. A nut: through it
    and a millimetre (two threads) beyond.
    """
    rules = {"wood": 4 * diameter, "plastic": 2 * diameter, "insert": thread, "nut": thread + 1}
    return rules[into]


def screw_problems(joint: Joint, diameter: float, length: float) -> list[str]:
    past = length - joint.stack
    need = engagement_needed(joint.into, diameter, joint.thread)
    problems = []
    if past < need:
        problems.append(
            f"{joint.name} ({joint.route}): {diameter:g} x {length:g} mm reaches {past:g} mm past the "
            f"{joint.stack:g} mm stack; {joint.into} needs {need:g} mm"
        )
    if past > joint.room:
        problems.append(f"{joint.name} ({joint.route}): {length:g} mm runs {past - joint.room:g} mm past the room there")
    return problems


# --- connectors and cables


@dataclass(frozen=True)
class Connector:
    """One end of a connection: its family (``spade``, ``2.54 mm``), its size, and whether it is the male half."""

    family: str
    size: str
    male: bool

    def __str__(self) -> str:
        if self.family == "spade":
            return f"{self.size} mm {'tab' if self.male else 'female spade'}"
        if self.family == "USB":
            return f"USB-{self.size} {'plug' if self.male else 'socket'}"
        return f"{self.size} {'male pins' if self.male else 'female socket'}"


def mates(a: Connector, b: Connector) -> bool:
    return a.family == b.family and a.size == b.size and a.male != b.male


TAB_28, SPADE_28 = Connector("spade", "2.8", True), Connector("spade", "2.8", False)
TAB_48, SPADE_48 = Connector("spade", "4.8", True), Connector("spade", "4.8", False)
PINS, SOCKET = Connector("2.54 mm", "1 x 1", True), Connector("2.54 mm", "1 x 1", False)
PINS_2X13, SOCKET_2X13 = Connector("2.54 mm", "2 x 13", True), Connector("2.54 mm", "2 x 13", False)
USB_C_PLUG, USB_C_SOCKET = Connector("USB", "C", True), Connector("USB", "C", False)

#: How far past the straight run every cable reaches: the floor, with the Pi on
#: it, comes off and lies beside the box while the wires stay plugged in.
SLACK_MM = 150


@dataclass(frozen=True)
class Connection:
    """A cable from part A's connector to part B's: ``cable`` names its parts-list row, ``length`` is what it is cut to."""

    a: str  # a point in the model's "points" figure
    a_part: str  # the parts-list row whose example names a's connector
    a_connector: Connector
    b: str
    b_part: str
    b_connector: Connector
    cable: str
    cable_ends: tuple[Connector, Connector]
    length: int  # mm


_BUTTON_WIRE = "button wire"
#: button wires are cut to two lengths: the operatives' side and the spymasters' side
FRONT_WIRE, BACK_WIRE = 900, 500
CONNECTIONS = (
    *(
        Connection("Pi header", "Raspberry Pi", Connector("2.54 mm", "2 x 20", True), name, "arcade button 30 mm",
                   TAB_28, _BUTTON_WIRE, (SOCKET, SPADE_28), length)
        for name, length in (("END TURN", FRONT_WIRE), ("CONFIRM", BACK_WIRE), ("UP", BACK_WIRE), ("DOWN", BACK_WIRE),
                             ("UNDO", BACK_WIRE), ("NEW GAME", BACK_WIRE))
    ),
    Connection("Pi header", "Raspberry Pi", Connector("2.54 mm", "2 x 20", True), "SAND TIMER", "arcade button 60 mm",
               TAB_48, _BUTTON_WIRE, (SOCKET, SPADE_48), FRONT_WIRE),
    Connection("Pi header", "Raspberry Pi", Connector("2.54 mm", "2 x 20", True), "display socket", "spymaster display",
               SOCKET_2X13, "display ribbon", (SOCKET_2X13, PINS_2X13), 400),
    Connection("USB-C", "Pi power supply", USB_C_PLUG, "Pi USB-C", "Raspberry Pi", USB_C_SOCKET,
               "USB-C panel-mount extension", (USB_C_SOCKET, USB_C_PLUG), 300),
)


def header_fits(header: Connector, end: Connector) -> bool:
    """A 2.54 mm end fits a larger header of the other gender (a jumper on one pin, a 2 x 13 ribbon on pins 1-26)."""
    return header.family == end.family and header.male != end.male


def cable_run(a: Point, b: Point) -> float:
    """A wire's path between two points: along the box's floor, walls and the plate, not through the air."""
    return sum(abs(p - q) for p, q in zip(a, b))


# --- the assembly order

#: The steps of hardware/README.md's assembly, in order, with what each fits.
STEPS = (
    ("Print", ("plate", "hood", "inserts")),
    ("Cut the LED board", ("LED board cut",)),
    ("The box", ("box sides", "USB-C socket", "DC jack", "Pi", "floor cut")),
    ("Build the tile board", ("tile board",)),
    ("LEDs", ("LEDs", "LED wires")),
    ("Pads", ("pads", "pad labels")),
    ("Under the plate", ("SAND TIMER button", "status LED", "buzzer")),
    ("Test the tiles", ("tile test",)),
    ("The LED board onto the plate", ("LED board",)),
    ("The display and the hood", ("display", "display ribbon", "hood")),
    ("The top onto the box", ("top",)),
    ("Buttons and wires", ("30 mm buttons", "button wires", "ribbon on the Pi", "Pi cables")),
    ("The Pi", ("Pi software",)),
    ("Bring-up", ("bring-up",)),
    ("Close the floor", ("floor",)),
)

#: (part, how it is fitted or reached, the part that closes that access once fitted)
ACCESS = (
    ("inserts", "pressed in hot from the plate's top", "hood"),
    ("USB-C socket", "its nut inside the back wall", "top"),
    ("DC jack", "its nut inside the back wall", "top"),
    ("LEDs", "glued on the LED board's top, which faces the plate", "LED board"),
    ("LED wires", "on the LED board's top", "LED board"),
    ("pads", "in the pockets on the plate's underside", "LED board"),
    ("pad labels", "over the pads", "LED board"),
    ("SAND TIMER button", "its nut under the plate, wider than the LED board's hole", "LED board"),
    ("status LED", "its holder's nut under the plate", "LED board"),
    ("buzzer", "glued under the plate", "LED board"),
    ("tile test", "pads and LEDs still open", "LED board"),
    ("LED board", "six screws from below, the plate lying top down", "hood"),
    ("display", "four screws inside the hood", "hood"),
    ("display ribbon", "on the display's socket inside the hood, through the slot", "hood"),
    ("button wires", "on the microswitches inside the box", "floor"),
    ("ribbon on the Pi", "on the Pi's header inside the box", "floor"),
    ("Pi cables", "the Pi's USB ports inside the box", "floor"),
    ("bring-up", "with the box open, to fix a wire", "floor"),
)

#: Parts that close the box but come off again with screws (the top's 20, the floor's 8).
REMOVABLE = ("top", "floor", "hood", "LED board")


def order_problems(steps=STEPS, access=ACCESS) -> list[str]:
    """Where a step fits a part after the part that blocks its access, or a blocking part is missing.

    A step fits its parts in the order it lists them.
    """
    when = {part: (index, position) for index, (_, parts) in enumerate(steps) for position, part in enumerate(parts)}
    problems = []
    for part, how, blocker in access:
        if part not in when or blocker not in when:
            problems.append(f"{part} or {blocker}: not in any step")
        elif when[part] >= when[blocker]:
            problems.append(f"{part} ({how}) comes after the {blocker}, which blocks it")
    return problems


# --- sight lines

#: Seated players' eyes (mm): 400-450 above the table the box stands on, 300-400 back from the
#: plate's edge, up to 250 either side of its centre line (two spymasters side by side; the
#: operatives spread along their edge). A standing operative: 850 above the table.
EYE_HEIGHTS = (400, 450)
STANDING_EYE = 850
EYE_BACK = (300, 350, 400)
EYE_SIDE = (-250, -125, 0, 125, 250)


def spymaster_eyes(figs) -> list[Point]:
    width, depth = figs["plate"]
    return [(width / 2 + side, depth + back, figs["table_z"] + height)
            for height in EYE_HEIGHTS for back in EYE_BACK for side in EYE_SIDE]


def operative_eyes(figs) -> list[Point]:
    width, _ = figs["plate"]
    return [(width / 2 + side, -back, figs["table_z"] + height)
            for height in (*EYE_HEIGHTS, STANDING_EYE) for back in (200, *EYE_BACK) for side in EYE_SIDE]


def card_points(figs) -> list[tuple[int, Point]]:
    """(tile, point): each card's corners and centre, on the plate's top."""
    half_x, half_y = figs["card"][0] / 2, figs["card"][1] / 2
    z = figs["top_z"]
    return [(tile, (x + dx, y + dy, z)) for tile, (x, y) in enumerate(figs["tiles"])
            for dx, dy in ((-half_x, -half_y), (half_x, -half_y), (-half_x, half_y), (half_x, half_y), (0, 0))]


def _clip(eye: Point, target: Point, figs) -> tuple[float, float, float, float, int]:
    """The segment eye -> target against the hood: (t entering, t leaving the x slab; t entering, t leaving the
    side profile), and the profile edge it leaves by (t runs from the eye, 0, to the target, 1)."""
    d = [q - p for p, q in zip(eye, target)]
    x0, x1 = figs["hood_x"]
    if abs(d[0]) < 1e-12:
        sx = (0.0, 1.0) if x0 <= eye[0] <= x1 else (1.0, 0.0)
    else:
        a, b = (x0 - eye[0]) / d[0], (x1 - eye[0]) / d[0]
        sx = (min(a, b), max(a, b))
    poly = figs["hood_profile"]
    t0, t1, leave = -math.inf, math.inf, -1
    area = sum(poly[i][0] * poly[i - 1][1] - poly[i - 1][0] * poly[i][1] for i in range(len(poly)))
    for i in range(len(poly)):
        (ay, az), (by, bz) = poly[i], poly[(i + 1) % len(poly)]
        ny, nz = (bz - az, ay - by) if area > 0 else (az - bz, by - ay)  # inward
        num = ny * (eye[1] - ay) + nz * (eye[2] - az)
        den = ny * d[1] + nz * d[2]
        if abs(den) < 1e-12:
            if num < 0:
                return (*sx, 1.0, 0.0, -1)
        elif den > 0:
            t0 = max(t0, -num / den)
        elif -num / den < t1:
            t1, leave = -num / den, i
    return (*sx, t0, t1, leave)


def hood_hides(eye: Point, target: Point, figs) -> bool:
    """Whether the hood, taken as solid, stands between the eye and a point outside it (a card)."""
    sx0, sx1, t0, t1, _ = _clip(eye, target, figs)
    lo, hi = max(sx0, t0, 0.0), min(sx1, t1, 1.0)
    return hi - lo > 1e-9


def display_seen(eye: Point, target: Point, figs) -> bool:
    """Whether a point of the display, inside the hollow hood, is seen: the line from it to the eye leaves the hood
    through its open front (the profile's edge from the front's foot to the visor) and not through a cheek, the
    roof or the back wall, and reaches the face from the front."""
    _, sx1, t0, t1, leave = _clip(target, eye, figs)  # from the display out to the eye
    if t0 > 1e-6 or t1 <= 0:  # the point is not inside the hood
        return False
    if sx1 < t1:  # leaves the slab, through a cheek, while still inside the profile
        return False
    return leave == 1 and faces(eye, target, figs)  # out through the open front (front foot to visor)


def face_normal(figs) -> tuple[float, float]:
    """The display face's normal in (y, z), towards the spymasters."""
    area = figs["display_area"]
    (_, y0, z0), (_, y1, z1) = area[0], area[2]
    ny, nz = z0 - z1, y1 - y0
    length = math.hypot(ny, nz)
    return (ny / length, nz / length) if ny > 0 else (-ny / length, -nz / length)


def faces(eye: Point, target: Point, figs) -> bool:
    ny, nz = face_normal(figs)
    return (eye[1] - target[1]) * ny + (eye[2] - target[2]) * nz > 0
