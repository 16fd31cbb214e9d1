"""The games folder as the web page's history shows it: the list of games, and one game turn by turn.

``games(folder)`` is the ``/api/history`` payload, ``game(folder, number)`` the ``/api/history/{n}``
one (web-spec.md, "History"). Both return plain JSON values, never text: the page says them in its
language (an unreadable record is ``"error": "error.<msgid>"``, the catalog's key of the record's
message, with its line and parameters).

Secrecy: the key of an unfinished game is the spymasters' secret. Neither function puts the key,
the seed (which deals the key again) or an unrevealed tile's identity into an unfinished game's
payload: identities appear only on the events of revealed tiles, the key only once the game is over.
A record the rules reject says which line and which rule, never the rule's parameters (a refused
cover names a tile that is not an agent).

Bounds: the listing reads at most the newest ``MOST_LISTED`` records, one at a time, each within the
record module's limits (2 MiB, 10,000 actions), and keeps only a few fields of each. No state and
no thread: the web server calls these off its event loop, since they read files.
"""

from __future__ import annotations

from pathlib import Path

from .. import stats
from ..engine import (
    Action,
    Clue,
    CoverSkipped,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Reason,
    Team,
    TileCovered,
    Touch,
    Undo,
    new_game,
    tile_name,
)
from ..record import Record, RecordError, read_record
from ..shelf import numbered_records

MOST_LISTED = 200  # the newest games listed; older ones stay in the folder (and in the stats)


def games(folder: Path) -> dict:
    """Every record in ``folder``, newest (highest number) first, at most ``MOST_LISTED``, and the stats."""
    listed = [_summary(number, name, path) for number, name, path in numbered_records(folder)[:MOST_LISTED]]
    return {"folder": str(folder), "games": listed, "stats": stats.collect(folder).to_json()}


def game(folder: Path, number: int) -> dict | None:
    """Game ``number`` turn by turn, or None where the folder has no record of that number.

    A record that cannot be read gives ``{"number", "name", "error", "line", "params"}``.
    """
    if type(number) is not int or number < 0:
        return None
    found = next((item for item in numbered_records(folder) if item[0] == number), None)
    if found is None:
        return None
    _, name, path = found
    try:
        record = read_record(path)
        played, standing = replay(record)
    except (ValueError, OSError) as error:
        return {"number": number, "name": name, **_error(error, name)}
    header = record.header
    words = header.words
    return {
        "number": number,
        "name": name,
        "variant": header.variant,
        "created": header.created,
        "finished": played.is_over,
        "words": words,
        "start": header.key.start.value,
        "key": header.key.letters if played.is_over else None,
        "turns": turns(standing, words),
        "outcome": _outcome(played),
        "torn": record.torn_line is not None,
    }


# --- reading


def replay(record: Record) -> tuple[Game, list[tuple[Team, Action, list[Event]]]]:
    """The game after the record's actions, and the actions that still stand, each with the team
    that took it and the events it caused (an undo line takes its action back out of the list).
    Raises RecordError naming a line the rules reject, as ``Record.replay`` does."""
    played = new_game(record.header.key, record.header.variant)
    standing: list[tuple[Team, Action, list[Event]]] = []
    for line, action in record.actions:
        team = played.turn
        try:
            events = played.play(action)
        except IllegalAction as error:
            raise RecordError("rejected", line, cause=error) from error
        if isinstance(action, Undo):
            standing.pop()
        else:
            standing.append((team, action, events))
    return played, standing


def turns(standing: list[tuple[Team, Action, list[Event]]], words: list[str] | None) -> list[dict]:
    """The standing actions grouped into turns: a clue opens a turn; an action of another team than
    the last turn's (a cover after a penalty, the duo's cover of a shadow agent) opens one without a clue."""
    grouped: list[dict] = []
    for team, action, events in standing:
        if isinstance(action, Clue) or not grouped or grouped[-1]["team"] != team.value:
            clue = {"word": getattr(action, "word", None), "count": action.count} if isinstance(action, Clue) else None
            grouped.append({"team": team.value, "clue": clue, "events": []})
        if not isinstance(action, Clue):
            grouped[-1]["events"].append(_event(action, events, words))
    return grouped


def _event(action: Action, events: list[Event], words: list[str] | None) -> dict:
    """One action as the history shows it; identities only of the tile it revealed (or covered)."""
    first = events[0]
    if isinstance(action, Touch):
        kind = "cover" if isinstance(first, TileCovered) else "touch"
        tile, identity = first.tile, first.identity.name.lower()
        return {"kind": kind, "tile": tile, "name": tile_name(tile), "word": words[tile] if words else None,
                "identity": identity}
    kind = "skip" if isinstance(first, CoverSkipped) else action.name
    return {"kind": kind, "tile": None, "name": None, "word": None, "identity": None}


def _outcome(played: Game) -> dict | None:
    outcome: Outcome | None = played.outcome
    if outcome is None:
        return None
    reason = outcome.reason.value
    if played.variant == "duo" and outcome.reason is Reason.AGENTS and outcome.winner is not played.key.start:
        reason = "shadow"  # duo: every shadow agent revealed or covered, the players lose
    return {"winner": outcome.winner.value, "reason": reason, "score": outcome.score}


def _summary(number: int, name: str, path: Path) -> dict:
    """One line of the listing: what the record says, or why it cannot be read."""
    entry = {"number": number if number >= 0 else None, "name": name}
    try:
        record = read_record(path)
        played = record.replay()
    except (ValueError, OSError) as error:  # RecordError is a ValueError; nothing stops the listing
        return {**entry, "variant": None, "created": None, "finished": None, "winner": None, "reason": None,
                "score": None, "clues": None, "torn": None, **_error(error, name)}
    outcome = _outcome(played) or {"winner": None, "reason": None, "score": None}
    return {
        **entry,
        "variant": record.header.variant,
        "created": record.header.created,
        "finished": played.is_over,
        **outcome,
        "clues": sum(isinstance(action, Clue) for action in played.actions),
        "torn": record.torn_line is not None,
        "error": None,
    }


# A record error's own parameters name the file's size, the format, the header's variant or start
# team, a field or an action's name: nothing of the key. A cause's parameters may (a refused cover
# names its tile), so of a cause only its message id is given.
_SAFE_PARAMS = frozenset(
    {"size", "most", "found", "supported", "variant", "variants", "start", "field", "action", "actions"}
)


def _error(error: Exception, name: str) -> dict:
    """Why a record cannot be read, as data: the catalog key, the line, the parameters."""
    if isinstance(error, RecordError):
        params = {param: value for param, value in error.params.items()
                  if param in _SAFE_PARAMS and isinstance(value, (str, int)) and not isinstance(value, bool)}
        cause = getattr(error.cause, "msgid", None)
        return {"error": f"error.{error.msgid}", "line": error.line, "params": params,
                "cause": f"error.{cause}" if cause else None}
    if isinstance(error, OSError):
        why = error.strerror or ""  # the system's words: the page has no catalog of them
        return {"error": "error.unreadable", "line": None, "params": {"path": name, "why": why}, "cause": None}
    return {"error": "error.not_a_record", "line": None, "params": {}, "cause": None}
