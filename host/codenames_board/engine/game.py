"""The rules: a game is a key plus a stack of accepted actions.

Commands go in (:meth:`Game.play`), events come out. A rejected action raises
an :class:`~.errors.IllegalAction` and leaves the game exactly as it was.
Undo pops the action stack: every accepted action keeps the small state it
changed (a snapshot taken before it ran, python-chess's push/pop), so undo
costs the same in the first minute and after ten thousand actions.
"""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass

from . import errors
from .actions import MAX_CLUE, UNLIMITED, Action, Clue, ClueCount, EndTurn, Penalty, Timeout, Touch, Undo
from .key import TILES, Identity, Key, Team, tile_name


class Phase(enum.Enum):
    CLUE = "clue"  # waiting for the spymaster's number
    GUESS = "guess"  # operatives touch tiles
    COVER = "cover"  # a spymaster covers one of a team's agents
    OVER = "over"


class Reason(enum.Enum):
    """Why a game ended."""

    AGENTS = "agents"  # the winner's agents are all revealed
    ASSASSIN = "assassin"  # the loser touched the assassin


class TurnEnd(enum.Enum):
    """Why a guessing turn ended."""

    BYSTANDER = "bystander"
    OPPONENT = "opponent"  # an agent of the other team was touched
    LIMIT = "limit"  # clue number + 1 guesses used
    END_TURN = "end_turn"
    TIMEOUT = "timeout"
    PENALTY = "penalty"


@dataclass(frozen=True)
class Outcome:
    winner: Team
    reason: Reason
    score: int | None = None  # duo: the shadow agents still uncovered when the players win


# Events: what happened, for the controller to show.


@dataclass(frozen=True)
class ClueGiven:
    team: Team
    count: ClueCount
    word: str | None = None


@dataclass(frozen=True)
class TileRevealed:
    tile: int
    identity: Identity
    team: Team  # the team whose operatives touched it


@dataclass(frozen=True)
class TileCovered:
    tile: int
    identity: Identity
    team: Team  # the team whose spymaster covered one of its own agents


@dataclass(frozen=True)
class CoverSkipped:
    team: Team


@dataclass(frozen=True)
class TurnEnded:
    team: Team
    reason: TurnEnd


@dataclass(frozen=True)
class GameOver:
    outcome: Outcome


@dataclass(frozen=True)
class Undone:
    action: Action


Event = ClueGiven | TileRevealed | TileCovered | CoverSkipped | TurnEnded | GameOver | Undone


class Position:
    """Where a game stands: the key, whose turn, the phase, the revealed tiles, and the actions that led
    here with what each changed (so that an undo restores it). The rules are :class:`Game`'s."""

    variant = "classic"
    cover_can_skip = True  # a classic penalty cover may be skipped with END TURN

    def __init__(self, key: Key) -> None:
        self.key = key
        self.actions: list[Action] = []  # accepted actions still standing (undone ones removed)
        self._before: list[tuple] = []  # the state before each standing action (see _save)
        self.version = 0  # counts every change (play and undo): "has anything changed?" in O(1)
        self._restart()

    def _restart(self) -> None:
        self.turn = self.key.start
        self.phase = Phase.CLUE
        self.revealed: list[int] = []  # in reveal order, covers included
        self.covered: list[int] = []  # the revealed tiles that a spymaster covered
        self.clue: ClueCount | None = None
        self.guesses_made = 0
        self.guesses_left: int | None = None
        self.outcome: Outcome | None = None
        # The clues given, oldest first: (team, count, word or None, tiles revealed before it, its action's index).
        self.clues: list[tuple[Team, ClueCount, str | None, int, int]] = []
        # The guessing turns' ends: (team, why, the index of the action that ended it, tiles revealed by then).
        self.ends: list[tuple[Team, TurnEnd, int, int]] = []
        self._left = {team: len(self.key.agents(team)) for team in Team}  # agents not yet revealed

    def _save(self) -> tuple:
        """What an action may change. ``revealed``, ``covered``, ``clues`` and ``ends`` only grow between
        undos, so their lengths are enough to restore them."""
        return (
            self.turn, self.phase, len(self.revealed), len(self.covered), len(self.clues), len(self.ends),
            self.clue, self.guesses_made, self.guesses_left, self.outcome,
            self._left[Team.RED], self._left[Team.BLUE],
        )

    def _load(self, saved: tuple) -> None:
        (
            self.turn, self.phase, revealed, covered, clues, ends, self.clue, self.guesses_made, self.guesses_left,
            self.outcome, self._left[Team.RED], self._left[Team.BLUE],
        ) = saved
        del self.revealed[revealed:]
        del self.covered[covered:]
        del self.clues[clues:]
        del self.ends[ends:]

    def copy(self) -> Position:
        """An independent copy (for another thread to read while this game goes on)."""
        twin = copy.copy(self)
        twin.actions, twin._before = list(self.actions), list(self._before)
        twin.revealed, twin.covered, twin.clues = list(self.revealed), list(self.covered), list(self.clues)
        twin.ends = list(self.ends)
        twin._left = dict(self._left)
        return twin

    def __repr__(self) -> str:
        return f"<{type(self).__name__} key={self.key.text()} phase={self.phase.value} turn={self.turn.value} actions={len(self.actions)}>"

    # --- queries

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def is_revealed(self, tile: int) -> bool:
        return tile in self.revealed

    def remaining(self, team: Team) -> int:
        """A team's agents not yet revealed or covered."""
        return self._left[team]

    def legal_actions(self) -> list[Action]:
        """Every action :meth:`play` would accept now."""
        legal: list[Action] = []
        if self.phase is Phase.CLUE:
            legal += [Clue(count) for count in range(MAX_CLUE + 1)] + [Clue(UNLIMITED), Timeout(), Penalty()]
        elif self.phase is Phase.GUESS:
            legal += [Touch(tile) for tile in range(TILES) if tile not in self.revealed]
            if self.guesses_made:
                legal.append(EndTurn())
            legal += [Timeout(), Penalty()]
        elif self.phase is Phase.COVER:
            legal += [Touch(tile) for tile in self.key.agents(self.turn) if tile not in self.revealed]
            if self.cover_can_skip:
                legal.append(EndTurn())
        if self.actions:
            legal.append(Undo())
        return legal

    def state(self) -> dict:
        """The state as plain JSON values (what ``codenames-board replay --json`` prints)."""
        outcome = self.outcome
        return {
            "variant": self.variant,
            "key": self.key.letters,
            "start": self.key.start.value,
            "turn": self.turn.value,
            "phase": self.phase.value,
            "clue": self.clue,
            "guesses_made": self.guesses_made,
            "guesses_left": self.guesses_left,
            "revealed": list(self.revealed),
            "covered": list(self.covered),
            "remaining": {team.value: self.remaining(team) for team in Team},
            "winner": outcome.winner.value if outcome else None,
            "reason": outcome.reason.value if outcome else None,
            "score": outcome.score if outcome else None,
            "actions": len(self.actions),
        }



class Game(Position):
    """A classic game: two teams, the rulebook's rules."""

    # --- commands

    def play(self, action: Action) -> list[Event]:
        """Apply an action; returns what happened. Raises IllegalAction and changes nothing if refused."""
        if isinstance(action, Undo):
            return self.undo()
        if self.is_over:
            raise errors.GameIsOver("game_over")
        before = self._save()
        if isinstance(action, Clue):
            events = self._clue(action.count, action.word)
        elif isinstance(action, Touch):
            events = self._touch(action.tile)
        elif isinstance(action, EndTurn):
            events = self._end_turn_pressed()
        elif isinstance(action, Timeout):
            events = self._timeout()
        elif isinstance(action, Penalty):
            events = self._penalty()
        else:
            raise TypeError(f"not an action: {action!r}")
        self.actions.append(action)
        self._before.append(before)
        self.version += 1
        return events

    def undo(self) -> list[Event]:
        """Take back the last standing action, even one that ended the game."""
        if not self.actions:
            raise errors.NothingToUndo("nothing_to_undo")
        last = self.actions.pop()
        self._load(self._before.pop())
        self.version += 1
        return [Undone(last)]

    # --- rules

    def _clue(self, count: ClueCount, word: str | None = None) -> list[Event]:
        if self.phase is Phase.GUESS:
            raise errors.IllegalAction("clue_given")
        if self.phase is Phase.COVER:
            raise self._cover_pending()
        valid = count == UNLIMITED or (type(count) is int and 0 <= count <= MAX_CLUE)
        if not valid:
            raise errors.IllegalAction("clue_range", count=count)
        self.phase = Phase.GUESS
        self.clue = count
        self.guesses_made = 0
        self.guesses_left = count + 1 if isinstance(count, int) and count > 0 else None
        self.clues.append((self.turn, count, word, len(self.revealed), len(self.actions)))
        return [ClueGiven(self.turn, count, word)]

    def _touch(self, tile: int) -> list[Event]:
        if type(tile) is not int or not 0 <= tile < TILES:
            raise errors.IllegalAction("tile_range", tile=tile)
        if tile in self.revealed:
            raise errors.AlreadyRevealed("tile_revealed", tile=tile, name=tile_name(tile))
        if self.phase is Phase.CLUE:
            raise errors.NoClue("no_clue")
        if self.phase is Phase.COVER:
            return self._cover(tile)
        return self._guess(tile)

    def _guess(self, tile: int) -> list[Event]:
        identity = self.key[tile]
        self.revealed.append(tile)
        self.guesses_made += 1
        events: list[Event] = [TileRevealed(tile, identity, self.turn)]
        owner = identity.team
        if owner is not None:
            self._left[owner] -= 1
        if identity is Identity.ASSASSIN:
            events += self._finish(Outcome(self.turn.other, Reason.ASSASSIN))
        elif owner is not None and self.remaining(owner) == 0:
            events += self._finish(self._win(owner))  # also when it is the other team's last agent
        elif owner is self.turn:
            if self.guesses_left is not None:
                self.guesses_left -= 1
                if self.guesses_left == 0:
                    events += self._end_turn(TurnEnd.LIMIT)
        elif identity is Identity.BYSTANDER:
            events += self._end_turn(TurnEnd.BYSTANDER)
        else:
            events += self._end_turn(TurnEnd.OPPONENT)
        return events

    def _cover(self, tile: int) -> list[Event]:
        identity = self.key[tile]
        if identity is not self.turn.identity:
            raise errors.NotOwnAgent("not_own_agent", tile=tile, name=tile_name(tile), team=self.turn.value)
        self.revealed.append(tile)
        self.covered.append(tile)
        self._left[self.turn] -= 1
        events: list[Event] = [TileCovered(tile, identity, self.turn)]
        if self.remaining(self.turn) == 0:
            return events + self._finish(self._win(self.turn))
        self._after_cover()
        return events

    def _end_turn_pressed(self) -> list[Event]:
        if self.phase is Phase.CLUE:
            raise errors.NoClue("no_clue")
        if self.phase is Phase.COVER:
            if not self.cover_can_skip:
                raise self._cover_pending()
            self._after_cover()
            return [CoverSkipped(self.turn)]
        if not self.guesses_made:
            raise errors.IllegalAction("no_guess_yet")
        return self._end_turn(TurnEnd.END_TURN)

    def _timeout(self) -> list[Event]:
        if self.phase is Phase.COVER:
            raise errors.IllegalAction("no_timer_in_cover")
        return self._end_turn(TurnEnd.TIMEOUT)

    def _penalty(self) -> list[Event]:
        if self.phase is Phase.COVER:
            raise errors.IllegalAction("penalty_phase")
        return self._end_turn(TurnEnd.PENALTY)

    def _end_turn(self, reason: TurnEnd) -> list[Event]:
        events: list[Event] = [self._ended(reason)]
        self.clue = None
        self.guesses_made = 0
        self.guesses_left = None
        self.turn = self.turn.other
        # After an illegal clue the other team's spymaster may cover one of their agents first.
        self.phase = Phase.COVER if reason is TurnEnd.PENALTY else Phase.CLUE
        return events

    def _ended(self, reason: TurnEnd) -> TurnEnded:
        """The turn's end, kept for the clue log (every variant's ``_end_turn`` says it here)."""
        self.ends.append((self.turn, reason, len(self.actions), len(self.revealed)))
        return TurnEnded(self.turn, reason)

    def _after_cover(self) -> None:
        self.phase = Phase.CLUE  # the covering team plays next

    def _cover_pending(self) -> errors.IllegalAction:
        return errors.IllegalAction("cover_pending", team=self.turn.value)

    def _win(self, team: Team) -> Outcome:
        return Outcome(team, Reason.AGENTS)

    def _finish(self, outcome: Outcome) -> list[Event]:
        self.outcome = outcome
        self.phase = Phase.OVER
        self.guesses_left = None
        return [GameOver(outcome)]
