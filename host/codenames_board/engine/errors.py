"""Errors a player (or a record file) can cause. All subclass ValueError.

Each error carries a message id and parameters so the user interface can say
it in the players' language; ``str()`` gives the English text, which the
English catalog repeats word for word (a test keeps the two equal).
"""

from __future__ import annotations

MESSAGES = {
    # keys
    "key_length": "a key has 25 letters, this one has {count}",
    "key_letter": "a key uses only the letters R, B, N and A, not \"{letter}\"",
    "key_start": "the start team is red or blue, not \"{start}\"",
    "key_counts": (
        "a key has 9 agents of the start team ({start}), 8 of the other team, "
        "7 bystanders and 1 assassin; this one has: red {red}, blue {blue}, "
        "bystanders {bystanders}, assassins {assassins}"
    ),
    # actions
    "tile_range": "there is no tile {tile}: tiles are numbered 0-24",
    "tile_revealed": "tile {name} is already revealed",
    "clue_range": "a clue number is 0-9 or unlimited, not \"{count}\"",
    "no_clue": "waiting for the spymaster's clue number first",
    "clue_given": "this turn already has its clue",
    "cover_pending": "the {team} spymaster first covers one of their own agents, or skips with end turn",
    "duo_cover_pending": "the spymaster first covers one agent of the shadow team ({team})",
    "not_own_agent": "tile {name} is not an unrevealed {team} agent: only unrevealed {team} agents can be covered",
    "no_guess_yet": "the operatives make at least one guess before they end the turn",
    "no_timer_in_cover": "the sand timer does not run while an agent is being covered",
    "penalty_phase": "a penalty is given for an illegal clue, during the clue or guess phase",
    "game_over": "the game is over: undo the last action or start a new game",
    "nothing_to_undo": "there is nothing to undo",
}


class RuleError(ValueError):
    """An action the rules do not allow (or a value the rules do not know)."""

    def __init__(self, msgid: str, **params: object) -> None:
        self.msgid = msgid
        self.params = params
        super().__init__(MESSAGES[msgid].format(**params))


class BadKey(RuleError):
    """A key card that is not 25 letters with 9/8/7/1 identities."""


class IllegalAction(RuleError):
    """An action the rules reject in the current state; the state is unchanged."""


class AlreadyRevealed(IllegalAction):
    pass


class NoClue(IllegalAction):
    pass


class NotOwnAgent(IllegalAction):
    pass


class GameIsOver(IllegalAction):
    pass


class NothingToUndo(IllegalAction):
    pass
