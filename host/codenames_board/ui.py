"""What the table shows besides the game itself: the spymaster panel's side of the state.

The spymaster display and the LED compositor are pure functions of the game
(``engine.GameView``), a ``UiState`` and the time. The table builds a new
UiState from its parts (prompts, the sand timer's run, the clue being dialled)
for each state it publishes (``published.TableState``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .engine import ClueCount

if TYPE_CHECKING:  # the tally is built elsewhere (evening.py reads records); the panel only shows it
    from .evening import Tally


class Confirm(enum.Enum):
    """A question on the spymaster display waiting for the confirm button."""

    UNDO = "undo"
    NEW_GAME = "new_game"
    PENALTY = "penalty"  # END TURN held: was the clue illegal?
    UNPAIR = "unpair"  # UNDO held (web page on): unpair every spymaster phone?
    NEW_EVENING = "new_evening"  # END TURN held between games: tonight's tally back to nothing?


class TimerMode(enum.Enum):
    ADVISORY = "advisory"  # as in the rulebook: it beeps and flashes, nothing else
    STRICT = "strict"  # at zero the guessing turn ends


@dataclass(frozen=True)
class SandTimer:
    total: float  # seconds the countdown started with
    left: float  # seconds left (0 when it ran out)
    mode: TimerMode = TimerMode.ADVISORY

    @property
    def expired(self) -> bool:
        return self.left <= 0

    @property
    def fraction(self) -> float:
        """How much sand is left, 1.0 (full) to 0.0 (empty)."""
        return max(0.0, min(1.0, self.left / self.total)) if self.total > 0 else 0.0


@dataclass(frozen=True)
class Notice:
    """A message for the spymaster display: a message id and its parameters."""

    msgid: str
    params: tuple[tuple[str, object], ...] = ()

    def text(self, tr) -> str:
        return tr(self.msgid, **dict(self.params))


@dataclass(frozen=True)
class PairingCard:
    """What the hooded display shows to pair a spymaster's phone (the web page's, set by its output)."""

    url: str  # the QR code's: BASE/pair#t=TOKEN
    pin: str  # six digits
    devices: int  # phones paired this game


@dataclass(frozen=True)
class UiState:
    clue_draft: ClueCount | None = None  # the number on the spymaster panel, not yet confirmed
    clue_entry: bool = True  # False: the table has no clue entry, touches are unlimited guesses
    confirm: Confirm | None = None
    timer: SandTimer | None = None  # None: the sand timer is not running
    board_connected: bool = True
    notices: tuple[Notice, ...] = field(default_factory=tuple)  # newest last
    muted: bool = False
    pairing: PairingCard | None = None  # set by the web page's output, never by the table
    evening: Tally | None = None  # tonight's tally, set by the display's output from the table's state
