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

from .. import stats, story
from ..engine import Clue
from ..evening import parse_time
from ..record import RecordError, read_record
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
        played, standing = story.standing(record)
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
        "turns": story.turns(standing, words, header.variant),
        "outcome": story.outcome(played),
        "torn": record.torn_line is not None,
    }


# --- reading


def _summary(number: int, name: str, path: Path) -> dict:
    """One line of the listing: what the record says, or why it cannot be read."""
    entry = {"number": number if number >= 0 else None, "name": name}
    try:
        record = read_record(path)
        played = record.replay()
    except (ValueError, OSError) as error:  # RecordError is a ValueError; nothing stops the listing
        return {**entry, "variant": None, "created": None, "evening": None, "finished": None, "winner": None,
                "reason": None, "score": None, "clues": None, "torn": None, **_error(error, name)}
    outcome = story.outcome(played) or {"winner": None, "reason": None, "score": None}
    return {
        **entry,
        "variant": record.header.variant,
        "created": record.header.created,
        "evening": _evening(record.header.extra.get("evening")),
        "finished": played.is_over,
        **outcome,
        "clues": sum(isinstance(action, Clue) for action in played.actions),
        "torn": record.torn_line is not None,
        "error": None,
    }


def _evening(started: object) -> str | None:
    """The evening a game belongs to (when it began, as its header names it), or None: none, or not a time."""
    return started if isinstance(started, str) and len(started) <= 40 and parse_time(started) is not None else None


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
