"""The schematic's layout: where each symbol sits, which pins meet by wires in which channel, which get labels.

Rules, not coordinates, so a new part lands somewhere sensible:

* **Regions by function**: the supply, the Pi's header and the controls, the tile board, the LED
  chain (``region_of``). Within a region the parts joined by signal nets form groups.
* **Columns by signal flow**: each group starts at its anchor (a module first, else the part with the
  most pins) in column 0; a part joined to a pin on the anchor's right goes one column right, facing it
  (two-terminal parts and one-sided boxes are mirrored to face it), and so on outward. Parts joined by
  nothing but the supply rails sit in a row under the groups.
* **Wires in the channels between columns**: a net whose pins face the same channel is drawn there
  as wires (one vertical track per net, ordered so no wire runs along another). Pins a wire cannot
  reach get a net label with the net's name (and the parts it goes to, when few); every GND pin a
  ground symbol and every pin on a busy supply rail (``+...`` with more than four pins) a rail flag.
  The same name is the same wire.

The pins carry ``data-`` attributes (the part, the pin, where its stub ends) and the labels their
net, so the tests read the connections back out of the drawing.
"""

from __future__ import annotations

from collections import defaultdict

from .circuit import TILE_BOARD, Circuit, Part
from .drawing import WIRE_HEX
from .symbols import ROW, Pin, Symbol, module_of, module_symbol, part_symbol, text_width

GAP, TRACK, MARGIN, PAD = 22, 12, 14, 26  # between stacked symbols, between tracks, around channels, inside a region
SUPPLY, PI, TILES, CHAIN = ("The supply: DC jack, fuse, lever connectors", "The Pi's header, the display and the controls",
                            "The tile board: Pico, MPR121 boards, level shifter, buzzer driver",
                            "The LED chain: its first LED, fed from the tile board")  # fmt: skip
ANCHORS = ("module", "Raspberry Pi", "DC barrel jack", "npn")  # who starts a group, before the part with the most pins
RAIL_COLOUR = {"5V": WIRE_HEX["red"], "3V3": WIRE_HEX["orange"]}
LABEL = "#1f6fd1"


def region_of(part: Part) -> str:
    if part.bom.startswith("WS2812B") or part.place.startswith("under the LED board"):
        return CHAIN
    if part.place in (TILE_BOARD, "under the tiles") or part.bom == "buzzer":
        return TILES
    if "DC jack" in part.place or part.bom in ("DC barrel jack", "fuse with inline holder"):
        return SUPPLY
    return PI


def is_rail(circuit: Circuit, name: str) -> bool:
    net = next(net for net in circuit.nets if net.name == name)
    return name == "GND" or (name.startswith("+") and len(net.nodes) > 4)


class Placement:
    """Symbols placed in regions, columns and stacks: where each sits, no wires yet."""

    def __init__(self, circuit: Circuit) -> None:
        self.circuit = circuit
        self.symbols: list[Symbol] = []
        self.where: dict[tuple[str, str], tuple[Symbol, Pin]] = {}
        self._symbols()
        self._columns()

    def _symbols(self) -> None:
        modules: dict[str, list[Part]] = defaultdict(list)
        for part in self.circuit.parts:
            modules[module_of(part)].append(part)
        for key, parts in modules.items():
            symbol = module_symbol(key, parts) if len(parts) > 1 else part_symbol(parts[0])
            symbol.region = region_of(parts[0])
            if parts[0].bom == "Raspberry Pi":
                symbol.kind = "box"
            self.symbols.append(symbol)
            for pin in symbol.pins:
                self.where[(pin.ref, pin.number)] = (symbol, pin)

    def net_of(self, pin: Pin):
        return self.circuit.net_at(pin.ref, pin.number)

    def _signal(self, pin: Pin):
        net = self.net_of(pin)
        return net if net is not None and not is_rail(self.circuit, net.name) else None

    def _neighbours(self, symbol: Symbol):
        """(my pin, its pin, its symbol) for every signal net to another symbol in my region."""
        for pin in symbol.pins:
            net = self._signal(pin)
            if net is None:
                continue
            nodes = [self.where[node] for node in net.nodes]
            holes = {self._place(other) for other, _ in nodes if other.through and other is not symbol}
            for other, far in nodes:
                # a part elsewhere in the box is reached through the hole its wire is soldered into
                beyond = not symbol.through and not other.through and holes and self._place(other) not in holes
                if other is not symbol and other.region == symbol.region and not beyond:
                    yield pin, far, other

    def _place(self, symbol: Symbol) -> str:
        return self.circuit.part(symbol.pins[0].ref).place

    def _anchor_rank(self, symbol: Symbol) -> tuple:
        part = self.circuit.part(symbol.pins[0].ref)
        rank = next((i for i, key in enumerate(ANCHORS) if key in (symbol.kind, part.bom)), len(ANCHORS))
        return (rank, -len(symbol.pins), symbol.key)

    def _columns(self) -> None:
        component = 0
        for region in (PI, TILES, SUPPLY, CHAIN):
            members = [s for s in self.symbols if s.region == region]
            placed: set[int] = set()
            for start in sorted(members, key=self._anchor_rank):
                if id(start) in placed:
                    continue
                if not any(True for _ in self._neighbours(start)):
                    start.component = -1  # rails only: the row under the groups
                    continue
                component += 1
                order = [start]
                placed.add(id(start))
                start.column, start.component = 0, component
                for symbol in order:  # breadth first, outward from the anchor
                    for pin, far, other in self._neighbours(symbol):
                        if id(other) in placed:
                            continue
                        side = symbol.sides(pin)[0] if len(symbol.sides(pin)) == 1 else (1 if symbol.column >= 0 else -1)
                        other.column, other.component = symbol.column + side, component
                        if other.orientable and other.sides(far) == (side,):
                            other.mirrored = not other.mirrored
                        placed.add(id(other))
                        order.append(other)
                self._stack(order)

    def _stack(self, order: list[Symbol]) -> None:
        """Each column's symbols top to bottom, each as near as it can be to what it connects to."""
        columns = sorted({s.column for s in order}, key=lambda c: (abs(c), c))
        done: list[Symbol] = []
        for column in columns:
            here = [s for s in order if s.column == column]
            wanted = {}
            for symbol in here:
                links = [(pin, other.y + far.y) for pin, far, other in self._neighbours(symbol) if other in done]
                if symbol.reorderable and links:
                    at = {id(pin): y for pin, y in links}
                    symbol.reorder(sorted(symbol.pins, key=lambda p: (at.get(id(p), 1e9), symbol.pins.index(p))))
                    links = [(pin, y) for pin, y in ((p, at.get(id(p))) for p in symbol.pins) if y is not None]
                wanted[id(symbol)] = round(sum(y - pin.y for pin, y in links) / len(links)) if links else None
            first = {id(s): min((other.y + far.y for _, far, other in self._neighbours(s) if other in done), default=None)
                     for s in here}  # fmt: skip
            bottom = None
            for symbol in sorted(here, key=lambda s: (first[id(s)] is None, first[id(s)] or 0)):
                top = wanted[id(symbol)]
                if top is None:
                    top = 0 if bottom is None else bottom
                symbol.y = top if bottom is None else max(top, bottom)
                for _ in range(8):  # half a row down while a pin would face another net's pin at its height
                    if not self._facing_clash(symbol, done):
                        break
                    symbol.y += ROW / 2
                bottom = symbol.y + symbol.height + GAP
                done.append(symbol)
        lowest = min(s.y for s in order)
        for symbol in order:
            symbol.y -= lowest

    def _facing_clash(self, symbol: Symbol, done: list[Symbol]) -> bool:
        """Would a pin of ``symbol`` face another signal net's pin across a channel at (nearly) the same height?
        Their wires would run along each other."""
        for other in done:
            step = other.column - symbol.column
            if other.component != symbol.component or abs(step) != 1:
                continue
            for pin in symbol.pins:
                net = self._signal(pin)
                if net is None or step not in symbol.sides(pin):
                    continue
                for far in other.pins:
                    there = self._signal(far)
                    if there and there is not net and -step in other.sides(far) and abs(symbol.y + pin.y - other.y - far.y) < 6:
                        return True
        return False


class Layout(Placement):
    """Symbols placed, wires routed, labels chosen: everything the drawing needs, no SVG yet."""

    def __init__(self, circuit: Circuit) -> None:
        super().__init__(circuit)
        self.groups: list[tuple[tuple, str, list]] = []  # (channel, net, [(symbol, pin, side)])
        self.labels: dict[tuple[str, str, int], str] = {}  # (ref, pin, side) -> net name
        self._route()

    def _route(self) -> None:
        """Which pins meet in which channel; the rest labelled; a drawn piece of a net that is not the whole net
        needs a label of its own, at a hole's free side, or it is not drawn as wires."""
        banned: set[tuple] = set()
        while True:
            self.groups = self._channel_groups(banned)
            unlabelled = self._labels()
            if not unlabelled:
                break
            banned |= unlabelled

    def _channel_groups(self, banned):
        columns = {(s.component, s.column) for s in self.symbols}
        facing = defaultdict(list)
        for symbol in self.symbols:
            if symbol.component < 0:
                continue
            for pin in symbol.pins:
                net = self._signal(pin)
                for side in symbol.sides(pin) if net else ():
                    channel = (symbol.component, symbol.column if side > 0 else symbol.column - 1)
                    between = {(channel[0], channel[1]), (channel[0], channel[1] + 1)} <= columns
                    if between and (channel, net.name) not in banned:
                        facing[(channel, net.name)].append((symbol, pin, side))
        return [(channel, net, ends) for (channel, net), ends in sorted(facing.items()) if len(ends) > 1]

    def _labels(self) -> set:
        self.labels = {}
        used = {(pin.ref, pin.number, side) for _, _, ends in self.groups for _, pin, side in ends}
        unlabelled = set()
        for net in self.circuit.nets:
            if is_rail(self.circuit, net.name):  # a symbol at every pin
                for ref, number in net.nodes:
                    self.labels[(ref, number, self._free_sides(ref, number, used)[0])] = net.name
                continue
            pieces = {node: frozenset([node]) for node in net.nodes}
            for _, name, ends in self.groups:
                if name == net.name:
                    joined = frozenset().union(*(pieces[(pin.ref, pin.number)] for _, pin, _ in ends))
                    for node in joined:
                        pieces[node] = joined
            distinct = sorted(set(pieces.values()), key=sorted)
            if len(distinct) == 1 and not net.off_board:
                continue
            for piece in distinct:
                ends = [(ref, number, side) for ref, number in sorted(piece) for side in self._free_sides(ref, number, used)]
                if ends:
                    self.labels[ends[0]] = net.name
                else:
                    unlabelled |= {(channel, name) for channel, name, group in self.groups
                                   if name == net.name and any((p.ref, p.number) in piece for _, p, _ in group)}  # fmt: skip
        return unlabelled

    def _free_sides(self, ref: str, number: str, used) -> list[int]:
        symbol, pin = self.where[(ref, number)]
        sides = [side for side in symbol.sides(pin) if (ref, number, side) not in used]
        if len(sides) == 2:  # a hole: the label on the side away from the group's anchor
            sides.sort(key=lambda side: side != (1 if symbol.column >= 0 else -1))
        return sides

    def label_text(self, ref: str, number: str, name: str) -> str:
        """The net's name, and the parts it goes to elsewhere when they are few."""
        net = self.circuit.net_at(ref, number)
        symbol = self.where[(ref, number)][0]
        if is_rail(self.circuit, name):
            return "" if name == "GND" else name
        far = [self.where[node][0] for node in net.nodes if self.where[node][0].region != symbol.region]
        far = sorted({s.key for s in far if s.through} or {s.key for s in far}, key=lambda key: (len(key), key))
        if net.off_board:
            return f"{name}: {net.off_board.split(',')[0]}"
        return f"{name} → {', '.join(far)}" if far and len(far) <= 2 else name


def label_extent(text: str) -> float:
    """How far a label reaches beyond its pin's end."""
    return 14 if not text else text_width(text, 10, True) + 20
