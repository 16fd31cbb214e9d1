"""The work the build takes, counted from the model: the joints, jumpers, links and crimps the guide's time
estimate ("How long it takes" in hardware/README.md) quotes, and the plate's printing time from its PLA mass.

Counts come from the same model the wiring pages are written from (``perfboard``, ``electrical``, ``mechanics``),
so a change there shows up here; tests/test_guide.py checks the guide states these numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from codenames_board.config import parse
from codenames_firmware import board

from . import electrical, mechanics, perfboard
from .circuit import build

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
# Assumptions, stated: PLA's density (makers give 1.21-1.25 g/cm³), the guide's print rate (appendix-design: the
# 30 g coupon in under an hour at 8 mm³/s, an average over the whole print), and the range of averages ordinary
# printers reach at the plate's settings (a 0.4 mm nozzle, 0.2 mm layers): 4 mm³/s for an older bed-slinger at
# 40-50 mm/s with slow perimeters, 12 mm³/s for a fast current one.
PLA_G_PER_CM3 = 1.24
PRINT_RATE = 8.0
PRINT_RATES = (4.0, 12.0)
PRINTED = ("top plate", "spymaster display hood")  # the bom.csv rows printed in step 4 ("PLA, about ...")
_WIRE_POINTS = ("J14", "J15")  # the buzzer's wires: soldered in step 14


@dataclass(frozen=True)
class TileBoard:
    part_pins: int  # the parts' and sockets' pins soldered in step 2
    header_pins: int  # the male headers soldered onto the MPR121 breakouts
    jumpers: int  # insulated wires under the board
    bare_links: int

    @property
    def joints(self) -> int:
        return self.part_pins + self.header_pins + 2 * (self.jumpers + self.bare_links)


def tile_board() -> TileBoard:
    circuit = build(parse(""), board)
    places = perfboard.placements(circuit)
    pins = sum(len(p.pins) for p in places if p.ref not in perfboard.PAD_WIRE_POINTS + _WIRE_POINTS)  # pad wires: step 10
    under_breakouts = sum(len(p.pins) for p in places if p.ref not in ("J1", "J2")
                          and circuit.part(p.ref).footprint.startswith("Connector_PinSocket"))
    wires = perfboard.wires(circuit)
    bare = sum(wire.bare for wire in wires)
    return TileBoard(pins, under_breakouts, len(wires) - bare, bare)


@dataclass(frozen=True)
class Chain:
    leds: int
    links: int  # wire links, three wires each
    joints: int  # soldered wire ends: the links', the J13 cable's at its LED, the feeds' tails


def chain() -> Chain:
    links = electrical.wire_links()
    points = electrical.chain_feeds()
    # a link arriving at a feed takes its 5 V and GND on into the lever connectors: clamped, not soldered there
    ends = sum(6 - 2 * (link.power_cut != link.data_cut) for link in links)
    tails = 2 * (len(points) - 1)
    return Chain(board.LEDS, len(links), ends + 3 + tails)


def pad_joints() -> int:
    """Each pad's wire at one end: soldered at its pad (step 8), and again at the tile board (step 10)."""
    return board.TILES


def spades() -> int:
    """A spade on every button tab that takes a wire: the signal's NO and the ground harness's COM."""
    return 2 * sum(c.b_part.startswith("arcade button") for c in mechanics.CONNECTIONS)


def dupont_contacts() -> int:
    return mechanics.dupont_contacts()


def printed_grams() -> int:
    """The printed parts' PLA as the parts list gives it."""
    text = (HARDWARE / "bom.csv").read_text("utf-8")
    grams = 0
    for name in PRINTED:
        row = next(line for line in text.splitlines() if line.startswith(name + ","))
        amount, unit = re.search(r"PLA, about ([\d.]+) (kg|g)", row).groups()
        grams += float(amount) * (1000 if unit == "kg" else 1)
    return round(grams)


def print_hours(rate: float = PRINT_RATE) -> float:
    return printed_grams() / PLA_G_PER_CM3 * 1000 / rate / 3600
