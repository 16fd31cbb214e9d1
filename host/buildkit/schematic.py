"""``wiring/schematic.svg``: every part of the circuit model as a block with numbered, named pins,
joined by net labels (a short stub and the net's name at each pin: the same name is one wire).

Drawn from ``circuit.build`` alone, so it cannot disagree with the netlist. Columns of blocks,
each stacked from the top; the page is A3 landscape in proportion.
"""

from __future__ import annotations

from .circuit import TILE_BOARD, Circuit, Part
from .drawing import GREY, INK, LIGHT, WIRE_HEX, Svg

ROW, HEAD, GAP, STUB = 17, 34, 20, 16
WIDTH, HEIGHT = 2150, 1520  # A3 landscape in proportion

# Columns: (x of the blocks' left edge, block width, [(ref, pins drawn on the left, on the right)]).
# "all" puts every pin on that side; "used" only the pins that are in a net.
LAYOUT = (
    (135, 140, [("A1", "", "used"), ("DS1", "used", "")]),
    (531, 150, [("SW*", "1", "2"), ("R5", "1", "2"), ("D2", "2", "1"), ("J14", "", "all"), ("R3", "1", "2"),
                ("Q1", "2", "1 3"), ("R4", "2", "1"), ("D1", "2", "1"), ("J15", "", "all"), ("LS1", "1", "2")]),
    (835, 130, [("J1", "", "all"), ("J2", "", "all"), ("J16", "", "all"), ("J17", "", "all"), ("J18", "", "all")]),
    (1220, 150, [("J3", "all", ""), ("J5", "all", ""), ("J7", "all", ""), ("J23", "used", ""), ("F1", "1 2", "")]),
    (1400, 110, [("J4", "", "pads"), ("J6", "", "pads"), ("J8", "", "pads")]),
    (1864, 120, [("U1", "1 2 3 4 5 6 7", "14 13 12 11 10 9 8"), ("R2", "1", "2"), ("C1", "1", "2"), ("R1", "1", "2"), ("J13", "all", ""),
                 ("C2", "1", "2"), ("J12", "all", ""), ("D3", "4 1", "2 3")]),
)  # fmt: skip
POWER = {"GND": WIRE_HEX["black"], "+5V_LED": WIRE_HEX["red"], "+5V_PI": WIRE_HEX["red"], "+3V3": WIRE_HEX["orange"],
         "+3V3_PI": WIRE_HEX["orange"]}  # fmt: skip


def _pins(part: Part, spec: str, circuit: Circuit) -> list[str]:
    used = [number for number, _ in part.pins if circuit.net_at(part.ref, number)]
    if spec == "all":
        return [number for number, _ in part.pins]
    if spec == "used":
        return used
    if spec == "pads":  # the electrodes in electrode order, GND last
        return sorted((number for number, _ in part.pins), key=lambda n: int(part.name_of(n)[1:]) if part.name_of(n) != "GND" else 99)
    return spec.split()


def _label(svg: Svg, x: float, y: float, name: str, side: int) -> None:
    """A net label: a flag pointing at the stub, the net's name in it."""
    width = 8 + 6.6 * len(name)
    colour = POWER.get(name, "#1f6fd1")
    tip = x
    end = x + side * (width + 6)
    points = [(tip, y), (tip + side * 6, y - 8), (end, y - 8), (end, y + 8), (tip + side * 6, y + 8), (tip, y)]
    svg.line(points, stroke=colour, width=1.2)
    svg.text((tip + end) / 2 + side * 3, y + 4, name, size=11, anchor="middle", fill=colour, weight="bold")


def _block(svg: Svg, circuit: Circuit, part: Part, x: float, y: float, width: float, left: list[str], right: list[str], pad_wires) -> float:
    rows = max(len(left), len(right), 1)
    height = HEAD + rows * ROW + 6
    fill = "#f4f4f4" if part.place == TILE_BOARD else "#e8f0ff"
    svg.rect(x, y, width, height, fill=fill, rx=4, dash="" if part.place == TILE_BOARD else "5 3")
    svg.text(x + width / 2, y + 14, f"{part.ref} {part.value}" if len(part.value) < 16 else part.ref, size=11, anchor="middle", weight="bold")
    svg.text(x + width / 2, y + 27, part.value if len(part.value) >= 16 else part.place, size=9, anchor="middle", fill=GREY)
    for side, numbers in ((-1, left), (1, right)):
        edge = x if side < 0 else x + width
        for row, number in enumerate(numbers):
            py = y + HEAD + row * ROW + ROW / 2
            svg.line([(edge, py), (edge + side * STUB, py)], width=1.2)
            svg.text(edge + side * 3, py - 3, part.label(number), size=9, anchor="start" if side > 0 else "end", fill=GREY)
            svg.text(edge - side * 4, py + 4, part.name_of(number), size=10, anchor="end" if side > 0 else "start")
            net = circuit.net_at(part.ref, number)
            if net is None:
                cx = edge + side * STUB
                svg.line([(cx - 4, py - 4), (cx + 4, py + 4)], width=1.2)
                svg.line([(cx - 4, py + 4), (cx + 4, py - 4)], width=1.2)
            elif pad_wires is not None and net.name.startswith("PAD_"):
                pad_wires.append((edge + side * STUB, py, net))
            else:
                _label(svg, edge + side * STUB, py, net.name, side)
    return height


def schematic_svg(circuit: Circuit) -> str:
    svg = Svg(WIDTH, HEIGHT, "codenames-board: schematic of the tile board and the Pi's wiring")
    svg.text(20, 32, "Schematic: the tile board and the Pi's wiring", size=20, weight="bold")
    svg.text(20, 52, "Pins with the same net name are connected. Grey number: the pin's number; name inside the block. "
             "× = not connected.", size=12)  # fmt: skip
    svg.text(20, 68, "Solid blocks sit on the tile board (perfboard); dashed blue blocks elsewhere in the box (the Pi, the "
             "panels, the LEDs). Parts list: hardware/bom.csv; layout: perfboard.svg.", size=12)  # fmt: skip
    top = 96
    drawn = set()
    pad_wires: list = []
    for x, width, entries in LAYOUT:
        y = top
        for ref, left, right in entries:
            parts = [p for p in circuit.parts if p.ref.startswith(ref[:-1]) and p.ref[len(ref) - 1 :].isdigit()] if ref.endswith("*") else [
                p for p in circuit.parts if p.ref == ref
            ]
            for part in parts:
                wires = pad_wires if right == "pads" else None
                y += _block(svg, circuit, part, x, y, width, _pins(part, left, circuit), _pins(part, right, circuit), wires) + GAP
                drawn.add(part.ref)
    _pad_group(svg, circuit, pad_wires)
    missing = sorted({part.ref for part in circuit.parts} - drawn - {p.ref for p in circuit.parts if p.ref.startswith(("J9", "J10", "J11", "TP"))})
    if missing:
        raise ValueError(f"the schematic's layout leaves out {', '.join(missing)}")
    svg.text(20, HEIGHT - 40, "USB cable (not drawn): the Pico's micro-USB to a USB port of the Pi: the tile protocol and the "
             "Pico's 3.3 V (the MPR121 boards' too).", size=12, weight="bold")  # fmt: skip
    feeds = [p for p in circuit.parts if p.ref in ("J17", "J18")]
    if feeds:
        ways = [name for _, name in feeds[0].pins if name not in ("jack", "spare")]
        svg.text(20, HEIGHT - 58, "LED supply: the DC jack J16 (centre +) → one red (through J23 and the fuse F1) and one black wire to the lever connectors J17 (5 V) "
                 f"and J18 (GND) → an 18 AWG pair to each feed: {', '.join(ways)}; J12 → the board → J13 → D3 (5 V, data, GND).",
                 size=12, weight="bold")  # fmt: skip
        joints = sorted((p.ref for p in circuit.parts if p.place.startswith("under the LED board") and p.bom == "lever connector 5-way"),
                        key=lambda ref: int(ref[1:]))
        if joints:
            svg.text(20, HEIGHT - 76, f"At every other feed a pair of lever connectors ({joints[0]}-{joints[-1]}) under the LED "
                     "board, at its feed hole: the 18 AWG feed, a 22 AWG tail up to the LED, and the link arriving from "
                     "the LED before it: no LED's pad takes two wires.", size=12)  # fmt: skip
    svg.text(20, HEIGHT - 22, "Every GND is one net: the Pi, the Pico, the MPR121 boards, the level shifter, the LED supply.",
             size=12)  # fmt: skip
    return svg.render()


def _pad_group(svg: Svg, circuit: Circuit, pad_wires) -> None:
    """The electrodes' wires drawn out: electrode pin → the pad wire's hole (J9-J11) → the pad (TP1-TP3)."""
    if not pad_wires:
        return
    x0 = max(x for x, _, _ in pad_wires) + 40
    holes = {}
    for x, y, net in pad_wires:
        wire_ref = next(ref for ref, _ in net.nodes if circuit.part(ref).footprint.startswith("Connector_PinHeader"))
        pad_ref = next(ref for ref, _ in net.nodes if ref.startswith("TP"))
        holes.setdefault((wire_ref, pad_ref), []).append((x, y, net))
    for (wire_ref, pad_ref), rows in holes.items():
        top, bottom = rows[0][1] - 12, rows[-1][1] + 12
        svg.rect(x0, top, 44, bottom - top, fill="#f4f4f4", rx=3)
        svg.text(x0 + 22, top - 4, wire_ref, size=10, anchor="middle", weight="bold")
        svg.rect(x0 + 104, top, 64, bottom - top, fill=LIGHT, rx=3, dash="5 3")
        svg.text(x0 + 136, top - 4, f"{pad_ref} pads", size=10, anchor="middle", weight="bold")
        for x, y, net in rows:
            tile = net.name[4:]
            svg.line([(x, y), (x0, y)], stroke=INK, width=1.2)
            svg.line([(x0 + 44, y), (x0 + 104, y)], stroke=WIRE_HEX["brown"], width=1.6)
            wire_pin = next(number for ref, number in net.nodes if ref == wire_ref)
            svg.text(x0 + 22, y + 4, wire_pin, size=9, anchor="middle", fill=GREY)
            svg.text(x0 + 136, y + 4, tile, size=10, anchor="middle", weight="bold")
    last = max(y for _, y, _ in pad_wires)
    svg.text(x0 + 84, last + 34, "J9-J11: the pad wires' holes;", size=10, anchor="middle", fill=GREY)
    svg.text(x0 + 84, last + 48, "brown: hook-up wire to each pad", size=10, anchor="middle", fill=GREY)
