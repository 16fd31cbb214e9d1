"""What the web page's sockets send: JSON built from the table's published state.

``public_view`` is built from a ``PublicState`` alone, which holds nothing of an
unrevealed tile while the game runs (``published.public_state``): whatever this
module does with it, it has no key to leak. ``spymaster_view`` adds the key, from
the private ``TableState``; the server sends it only to phones paired for this game.
"""

from __future__ import annotations

from ..engine import Identity, Reason, Team, tile_name
from ..evening import Tally, tally_lines, team_name
from ..published import PublicState, TableState
from ..words import PACKS

IDENTITY_NAMES = {
    Identity.RED: "red", Identity.BLUE: "blue", Identity.BYSTANDER: "bystander", Identity.ASSASSIN: "assassin",
}


def public_view(public: PublicState, tr, spymasters: int) -> dict:
    """The public board's message: the grid as revealed, the clue, the log, the counts, the timer."""
    shown = {tile: identity for tile, identity in public.revealed}
    covered = set(public.covered)
    words = public.words
    tiles = [
        {
            "word": words[tile] if words else None,
            "shown": IDENTITY_NAMES[shown[tile]] if tile in shown else None,
            "covered": tile in covered,
        }
        for tile in range(25)
    ]
    timer = public.timer
    outcome = public.outcome
    return {
        "type": "state",
        "number": public.number,
        "variant": public.variant,
        "start": public.start.value,
        "turn": public.turn.value,
        "phase": public.phase.value,
        "tiles": tiles,
        "clue": None if public.clue is None else {"word": public.clue_word, "count": public.clue},
        "guesses_made": public.guesses_made,
        "guesses_left": public.guesses_left,
        "agents_left": {"red": public.agents_left[0], "blue": public.agents_left[1]},
        "timer": None if timer is None else {"total": timer.total, "left": round(timer.left, 2), "mode": timer.mode.value},
        "notices": [notice.text(tr) for notice in public.notices],
        "outcome": None if outcome is None else {
            "winner": outcome.winner.value, "reason": reason(public), "score": outcome.score,
        },
        "outcome_text": None if outcome is None else outcome_text(public, tr),
        "key": public.key_after_game,
        "clues": [
            {
                "team": entry.team.value,
                "kind": entry.kind,
                "word": entry.word,
                "count": entry.count,
                "ended": entry.ended,
                "touched": [
                    {
                        "tile": tile, "name": tile_name(tile), "word": words[tile] if words else None,
                        "identity": IDENTITY_NAMES[identity], "covered": was_covered,
                    }
                    for tile, identity, was_covered in entry.touched
                ],
            }
            for entry in public.clues
        ],
        "board_connected": public.board_connected,
        "spymasters": spymasters,
        "language": tr.language,
        "evening": evening_view(public.evening, tr),
    }


def evening_view(tally: Tally | None, tr) -> dict | None:
    """Tonight's tally, the teams named as the display names them (``names``) and as they were set
    (``given``: "" where a team goes by its colour, for the phone's form)."""
    if tally is None:
        return None
    return {
        **tally.to_json(),
        "names": {team.value: team_name(tally, team, tr) for team in Team},
        "given": {"red": tally.names[0], "blue": tally.names[1]},
        "lines": tally_lines(tally, tr),
    }


def spymaster_view(state: TableState, tr, spymasters: int, clue_entry: bool) -> dict:
    """The paired phones' message: the public one, the key, whether a clue may be given now, and the word
    pack of the next games (``pack``: a pack's name, "file" for a list of the players' own, None where the
    table deals no words) with the packs a phone may choose (``packs``: none where it may not)."""
    view = public_view(state.public, tr, spymasters)
    view["key"] = state.game.key.letters
    view["clue_entry"] = clue_entry and state.game.phase.value == "clue"
    view["words_entry"] = state.words is None and not state.game.is_over  # the cards' words, typed in once
    view["redeals_left"] = state.redeals  # words that may be dealt again now (before the first clue)
    view["pack"] = state.word_pack
    view["packs"] = list(PACKS) if state.word_pack is not None else []  # their names: the texts' pack.* ids
    return view


def reason(public: PublicState) -> str:
    """Why the game ended: agents, assassin, or shadow (duo: every shadow agent is out, the players lose)."""
    outcome = public.outcome
    if public.variant == "duo" and outcome.winner is not public.start and outcome.reason is Reason.AGENTS:
        return "shadow"
    return outcome.reason.value


def outcome_text(public: PublicState, tr) -> str:
    """How the game ended, in the hooded display's words."""
    outcome = public.outcome
    assert outcome is not None
    assassin = outcome.reason is Reason.ASSASSIN
    if public.variant == "duo":
        if outcome.winner is public.start:  # the players
            title, left = tr(f"duo.title_{outcome.score}"), tr("display.duo_score", score=outcome.score)
            return f"{tr('display.duo_win')} {title}. {left}."
        why = tr("display.reason_duo_assassin") if assassin else tr("display.reason_duo_shadow")
        return f"{tr('display.shadow_wins')}. {why}"
    headline = tr("display.wins", winner=outcome.winner.value)
    why = tr("display.reason_assassin", loser=outcome.winner.other.value) if assassin else tr("display.reason_agents")
    return f"{headline[:1].upper()}{headline[1:]} {why}"
