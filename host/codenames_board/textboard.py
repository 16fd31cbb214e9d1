"""The board as text, for the console game and ``replay``."""

from __future__ import annotations

from .engine import COLUMNS, ROWS, Game, Identity, Phase, Team
from .i18n import Translator

_LETTER_IDS = {
    Identity.RED: "board.letter_red",
    Identity.BLUE: "board.letter_blue",
    Identity.BYSTANDER: "board.letter_bystander",
    Identity.ASSASSIN: "board.letter_assassin",
}
IDENTITY_IDS = {
    Identity.RED: "identity.red",
    Identity.BLUE: "identity.blue",
    Identity.BYSTANDER: "identity.bystander",
    Identity.ASSASSIN: "identity.assassin",
}


# Terminal colours for revealed tiles (ANSI SGR): the identity colours of the table's LEDs.
_COLOURS = {
    Identity.RED: "1;97;41",
    Identity.BLUE: "1;97;44",
    Identity.BYSTANDER: "30;103",
    Identity.ASSASSIN: "1;5;97;40",  # blinking, as the tile's LED strobes
}


def grid(
    game: Game, tr: Translator, words: list[str] | None = None, show_key: bool = False, colour: bool = False
) -> str:
    """The 5x5 grid as the operatives see it (row letters A-E, columns 1-5).

    Revealed tiles show their identity's letter in brackets; unrevealed ones a
    dot, or with ``show_key`` (the spymasters' view) their letter in lower case.
    ``colour`` paints revealed tiles in their identity's colour for a terminal.
    """
    letters = {identity: tr(msgid) for identity, msgid in _LETTER_IDS.items()}
    width = max(len(word) for word in words) + 5 if words else 6  # "[R] ", the word, a space before the next cell
    lines = ["   " + "".join(f"{column + 1:<{width}}" for column in range(COLUMNS)).rstrip()]
    for row in range(ROWS):
        cells = []
        for column in range(COLUMNS):
            tile = row * COLUMNS + column
            letter = letters[game.key[tile]]
            if game.is_revealed(tile):
                mark = f"[{letter.upper()}]"
            elif show_key:
                mark = f" {letter.lower()} "
            else:
                mark = " . "
            cell = f"{mark} {words[tile] if words else ''}".ljust(width)
            if colour and game.is_revealed(tile):
                text = cell.rstrip()
                cell = f"\033[{_COLOURS[game.key[tile]]}m{text}\033[0m" + cell[len(text):]
            cells.append(cell)
        lines.append(f"{'ABCDE'[row]}  " + "".join(cells).rstrip())
    legend = ", ".join(f"{letters[identity]} = {tr(msgid)}" for identity, msgid in IDENTITY_IDS.items())
    lines.append(tr("board.legend", letters=legend))
    return "\n".join(lines)


def status(game: Game, tr: Translator) -> str:
    """Whose turn, the phase, the clue and guesses, the agents left, the outcome."""
    team = game.turn.value
    lines = []
    if game.variant == "duo":
        lines.append(tr("board.duo_sides", players=tr(f"team.{game.players.value}"), shadow=tr(f"team.{game.shadow.value}")))
    lines.append(
        tr("board.remaining", red_name=tr("team.red"), red=game.remaining(Team.RED), blue_name=tr("team.blue"), blue=game.remaining(Team.BLUE))
    )
    if game.outcome is not None:
        lines.append(outcome_text(game, tr))
    elif game.phase is Phase.CLUE:
        lines.append(tr("board.phase_clue", team=team))
    elif game.phase is Phase.GUESS:
        if game.guesses_left is None:
            lines.append(tr("board.phase_guess_unlimited", team=team, made=game.guesses_made))
        else:
            lines.append(tr("board.phase_guess", team=team, count=game.clue, left=game.guesses_left))
    elif game.phase is Phase.COVER:
        msgid = "board.phase_cover_duo" if game.variant == "duo" else "board.phase_cover"
        lines.append(tr(msgid, team=team))
    return "\n".join(lines)


def outcome_text(game: Game, tr: Translator) -> str:
    outcome = game.outcome
    assert outcome is not None
    if game.variant == "duo":
        if outcome.winner is game.players:
            title = tr(f"duo.title_{outcome.score}")
            return tr("outcome.duo_win", score=outcome.score, title=title)
        if outcome.reason.value == "assassin":
            return tr("outcome.duo_assassin")
        return tr("outcome.duo_shadow")
    if outcome.reason.value == "assassin":
        return tr("outcome.assassin", winner=outcome.winner.value, loser=outcome.winner.other.value)
    return tr("outcome.agents", winner=outcome.winner.value)
