"""``wiring/schematic.svg``: the circuit as a builder follows it, drawn from ``circuit.build`` alone, so it
cannot disagree with the netlist.

``schematic_layout`` decides where each part sits and which pins meet by wires (its docstring says
the rules); here the columns get their widths, the wires their tracks, the regions their place on
the page, and everything is drawn.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from .circuit import Circuit
from .drawing import GREY, INK, WIRE_HEX, Svg
from .schematic_layout import CHAIN, GAP, LABEL, MARGIN, PAD, PI, RAIL_COLOUR, SUPPLY, TILES, TRACK, Layout, label_extent
from .symbols import STUB, Symbol, draw, text_width

TOP = 112  # below the title and the key


class Page:
    """Widths, tracks and offsets for a ``Layout``; then the SVG."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.track_x: dict[int, float] = {}
        self.boxes: dict[str, tuple[float, float, float, float]] = {}
        self.width = self.height = 0.0

    def reach(self, symbol: Symbol, side: int) -> float:
        """How far the labels (or a no-connect cross) reach beyond the pins' ends on one side."""
        out = 0.0
        for pin in symbol.pins:
            name = self.layout.labels.get((pin.ref, pin.number, side))
            if name is not None:
                out = max(out, label_extent(self.layout.label_text(pin.ref, pin.number, name)))
            elif self.layout.net_of(pin) is None and symbol.sides(pin)[-1] == side:
                out = max(out, 10)
        return out

    def _component(self, symbols: list[Symbol], groups: list[int]) -> tuple[float, float]:
        """Columns side by side, channels between them wide enough for their labels and tracks."""
        columns = sorted({s.column for s in symbols})
        half = {c: max(s.width for s in symbols if s.column == c) / 2 + STUB for c in columns}

        def reach(column: int, side: int) -> float:
            return max(max(0.0, s.width / 2 + STUB + self.reach(s, side) - half[column]) for s in symbols if s.column == column)

        centre = {}
        x = reach(columns[0], -1) + half[columns[0]]
        for column in columns:
            centre[column] = x
            here = [i for i in groups if self.layout.groups[i][0][1] == column and not self._straight(i)]
            start = x + half[column] + reach(column, 1) + MARGIN
            for slot, index in enumerate(self._track_order(here)):
                self.track_x[index] = start + slot * TRACK
            width = reach(column, 1) + 2 * MARGIN + max(len(here) - 1, 0) * TRACK
            if column + 1 in half:
                x += half[column] + width + reach(column + 1, -1) + half[column + 1]
        for symbol in symbols:
            symbol.x = centre[symbol.column] - symbol.width / 2
        right = centre[columns[-1]] + half[columns[-1]] + reach(columns[-1], 1)
        return right, max(s.y + s.height for s in symbols)

    def _straight(self, index: int) -> bool:
        """Two pins at one height: a straight wire, no track."""
        ends = self.layout.groups[index][2]
        return len(ends) == 2 and ends[0][0].y + ends[0][1].y == ends[1][0].y + ends[1][1].y

    def _track_order(self, indexes: list[int]) -> list[int]:
        """Left to right so that a wire from the left never runs along one from the right at the same height."""
        ys = {i: [(s.y + p.y, side) for s, p, side in self.layout.groups[i][2]] for i in indexes}
        before = {i: set() for i in indexes}
        for a in indexes:
            for b in indexes:
                if a != b and any(abs(ya - yb) < 6 for ya, sa in ys[a] if sa > 0 for yb, sb in ys[b] if sb < 0):
                    before[b].add(a)  # a's left pin and b's right pin at one height: a's track first
        order: list[int] = []
        waiting = sorted(indexes, key=lambda i: (min(y for y, _ in ys[i]), i))
        while waiting:
            ready = next((i for i in waiting if before[i] <= set(order)), waiting[0])  # a cycle cannot arise here
            order.append(ready)
            waiting.remove(ready)
        return order

    def place(self) -> None:
        """Each region's groups stacked, its rails-only parts in a row below; the regions in two columns."""
        by_region = defaultdict(lambda: defaultdict(list))
        for symbol in self.layout.symbols:
            by_region[symbol.region][symbol.component].append(symbol)
        sizes = {}
        for region, components in by_region.items():
            y, width, moves = 30.0, 0.0, []
            for component, symbols in sorted(components.items(), key=lambda item: item[0] < 0):
                groups = [i for i, (channel, _, _) in enumerate(self.layout.groups) if channel[0] == component]
                if component < 0:
                    w, h = self._row(symbols)
                else:
                    w, h = self._component(symbols, groups)
                moves.append((symbols, groups, y))
                y += h + 2 * GAP
                width = max(width, w)
            sizes[region] = (width + 2 * PAD, y - 2 * GAP + PAD, moves)
        stacks = [[PI, SUPPLY, CHAIN], [TILES]]
        x = 20.0
        for stack in stacks:
            y = TOP
            for region in (r for r in stack if r in sizes):
                width, height, moves = sizes[region]
                for symbols, groups, dy in moves:
                    for symbol in symbols:
                        symbol.x += x + PAD
                        symbol.y += y + dy
                    for index in groups:
                        if index in self.track_x:
                            self.track_x[index] += x + PAD
                self.boxes[region] = (x, y, width, height)
                y += height + 30
            x += max((sizes[r][0] for r in stack if r in sizes), default=0) + 30
            self.height = max(self.height, y)
        self.width = x - 10

    def _row(self, symbols: list[Symbol]) -> tuple[float, float]:
        x = 0.0
        for symbol in symbols:
            x += self.reach(symbol, -1) + STUB
            symbol.x, symbol.y = x, 0.0
            x += symbol.width + STUB + self.reach(symbol, 1) + MARGIN
        return x - MARGIN, max(s.height for s in symbols)

    # -- drawing ----------------------------------------------------------------------------------------------------
    def render(self, svg: Svg) -> None:
        for region, (x, y, w, h) in self.boxes.items():
            svg.rect(x, y, w, h, fill="none", stroke="#9aa5b1", rx=8, dash="8 4")
            svg.text(x + 12, y + 20, region, size=14, weight="bold", fill="#3d4a57")
        for symbol in self.layout.symbols:
            draw(svg, symbol)
        for index, (_, net, ends) in enumerate(self.layout.groups):
            self._wires(svg, self.track_x.get(index, 0.0), net, ends)
        for symbol in self.layout.symbols:
            for pin in symbol.pins:
                self._pin(svg, symbol, pin)

    def _wires(self, svg: Svg, x: float, net: str, ends) -> None:
        tips = [(side, symbol.tip(pin, side)) for symbol, pin, side in ends]
        ys = sorted({y for _, (_, y) in tips})
        svg.items.append(f'<g class="wire" data-net="{net}">')
        if len(tips) == 2 and len(ys) == 1:
            svg.line([tips[0][1], tips[1][1]], stroke=INK, width=1.4)
        else:
            if len(ys) > 1:
                svg.line([(x, ys[0]), (x, ys[-1])], stroke=INK, width=1.4)
            for _, (tx, ty) in tips:
                svg.line([(tx, ty), (x, ty)], stroke=INK, width=1.4)
            degree = Counter(ty for _, (_, ty) in tips)
            for y in list(degree):
                degree[y] += 1 if y in (ys[0], ys[-1]) else 2
                if degree[y] >= 3:
                    svg.circle(x, y, 3, INK, stroke=INK)
        svg.items.append("</g>")

    def _pin(self, svg: Svg, symbol: Symbol, pin) -> None:
        layout = self.layout
        routed = {side for _, _, ends in layout.groups for s, p, side in ends if p is pin}
        labelled = {side for side in (-1, 1) if (pin.ref, pin.number, side) in layout.labels}
        sides = symbol.sides(pin)
        net = layout.net_of(pin)
        drawn = [side for side in sides if side in routed | labelled] or [sides[-1] if net is None else sides[0]]
        tips = [symbol.tip(pin, side) for side in drawn]
        at = " ".join(f"{x:g},{y:g}" for x, y in tips)
        svg.items.append(f'<g class="pin" data-ref="{pin.ref}" data-pin="{pin.number}" data-ends="{at}">')
        box = symbol.kind in ("box", "module")
        for side, (tx, ty) in zip(drawn, tips):
            edge = tx - side * STUB
            svg.line([(edge, ty), (tx, ty)], stroke=INK, width=1.4)
            if box and side == drawn[0]:
                svg.text(edge + side * 4, ty - 4, pin.shown, size=9, anchor="start" if side > 0 else "end", fill=GREY)
            elif not box and side == drawn[0] and pin.name not in ("1", "2") and symbol.kind != "polarised":
                svg.text(edge + side * STUB / 2, ty - 4, pin.name.replace("-", "−"), size=9, anchor="middle", fill=GREY)
            name = layout.labels.get((pin.ref, pin.number, side))
            if name is not None:
                self._label(svg, tx, ty, side, name, layout.label_text(pin.ref, pin.number, name))
            elif net is None:
                svg.line([(tx - 4, ty - 4), (tx + 4, ty + 4)], stroke=INK, width=1.2)
                svg.line([(tx - 4, ty + 4), (tx + 4, ty - 4)], stroke=INK, width=1.2)
        if box:
            if symbol.through:
                svg.text(symbol.x + symbol.width / 2, symbol.y + pin.y + 4, pin.name, size=10, anchor="middle")
            else:
                side = sides[0]
                edge = symbol.x if side < 0 else symbol.x + symbol.width
                svg.text(edge - side * 5, symbol.y + pin.y + 4, pin.name, size=10, anchor="start" if side < 0 else "end")
        svg.items.append("</g>")

    def _label(self, svg: Svg, x: float, y: float, side: int, name: str, text: str) -> None:
        svg.items.append(f'<g class="label" data-net="{name}" data-at="{x:g},{y:g}">')
        if name == "GND":  # the ground symbol
            gx = x + side * 7
            svg.line([(x, y), (gx, y), (gx, y + 3)], stroke=INK, width=1.4)
            for step, half in enumerate((7, 4.5, 2)):
                svg.line([(gx - half, y + 3 + 3 * step), (gx + half, y + 3 + 3 * step)], stroke=INK, width=1.4)
        elif name.startswith("+") and text == name:  # a supply rail's flag: a bar and its name
            colour = next((c for key, c in RAIL_COLOUR.items() if key in name), WIRE_HEX["red"])
            svg.line([(x, y), (x + side * 6, y)], stroke=INK, width=1.4)
            svg.line([(x + side * 6, y - 6), (x + side * 6, y + 6)], stroke=colour, width=2.4)
            svg.text(x + side * 11, y + 4, name, size=10, anchor="start" if side > 0 else "end", fill=colour, weight="bold")
        else:  # a net label: a flag pointing at the pin
            width = text_width(text, 10, True) + 12
            end = x + side * (width + 6)
            svg.line([(x, y), (x + side * 6, y - 7), (end, y - 7), (end, y + 7), (x + side * 6, y + 7), (x, y)],
                     stroke=LABEL, width=1.1)  # fmt: skip
            svg.text((x + side * 6 + end) / 2, y + 4, text, size=10, anchor="middle", fill=LABEL, weight="bold")
        svg.items.append("</g>")


def schematic_svg(circuit: Circuit) -> str:
    page = Page(Layout(circuit))
    page.place()
    notes = _notes(circuit)
    width, height = round(page.width), round(page.height + 20 * len(notes) + 30)
    svg = Svg(width, height, "codenames-board: schematic of the tile board and the Pi's wiring")
    svg.text(20, 34, "Schematic: the tile board and the Pi's wiring", size=20, weight="bold")
    key = ("Lines are wires; a dot joins wires that cross it. A blue flag names a net: flags with the same name are one wire "
           "(→ the parts it reaches in another box). Ground symbol: GND; red and orange bars: the 5 V and 3.3 V rails.")  # fmt: skip
    svg.text(20, 58, key, size=12)
    svg.text(20, 76, "Grey numbers: the pins as the part counts them; names inside. × not connected. Boxes sit as the boards "
             "do (the Pico's USB end up, the Pi's header pin 1 top left). Parts list: hardware/bom.csv; layout: perfboard.svg.",
             size=12)  # fmt: skip
    page.render(svg)
    for index, line in enumerate(notes):
        svg.text(20, page.height + 10 + 20 * index, line, size=12, weight="bold" if index == 0 else "normal")
    return svg.render()


def _notes(circuit: Circuit) -> list[str]:
    notes = ["USB cable (not drawn): the Pico's micro-USB to a USB port of the Pi: the tile protocol and the Pico's 3.3 V "
             "(the MPR121 boards' too)."]  # fmt: skip
    feeds = [p for p in circuit.parts if p.bom == "lever connector 5-way" and p.place == "behind the DC jack" and "jack" in dict(p.pins).values()]
    if feeds:
        ways = [name for _, name in feeds[0].pins if name not in ("jack", "spare")]
        to = f"to {ways[0]}" if len(ways) == 1 else f"to each feed: {', '.join(ways)}"
        notes.append(f"LED supply: the DC jack → the fuse → the lever connectors ({', '.join(p.ref for p in feeds)}) → an 18 AWG pair "
                     f"{to}; the tile board's feed goes on with the data to the first LED.")  # fmt: skip
    notes.append("Every GND is one net: the Pi, the Pico, the MPR121 boards, the level shifter, the LED supply.")
    return notes
