"""The actions players take: small immutable values, one class each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

UNLIMITED: Literal["unlimited"] = "unlimited"
MAX_CLUE = 9

ClueCount = Union[int, Literal["unlimited"]]


@dataclass(frozen=True)
class Clue:
    """The spymaster's clue: its number, 0-9 or ``UNLIMITED``, and its word where one was entered
    (a phone, the console); said aloud and given by the buttons, it has none. The rules read the number only."""

    count: ClueCount
    word: str | None = None

    name = "clue"


@dataclass(frozen=True)
class Touch:
    """A tile touched: a guess in the guess phase, a cover in the cover phase."""

    tile: int

    name = "touch"


@dataclass(frozen=True)
class EndTurn:
    """END TURN: operatives stop guessing (or, in a classic cover, the spymaster skips it)."""

    name = "end_turn"


@dataclass(frozen=True)
class Timeout:
    """The strict sand timer ran out."""

    name = "timeout"


@dataclass(frozen=True)
class Penalty:
    """The spymaster's clue was illegal."""

    name = "penalty"


@dataclass(frozen=True)
class Undo:
    """Take back the last action that still stands."""

    name = "undo"


Action = Union[Clue, Touch, EndTurn, Timeout, Penalty, Undo]
ACTIONS: dict[str, type] = {cls.name: cls for cls in (Clue, Touch, EndTurn, Timeout, Penalty, Undo)}
