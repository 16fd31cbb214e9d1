"""Teams, identities and the key card: small value types that round-trip through text."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from .errors import BadKey

TILES = 25
ROWS = COLUMNS = 5


class Team(enum.Enum):
    RED = "red"
    BLUE = "blue"

    @property
    def other(self) -> Team:
        return Team.BLUE if self is Team.RED else Team.RED

    @property
    def identity(self) -> Identity:
        """The identity of this team's agents."""
        return Identity.RED if self is Team.RED else Identity.BLUE


class Identity(enum.Enum):
    """What a tile is on the key card, by its letter in the key's text form."""

    RED = "R"
    BLUE = "B"
    BYSTANDER = "N"
    ASSASSIN = "A"

    @property
    def team(self) -> Team | None:
        """The team whose agent this is, or None for bystanders and the assassin."""
        if self is Identity.RED:
            return Team.RED
        if self is Identity.BLUE:
            return Team.BLUE
        return None


START_AGENTS = 9  # the start team's agents, the double agent included
OTHER_AGENTS = 8
BYSTANDERS = 7
ASSASSINS = 1


@dataclass(frozen=True)
class Key:
    """The 25 identities, row-major as the operatives see the grid, and the start team.

    The text form is the 25 letters, a colon and the start team:
    ``RRRRRRRRRBBBBBBBBNNNNNNNA:red``. The start team is the one with 9 agents,
    so the part after the colon may be left out when parsing.
    """

    identities: tuple[Identity, ...]
    start: Team

    def __post_init__(self) -> None:
        if len(self.identities) != TILES:
            raise BadKey("key_length", count=len(self.identities))
        counts = {identity: self.identities.count(identity) for identity in Identity}
        expected = {
            self.start.identity: START_AGENTS,
            self.start.other.identity: OTHER_AGENTS,
            Identity.BYSTANDER: BYSTANDERS,
            Identity.ASSASSIN: ASSASSINS,
        }
        if counts != expected:
            raise BadKey(
                "key_counts",
                start=self.start.value,
                red=counts[Identity.RED],
                blue=counts[Identity.BLUE],
                bystanders=counts[Identity.BYSTANDER],
                assassins=counts[Identity.ASSASSIN],
            )

    def __getitem__(self, tile: int) -> Identity:
        return self.identities[tile]

    def __iter__(self):
        return iter(self.identities)

    @property
    def letters(self) -> str:
        return "".join(identity.value for identity in self.identities)

    def text(self) -> str:
        return f"{self.letters}:{self.start.value}"

    def __str__(self) -> str:
        return self.text()

    def agents(self, team: Team) -> list[int]:
        """The tiles of a team's agents."""
        return [tile for tile, identity in enumerate(self.identities) if identity is team.identity]

    @classmethod
    def from_text(cls, text: str) -> Key:
        letters, _, start_text = text.strip().partition(":")
        letters = letters.upper()
        try:
            identities = tuple(Identity(letter) for letter in letters)
        except ValueError:
            bad = next(letter for letter in letters if letter not in "RBNA")
            raise BadKey("key_letter", letter=bad) from None
        if len(identities) != TILES:
            raise BadKey("key_length", count=len(identities))
        if start_text:
            try:
                start = Team(start_text.strip().lower())
            except ValueError:
                raise BadKey("key_start", start=start_text.strip()) from None
        else:
            start = Team.RED if identities.count(Identity.RED) == START_AGENTS else Team.BLUE
        return cls(identities, start)

    @classmethod
    def generate(cls, seed: int | str | random.Random) -> Key:
        """A key drawn uniformly over start teams and arrangements.

        ``seed`` is a seed for :class:`random.Random` or an RNG to draw from;
        the engine has no randomness of its own.
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        start = rng.choice((Team.RED, Team.BLUE))
        identities = (
            [start.identity] * START_AGENTS
            + [start.other.identity] * OTHER_AGENTS
            + [Identity.BYSTANDER] * BYSTANDERS
            + [Identity.ASSASSIN] * ASSASSINS
        )
        rng.shuffle(identities)
        return cls(tuple(identities), start)


def tile_name(tile: int) -> str:
    """A tile's coordinate as players say it: row letter A-E, column 1-5 (``C3`` is the centre)."""
    row, column = divmod(tile, COLUMNS)
    return f"{'ABCDE'[row]}{column + 1}"


def parse_tile(text: str) -> int:
    """A tile from ``C3``, ``c3``, ``3 3`` (row and column, 1-5) or ``#12`` (index 0-24)."""
    text = text.strip()
    if text.startswith("#") and text[1:].isdigit():
        tile = int(text[1:])
        if 0 <= tile < TILES:
            return tile
        raise ValueError(text)
    parts = text.replace(",", " ").split()
    if len(parts) == 2 and all(part.isdigit() for part in parts):
        row, column = int(parts[0]) - 1, int(parts[1]) - 1
    elif len(text) == 2 and text[0].upper() in "ABCDE" and text[1].isdigit():
        row, column = "ABCDE".index(text[0].upper()), int(text[1]) - 1
    else:
        raise ValueError(text)
    if 0 <= row < ROWS and 0 <= column < COLUMNS:
        return row * COLUMNS + column
    raise ValueError(text)
