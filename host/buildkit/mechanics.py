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

from . import electrical, hardware, perfboard
from .cables import feed_paths, floor_pad_wire_drops

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
    """One end of a connection: its family (``spade``, ``2.54 mm``), its size, whether it is the male half, and for a
    block of pins in two rows its layout: ``PI`` for pins laid out as the Pi's header is, and for a socket made to sit
    on such pins (a ribbon's IDC socket, the display's); ``MIRRORED`` for their mirror image, which no turn matches."""

    family: str
    size: str
    male: bool
    layout: str = ""

    def __str__(self) -> str:
        if self.family == "spade":
            return f"{self.size} mm {'tab' if self.male else 'female spade'}"
        if self.family == "USB":
            kind = "micro-USB" if self.size == "micro-B" else f"USB-{self.size}"
            return f"{kind} {'plug' if self.male else 'socket'}"
        return f"{self.size} {'male pins' if self.male else 'female socket'}"


PI, MIRRORED = "as the Pi's header", "mirrored"


def mates(a: Connector, b: Connector) -> bool:
    return a.family == b.family and a.size == b.size and a.male != b.male and a.layout == b.layout


def through_adapter(socket: Connector) -> Connector:
    """The pins a double-ended (male-male) header shows when pushed into ``socket``: the same pins seen from their
    other end, so the socket's layout mirrored. In a ribbon's socket that sits on the Pi they are the Pi header's
    mirror image: a display made to sit on the Pi fits them in no way round."""
    return Connector(socket.family, socket.size, True, {PI: MIRRORED, MIRRORED: PI}.get(socket.layout, socket.layout))


TAB_28, SPADE_28 = Connector("spade", "2.8", True), Connector("spade", "2.8", False)
TAB_48, SPADE_48 = Connector("spade", "4.8", True), Connector("spade", "4.8", False)
PINS, SOCKET = Connector("2.54 mm", "1 x 1", True), Connector("2.54 mm", "1 x 1", False)
#: 2 x 13 male pins as the Pi's header has them (a ribbon's male IDC plug), and a 2 x 13 socket that sits on them
PINS_2X13, SOCKET_2X13 = Connector("2.54 mm", "2 x 13", True, PI), Connector("2.54 mm", "2 x 13", False, PI)
PI_HEADER = Connector("2.54 mm", "2 x 20", True, PI)
USB_C_PLUG, USB_C_SOCKET = Connector("USB", "C", True), Connector("USB", "C", False)
USB_A_PLUG, USB_A_SOCKET = Connector("USB", "A", True), Connector("USB", "A", False)
MICRO_USB_PLUG, MICRO_USB_SOCKET = Connector("USB", "micro-B", True), Connector("USB", "micro-B", False)

#: How far past the straight run every cable reaches: the floor, with the Pi on
#: it, stays where it lies while the box tips back over its spymasters' edge, the wires plugged in.
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
        Connection("Pi header", "Raspberry Pi", PI_HEADER, name, "arcade button 30 mm",
                   TAB_28, _BUTTON_WIRE, (SOCKET, SPADE_28), length)
        for name, length in (("END TURN", FRONT_WIRE), ("CONFIRM", BACK_WIRE), ("UP", BACK_WIRE), ("DOWN", BACK_WIRE),
                             ("UNDO", BACK_WIRE), ("NEW GAME", BACK_WIRE))
    ),
    Connection("Pi header", "Raspberry Pi", PI_HEADER, "SAND TIMER", "arcade button 60 mm",
               TAB_48, _BUTTON_WIRE, (SOCKET, SPADE_48), FRONT_WIRE),
    Connection("Pico USB", "Raspberry Pi Pico", MICRO_USB_SOCKET, "Pi USB-A", "Raspberry Pi", USB_A_SOCKET,
               "micro-USB cable", (MICRO_USB_PLUG, USB_A_PLUG), 500),
    Connection("Pi header", "Raspberry Pi", PI_HEADER, "display socket", "spymaster display",
               SOCKET_2X13, "display ribbon", (SOCKET_2X13, PINS_2X13), 400),
    Connection("USB-C", "Pi power supply", USB_C_PLUG, "Pi USB-C", "Raspberry Pi", USB_C_SOCKET,
               "USB-C panel-mount extension", (USB_C_SOCKET, USB_C_PLUG), 300),
)

#: The buzzer's button wires, each cut to BACK_WIRE: its driver sits on the tile board and takes the LED
#: supply's 5 V there (the display's ribbon covers the Pi's 5 V pins), so the Pi's header sends it two
#: wires (GPIO12 and its ground harness's one wire) and the board two more on to the buzzer under the plate.
#: (from, to, wires)
BUZZER_WIRES = (("Pi header", "tile board", 2), ("tile board", "buzzer", 2))
#: The buzzer's two wires, from J15 on the tile board up to the buzzer under the plate (a test runs them from J15's
#: hole in the layout, with SLACK_MM); the driver's two from the Pi's header are BACK_WIRE.
BUZZER_WIRE = 650
#: The status LED's signal wire from the Pi's header, cut to FRONT_WIRE (its cathode is on a ground harness).
STATUS_LED_WIRES = 1

#: The box's corners: two 3 x 40 mm screws each through the front or back into the side's end (the parts list's
#: row of edge screws holds them too).
BOX_CORNER_SCREWS = 8

#: A harness's jumpers from part to part stay under the plate (the floor does not pull on them): the run
#: along the plate and this much to turn into each tab.
JUMPER_SLACK_MM = 50


@dataclass(frozen=True)
class GroundHarness:
    """One GND pin of the Pi, one Dupont contact on it, one wire to the first part, then short jumpers from part
    to part: on a button's COM tab a 2.8 or 4.8 mm spade with both wires crimped into it (two 0.25 mm² wires
    fill a red spade's 0.5-1.5 mm² barrel), on the status LED's cathode both wires soldered under heat-shrink."""

    name: str  # the side of the box, as circuit.HARNESS_SIDES names it
    parts: tuple[str, ...]  # points of the model ("points", or "hanging" for the status LED), in the order wired
    first: int  # mm: the wire from the Pi's GND pin to the first part
    jumpers: tuple[int, ...]  # mm: part to part


#: The Pi's header has three GND pins outside the display's ribbon (pins 30, 34, 39): one harness on each.
#: The order is the shortest path from the Pi through the side's parts (a test checks it against the model).
GROUND_HARNESSES = (
    GroundHarness("operatives' side", ("SAND TIMER", "status LED", "END TURN"), FRONT_WIRE, (390, 150)),
    GroundHarness("spymasters' side", ("NEW GAME", "UNDO", "DOWN", "UP", "CONFIRM"), BACK_WIRE, (100, 280, 90, 90)),
    GroundHarness("the buzzer's driver", ("tile board",), BACK_WIRE, ()),
)


#: With the rotary encoder (``clue_input = "encoder"``) the spymasters' harness ends at the encoder's C pin, soldered
#: (it has pins, not tabs), and a short wire on the encoder joins C to one of its switch's pins: both are GND. Its
#: order ties with UNDO first; this one keeps the buttons' harness's start.
ENCODER_HARNESS = GroundHarness("spymasters' side", ("NEW GAME", "UNDO", "encoder"), BACK_WIRE, (100, 320))
ENCODER_LINK = 30  # mm


def ground_harnesses(clue_input: str = "buttons") -> tuple[GroundHarness, ...]:
    """The three harnesses for the clue input fitted."""
    if clue_input == "encoder":
        return tuple(ENCODER_HARNESS if h.name == ENCODER_HARNESS.name else h for h in GROUND_HARNESSES)
    return GROUND_HARNESSES


def black_wire_mm(harnesses=GROUND_HARNESSES) -> int:
    """The button wire the ground harnesses take, all of it black."""
    return sum(h.first + sum(h.jumpers) for h in harnesses)


def button_wire_mm(connections=CONNECTIONS, harnesses=GROUND_HARNESSES) -> int:
    """All the button wire: one signal wire per button (its COM is on a harness), the status LED's signal, the
    buzzer's four (its GND from the Pi is its harness's one wire), every harness's first wire and jumpers."""
    signals = sum(c.length for c in connections if c.cable == _BUTTON_WIRE) + STATUS_LED_WIRES * FRONT_WIRE
    buzzer = sum(count * (BUZZER_WIRE if end == "buzzer" else BACK_WIRE) for _, end, count in BUZZER_WIRES)
    buzzer -= BACK_WIRE  # less the driver's GND wire from the Pi: a harness
    return signals + buzzer + sum(h.first + sum(h.jumpers) for h in harnesses)


def dupont_contacts(connections=CONNECTIONS, harnesses=GROUND_HARNESSES) -> int:
    """One contact per signal wire on the Pi's header (buttons, status LED, buzzer) and one per ground harness."""
    signals = sum(c.cable == _BUTTON_WIRE for c in connections) + STATUS_LED_WIRES + 1
    return signals + len(harnesses)


def header_fits(header: Connector, end: Connector) -> bool:
    """A 2.54 mm end fits a larger header of the other gender (a jumper on one pin, a 2 x 13 ribbon on pins 1-26),
    a block of two rows only in the header's own layout."""
    return header.family == end.family and header.male != end.male and (end.size == "1 x 1" or end.layout == header.layout)


def cable_run(a: Point, b: Point) -> float:
    """A wire's path between two points: along the box's floor, walls and the plate, not through the air."""
    return sum(abs(p - q) for p, q in zip(a, b))


# --- the assembly order

#: The steps of hardware/README.md's assembly, in order, with what each fits.
STEPS = (
    ("The Pi", ("Pi software",)),
    # the multimeter checks and power-on stages of hardware/README.md, in the order the step does them
    ("Build the tile board", ("tile board", "DC jack wires", "multimeter checks", "stage 0", "stage 1", "stage 2",
                              "firmware", "stage 3")),
    ("One tile first", ("tile coupon", "one-tile test")),
    ("Print", ("plate", "hood", "inserts")),
    ("Cut the LED board", ("LED board cut",)),
    ("The box", ("box sides", "USB-C socket", "DC jack", "Pi", "floor cut")),
    ("LEDs", ("LEDs", "LED wires", "chain checks")),
    ("Pads", ("pads", "pad labels")),
    ("Under the plate", ("SAND TIMER button", "status LED", "status LED's ground jumpers", "encoder", "buzzer")),
    ("Test the tiles", ("pad wires", "tile test")),
    ("The LED board onto the plate", ("LED board",)),
    ("The display and the hood", ("display ribbon", "ribbon check", "display", "hood")),
    ("Screw the top on", ("top", "30 mm buttons")),
    ("Buttons and wires", ("buzzer wires", "tile board on its standoffs", "button wires",
                           "driver wire checks", "ribbon on the Pi", "Pi cables", "feeds clamped")),
    ("Bring-up", ("bring-up",)),
    ("Close the floor", ("floor",)),
)

#: (part, how it is fitted or reached, the part that closes that access once fitted); and the bench work
#: that must come before a part: (work, why, the part it must precede)
ACCESS = (
    ("Pi software", "on the bench: it flashes the tile board and runs the self-tests", "tile board"),
    ("tile board", "on the bench: the one-tile test runs on it", "one-tile test"),
    ("DC jack wires", "the LED supply comes in through the loose jack on the bench", "stage 0"),
    ("multimeter checks", "every chip out of its socket, nothing powered", "stage 0"),
    ("stage 0", "the supply's polarity, before any chip is in its socket", "stage 1"),
    ("stage 1", "the LED supply alone, before the Pico's side", "stage 2"),
    ("stage 2", "the Pico seen on USB, before it is flashed", "firmware"),
    ("firmware", "stage 3's breathing LEDs and handshake are the firmware's", "stage 3"),
    ("stage 3", "the tile board proven before a tile is wired to it", "one-tile test"),
    ("DC jack wires", "they go through the back wall's hole and the jack's nut", "DC jack"),
    ("one-tile test", "settles the thresholds and the plate's print settings while nothing is printed", "plate"),
    ("inserts", "pressed in hot from the plate's top", "hood"),
    ("USB-C socket", "its nut inside the back wall", "top"),
    ("DC jack", "its nut inside the back wall", "top"),
    ("LEDs", "glued on the LED board's top, which faces the plate", "LED board"),
    ("LED wires", "on the LED board's top", "LED board"),
    ("chain checks", "checks 12-13 at the chain's own wires, before it meets the tile board", "LED board"),
    ("chain checks", "with the feeds out of the jack's lever connectors, which would bridge a broken link", "feeds clamped"),
    ("top", "the LED board, the tile board hung under it, turns over and moves with the plate until the top is on the "
     "box: the J12 pair goes into the jack's lever connectors for good only then", "feeds clamped"),
    ("pads", "in the pockets on the plate's underside", "LED board"),
    ("pad labels", "over the pads", "LED board"),
    ("pad wires", "soldered to the tile board on the LED board's back, before it turns over with the plate", "LED board"),
    ("SAND TIMER button", "its nut under the plate, wider than the LED board's hole", "LED board"),
    ("status LED", "its holder's nut under the plate", "LED board"),
    ("status LED's ground jumpers", "soldered to its cathode, whose leg ends in the LED board's hole", "LED board"),
    ("encoder", "its nut on the plate, its pins above the LED board: its wires soldered before it goes on", "LED board"),
    ("buzzer", "glued under the plate", "LED board"),
    ("tile test", "pads and LEDs still open", "LED board"),
    ("LED board", "six screws from below, the plate lying top down", "hood"),
    ("display", "four screws inside the hood", "hood"),
    ("display ribbon", "on the display's socket inside the hood, through the slot", "hood"),
    ("button wires", "on the microswitches inside the box", "floor"),
    ("30 mm buttons", "snapped in from above with the box on its floor: on its back edge it would tip", "button wires"),
    ("buzzer wires", "soldered under the tile board while it is off its standoffs", "tile board on its standoffs"),
    ("buzzer wires", "check 15 measures through them", "driver wire checks"),
    ("LED board", "the tile board hangs on its standoffs under it", "tile board on its standoffs"),
    ("button wires", "checks 15-16 need the Dupont ends crimped", "driver wire checks"),
    ("driver wire checks", "at the Dupont ends, before they meet the Pi", "Pi cables"),
    ("display ribbon", "check 17 measures through it, on the display alone", "ribbon check"),
    ("ribbon check", "at the display header's joints, which the hood covers", "hood"),
    ("ribbon check", "a ribbon turned 180 degrees is found before the Pi's 5 V meets it", "ribbon on the Pi"),
    ("ribbon check", "with the Pi off, before it is powered", "Pi cables"),
    ("ribbon on the Pi", "on the Pi's header inside the box", "floor"),
    ("Pi cables", "the Pi's USB ports inside the box", "floor"),
    ("bring-up", "with the box open, to fix a wire", "floor"),
)

#: The MDF route (hardware/README.md, "The MDF route, step by step"): no plate, no inserts and no bosses. The
#: sheet is cut and its acrylic and strips glued while it lies bare; the foam board chambers and the printed light
#: boxes go on the LED board after its wires; the pads on the acrylic's underside; the hood's nuts sit under the
#: sheet in the strips' pockets, which the LED board covers (ledboard_2d has no holes there), so the hood goes on
#: before the LED board, which only the 20 edge screws hold.
_MDF_ORDER = (
    "The Pi", "Build the tile board", "One tile first", "Cut and glue the top", "Cut the LED board", "The box", "LEDs",
    "The light chambers", "Pads", "Under the plate", "Test the tiles", "The display and the hood",
    "The LED board onto the top", "Screw the top on", "Buttons and wires", "Bring-up", "Close the floor",
)  # fmt: skip
_MDF_PARTS = {
    **dict(STEPS),
    "One tile first": ("MDF coupon", "one-tile test"),
    "Cut and glue the top": ("hood", "light boxes", "top sheet", "counterbores", "acrylic", "strips", "hood nuts"),
    "The light chambers": ("chamber walls", "light boxes glued"),
    "The display and the hood": ("display ribbon", "ribbon check", "display", "hood"),
    "The LED board onto the top": ("LED board",),
}
MDF_STEPS = tuple((title, _MDF_PARTS[title]) for title in _MDF_ORDER)
#: The steps the guide's MDF list gives in full (the others are the printed route's, unchanged).
MDF_OWN = ("One tile first", "Cut and glue the top", "The light chambers", "Pads", "The display and the hood",
           "The LED board onto the top")  # fmt: skip
MDF_ACCESS = (
    *(entry for entry in ACCESS if entry[0] not in ("inserts", "LED board") and entry[2] != "plate"),
    ("one-tile test", "settles the thresholds, and whether 7 mm of MDF and acrylic pass, before the sheet is cut",
     "top sheet"),
    ("counterbores", "drilled from below while the sheet lies bare and flat", "acrylic"),
    ("counterbores", "drilled from below while the sheet lies bare and flat", "strips"),
    ("acrylic", "glued under the sheet's windows before the pads go on it", "pads"),
    ("LED wires", "the walls' cable notches go over them", "chamber walls"),
    ("chamber walls", "slotted together on the LED board", "LED board"),
    ("light boxes glued", "over the strip pieces on the LED board", "LED board"),
    ("hood nuts", "epoxied under the 4 mm sheet while it lies bare, captive", "LED board"),
    ("hood nuts", "the hood screws into them", "hood"),
    ("LED board", "on the strips and chambers, held by the 20 edge screws alone", "top"),
)  # fmt: skip

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


# --- the box's floor: what stands on it and what hangs into the box


#: The Raspberry Pi 4's tallest parts above its board's top (mm): its USB and Ethernet block (the
#: Raspberry Pi 4 Model B mechanical drawing: the stacked USB 3 sockets, 16 mm), and the button wires'
#: Dupont housings on its header (the header's base 2.5 mm, a 14 mm housing, and 10 mm for the wires
#: to turn), the tallest. Its board: 1.4 mm.
PI_BOARD_MM = 1.4
PI_PARTS_MM = {"USB and Ethernet sockets": 16.0, "Dupont housings and their wires turning": 2.5 + 14 + 10}
PERFBOARD_MM = 1.6
#: Kept between anything on the floor and anything above it, and from the walls.
FLOOR_CLEARANCE_MM = 3.0


@dataclass(frozen=True)
class FloorBoard:
    """A board on standoffs: its footprint, the z of its underside and how tall it stands (board and parts)."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float
    z: float
    height: float

    @property
    def top(self) -> float:
        return self.z + self.height


def floor_boards(figs, tile_board_parts_mm: float) -> list[FloorBoard]:
    """The Pi and the tile board as the model places them, with the height of their tallest parts."""
    heights = {"Pi": PI_BOARD_MM + max(PI_PARTS_MM.values()), "tile board": PERFBOARD_MM + tile_board_parts_mm}
    return [FloorBoard(name, x0, y0, x1, y1, z, heights[name]) for name, (x0, y0), (x1, y1), z in figs["floor_boards"]]


def vertical_space(figs) -> float:
    """From the floor's top to the LED board's underside (mm)."""
    floor, ledboard = figs["box_z"]
    return ledboard - floor


def _overlap(a0, a1, b0, b1) -> bool:
    return a0 < b1 and b0 < a1


def _clashes(name: str, box: tuple[float, float, float, float], top: float, figs, clearance: float) -> list[str]:
    """Where something on the floor (its footprint x0, y0, x1, y1 and its top z) runs into a wall, something hanging
    from the plate (a button's body, the buzzer, a bullet pixel) or a cable entry's room."""
    x0, y0, x1, y1 = box
    (wx0, wy0), (wx1, wy1) = figs["box_inner"]
    out = []
    if x0 < wx0 + clearance or y0 < wy0 + clearance or x1 > wx1 - clearance or y1 > wy1 - clearance:
        out.append(f"{name} runs into a wall of the box")
    for hung, (cx, cy), d, lowest in figs["hanging"]:
        r = d / 2 + clearance
        if _overlap(x0, x1, cx - r, cx + r) and _overlap(y0, y1, cy - r, cy + r) and top > lowest - clearance:
            out.append(f"{name} is under {hung}, which reaches {lowest:g} (its top: {top:g})")
    for room, (rx0, ry0), (rx1, ry1), _ in figs["entry_rooms"]:
        if _overlap(x0, x1, rx0, rx1) and _overlap(y0, y1, ry0, ry1):
            out.append(f"{name} is in the room behind the {room} entry")
    return out


def floor_problems(figs, tile_board_parts_mm: float, clearance: float = FLOOR_CLEARANCE_MM) -> list[str]:
    """Where a board on the floor runs into a wall, another board, a cable entry's room, something hanging
    from the plate or the LED board's underside; and where a plug (the Pico's, the Pi's USB-A and USB-C) with its
    boot and its cable's bend runs into any of those."""
    boards = floor_boards(figs, tile_board_parts_mm)
    _, ceiling = figs["box_z"]
    problems = []
    for b in boards:
        problems += _clashes(b.name, (b.x0, b.y0, b.x1, b.y1), b.top, figs, clearance)
        if b.top > ceiling - clearance:
            problems.append(f"{b.name}: {b.top - ceiling + clearance:.1f} mm too tall for the box under the LED board")
    for i, a in enumerate(boards):
        for b in boards[i + 1:]:
            if _overlap(a.x0 - clearance, a.x1 + clearance, b.x0, b.x1) and _overlap(a.y0 - clearance, a.y1 + clearance, b.y0, b.y1):
                problems.append(f"{a.name} and {b.name} overlap")
    for name, owner, (x0, y0), (x1, y1), top in figs["plug_rooms"]:
        problems += _clashes(name, (x0, y0, x1, y1), top, figs, clearance)
        for b in boards:
            if b.name != owner and _overlap(b.x0 - clearance, b.x1 + clearance, x0, x1) and _overlap(b.y0 - clearance, b.y1 + clearance, y0, y1):
                problems.append(f"{name} runs into the {b.name}")
    return problems


def hung_problems(figs, clearance: float = FLOOR_CLEARANCE_MM) -> list[str]:
    """With the tile board hung under the LED board (the model's tile_board_mount = "ledboard"): where it runs into a
    wall, something hanging from the plate lower than its copper side (a button's body, a bullet pixel), the Pi on the
    floor below it or the floor itself; and where the floor's hatch does not open under all of it (the parts faced
    down are reached through it, the box on its back edge)."""
    problems = []
    floor, _ = figs["box_z"]
    for name, (x0, y0), (x1, y1), top, lowest in figs["hung_boards"]:
        (wx0, wy0), (wx1, wy1) = figs["box_inner"]
        if x0 < wx0 + clearance or y0 < wy0 + clearance or x1 > wx1 - clearance or y1 > wy1 - clearance:
            problems.append(f"{name} runs into a wall of the box")
        for hung, (cx, cy), d, bottom in figs["hanging"]:
            r = d / 2 + clearance
            if _overlap(x0, x1, cx - r, cx + r) and _overlap(y0, y1, cy - r, cy + r) and bottom < top + clearance:
                problems.append(f"{name} is on {hung}, which reaches {bottom:g} (its top: {top:g})")
        for b in floor_boards(figs, 0):
            height = b.top + max(PI_PARTS_MM.values()) if b.name == "Pi" else b.top
            if _overlap(x0, x1, b.x0, b.x1) and _overlap(y0, y1, b.y0, b.y1) and height > lowest - clearance:
                problems.append(f"{name} is over the {b.name}")
        if lowest < floor + clearance:
            problems.append(f"{name}: {floor + clearance - lowest:.1f} mm too deep for the box")
        (hx0, hy0), (hx1, hy1) = figs["hatch"] or ((0, 0), (0, 0))
        if not (hx0 <= x0 and hy0 <= y0 and x1 <= hx1 and y1 <= hy1):
            problems.append(f"the floor's hatch does not open under all of the {name}")
    return problems


# --- the service position: the box tipped back off its floor

#: Each end of a cable turns into its terminal, pin or pad: this much of it is not free to stretch across. With the
#: tile board hung under the LED board (the default) only the Pi's cables cross, and the box tipped back off its floor
#: may stand fully on its back edge: TIP_HUNG. With the variant's tile board on its floor standoffs it tips back
#: TIP_ON_STANDOFFS degrees (propped).
TIP_END_MM, TIP_ON_STANDOFFS = electrical.TIP_END_MM, electrical.TIP_ON_STANDOFFS
TIP_HUNG = 90
#: The guide props the box this far: short of what the wires are cut for, so that none goes taut.
TIP_PROP = 50


def crossing_cables(figs, hung: bool) -> list[tuple[str, Point, Point, float]]:
    """The cables between the floor (the Pi; the tile board in the floor variant, ``hung`` False) and the box: (name,
    the floor's end, the box's end, the length free to span them), each end where the model puts it."""
    points = {name: tuple(xyz) for name, xyz in figs["points"]}
    for name, (x, y), _, lowest in figs["hanging"]:
        points.setdefault(name, (x, y, lowest))
    wall = figs["box_inner"][0][1]  # the back wall's thickness: the entries' bodies stand inside it
    for entry in ("USB-C", "DC jack"):
        x, y, z = points[entry]
        points[entry] = (x, y - wall, z)
    feeds = dict((name, (x, y, electrical.LEDBOARD_UNDER_Z)) for name, (x, y), _ in figs["feeds"])

    def on_tile_board(at, lift=0.0):
        return tuple(p + dz for p, dz in zip(perfboard.in_box_floor(*at), (0, 0, lift)))

    def hung_corner(floor_end):  # the hung tile board's parts' side (electrical.HUNG_TILE_BOARD): its corner farthest away
        (x0, y0), (x1, y1), z = electrical.HUNG_TILE_BOARD
        corners = [(x, y, z - electrical.PERFBOARD_T) for x in (x0, x1) for y in (y0, y1)]
        return max(corners, key=lambda corner: math.dist(corner, floor_end))

    cables = []
    for c in CONNECTIONS:
        if "Pico USB" in (c.a, c.b):  # the Pi's to the tile board: below, as it lies
            continue
        floor_end, box_end = (c.a, c.b) if c.a.startswith("Pi ") else (c.b, c.a)
        cables.append((f"{c.cable} ({box_end})", points[floor_end], points[box_end], c.length))
    cables += [(f"{h.name} ground harness", points["Pi header"], points[h.parts[0]], h.first)
               for h in GROUND_HARNESSES if h.parts[0] in points]
    cables.append(("status LED wire", points["Pi header"], points["status LED"], FRONT_WIRE))
    if hung:  # the Pi's wires to the tile board cross, the tile board's own to the box do not
        cables.append(("micro-USB cable", points["Pi USB-A"], hung_corner(points["Pi USB-A"]), 500))
        cables.append(("buzzer driver's wires", points["Pi header"], hung_corner(points["Pi header"]), BACK_WIRE))
        return cables
    first = feed_paths(floor=True)[0]  # the tile board's: the J12 pair, and the J13 cable to A1's feed hole
    cables.append(("J12 pair", on_tile_board(perfboard.J12_AT, electrical.TERMINAL_H), points["DC jack"], first.run))
    cables.append(("J13 cable", on_tile_board(perfboard.J13_AT, electrical.TERMINAL_H), feeds["A1"],
                   first.tail - electrical.LEDBOARD_T - electrical.FEED_HOLE_TO_LED))
    cables.append(("buzzer's wires", on_tile_board(perfboard.J15_AT), points["buzzer"], BUZZER_WIRE))
    for tile, ((hole, hangs), at) in enumerate(zip(floor_pad_wire_drops(), perfboard.pad_holes())):
        cables.append((f"pad wire {chr(65 + tile // 5)}{tile % 5 + 1}", on_tile_board(at), hole, hangs))
    return cables


def tip_problems(figs, degrees: float, hung: bool = True) -> list[str]:
    """The cables too short for the box tipped back by ``degrees`` over its spymasters' bottom edge (electrical.HINGE,
    the model's), its floor left lying: straight and taut, both ends' TIP_END_MM in."""
    out = []
    for name, floor_end, box_end, length in crossing_cables(figs, hung):
        need = math.dist(floor_end, electrical.tipped(box_end, degrees)) + TIP_END_MM
        if need > length:
            out.append(f"{name}: {need:.0f} mm needed, {length:.0f} mm cut")
    return out


# --- printed parts: volume and weight from the STL's triangles

Triangle = tuple[Point, Point, Point]


def read_stl(text: str) -> list[Triangle]:
    """An ASCII STL's triangles (OpenSCAD writes ASCII)."""
    numbers = [float(value) for value in re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", text) for value in value]
    points = [tuple(numbers[i:i + 3]) for i in range(0, len(numbers), 3)]
    return [tuple(points[i:i + 3]) for i in range(0, len(points) - 2, 3)]


@dataclass(frozen=True)
class Mesh:
    """A closed solid's volume (mm³) and its surface: the facets facing up or down (a slicer's top and
    bottom skins) and the rest (its perimeters), mm²."""

    volume: float
    flat_area: float
    side_area: float


def measure(triangles: list[Triangle]) -> Mesh:
    """Volume by signed tetrahedra from the origin (the divergence theorem), areas by cross products."""
    volume = flat = side = 0.0
    for a, b, c in triangles:
        volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
        u = [q - p for p, q in zip(a, b)]
        w = [q - p for p, q in zip(a, c)]
        n = (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])
        area = math.hypot(*n) / 2
        if area and abs(n[2]) / (2 * area) > math.cos(math.radians(45)):
            flat += area
        else:
            side += area
    return Mesh(abs(volume), flat, side)


@dataclass(frozen=True)
class Slicer:
    """The print settings hardware/README.md gives: 0.2 mm layers, 3 perimeters, 15 % infill, 4 top and 4
    bottom layers, a 0.45 mm line (a 0.4 mm nozzle), PLA at 1.24 g/cm³."""

    layer: float = 0.2
    perimeters: int = 3
    line: float = 0.45
    skin_layers: int = 4
    infill: float = 0.15
    density: float = 1.24  # g/cm³

    @property
    def wall(self) -> float:
        return self.perimeters * self.line

    @property
    def skin(self) -> float:
        return self.skin_layers * self.layer


SLICER = Slicer()


def grams(mesh: Mesh, slicer: Slicer = SLICER) -> tuple[float, float]:
    """(estimate, solid) in grams. The estimate: a shell of perimeters on the sides and skins on the flat
    faces, solid, and the infill fraction of what is left inside; where the part is thinner than two shells
    the shells overlap, so the shell is capped at the whole volume (thin walls print solid)."""
    shell = min(mesh.volume, mesh.side_area * slicer.wall + mesh.flat_area * slicer.skin)
    estimate = shell + slicer.infill * (mesh.volume - shell)
    return estimate * slicer.density / 1000, mesh.volume * slicer.density / 1000


#: A printer's average flow on such parts (mm³/s): a current bed-slinger at 0.2 mm layers, perimeters slower
#: than infill; a fast CoreXY prints about twice that.
PRINT_FLOW = 8.0


def print_minutes(mesh: Mesh, slicer: Slicer = SLICER, flow: float = PRINT_FLOW) -> float:
    estimate, _ = grams(mesh, slicer)
    return estimate / slicer.density * 1000 / flow / 60


def about(grams_: float) -> str:
    """How the parts list gives a weight: ``about 50 g`` below 1 kg (to 10 g), ``about 1.2 kg`` above (to 0.1 kg)."""
    if grams_ >= 1000:
        return f"about {grams_ / 1000:.1f} kg"
    return f"about {round(grams_, -1):.0f} g"
