"""The table's circuit as one model of parts and nets: the schematic, the KiCad netlist and the
perfboard layout are all drawn from it.

The pins come from the config (the Pi) and ``firmware/board.py`` (the Pico, the MPR121 boards,
the pads); the parts' values from ``electrical``; the parts' own pin numbers from their datasheets
(noted at each part). Parts on the tile board carry a KiCad library footprint; parts elsewhere in
the box (the Pi, the buttons, the buzzer, the pads, the first LED) carry none and say where they
are. Pure functions, same input, same model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import ModuleType

from codenames_board.config import BUTTON_PINS, ENCODER_PINS, SPI_DISPLAY_PINS, Config
from codenames_board.engine.key import tile_name
from . import electrical
from .pinouts import PI_GROUNDS, PI_HEADER, PI_PHYSICAL, PICO_GROUNDS, PICO_PHYSICAL, PICO_PINS, _pi_xy, _pico_xy, nearest_ground

TILE_BOARD = "tile board"

# The Adafruit 1982 breakout (its STEMMA QT revision, as its board file has it; the older revision's seven
# pins run in another order): seven pins on one edge, the twelve electrodes and a GND on the other, numbered here
# left to right as printed (IRQ is printed INT).
MPR121_CONTROL = ("VIN", "3Vo", "GND", "SCL", "SDA", "IRQ", "ADDR")
MPR121_ELECTRODES = tuple(f"E{n}" for n in range(11, -1, -1)) + ("GND",)
# SN74AHCT125 (TI datasheet, D/N package): four buffers, OE active low.
AHCT125 = ("1OE", "1A", "1Y", "2OE", "2A", "2Y", "GND", "3Y", "3A", "3OE", "4Y", "4A", "4OE", "VCC")
BC337_PINS = ("C", "B", "E")  # onsemi BC337: TO-92 pin 1 collector, 2 base, 3 emitter
WS2812B_PINS = ("VDD", "DOUT", "VSS", "DIN")  # the WS2812B datasheet's pin 1-4

FOOTPRINT = {
    "socket20": "Connector_PinSocket_2.54mm:PinSocket_1x20_P2.54mm_Vertical",
    "socket7": "Connector_PinSocket_2.54mm:PinSocket_1x07_P2.54mm_Vertical",
    "socket13": "Connector_PinSocket_2.54mm:PinSocket_1x13_P2.54mm_Vertical",
    "dip14": "Package_DIP:DIP-14_W7.62mm_Socket",
    "r_quarter": "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
    "r_half": "Resistor_THT:R_Axial_DIN0309_L9.0mm_D3.2mm_P12.70mm_Horizontal",
    "c_disc": "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
    "c_bulk": "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "to92": "Package_TO_SOT_THT:TO-92_Inline_Wide",
    "do35": "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
    "tb2": "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal",
    "tb3": "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-3-5.08_1x03_P5.08mm_Horizontal",
}


def wire_points(count: int) -> str:
    """Holes a row of wires is soldered into (no header fitted): a 2.54 mm pin header's footprint."""
    return f"Connector_PinHeader_2.54mm:PinHeader_1x{count:02d}_P2.54mm_Vertical"


@dataclass(frozen=True)
class Part:
    ref: str
    value: str
    footprint: str  # a KiCad library footprint; "" for a part off the tile board
    pins: tuple[tuple[str, str], ...]  # (number, name)
    bom: str  # its row of hardware/bom.csv
    place: str  # TILE_BOARD, or where else in the box it sits
    note: str = ""
    bom_share: float = 1.0  # how much of one unit of its BOM row it takes (a strip cut to length)
    shown: tuple[str, ...] = ()  # the pin numbers as a builder counts them, if not the footprint's
    leads: tuple[tuple[str, str], ...] = ()  # a connector's wires: pin by pin, the (ref, pin number) each one goes to

    def name_of(self, number: str) -> str:
        return dict(self.pins)[number]

    def number_of(self, name: str) -> str:
        matches = [number for number, pin in self.pins if pin == name]
        if len(matches) != 1:
            raise KeyError(f"{self.ref} has {len(matches)} pins named {name}")
        return matches[0]

    def label(self, number: str) -> str:
        """The pin's number as the builder counts it (the Pico's 21-40 on its second socket)."""
        return self.shown[int(number) - 1] if self.shown else number


@dataclass(frozen=True)
class Net:
    name: str
    nodes: tuple[tuple[str, str], ...]  # (ref, pin number)
    off_board: str = ""  # where the net leaves the drawn circuit (a wire on to the chain, say)


@dataclass(frozen=True)
class Circuit:
    parts: tuple[Part, ...]
    nets: tuple[Net, ...]

    def part(self, ref: str) -> Part:
        return next(part for part in self.parts if part.ref == ref)

    def net_at(self, ref: str, number: str) -> Net | None:
        return next((net for net in self.nets if (ref, number) in net.nodes), None)


def _numbered(names) -> tuple[tuple[str, str], ...]:
    return tuple((str(number), name) for number, name in enumerate(names, 1))


def _two(first: str, second: str) -> tuple[tuple[str, str], ...]:
    return (("1", first), ("2", second))


class _Builder:
    """Parts and the nets between them, joined by (ref, pin name) or (ref, pin number)."""

    def __init__(self) -> None:
        self.parts: dict[str, Part] = {}
        self.nets: dict[str, list[tuple[str, str]]] = {}
        self.off_board: dict[str, str] = {}

    def add(self, part: Part) -> Part:
        self.parts[part.ref] = part
        return part

    def join(self, net: str, *pins: tuple[str, str], off_board: str = "") -> None:
        """``pins``: (ref, name) or (ref, "#number")."""
        nodes = self.nets.setdefault(net, [])
        for ref, pin in pins:
            number = pin[1:] if pin.startswith("#") else self.parts[ref].number_of(pin)
            if any((ref, number) in other for other in self.nets.values()):
                raise ValueError(f"{ref} pin {number} is in two nets")
            nodes.append((ref, number))
        if off_board:
            self.off_board[net] = off_board

    def has(self, ref: str, number: int | str) -> bool:
        return any((ref, str(number)) in nodes for nodes in self.nets.values())

    def circuit(self) -> Circuit:
        nets = tuple(
            Net(name, tuple(sorted(nodes, key=_node_order)), self.off_board.get(name, ""))
            for name, nodes in self.nets.items()
        )
        parts = sorted(self.parts.values(), key=lambda part: _node_order((part.ref, "")))
        return Circuit(tuple(parts), nets)


def _node_order(node: tuple[str, str]) -> tuple:
    ref, number = node
    letters = ref.rstrip("0123456789")
    return (letters, int(ref[len(letters) :]), int(number) if number.isdigit() else 0, number)


def _net_for_display(use: str) -> str:
    return use.split(" (")[0].replace("piscreen ", "LCD_").replace(" ", "_")


def pad_groups(board: ModuleType) -> list[list[tuple[int, int]]]:
    """For each MPR121: its (electrode, tile) pairs, electrode order."""
    return [
        sorted((electrode, tile) for tile, (owner, electrode) in enumerate(board.PADS) if owner == controller)
        for controller in range(len(board.MPR121S))
    ]


def i2c_nets(bus: int) -> tuple[str, str]:
    """The (SDA, SCL) nets of the Pico's I2C bus ``bus``: I2C_SDA and I2C_SCL for bus 0, I2C_SDA_1 and I2C_SCL_1 for 1."""
    return ("I2C_SDA", "I2C_SCL") if bus == 0 else (f"I2C_SDA_{bus}", f"I2C_SCL_{bus}")


def _tile_board(b: _Builder, board: ModuleType) -> None:
    pico = [PICO_PINS[:20], PICO_PINS[20:]]
    b.add(Part("J1", "Pico pins 1-20", FOOTPRINT["socket20"], _numbered(pico[0]), "female header strip", TILE_BOARD,
               "the Raspberry Pi Pico's left row (USB end: pin 1)", bom_share=0.5))  # fmt: skip
    b.add(Part("J2", "Pico pins 21-40", FOOTPRINT["socket20"], _numbered(pico[1]), "female header strip", TILE_BOARD,
               "the Pico's right row: socket pin 1 is Pico pin 21", bom_share=0.5,
               shown=tuple(str(pin) for pin in range(21, 41))))  # fmt: skip

    def pico(pin: int) -> tuple[str, str]:
        """A Pico pin (1-40) on its socket."""
        return ("J1", f"#{pin}") if pin <= 20 else ("J2", f"#{pin - 20}")

    sda, data = PICO_PHYSICAL[board.I2C_SDA], PICO_PHYSICAL[board.LED_PIN]
    i2c_ground, led_ground = nearest_ground(sda, PICO_GROUNDS, _pico_xy), nearest_ground(data, PICO_GROUNDS, _pico_xy)
    for bus, pins in enumerate(board.I2C_PINS):
        for name, gp in zip(i2c_nets(bus), pins):
            b.join(name, pico(PICO_PHYSICAL[gp]))
    b.join("+3V3", pico(PICO_PINS.index("3V3(OUT)") + 1))
    b.join("GND", *(pico(ground) for ground in sorted({i2c_ground, led_ground})))
    b.join("LED_DATA_3V3", pico(data))
    # ADDR to a supply rail only: on SDA or SCL (0x5C, 0x5D) the breakout's 10 kΩ ADDR pull-down loads that line.
    addr_net = {0x5A: "GND", 0x5B: "+3V3"}
    groups = pad_groups(board)
    for index, (bus, address, irq) in enumerate(board.MPR121S):
        control, electrodes, wires, pads = (f"J{3 + 2 * index}", f"J{4 + 2 * index}", f"J{9 + index}", f"TP{1 + index}")
        label = f"MPR121 {index + 1} (0x{address:02X})"
        b.add(Part(control, f"{label} power, I2C", FOOTPRINT["socket7"], _numbered(MPR121_CONTROL), "female header strip",
                   TILE_BOARD, "socket for the breakout's seven-pin edge", bom_share=7 / 40))  # fmt: skip
        b.add(Part(electrodes, f"{label} electrodes", FOOTPRINT["socket13"], _numbered(MPR121_ELECTRODES),
                   "female header strip", TILE_BOARD, "socket for the breakout's electrode edge", bom_share=13 / 40))  # fmt: skip
        b.join("+3V3", (control, "VIN"))
        b.join("GND", (control, "GND"))
        sda_net, scl_net = i2c_nets(bus)
        b.join(scl_net, (control, "SCL"))
        b.join(sda_net, (control, "SDA"))
        b.join(addr_net[address], (control, "ADDR"))
        b.join(f"IRQ_{index + 1}", (control, "IRQ"), pico(PICO_PHYSICAL[irq]))  # the Pico's internal pull-up holds it high
        group = groups[index]
        if not group:
            continue
        names = [tile_name(tile) for _, tile in group]
        span = names[0] + ("" if len(names) == 1 else f"-{names[-1]}")
        b.add(Part(wires, f"pad wires {span}", wire_points(len(group)), _numbered(names), "hook-up wire", TILE_BOARD,
                   "the pad wires soldered in, each through the strain-relief hole beside it", bom_share=0))  # fmt: skip
        b.add(Part(pads, f"touch pads {span}", "", _numbered(names), "copper foil tape", "under the tiles",
                   "copper foil under each tile's card", bom_share=0))  # fmt: skip
        for electrode, tile in group:
            b.join(f"PAD_{tile_name(tile)}", (electrodes, f"E{electrode}"), (wires, tile_name(tile)), (pads, tile_name(tile)))

    # The level shifter (wiring/README.md, "The level shifter").
    b.add(Part("U1", "74AHCT125", FOOTPRINT["dip14"], _numbered(AHCT125), "level shifter", TILE_BOARD, "in a DIP-14 socket"))
    b.add(Part("R1", "330", FOOTPRINT["r_quarter"], _two("1", "2"), "resistor 330 Ω", TILE_BOARD,
               "in the LED data line at U1's output (1Y): the line's series termination"))  # fmt: skip
    b.add(Part("R2", "10k", FOOTPRINT["r_quarter"], _two("1", "2"), "resistor 10 kΩ", TILE_BOARD, "holds the data input low"))
    b.add(Part("C1", "100n", FOOTPRINT["c_disc"], _two("1", "2"), "ceramic capacitor 100 nF", TILE_BOARD, "U1's bypass"))
    b.add(Part("C2", "1000u 10V", FOOTPRINT["c_bulk"], _two("+", "-"), "electrolytic capacitor 1000 µF", TILE_BOARD,
               "across the LED chain's 5 V at its start"))  # fmt: skip
    b.add(Part("J12", "LED supply in", FOOTPRINT["tb2"], _two("+5V", "GND"), "terminal block 5.08 mm", TILE_BOARD,
               "from the lever connectors behind the DC jack (18 AWG)", leads=(("J17", "2"), ("J18", "2"))))  # fmt: skip
    b.add(Part("J13", "LED chain out", FOOTPRINT["tb3"], _numbered(("+5V", "DATA", "GND")), "terminal block 5.08 mm",
               TILE_BOARD, "to the first LED (chain index 0)", leads=(("D3", "1"), ("D3", "4"), ("D3", "3"))))  # fmt: skip
    b.join("LED_DATA_3V3", ("U1", "1A"), ("R2", "1"))
    b.join("GND", ("R2", "2"), ("U1", "1OE"), ("U1", "GND"), ("U1", "2A"), ("U1", "3A"), ("U1", "4A"), ("C1", "2"),
           ("C2", "-"), ("J12", "GND"), ("J13", "GND"))  # fmt: skip
    b.join("+5V_LED", ("U1", "VCC"), ("U1", "2OE"), ("U1", "3OE"), ("U1", "4OE"), ("C1", "1"), ("C2", "+"), ("J12", "+5V"),
           ("J13", "+5V"))  # fmt: skip
    b.join("LED_DATA_5V", ("U1", "1Y"), ("R1", "1"))
    b.join("LED_DIN", ("R1", "2"), ("J13", "DATA"))

    # The buzzer's driver (electrical.buzzer_driver(); wiring/README.md, "The buzzer's driver"): its 5 V is
    # the LED supply's, here on the board; the display's ribbon covers the Pi's 5 V pins.
    d = electrical.buzzer_driver()
    b.add(Part("J14", "from the Pi", wire_points(2), _two("BUZZER", "GND"), "button wire", TILE_BOARD,
               "two wires from the Pi's header: GPIO and GND", bom_share=0))  # fmt: skip
    b.add(Part("J15", "to the buzzer", wire_points(2), _two("+5V", "COIL"), "button wire", TILE_BOARD,
               "two wires on to the buzzer", bom_share=0, leads=(("LS1", "1"), ("LS1", "2"))))  # fmt: skip
    b.add(Part("R3", _value(d.base_ohms), FOOTPRINT["r_quarter"], _two("1", "2"), f"resistor {electrical.ohms(d.base_ohms)}",
               TILE_BOARD, "the transistor's base resistor"))  # fmt: skip
    b.add(Part("R4", f"{_value(d.series_ohms)} {d.series_watts:g}W", FOOTPRINT["r_half" if d.series_watts > 0.25 else "r_quarter"],
               _two("1", "2"), f"resistor {electrical.ohms(d.series_ohms)}", TILE_BOARD, "in series with the coil"))  # fmt: skip
    b.add(Part("Q1", d.transistor.name, FOOTPRINT["to92"], _numbered(BC337_PINS), f"NPN transistor {d.transistor.name}",
               TILE_BOARD, "flat face towards you, legs down: C B E"))  # fmt: skip
    b.add(Part("D1", electrical.FLYBACK.name, FOOTPRINT["do35"], _two("K", "A"), f"diode {electrical.FLYBACK.name}",
               TILE_BOARD, "the ring is the cathode (K), to 5 V"))  # fmt: skip
    b.join("BUZZER", ("J14", "BUZZER"), ("R3", "1"))
    b.join("+5V_LED", ("J15", "+5V"), ("D1", "K"))
    b.join("GND", ("J14", "GND"), ("Q1", "E"))
    b.join("BUZZER_BASE", ("R3", "2"), ("Q1", "B"))
    b.join("BUZZER_COIL", ("J15", "COIL"), ("D1", "A"), ("R4", "1"))
    b.join("BUZZER_C", ("R4", "2"), ("Q1", "C"))


#: The display's 2 x 13 ribbon sits on the Pi's pins 1-26 (the parts list's SPI display): no wire may land there.
RIBBON_PINS = 26
#: The Pi's grounds go out on harnesses, one GND pin each (a pin takes one Dupont housing): which [pins] keys each
#: harness serves. The names are mechanics.GROUND_HARNESSES'.
HARNESS_SIDES = {
    "operatives' side": ("sand_timer", "end_turn", "status_led"),
    "spymasters' side": (*BUTTON_PINS, *ENCODER_PINS, "undo", "new_game"),
    "the buzzer's driver": ("buzzer",),
}


def free_grounds() -> tuple[int, ...]:
    """The Pi's GND pins outside the display's ribbon."""
    return tuple(pin for pin in PI_GROUNDS if pin > RIBBON_PINS)


def ground_harnesses(config: Config) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Each ground harness: its GND pin and the [pins] keys it serves (those fitted). The free GND pins go to the
    harnesses so that each lies as close as it can to its signals' pins on the header (the least sum of squared
    distances), its Dupont housing beside theirs."""
    from itertools import permutations

    unused = ENCODER_PINS if config.controls.clue_input == "buttons" else BUTTON_PINS
    sides = {name: tuple(key for key in keys if key not in unused and getattr(config.pins, key) is not None)
             for name, keys in HARNESS_SIDES.items()}  # fmt: skip
    sides = {name: keys for name, keys in sides.items() if keys}
    grounds = free_grounds()
    if len(sides) > len(grounds):
        raise ValueError(f"{len(sides)} ground harnesses and {len(grounds)} free GND pins")

    def cost(pins: tuple[int, ...]) -> tuple:
        total = 0
        for ground, keys in zip(pins, sides.values()):
            gx, gy = _pi_xy(ground)
            for key in keys:
                x, y = _pi_xy(PI_PHYSICAL[getattr(config.pins, key)])
                total += (x - gx) ** 2 + (y - gy) ** 2
        return (total, pins)

    best = min(permutations(grounds, len(sides)), key=cost)
    return {name: (ground, keys) for (name, keys), ground in zip(sides.items(), best)}


def harness_ground(config: Config, key: str) -> int:
    """The GND pin of the harness that serves a [pins] key."""
    return next(ground for ground, keys in ground_harnesses(config).values() if key in keys)


def _value(ohms: float) -> str:
    return f"{ohms / 1000:g}k" if ohms >= 1000 else f"{ohms:g}"


def _pi_side(b: _Builder, config: Config, board: ModuleType) -> None:
    b.add(Part("A1", "Raspberry Pi 40-pin header", "", _numbered(str(name) if isinstance(name, str) else f"GPIO{name}"
               for name in PI_HEADER), "Raspberry Pi", "the Pi", "the pins as the header counts them"))  # fmt: skip
    buzzer_pin = PI_PHYSICAL[config.pins.buzzer]
    buzzer_ground = harness_ground(config, "buzzer")
    b.join("GND", ("A1", f"#{buzzer_ground}"))
    b.join("BUZZER", ("A1", f"#{buzzer_pin}"))
    b.parts["J14"] = replace(b.parts["J14"], leads=(("A1", str(buzzer_pin)), ("A1", str(buzzer_ground))))
    unused = ENCODER_PINS if config.controls.clue_input == "buttons" else BUTTON_PINS
    buttons = [name for name in ("sand_timer", "end_turn", *BUTTON_PINS, "encoder_push", "undo", "new_game")
               if name not in unused and getattr(config.pins, name) is not None]  # fmt: skip
    labels = {"sand_timer": "SAND TIMER", "end_turn": "END TURN", "clue_down": "CLUE DOWN", "clue_up": "CLUE UP",
              "clue_confirm": "CONFIRM", "encoder_push": "encoder push", "undo": "UNDO", "new_game": "NEW GAME"}  # fmt: skip
    grounds: dict[int, list[tuple[str, str]]] = {}
    for number, name in enumerate(buttons, 1):
        gpio = getattr(config.pins, name)
        pin = PI_PHYSICAL[gpio]
        ref = f"SW{number}"
        if name == "encoder_push":
            b.add(Part(ref, "rotary encoder EC11", "", _numbered(("A", "C", "B", "S1", "S2")), "rotary encoder (optional)",
                       "the spymasters' panel", "the encoder's C pin and one switch pin to GND"))  # fmt: skip
            for key, pin_name in (("encoder_a", "A"), ("encoder_b", "B")):
                b.join(key.upper(), ("A1", f"#{PI_PHYSICAL[getattr(config.pins, key)]}"), (ref, pin_name))
            b.join("ENCODER_PUSH", ("A1", f"#{pin}"), (ref, "S1"))
            grounds.setdefault(harness_ground(config, name), []).extend([(ref, "C"), (ref, "S2")])
            continue
        big = name == "sand_timer"
        b.add(Part(ref, f"{labels[name]} button", "", _two("NO", "COM"), "arcade button 60 mm" if big else "arcade button 30 mm",
                   "the operatives' side" if name in ("sand_timer", "end_turn") else "the spymasters' panel",
                   "microswitch: COM and NO tabs"))  # fmt: skip
        b.join(name.upper(), ("A1", f"#{pin}"), (ref, "NO"))
        grounds.setdefault(harness_ground(config, name), []).append((ref, "COM"))
    if config.pins.status_led is not None:
        pin = PI_PHYSICAL[config.pins.status_led]
        b.add(Part("R5", "330", "", _two("1", "2"), "resistor 330 Ω", "at the status LED", "in the LED's lead, under heat-shrink"))
        b.add(Part("D2", "status LED", "", _two("K", "A"), "LED 5 mm with panel holder", "the operatives' side",
                   "the long leg is the anode (A)"))  # fmt: skip
        b.join("STATUS_LED", ("A1", f"#{pin}"), ("R5", "1"))
        b.join("STATUS_LED_A", ("R5", "2"), ("D2", "A"))
        grounds.setdefault(harness_ground(config, "status_led"), []).append(("D2", "K"))
    for ground, nodes in sorted(grounds.items()):
        b.join("GND", *([] if b.has("A1", ground) else [("A1", f"#{ground}")]), *nodes)
    b.add(Part("LS1", "buzzer", "", _two("+", "-"), "buzzer", "in the box", electrical.MAGNETIC_TRANSDUCER.name))
    b.join("+5V_LED", ("LS1", "+"))
    b.join("BUZZER_COIL", ("LS1", "-"))

    # The SPI display's 2 x 13 socket takes the header's pins 1-26, pin for pin, by a ribbon.
    names = [str(name) if isinstance(name, str) else f"GPIO{name}" for name in PI_HEADER[:26]]
    b.add(Part("DS1", "spymaster display (SPI)", "", _numbered(names), "spymaster display", "the spymasters' hood",
               "its 2 x 13 socket, pin for pin on the Pi's pins 1-26 (a ribbon)"))  # fmt: skip
    power = {"3V3": "+3V3_PI", "5V": "+5V_PI", "GND": "GND"}
    for pin, name in enumerate(PI_HEADER[:26], 1):
        if isinstance(name, str):
            b.join(power[name], *([] if b.has("A1", pin) else [("A1", f"#{pin}")]), ("DS1", f"#{pin}"))
        elif name in SPI_DISPLAY_PINS:
            # A control moved onto a display pin (config --check warns): the ribbon joins them all the same.
            taken = next((net for net, nodes in b.nets.items() if ("A1", str(pin)) in nodes), None)
            if taken:
                b.join(taken, ("DS1", f"#{pin}"))
            else:
                b.join(_net_for_display(SPI_DISPLAY_PINS[name]), ("A1", f"#{pin}"), ("DS1", f"#{pin}"))

    # The LED supply, off the board: the DC jack, a pair of lever connectors behind it (5 V and GND), and from them
    # an 18 AWG pair to each feed: the tile board's J12 (which carries chain index 0's feed on through J13 with the
    # data), and any other injection point (electrical.chain_feeds(): none, one feed is enough; cables.feed_paths()
    # measures them).
    b.add(Part("J16", "DC jack 5 V", "", _numbered(("+", "-", "SW")), "DC barrel jack", "the box's back wall",
               "centre pin positive: lug 1 the centre pin, 2 the sleeve, 3 the switch (left free)",
               leads=(("J23", "1"), ("J18", "1"))))  # fmt: skip
    # The fuse right after the jack: its inline holder's leads from a lever connector beside the jack's red lead
    # (the jack's leads pass the wall's hole, the holder does not) to the 5 V lever connector.
    fuse = electrical.LED_FUSE
    b.add(Part("J23", "lever connector, jack to fuse", "", _numbered(electrical.FUSE_JOIN_WAYS), "lever connector 2-way",
               "behind the DC jack", "the jack's red lead and the fuse holder's first lead: both its ways full"))  # fmt: skip
    b.add(Part("F1", f"fuse {fuse.rating_ma / 1000:g} A", "", _two("1", "2"), "fuse with inline holder", "behind the DC jack",
               f"a {fuse.name} in an inline holder: replace it only with the same rating", leads=(("J23", "2"), ("J17", "1"))))  # fmt: skip
    b.join("+5V_JACK", ("J16", "+"), ("J23", "#1"), ("J23", "#2"), ("F1", "1"))
    points = electrical.chain_feeds()
    b.add(Part("J17", "lever connector 5 V", "", _numbered(electrical.lever_ways(points)), "lever connector 5-way",
               "behind the DC jack", electrical.lever_note("red")))  # fmt: skip
    b.add(Part("J18", "lever connector GND", "", _numbered(electrical.lever_ways(points)), "lever connector 5-way",
               "behind the DC jack", electrical.lever_note("black")))  # fmt: skip
    b.add(Part("D3", "WS2812B, chain index 0", "", _numbered(WS2812B_PINS), "WS2812B LED on a round breakout board",
               f"under tile {tile_name(board.CHAIN.index(0))}", "the chain's first LED: 5 V, data and GND from J13"))  # fmt: skip
    b.join("+5V_LED", ("F1", "2"), ("J17", "#1"), ("J17", "#2"), ("D3", "VDD"), off_board="on along the chain's links, LED to LED")
    b.join("GND", ("J16", "-"), ("J18", "#1"), ("J18", "#2"), ("D3", "VSS"))
    b.join("LED_DIN", ("D3", "DIN"))
    b.join("LED_DOUT", ("D3", "DOUT"), off_board="DIN of chain index 1, and on along the chain")
    names = _chain_names(board)
    for way, point in enumerate(points[1:], 3):
        ref = f"D{1 + way}"  # D4, D5, ...
        where = names[point]
        b.add(Part(ref, f"WS2812B, chain index {point}", "", _numbered(WS2812B_PINS),
                   "WS2812B LED on a round breakout board" if where.startswith("tile") else "WS2812B LED strip",
                   f"under {where}" if where.startswith("tile") else f"the {where}",
                   "an injection point: 5 V and GND from the lever connectors", bom_share=0))  # fmt: skip
        # its own pair of lever connectors under the LED board at its feed hole (electrical.injection_joins())
        ways = dict(electrical.injection_joins([0] + points[1:]))[point]
        for net, rail, colour in (("+5V_LED", "J17", "red"), ("GND", "J18", "black")):
            joint = f"J{19 + 2 * (way - 3) + (rail == 'J18')}"  # J19/J20 for the first, J21/J22 ...
            b.add(Part(joint, f"lever connector {'5 V' if rail == 'J17' else 'GND'}, chain {point}", "",
                       _numbered(ways), "lever connector 5-way", f"under the LED board at {where}'s feed hole",
                       f"the {colour} {electrical.FEED_AWG} AWG feed in; a {electrical.LINK_AWG} AWG tail up to the LED"
                       + ("; the link arriving from the LED before it" if "spare" != ways[2] else "")))  # fmt: skip
            b.join(net, (rail, f"#{way}"), (joint, "#1"), (joint, "#2"), (ref, "VDD" if rail == "J17" else "VSS"),
                   *([(joint, "#3")] if ways[2] != "spare" else []))


def _chain_names(board: ModuleType) -> list[str]:
    logical = ([f"tile {tile_name(tile)}" for tile in range(board.TILES)]
               + [f"sand-timer LED {n}" for n in range(1, board.TIMER_LEDS + 1)]
               + [f"turn LED {n}" for n in range(1, board.TURN_LEDS + 1)])  # fmt: skip
    names = [""] * board.LEDS
    for index, position in enumerate(board.CHAIN):
        names[position] = logical[index]
    return names


def build(config: Config, board: ModuleType) -> Circuit:
    """The table's parts and nets for a config and a pin table."""
    b = _Builder()
    _tile_board(b, board)
    _pi_side(b, config, board)
    return b.circuit()
