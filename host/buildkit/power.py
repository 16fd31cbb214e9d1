"""The table's power budget, computed from the LED count, the brightness and the current cap.

Every LED figure comes from the firmware's own arithmetic
(``compositor.frame_ma``, which runs ``firmware/leds.py``): what the chain
draws for a frame at a brightness, 20 mA per colour channel at full and 1 mA
per dark LED (``firmware/board.py``). The Pi figures are the Raspberry Pi
documentation's recommended supplies and USB budgets, the display figures
nominal values to check against the seller's.

``python host/buildkit power [--config FILE]`` prints the budget
for a config; ``hardware/README.md`` carries it for the shipped defaults
(``python host/buildkit hardware`` rewrites it, a test checks it).
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass

from codenames_firmware import board

from codenames_board import compositor as leds
from codenames_board.colours import palette_of
from codenames_board.config import Config, parse
from .cables import feed_check
from .electrical import FEED_AWG, LED_FUSE, LINK_AWG, WIRES, WS2812_VDD_MIN, buzzer_driver, chain_feeds

COMMAND = "python host/buildkit power"

MARGIN = 1.2  # a supply runs at most at 1/1.2 of its rating: wires, connectors and age
RATINGS_MA = (1000, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 10000)  # common 5 V supplies
USB2_PORT_MA = 500  # what one USB 2.0 port promises a device
TILE_LOGIC_MA = 50  # from the Pi's USB: the Pico (about 25 mA running) + three MPR121 (under 1 mA each), rounded up
# From the LED supply, as the wiring feeds it: the 74AHCT125's quiescent 40 µA plus up to 1.35 mA for an
# input at a TTL level (its 3.3 V data), TI SN74AHCT125 datasheet, ICC and ΔICC; rounded up.
LEVEL_SHIFTER_MA = 2
# The buzzer's driver on the tile board takes the LED supply's 5 V (the display covers the Pi's 5 V pins): its
# coil and series resistor at the most (electrical.buzzer_driver: the supply's highest, the lowest resistances),
# rounded as wiring/README.md quotes it.
BUZZER_MA = round(buzzer_driver().coil_max_ma)
USB_LED_CAP_MA = 400  # max_current_ma for LEDs run from a Pi USB port: the port's 500 mA less a margin


@dataclass(frozen=True)
class PiModel:
    name: str
    supply_ma: int  # the recommended supply
    usb_ma: int | None  # what its USB ports may give all devices together (None: its supply's limit)
    note: str = ""


# From the Raspberry Pi documentation ("Power supply"): recommended supply and USB budget.
PI_MODELS = (
    PiModel("Raspberry Pi 5", 5000, 1600, "over USB-C PD, the 27 W supply; on a 3 A supply its USB ports get 600 mA in all"),
    PiModel("Raspberry Pi 4 Model B", 3000, 1200),
    PiModel("Raspberry Pi 3 Model B+", 2500, 1200),
    PiModel("Raspberry Pi Zero 2 W", 2000, None, "its USB is limited by its supply and connector only"),
)


@dataclass(frozen=True)
class Display:
    name: str
    fed_from: str
    ma: int  # nominal, backlight on


DISPLAYS = (
    Display("SPI TFT, 2.8-3.5 inch (framebuffer)", "the Pi's 40-pin header (its 5 V or 3.3 V pins)", 100),
    Display("small HDMI screen, 5 inch", "a USB port of the Pi, or its own supply", 500),
    Display("DSI touch display, 7 inch", "the Pi's 5 V header pins, or its own supply", 500),
)


def rating(ma: float) -> int:
    """The smallest common supply rating (mA) that carries ``ma`` with the margin."""
    need = ma * MARGIN
    for rated in RATINGS_MA:
        if rated >= need:
            return rated
    return int(math.ceil(need / 1000) * 1000)


@dataclass(frozen=True)
class PowerBudget:
    """The LEDs' current at 5 V (mA) for one config."""

    leds: int
    brightness: int
    cap_ma: int  # [tiles] max_current_ma: the firmware scales every frame down to it
    dark_ma: int  # every LED dark: their own controllers
    chain_max_ma: int  # every LED full white at full brightness: what a glitch could draw, past every limit
    worst_ma: int  # full white at the configured brightness, before the cap
    drawn_max_ma: int  # the most the firmware lets the LEDs draw: worst_ma or the cap, the lower
    typical_ma: int  # a mid-game frame at the configured brightness (compositor.typical_frame)
    supply_ma: int  # the LED supply's rating: chain_max_ma, the level shifter and the buzzer, with the margin
    in_use_max_ma: int  # the most the LED supply carries in use, at any brightness: the cap, the shifter and the buzzer
    glitch_max_ma: int  # the same with chain_max_ma instead of the cap
    usb_brightness: int  # the highest brightness whose typical frame fits USB_LED_CAP_MA unscaled

    @property
    def fits_usb(self) -> bool:
        """Whether the configured cap lets a Pi USB port run the LEDs."""
        return self.cap_ma <= USB_LED_CAP_MA


def power_budget(config: Config | None = None) -> PowerBudget:
    """The budget for a config (default: the shipped one)."""
    config = parse("") if config is None else config
    tiles = config.tiles
    layout = leds.Layout(board.TILES, tiles.timer_leds, tiles.turn_leds)
    colours = config.colours
    compositor = leds.Compositor(layout, palette_of(colours))
    white = bytes([255]) * layout.frame_bytes
    worst = leds.frame_ma(white, tiles.brightness)
    typical = compositor.typical_frame()
    usb_brightness = max((b for b in range(256) if leds.frame_ma(typical, b) <= USB_LED_CAP_MA), default=0)
    chain_max = leds.frame_ma(white, 255)
    return PowerBudget(
        leds=layout.leds,
        brightness=tiles.brightness,
        cap_ma=tiles.max_current_ma,
        dark_ma=leds.frame_ma(bytes(layout.frame_bytes), 255),
        chain_max_ma=chain_max,
        worst_ma=worst,
        drawn_max_ma=min(worst, tiles.max_current_ma),
        typical_ma=leds.frame_ma(typical, tiles.brightness),
        supply_ma=rating(chain_max + LEVEL_SHIFTER_MA + BUZZER_MA),
        in_use_max_ma=tiles.max_current_ma + LEVEL_SHIFTER_MA + BUZZER_MA,
        glitch_max_ma=chain_max + LEVEL_SHIFTER_MA + BUZZER_MA,
        usb_brightness=usb_brightness,
    )


def fused_wire_ma() -> float:
    """The thinnest supply wire behind the fuse (the LED links and the tile board's trunk, the holder's and the feeds'
    18 AWG), at its chassis-wiring limit: the fuse must open before it. The 30 AWG branches to the level shifter and
    the buzzer's driver, and the buzzer's 24 AWG wires, carry tens of milliamps and are not what it protects."""
    return min(WIRES[LINK_AWG].chassis_a, WIRES[FEED_AWG].chassis_a) * 1000


def fuse_fits(budget: PowerBudget) -> bool:
    """The LED fuse carries the most the firmware lets through (with the makers' derating) and a glitch's full white
    (under its rating), and opens below the thinnest fused wire's limit."""
    return (LED_FUSE.continuous_ma >= budget.in_use_max_ma and LED_FUSE.rating_ma > budget.glitch_max_ma
            and LED_FUSE.rating_ma < fused_wire_ma())


def fuse_lines(budget: PowerBudget) -> list[str]:
    fuse, b = LED_FUSE, budget
    return [
        f"**The fuse: {amps(fuse.rating_ma)}**, a {fuse.name} in an inline holder right after the DC jack, in its 5 V "
        f"lead. The most the LEDs draw in use at any brightness is the cap, so with the shifter and the buzzer "
        f"{b.in_use_max_ma} mA, under the {round(fuse.continuous_ma)} mA the fuse's makers allow for hours on end "
        f"({round(fuse.derating * 100)} % of its rating); a glitch's full white ({b.glitch_max_ma} mA) is still under "
        f"its rating, so neither blows it. What it protects is the supply wiring after it, the "
        f"{FEED_AWG} AWG feeds and the {LINK_AWG} AWG chain and tile board trunk ({fused_wire_ma() / 1000:g} A for "
        f"the thinnest of them in the open air), and the adapter (the one supply for the Pi and the LEDs below "
        f"gives 5-6 A): a short or a pinched wire among them blows it before one runs hot. It does not protect the "
        f"thin branches off the 5 V, the tile board's 30 AWG wire-wrap jumpers to the level shifter and the "
        f"buzzer's driver, or the buzzer's 24 AWG wires: they carry tens of milliamps, and a short on one can heat "
        f"it before the fuse opens, which is why checks 1, 15 and 16 come before power. About "
        f"{fuse.ohms * 1000:.0f} mΩ "
        "in series: the chain's voltage in `wiring/README.md` counts it. Replace it only with the same rating; "
        "one that blows again means a fault to find, never a bigger fuse.",
        "",
    ]


def feed_lines(budget: PowerBudget) -> list[str]:
    """Why the chain has the feeds it has: its last LED's supply at the cap and at a glitch."""
    check = feed_check(chain_feeds(), budget.cap_ma, budget.chain_max_ma)
    cap, glitch = check.last_led
    return [
        f"**One feed for the LEDs**: the chain takes its 5 V at its start alone, through the tile board. Its last LED "
        f"still gets {cap:.2f} V at the cap and {glitch:.2f} V at a glitch's full white, above the {WS2812_VDD_MIN:g} V "
        "the WS2812B's datasheet asks for, so a second feed (its wires, lever connectors and hole) would buy nothing "
        "([the chain's wires](../wiring/README.md#the-chains-wires)).",
        "",
    ]


def amps(ma: int) -> str:
    """``3000`` -> ``"3 A"``, ``2500`` -> ``"2.5 A"``."""
    return f"{ma / 1000:g} A"


def _table(header: tuple[str, ...], rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def markdown(budget: PowerBudget, config: Config | None = None) -> str:
    """The budget as a Markdown section body (no heading)."""
    config = parse("") if config is None else config
    source = "the shipped default config" if config.source == "defaults" else f"`{config.source}`"
    b = budget
    out = [
        f"Computed by `{COMMAND}` from {source}: {b.leds} WS2812 LEDs (25 tiles, "
        f"{config.tiles.timer_leds} in the sand-timer bar, {config.tiles.turn_leds} for the turn), "
        f"`[tiles] brightness = {b.brightness}`, `max_current_ma = {b.cap_ma}`, and the firmware's LED model "
        f"({board.LED_MA_PER_CHANNEL} mA per colour channel at full, {board.LED_MA_IDLE} mA per dark LED). "
        "All currents at 5 V.",
        "",
        *_table(
            ("the LEDs", "current"),
            [
                ("all dark (the LEDs' own controllers)", f"{b.dark_ma} mA"),
                ("a typical mid-game frame at the configured brightness (12 tiles revealed, the rest idle, the timer half run)", f"{b.typical_ma} mA"),
                (f"every LED full white at brightness {b.brightness}, before the cap", f"{b.worst_ma} mA"),
                ("**the most the firmware lets them draw** (it scales every frame down to `max_current_ma`)", f"**{b.drawn_max_ma} mA**"),
                ("every LED full white at full brightness: a glitch on the data line, past every limit", f"{b.chain_max_ma} mA"),
            ],
        ),
        "",
        f"**The LED supply: 5 V, at least {amps(b.supply_ma)}.** It feeds the LEDs, the level shifter (about "
        f"{LEVEL_SHIFTER_MA} mA at most, its VCC on the LEDs' 5 V) and the buzzer's driver on the tile board (its coil "
        f"and series resistor, {BUZZER_MA} mA at most: the display's ribbon covers the Pi's 5 V pins), and is sized for "
        f"the last row, the shifter and the buzzer, {b.chain_max_ma + LEVEL_SHIFTER_MA + BUZZER_MA} mA, plus "
        f"{round((MARGIN - 1) * 100)} % (rounded up to a common rating), so not even a glitch can overload it; "
        "the firmware's cap keeps the real draw far below.",
        "",
        *fuse_lines(b),
        *feed_lines(b),
    ]
    out += [
        "**The Pi** runs from its own supply, as its makers recommend; the tile board's logic (the Pico and the three "
        f"MPR121, about {TILE_LOGIC_MA} mA at most) takes its power from the Pi's USB port along with the data:",
        "",
        *_table(
            ("Pi", "its supply", "USB for all its devices", "the tile board's share", "one 5 V supply for the Pi and the LEDs"),
            [
                (
                    pi.name,
                    amps(pi.supply_ma) + (f" ({pi.note})" if pi.note else ""),
                    f"{pi.usb_ma} mA" if pi.usb_ma else "its supply's limit",
                    f"{TILE_LOGIC_MA} mA" + (f" ({100 * TILE_LOGIC_MA // pi.usb_ma} %)" if pi.usb_ma else ""),
                    "no: it needs USB-C PD for 5 A; use its own supply"
                    if pi.name.endswith(" 5")
                    else f"{amps(rating(pi.supply_ma / MARGIN + b.chain_max_ma + LEVEL_SHIFTER_MA + BUZZER_MA))}, "
                    "the Pi through its USB power input",
                )
                for pi in PI_MODELS
            ],
        ),
        "",
        "One supply for both is sized for the Pi's recommended supply (its own margin included) plus the LEDs' "
        "glitch current, the level shifter and the buzzer, with the margin; split its output at the supply: one cable to the Pi's power input, "
        "one to the LED chain's feed.",
        "",
        "**The display** draws from the Pi (check yours; these are nominal figures):",
        "",
        *_table(("display", "powered from", "about"), [(d.name, d.fed_from, f"{d.ma} mA") for d in DISPLAYS]),
        "",
        "The Pi's recommended supply covers a display fed through it; a USB-powered HDMI screen also counts "
        "against the Pi's USB budget above (500 mA of it, with the tile board's share still left over).",
        "",
        f"**LEDs from a Pi USB port** (no LED supply, a small demo table only): a USB 2.0 port promises "
        f"{USB2_PORT_MA} mA. Set `max_current_ma = {USB_LED_CAP_MA}`; a typical frame then stays unscaled up to "
        f"`brightness = {b.usb_brightness}`, brighter frames are dimmed by the firmware. Feed the chain's 5 V from "
        "a second USB cable, never through the Pico. "
        + (
            f"This config's `max_current_ma = {b.cap_ma}` is within it."
            if b.fits_usb
            else f"This config's `max_current_ma = {b.cap_ma}` is more than a USB port gives: it needs the LED supply."
        ),
    ]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description="Print the table's power budget (Markdown) for a config: the LED supply needed, the Pi's and the USB budget.",
    )
    parser.add_argument("--config", metavar="FILE", help="a config file (default: the shipped defaults)")
    args = parser.parse_args(argv)
    if args.config:
        from codenames_board.clibase import load_config
        from codenames_board.i18n import Translator, detect_language

        config = load_config(args.config, Translator(detect_language()))
        if config is None:
            return 2
    else:
        config = parse("")
    sys.stdout.write(markdown(power_budget(config), config))
    return 0

