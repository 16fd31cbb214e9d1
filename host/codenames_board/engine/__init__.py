"""The game engine: the rules of Codenames, pure Python.

Standard library only; no clock, no I/O, no randomness except a seed passed
to :meth:`Key.generate`. Everything else in codenames_board builds on this
package and this package imports nothing of theirs.
"""

from .actions import ACTIONS, MAX_CLUE, UNLIMITED, Action, Clue, ClueCount, EndTurn, Penalty, Timeout, Touch, Undo
from .duo import DUO_SCORES, DuoGame
from .errors import AlreadyRevealed, BadKey, GameIsOver, IllegalAction, NoClue, NothingToUndo, NotOwnAgent, RuleError
from .game import (
    ClueGiven,
    CoverSkipped,
    Event,
    Game,
    GameOver,
    Outcome,
    Phase,
    Reason,
    TileCovered,
    TileRevealed,
    TurnEnd,
    TurnEnded,
    Undone,
)
from .key import COLUMNS, ROWS, TILES, Identity, Key, Team, parse_tile, tile_name
from .view import GameView

VARIANTS: dict[str, type[Game]] = {"classic": Game, "duo": DuoGame}


def new_game(key: Key, variant: str = "classic") -> Game:
    """A game of the named variant (``classic`` or ``duo``) on this key."""
    return VARIANTS[variant](key)


__all__ = [name for name in dir() if not name.startswith("_")]
