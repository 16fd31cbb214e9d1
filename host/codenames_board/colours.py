"""The table's colours: the palette of the LEDs and small helpers on RGB tuples.

Colours are what a frame carries, before the board applies its brightness and
current cap: full-scale values, so a palette looks the same at every brightness.
A palette round-trips through config text (``"#rrggbb"`` per name).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields

from .engine import Identity, Team

RGB = tuple[int, int, int]

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)

_HEX = re.compile(r"#[0-9a-fA-F]{6}")


class BadColour(ValueError):
    """A palette entry that is not a usable colour; ``key`` names the entry."""

    def __init__(self, key: str, why: str) -> None:
        self.key = key
        super().__init__(f"{key}: {why}")


def parse_colour(text: str) -> RGB:
    """``"#ff8000"`` -> ``(255, 128, 0)``; ValueError for anything else."""
    if not isinstance(text, str) or not _HEX.fullmatch(text.strip()):
        raise ValueError(f"{text!r} is not a colour: write it as \"#rrggbb\", e.g. \"#ff0000\" for red")
    value = int(text.strip()[1:], 16)
    return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)


def colour_text(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def scale(colour: RGB, factor: float) -> RGB:
    """The colour at ``factor`` (0-1) of its brightness; a lit channel never rounds to dark."""
    return tuple(max(1, round(value * factor)) if value and factor > 0 else 0 for value in colour)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved the fraction ``t`` (0-1) of the way to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@dataclass(frozen=True)
class Palette:
    """Every colour the LEDs show, by what it means on the table."""

    red: RGB = (255, 0, 0)  # red agent
    blue: RGB = (0, 40, 255)  # blue agent: a touch of green reads bluer on a WS2812
    bystander: RGB = (255, 150, 70)  # warm white / beige
    assassin: RGB = (96, 0, 128)  # after the strobe: a dim violet no other identity uses
    assassin_strobe: RGB = WHITE
    idle: RGB = (8, 8, 8)  # unrevealed tiles: a faint glow ("#000000": off)
    timer: RGB = (0, 200, 60)  # the sand-timer bar while it drains
    timer_warning: RGB = (255, 110, 0)  # its last 20 %
    timer_expired: RGB = (255, 0, 0)  # the bar's flash at zero
    turn_red: RGB = (255, 0, 0)
    turn_blue: RGB = (0, 40, 255)
    refused: RGB = (255, 200, 0)  # a touch the rules refused: a quick double blink

    def __post_init__(self) -> None:
        for entry in fields(self):
            colour = getattr(self, entry.name)
            ok = isinstance(colour, tuple) and len(colour) == 3
            if not (ok and all(isinstance(value, int) and 0 <= value <= 255 for value in colour)):
                raise BadColour(entry.name, f"{colour!r} is not three values 0-255")
        # Players read identities by colour alone: no two may look the same.
        seen: dict[RGB, str] = {}
        for name in ("red", "blue", "bystander", "assassin", "idle"):
            colour = getattr(self, name)
            if colour in seen:
                raise BadColour(name, f"{colour_text(colour)} is already the colour of {seen[colour]}: each identity needs its own")
            seen[colour] = name

    def identity(self, identity: Identity) -> RGB:
        """The colour of a revealed tile of this identity (the assassin after its strobe)."""
        return {
            Identity.RED: self.red,
            Identity.BLUE: self.blue,
            Identity.BYSTANDER: self.bystander,
            Identity.ASSASSIN: self.assassin,
        }[identity]

    def agent(self, team: Team) -> RGB:
        return self.red if team is Team.RED else self.blue

    def turn(self, team: Team) -> RGB:
        return self.turn_red if team is Team.RED else self.turn_blue

    @classmethod
    def from_config(cls, table: dict, section: str = "") -> Palette:
        """A palette from config: ``{"red": "#ff0000", ...}``; names left out keep their default.

        ``section`` prefixes the key in error messages (``"leds.colours"`` ->
        ``leds.colours.red: ...``) so the user finds the line to fix.
        """
        names = {entry.name for entry in fields(cls)}
        prefix = f"{section}." if section else ""
        colours = {}
        for key, text in table.items():
            if key not in names:
                raise BadColour(prefix + key, f"unknown colour name; the names are: {', '.join(sorted(names))}")
            try:
                colours[key] = parse_colour(text)
            except ValueError as error:
                raise BadColour(prefix + key, str(error)) from None
        try:
            return cls(**colours)
        except BadColour as error:
            raise BadColour(prefix + error.key, str(error).partition(": ")[2]) from None

    def to_config(self) -> dict[str, str]:
        return {name: colour_text(colour) for name, colour in asdict(self).items()}


#: The identities' colours for players with a colour-vision deficiency (``[colours] palette = "colourblind"``):
#: an orange-red, a blue, white and a purple stay at least ΔE 47 apart under normal vision, protanopia,
#: deuteranopia and tritanopia, and the purple 44 from an unrevealed tile's glow (``colourblind.closest``;
#: the standard palette's weakest pair, red against the bystanders' warm white under deuteranopia, is 16).
#: Chosen by that measure from LED-friendly candidates.
COLOUR_BLIND = {"red": (255, 40, 0), "blue": (20, 60, 255), "bystander": (255, 255, 255), "assassin": (130, 0, 130)}


def palette_of(colours) -> Palette:
    """The LEDs' palette from the configuration's [colours] (a Section or a dict)."""
    chosen = dict(colours.as_dict() if hasattr(colours, "as_dict") else colours)
    if chosen.pop("palette", "standard") == "colourblind":
        chosen.update(COLOUR_BLIND)
    return Palette(**chosen, turn_red=chosen["red"], turn_blue=chosen["blue"])
