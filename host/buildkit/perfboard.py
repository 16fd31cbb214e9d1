"""``wiring/perfboard.svg`` and the wire list: where every part of the tile board sits on the
perfboard (``electrical.perfboard()``, 2.54 mm holes) and which holes to join underneath.

Holes are named like a breadboard's: a row letter (A at the pad wires' edge) and a column
number (1 at the Pico's USB end). Every tile-board part of ``circuit.build`` has a place here;
``check()`` says which bodies overlap or leave the board's edge margin. The links are each
net's shortest tree over its holes (Prim, distances along the grid).
"""

from __future__ import annotations

import functools
import math

from dataclasses import dataclass
from string import ascii_uppercase

from . import electrical
from .circuit import TILE_BOARD, Circuit, Part
from .circuit import build as circuit_build
from .drawing import GREY, INK, LIGHT, WIRE_HEX, Svg, _dark

PITCH = 2.54
#: A strain-relief hole takes the insulated wire (24 AWG over its PVC: 1.2-1.4 mm); a perfboard's holes are about
#: 1 mm, so these are drilled out first. The wire's own hole takes only its stripped end.
RELIEF_DRILL = 1.6
WIRE_OD_MAX = 1.4
BOARD = tuple(sorted(electrical.perfboard(), reverse=True))  # (120, 80): landscape, the pad wires' edge at the top
COLUMNS, ROWS = (int(side // PITCH) for side in BOARD)
OFFSET = tuple((side - (count - 1) * PITCH) / 2 for side, count in zip(BOARD, (COLUMNS, ROWS)))
#: The board's four mounting holes: holes of the grid, drilled out for M2.5 screws into the floor's standoffs
#: (the model's tile_board_holes: MOUNT_PITCHES apart). Round each, nothing of the board's own: no soldered or
#: strain-relief hole within PAD_CLEAR (the standoff's hex, 2.9 mm to its corners, and a pad's ring), no jumper
#: under the board within STANDOFF_CLEAR, no part's body over it within HEAD_CLEAR (an M2.5 pan head, 4.5-5 mm).
MOUNTS = ((2, 2), (COLUMNS - 1, 2), (2, ROWS - 1), (COLUMNS - 1, ROWS - 1))
MOUNT_PITCHES = (COLUMNS - 3, ROWS - 3)
MOUNT_DRILL = 2.7
PAD_CLEAR, STANDOFF_CLEAR, HEAD_CLEAR = 4.0, 3.0, 2.6
#: Where the wires off the board start: the first pin of each terminal block and wire point (column, row).
J12_AT, J13_AT, J14_AT, J15_AT = (34, 29), (39, 29), (4, 29), (25, 29)
#: The Pico's micro-USB socket: the middle of its USB end (its body's edge over J2, below).
PICO_USB = (2.5, 20.5)
#: The Adafruit 1982 (its STEMMA QT revision, Adafruit's board file): 33.02 x 19.05 mm, the 13 electrode pins
#: 1.27 mm in from one long edge, the 7 control pins centred under them 15.24 mm (six holes) away.
MPR121_ROWS_APART = 6
MPR121_BOARD = (33.02, 19.05)


#: The wire points of the 25 pad wires (the circuit's J9-J11).
PAD_WIRE_POINTS = ("J9", "J10", "J11")


@functools.cache
def pad_holes() -> tuple[tuple[int, int], ...]:
    """Each tile's pad wire hole on the board (tile order), as the default configuration's circuit places it."""
    from codenames_firmware import board as firmware

    from codenames_board.config import parse
    from codenames_board.engine.key import tile_name

    model = circuit_build(parse(""), firmware)
    holes = {}
    for place in placements(model):
        if place.relief and place.ref in PAD_WIRE_POINTS:
            for number, spot in place.pins.items():
                holes[model.part(place.ref).name_of(number)] = spot
    return tuple(holes[tile_name(tile)] for tile in range(firmware.TILES))


def in_box_floor(column: float, row: float) -> tuple[float, float, float]:
    """A hole's place in the box (the model's mm, the hole's top) in the variant tile_board_mount = "floor": the board
    lies on the floor with the Pico's USB end (column 1) towards the Pi at the back and its parts up, so row A runs
    along its right-hand long edge."""
    (x0, y0), (x1, y1), z = electrical.FLOOR_TILE_BOARD
    x, y = hole(column, row)
    return x1 - y, y1 - x, z + electrical.PERFBOARD_T


def in_box_hung(column: float, row: float) -> tuple[float, float, float]:
    """A hole's place in the box with the board hung under the LED board (electrical.HUNG_TILE_BOARD, the default):
    turned over across its width, its parts down, so row A runs along its left-hand long edge; z is its copper
    side's (its parts' side is PERFBOARD_T below)."""
    (x0, y0), (x1, y1), z = electrical.HUNG_TILE_BOARD
    x, y = hole(column, row)
    return x0 + y, y1 - x, z


def row_name(row: int) -> str:
    return ascii_uppercase[row - 1] if row <= 26 else "A" + ascii_uppercase[row - 27]


def hole(column: float, row: float) -> tuple[float, float]:
    """The hole's centre in mm from the board's top left corner."""
    return OFFSET[0] + (column - 1) * PITCH, OFFSET[1] + (row - 1) * PITCH


def hole_name(spot: tuple[int, int]) -> str:
    return f"{row_name(spot[1])}{spot[0]}"


@dataclass(frozen=True)
class Placement:
    ref: str
    pins: dict[str, tuple[int, int]]  # pin number -> (column, row)
    body: tuple[float, float, float, float]  # column, row of the top left corner and of the bottom right, in holes
    round: bool = False
    relief: tuple[tuple[int, int], ...] = ()  # strain-relief holes of the wires soldered in
    under: str = ""  # the placement whose module sits over this socket (the Pico over J1, a breakout over its sockets)


def _row(first: tuple[int, int], count: int, step: int = 1, down: bool = False) -> dict[str, tuple[int, int]]:
    column, row = first
    return {str(n + 1): (column, row + n * step) if down else (column + n * step, row) for n in range(count)}


def _span(pins: dict[str, tuple[int, int]], grow: float = 0.5) -> tuple[float, float, float, float]:
    columns = [c for c, _ in pins.values()]
    rows = [r for _, r in pins.values()]
    return (min(columns) - grow, min(rows) - grow, max(columns) + grow, max(rows) + grow)


def placements(circuit: Circuit) -> list[Placement]:
    out = []
    for index, (electrodes, control, wires) in enumerate((("J4", "J3", "J9"), ("J6", "J5", "J10"), ("J8", "J7", "J11"))):
        left = 4 + 15 * index - (index > 0)  # the first clear of the mounting hole at B2
        control_row = 6 + MPR121_ROWS_APART
        out.append(Placement(electrodes, _row((left, 6), 13), (left - 0.5, 5.5, left + 12.5, control_row + 1)))
        out.append(Placement(control, _row((left + 3, control_row), 7),
                             (left + 2.5, control_row - 0.5, left + 9.5, control_row + 0.5), under=electrodes))
        if any(part.ref == wires for part in circuit.parts):
            spots = {}  # each pad wire straight above its electrode's pin, its relief hole above it
            for number, tile in circuit.part(wires).pins:
                pin = next(n for ref, n in circuit.nets[_net_index(circuit, f"PAD_{tile}")].nodes if ref == electrodes)
                spots[number] = (left + int(pin) - 1, 3)
            span = _span(spots)
            out.append(Placement(wires, spots, (span[0], 1.5, span[2], 3.5), relief=tuple((c, 2) for c, _ in spots.values())))
    # The Pico lies USB end left: pins 1-20 (J1) along row X, 21-40 (J2) back along row Q. J2's body is the Pico's.
    out.append(Placement("J2", {str(k): (23 - k, 17) for k in range(1, 21)}, (2.5, 16.4, 22.5, 24.6)))
    out.append(Placement("J1", {str(k): (2 + k, 24) for k in range(1, 21)}, (2.5, 23.5, 22.5, 24.5), under="J2"))
    dip = {str(n): (26 + n, 20) for n in range(1, 8)} | {str(n): (41 - n, 17) for n in range(8, 15)}
    out.append(Placement("U1", dip, (26.1, 16.5, 33.9, 20.5)))
    out.append(Placement("C1", _row((27, 15), 2, 2), (26.5, 14.5, 29.5, 15.5)))
    out.append(Placement("R2", _row((28, 22), 2, 4), (27.5, 21.5, 32.5, 22.5)))
    out.append(Placement("R1", _row((29, 24), 2, 4), (28.5, 23.5, 33.5, 24.5)))
    out.append(Placement("C2", {"1": (42, 25), "2": (44, 25)}, (41.03, 23.03, 44.97, 26.97), round=True))
    out.append(Placement("J12", _row(J12_AT, 2, 2), (33, 27.4, 37, 30.5)))
    out.append(Placement("J13", _row(J13_AT, 3, 2), (38, 27.4, 44, 30.5)))  # clear of the mounting hole at AD46
    j14 = _row(J14_AT, 2)
    out.append(Placement("J14", j14, (3.5, 28.5, 5.5, 30.5), relief=tuple((c, 30) for c, _ in j14.values())))
    out.append(Placement("R3", _row((8, 27), 2, 4), (7.5, 26.5, 12.5, 27.5)))
    out.append(Placement("Q1", _row((14, 29), 3), (13.5, 28.3, 16.5, 29.8)))
    # R4 and D1 run right to left: R4's coil end and D1's anode above each other, R4's other end above Q1's collector.
    out.append(Placement("R4", {"1": (19, 27), "2": (14, 27)}, (13.5, 26.5, 19.5, 27.5)))
    out.append(Placement("D1", {"1": (22, 29), "2": (19, 29)}, (18.5, 28.5, 22.5, 29.5)))
    j15 = _row(J15_AT, 2)
    out.append(Placement("J15", j15, (24.5, 28.5, 26.5, 30.5), relief=tuple((c, 30) for c, _ in j15.values())))
    return out


def _net_index(circuit: Circuit, name: str) -> int:
    return next(index for index, net in enumerate(circuit.nets) if net.name == name)


def body_mm(place: Placement) -> tuple[float, float, float, float]:
    (x1, y1), (x2, y2) = hole(place.body[0], place.body[1]), hole(place.body[2], place.body[3])
    return x1, y1, x2, y2


def check(circuit: Circuit) -> list[str]:
    """What is wrong with the layout: overlapping bodies, a body in the edge margin, a part not placed, a hole twice."""
    places = placements(circuit)
    problems = []
    on_board = {part.ref for part in circuit.parts if part.place == TILE_BOARD}
    placed = {place.ref for place in places}
    problems += [f"{ref} has no place" for ref in sorted(on_board - placed)]
    problems += [f"{ref} is placed but not on the tile board" for ref in sorted(placed - on_board)]
    margin = electrical.EDGE_MARGIN
    for place in places:
        x1, y1, x2, y2 = body_mm(place)
        if x1 < margin or y1 < margin or x2 > BOARD[0] - margin or y2 > BOARD[1] - margin:
            problems.append(f"{place.ref} reaches into the {margin} mm edge margin")
        if set(place.pins) != {number for number, _ in circuit.part(place.ref).pins}:
            problems.append(f"{place.ref}'s placed pins are not its pins")
    for index, a in enumerate(places):
        for b in places[index + 1 :]:
            ax1, ay1, ax2, ay2 = body_mm(a)
            bx1, by1, bx2, by2 = body_mm(b)
            if ax1 < bx2 and bx1 < ax2 and ay1 < by2 and by1 < ay2 and a.under != b.ref and b.under != a.ref:
                problems.append(f"{a.ref} and {b.ref} overlap")
    used: dict[tuple[int, int], str] = {}
    for place in places:
        for spot in (*place.pins.values(), *place.relief):
            if spot in used:
                problems.append(f"hole {hole_name(spot)} is taken by {used[spot]} and {place.ref}")
            used[spot] = place.ref
    return problems + mount_problems(circuit, places)


def extent(circuit: Circuit) -> tuple[int, int, int, int]:
    """The first and last column and row the layout uses: its pins, strain-relief and mounting holes."""
    spots = [*MOUNTS, *(spot for place in placements(circuit) for spot in (*place.pins.values(), *place.relief))]
    return (min(c for c, _ in spots), max(c for c, _ in spots), min(r for _, r in spots), max(r for _, r in spots))


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy))) if dx or dy else 0.0
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def mount_problems(circuit: Circuit, places: list[Placement] | None = None) -> list[str]:
    """What a mounting hole's standoff or screw head would sit on: a soldered hole, a jumper, a part's body."""
    places = placements(circuit) if places is None else places
    jumpers = [wire for wire in wires(circuit) if not wire.bare]
    problems = []
    for mount in MOUNTS:
        centre = hole(*mount)
        name = hole_name(mount)
        for place in places:
            for spot in (*place.pins.values(), *place.relief):
                if math.dist(centre, hole(*spot)) < PAD_CLEAR:
                    problems.append(f"the mounting hole at {name} is {math.dist(centre, hole(*spot)):.1f} mm from {place.ref}'s hole {hole_name(spot)}")
            x1, y1, x2, y2 = body_mm(place)
            near = (min(max(centre[0], x1), x2), min(max(centre[1], y1), y2))
            if not place.under and math.dist(centre, near) < HEAD_CLEAR:
                problems.append(f"the mounting hole at {name}: its screw head sits on {place.ref}")
        for wire in jumpers:
            if _to_segment(centre, hole(*wire.a), hole(*wire.b)) < STANDOFF_CLEAR:
                problems.append(f"the mounting hole at {name}: its standoff sits on the jumper {hole_name(wire.a)}-{hole_name(wire.b)}")
    return problems


def fill(circuit: Circuit) -> float:
    """The share of the board inside its edge margin that the parts' bodies cover."""
    margin = electrical.EDGE_MARGIN
    inner = (BOARD[0] - 2 * margin) * (BOARD[1] - 2 * margin)
    total = 0.0
    for place in placements(circuit):
        if place.under:
            continue  # under its module, counted with it
        x1, y1, x2, y2 = body_mm(place)
        total += (x2 - x1) * (y2 - y1)
    return total / inner


# Nets whose jumpers carry the LED chain's supply from the terminal block in to the one out (through the
# bulk capacitor): thicker wire for those, thin wire-wrap for the rest.
TRUNK = ("J13", "C2", "J12")
#: The buzzer stage's parts whose pins on the supply's nets carry its coil current.
LOUD = ("Q1", "J14", "J15", "D1")
TRUNK_WIRE = "22 AWG LED link wire"
THIN_WIRE = "30 AWG wire-wrap (Kynar)"
BARE = "bare link"
#: What the wire list's column says: the gauge alone (the text above the list names each wire).
LISTED = {TRUNK_WIRE: "22 AWG", THIN_WIRE: "30 AWG", BARE: BARE}


@dataclass(frozen=True)
class Wire:
    """One connection under the board: a bare link between two neighbouring holes of one net, or an insulated
    jumper from hole to hole, soldered at each end."""

    net: str
    a: tuple[int, int]
    b: tuple[int, int]
    kind: str  # BARE, TRUNK_WIRE or THIN_WIRE

    @property
    def bare(self) -> bool:
        return self.kind == BARE

    @property
    def mm(self) -> float:
        return PITCH * ((self.a[0] - self.b[0]) ** 2 + (self.a[1] - self.b[1]) ** 2) ** 0.5


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Neighbours along a row or a column: the only holes a bare link may join."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _length(path: list[tuple[int, int]]) -> float:
    return sum(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for a, b in zip(path, path[1:]))


def _chain(spots: list[tuple[int, int]], fixed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The holes in one short chain (nearest neighbour, then 2-opt), starting with ``fixed`` in its order."""

    def grow(path, rest):
        rest = list(rest)
        while rest:
            end = path[-1]
            near = min(rest, key=lambda s: ((s[0] - end[0]) ** 2 + (s[1] - end[1]) ** 2, s[1], s[0]))
            path.append(near)
            rest.remove(near)
        return path

    def untangle(path, first):
        better = True
        while better:
            better = False
            for i in range(first, len(path) - 1):
                for j in range(i + 1, len(path)):
                    trial = path[:i] + path[i : j + 1][::-1] + path[j + 1 :]
                    if _length(trial) < _length(path) - 1e-9:
                        path, better = trial, True
        return path

    rest = sorted(set(spots) - set(fixed), key=lambda s: (s[1], s[0]))
    if fixed:
        return untangle(grow(list(fixed), rest), len(fixed))
    best = None
    for start in rest:
        path = untangle(grow([start], [s for s in rest if s != start]), 0)
        if best is None or _length(path) < _length(best) - 1e-9:
            best = path
    return best


def wires(circuit: Circuit) -> list[Wire]:
    """Every connection under the board: each net's holes joined as one chain, a bare link where two neighbours
    follow each other, an insulated jumper everywhere else."""
    where = {place.ref: place.pins for place in placements(circuit)}
    out = []
    for net in circuit.nets:
        spots = sorted({where[ref][number] for ref, number in net.nodes if ref in where}, key=lambda s: (s[1], s[0]))
        if len(spots) < 2:
            continue
        trunk = [where[ref][number] for part in TRUNK for ref, number in net.nodes if ref == part]
        trunk = trunk if len(trunk) == len(TRUNK) else []
        # The buzzer's current (Q1's emitter, the coil's 5 V) goes straight back to J12, before any logic part
        # joins the chain: its pulses then never run through the touch controllers' or the Pico's ground.
        loud = [where[ref][number] for ref, number in net.nodes if ref in LOUD] if trunk else []
        path = _chain(spots, _chain(trunk + loud, trunk) if loud else trunk)
        for index, (a, b) in enumerate(zip(path, path[1:])):
            kind = BARE if adjacent(a, b) else TRUNK_WIRE if index < len(trunk) - 1 else THIN_WIRE
            out.append(Wire(net.name, a, b, kind))
    return out


def links(circuit: Circuit) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    """(net, hole, hole) for every wire under the board."""
    return [(wire.net, wire.a, wire.b) for wire in wires(circuit)]


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def wire_text(circuit: Circuit) -> str:
    """How to make the wires under the board, for wiring/README.md."""
    listed = wires(circuit)
    trunk = [wire for wire in listed if wire.kind == TRUNK_WIRE]
    return (
        f"**Wires under the board** ({len(listed) - sum(w.bare for w in listed)} insulated jumpers, "
        f"{_count(sum(w.bare for w in listed), 'bare link')}): every connection is an **insulated jumper from hole to hole**, "
        f"{THIN_WIRE} or thin insulated hook-up wire: cut it about 10 mm longer than the length below, strip 3 mm at each "
        "end, lay it flat against the board and solder it to each hole's pad. Route it as the drawing bends it, round "
        "every other hole's pad: jumpers may cross each other (their insulation keeps them apart), but never lie on a "
        "pad, since a pad soldered later (the wires of steps 10 and 14) melts the insulation over it. The "
        f"{len(trunk)} jumpers marked {LISTED[TRUNK_WIRE]} carry the LED "
        f"supply from J12 through C2 to J13 (the first LED's feed): use the {TRUNK_WIRE} for them. From J12 the GND and 5 V "
        "chains go to the buzzer's parts first (Q1, D1, J14, J15), so the coil's pulses run straight back to the supply "
        "and never through the touch controllers' or the Pico's ground: keep that order. A **bare link** (a clipped "
        "resistor lead, or a blob of solder) only where the list says so: two "
        "neighbouring holes of one net. Never a bare wire or a solder bridge along a row or a column past other holes: "
        "they belong to other nets, and 5 V would meet GND. Each net is one chain, so no hole takes more than two "
        f"jumpers; the holes of the wires that leave the board ({', '.join(_wire_points(circuit))}) take their own wire "
        "besides, later (steps 10 and 14): there solder the jumper to the hole's own pad, beside its mouth, with little solder and keep "
        "the hole open (a toothpick in it while the solder sets; if it fills, a desoldering wick or a hot iron and a "
        "push of the wire clears it). Tick each wire off the list as it goes in."
    )


def _wire_points(circuit: Circuit) -> list[str]:
    """The refs of the wire points: the places where wires leave the board (pad wires, the Pi's and the buzzer's)."""
    return [place.ref for place in placements(circuit) if place.relief]


def part_rows(circuit: Circuit) -> list[tuple[str, str, str, str, str]]:
    """(part, value, pin 1's hole, which way round, every hole) for the part list."""
    ways = orientation(circuit)
    out = []
    for place in placements(circuit):
        part = circuit.part(place.ref)
        holes = " ".join(hole_name(spot) for _, spot in sorted(place.pins.items(), key=lambda item: int(item[0])))
        out.append((part.ref, part.value, hole_name(place.pins["1"]), ways[part.ref], holes))
    return sorted(out, key=lambda row: next(i for i, p in enumerate(circuit.parts) if p.ref == row[0]))


def wire_rows(circuit: Circuit) -> list[tuple[str, str, str, str, str, str]]:
    """(number, net, from, to, wire, length) for every wire under the board, net by net along each chain."""
    return [(str(index), f"`{wire.net}`", hole_name(wire.a), hole_name(wire.b), LISTED[wire.kind], f"{wire.mm:.0f} mm")
            for index, wire in enumerate(wires(circuit), 1)]  # fmt: skip


def over(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The grid holes a straight wire from ``a`` to ``b`` passes over, its ends left out."""
    (ax, ay), (bx, by) = a, b
    out = []
    for column in range(min(ax, bx), max(ax, bx) + 1):
        for row in range(min(ay, by), max(ay, by) + 1):
            if (column, row) not in (a, b) and (column - ax) * (by - ay) == (row - ay) * (bx - ax):
                out.append((column, row))
    return out


def off_board_wires(circuit: Circuit) -> list[tuple[str, str, str]]:
    """(hole, the part's pin, where the wire goes) for every wire that leaves the board."""
    out = []
    for place in placements(circuit):
        part = circuit.part(place.ref)
        if not (part.footprint.startswith("Connector_PinHeader") or part.footprint.startswith("TerminalBlock")):
            continue
        for number, spot in sorted(place.pins.items(), key=lambda item: int(item[0])):
            net = circuit.net_at(part.ref, number)
            # A connector's own wire where it has one; else every part off the board on the pin's net.
            ends = [part.leads[int(number) - 1]] if part.leads else [
                (ref, n) for ref, n in net.nodes if circuit.part(ref).place != TILE_BOARD] if net else []  # fmt: skip
            far = [_far_end(circuit.part(ref), n) for ref, n in ends]
            out.append((hole_name(spot), f"{part.ref} {part.name_of(number)}", ", ".join(far) or "—"))
    return out


def _far_end(part: Part, number: str) -> str:
    """A wire's far end as a builder finds it: the part by what it is first (its reference, such as D3 or A1, can
    read like a tile's name), then its reference and pin."""
    where = f" {part.place}" if part.place.startswith("under tile") else ""
    return f"{part.value} (schematic {part.ref}){where}, pin {part.label(number)} ({part.name_of(number)})"


def net_colour(net: str) -> str:
    """The drawn jumper's colour by the net's kind: 5 V red, GND black, 3.3 V orange, SDA blue, SCL green (both
    buses), the LED data yellow, the buzzer's purple, the pads brown, the MPR121s' IRQ lines grey."""
    kinds = (("GND", "black"), ("+5V", "red"), ("+3V3", "orange"), ("I2C_SDA", "blue"), ("I2C_SCL", "green"),
             ("LED_D", "yellow"), ("BUZZER", "purple"), ("PAD_", "brown"), ("IRQ_", "grey"))  # fmt: skip
    return WIRE_HEX[next((colour for prefix, colour in kinds if net.startswith(prefix)), "grey")]


POLARISED = ("Diode_THT", "CP_", "TO-92", "DIP-14")  # footprints that fit one way only


def polarised(circuit: Circuit, ref: str) -> bool:
    """A part that fits one way only: by its footprint, or a module (the Pico, an MPR121) in its sockets."""
    part = circuit.part(ref)
    return any(kind in part.footprint for kind in POLARISED) or "Pico" in part.value or "MPR121" in part.value


def orientation(circuit: Circuit) -> dict[str, str]:
    """How each part goes in, for the part list: the polarised parts' marks, the connectors' pins."""
    places = {place.ref: place for place in placements(circuit)}
    out = {}
    first_relief = None
    for place in places.values():
        part = circuit.part(place.ref)
        at = {name: hole_name(place.pins[number]) for number, name in part.pins}
        if "Diode_THT" in part.footprint:
            out[part.ref] = f"the ring (cathode, K) at {at['K']}, the anode (A) at {at['A']}"
        elif "CP_" in part.footprint:
            out[part.ref] = f"+ (the longer leg) at {at['+']}; the stripe (−) at {at['-']}; standing upright"
        elif "TO-92" in part.footprint:
            legs = " ".join(f"{name} {hole}" for name, hole in at.items())
            out[part.ref] = f"the flat face towards the bottom edge (row {row_name(ROWS)}): legs {legs}"
        elif "DIP-14" in part.footprint:
            first = place.pins["1"]
            out[part.ref] = (f"the notch (and the socket's) at the left end, towards the Pico: pin 1 at {hole_name(first)}, "
                             f"pin 14 at {hole_name(place.pins['14'])}")  # fmt: skip
        elif part.ref in ("J1", "J2"):
            out[part.ref] = (f"the Pico's chip side up, its USB end to the left (column 1): pin 1 (GP0) at {hole_name(places['J1'].pins['1'])}, "
                             f"pin 40 at {hole_name(places['J2'].pins['20'])}")  # fmt: skip
        elif "MPR121" in part.value:
            first, last = part.pins[0][1], part.pins[-1][1]
            out[part.ref] = f"the breakout's printed labels up: {first} at {at[first]} … {last} at {at[last]}"
        elif place.relief:
            # the pad wires' holes are in the touch pads table, by tile; the other wires' are named here
            holes = ("each tile's in its hole of the [touch pads](#touch-pads) table" if part.ref in PAD_WIRE_POINTS
                     else ", ".join(f"{name} at {hole}" for name, hole in at.items()))
            relief = "/".join(sorted({row_name(row) for _, row in place.relief}))
            if first_relief is None:  # the how once, at the first such row; the others point back to it
                first_relief = part.ref
                how = (f"Each wire comes over the parts' side, down through its strain-relief hole (row {relief}, "
                       f"beside it, drilled out to {RELIEF_DRILL:g} mm first), and its stripped end up into its own hole "
                       "from below: solder it underneath")  # fmt: skip
            else:
                how = f"Each wire as {first_relief}'s, through row {relief}"
            out[part.ref] = f"no part: the wires themselves, {holes}. {how}"
        elif part.footprint.startswith("TerminalBlock"):
            out[part.ref] = (", ".join(f"{name} at {hole}" for name, hole in at.items())
                             + f"; its wire openings towards the bottom edge (row {row_name(ROWS)}), where its wires leave")
        elif part.footprint.startswith("Connector_PinHeader"):
            out[part.ref] = ", ".join(f"{name} at {hole}" for name, hole in at.items())
        else:
            out[part.ref] = "either way round"
    return out


@dataclass(frozen=True)
class Mark:
    ref: str
    text: str
    column: float
    row: float
    anchor: str = "middle"
    size: int = 7
    rotate: int = 0


def marks(circuit: Circuit) -> list[Mark]:
    """The polarity and pin-name marks drawn beside the parts (their shapes are drawn with them)."""
    out = []
    for place in placements(circuit):
        part = circuit.part(place.ref)
        spot = {name: place.pins[number] for number, name in part.pins}
        if "Diode_THT" in part.footprint:
            (kc, kr), (ac, ar) = spot["K"], spot["A"]
            out += [Mark(part.ref, "K (ring)", kc, kr + 0.95), Mark(part.ref, "A", ac, ar + 0.95)]
        elif "CP_" in part.footprint:
            (pc, pr), (mc, mr) = spot["+"], spot["-"]
            out += [Mark(part.ref, "+", pc - 0.55, pr - 0.35, size=13), Mark(part.ref, "−", mc + 0.95, mr + 0.25, size=13)]
        elif "TO-92" in part.footprint:
            out += [Mark(part.ref, name, c, r - 0.75, size=8) for name, (c, r) in spot.items()]
        elif "DIP-14" in part.footprint:
            c, r = place.pins["1"]
            out += [Mark(part.ref, "pin 1", c - 0.25, r - 0.5, anchor="start"), Mark(part.ref, "notch", place.body[0] + 0.6, (place.body[1] + place.body[3]) / 2 + 0.15, anchor="start")]
        elif part.ref == "J2":
            x1, y1, x2, y2 = place.body
            out += [Mark(part.ref, "USB", x1 - 0.55, (y1 + y2) / 2, size=8, rotate=-90)]
        elif part.ref == "J1":
            (c, r), (c40, r40) = place.pins["1"], next(p for p in placements(circuit) if p.ref == "J2").pins["20"]
            out += [Mark(part.ref, "pin 1 (GP0)", c - 0.3, r + 0.95, anchor="start"), Mark("J2", "pin 40", c40 - 0.3, r40 - 0.55, anchor="start")]
        elif "MPR121" in part.value:
            edge = -0.55 if part.value.endswith("I2C") else 0.85  # inside the breakout's outline
            out += [Mark(part.ref, name.removeprefix("E"), c, r + edge, size=7 if len(name) < 4 else 6) for name, (c, r) in spot.items()]
        elif part.footprint.startswith("TerminalBlock"):
            out += [Mark(part.ref, name, c, r - 0.6) for name, (c, r) in spot.items()]
        elif part.footprint.startswith("Connector_PinHeader") and len(spot) == 2:
            (name1, (c1, r1)), (name2, (c2, r2)) = spot.items()
            row = max(r for _, r in place.relief) + 0.85 if place.relief else r1 + 0.85
            if row < ROWS + 0.4:
                out += [Mark(part.ref, name1, c1 + 0.2, row, anchor="end"), Mark(part.ref, name2, c2 - 0.2, row, anchor="start")]
    return out


def _curve(a, b, offset):
    """A quadratic curve from ``a`` to ``b`` whose middle lies ``offset`` (holes) to the left of the line."""
    (ax, ay), (bx, by) = a, b
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    nx, ny = -(by - ay) / length, (bx - ax) / length
    return (ax, ay), ((ax + bx) / 2 + 2 * offset * nx, (ay + by) / 2 + 2 * offset * ny), (bx, by)


def _samples(curve, count=32):
    (ax, ay), (cx, cy), (bx, by) = curve
    out = []
    for k in range(1, count):
        t = k / count
        out.append(((1 - t) ** 2 * ax + 2 * t * (1 - t) * cx + t * t * bx, (1 - t) ** 2 * ay + 2 * t * (1 - t) * cy + t * t * by))
    return out


def routes(circuit: Circuit) -> list[tuple[Wire, tuple]]:
    """Each wire's drawn shape: bare links straight; each jumper a curve bent away from the other parts' holes and
    from the jumpers drawn before it, so every one can be followed on the drawing."""
    taken = {spot for place in placements(circuit) for spot in (*place.pins.values(), *place.relief)}
    drawn: dict[tuple[int, int], list[tuple[float, float]]] = {}  # the drawn curves' points, by 0.3-hole cell
    out = []

    def holes_near(x, y, ends):  # holes within 0.45 of (x, y): only the grid's spots next to it can be
        return sum(
            (x - c) ** 2 + (y - r) ** 2 < 0.45**2
            for c in range(math.floor(x - 0.45), math.floor(x + 0.45) + 1)
            for r in range(math.floor(y - 0.45), math.floor(y + 0.45) + 1)
            if (c, r) in taken and (c, r) not in ends
        )

    def drawn_near(x, y):  # points of earlier curves within 0.3 of (x, y): in this cell or a neighbour
        i, j = math.floor(x / 0.3), math.floor(y / 0.3)
        return sum(
            (x - u) ** 2 + (y - v) ** 2 < 0.3**2
            for di in (-1, 0, 1) for dj in (-1, 0, 1) for u, v in drawn.get((i + di, j + dj), ())
        )  # fmt: skip

    for wire in sorted(wires(circuit), key=lambda w: (w.mm, w.net, w.a, w.b)):
        if wire.bare:
            out.append((wire, (wire.a, wire.b)))
            continue
        best = None
        for offset in (0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 2.6, -2.6):
            curve = _curve(wire.a, wire.b, offset)
            points = _samples(curve)
            cost = abs(offset) * 0.4
            for x, y in points:
                cost += 10 * holes_near(x, y, (wire.a, wire.b))
                cost += 2 * drawn_near(x, y)
                cost += 20 * (not (1 <= x <= COLUMNS and 1 <= y <= ROWS))
            if best is None or cost < best[0] - 1e-9:
                best = (cost, curve, points)
        for x, y in best[2]:
            drawn.setdefault((math.floor(x / 0.3), math.floor(y / 0.3)), []).append((x, y))
        out.append((wire, best[1]))
    return out


SCALE, LEFT, TOP = 8, 60, 160
LABEL_BELOW = ("J9", "J10", "J11", "Q1", "J12", "J13")


def perfboard_svg(circuit: Circuit) -> str:
    width, height = BOARD
    svg = Svg(int(LEFT + width * SCALE + 40), int(TOP + height * SCALE + 150), "codenames-board: the tile board on perfboard")
    svg.text(20, 32, f"The tile board on a perfboard of {ROWS} x {COLUMNS} holes, seen from the parts' side", size=20, weight="bold")
    lines = (
        f"Rows A-{row_name(ROWS)}, columns 1-{COLUMNS} (2.54 mm). Boxes: the parts' bodies, pin 1 square; the polarity marks as on "
        "the parts: the diode's ring, the capacitor's stripe,",
        "the transistor's flat face, the chip's notch, the Pico's USB end.",
        "Coloured curves: insulated jumpers under the board, seen through it (wire-wrap wire, soldered at both ends; the thick ones "
        "22 AWG LED link wire).",
        "Insulated, they may cross each other, but go round other holes' pads, as drawn. Silver bars: bare links, only between two "
        "neighbouring holes of one net.",
        "No other bare wire and no solder bridge along a row: it would touch the holes of other nets. Every wire is listed in "
        "wiring/README.md.",
    )
    for index, line in enumerate(lines):
        svg.text(20, 54 + 18 * index, line, size=12)

    def at(column: float, row: float) -> tuple[float, float]:
        x, y = hole(column, row)
        return round(LEFT + x * SCALE, 1), round(TOP + y * SCALE, 1)

    svg.rect(LEFT, TOP, width * SCALE, height * SCALE, fill="#e9d8a6", stroke=INK, rx=6)
    margin = electrical.EDGE_MARGIN * SCALE
    svg.rect(LEFT + margin, TOP + margin, (width - 2 * electrical.EDGE_MARGIN) * SCALE, (height - 2 * electrical.EDGE_MARGIN) * SCALE,
             stroke=GREY, stroke_width=0.8, dash="4 4")  # fmt: skip
    for column in range(1, COLUMNS + 1):
        x, _ = at(column, 1)
        if column % 2 == 1 or column == COLUMNS:
            svg.text(x, TOP - 8, str(column), size=9, anchor="middle", fill=GREY)
        for row in range(1, ROWS + 1):
            svg.circle(*at(column, row), 1.6, "#b08d57", stroke="#b08d57")
    for row in range(1, ROWS + 1):
        _, y = at(1, row)
        svg.text(LEFT - 8, y + 3, row_name(row), size=9, anchor="end", fill=GREY)
    for mount in MOUNTS:  # drilled out for the standoffs' screws: a ring the standoff covers
        x, y = at(*mount)
        svg.items.append(f'<circle cx="{x}" cy="{y}" r="{round(PAD_CLEAR * SCALE, 1)}" fill="none" stroke="{GREY}" '
                         'stroke-width="0.8" stroke-dasharray="3 3"/>')
        svg.circle(x, y, round(MOUNT_DRILL / 2 * SCALE, 1), "#ffffff")
    places = placements(circuit)
    for place in places:
        part = circuit.part(place.ref)
        x1, y1 = at(place.body[0], place.body[1])
        x2, y2 = at(place.body[2], place.body[3])
        svg.items.append(f'<g id="body-{place.ref}">')
        if "CP_" in part.footprint:
            cx, cy, r = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / 2
            minus = place.pins[part.number_of("-")][0] > place.pins[part.number_of("+")][0]
            side = 1 if minus else -1
            svg.circle(cx, cy, r, "#f4f4f4", stroke=INK)
            ex = round(cx + side * r * 0.55, 1)  # the stripe: the minus side's segment
            dy = round((r * r - (r * 0.55) ** 2) ** 0.5, 1)
            svg.items.append(f'<path d="M{ex},{cy - dy} A{r},{r} 0 0 {1 if minus else 0} {ex},{cy + dy} Z" fill="#8c8c8c" stroke="{INK}" stroke-width="1"/>')
        elif "TO-92" in part.footprint:
            flat = y2  # the flat face towards the bottom edge, the round back up
            r = (x2 - x1) / 2
            svg.items.append(f'<path d="M{x1},{flat} L{x2},{flat} A{r},{r * 0.9} 0 0 0 {x1},{flat} Z" fill="#f4f4f4" stroke="{INK}" stroke-width="1.4"/>')
        elif "Diode_THT" in part.footprint:
            k = at(*place.pins[part.number_of("K")])
            a = at(*place.pins[part.number_of("A")])
            left, right = min(k[0], a[0]) + 0.22 * abs(a[0] - k[0]), max(k[0], a[0]) - 0.22 * abs(a[0] - k[0])
            svg.line([k, a], stroke="#8c8c8c", width=2)
            svg.rect(round(left, 1), k[1] - 6, round(right - left, 1), 12, fill="#f0b8a0", stroke=INK, stroke_width=1, rx=3)
            band = left if k[0] < a[0] else right - 7
            svg.rect(round(band, 1), k[1] - 6, 7, 12, fill=INK, stroke=INK, stroke_width=1)
        elif not place.under:
            face = "#f4f4f4" if "DIP-14" in part.footprint else "none"
            svg.rect(x1, y1, x2 - x1, y2 - y1, fill=face, stroke=INK, stroke_width=1.4, rx=2)
            if "DIP-14" in part.footprint:
                cy = (y1 + y2) / 2
                svg.items.append(f'<path d="M{x1},{cy - 7} A7,7 0 0 1 {x1},{cy + 7} Z" fill="#e9d8a6" stroke="{INK}" stroke-width="1.4"/>')
            if part.ref == "J2":
                cy = (y1 + y2) / 2
                svg.rect(x1 - 12, cy - 16, 14, 32, fill="#c0c0c0", stroke=INK, stroke_width=1.2, rx=2)
        svg.items.append("</g>")
    for wire, shape in routes(circuit):
        colour = net_colour(wire.net)
        if wire.bare:
            svg.line([at(*wire.a), at(*wire.b)], stroke=INK, width=7)
            svg.line([at(*wire.a), at(*wire.b)], stroke="#d9d9d9", width=4)
            continue
        (ax, ay), (cx, cy), (bx, by) = (at(*point) for point in shape)
        path = f"M{ax},{ay} Q{round(cx, 1)},{round(cy, 1)} {bx},{by}"
        thick = 2.0 if wire.kind == THIN_WIRE else 3.6
        halo = "#ffffff" if _dark(colour) else INK
        svg.items.append(f'<path d="{path}" fill="none" stroke="{halo}" stroke-width="{thick + 2}" stroke-opacity="0.8"/>')
        svg.items.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{thick}"/>')
    for place in places:
        part = circuit.part(place.ref)
        for number, spot in place.pins.items():
            x, y = at(*spot)
            if number == "1":
                svg.rect(x - 4, y - 4, 8, 8, fill=INK, stroke=INK, stroke_width=1)
            else:
                svg.circle(x, y, 3.6, INK)
        for spot in place.relief:
            svg.circle(*at(*spot), 3, LIGHT)
        x1, y1 = at(place.body[0], place.body[1])
        x2, y2 = at(place.body[2], place.body[3])
        label = {"J2": "J1 + J2: Raspberry Pi Pico, chip side up, USB ←"}.get(place.ref, f"{place.ref} {part.value}")
        if place.under:
            continue
        ty = (y1 + y2) / 2 - 2 if y2 - y1 > 70 and not place.round else y2 + 14 if place.ref in LABEL_BELOW else y1 - 5
        svg.text((x1 + x2) / 2, ty, label, size=10, anchor="middle", weight="bold")
        if "MPR121" in part.value:
            svg.text((x1 + x2) / 2, ty + 14, "breakout labels up, as printed", size=9, anchor="middle", fill=GREY)
    by_ref: dict[str, list[Mark]] = {}
    for mark in marks(circuit):
        by_ref.setdefault(mark.ref, []).append(mark)
    for ref, group in by_ref.items():
        svg.items.append(f'<g id="marks-{ref}">')
        for mark in group:
            x, y = at(mark.column, mark.row)
            svg.text(x, round(y + mark.size * 0.35, 1), mark.text, size=mark.size, anchor=mark.anchor, weight="bold", rotate=mark.rotate)
        svg.items.append("</g>")
    bottom = TOP + height * SCALE
    svg.text(LEFT, bottom + 24, f"Parts cover {fill(circuit) * 100:.0f} % of the board inside its {electrical.EDGE_MARGIN} mm edge "
             "margin (dashed).", size=11)  # fmt: skip
    legend = (("+5V_LED", "5 V (the LED supply's)"), ("GND", "GND"), ("+3V3", "3.3 V"), ("I2C_SDA", "SDA"),
              ("I2C_SCL", "SCL"), ("LED_DATA_3V3", "LED data"), ("BUZZER", "the buzzer's driver"), ("PAD_A1", "pad wires"),
              ("IRQ_1", "IRQ"))  # fmt: skip
    x = LEFT
    svg.text(x, bottom + 46, "Jumpers:", size=11, weight="bold")
    x += 64
    for net, name in legend:
        svg.line([(x, bottom + 42), (x + 26, bottom + 42)], stroke=net_colour(net), width=3.6)
        svg.text(x + 32, bottom + 46, name, size=11)
        x += 46 + 6.6 * len(name)
    count = wires(circuit)
    svg.text(LEFT, bottom + 68, f"{sum(not w.bare for w in count)} insulated jumpers ({sum(w.kind == TRUNK_WIRE for w in count)} of "
             f"them 22 AWG: the LED supply from J12 through C2 to J13), {_count(sum(w.bare for w in count), 'bare link')}.", size=11)  # fmt: skip
    svg.text(LEFT, bottom + 88, "Polarity: D1's ring (K) to 5 V; C2's + leg (the longer) left, its stripe (−) right; Q1's flat face "
             "towards the bottom edge, legs C B E; U1's notch left; the Pico's USB end left.", size=11)  # fmt: skip
    svg.text(LEFT, bottom + 108, "MPR121 sockets follow the Adafruit 1982's printed order: match your breakout's labels; "
             "the wire list in wiring/README.md names every hole.", size=11, fill=GREY)  # fmt: skip
    return svg.render()
