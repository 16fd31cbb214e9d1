"""The schematic's symbols: a part (or a module's sockets together) as a shape with pin ends.

A symbol knows its size and where each pin sits: a row (y from its top) and the sides its stub
leaves on, left (-1) or right (+1). ``mirror`` swaps the sides. The shape follows the kind of
part (its parts-list row says which): resistor, capacitor, diode, LED, fuse, button, buzzer,
NPN transistor; modules laid out as the boards are (the Pico's two rows, an MPR121 breakout's two
edges, the Pi's 2 x 20 header); anything else is a box with its pins' numbers and names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .circuit import Part
from .drawing import GREY, INK, Svg

ROW, STUB, HEAD, TWO_HEAD = 18, 20, 36, 18
BOX_MIN = 96


def text_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of a DejaVu Sans line's width (wider than the font's average)."""
    return len(text) * size * (0.72 if bold else 0.65)


@dataclass
class Pin:
    ref: str
    number: str
    y: float  # from the symbol's top
    sides: tuple[int, ...]  # (-1,), (1,) or (-1, 1) for a hole a wire passes through
    shown: str  # the pin's number as the builder counts it
    name: str


@dataclass
class Symbol:
    key: str
    kind: str  # "box", "module", "resistor", ...
    title: tuple[str, ...]
    width: float
    height: float
    pins: list[Pin]
    orientable: bool = True  # may be mirrored to face its neighbour
    reorderable: bool = False  # its rows may follow what they connect to (wire holes, pads)
    through: bool = False  # each pin has a stub on both sides
    mirrored: bool = False
    x: float = 0.0  # its top-left corner, once placed
    y: float = 0.0
    column: int = 0
    component: int = 0
    region: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def refs(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(pin.ref for pin in self.pins))

    def sides(self, pin: Pin) -> tuple[int, ...]:
        return tuple(-side for side in pin.sides) if self.mirrored else pin.sides

    def tip(self, pin: Pin, side: int) -> tuple[float, float]:
        x = self.x - STUB if side < 0 else self.x + self.width + STUB
        return (x, self.y + pin.y)

    def reorder(self, order: list[Pin]) -> None:
        rows = sorted(pin.y for pin in self.pins)
        for pin, y in zip(order, rows):
            pin.y = y


def kind_of(part: Part) -> str:
    bom = part.bom
    for key, kind in (("resistor", "resistor"), ("ceramic capacitor", "capacitor"), ("electrolytic", "polarised"),
                      ("diode", "diode"), ("LED 5 mm", "led"), ("fuse", "fuse"), ("arcade button", "button"),
                      ("NPN", "npn")):  # fmt: skip
        if bom.startswith(key):
            return kind
    return "buzzer" if bom == "buzzer" else "box"


def module_of(part: Part) -> str:
    """Sockets of one module drawn as one symbol: the Pico's two rows, an MPR121 breakout's two edges."""
    if part.value.startswith("Pico pins"):
        return "Raspberry Pi Pico"
    if part.value.startswith("MPR121"):
        return part.value.split(")")[0] + ")"
    return part.ref


def _pins(part: Part, sides, rows) -> list[Pin]:
    return [Pin(part.ref, number, HEAD + row * ROW + ROW / 2, side, part.label(number), name)
            for (number, name), side, row in zip(part.pins, sides, rows)]  # fmt: skip


def _box_width(pins: list[Pin], title: tuple[str, ...], through: bool = False) -> float:
    left = max((text_width(p.name, 10) for p in pins if -1 in p.sides), default=0)
    right = max((text_width(p.name, 10) for p in pins if 1 in p.sides), default=0)
    inner = max(left, right) + 12 if through else left + right + 24
    return round(max(BOX_MIN, inner, *(text_width(line, 11, True) + 12 for line in title)))


def _height(pins: list[Pin]) -> float:
    return max(pin.y for pin in pins) + ROW / 2 + 6


def module_symbol(key: str, parts: list[Part]) -> Symbol:
    if key == "Raspberry Pi Pico":
        left, right = parts
        pins = _pins(left, [(-1,)] * 20, range(20)) + _pins(right, [(1,)] * 20, range(19, -1, -1))
        title = ("Raspberry Pi Pico", f"{left.ref} + {right.ref}, USB end up")
    else:
        control, electrodes = parts
        pins = _pins(control, [(-1,)] * len(control.pins), range(len(control.pins)))
        pins += _pins(electrodes, [(1,)] * len(electrodes.pins), range(len(electrodes.pins)))
        title = (key, f"{control.ref} + {electrodes.ref}")
    return Symbol(key, "module", title, _box_width(pins, title), _height(pins), pins)


def part_symbol(part: Part) -> Symbol:
    kind = kind_of(part)
    if kind == "npn":  # base on the left; collector and emitter on the right, top and bottom
        names = dict((name, number) for number, name in part.pins)
        rows = {"C": 0, "B": 1, "E": 2}
        pins = [Pin(part.ref, names[n], TWO_HEAD + rows[n] * ROW + ROW / 2, (-1,) if n == "B" else (1,), part.label(names[n]), n)
                for n in ("C", "B", "E")]  # fmt: skip
        return Symbol(part.ref, kind, (f"{part.ref} {part.value}",), 56, TWO_HEAD + 3 * ROW, pins)
    if kind != "box" and len(part.pins) == 2:
        first, second = part.pins
        if kind in ("diode", "led"):  # anode on the left, the current flowing right
            first, second = sorted(part.pins, key=lambda pin: pin[1] != "A")
        title = (f"{part.ref} {part.value}",) if kind not in ("button", "led", "buzzer") else (part.ref, part.value)
        head = TWO_HEAD * len(title)
        pins = [Pin(part.ref, number, head + ROW / 2 + 4, (side,), part.label(number), name)
                for (number, name), side in ((first, -1), (second, 1))]  # fmt: skip
        width = max(64, *(text_width(line, 11, True) + 8 for line in title))
        return Symbol(part.ref, kind, title, round(width), head + ROW + 8, pins)
    through = part.footprint.startswith(("Connector_PinHeader", "TerminalBlock"))
    reorderable = part.footprint.startswith("Connector_PinHeader") or part.bom == "copper foil tape"
    if len(part.pins) in (26, 40):  # a 2 x 13 or 2 x 20 header: odd pins left, even right, as the board has them
        pins = [Pin(part.ref, number, HEAD + (int(number) - 1) // 2 * ROW + ROW / 2, (-1,) if int(number) % 2 else (1,),
                    part.label(number), name) for number, name in part.pins]  # fmt: skip
    elif any(name.endswith("Y") for _, name in part.pins):  # a buffer: inputs left, each output beside its input
        pins = _buffer_pins(part)
    else:
        pins = _pins(part, [(-1, 1) if through else (1,)] * len(part.pins), range(len(part.pins)))
    value = part.value if text_width(part.value, 11, True) < 190 else part.value.split(",")[0]
    title = (part.ref, value)
    return Symbol(part.ref, "box", title, _box_width(pins, title, through), _height(pins), pins, orientable=not through,
                  reorderable=reorderable, through=through)  # fmt: skip


def _buffer_pins(part: Part) -> list[Pin]:
    rows: dict[str, tuple[int, tuple[int, ...]]] = {}
    inputs = [name for _, name in part.pins if not name.endswith("Y") and name not in ("VCC", "GND")]
    inputs.sort(key=lambda name: (name[0], name.endswith("OE")))
    for row, name in enumerate(inputs):
        rows[name] = (row, (-1,))
        if name.endswith("A"):
            rows[name[:-1] + "Y"] = (row, (1,))
    rows["VCC"], rows["GND"] = (len(inputs) - 1, (1,)), (len(inputs), (1,))
    return [Pin(part.ref, number, HEAD + rows[name][0] * ROW + ROW / 2, rows[name][1], part.label(number), name)
            for number, name in part.pins]  # fmt: skip


def draw(svg: Svg, symbol: Symbol) -> None:
    """The body (its box in ``data-box`` for the checks) and its title; the pins are drawn apart."""
    x, y, w, h = symbol.x, symbol.y, symbol.width, symbol.height
    svg.items.append(f'<g class="symbol" data-key="{symbol.key}" data-box="{x:g} {y:g} {w:g} {h:g}">')
    if symbol.kind in ("box", "module"):
        svg.rect(x, y, w, h, fill="#f6f6f6" if symbol.kind == "box" else "#eef4ff", rx=4)
        svg.text(x + w / 2, y + 14, symbol.title[0], size=11, anchor="middle", weight="bold")
        svg.text(x + w / 2, y + 28, symbol.title[1], size=10, anchor="middle", fill=GREY)
    else:
        for index, line in enumerate(symbol.title):
            svg.text(x + w / 2, y + 13 + index * TWO_HEAD, line, size=11, anchor="middle", weight="bold" if index == 0 else "normal",
                     fill=INK if index == 0 else GREY)  # fmt: skip
        _GLYPHS[symbol.kind](svg, symbol)
    svg.items.append("</g>")


def _ends(symbol: Symbol) -> tuple[float, float, float, int]:
    """The two-terminal body: left x, right x, the lead's y, and +1 when the first pin is on the left."""
    y = symbol.y + symbol.pins[0].y
    return symbol.x, symbol.x + symbol.width, y, -1 if symbol.mirrored else 1


def _leads(svg: Svg, x0: float, x1: float, y: float, body: float) -> tuple[float, float]:
    mid = (x0 + x1) / 2
    svg.line([(x0, y), (mid - body / 2, y)], width=1.4)
    svg.line([(mid + body / 2, y), (x1, y)], width=1.4)
    return mid - body / 2, mid + body / 2


def _resistor(svg: Svg, s: Symbol) -> None:
    x0, x1, y, _ = _ends(s)
    a, b = _leads(svg, x0, x1, y, 32)
    svg.line([(a, y)] + [(a + 2 + 4 * i, y + (5 if i % 2 else -5)) for i in range(8)] + [(b, y)], width=1.4)


def _capacitor(svg: Svg, s: Symbol) -> None:
    x0, x1, y, first = _ends(s)
    a, b = _leads(svg, x0, x1, y, 8)
    svg.line([(a, y - 9), (a, y + 9)], width=2.2)
    if s.kind == "polarised":  # the curved plate on the minus side
        plus, minus = (a, b) if first > 0 else (b, a)
        svg.items.append(f'<path d="M{minus + 3 * (first):g},{y - 9} Q{minus - 2 * first:g},{y} {minus + 3 * first:g},{y + 9}" '
                         f'fill="none" stroke="{INK}" stroke-width="2.2"/>')  # fmt: skip
        svg.line([(plus, y - 9), (plus, y + 9)], width=2.2)
        svg.text(plus - 9 * first, y - 7, "+", size=10, anchor="middle")
    else:
        svg.line([(b, y - 9), (b, y + 9)], width=2.2)


def _diode(svg: Svg, s: Symbol) -> None:
    x0, x1, y, first = _ends(s)
    a, b = _leads(svg, x0, x1, y, 16)
    anode, cathode = (a, b) if first > 0 else (b, a)
    svg.items.append(f'<path d="M{anode:g},{y - 7} L{cathode:g},{y} L{anode:g},{y + 7} Z" fill="{INK}" stroke="{INK}"/>')
    svg.line([(cathode, y - 7), (cathode, y + 7)], width=2)
    if s.kind == "led":
        mid = (a + b) / 2
        for dx in (-2, 4):
            svg.line([(mid + dx, y - 9), (mid + dx + 5, y - 15)], width=1, arrow=True)


def _fuse(svg: Svg, s: Symbol) -> None:
    x0, x1, y, _ = _ends(s)
    a, b = _leads(svg, x0, x1, y, 26)
    svg.rect(a, y - 5, b - a, 10, fill="#ffffff", stroke_width=1.4)
    svg.line([(a, y), (b, y)], width=1)


def _button(svg: Svg, s: Symbol) -> None:
    x0, x1, y, _ = _ends(s)
    a, b = _leads(svg, x0, x1, y, 26)
    svg.circle(a + 2, y, 2, "#ffffff")
    svg.circle(b - 2, y, 2, "#ffffff")
    mid = (a + b) / 2
    svg.line([(a, y - 7), (b, y - 7)], width=1.6)
    svg.line([(mid, y - 7), (mid, y - 13)], width=1.4)


def _buzzer(svg: Svg, s: Symbol) -> None:
    x0, x1, y, _ = _ends(s)
    a, b = _leads(svg, x0, x1, y, 22)
    svg.rect(a, y - 6, b - a, 12, fill="#ffffff", stroke_width=1.4)
    mid = (a + b) / 2
    svg.items.append(f'<path d="M{mid - 8:g},{y - 6} A8,6 0 0 1 {mid + 8:g},{y - 6}" fill="none" stroke="{INK}" stroke-width="1.2"/>')


def _npn(svg: Svg, s: Symbol) -> None:
    side = -1 if s.mirrored else 1
    base_x = s.x if side > 0 else s.x + s.width
    far_x = s.x + s.width if side > 0 else s.x
    ys = {pin.name: s.y + pin.y for pin in s.pins}
    cx, cy = s.x + s.width / 2, ys["B"]
    svg.circle(cx, cy, 15, "#ffffff")
    bar = cx - side * 5
    svg.line([(base_x, cy), (bar, cy)], width=1.4)
    svg.line([(bar, cy - 9), (bar, cy + 9)], width=2.2)
    svg.line([(bar, cy - 4), (cx + side * 7, cy - 12), (cx + side * 7, ys["C"]), (far_x, ys["C"])], width=1.4)
    svg.line([(bar, cy + 4), (cx + side * 7, cy + 12)], width=1.4, arrow=True)
    svg.line([(cx + side * 7, cy + 12), (cx + side * 7, ys["E"]), (far_x, ys["E"])], width=1.4)


_GLYPHS = {"resistor": _resistor, "capacitor": _capacitor, "polarised": _capacitor, "diode": _diode, "led": _diode,
           "fuse": _fuse, "button": _button, "buzzer": _buzzer, "npn": _npn}  # fmt: skip
