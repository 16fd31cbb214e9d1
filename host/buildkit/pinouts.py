"""The boards' own pinouts: which GPIO sits on which physical pin of the Pi and the Pico.

Facts about the boards (their datasheets), not choices of this project: the project's pins are
in the config and ``firmware/board.py``. ``wiring``, ``circuit`` and the drawings read them here.
"""

from __future__ import annotations


# The Pi's 40-pin header, pin 1 to 40: a BCM GPIO number or a power pin.
PI_HEADER: tuple[int | str, ...] = (
    "3V3", "5V", 2, "5V", 3, "GND", 4, 14, "GND", 15,
    17, 18, 27, "GND", 22, 23, "3V3", 24, 10, "GND",
    9, 25, 11, 8, "GND", 7, 0, 1, 5, "GND",
    6, 12, 13, "GND", 19, 16, 26, 20, "GND", 21,
)  # fmt: skip
PI_PHYSICAL = {gpio: pin for pin, gpio in enumerate(PI_HEADER, 1) if isinstance(gpio, int)}
PI_GROUNDS = tuple(pin for pin, name in enumerate(PI_HEADER, 1) if name == "GND")
# What else a GPIO is often busy with (a display, a HAT, the console).
PI_OTHER_USE = {
    0: "HAT EEPROM ID_SD", 1: "HAT EEPROM ID_SC", 2: "I2C1 SDA", 3: "I2C1 SCL", 4: "GPCLK0",
    7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
    12: "PWM0", 13: "PWM1", 14: "UART TXD", 15: "UART RXD", 18: "PWM0", 19: "PWM1",
}  # fmt: skip
SPI0 = (10, 9, 11, 8, 7)

# The Pico's pins, 1 to 40: down the left side from the USB end, then up the right side.
PICO_PINS = (
    "GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7",
    "GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15",
    "GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN",
    "GP26", "GP27", "GND", "GP28", "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND", "VSYS", "VBUS",
)  # fmt: skip
PICO_PHYSICAL = {int(name[2:]): pin for pin, name in enumerate(PICO_PINS, 1) if name.startswith("GP")}
PICO_GROUNDS = tuple(pin for pin, name in enumerate(PICO_PINS, 1) if name == "GND")
PICO_3V3 = PICO_PINS.index("3V3(OUT)") + 1
MPR121_ADDR_TO = {0x5A: "GND", 0x5B: "3V3", 0x5C: "SDA", 0x5D: "SCL"}  # the ADDR pin picks the address (datasheet table 1)


def _pi_xy(pin: int) -> tuple[int, int]:
    return divmod(pin - 1, 2)  # (row, column) in 2.54 mm steps


def _pico_xy(pin: int) -> tuple[int, int]:
    return (pin - 1, 0) if pin <= 20 else (40 - pin, 7)  # the rows are 7 steps (17.78 mm) apart


def nearest_ground(pin: int, grounds: tuple[int, ...], xy=_pi_xy) -> int:
    """The GND pin closest to ``pin`` on the board (the lower number on a tie)."""
    row, column = xy(pin)
    return min(grounds, key=lambda ground: ((xy(ground)[0] - row) ** 2 + (xy(ground)[1] - column) ** 2, ground))


