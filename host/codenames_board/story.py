"""The story of a game: its standing actions grouped into turns, each clue with what followed it.

``standing(record)`` replays a record (undo lines take their action back out), ``turns`` groups the
standing actions into turns, ``outcome`` says how the game ended, and ``told`` says the turns as lines
of text. The web page's history and ``codenames-board replay`` both tell a game this way. Identities
appear only for the tiles an action revealed or covered: an unfinished game's story keeps its key.
"""

from __future__ import annotations

from .engine import (
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
from .record import Record, RecordError


def standing(record: Record) -> tuple[Game, list[tuple[Team, Action, list[Event]]]]:
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


def turns(standing: list[tuple[Team, Action, list[Event]]], words: list[str] | None, variant: str = "classic") -> list[dict]:
    """The standing actions grouped into turns: a clue opens a turn; another team's move opens one without
    a clue (a turn the sand timer ended before its clue). A cover (after a penalty, or the duo's cover of a
    shadow agent) belongs to the turn it follows, with the team that covered (``by``: in a classic game the
    other team, after the penalty; in duo the players, whose turn it follows)."""
    grouped: list[dict] = []
    for team, action, events in standing:
        covering = isinstance(events[0], CoverSkipped) or (isinstance(action, Touch) and isinstance(events[0], TileCovered))
        if isinstance(action, Clue) or not grouped or (grouped[-1]["team"] != team.value and not covering):
            clue = {"word": getattr(action, "word", None), "count": action.count} if isinstance(action, Clue) else None
            grouped.append({"team": team.value, "clue": clue, "events": []})
        if not isinstance(action, Clue):
            event = _event(action, events, words)
            if covering:
                event["by"] = grouped[-1]["team"] if variant == "duo" else team.value
            grouped[-1]["events"].append(event)
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


def outcome(played: Game) -> dict | None:
    outcome: Outcome | None = played.outcome
    if outcome is None:
        return None
    reason = outcome.reason.value
    if played.variant == "duo" and outcome.reason is Reason.AGENTS and outcome.winner is not played.key.start:
        reason = "shadow"  # duo: every shadow agent revealed or covered, the players lose
    return {"winner": outcome.winner.value, "reason": reason, "score": outcome.score}



def told(grouped: list[dict], tr) -> list[str]:
    """The turns as lines of text in ``tr``'s language: a line a turn, an indented line an action."""
    lines = []
    for number, turn in enumerate(grouped, 1):
        team = tr(f"team.{turn['team']}")
        team = team[:1].upper() + team[1:]  # it opens the line
        clue = turn["clue"]
        if clue is None:
            lines.append(tr("story.no_clue", number=number, team=team))
        else:
            count = tr("story.unlimited") if clue["count"] == "unlimited" else clue["count"]
            said = f"{clue['word'].upper()} {count}" if clue["word"] else str(count)
            lines.append(tr("story.clue", number=number, team=team, clue=said))
        for event in turn["events"]:
            by = {"team": event["by"]} if "by" in event else {}  # who covered
            if event["tile"] is None:
                lines.append("   " + tr(f"story.{event['kind']}", **by))
                continue
            name = f"{event['name']} {event['word']}" if event["word"] else event["name"]
            what = tr(f"identity.{event['identity']}")
            lines.append("   " + tr(f"story.{event['kind']}", name=name, identity=what, **by))
    return lines
