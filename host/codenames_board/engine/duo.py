"""The two-player variant: one team of players against a shadow team.

The players are the start team. After each of their turns the spymaster
covers one shadow agent (mandatory). The players lose on the assassin or when
the shadow team's last agent is revealed or covered; a win scores the shadow
agents still uncovered (1-8). An illegal clue just ends the turn (and the
cover follows, as after every turn).
"""

from __future__ import annotations

from . import errors
from .game import Event, Game, Outcome, Phase, Reason, TurnEnd
from .key import Team


class DuoGame(Game):
    variant = "duo"
    cover_can_skip = False

    @property
    def players(self) -> Team:
        return self.key.start

    @property
    def shadow(self) -> Team:
        return self.key.start.other

    def _end_turn(self, reason: TurnEnd) -> list[Event]:
        events: list[Event] = [self._ended(reason)]
        self.clue = None
        self.guesses_made = 0
        self.guesses_left = None
        self.turn = self.shadow
        self.phase = Phase.COVER
        return events

    def _after_cover(self) -> None:
        self.turn = self.players
        self.phase = Phase.CLUE

    def _cover_pending(self) -> errors.IllegalAction:
        return errors.IllegalAction("duo_cover_pending", team=self.shadow.value)

    def _win(self, team: Team) -> Outcome:
        if team is self.players:
            return Outcome(team, Reason.AGENTS, score=self.remaining(self.shadow))
        return Outcome(team, Reason.AGENTS)


DUO_SCORES = range(1, 9)
