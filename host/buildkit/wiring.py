"""The wiring folder (``wiring/``): tables and diagrams generated from the pin tables.

The Pi's pins come from the config (the shipped defaults unless one is
passed in), the Pico's from the firmware's pin table (``firmware/board.py``);
this module holds no pin of the table, only the boards' own pinouts (which
GPIO sits on which physical pin). ``python host/buildkit wiring
[--folder DIR]`` writes the folder; a test fails when the committed files differ
from what ``generate()`` makes. Same input, byte-identical output.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from codenames_firmware import board as firmware_board

from codenames_board.config import BUTTON_PINS, ENCODER_PINS, SPI_DISPLAY_PINS, Config, parse
from codenames_board.engine.key import COLUMNS, tile_name
from . import circuit as table_circuit
from . import cables, electrical, mechanics, netlist, perfboard, power, schematic
from .electrical import ohms

from .drawing import COMMAND, FONT, GENERATED, GREY, INK, LIGHT, PIN_FILL, WIRE_HEX, Svg, _dark  # noqa: F401

# The boards' pinouts live in .pinouts (the schematic and the netlist read them too).
from .pinouts import (  # noqa: F401 (the tests and the drawings read them here)
    MPR121_ADDR_TO, PI_GROUNDS, PI_HEADER, PI_OTHER_USE, PI_PHYSICAL, PICO_3V3, PICO_GROUNDS, PICO_PHYSICAL,
    PICO_PINS, SPI0, _pi_xy, _pico_xy, nearest_ground,
)  # fmt: skip


# --- what goes where



@dataclass(frozen=True)
class PiSignal:
    label: str
    wire: str
    kind: str  # button, encoder, buzzer, led


# Every key of [pins], in the order the tables list them.
PI_SIGNALS = {
    "sand_timer": PiSignal("SAND TIMER button", "yellow", "button"),
    "end_turn": PiSignal("END TURN button", "white", "button"),
    "clue_down": PiSignal("CLUE DOWN button", "blue", "button"),
    "clue_up": PiSignal("CLUE UP button", "green", "button"),
    "clue_confirm": PiSignal("CONFIRM button", "purple", "button"),
    "encoder_a": PiSignal("encoder A (CLK)", "blue", "encoder"),
    "encoder_b": PiSignal("encoder B (DT)", "green", "encoder"),
    "encoder_push": PiSignal("encoder push (SW)", "purple", "button"),
    "undo": PiSignal("UNDO button", "grey", "button"),
    "new_game": PiSignal("NEW GAME button", "brown", "button"),
    "buzzer": PiSignal("buzzer", "orange", "buzzer"),
    "status_led": PiSignal("status LED", "red", "led"),
}


@dataclass(frozen=True)
class Wire:
    """One row of a wiring table."""

    signal: str
    key: str  # the config key or the board.py name; "" for power
    pin_name: str  # GPIO5, GP4, GND, 3V3(OUT)
    pin: int | None  # the physical pin
    ground: int | None  # the suggested GND pin (Pi)
    wire: str
    notes: str
    short: str = ""  # the label in a picture, if not the signal


def _pi_notes(kind: str, gpio: int, ground: int, side: str = "") -> str:
    harness = f"the {side} ground harness (GND pin {ground}, [ground harnesses](#ground-harnesses))"
    notes = {
        "button": f"other leg (COM) on {harness}; gpiozero turns the internal pull-up on: no resistor",
        "encoder": f"the encoder's C (middle) pin on {harness}; internal pull-ups: a bare EC11, no resistors. Not a "
        "module with a + pin (KY-040 style): its own pull-ups need 3.3 V, and both 3V3 pins (1 and 17) are under the "
        "display's ribbon; with + left free they would join A and B",
        "buzzer": "to the buzzer driver's base resistor on the tile board, never to the buzzer itself (the coil and its "
        f"series resistor take {electrical.buzzer_driver().coil_ma:.0f} mA from 5 V, a pin gives a few mA); a second wire "
        f"from GND (pin {ground}: its harness of one wire) to the driver. Its 5 V is the LED supply's, on the tile board: "
        "the display's ribbon covers the Pi's 5 V pins ([the buzzer's driver](#the-buzzers-driver))",
        "led": f"GPIO → 330 Ω → LED anode (long leg); cathode on {harness}",
    }[kind]
    other = PI_OTHER_USE.get(gpio, "")
    if other and (kind == "buzzer" or not other.startswith("PWM")):  # PWM matters to the buzzer only
        notes += f"; GPIO{gpio} is also {other}"
    return notes


def pi_wires(config: Config, names) -> list[Wire]:
    wires = []
    for name in names:
        signal, gpio = PI_SIGNALS[name], getattr(config.pins, name)
        if gpio is None:
            wires.append(Wire(signal.label, name, "not fitted", None, None, "", "`false` in the config"))
            continue
        pin = PI_PHYSICAL[gpio]
        side = next(side for side, keys in table_circuit.HARNESS_SIDES.items() if name in keys)
        ground = table_circuit.ground_harnesses(config)[side][0]
        wires.append(Wire(signal.label, name, f"GPIO{gpio}", pin, ground, signal.wire, _pi_notes(signal.kind, gpio, ground, side)))
    return wires


def clue_sets(config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the clue inputs in use, the alternative)."""
    return (BUTTON_PINS, ENCODER_PINS) if config.controls.clue_input == "buttons" else (ENCODER_PINS, BUTTON_PINS)


def pi_used_names(config: Config) -> list[str]:
    unused = clue_sets(config)[1]
    return [name for name in PI_SIGNALS if name not in unused]


def pico_wires(board: ModuleType) -> list[Wire]:
    sda, scl, data = (PICO_PHYSICAL[gp] for gp in (board.I2C_SDA, board.I2C_SCL, board.LED_PIN))
    i2c_ground = nearest_ground(sda, PICO_GROUNDS, _pico_xy)
    led_ground = nearest_ground(data, PICO_GROUNDS, _pico_xy)
    sda1, scl1 = (PICO_PHYSICAL[gp] for gp in (board.I2C1_SDA, board.I2C1_SCL))
    on_bus = {bus: [index + 1 for index, (on, _, _) in enumerate(board.MPR121S) if on == bus] for bus in range(2)}

    def boards(bus: int) -> str:
        numbers = on_bus[bus]
        return f"MPR121 board {numbers[0]}" if len(numbers) == 1 else "MPR121 boards " + " and ".join(map(str, numbers))

    pull_up = (
        "pull-up to 3.3 V: the Adafruit 1982 carries 10 kΩ on SDA and SCL, enough for these short lines "
        f"(a breakout without them: 4.7 kΩ to 3.3 V); at {board.I2C_FREQ // 1000} kHz"
    )
    irq_wires = [
        Wire(
            f"IRQ of MPR121 {index + 1}", "MPR121S", f"GP{irq}", PICO_PHYSICAL[irq], None, "white",
            f"to INT (the IRQ) of MPR121 board {index + 1}: low while it has news for the firmware; the Pico's internal "
            "pull-up, no resistor",
            f"IRQ {index + 1} (GP{irq}) → MPR121 {index + 1} INT",
        )
        for index, (_, _, irq) in enumerate(board.MPR121S)
    ]
    return [
        Wire(
            "I2C SDA", "I2C_SDA", f"GP{board.I2C_SDA}", sda, None, "blue", f"I2C0: to SDA of {boards(0)}; {pull_up}",
            f"I2C SDA (GP{board.I2C_SDA}) → MPR121 {'+'.join(map(str, on_bus[0]))} SDA",
        ),
        Wire(
            "I2C SCL", "I2C_SCL", f"GP{board.I2C_SCL}", scl, None, "green", f"I2C0: to SCL of {boards(0)}; {pull_up}",
            f"I2C SCL (GP{board.I2C_SCL}) → MPR121 {'+'.join(map(str, on_bus[0]))} SCL",
        ),
        Wire(
            "I2C1 SDA", "I2C1_SDA", f"GP{board.I2C1_SDA}", sda1, None, "blue",
            f"I2C1, the second bus: to SDA of {boards(1)} only; its own pull-up as above",
            f"I2C1 SDA (GP{board.I2C1_SDA}) → MPR121 {'+'.join(map(str, on_bus[1]))} SDA",
        ),
        Wire(
            "I2C1 SCL", "I2C1_SCL", f"GP{board.I2C1_SCL}", scl1, None, "green",
            f"I2C1: to SCL of {boards(1)} only; its own pull-up as above",
            f"I2C1 SCL (GP{board.I2C1_SCL}) → MPR121 {'+'.join(map(str, on_bus[1]))} SCL",
        ),
        *irq_wires,
        Wire(
            "3.3 V for the MPR121 boards", "", "3V3(OUT)", PICO_3V3, None, "orange",
            "to VIN/3V3 of every MPR121 board. Never 5 V: the MPR121 takes at most 3.6 V "
            "and the Pico's pins are not 5 V tolerant",
            "3.3 V → MPR121 VIN",
        ),
        Wire(
            "GND for the MPR121 boards", "", "GND", i2c_ground, None, "black", "to GND of every MPR121 board",
            "GND → MPR121 GND",
        ),
        Wire(
            "LED data", "LED_PIN", f"GP{board.LED_PIN}", data, None, "yellow",
            "to the level shifter's input (74AHCT125 pin 2, 1A, with 10 kΩ to GND; 1OE to GND, VCC to the "
            "LEDs' 5 V with 100 nF; the unused inputs tied: [the level shifter](#the-level-shifter)); "
            "its output (1Y) through 330 Ω on the tile board to the data terminal, and on to the first LED's DIN",
            f"LED data (GP{board.LED_PIN}) → level shifter",
        ),
        Wire(
            "GND for the level shifter and the LED supply", "", "GND", led_ground, None, "black",
            "the common ground: level shifter GND and the 5 V supply's GND at the chain's start",
            "GND → shifter, LED supply",
        ),
        Wire(
            "USB to the Pi", "", "micro-USB", None, None, "USB cable",
            "the tile protocol, and the Pico's power (the MPR121 boards' too, through 3V3(OUT)). "
            "Leave VSYS (pin 39) and VBUS (pin 40) free: never feed the LED supply into them",
        ),
    ]


def chain_names(board: ModuleType) -> list[str]:
    """What sits at each position of the LED chain (board.CHAIN inverted)."""
    logical = (
        [f"tile {tile_name(tile)}" for tile in range(board.TILES)]
        + [f"sand-timer LED {n}" for n in range(1, board.TIMER_LEDS + 1)]
        + [f"turn LED {n}" for n in range(1, board.TURN_LEDS + 1)]
    )
    by_position = [""] * board.LEDS
    for index, position in enumerate(board.CHAIN):
        by_position[position] = logical[index]
    return by_position


def chain_picture(board: ModuleType) -> str:
    """The tile LEDs' path over the grid as the operatives see it: chain positions joined by arrows."""
    where = {board.CHAIN[tile]: divmod(tile, COLUMNS) for tile in range(board.TILES)}
    position = {cell: chain for chain, cell in where.items()}
    rows = board.TILES // COLUMNS
    across: dict[tuple[int, int], str] = {}  # (row, column) -> the link to the cell on its right
    down: dict[tuple[int, int], str] = {}  # (row, column) -> the link to the cell below
    jumps = False
    for chain in range(board.TILES - 1):
        (row, column), (next_row, next_column) = where[chain], where[chain + 1]
        if row == next_row and abs(column - next_column) == 1:
            across[row, min(column, next_column)] = " -> " if next_column > column else " <- "
        elif column == next_column and abs(row - next_row) == 1:
            down[min(row, next_row), column] = "v" if next_row > row else "^"
        else:
            jumps = True

    def centre(column: int) -> int:
        return 4 + 8 * column + 2  # "A   " then "[ 0]" and a link, 8 characters a column

    def marks(row_marks: dict[int, str]) -> str:
        line = [" "] * (4 + 8 * COLUMNS)
        for column, mark in row_marks.items():
            line[centre(column) - len(mark) // 2 : centre(column) - len(mark) // 2 + len(mark)] = mark
        return "".join(line).rstrip()

    start_row, start_column = where[0]
    lines = [marks({column: str(column + 1) for column in range(COLUMNS)}), ""]
    for row in range(rows):
        if row == start_row:
            lines += [marks({start_column: "DIN"}), marks({start_column: "v"})]
        cells = "".join(f"[{position[row, column]:2d}]" + across.get((row, column), "    ") for column in range(COLUMNS))
        lines.append(f"{'ABCDE'[row]}   {cells}".rstrip())
        if row < rows - 1:
            lines.append(marks({column: link for (link_row, column), link in down.items() if link_row == row}))
    if jumps:
        lines.append("(some neighbours in the chain are not neighbours on the grid: follow the numbers)")
    return "\n".join(lines)


# --- README.md


def _table(header: tuple[str, ...], rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _pi_table(wires: list[Wire]) -> str:
    return _table(
        ("signal", "config key", "BCM GPIO", "header pin", "GND pin", "wire", "notes"),
        (
            (w.signal, f"`{w.key}`", w.pin_name, w.pin or "—", w.ground or "—", w.wire or "—", w.notes)
            for w in wires
        ),
    )


def _pico_table(wires: list[Wire]) -> str:
    return _table(
        ("signal", "board.py", "Pico pin name", "Pico pin", "wire", "notes"),
        ((w.signal, f"`{w.key}`" if w.key else "", w.pin_name, w.pin or "—", w.wire, w.notes) for w in wires),
    )


def _mpr121_rows(board: ModuleType):
    for controller, (bus, address, irq) in enumerate(board.MPR121S):
        pads = sorted((electrode, tile) for tile, (owner, electrode) in enumerate(board.PADS) if owner == controller)
        free = sorted(set(range(12)) - {electrode for electrode, _ in pads})
        yield (
            controller + 1,
            f"0x{address:02X}",
            MPR121_ADDR_TO.get(address, "?"),
            f"I2C{bus} (GP{board.I2C_PINS[bus][0]}, GP{board.I2C_PINS[bus][1]})",
            f"GP{irq}",
            ", ".join(f"E{electrode} {tile_name(tile)}" for electrode, tile in pads),
            ", ".join(f"E{electrode}" for electrode in free) or "none",
        )


def _span(board: ModuleType, prefix: str) -> str:
    positions = [position for position, name in enumerate(chain_names(board)) if name.startswith(prefix)]
    return f"{min(positions)}-{max(positions)}" if positions else ""


def buzzer_section(gpio: int | None, ground_pin: int | None = None) -> list[str]:
    d = electrical.buzzer_driver()
    weak = electrical.buzzer_driver(transistor=electrical.P2N2222A)
    t, q = d.transducer, d.transistor
    supply, supply_max = electrical.LED_SUPPLY_V
    ground = f"pin {ground_pin or nearest_ground(PI_PHYSICAL[gpio], PI_GROUNDS)}" if gpio is not None else "a GND pin"
    top = "5 V: the LED supply's, on the tile board "
    column = len(top) + 2
    return [
        "### The buzzer's driver",
        "",
        f"The buzzer is a 12 mm magnetic transducer ({t.name}: a {t.coil_ohms:g} Ω coil, {t.rated_v:g} V, loudest "
        f"near {t.resonance_hz} Hz). Its coil and the series resistor below take {d.coil_ma:.0f} mA from 5 V "
        f"({d.coil_max_ma:.0f} mA at most), and a GPIO pin is meant for {electrical.PI_PIN_LIMIT_MA} mA: straight on a pin "
        "it would damage the Pi. An NPN transistor on the tile board switches it instead, from the LED supply's 5 V "
        "there: the display's 2 x 13 socket covers the Pi's pins 1-26, both 5 V pins (2 and 4) with them.",
        "",
        "```",
        top + "──┬─────────────┐",
        " " * column + "│             │",
        " " * (column - 5) + "buzzer coil     1N4148, its ring (cathode) up to 5 V",
        " " * column + "│             │",
        " " * column + "├─────────────┘",
        " " * column + f"{ohms(d.series_ohms)} {d.series_watts:g} W",
        " " * column + "│",
        " " * column + "C",
        f"GPIO{gpio} (the Pi) ── {ohms(d.base_ohms)} ".ljust(column, "─") + f"B   {q.name} (flat face towards you, legs down: C B E)",
        " " * column + "E",
        " " * column + "│",
        f"GND (the Pi's {ground}; the board's) ".ljust(column, "─") + "┘",
        "```",
        "",
        _table(
            ("figure", "value", "from"),
            (
                (f"**current through the coil and the series resistor**, nominal ({supply:g} V)", f"**{d.coil_ma:.0f} mA**",
                 f"{supply:g} V / ({t.coil_ohms:g} Ω + {ohms(d.series_ohms)})"),
                (f"the same, at most ({supply_max:g} V, an adapter's +5 %; coil -15 %, resistor -5 %)", f"{d.coil_max_ma:.0f} mA",
                 t.source),
                ("voltage across the coil, nominal", f"{d.coil_v:.1f} V", f"at most its rated {t.rated_v:g} V"),
                ("base current, at least (pin high ≥ 3.0 V, VBE ≤ 1.2 V)", f"{d.base_min_ma:.2f} mA",
                 f"{d.overdrive:.1f} x what hFE ≥ {q.hfe_min} ({q.hfe_at}) needs: saturated"),
                ("**the pin's current**, at most (3.3 V, VBE ≥ 0.6 V)", f"**{d.pin_ma:.1f} mA**",
                 f"the Pi's default drive is {electrical.PI_PIN_LIMIT_MA} mA a pin (16 mA the most)"),
                ("the flyback diode's current when the transistor turns off", f"{d.coil_max_ma:.0f} mA",
                 electrical.FLYBACK.source),
            ),
        ),
        "",
        f"Sources: {q.source}; {t.source}; the Raspberry Pi documentation's GPIO voltage specifications "
        f"(output high ≥ 3.0 V at 2 mA). The series resistor carries the coil's current for good if a "
        f"pin is left high: {ohms(d.series_ohms)}, {d.series_watts:g} W. Another transistor needs the sums again: "
        f"a 2N2222A (hFE ≥ {weak.transistor.hfe_min} at {weak.transistor.hfe_at}) would need {ohms(weak.base_ohms)} and "
        f"{weak.pin_ma:.1f} mA from the pin, more than its default drive: not it.",
        "",
        f"Build the stage on the tile board's perfboard: two wires from the Pi (GPIO{gpio} and GND, {ground}), two on to "
        "the buzzer; its 5 V joins the LED supply's 5 V on the board (the terminal block's), so the buzzer sounds only "
        "while the LED supply is on, and the power budget counts its current there. The Pi's GND wire beside the "
        "signal keeps the base's return short (the grounds are joined through the Pico's USB cable as well). The diode "
        "goes across the coil, its ring (cathode) to 5 V: it takes the coil's kick when the "
        "transistor turns off. **A piezo transducer instead** (high impedance, a few mA; loudest near 4 kHz) works "
        "with the same stage: leave out the diode and the series resistor and put 1 kΩ across the piezo, which "
        "empties it between the pulses. The table's sounds lie between "
        f"{electrical.MAGNETIC_TRANSDUCER.loud_hz[0]} and {electrical.MAGNETIC_TRANSDUCER.loud_hz[1]} Hz "
        "(`host/codenames_board/sounds.py`), where a 12 mm transducer of either kind is loud.",
        "",
    ]


def harness_section(config: Config, harnesses) -> list[str]:
    """The Pi's grounds: one harness per free GND pin, a Dupont contact per pin."""
    labels = {"status LED": "status LED (cathode)", "tile board": "the buzzer's driver (J14 GND)", "UP": "CLUE UP (COM tab)",
              "DOWN": "CLUE DOWN (COM tab)", "encoder": "the encoder (C pin)"}  # fmt: skip
    rows = []
    fitted = mechanics.ground_harnesses(config.controls.clue_input)
    for harness in fitted:
        if harness.name not in harnesses:
            continue
        ground, keys = harnesses[harness.name]
        parts = [labels.get(part, f"{part} (COM tab)") for part in harness.parts]
        rows.append((harness.name, ground, " → ".join(parts), f"{harness.first / 10:g} cm",
                     ", ".join(f"{length / 10:g} cm" for length in harness.jumpers) or "—"))  # fmt: skip
    under = [pin for pin in PI_GROUNDS if pin <= table_circuit.RIBBON_PINS]
    contacts = mechanics.dupont_contacts()
    return [
        "### Ground harnesses",
        "",
        f"The display's ribbon covers the header's pins 1-{table_circuit.RIBBON_PINS}, GND pins "
        + ", ".join(str(pin) for pin in under)
        + f" with them: only {', '.join(str(pin) for pin in table_circuit.free_grounds())} stay free, and one pin takes one "
        "Dupont housing. So the grounds go out as harnesses, one per free GND pin: **one wire from the pin to the first "
        "part, then short jumpers from part to part**. On a button's COM tab the incoming and the outgoing wire are "
        "crimped into one female spade together (two 0.25 mm² wires fill the red spade's 0.5-1.5 mm² barrel; twist "
        "the strands together first, tug each; a single wire elsewhere goes in with its stripped end folded double); on the status LED's cathode leg both are soldered under heat-shrink; the last part "
        "takes one wire. The order is the shortest path through the side's parts in the model, the lengths its runs "
        f"(the first wire with {mechanics.SLACK_MM} mm slack so the box tips back off its floor, each jumper "
        f"{mechanics.JUMPER_SLACK_MM} mm to turn into the tabs):",
        "",
        _table(("harness", "GND pin", "from the pin, in order", "first wire", "jumpers, in order"), rows),
        "",
        f"With one signal wire for each button, the status LED and the buzzer, **{contacts} Dupont contacts** go on the "
        f"header, each on a pin of its own, none on pins 1-{table_circuit.RIBBON_PINS}. All the harnesses' wire is black: "
        f"{mechanics.black_wire_mm(fitted) / 1000:.1f} m.",
        "",
        *encoder_harness_lines(config, harnesses),
    ]


def encoder_harness_lines(config: Config, harnesses) -> list[str]:
    """The spymasters' harness with the other clue input than the one configured."""
    other = "buttons" if config.controls.clue_input == "encoder" else "encoder"
    harness = next(h for h in mechanics.ground_harnesses(other) if h.name == mechanics.ENCODER_HARNESS.name)
    if other == "buttons" or harness.name not in harnesses:
        return []
    order = " → ".join(("the encoder's C pin" if part == "encoder" else f"{part} (COM tab)") for part in harness.parts)
    return [
        f"**With the rotary encoder** the {harness.name} harness (GND pin {harnesses[harness.name][0]}) runs {order}: "
        f"first wire {harness.first / 10:g} cm, jumpers {', '.join(f'{length / 10:g} cm' for length in harness.jumpers)}. "
        f"The encoder has pins, not tabs: solder {'its harness wire' if harness.parts[-1] == 'encoder' else 'its harness wires'} to C, and a "
        f"{mechanics.ENCODER_LINK / 10:g} cm wire on the encoder from C to one of its switch's two pins (the other takes "
        "the encoder push wire); both are GND. The Dupont contacts stay as many: the encoder's three wires are the "
        "three clue buttons'.",
        "",
    ]


def level_shifter_section(budget: power.PowerBudget) -> list[str]:
    return [
        "",
        "### The level shifter",
        "",
        "A 74AHCT125 (DIP-14, in a socket on the tile board) has four buffers; the chain uses the first. "
        "The TI SN74AHCT125 datasheet asks for every unused input held at VCC or GND and a bypass capacitor at VCC:",
        "",
        _table(
            ("pin", "name", "to"),
            (
                ("1", "1OE", "GND: buffer 1 always on"),
                ("2", "1A", f"the Pico's LED data (GP{firmware_board.LED_PIN}), **and 10 kΩ to GND**: while the Pico is "
                 "unpowered, resetting or being flashed its pin floats, and a floating input makes random frames "
                 f"(up to {budget.chain_max_ma} mA, every LED full white)"),
                ("3", "1Y", "330 Ω on the tile board, then the terminal block's data out to the first LED's DIN"),
                ("4, 10, 13", "2OE, 3OE, 4OE", "VCC: the unused buffers off"),
                ("5, 9, 12", "2A, 3A, 4A", "GND: an unused CMOS input must not float"),
                ("6, 8, 11", "2Y, 3Y, 4Y", "nothing"),
                ("7", "GND", "the common ground"),
                ("14", "VCC", "the LED supply's 5 V, **100 nF ceramic from pin 14 to pin 7**, as close to the chip as it goes"),
            ),
        ),
        "",
        "It draws its few mA from the LED supply, not from the Pico's USB (the power budget counts it there). "
        "The 10 kΩ costs the Pico's pin 0.33 mA while it drives high.",
    ]


def distribution_lines(names: list[str]) -> list[str]:
    feeds = cables.feed_paths()
    tail = cables.first_led_cable()
    link, feed = electrical.WIRES[electrical.LINK_AWG], electrical.WIRES[electrical.FEED_AWG]
    fuse = electrical.LED_FUSE
    return [
        "**The LED supply's wiring** (the schematic's J16, F1, J23, J17, J18): the LED supply is a **centre-positive** 5 V adapter "
        "(its label shows the ⊖-(•-⊕ symbol). A DC-022B-style panel jack has three solder lugs: **lug 1, the centre pin "
        "(+)**, the one at the back in line with the pin; **lug 2, the sleeve (−)**; **lug 3, the switch**, which touches "
        "the sleeve only while no plug is in: **leave the switch lug unconnected**. Sellers' drawings differ, so check with "
        "a meter's continuity beep: lug 1 beeps to the pin inside the socket; with no plug in, lugs 2 and 3 beep to each "
        "other, and with the plug in only lug 2 beeps to the plug's barrel.",
        "",
        f"- Each lug takes **one** wire: {electrical.LEVER_LEAD / 10:g} cm of red {feed.awg} AWG from lug 1 and black from lug 2 "
        f"to lever connectors behind the jack: the red into J23, the fuse's way in (below), the black into the GND one "
        "(J18, a 5-way WAGO 221-415).",
        f"- **The fuse F1** ({fuse.name}, in an inline holder with {feed.awg} AWG leads) sits in the 5 V lead, right "
        "after the jack: the jack's red lead goes into a **2-way** lever connector (J23, WAGO 221-412), the holder's "
        "first lead into its other way (both full: no other wire can go in ahead of the fuse), its second lead into the 5 V lever connector (J17, red-taped). The holder never passes the wall's "
        "hole: only the jack's own leads do. It protects the adapter and the 18 and 22 AWG supply wiring from a short (not the thin branches to the level shifter and the buzzer: the power budget says which); a blown fuse means "
        "a fault to find, and its replacement is the same rating "
        "([the power budget](../hardware/README.md#power-budget) sizes it).",
        "- From the lever connectors, one red and one black " + f"{feed.awg} AWG wire to "
        + ("each feed: " if len(feeds) > 1 else "")
        + "; ".join(("the tile board's J12 (chain index 0 goes on from there)" if f.point == 0 else f"chain index {f.point} ({names[f.point]})")
                    + f", {_up(f.run / 1000, 2):.2f} m" for f in feeds)
        + f". That is {1 + len(feeds)} of the {electrical.LEVER_WAYS} ways; the rest stay closed and spare.",
        f"- **Chain index 0 ({names[0]}) has one feed, through the tile board**: J12 takes the pair, the board's trunk (the 22 AWG jumpers of the wire list) "
        "carries it past C2 (the 1000 µF, so it sits at the chain's start) to J13, and J13's 3-way terminal sends **5 V, "
        f"data and GND** to {names[0]} in one cable of {link.awg} AWG LED link wire (red, green, black), "
        f"**{_up(tail / 10):.0f} cm** ({electrical.FEED_SLACK} mm slack so the tile board comes out of the floor's hatch), up through {names[0]}'s feed "
        f"hole. No second wire from the jack to {names[0]}: two 5 V paths in parallel would only make a loop, while this "
        "way the data's return runs beside the data and the capacitor and the level shifter's 5 V are at the chain's "
        f"start. It is the chain's only feed: the table below shows why one is enough.",
    ]


def chain_wires_section(board: ModuleType, points: list[int], names: list[str], budget: power.PowerBudget) -> list[str]:
    led_ma = budget.chain_max_ma / budget.leds
    drop = cables.chain_drop(points, led_ma)
    check = cables.feed_check(points, budget.cap_ma, budget.chain_max_ma)
    link, feed = electrical.WIRES[electrical.LINK_AWG], electrical.WIRES[electrical.FEED_AWG]
    lengths = electrical.link_lengths()
    stretches = []
    ends = points[1:] if points[-1] == len(names) - 1 else points[1:] + [len(names) - 1]
    for start, end in zip(points, ends):
        stretches.append((
            f"{start}-{end} ({names[start]} to {names[end]})",
            f"{sum(lengths[start:end]) / 1000:.2f} m",
            f"{max(drop.link_amps[start:end]):.2f} A",
            f"{min(drop.volts[start : end + 1]):.2f} V",
        ))
    runs = cables.feed_runs(points)
    tail = cables.first_led_cable()
    return [
        "",
        "### The chain's wires",
        "",
        f"- **LED to LED**: {link.awg} AWG ({link.mm2:g} mm²) stranded for 5 V, GND and data, three wires a link. "
        "A 10 mm pixel board's pads take 22-24 AWG; 18-20 AWG does not fit them.",
        *link_lines(names),
        "",
        *distribution_lines(names),
        "",
        f"Worked out with every LED full white at full brightness ({led_ma:.0f} mA each, {budget.chain_max_ma} mA in all, "
        f"more than the firmware ever lets through), {link.awg} AWG at {link.ohms_per_m * 1000:.1f} mΩ/m and {feed.awg} AWG at "
        f"{feed.ohms_per_m * 1000:.1f} mΩ/m, 5 V and GND both counted, the links as long as the grid makes them "
        f"({electrical.TILE_PITCH[0]} x {electrical.TILE_PITCH[1]} mm tiles, the strip at 60 LEDs/m):",
        "",
        _table(
            ("stretch (chain index)", "link wire", f"most current in a link ({link.awg} AWG: ≤ {link.chassis_a:g} A)", "lowest LED supply"),
            stretches,
        ),
        "",
        _table(
            ("injection point", f"{feed.awg} AWG pair from the lever connectors, with {electrical.FEED_SLACK} mm slack", f"current ({feed.awg} AWG: ≤ {feed.chassis_a:g} A)"),
            ((f"chain {point} ({names[point]})" + (f": to J12, then J13 → {names[point]}, {_up(tail / 1000, 2):.2f} m of {link.awg} AWG" if point == 0 else ""),
              f"{_up(run / 1000, 2):.2f} m", f"{amps:.2f} A") for point, run, amps in zip(points, runs, drop.feed_amps)),
        ),
        "",
        f"Every LED stays at {drop.lowest:.2f} V or more with the one feed: at the firmware's cap (`max_current_ma = "
        f"{budget.cap_ma}`) the last LED has {check.last_led[0]:.2f} V, at the glitch {check.last_led[1]:.2f} V, and "
        f"at `brightness = {budget.brightness}`'s full white ({budget.drawn_max_ma} mA) "
        f"{cables.chain_drop(points, budget.drawn_max_ma / budget.leds).volts[-1]:.2f} V. The WS2812B's datasheet gives "
        f"it {electrical.WS2812_VDD_MIN:g}-5.3 V (its characteristics at {electrical.WS2812_VDD_CHARACTERISED:g}-5.5 V, "
        "where the table's own brightness keeps it), so a second feed would buy nothing a maker sees. The data holds "
        f"too: each LED's DIN needs {electrical.WS2812_VIH:g} of its own VDD and gets the LED before it's output, whose "
        "supply is higher along a chain fed at its start; the first gets the 74AHCT125's, within 0.1 V of the tile "
        "board's 5 V. A link's current is checked against its wire's heating (the chassis-wiring figure, which the "
        f"{power.amps(electrical.LED_FUSE.rating_ma)} fuse stays below), not the transmission-line rule of "
        f"{link.max_a:g} A that guards a long run's voltage: here the voltage itself is computed. ",
        f"Wire to buy, with {round((electrical.WIRE_SPARE - 1) * 100)} % spare: "
        f"**{math.ceil(cables.power_wire_m(points))} m of {feed.awg} AWG** ({cables.power_wire_m(points):.1f} m with the spare: red "
        f"and black, every run) and **{math.ceil(cables.link_wire_m())} m of {link.awg} AWG** ({cables.link_wire_m():.1f} m with "
        "the spare: three wires along every link and to the first LED).",
    ]


def link_lines(names: list[str]) -> list[str]:
    """Each wire link's cut length: the tiles' links grouped, the odd ones by name."""
    last_tile = max(index for index, name in enumerate(names) if name.startswith("tile "))
    bar = next(index for index, name in enumerate(names) if not name.startswith("tile "))
    groups: dict[tuple[str, float], int] = {}
    odd = []
    for link in electrical.wire_links():
        a, b = names[link.start], names[link.end]
        if link.end <= last_tile and link.power_cut == link.data_cut:
            along = "along a row" if a.split()[1][0] == b.split()[1][0] else "from a row's end to the next row"
            groups[(along, link.data_cut)] = groups.get((along, link.data_cut), 0) + 1
            continue
        if link.power_cut != link.data_cut:
            how = (f"data {link.data_cut / 10:.1f} cm to DIN; 5 V and GND {link.power_cut / 10:.1f} cm, on past {b}'s "
                   "pads and down its feed hole into the lever connectors (below)")  # fmt: skip
        elif link.end == bar:
            how = (f"{link.data_cut / 10:.1f} cm each: on the printed plate out of {a}'s chamber at the front, left "
                   "along between the grid and the light boxes through the notches at the walls' feet, to the bar's "
                   "left end (the wall there has a notch at its foot; on the LED board it goes down beside the status LED's "
                   "12 mm hole, not across it); on the MDF route along its row's LEDs through "
                   "the foam walls' notches to the chamber in front of the bar's left end, out through that chamber's "
                   "front notch and the front strip's gap, and behind the light box to its left end; then into the "
                   "light box through the strip channel in its end wall")  # fmt: skip
        else:
            how = f"{link.data_cut / 10:.1f} cm each: through the two light boxes' facing end walls"
        odd.append(f"  - {a} → {b} (chain index {link.start} → {link.end}): {how}.")
    lines = [
        f"- **Cut each link's three wires** to its length (both ends' {electrical.LINK_END} mm to strip and bend in), "
        f"from an LED's DOUT, 5 V and GND pads to the next one's DIN, 5 V and GND:",
        *(f"  - {along}: {cut / 10:.1f} cm each ({count} links)" for (along, cut), count in groups.items()),
        *odd,
        f"  - Along a strip piece its copper carries the chain: no wires. The bar's {names[bar]} is its **left** end as the "
        f"operatives see it; its arrows (DIN to DOUT) point right, on to the turn LEDs, whose {names[-1]} is the right "
        "end.",
    ]
    return lines


def injection_lines(names: list[str], points: list[int]) -> list[str]:
    """How the strand's 18 AWG feeds meet the LEDs: a pair of lever connectors at every feed hole but the tile
    board's."""
    link, feed = electrical.WIRES[electrical.LINK_AWG], electrical.WIRES[electrical.FEED_AWG]
    side = {hole: name for hole, (_, name) in electrical.INJECTION_SIDE.items()}
    lines = [
        f"- **The strand's injection points**: {feed.awg} AWG ({feed.mm2:g} mm²), red and black, from the lever connectors behind "
        f"the jack to each point. {feed.awg} AWG fits no LED's pad, so at every point but the tile board's a second pair "
        "of lever connectors (from the same pack of 10: 5 V red, GND black) is stuck under the LED board with double-sided "
        f"foam tape, side by side, their wire openings towards the feed hole, its middle about {electrical.INJECTION_REACH / 10:g} cm from the feed hole: at E5 "
        f"{side['E5']}, past turn LED 2 {side['strip end']} (on any other side it "
        f"would cover a hole or meet a button's body). Into each go the {feed.awg} AWG feed and a "
        f"{link.awg} AWG tail of {electrical.injection_tail() / 10:.0f} cm up through the feed hole to the LED's pad; the "
        "other ways stay closed:",
    ]
    for point, ways in electrical.injection_joins(points):
        if "spare" != ways[2]:
            lines.append(
                f"  - chain index {point} ({names[point]}): the feed, the strand's own tail (its 5 V and GND) and the "
                "link on to the bar (below).")  # fmt: skip
        else:
            lines.append(
                f"  - chain index {point} ({names[point]}): the strip carries 5 V and GND in its copper, so the tail "
                f"goes to the free pads at the strip's cut after {names[point]}" + (" (the chain's end)" if point == len(names) - 1 else "") + ".")
    return lines


def _up(value: float, places: int = 0) -> float:
    """A cut length rounded up, never down: a wire cut a few mm short of its slack is short."""
    return math.ceil(value * 10**places - 1e-9) / 10**places


def strand_section(board: ModuleType, names: list[str], budget: power.PowerBudget) -> list[str]:
    led_ma = budget.chain_max_ma / budget.leds
    spacing = electrical.strand_spacing()
    shorter = [s for s in electrical.STRAND_SPACINGS_MM if s < spacing]
    feeds = electrical.strand_feeds()
    drop = cables.strand_drop(feeds, led_ma)
    two = cables.strand_drop([feeds[0], feeds[-1]], led_ma)
    wire = electrical.WIRES[electrical.STRAND_AWG]
    last_tile = board.TILES - 1
    return [
        "",
        "### The strand option: 12 mm bullet pixels",
        "",
        f"A strand of 12 mm WS2811 bullet pixels replaces the {board.TILES} pixel boards and their "
        f"{electrical.LINK_AWG} AWG links (`leds = \"strand\"` in `hardware/enclosure.scad`: 12 mm holes in the LED "
        "board, the pixels pushed down through them); the strip for the sand-timer bar and the turn LEDs stays as it is.",
        "",
        "- **Buy the 5 V kind, never 12 V**: it shares the chain's 5 V supply and data with the strip.",
        f"- **{spacing // 10} cm spacing**: the longest tile-to-tile link is {max(electrical.link_lengths()[:last_tile]):g} mm "
        f"along the grid ({electrical.TILE_PITCH[0]} mm across a row), and the wire turns out of each pixel's body, "
        f"{electrical.STRAND_TURN_MM} mm at each end: {electrical.strand_needs_mm():g} mm. "
        + (", ".join(f"{s // 10}" for s in shorter[:-1]) + f" and {shorter[-1] // 10}" if len(shorter) > 1 else f"{shorter[0] // 10}")
        + " cm leads do not reach across a row and its turns.",
        f"- Use its first {board.TILES} pixels, the input end at {names[0]} (chain index 0); cut the wire between pixels "
        f"{board.TILES} and {board.TILES + 1} next to pixel {board.TILES + 1}, so that pixel {board.TILES} keeps a tail.",
        "- **Its input pigtail** goes to the tile board's 3-way terminal block (5 V, data, GND), as the first pixel "
        "board's wires would; the 330 Ω stays on the tile board at the 74AHCT125's output, as before. Sellers' wire "
        "colours vary: find 5 V, data and GND from the first pixel's markings or the seller's sheet.",
        "- **5 V and GND go in at chain index "
        + ", ".join(f"{point} ({names[point]})" for point in feeds)
        + f"**: the strand's input, its end where its tail's data goes on to the strip ({names[last_tile + 1]}), and "
        "past the last turn LED: the feed wires join the strand's own ends and tails in the injection points' lever connectors (below), never a splice into its wire. "
        f"With every LED full white at full brightness, every LED stays at {drop.lowest:.2f} V or more and a strand "
        f"link carries at most {max(drop.link_amps):.2f} A ({wire.awg} AWG: ≤ {wire.max_a:g} A). With the two ends "
        f"alone ({feeds[0]} and {feeds[-1]}) a link would carry {max(two.link_amps):.2f} A, over the {wire.max_a:g} A its "
        "cores are held to here: its pixels are WS2811s, not the WS2812Bs whose datasheet lets the pixel boards run "
        "from one feed, so the strand keeps its three.",
        *injection_lines(names, feeds),
        f"- **From the strand's end to the bar**: the model's second feed hole is then at {names[last_tile]} and a third "
        f"past the last turn LED (`leds = \"strand\"` adds them: the pixel boards need only {names[0]}'s), and its {electrical.FEED_AWG} AWG pair "
        f"from the lever connectors behind the jack is {_up(cables.feed_paths(feeds)[1].run / 1000, 2):.2f} m. Pixel "
        f"{board.TILES}'s tail goes into the lever connectors under that hole, 5 V and GND with the feed's, and from them a link of three "
        f"{electrical.LINK_AWG} AWG wires, **{_up(electrical.strand_bar_link() / 10):.0f} cm** each, goes up through the "
        f"hole and along the boards' route into the bar to {names[last_tile + 1]}'s input pads; its green is soldered to "
        "the tail's data wire under heat-shrink.",
        "- **Colour order**: many strands are RGB, while the strip for the bar and the turn LEDs is GRB, and the "
        "chain takes one order (`[leds] order`, [LED chain](#led-chain)): buy the strand in GRB order, or the bar "
        "and the turn LEDs (or the tiles) show red and green swapped. `codenames-board selftest` shows which.",
    ]


def perfboard_section() -> list[str]:
    width, height = electrical.perfboard()
    area = electrical.parts_area()
    return [
        "## The tile board on perfboard",
        "",
        "The Pico, the three MPR121 breakouts, the level shifter, the capacitor, the buzzer's driver and a place for "
        "every pad wire share one perfboard. Their footprints (nominal: measure yours):",
        "",
        _table(
            ("part", "count", "footprint", "from"),
            ((p.name, p.count, f"{p.size[0]:g} x {p.size[1]:g} mm", p.source) for p in electrical.TILE_BOARD_PARTS),
        ),
        "",
        f"Together {area / 100:.0f} cm²; hand wiring needs about as much again between the parts "
        f"({electrical.ROUTING:g} x: {area * electrical.ROUTING / 100:.0f} cm²), and {electrical.EDGE_MARGIN} mm stay free "
        f"along each edge. **The smallest common board that holds it: {width} x {height} mm** "
        f"(50 x 70 mm holds {(50 - 2 * electrical.EDGE_MARGIN) * (70 - 2 * electrical.EDGE_MARGIN) / 100:.0f} cm², "
        f"less than the parts alone); the layout below needs {perfboard.ROWS} x {perfboard.COLUMNS} holes of it, which "
        f"many {width} x {height} mm boards do not have, so the parts list takes a larger board cut down. Put the "
        "MPR121 boards along the edge the pad wires come from, the "
        "terminal blocks for the LED supply and the chain on the opposite edge, away from the pad wires.",
        "",
    ]


def layout_sections(config: Config, board: ModuleType) -> list[str]:
    model = table_circuit.build(config, board)
    first_column, last_column, first_row, last_row = perfboard.extent(model)
    return [
        "## Schematic and KiCad netlist",
        "",
        "![Schematic: the circuit in four boxes (supply, Pi and controls, tile board, LED chain), parts as symbols joined by wires](schematic.svg)",
        "",
        "`schematic.svg` draws the circuit in four boxes by function: the supply, the Pi's header with the display and "
        "the controls, the tile board, the LED chain. Parts are symbols (resistors, capacitors, diodes, the transistor, "
        "buttons, the buzzer, the fuse); the Pico, the MPR121 boards and the Pi's header are drawn as the boards sit, "
        "with the pins' numbers outside and names inside. **Lines are wires** (a dot joins wires that cross it); a "
        "blue flag names a net that goes on elsewhere, with the parts it reaches in another box: **flags with the same "
        "name are one wire.** The ground symbol is GND; the red and orange bars the 5 V and 3.3 V rails. Print it across "
        "two A3 sheets side by side (its smallest text is then about 2 mm high), or read it zoomed on a screen.",
        "",
        f"`codenames-board.net` is the same circuit ({len(model.parts)} parts, {len(model.nets)} nets) as a KiCad netlist "
        "(the S-expression format KiCad 6 and later read). In KiCad's PCB editor: **File → Import → Netlist…**, pick "
        "the file, **Update PCB**: you get the tile board's footprints (sockets for the Pico and the MPR121 boards, "
        "the DIP-14 socket, resistors, capacitors, transistor, diode, terminal blocks, the wires' holes) with their "
        "connections drawn as ratsnest lines, ready to place and route. The parts off the board (the Pi's header, "
        "the buttons, the buzzer, the pads, the display, the DC jack, the first LED) have no footprint: KiCad lists "
        "them as warnings and leaves them out. Their `Where` field says where they are.",
        "",
        "## Perfboard layout and wire list",
        "",
        "![The tile board's parts on the perfboard, and the wires underneath](perfboard.svg)",
        "",
        f"The board of {perfboard.ROWS} x {perfboard.COLUMNS} holes (about {(perfboard.ROWS + 1) * perfboard.PITCH:.0f} x "
        f"{(perfboard.COLUMNS + 1) * perfboard.PITCH:.0f} mm, cut through the row of holes beyond them) lies landscape, seen from the parts' side: rows "
        f"A-{perfboard.row_name(perfboard.ROWS)} from the pad wires' edge, columns 1-{perfboard.COLUMNS} from the Pico's "
        "USB end. A hole is named by row and column, as on a breadboard (C12: row C, column 12). Before any part goes "
        f"in, drill out the four mounting holes {', '.join(perfboard.hole_name(m) for m in perfboard.MOUNTS)} to "
        f"{perfboard.MOUNT_DRILL:g} mm (the white circles: {perfboard.MOUNT_PITCHES[0] * perfboard.PITCH:g} x "
        f"{perfboard.MOUNT_PITCHES[1] * perfboard.PITCH:g} mm apart, as the standoffs' holes in the LED board; nothing is soldered within "
        "the dashed ring round each, where the standoff sits) and the strain-relief holes of the wires soldered in to "
        f"{perfboard.RELIEF_DRILL:g} mm. Solder the low parts first, then the sockets, then the tall parts (step 2 of "
        f"`hardware/README.md` gives the order). The layout uses rows {perfboard.row_name(first_row)}-"
        f"{perfboard.row_name(last_row)} and columns {first_column}-{last_column}, and the mounting holes need the row "
        f"and the column of board round them: a board with fewer than {perfboard.ROWS} x {perfboard.COLUMNS} holes "
        "will not do, a larger one cut down to size will.",
        "",
        _table(("part", "value", "pin 1 at", "which way round", "holes"), perfboard.part_rows(model)),
        "",
        "The MPR121 sockets follow the Adafruit 1982's pin order as printed on its current (STEMMA QT) revision: VIN, "
        "3Vo, GND, SCL, SDA, INT (the IRQ), ADDR along one edge, E11 to E0 and GND along the other, "
        f"{perfboard.MPR121_ROWS_APART * perfboard.PITCH:g} mm ({perfboard.MPR121_ROWS_APART} holes) apart. Before the "
        "sockets go in, check that your breakouts read so and push one onto its headers in a scrap of perfboard; the "
        "older revision's seven pins run in another order, and a generic MPR121 module orders and spaces its pins "
        "otherwise: each needs a layout of its own.",
        "",
        perfboard.wire_text(model),
        "",
        _table(("#", "net", "from", "to", "wire", "length"), perfboard.wire_rows(model)),
        "",
        "**Wires that leave the board** (through the strain-relief hole beside each, where there is one):",
        "",
        _table(("hole", "on the board", "goes to"), perfboard.off_board_wires(model)),
        "",
    ]


def readme(config: Config, board: ModuleType) -> str:
    used, alternative = clue_sets(config)
    pi = pi_wires(config, pi_used_names(config))
    pico = pico_wires(board)
    names = chain_names(board)
    chain_of = {tile: board.CHAIN[tile] for tile in range(board.TILES)}
    pad_lengths = cables.pad_wire_lengths()
    budget = power.power_budget(config)
    points = electrical.chain_feeds()
    pi_gpios = [int(w.pin_name[4:]) for w in pi if w.pin]
    harnesses = table_circuit.ground_harnesses(config)
    on_display = [gpio for gpio in pi_gpios if gpio in SPI_DISPLAY_PINS]
    alternative_mode = "encoder" if used == BUTTON_PINS else "buttons"
    mismatch = (config.tiles.timer_leds, config.tiles.turn_leds) != (board.TIMER_LEDS, board.TURN_LEDS)

    out = [
        f"<!-- {GENERATED} -->",
        "# Wiring the table",
        "",
        f"*Generated by `{COMMAND}` from the Pi's default pins "
        "(`host/codenames_board/default_config.toml`) and the Pico's pin table (`firmware/board.py`): "
        "do not edit. Change the pins there and run the command again; a test fails while this folder "
        "and the pin tables disagree.*",
        "",
        "## How to use this folder",
        "",
        _table(
            ("file", "shows"),
            (
                ("`README.md`", "this page: every wire, board by board"),
                ("`block-diagram.svg`", "the whole table: what connects to what"),
                ("`pi-header.svg`", "the Raspberry Pi's 40-pin header: the pins used and their signals"),
                ("`pico-pinout.svg`", "the Pico's pins: the pins used and their signals"),
                ("`schematic.svg`", "the circuit: every part and pin, joined by wires and net names ([schematic](#schematic-and-kicad-netlist))"),
                ("`codenames-board.net`", "the same circuit as a KiCad netlist, for a PCB or a check in KiCad"),
                ("`perfboard.svg`", "where each part sits on the tile board's perfboard ([wire list](#perfboard-layout-and-wire-list))"),
            ),
        ),
        "",
        "Open the pictures in a browser or print them beside this page. Wire with the power off and "
        "every board unplugged.",
        "",
        "1. **The tile board** first: the MPR121 boards to the Pico (I2C: boards 1 and 2 on the first bus, board 3 "
        "alone on the second; 3.3 V, GND, each board's ADDR pin and its INT), the pads to the MPR121 electrodes ([touch pads](#touch-pads); they are soldered in step 10 of "
        "`hardware/README.md`, once the plate is printed), then the LED chain "
        "through the level shifter ([LED chain](#led-chain), [WS2812 power and data](#ws2812-power-and-data)). "
        "Flash and check it as `firmware/README.md` says.",
        "2. **The Pi**: the buttons, the buzzer and the status LED on the 40-pin header, the Pico on a "
        "USB port, the display.",
        "3. `codenames-board config --check` checks a config file. Pins you move there (`[pins]`, BCM "
        "numbers) replace the ones below for the Pi; the Pico's pins are fixed by its firmware.",
        "",
        "GPIO *n* (Pi) and GP*n* (Pico) are the chips' numbers, the ones the config and `board.py` use; "
        "*pin n* is the physical pin, counted as the pictures show. The wire colours are suggestions, from the "
        "parts list's kit of ten (the resistor code's: black, brown, red, orange, yellow, green, blue, purple, grey, "
        "white): black for every GND; one colour per signal on the Pi's header, where red and orange are signals too "
        "(the display's ribbon takes the 5 V and 3.3 V pins, so no power wire goes there). On the tile board the Pico "
        "table's colours are the perfboard drawing's (its wire-wrap jumpers may all be one colour): there red is 5 V and "
        "orange 3.3 V, and the Pi's orange buzzer wire arrives at J14 as a signal; the buzzer's two wires from J15 are "
        "red (+5 V) and white (the coil's other end). The LED chain's wires are red 5 V, black GND and green data. With "
        "fewer colours, label each signal wire at both ends.",
        "",
        "![The whole table: pads, touch controllers, Pico, LEDs, Pi, controls, display and power](block-diagram.svg)",
        "",
        "## Raspberry Pi: 40-pin header",
        "",
        "![The Pi's 40-pin header with the pins the table uses](pi-header.svg)",
        "",
        "Pin 1 has the square pad; the odd pins are the row nearer the middle of the board.",
        "",
        _pi_table(pi),
        "| tile board (Pico) | | USB | USB port | — | USB cable | micro-USB from the Pico to any USB port "
        "of the Pi (a Pi Zero 2 W: its USB data port, through an OTG adapter); the Pi finds it by its "
        "USB id 2e8a:0005 or as `/dev/codenames-tiles` |",
        "",
        "Buttons: any momentary push button (normally open), between its GPIO and GND. The buttons "
        "need no 5 V or 3.3 V wire: the Pi's internal pull-ups do the work.",
        "",
        f"### The alternative: {'a rotary encoder' if alternative == ENCODER_PINS else 'three clue buttons'}",
        "",
        f"With `[controls] clue_input = \"{alternative_mode}\"` these replace the clue rows above"
        + (
            " (on the same pins: the same wires serve either):"
            if [getattr(config.pins, name) for name in used] == [getattr(config.pins, name) for name in alternative]
            else ":"
        ),
        "",
        _pi_table(pi_wires(config, alternative)),
        "",
        *harness_section(config, harnesses),
        *buzzer_section(config.pins.buzzer, harnesses.get("the buzzer's driver", (None,))[0]),
        "### The display",
        "",
        "- HDMI or DSI (`[display] output = \"fullscreen\"`): a cable, no header pins.",
        "- An SPI TFT (`[display] output = \"framebuffer\"`): the parts list's default, a 3.5 inch 480 x 320 "
        "ILI9486 board (Waveshare 3.5 inch LCD (A) or a clone, the same pinout as the OzzMaker PiScreen), on the "
        "header's pins 1-26. It takes "
        + ", ".join(f"GPIO{gpio} (pin {PI_PHYSICAL[gpio]}, {use})" for gpio, use in SPI_DISPLAY_PINS.items())
        + ". "
        + (
            "**The pins above use " + ", ".join(f"GPIO{gpio}" for gpio in on_display) + ": move them for an SPI TFT.**"
            if on_display
            else "The pins above leave them all free."
        )
        + " `codenames-board config --check` warns when a `[pins]` entry lands on one of them while the "
        "output is `framebuffer`.",
        "- Its driver on Raspberry Pi OS Bookworm: `dtparam=spi=on` and `dtoverlay=piscreen,drm,speed=16000000,rotate=270` "
        "in `/boot/firmware/config.txt`. The overlay's `drm` option binds the kernel's DRM `ili9486` driver (KMS, "
        "with a framebuffer through fbdev emulation: `grep . /sys/class/graphics/fb*/name`) instead of fbtft's "
        "`fb_ili9486`, which lives in the kernel's staging tree and may go. An `fbtft`/`ili9341` overlay does not "
        "drive this board. Other SPI panels: the generic `mipi-dbi-spi` overlay with the panel's init file "
        "(`panel-mipi-dbi`). `host/pi/README.md` has the steps.",
        "- **Do not run the seller's `LCD-show` script**: it replaces `config.txt` and turns KMS off "
        "(`vc4-kms-v3d`), which the table's fullscreen output and a current Raspberry Pi OS need.",
        "",
        "### Power",
        "",
        "The Pi takes its 5 V through its own USB power input, from its own supply or from the table's "
        "5 V supply (see [WS2812 power and data](#ws2812-power-and-data)); not through the header's 5 V "
        "pins, which bypass its protection.",
        "",
        "## Raspberry Pi Pico (tile board)",
        "",
        "![The Pico's pins with the ones the tile board uses](pico-pinout.svg)",
        "",
        "Seen from above (components up), USB at the top: pins 1-20 run down the left side, 21-40 up the right.",
        "",
        _pico_table(pico),
        "",
        "### MPR121 touch controllers",
        "",
        _table(("MPR121", "address", "ADDR pin to", "bus (SDA, SCL)", "INT (IRQ) to", "electrodes → tiles", "free electrodes"),
               _mpr121_rows(board)),
        "",
        "- Power them from the Pico's 3V3(OUT) only (3.3 V; the MPR121 takes at most 3.6 V).",
        "- The address is set by the ADDR pin. The Adafruit 1982 has a 10 kΩ from ADDR to GND and a solder jumper "
        "(SJ1) from ADDR to 3.3 V, open as it comes: leave it open (closed, board 1's ADDR wire to GND shorts the "
        "3.3 V rail). Some other breakouts tie ADDR to GND with a closed jumper: cut it before wiring ADDR elsewhere, "
        "or the line is shorted to ground (check 10 in `hardware/appendix-checks.md` finds both).",
        "- The I2C pull-ups: see SDA and SCL above.",
        "- Board 3 has the Pico's second I2C bus (I2C1) to itself, so it takes 0x5A (ADDR to GND) like board 1. "
        "On the first bus it would need ADDR on SDA (0x5C), and the breakout's own ADDR pull-down (10 kΩ) would then "
        "hold SDA's idle level to about 2.5 V against the boards' pull-ups: 0.2 V over the 2.3 V (0.7 of 3.3 V) an "
        "MPR121 reads as high, an unreliable bus. Every ADDR goes to GND or 3.3 V.",
        "- Each board's INT (its IRQ, open drain, low when a pad's status changed) has a Pico pin of its own: the "
        "firmware reads a board only when its line is low, and polls each board every 100 ms besides, so a loose "
        "IRQ wire costs one late touch and then that board is read on every scan, as without the wire.",
        "- Each board scans only the electrodes its tiles use (board 3: E0 alone); the free ones stay unwired.",
        "- Keep pad wires short and away from the LED data and power wires: they are part of the sensor. "
        "Keep hands off the tiles for a second after power-up while the controllers learn each pad.",
        "",
        *perfboard_section(),
        *layout_sections(config, board),
        "## Touch pads",
        "",
        "Tiles are named as the operatives see the grid: rows A-E from the far side (the spymasters' end), columns 1-5 "
        "from the left. "
        "**Pad wire**: cut each to its length below: from the pad's corner to its hole in the LED board (the "
        "chamber's corner), down through it and along under the LED board to the tile board hung there, with "
        f"{electrical.FEED_SLACK} mm slack so the board comes out of the floor's hatch and turns over "
        f"({sum(math.ceil(length / 10) for length in pad_lengths) / 100:.1f} m in all; {math.ceil(cables.pad_wire_m())} m with "
        f"{round((electrical.WIRE_SPARE - 1) * 100)} % spare).",
        "",
        _table(
            ("tile", "MPR121", "electrode", "tile board hole", "LED (chain index)", "pad wire"),
            (
                (tile_name(tile), f"{controller + 1} (0x{board.MPR121S[controller][1]:02X})", f"E{electrode}",
                 perfboard.hole_name(perfboard.pad_holes()[tile]), chain_of[tile], f"{math.ceil(pad_lengths[tile] / 10)} cm")
                for tile, (controller, electrode) in enumerate(board.PADS)
            ),
        ),
        "",
        "## LED chain",
        "",
        f"{board.LEDS} WS2812 LEDs in one chain: {board.TILES} under the tiles, {board.TIMER_LEDS} in the "
        f"sand-timer bar, {board.TURN_LEDS} for the turn indicator. The chain index counts from 0, the "
        "first LED after the level shifter. The tile LEDs' path, as the operatives see the grid:",
        "",
        "```",
        chain_picture(board),
        "```",
        "",
        "After the last tile the chain goes on to the sand-timer bar (chain "
        f"{_span(board, 'sand-timer')}) and the turn LEDs (chain {_span(board, 'turn')}). "
        "Carry 5 V and GND along with the data wherever the chain runs.",
        "",
        "**Colour order**: WS2812B pixels and strips take their colours green first (`GRB`, the table's default). "
        "Other LEDs may not: WS2811 12 mm bullet strands are often `RGB`. The whole chain shares one order, set in "
        "the configuration as `[leds]` `order = \"RGB\"` (`RBG`, `GBR`, `BRG` and `BGR` are accepted too); "
        "`codenames-board selftest` lights every tile red, then green, then blue and names each colour, so a wrong "
        "order shows at once.",
        "",
        _table(("chain index", "LED"), enumerate(names)),
        "",
        "## WS2812 power and data",
        "",
        f"- **Supply**: 5 V. The {budget.leds} LEDs draw up to {budget.chain_max_ma} mA at full white and full "
        f"brightness ({budget.dark_ma} mA dark); the firmware scales every frame to `[tiles] max_current_ma` "
        f"({budget.cap_ma} mA in the default config). A supply of at least {power.amps(budget.supply_ma)} for "
        "the LEDs and the buzzer's driver (its 5 V is the LED supply's) leaves a margin; if the Pi runs from the same supply, add its own need (the power budget in "
        "[`hardware/README.md`](../hardware/README.md#power-budget) adds it up by Pi model and display).",
        "- **Never power the LEDs through the Pico** (not from VBUS, VSYS or 3V3): the LED supply goes "
        "straight to the chain.",
        "- **Level shifting**: the Pico's 3.3 V data is too low for LEDs at 5 V. Use a 74AHCT125 powered from "
        "the LEDs' 5 V, wired as [the level shifter](#the-level-shifter) says (or a 74HCT245, its DIR pin to 5 V, "
        "the same rules for its unused pins). The documented alternative: a "
        "sacrificial first LED powered at about 4.3 V through a diode (1N4001 or similar) from the 5 V: "
        "at that supply it accepts 3.3 V data, and its output is high enough for the rest of the chain. "
        "Make it the chain's own first LED "
        f"({names[0]}): an extra LED in front would shift every chain index by one.",
        "- **Series resistor**: 330 Ω in the data line on the tile board, straight at the 74AHCT125's output "
        "(pin 3, 1Y), before the terminal block: it damps the reflections of the data wire to the first LED (a "
        "series termination belongs at the driver's end of a line), and it limits the current into the first "
        "LED's input while that LED has no power.",
        "- **Bulk capacitor**: 1000 µF (6.3 V or more) across 5 V and GND at the chain's start, minding "
        "its polarity.",
        "- **Common ground**: the Pico (and through USB the Pi) and the LED supply share GND; connect it "
        "first, before the data line.",
        "- **Power injection**: 5 V and GND into the chain at chain index "
        + ", ".join(f"{point} ({names[point]})" for point in points)
        + (", through the tile board: the only feed the chain needs" if points == [0] else "")
        + ". Wire gauges, lengths and the chain's voltage: [the chain's wires](#the-chains-wires).",
        f"- The config's `[tiles] timer_leds` and `turn_leds` must match `firmware/board.py` "
        f"({board.TIMER_LEDS} and {board.TURN_LEDS})"
        + (
            f": **they do not** (the config says {config.tiles.timer_leds} and {config.tiles.turn_leds})."
            if mismatch
            else "."
        ),
        *level_shifter_section(budget),
        *chain_wires_section(board, points, names, budget),
        *strand_section(board, names, budget),
        "",
    ]
    return "\n".join(out)


def _pin_mark(svg: Svg, x, y, pin: int, fill: str, square=False) -> None:
    if square:
        svg.rect(x - 10, y - 10, 20, 20, fill=fill, stroke=INK, stroke_width=1)
    else:
        svg.circle(x, y, 10, fill)
    svg.text(x, y + 4, str(pin), size=10, anchor="middle", fill="#ffffff" if _dark(fill) else INK, weight="bold")


def pi_header_svg(config: Config) -> str:
    wires = pi_wires(config, pi_used_names(config))
    used = {w.pin: w for w in wires if w.pin}
    grounds = {w.ground for w in wires if w.ground}
    also = {  # the alternative clue inputs that share a used pin
        PI_PHYSICAL[gpio]: PI_SIGNALS[name].label
        for name in clue_sets(config)[1]
        if (gpio := getattr(config.pins, name)) is not None and PI_PHYSICAL[gpio] in used
    }
    top, step, centre = 100, 26, 440
    svg = Svg(880, top + 20 * step + 120, "Raspberry Pi 40-pin header: the pins of the codenames-board table")
    svg.text(20, 32, "Raspberry Pi 40-pin header", size=20, weight="bold")
    svg.text(20, 54, "The pins the table uses (BCM GPIO numbers), seen from above. Pin 1 has the square pad;", size=12)
    svg.text(20, 70, "the odd pins are the row nearer the middle of the board; pin 1 is at the end away from the USB-A ports.",
             size=12)
    svg.rect(centre - 38, top - 18, 76, 20 * step + 10, fill="#2f3b2f", stroke=INK, rx=4)
    if config.display.output == "framebuffer":  # the SPI display's ribbon socket sits on pins 1-26
        ribbon_rows = table_circuit.RIBBON_PINS // 2
        svg.rect(centre - 44, top - 15, 88, ribbon_rows * step - 4, stroke=WIRE_HEX["red"], stroke_width=2.5, rx=4, dash="6 4")
        svg.text(centre - 60, top + (ribbon_rows - 1) * step / 2, f"the display's ribbon: pins 1-{table_circuit.RIBBON_PINS}, "
                 "its stripe at pin 1", size=12, anchor="middle", fill=WIRE_HEX["red"], weight="bold", rotate=-90)
    for pin, name in enumerate(PI_HEADER, 1):
        row, column = _pi_xy(pin)
        y = top + row * step
        x = centre - 18 if column == 0 else centre + 18
        side = -1 if column == 0 else 1
        anchor = "end" if column == 0 else "start"
        label_x = x + side * 78
        if pin in used:
            w = used[pin]
            colour = WIRE_HEX[w.wire]
            svg.wire(x + side * 10, y, x + side * 70, colour)
            label = w.signal + (f" / {also[pin]}" if pin in also else "")
            parts = [(label, INK, "bold"), (w.pin_name, GREY, "normal")]
            if column == 0:
                parts.reverse()
            svg.text(label_x, y + 4, parts, anchor=anchor)
            fill = LIGHT  # a GPIO: its wire shows the colour, the pin never a power pin's red or orange
        elif isinstance(name, int):
            other = f" ({PI_OTHER_USE[name]})" if name in PI_OTHER_USE else ""
            svg.text(label_x, y + 4, f"GPIO{name}{other}", size=11, anchor=anchor, fill=GREY)
            fill = LIGHT
        else:
            fill = PIN_FILL[name]
            if pin in grounds:
                svg.wire(x + side * 10, y, x + side * 70, WIRE_HEX["black"])
                svg.text(label_x, y + 4, "GND (returns)", anchor=anchor, weight="bold")
            else:
                svg.text(label_x, y + 4, name, size=11, anchor=anchor, fill=fill if name != "GND" else GREY)
        _pin_mark(svg, x, y, pin, fill, square=pin == 1)
    legend_y = top + 20 * step + 20
    svg.wire(22, legend_y, 50, WIRE_HEX["yellow"])
    svg.text(56, legend_y + 4, "a used GPIO: its wire's colour", size=12)
    for index, (fill, text) in enumerate(
        ((WIRE_HEX["black"], "GND pin"), (WIRE_HEX["red"], "5 V pin"), (WIRE_HEX["orange"], "3.3 V pin"), (LIGHT, "GPIO pin"))
    ):  # fmt: skip
        svg.circle(290 + index * 150, legend_y, 8, fill)
        svg.text(304 + index * 150, legend_y + 4, text, size=12)
    svg.text(20, legend_y + 34, "Also: the tile board (Pico) on a USB port; buttons to GND (internal pull-ups), "
             "status LED through 330 Ω.", size=12)  # fmt: skip
    svg.text(20, legend_y + 52, "Table with GND pins and notes: wiring/README.md", size=12, fill=GREY)
    return svg.render()


def pico_pinout_svg(board: ModuleType) -> str:
    wires = pico_wires(board)
    used: dict[int, list[Wire]] = {}
    for w in wires:
        if w.pin:
            used.setdefault(w.pin, []).append(w)
    top, step, left, right = 130, 26, 345, 475
    svg = Svg(820, top + 20 * step + 128, "Raspberry Pi Pico: the pins of the codenames-board tile board")
    svg.text(20, 32, "Raspberry Pi Pico (tile board)", size=20, weight="bold")
    svg.text(20, 54, "The pins the firmware uses (firmware/board.py), seen from above, USB at the top.", size=12)
    svg.rect(left - 15, top - 25, right - left + 30, 20 * step + 24, fill="#2e6b3a", stroke=INK, rx=6)
    svg.rect(385, top - 45, 50, 26, fill="#c8c8c8", stroke=INK, rx=3)
    svg.text(410, top - 27, "USB", size=11, anchor="middle", weight="bold")
    svg.text(410, top - 56, "USB cable → Raspberry Pi", size=12, anchor="middle", weight="bold")
    svg.text(414, top + 10 * step, "Raspberry Pi Pico", size=14, anchor="middle", fill="#ffffff", weight="bold", rotate=-90)
    for pin, name in enumerate(PICO_PINS, 1):
        row, column = _pico_xy(pin)
        y = top + row * step
        x, side, anchor = (left, -1, "end") if column == 0 else (right, 1, "start")
        svg.text(x - side * 16, y + 4, name, size=10, anchor="start" if column == 0 else "end", fill="#ffffff")
        fill = PIN_FILL.get(name, LIGHT)
        if pin in used:
            here = used[pin]
            colour = WIRE_HEX.get(here[0].wire, INK)
            svg.wire(x + side * 14, y, x + side * 62, colour)
            label = " + ".join(w.short or w.signal for w in here)
            if here[0].key:
                fill = colour
            svg.text(x + side * 70, y + 4, label, anchor=anchor, weight="bold")
        elif name in ("VBUS", "VSYS"):
            svg.text(x + side * 20, y + 4, "leave free", size=11, anchor=anchor, fill=GREY)
        _pin_mark(svg, x, y, pin, fill, square=True)
    notes_y = top + 20 * step + 24
    addresses = "; ".join(
        f"{index + 1}: I2C{bus} 0x{address:02X} (ADDR to {MPR121_ADDR_TO.get(address, '?')}), IRQ GP{irq}"
        for index, (bus, address, irq) in enumerate(board.MPR121S)
    )
    svg.text(20, notes_y, f"I2C0 GP{board.I2C_SDA}/GP{board.I2C_SCL} and I2C1 GP{board.I2C1_SDA}/GP{board.I2C1_SCL} (SDA/SCL), "
             f"3V3 and GND to the {len(board.MPR121S)} MPR121 boards:", size=12)  # fmt: skip
    svg.text(20, notes_y + 18, f"{addresses}.", size=12)
    svg.text(20, notes_y + 36, f"LED data GP{board.LED_PIN} → level shifter (3.3 V → 5 V) → 330 Ω → DIN of the "
             f"first of {board.LEDS} WS2812 LEDs. Never power LEDs from the Pico.", size=12)  # fmt: skip
    svg.text(20, notes_y + 54, "Table with notes: wiring/README.md", size=12, fill=GREY)
    return svg.render()


def block_diagram_svg(config: Config, board: ModuleType) -> str:
    svg = Svg(1200, 700, "codenames-board: block diagram of the table")
    svg.text(20, 32, "The table: what connects to what", size=20, weight="bold")

    def box(x, y, width, height, title, lines, fill="#f4f4f4") -> None:
        svg.rect(x, y, width, height, fill=fill, rx=8)
        svg.text(x + width // 2, y + 22, title, size=14, anchor="middle", weight="bold")
        for index, line in enumerate(lines):
            svg.text(x + width // 2, y + 42 + index * 17, line, size=12, anchor="middle")

    def arrow(points, label_at=None, labels=(), dash="", both=False) -> None:
        svg.line(points, arrow=True, dash=dash, both=both)
        if label_at:
            for index, (text, anchor) in enumerate(labels):
                svg.text(label_at[0], label_at[1] + index * 15, text, size=11, anchor=anchor, fill=GREY)

    groups = []
    for controller, (bus, address, _) in enumerate(board.MPR121S):
        tiles = [tile for tile, (owner, _) in enumerate(board.PADS) if owner == controller]
        span = tile_name(tiles[0]) + ("" if len(tiles) == 1 else f"–{tile_name(tiles[-1])}") if tiles else "no tiles"
        groups.append(f"I2C{bus} 0x{address:02X}: {span}")
    wires = {w.key: w for w in pico_wires(board)}
    box(20, 70, 170, 130, f"{board.TILES} touch pads", ["copper under the cards", f"A1 … {tile_name(board.TILES - 1)}"])
    box(250, 70, 180, 130, f"{len(board.MPR121S)} × MPR121", [*groups, "3.3 V only"])
    irqs = "GP" + "/".join(str(irq) for _, _, irq in board.MPR121S)
    box(490, 70, 200, 130, "Raspberry Pi Pico", ["MicroPython firmware",
        *(f"{wires[key].signal} {wires[key].pin_name}" for key in ("I2C_SDA", "I2C_SCL", "LED_PIN")),
        f"I2C1 GP{board.I2C1_SDA}/{board.I2C1_SCL}, IRQ {irqs}"])  # fmt: skip
    box(750, 70, 160, 130, "level shifter", ["74AHCT125", "3.3 V → 5 V", "VCC: LEDs' 5 V", "+ 100 nF to GND",
        "1A: 10 kΩ to GND"])  # fmt: skip
    chain = [f"{board.TILES} tile LEDs", f"{board.TIMER_LEDS} sand-timer bar", f"{board.TURN_LEDS} turn LEDs"]
    box(970, 70, 190, 130, f"WS2812 chain ({board.LEDS})", [*chain, "1000 µF at its start"], fill="#fff6dd")
    arrow([(190, 135), (248, 135)], (219, 127), [("wires", "middle")])
    arrow([(430, 135), (488, 135)], (459, 127), [("I2C, IRQ", "middle")])
    arrow([(690, 135), (748, 135)], (719, 127), [("data", "middle")])
    arrow([(910, 135), (968, 135)], (939, 127), [("330 Ω", "middle")])
    arrow([(590, 200), (590, 300)], both=True)
    svg.text(600, 245, "USB: tile protocol", size=11, fill=GREY)
    svg.text(600, 260, "and the Pico's power", size=11, fill=GREY)

    pi = pi_wires(config, pi_used_names(config))
    inputs = [w for w in pi if w.pin and PI_SIGNALS[w.key].kind in ("button", "encoder")]
    box(490, 300, 200, 130, "Raspberry Pi", ["codenames-board run", "gpiozero, pygame", "(Zero 2 W or larger)"],
        fill="#e8f0ff")  # fmt: skip
    alternative = "a rotary encoder" if clue_sets(config)[1] == ENCODER_PINS else "three clue buttons"
    lines = [f"{w.signal} · {w.pin_name}" for w in inputs] + [f"(or {alternative}: wiring/README.md)"]
    box(20, 240, 330, 40 + 17 * len(lines), "controls (to GND)", lines)
    arrow([(350, 330), (488, 330)], (419, 322), [("GPIO in", "middle")])
    y = 240 + 40 + 17 * len(lines) + 25
    outputs = [w for w in pi if w.pin and PI_SIGNALS[w.key].kind in ("buzzer", "led")]
    for index, w in enumerate(outputs):
        detail = "NPN driver on the tile board, from the LED 5 V" if PI_SIGNALS[w.key].kind == "buzzer" else "330 Ω"
        box(20, y, 330, 50, f"{w.signal} · {w.pin_name}", [detail])
        out_y, turn_x = 385 + 22 * index, 406 + 24 * index  # each its own path out of the Pi: no crossings
        arrow([(490, out_y), (turn_x, out_y), (turn_x, y + 25), (352, y + 25)])
        y += 65
    box(780, 300, 200, 110, "spymaster display", ["HDMI / DSI", "or an SPI TFT (SPI0)"], fill="#eef7ee")
    arrow([(690, 355), (778, 355)], (734, 347), [("video", "middle")])

    budget = power.power_budget(config)
    box(780, 520, 380, 95, "5 V LED supply", [f"LEDs: {budget.drawn_max_ma} mA at most at brightness {budget.brightness} "
        f"(cap {budget.cap_ma} mA)", "+ level shifter and the buzzer's driver",
        f"fuse {power.amps(electrical.LED_FUSE.rating_ma)} right after the DC jack"], fill="#ffecec")  # fmt: skip
    box(490, 590, 200, 60, "Pi power supply", ["its own USB-C supply"], fill="#ffecec")
    arrow([(590, 590), (590, 432)])
    svg.text(600, 470, "5 V → Pi (USB-C)", size=11, fill=GREY)
    arrow([(1100, 520), (1100, 202)])
    for index, line in enumerate(("5 V + GND at A1", "(via J12, J13):", "the chain's", "one feed")):
        svg.text(1106, 330 + index * 15, line, size=11, fill=GREY)
    arrow([(1010, 520), (1010, 250), (830, 250), (830, 202)], dash="6 4")
    svg.text(1002, 268, "5 V to the tile board: the shifter's", size=11, anchor="end", fill=GREY)
    svg.text(1002, 283, "VCC and the buzzer's driver", size=11, anchor="end", fill=GREY)
    arrow([(780, 560), (700, 560), (700, 432)], dash="2 4")
    svg.text(706, 500, "optional: one supply", size=11, fill=GREY)
    svg.text(706, 515, "for both (a bigger one)", size=11, fill=GREY)
    svg.text(20, 670, "One common ground: Pi, Pico (through USB), MPR121 boards, level shifter and LED supply.",
             size=12, weight="bold")  # fmt: skip
    return svg.render()


# --- the folder


def generate(config: Config | None = None, board: ModuleType | None = None) -> dict[str, str]:
    """The files of ``wiring/`` (name -> text) for a config (default: the shipped one) and a pin table."""
    config = parse("") if config is None else config
    board = firmware_board if board is None else board
    model = table_circuit.build(config, board)
    return {
        "README.md": readme(config, board),
        "block-diagram.svg": block_diagram_svg(config, board),
        "pi-header.svg": pi_header_svg(config),
        "pico-pinout.svg": pico_pinout_svg(board),
        "schematic.svg": schematic.schematic_svg(model),
        "codenames-board.net": netlist.netlist(model),
        "perfboard.svg": perfboard.perfboard_svg(model),
    }


def write(folder: Path, config: Config | None = None, board: ModuleType | None = None) -> list[Path]:
    """Write the generated files into ``folder``; returns their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, content in generate(config, board).items():
        path = folder / name
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        paths.append(path)
    return paths


def default_folder() -> Path:
    """``wiring/`` of the checkout this module runs from, else ``./wiring``."""
    root = Path(__file__).resolve().parents[2]
    return root / "wiring" if (root / "firmware" / "board.py").is_file() else Path("wiring")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description="Write the wiring tables and diagrams from the default config and firmware/board.py.",
    )
    parser.add_argument("--folder", metavar="DIR", type=Path, default=None, help="where to write (default: the checkout's wiring/, else ./wiring)")
    args = parser.parse_args(argv)
    folder = args.folder or default_folder()
    try:
        paths = write(folder)
    except OSError as error:
        print(f"{COMMAND}: cannot write {error.filename or folder}: {error.strerror or error}; name a folder with --folder", file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0

