"""``wiring/perfboard.svg`` and the wire list: where every part of the tile board sits on the
perfboard (``electrical.perfboard()``, 2.54 mm holes) and which holes to join underneath.

Holes are named like a breadboard's: a row letter (A at the pad wires' edge) and a column
number (1 at the Pico's USB end). Every tile-board part of ``circuit.build`` has a place here;
``check()`` says which bodies overlap or leave the board's edge margin. The links are each
net's shortest tree over its holes (Prim, distances along the grid).
"""

from __future__ import annotations

from dataclasses import dataclass
from string import ascii_uppercase

from . import electrical
from .circuit import TILE_BOARD, Circuit
from .drawing import GREY, INK, LIGHT, WIRE_HEX, Svg

PITCH = 2.54
BOARD = tuple(sorted(electrical.perfboard(), reverse=True))  # (120, 80): landscape, the pad wires' edge at the top
COLUMNS, ROWS = (int(side // PITCH) for side in BOARD)
OFFSET = tuple((side - (count - 1) * PITCH) / 2 for side, count in zip(BOARD, (COLUMNS, ROWS)))


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
        left = 3 + 15 * index
        out.append(Placement(electrodes, _row((left, 6), 13), (left - 0.5, 5.5, left + 12.5, 13.5)))
        out.append(Placement(control, _row((left + 3, 13), 7), (left + 2.5, 12.5, left + 9.5, 13.5), under=electrodes))
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
    out.append(Placement("J12", _row((36, 29), 2, 2), (35, 27.4, 39, 30.5)))
    out.append(Placement("J13", _row((41, 29), 3, 2), (40, 27.4, 46, 30.5)))
    j14 = _row((4, 29), 2)
    out.append(Placement("J14", j14, (3.5, 28.5, 5.5, 30.5), relief=tuple((c, 30) for c, _ in j14.values())))
    out.append(Placement("R3", _row((8, 27), 2, 4), (7.5, 26.5, 12.5, 27.5)))
    out.append(Placement("Q1", _row((14, 29), 3), (13.5, 28.3, 16.5, 29.8)))
    out.append(Placement("R4", _row((14, 27), 2, 5), (13.5, 26.5, 19.5, 27.5)))
    out.append(Placement("D1", _row((19, 29), 2, 3), (18.5, 28.5, 22.5, 29.5)))
    j15 = _row((25, 29), 2)
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


def links(circuit: Circuit) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    """(net, hole, hole) for every wire under the board: each net's shortest tree over its holes."""
    where = {place.ref: place.pins for place in placements(circuit)}
    out = []
    for net in circuit.nets:
        spots = sorted({where[ref][number] for ref, number in net.nodes if ref in where}, key=lambda s: (s[1], s[0]))
        if len(spots) < 2:
            continue
        joined, rest = [spots[0]], spots[1:]
        while rest:
            a, b = min(((a, b) for a in joined for b in rest), key=lambda p: (abs(p[0][0] - p[1][0]) + abs(p[0][1] - p[1][1]), p))
            out.append((net.name, a, b))
            joined.append(b)
            rest.remove(b)
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
            far = [f"{ref} pin {circuit.part(ref).label(n)} ({circuit.part(ref).name_of(n)})" for ref, n in ends]
            out.append((hole_name(spot), f"{part.ref} {part.name_of(number)}", ", ".join(far) or "—"))
    return out


NET_COLOUR = {"GND": WIRE_HEX["black"], "+5V_LED": WIRE_HEX["red"], "+3V3": WIRE_HEX["orange"],
              "I2C_SDA": WIRE_HEX["blue"], "I2C_SCL": WIRE_HEX["yellow"]}  # fmt: skip
SCALE, LEFT, TOP = 8, 60, 110
LABEL_BELOW = ("J9", "J10", "J11", "Q1")


def perfboard_svg(circuit: Circuit) -> str:
    width, height = BOARD
    svg = Svg(int(LEFT + width * SCALE + 40), int(TOP + height * SCALE + 100), "codenames-board: the tile board on perfboard")
    svg.text(20, 32, f"The tile board on a {width} x {height} mm perfboard, seen from the parts' side", size=20, weight="bold")
    svg.text(20, 54, "Rows A-AE, columns 1-47 (2.54 mm). Grey boxes: the parts' bodies, pin 1 square. Dashed lines: wires under "
             "the board (the list in wiring/README.md).", size=12)  # fmt: skip
    svg.text(20, 72, "Pad wires come in at the top edge through the strain-relief holes (row B), the LED supply and the chain "
             "leave at the bottom right.", size=12)  # fmt: skip

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
    places = placements(circuit)
    for place in places:
        x1, y1 = at(place.body[0], place.body[1])
        x2, y2 = at(place.body[2], place.body[3])
        if place.round:
            svg.circle((x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / 2, "none", stroke=INK)
        elif not place.under:
            svg.rect(x1, y1, x2 - x1, y2 - y1, fill="none", stroke=INK, stroke_width=1.4, rx=2)
    for net, a, b in links(circuit):
        colour = NET_COLOUR.get(net, WIRE_HEX["green"])
        svg.line([at(*a), at(a[0], b[1]), at(*b)], stroke=colour, width=1.6, dash="4 3")
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
        label = {"J2": "J1 + J2: Raspberry Pi Pico, USB ←"}.get(place.ref, f"{place.ref} {part.value}")
        if place.under:
            continue
        ty = (y1 + y2) / 2 + 4 if y2 - y1 > 70 and not place.round else y2 + 12 if place.ref in LABEL_BELOW else y1 - 4
        svg.text((x1 + x2) / 2, ty, label, size=10, anchor="middle", weight="bold")
    bottom = TOP + height * SCALE
    svg.text(LEFT, bottom + 24, f"Parts cover {fill(circuit) * 100:.0f} % of the board inside its {electrical.EDGE_MARGIN} mm edge "
             "margin (dashed).", size=11)  # fmt: skip
    svg.text(LEFT, bottom + 42, "Wire colours: black GND, red the LED supply's 5 V (the buzzer's driver's too), orange 3.3 V, blue SDA, "
             "yellow SCL, green the rest.", size=11)  # fmt: skip
    svg.text(LEFT, bottom + 60, "MPR121 sockets follow the Adafruit 1982's printed order: match your breakout's labels; "
             "the wire list in wiring/README.md names every hole.", size=11, fill=GREY)  # fmt: skip
    return svg.render()
