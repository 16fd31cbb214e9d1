"""The wires that leave the tile board, measured on its layout: the LED supply's feeds and the J13
cable, the chain's voltage along them, the wire to buy, and the pad wires.

Each length runs from a hole of the tile board's layout (``perfboard.py``, the board on the
floor as the guide mounts it) to a point of the model's default layout (``electrical.py``), so
this module sits above both: ``electrical`` holds the figures and ``circuit`` the parts and nets,
neither needs a length, and ``perfboard`` places the circuit's parts. Pure functions, same
input, same figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from codenames_firmware import board

from .electrical import (
    DC_JACK, FEED_AWG, LED_FUSE, FEED_HOLE_TO_LED, FEED_RISE, FEED_SLACK, FIRST_TILE, LEDBOARD_T, LEDBOARD_UNDER_Z, LEVER_LEAD,
    LEVER_WAYS, LINK_AWG, PAD, PERFBOARD_T, RELIEF_LOOP, RIB_H, RIB_T, STRAND_AWG, SUPPLY_V, TERMINAL_H, WS2812_VDD_MIN, FLOOR_TILE_BOARD,
    TILE_PITCH, TIP_END_MM, TIP_ON_STANDOFFS, WIRE_SPARE, WIRES, chain_feeds, injection_tail, led_positions,
    link_lengths, strand_spacing, tipped, wire_links,
)  # fmt: skip
from .perfboard import J12_AT, J13_AT, in_box_floor, in_box_hung, pad_holes  # the layout's holes in the box

# --- the LED supply: from the lever connectors behind the DC jack to each injection point


@dataclass(frozen=True)
class Feed:
    """One injection point's wires: ``run`` mm of FEED_AWG pair from the lever connectors (slack in), and for the
    tile board's feed ``tail`` mm of LINK_AWG from J13 to the first LED (slack in; 5 V, data and GND)."""

    point: int
    to: str
    run: float
    tail: float = 0.0


def _terminal(column: float, row: float, floor: bool = False) -> tuple[float, float, float]:
    """A terminal block's clamp at its first hole: under it, the tile board hung parts down (perfboard.in_box_hung);
    over it in the variant on the floor."""
    if floor:
        x, y, z = in_box_floor(column, row)
        return x, y, z + TERMINAL_H
    x, y, z = in_box_hung(column, row)
    return x, y, z - PERFBOARD_T - TERMINAL_H


def feed_paths(points: list[int] | None = None, floor: bool = False) -> list["Feed"]:
    """Every feed from the lever connectors, chain order: the tile board's J12 (chain index 0, on through J13),
    then straight to each other injection point (the strand's; the pixel boards have none: chain_feeds()). Along the floor, the walls and up, each with FEED_SLACK.
    ``floor``: the tile board in the variant on the floor."""
    points = chain_feeds() if points is None else points
    positions = led_positions()
    feeds = []
    for point in points:
        x, y = positions[point]
        if point == 0:
            j12 = _terminal(*J12_AT, floor)
            run = sum(abs(a - b) for a, b in zip(DC_JACK, j12)) + FEED_SLACK
            hole = (x - FEED_HOLE_TO_LED, y)
            j13 = _terminal(*J13_AT, floor)
            tail = (abs(j13[0] - hole[0]) + abs(j13[1] - hole[1]) + (LEDBOARD_UNDER_Z - j13[2]) + LEDBOARD_T
                    + FEED_HOLE_TO_LED + FEED_SLACK)  # fmt: skip
            feeds.append(Feed(point, "the tile board (J12), on through J13", run, tail))
        else:
            run = abs(DC_JACK[0] - x) + abs(DC_JACK[1] - y) + FEED_RISE + FEED_SLACK
            feeds.append(Feed(point, f"chain index {point}", run, injection_tail()))
    if len(feeds) + 1 > LEVER_WAYS:
        raise ValueError(f"{len(feeds)} feeds and the jack's wire need more than a {LEVER_WAYS}-way lever connector")
    return feeds


def feed_runs(points: list[int]) -> list[float]:
    """The FEED_AWG pair's run (mm) from the lever connectors to each feed (feed_paths())."""
    return [feed.run for feed in feed_paths(points)]


def first_led_cable() -> float:
    """mm of LINK_AWG from J13 to the first LED (slack in): 5 V, data and GND."""
    return feed_paths([0])[0].tail


def power_wire_m(points: list[int]) -> float:
    """Metres of FEED_AWG wire: red and black from the jack to every injection point, with the spare."""
    return 2 * (sum(feed_runs(points)) + LEVER_LEAD) / 1000 * WIRE_SPARE


def link_wire_m() -> float:
    """Metres of LINK_AWG wire, with the spare: 5 V, GND and data along every wire link (wire_links(): cut lengths,
    an arriving link's 5 V and GND on down through the feed hole into the lever connectors) and from J13 to the
    first LED; 5 V and GND from each other feed's lever connectors up to its LED."""
    feeds = feed_paths()
    tails = sum(2 * feed.tail for feed in feeds[1:])
    links = sum(link.data_cut + 2 * link.power_cut for link in wire_links())
    return (links + 3 * first_led_cable() + tails) / 1000 * WIRE_SPARE


# --- the chain's voltage along its links and feeds


@dataclass(frozen=True)
class ChainDrop:
    volts: list[float]  # at each LED
    link_amps: list[float]  # in each link (5 V and GND alike)
    feed_amps: list[float]  # in each feed run

    @property
    def lowest(self) -> float:
        return min(self.volts)


def chain_drop(points: list[int], led_ma: float, link_awg: int = LINK_AWG, feed_awg: int = FEED_AWG,
               lengths: list[float] | None = None) -> ChainDrop:
    """Nodal analysis of the chain: every LED draws ``led_ma``; 5 V and GND wires both count. ``lengths``:
    each link's wire (mm), the layout's by default."""
    lengths = link_lengths() if lengths is None else lengths
    links = [2 * length / 1000 * WIRES[link_awg].ohms_per_m for length in lengths]  # out and back
    feeds = {feed.point: 2 / 1000 * (feed.run * WIRES[feed_awg].ohms_per_m + feed.tail * WIRES[link_awg].ohms_per_m)
             for feed in feed_paths(points)}  # fmt: skip
    # the lever connectors' node: the jack's lead and the fuse (in the 5 V one) carry every LED's current
    lead = 2 * LEVER_LEAD / 1000 * WIRES[feed_awg].ohms_per_m + LED_FUSE.ohms
    supply_v = SUPPLY_V - lead * led_ma / 1000 * (len(links) + 1)
    n = len(links) + 1
    # G V = I: a tridiagonal system, solved by the Thomas algorithm.
    diagonal = [0.0] * n
    lower = [0.0] * n
    upper = [0.0] * n
    rhs = [-led_ma / 1000] * n
    for i, resistance in enumerate(links):
        g = 1 / resistance
        diagonal[i] += g
        diagonal[i + 1] += g
        upper[i] = -g
        lower[i + 1] = -g
    for point, resistance in feeds.items():
        diagonal[point] += 1 / resistance
        rhs[point] += supply_v / resistance
    for i in range(1, n):
        factor = lower[i] / diagonal[i - 1]
        diagonal[i] -= factor * upper[i - 1]
        rhs[i] -= factor * rhs[i - 1]
    volts = [0.0] * n
    volts[-1] = rhs[-1] / diagonal[-1]
    for i in range(n - 2, -1, -1):
        volts[i] = (rhs[i] - upper[i] * volts[i + 1]) / diagonal[i]
    link_amps = [abs(volts[i] - volts[i + 1]) / links[i] for i in range(n - 1)]
    feed_amps = [(supply_v - volts[point]) / feeds[point] for point in points]
    return ChainDrop(volts, link_amps, feed_amps)


@dataclass(frozen=True)
class FeedCheck:
    """Whether some feeds keep the chain within the WS2812B's supply range: the chain's voltage (chain_drop()) with
    every LED drawing its share of the firmware's current cap, and of a full-white glitch."""

    points: list[int]
    at_cap: ChainDrop
    at_glitch: ChainDrop

    @property
    def last_led(self) -> tuple[float, float]:
        """The last LED's supply (V): at the cap, at a glitch."""
        return self.at_cap.volts[-1], self.at_glitch.volts[-1]

    @property
    def enough(self) -> bool:
        """Every LED at or above the datasheet's VDD minimum, and every link within its wire's limit, both times. With
        a feed at the start alone the supply falls along the chain, so each LED's DIN sees the previous LED's high
        level, at least its own VDD, over the 0.7 VDD it needs."""
        drops = (self.at_cap, self.at_glitch)
        return (all(drop.lowest >= WS2812_VDD_MIN for drop in drops)
                and all(max(drop.link_amps) <= WIRES[LINK_AWG].chassis_a for drop in drops))


def feed_check(points: list[int], cap_ma: float, glitch_ma: float) -> FeedCheck:
    """The chain with these feeds at the cap and at a glitch (mA for the whole chain)."""
    leds = len(link_lengths()) + 1
    return FeedCheck(points, chain_drop(points, cap_ma / leds), chain_drop(points, glitch_ma / leds))


def strand_drop(points: list[int], led_ma: float, spacing_mm: int | None = None, awg: int = STRAND_AWG) -> ChainDrop:
    """The chain's voltage with the 25 tiles on a strand: every tile-to-tile link is the strand's whole
    spacing of its own wire (the slack loops included); the strip's LEDs are as before."""
    spacing_mm = spacing_mm or strand_spacing()
    lengths = [spacing_mm] * (board.TILES - 1) + link_lengths()[board.TILES - 1:]
    return chain_drop(points, led_ma, link_awg=awg, lengths=lengths)


# --- the pad wires: from each tile's pad down to its hole on the tile board


def _pad_wire_runs() -> list[tuple[float, float, tuple[float, float, float], float]]:
    """For each tile, with the variant tile_board_mount = "floor": the pad wire's run above the LED board's underside,
    its run below to the tile board's hole, its hole on the LED board's underside, and the wire below it that the box
    tipped TIP_ON_STANDOFFS needs."""
    z = FLOOR_TILE_BOARD[2]
    holes = pad_holes()
    out = []
    for tile in range(board.TILES):
        row, column = divmod(tile, 5)
        cx, cy = FIRST_TILE[0] + column * TILE_PITCH[0], FIRST_TILE[1] - row * TILE_PITCH[1]
        hole = (cx - TILE_PITCH[0] / 2 + RIB_T + 6, cy + TILE_PITCH[1] / 2 - RIB_T - 6)
        corner = (cx - PAD[0] / 2, cy + PAD[1] / 2)
        above = abs(hole[0] - corner[0]) + abs(hole[1] - corner[1]) + RIB_H + LEDBOARD_T
        end = in_box_floor(*holes[tile])
        below = (LEDBOARD_UNDER_Z - (z + PERFBOARD_T)) + abs(end[0] - hole[0]) + abs(end[1] - hole[1])
        under = (hole[0], hole[1], LEDBOARD_UNDER_Z)
        tip = math.dist(end, tipped(under, TIP_ON_STANDOFFS)) + TIP_END_MM
        out.append((above, below, under, tip))
    return out


def pad_wire_lengths() -> list[float]:
    """mm of pad wire for each tile (tile order), slack in, the tile board hung under the LED board (perfboard.
    in_box_hung): from the pad's corner along the plate's underside to its hole in the LED board (the model's
    ledboard_2d: the chamber's corner), down through the chamber and the LED board, down to the board's copper side
    and along under the LED board to its own hole there (perfboard.pad_holes()), the strain-relief loop, and
    FEED_SLACK so the board comes down out of the floor's hatch and turns over. No wire crosses to the floor, so the
    service position asks nothing of them."""
    out = []
    for (above, _, (hx, hy, hz), _), spot in zip(_pad_wire_runs(), pad_holes()):
        x, y, z = in_box_hung(*spot)
        out.append(above + (hz - z) + abs(x - hx) + abs(y - hy) + FEED_SLACK + RELIEF_LOOP)
    return out


def floor_pad_wire_lengths() -> list[float]:
    """mm of pad wire for each tile in the variant tile_board_mount = "floor": as pad_wire_lengths() above the LED
    board, then down to the tile board on the floor and along to its hole, and FEED_SLACK so the box tips back off its
    floor with the board on it; where that is not enough for the box tipped back TIP_ON_STANDOFFS degrees (the
    service position), the straight line across then, both ends' TIP_END_MM in."""
    return [above + max(below + FEED_SLACK, tip) + RELIEF_LOOP for above, below, _, tip in _pad_wire_runs()]


def floor_pad_wire_drops() -> list[tuple[tuple[float, float, float], float]]:
    """In the floor variant: each pad wire's hole on the LED board's underside (x, y, z) and the wire that hangs below
    it to the tile board's hole (mm: its length less the run above the LED board's underside and the loop)."""
    return [(hole, length - above - RELIEF_LOOP)
            for (above, _, hole, _), length in zip(_pad_wire_runs(), floor_pad_wire_lengths())]


def pad_wire_m() -> float:
    """Metres of pad wire, with the spare."""
    return sum(pad_wire_lengths()) / 1000 * WIRE_SPARE
