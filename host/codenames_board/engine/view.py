"""A game as it stood at one moment: immutable, for the outputs that show it.

``GameView.of(game)`` copies what a game's outputs read (the key, the turn, the
revealed tiles, ...) into a frozen value with the same read-only interface as
:class:`Game` (``is_over``, ``is_revealed``, ``remaining``, ``players`` and
``shadow`` in duo). Outputs on other threads may keep it as long as they like:
nothing changes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, ClueCount
from .game import Game, Outcome, Phase
from .key import Key, Team


@dataclass(frozen=True)
class GameView:
    variant: str
    key: Key
    turn: Team
    phase: Phase
    revealed: tuple[int, ...]  # in reveal order, covers included
    covered: tuple[int, ...]
    clue: ClueCount | None
    guesses_made: int
    guesses_left: int | None
    outcome: Outcome | None
    left: tuple[int, int]  # agents not yet revealed or covered: red, blue
    actions: tuple[Action, ...]  # the standing actions, oldest first
    version: int
    cover_can_skip: bool
    clues: tuple[tuple, ...] = ()  # (team, count, word or None, tiles revealed before it, action index), oldest first
    ends: tuple[tuple, ...] = ()  # the turns' ends: (team, TurnEnd, action index, tiles revealed by then)

    @classmethod
    def of(cls, game: Game) -> GameView:
        return cls(
            game.variant, game.key, game.turn, game.phase, tuple(game.revealed), tuple(game.covered), game.clue,
            game.guesses_made, game.guesses_left, game.outcome, (game.remaining(Team.RED), game.remaining(Team.BLUE)),
            tuple(game.actions), game.version, game.cover_can_skip, tuple(game.clues), tuple(game.ends),
        )

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def is_revealed(self, tile: int) -> bool:
        return tile in self.revealed

    def remaining(self, team: Team) -> int:
        return self.left[0] if team is Team.RED else self.left[1]

    @property
    def players(self) -> Team:
        """Duo: the players' team (the start team)."""
        return self.key.start

    @property
    def shadow(self) -> Team:
        """Duo: the shadow team."""
        return self.key.start.other
