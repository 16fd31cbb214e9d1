"""The table's electrical design, computed from datasheet figures: the buzzer's driver, the tile
board's size, the LED chain's wires, links and injection points.

Every figure a part contributes is a constant here with the datasheet it comes from, so the docs
(``wiring/README.md``, written by ``wiring.py``) quote the same numbers the tests check. The LED
chain's layout (tile centres, the strip, the feed holes, the DC jack) is the OpenSCAD model's
default; a test compares it with the model's ``figure`` lines. Pure functions, standard library only.
The lengths that start at a hole of the tile board's layout (the feeds, the J13 cable, the pad
wires) and the chain's voltage along them are ``cables.py``'s: the layout is drawn from these
figures, so nothing here imports it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from codenames_firmware import board

# --- the Raspberry Pi's GPIO (Raspberry Pi documentation, "GPIO" / "Voltage specifications")

PI_GPIO_V = 3.3  # the pads' supply
PI_GPIO_VOH_MIN = 3.0  # output high, at IOH = 2 mA (BCM2835/2837 and BCM2711 tables)
PI_PIN_LIMIT_MA = 8  # the default drive strength (8 mA); 16 mA is the pads' maximum setting
# The buzzer's driver sits on the tile board and takes the LED supply's 5 V there: the display's 2 x 13
# socket covers the Pi's pins 1-26, both 5 V pins with them. A 5 V adapter: nominal, and the most its
# ±5 % regulation gives (unloaded, at the tile board's terminal block).
LED_SUPPLY_V = (5.0, 5.25)

E12 = (1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2)


def e12_values():
    """Every E12 resistor value from 1 Ω to 1 MΩ, rising."""
    return [round(base * 10**decade, 1) for decade in range(6) for base in E12] + [1e6]


# --- the buzzer


@dataclass(frozen=True)
class Transducer:
    name: str
    coil_ohms: float  # DC resistance of the coil, nominal
    coil_tolerance: float  # relative
    rated_v: float  # the rated drive (V zero-to-peak)
    resonance_hz: int
    loud_hz: tuple[int, int]  # where it is within about 10 dB of its resonance
    source: str


@dataclass(frozen=True)
class Transistor:
    name: str
    hfe_min: int  # at the datasheet's condition below
    hfe_at: str
    vbe_sat_max: float  # V, the most the base needs
    vbe_min: float  # V, the least: the highest base current
    ic_max_ma: int
    source: str


@dataclass(frozen=True)
class Diode:
    name: str
    if_avg_ma: int  # average forward current
    source: str


# A 12 mm magnetic transducer: the common "passive buzzer". Its coil is a few tens of ohms, so a
# GPIO pin (a few mA) must never drive it directly.
MAGNETIC_TRANSDUCER = Transducer(
    "CUI Devices CEM-1203(42)", 42, 0.15, 3.0, 2048, (1000, 4000),
    "CUI Devices CEM-1203(42) datasheet: coil 42 ± 6.3 Ω, 3 V rated (2-4 V), resonance 2048 Hz",
)  # fmt: skip
BC337_40 = Transistor(
    "BC337-40", 250, "IC = 100 mA, VCE = 1 V", 1.2, 0.6, 800,
    "onsemi BC337 datasheet: hFE 250-630 (-40 group) at IC = 100 mA, VCE = 1 V; VBE(on) ≤ 1.2 V; IC ≤ 800 mA",
)  # fmt: skip
P2N2222A = Transistor(
    "2N2222A", 50, "IC = 150 mA, VCE = 1 V", 1.2, 0.6, 600,
    "onsemi P2N2222A datasheet: hFE ≥ 50 at IC = 150 mA, VCE = 1 V; VBE(sat) ≤ 1.2 V; IC ≤ 600 mA",
)  # fmt: skip
FLYBACK = Diode("1N4148", 150, "Vishay 1N4148 datasheet: IF(AV) 150 mA, IFRM 500 mA")
OVERDRIVE = 3  # base current at least 3 x IC / hFE(min): hard in saturation at the least gain
SERIES_WATTS = (0.25, 0.5, 1.0)


@dataclass(frozen=True)
class BuzzerDriver:
    transducer: Transducer
    transistor: Transistor
    series_ohms: float  # in series with the coil: keeps it at its rated voltage from 5 V
    series_watts: float  # the resistor's rating: carries coil_max_ma for good (a stuck pin)
    coil_ma: float  # through the coil and the series resistor, from the LED supply's nominal 5 V
    coil_max_ma: float  # the supply's most, the lowest coil resistance and resistor, VCE(sat) taken as 0
    coil_v: float  # nominal, across the coil
    base_ohms: float
    base_min_ma: float  # the least base current: the pin's lowest high level, the highest VBE
    pin_ma: float  # the most the GPIO pin sources: 3.3 V, the lowest VBE

    @property
    def overdrive(self) -> float:
        """How many times the base current exceeds what the least gain needs at the most coil current."""
        return self.base_min_ma * self.transistor.hfe_min / self.coil_max_ma

    @property
    def saturated(self) -> bool:
        return self.overdrive >= OVERDRIVE

    @property
    def diode_ok(self) -> bool:
        return self.coil_max_ma <= FLYBACK.if_avg_ma


def buzzer_driver(transducer: Transducer = MAGNETIC_TRANSDUCER, transistor: Transistor = BC337_40) -> BuzzerDriver:
    """A low-side NPN stage on the tile board, from the LED supply's 5 V: the series and base resistors
    from the datasheets. The Pi's GPIO drives the base; the grounds are shared."""
    supply, supply_max = LED_SUPPLY_V
    rated_ma = transducer.rated_v / transducer.coil_ohms * 1000
    need = (supply - transducer.rated_v) / rated_ma * 1000  # VCE(sat) taken as 0: never more than rated
    series = min(value for value in e12_values() if value >= need)
    coil_ma = supply / (transducer.coil_ohms + series) * 1000
    coil_max_ma = supply_max / (transducer.coil_ohms * (1 - transducer.coil_tolerance) + series * 0.95) * 1000
    watts = min(rating for rating in SERIES_WATTS if rating >= (coil_max_ma / 1000) ** 2 * series * 1.5)
    base_need_ma = OVERDRIVE * coil_max_ma / transistor.hfe_min
    base = max(value for value in e12_values() if (PI_GPIO_VOH_MIN - transistor.vbe_sat_max) / value * 1000 >= base_need_ma)
    return BuzzerDriver(
        transducer=transducer,
        transistor=transistor,
        series_ohms=series,
        series_watts=watts,
        coil_ma=coil_ma,
        coil_max_ma=coil_max_ma,
        coil_v=coil_ma / 1000 * transducer.coil_ohms,
        base_ohms=base,
        base_min_ma=(PI_GPIO_VOH_MIN - transistor.vbe_sat_max) / base * 1000,
        pin_ma=(PI_GPIO_V - transistor.vbe_min) / base * 1000,
    )


def ohms(value: float) -> str:
    """``1500`` -> ``"1.5 kΩ"``, ``33`` -> ``"33 Ω"``."""
    return f"{value / 1000:g} kΩ" if value >= 1000 else f"{value:g} Ω"


# --- the tile board on perfboard


@dataclass(frozen=True)
class Footprint:
    name: str
    count: int
    size: tuple[float, float]  # mm, with its pins or socket
    source: str
    height: float = 0.0  # mm above the perfboard's top, in its socket, with what plugs into it


# Heights: a 2.54 mm female header is 8.5 mm tall; a Pico H's or a breakout's male header adds its
# 2.5 mm plastic spacer; the Pico's board is 1 mm with its micro-USB socket on top, and the cable's plug
# (about 8 mm thick, centred on the socket) is the tallest thing at its end.
TILE_BOARD_PARTS = (
    Footprint("Raspberry Pi Pico in headers", 1, (51, 21), "Raspberry Pi Pico datasheet: 51 x 21 mm", 8.5 + 2.5 + 1 + 1.5 + 4),
    Footprint("MPR121 breakout in headers", 3, (33, 19), "Adafruit 1982: 33 x 19 mm, its pin rows 15.24 mm apart",
              8.5 + 2.5 + 1.6 + 1),
    Footprint("74AHCT125 in a DIP-14 socket", 1, (20, 10), "DIP-14: 7 x 2.54 mm by 7.62 mm rows, in a socket", 8.5),
    Footprint("1000 µF 10 V radial capacitor", 1, (10, 10), "10 mm diameter (10 x 16 mm can), standing upright on its leads",
              16 + 2),
    Footprint("resistor, 1/4 W, lying", 3, (12.7, 2.54), "330 Ω data, 10 kΩ pull-down, the buzzer's base resistor; "
              "0.4 in (10.16 mm) pitch", 3),
    Footprint("resistor, 0.5 W, lying", 1, (15.24, 3.2), "the buzzer's series resistor (DIN0309, 9 x 3.2 mm); "
              "0.5 in (12.7 mm) pitch", 3.5),
    Footprint("100 nF ceramic capacitor", 1, (5.08, 2.54), "0.2 in pitch", 6),
    Footprint("BC337 and 1N4148", 2, (7.62, 5.08), "TO-92 and DO-35 on 0.1 in holes", 8),
    Footprint("pad wire point", board.TILES, (2.54, 5.08), "one hole and a strain-relief hole per pad wire", 2),
    Footprint("terminal block, 5.08 mm, 2 and 3 way", 2, (15.24, 8), "the 5 V supply in; 5 V, GND and data out to the LEDs", 12),
)
def tallest_part(parts=TILE_BOARD_PARTS) -> Footprint:
    """The tile board's tallest part: what sets its height above the perfboard."""
    return max(parts, key=lambda part: part.height)
PERFBOARDS = ((50, 70), (60, 80), (70, 90), (80, 120), (90, 150), (100, 160))  # common sizes, mm
ROUTING = 2.0  # parts fill at most half a hand-wired board: the rest is wires and solder bridges
EDGE_MARGIN = 3  # mm of board edge kept free on each side (mounting holes, no cut parts)


def parts_area(parts=TILE_BOARD_PARTS) -> float:
    return sum(part.count * part.size[0] * part.size[1] for part in parts)


def perfboard(parts=TILE_BOARD_PARTS, boards=PERFBOARDS) -> tuple[int, int]:
    """The smallest common perfboard whose inner area holds the parts with room to wire them."""
    need = parts_area(parts) * ROUTING
    longest = max(max(part.size) for part in parts)
    for width, height in sorted(boards, key=lambda size: size[0] * size[1]):
        inner = (width - 2 * EDGE_MARGIN, height - 2 * EDGE_MARGIN)
        if inner[0] * inner[1] >= need and max(inner) >= longest:
            return width, height
    raise ValueError("no perfboard in the list is large enough")


# --- the LED chain's wires


@dataclass(frozen=True)
class Wire:
    awg: int
    mm2: float
    ohms_per_m: float  # copper at 20 °C
    max_a: float  # the conservative rating (700 circular mils per amp)
    chassis_a: float  # the same table's limit for a single wire in the open air (chassis wiring): a fuse stays below it


WIRES = {
    24: Wire(24, 0.205, 0.0842, 0.577, 3.5),
    22: Wire(22, 0.326, 0.0530, 0.92, 7),
    20: Wire(20, 0.518, 0.0333, 1.5, 11),
    18: Wire(18, 0.823, 0.0209, 2.3, 16),
}  # the standard AWG table
LINK_AWG = 22  # LED to LED: 5 V, GND and data; fits a 10 mm pixel board's pads
FEED_AWG = 18  # the supply to each injection point, spliced to a short LINK_AWG tail at the LED
# Worldsemi's WS2812B datasheet: "Power supply voltage VDD +3.5~+5.3 V" (its ratings table); its electrical and
# switching characteristics (DIN's VIH = 0.7 VDD, the timing) are given at VDD = 4.5-5.5 V. Every LED must stay at or
# above the first; in use the model keeps them above the second too (chain_wires_section says which way each is met).
WS2812_VDD_MIN = 3.5
WS2812_VDD_CHARACTERISED = 4.5
WS2812_VIH = 0.7  # of the LED's own VDD: a logic high at DIN
SUPPLY_V = 5.0

# The model's default layout (hardware/enclosure.scad, mm, x right, y from the operatives' edge).
TILE_PITCH = (88, 63)
FIRST_TILE = (59, 374.5)  # tile A1's centre
STRIP_Y = 53
STRIP_PITCH = 1000 / 60
BAR_X0 = 15 + 2 * 88 - 4 * STRIP_PITCH  # the sand-timer bar's first LED's edge
TURN_GAP = 12  # between the bar and the turn LEDs
DC_JACK = (165, 597, -38)
FEED_RISE = 35  # from the jack's height up to the LED board's underside
FEED_SLACK = 150  # each run's slack, as the cables' (mechanics)
WIRE_SPARE = 1.1  # 10 % for stripping, routing and mistakes


# The LED supply's distribution: the jack's two lugs take one red and one black wire each, to a pair of 5-way lever
# connectors (WAGO 221-415 style) behind it, and from them an 18 AWG pair to each feed. Chain index 0 is fed through
# the tile board: its pair goes to J12, the board's trunk (C2 across it) to J13, and J13's 3-way terminal sends 5 V,
# data and GND on to the first LED in one 22 AWG cable (its data's return beside it; no second, parallel 5 V path).
LEVER_WAYS = 5


@dataclass(frozen=True)
class Fuse:
    name: str
    rating_ma: int
    ohms: float  # cold resistance, about: in series with every LED's current
    derating: float = 0.75  # the fuse makers' rule: carry at most 75 % of the rating for hours on end (at 25 °C)

    @property
    def continuous_ma(self) -> float:
        return self.rating_ma * self.derating


# The LED supply's fuse, in the jack's 5 V lead: a mini blade fuse in an inline holder, chosen over a 5 x 20 mm one
# in a panel holder because it needs no second hole in the back wall and car-parts shops sell it everywhere,
# colour-coded by rating (3 A is violet). Its holder's leads are 18 AWG (FEED_AWG). 35 mΩ is an assumed cold
# resistance, not a datasheet's figure: 25 mΩ more costs the last LED 0.02 V at the cap, 0.06 V at a full-white glitch.
LED_FUSE = Fuse("3 A mini blade fuse (ATM, violet)", 3000, 0.035)
LEVER_LEAD = 100  # mm: a jack lug to its lever connector, each wire
#: The model's tile_board_mount = "ledboard", the default: the tile board hung under the LED board over the grid's
#: middle, its parts down (the model's hung_boards: its corners and its copper side's z, which faces up), reached
#: through a hatch in the floor; its pad wires' edge (row A) at x0, the Pico's USB end towards the Pi.
HUNG_TILE_BOARD = ((165, 218), (245, 338), -18)
#: The variant tile_board_mount = "floor" (hardware/appendix-variants.md): the model's floor_boards, the tile board's
#: corners and its underside's z, on standoffs in front of the Pi.
FLOOR_TILE_BOARD = ((195, 324), (275, 444), -64)
PERFBOARD_T = 1.6
TERMINAL_H = 12  # the terminal blocks' height above the perfboard
LEDBOARD_UNDER_Z = -3  # the LED board's underside (the model's box_z)
LEDBOARD_T = 3
FEED_HOLE_TO_LED = 20  # mm on the LED board's top from a feed hole to its LED's pads
#: Where 5 V goes into the chain of pixel boards: its start alone, through the tile board (J12, J13). With this one
#: feed the last LED stays above WS2812_VDD_MIN at the firmware's current cap and at a full-white glitch
#: (cables.chain_drop(); tests/buildkit/test_electrical.py computes it), and the links carry that current well within
#: their wire's limit: no feed wire, lever connector or feed hole further along. The strand option keeps its own
#: feeds (strand_feeds()).
CHAIN_FEEDS = (0,)


def chain_feeds() -> list[int]:
    """Where 5 V goes into the chain of pixel boards (chain indexes)."""
    return list(CHAIN_FEEDS)


# The strand's other injection points (strand_feeds()): a pair of lever connectors (spares of the pack, one 5 V, one GND)
# is stuck under the LED board beside its feed hole. In each: the FEED_AWG wire, a LINK_AWG tail up through the hole
# to the LED's pads, and where a wire link arrives at that LED (a pixel board, a strip piece's first LED) that link
# too, so that no pad takes more than one wire.
INJECTION_REACH = 45  # mm under the LED board from a feed hole to its lever connectors' middle
#: Which way from each feed hole the pair sits (the model's x, y: x to the operatives' right, y away from them), and
#: how the guide names it: the only sides where the pair (LEVER_PAIR_MM) clears every hole in the LED board and every
#: button body under it (tested from the model, for the strand).
INJECTION_SIDE = {
    "E5": ((1, 0), "towards the side wall on the SAND TIMER's side"),
    "strip end": ((0, 1), "straight back towards the grid"),
}
LEVER_PAIR_MM = (38, 30)  # two WAGO 221-415 side by side (18.6 mm wide each, 29.8 mm long)
LEVER_STRIP = 11  # mm of bare strand a WAGO 221 takes (the strip gauge on its side)
TAIL_SLACK = 10  # mm on each tail to bend it onto the pad
LINK_OD = 1.8  # mm: LINK_AWG stranded hook-up wire over its PVC insulation (1.5-1.8 mm)


def injection_tail() -> float:
    """mm of LINK_AWG, each of 5 V and GND, from an injection point's lever connectors up through its feed hole to
    the LED's pads."""
    return INJECTION_REACH + LEDBOARD_T + FEED_HOLE_TO_LED + LEVER_STRIP + TAIL_SLACK


def link_arrives(point: int) -> bool:
    """A wire link arrives at this LED's input pads (a pixel board, or a strip piece's first LED): at an injection
    point that link goes into the lever connectors too. Elsewhere on a strip the copper carries it, and the tail
    goes to the pads at the cut after the LED, which take no other wire."""
    return point < board.TILES or point in (board.TILES, board.TILES + board.TIMER_LEDS)


def injection_joins(points: list[int]) -> list[tuple[int, tuple[str, ...]]]:
    """(point, its lever connectors' ways) for every injection point but the tile board's."""
    out = []
    for point in points[1:]:
        ways = ["feed", "LED"] + ([f"link from chain {point - 1}"] if link_arrives(point) else [])
        out.append((point, tuple(ways + ["spare"] * (LEVER_WAYS - len(ways)))))
    return out


def feed_hole_wires(point: int) -> int:
    """LINK_AWG wires through an injection point's feed hole: 5 V, data and GND from J13 at the first LED; else
    the two tails, and the arriving link's 5 V and GND on their way down."""
    return 3 if point == 0 else 2 + 2 * link_arrives(point)


def lever_connectors(points: list[int]) -> int:
    """How many 5-way lever connectors the LED supply takes: the pair behind the jack and a pair at every other feed
    (the 2-way one that joins the jack's red lead to the fuse holder's is J23, FUSE_JOIN_WAYS)."""
    return 2 * len(points)


def lever_ways(points: list[int]) -> list[str]:
    """A lever connector's ways, as its pins are named: the jack's wire, the feed to each injection point (chain
    index 0's through the tile board), the spare ones."""
    names = ["jack"] + ["tile board" if point == 0 else f"chain {point}" for point in points]
    return names + ["spare"] * (LEVER_WAYS - len(names))


def lever_note(colour: str) -> str:
    lead = "the fuse holder's lead (the jack's 5 V, fused)" if colour == "red" else f"the jack's {colour} wire"
    return (f"a 5-way lever connector (WAGO 221-415): {lead} in, a {colour} {FEED_AWG} AWG wire out to "
            "each feed; a spare way left closed")


# the lever connector between the jack and the fuse: a 2-way one, both ways full, so no other wire can go in
# ahead of the fuse (the J12 pair's red into it would leave the fuse out)
FUSE_JOIN_WAYS = ("jack", "fuse")


def led_positions() -> list[tuple[float, float]]:
    """Every LED's (x, y) on the LED board in chain order."""
    where = {}
    for tile in range(board.TILES):
        row, column = divmod(tile, 5)
        where[board.CHAIN[tile]] = (FIRST_TILE[0] + column * TILE_PITCH[0], FIRST_TILE[1] - row * TILE_PITCH[1])
    bar = [(BAR_X0 + (k + 0.5) * STRIP_PITCH, STRIP_Y) for k in range(board.TIMER_LEDS)]
    turn_x0 = BAR_X0 + board.TIMER_LEDS * STRIP_PITCH + TURN_GAP
    turn = [(turn_x0 + (k + 0.5) * STRIP_PITCH, STRIP_Y) for k in range(board.TURN_LEDS)]
    return [where[position] for position in range(board.TILES)] + bar + turn


#: The link from the last tile to the sand-timer bar leaves the grid at the front and comes into the bar's light box
#: through the strip channel in its left end wall, from this far left of the bar's first LED's edge (the model's
#: bar_entry: where the printed plate's front wall is notched for it).
BAR_ENTRY = 8
LINK_END = 10  # mm at each end of a wire link: 3 mm stripped and the bend onto the pad


def _into_bar(start: tuple[float, float]) -> float:
    """The way (mm, along the board's grid) from a point to the bar's first LED, in through its end wall."""
    first = led_positions()[board.TILES]
    entry = BAR_X0 - BAR_ENTRY
    return abs(start[0] - entry) + abs(start[1] - first[1]) + abs(first[0] - entry)


def link_lengths() -> list[float]:
    """The wire (mm, along the board's grid) from each LED to the next; into the bar through its end wall."""
    points = led_positions()
    out = []
    for index, (a, b) in enumerate(zip(points, points[1:]), 1):
        if index == board.TILES:
            out.append(_into_bar(a))
        else:
            out.append(abs(a[0] - b[0]) + abs(a[1] - b[1]))
    return out


def strip_piece(index: int) -> int | None:
    """Which strip piece an LED sits on (0 the sand-timer bar, 1 the turn LEDs), or None for a tile's pixel board."""
    if index < board.TILES:
        return None
    return 0 if index < board.TILES + board.TIMER_LEDS else 1


@dataclass(frozen=True)
class Link:
    """A wire link from one LED's output pads to the next one's input pads: three wires, cut to these lengths
    (mm, both ends' LINK_END in). At an injection point a pixel board's input pads take the tail instead, so the
    link's 5 V and GND go on past them to the feed hole and down into the lever connectors under the board."""

    start: int
    data_cut: float
    power_cut: float

    @property
    def end(self) -> int:
        return self.start + 1


def wire_links(points: list[int] | None = None) -> list[Link]:
    """Every link that is a wire, chain order (on a strip piece the copper carries the chain, LED to LED)."""
    points = chain_feeds() if points is None else points
    where = led_positions()
    out = []
    for start, length in enumerate(link_lengths()):
        end = start + 1
        if strip_piece(start) is not None and strip_piece(start) == strip_piece(end):
            continue
        data = length + 2 * LINK_END
        power = data
        if end in points[1:] and link_arrives(end):
            a, (x, y) = where[start], where[end]
            to_hole = abs(a[0] - (x - FEED_HOLE_TO_LED)) + abs(a[1] - y)
            power = to_hole + LEDBOARD_T + INJECTION_REACH + LEVER_STRIP + LINK_END
        out.append(Link(start, data, power))
    return out


# --- the pre-wired option: a strand of 12 mm WS2811 "bullet" pixels


@dataclass(frozen=True)
class Strand:
    """A strand of 12 mm bullet pixels as sold: the wire between neighbouring pixels and its gauge."""

    spacing_mm: int  # pixel to pixel along the wire, as the listing gives it
    awg: int
    pixels: int


#: Spacings commonly sold for 12 mm WS2811 pixel strands (cm: 7, 8, 10, 12, 15; longer as a custom order);
#: the three-core wire is usually 20-22 AWG, 50 pixels a strand.
STRAND_SPACINGS_MM = (70, 80, 100, 120, 150)
STRAND_AWG = 22
STRAND_PIXELS = 50
#: Where the wire leaves a pixel: out of the end of its body below the LED board, then along under it. Each
#: end needs this much to turn from the body into the run (the three cores' bend and the potting's tail).
STRAND_TURN_MM = 15


def strand_needs_mm() -> float:
    """The least pixel-to-pixel wire that reaches every tile-to-tile link of the chain's path (the
    snake: across a row, then row to row), with the turn at both ends."""
    return max(link_lengths()[: board.TILES - 1]) + 2 * STRAND_TURN_MM


def strand_spacing(spacings=STRAND_SPACINGS_MM) -> int:
    """The shortest common spacing that reaches every link: shorter ones do not reach across a row."""
    need = strand_needs_mm()
    for spacing in sorted(spacings):
        if spacing >= need:
            return spacing
    raise ValueError(f"no common strand spacing reaches {need:.0f} mm: order a custom spacing")


def strand_feeds() -> list[int]:
    """Where 5 V and GND go into the chain with the tiles on a strand: its input (the first tile), its
    own end where it meets the strip (the last tile: no splice into the strand's wire), and past the
    last turn LED."""
    return [0, board.TILES - 1, board.LEDS - 1]


def strand_bar_link() -> float:
    """The strand's end (the last tile, a feed: strand_feeds()) to the sand-timer bar's first LED: a LINK_AWG link
    from the lever connectors under the last tile's feed hole, up through it, then the boards' route into the bar
    (link_lengths()), both ends' LINK_END in (mm)."""
    x, y = led_positions()[board.TILES - 1]
    return INJECTION_REACH + LEDBOARD_T + _into_bar((x - FEED_HOLE_TO_LED, y)) + LEVER_STRIP + LINK_END


def window_angles(led_z: float, chamber_h: float, frame_in: tuple[float, float], frame_out: tuple[float, float]) -> tuple[float, float]:
    """(nearest, farthest) angle in degrees off the LED's axis at which it sees its light frame's windows
    on the plate's underside ``chamber_h`` above the LED board, from an emitter ``led_z`` above it."""
    rise = chamber_h - led_z
    near = min(frame_in)
    far = math.hypot(*frame_out)
    return math.degrees(math.atan2(near, rise)), math.degrees(math.atan2(far, rise))


# --- the pad wires

PAD = (60, 35)  # the copper pad under each tile (the model's "pad")
RIB_T = 2.4  # the light chambers' walls (the model's "rib_t")
RIB_H = 15  # from the LED board's top to the plate's underside, where the pads lie (the model's "chamber")


RELIEF_LOOP = 10  # mm: a pad wire over the parts' side, down its strain-relief hole and up into its own


#: The service position (hardware/README.md): the box tips back over its spymasters' bottom edge (the model's plate
#: depth, and its table_z), its floor left lying; with the tile board on its standoffs this far (degrees). Each end
#: of a cable turns into its terminal or pad: TIP_END_MM of it does not span the gap.
HINGE = (597, -73)
TIP_ON_STANDOFFS = 60
TIP_END_MM = 30


def tipped(point: tuple[float, float, float], degrees: float) -> tuple[float, float, float]:
    """Where a point of the box goes when it tips back by ``degrees`` over HINGE."""
    x, y, z = point
    t = math.radians(degrees)
    dy, dz = y - HINGE[0], z - HINGE[1]
    return x, HINGE[0] + dy * math.cos(t) + dz * math.sin(t), HINGE[1] - dy * math.sin(t) + dz * math.cos(t)
