"""The evening's tally: team names, games won tonight, the duo's best score and streak.

An evening is a run of games in one folder (the table's, the simulator's or the
console's). It has a name, the moment it began (``started``, ISO 8601 UTC), and
the teams' names for the night; these live in ``evening.json`` beside the game
records. Each game's record says in its header which evening it belongs to
(``"evening": started``), so the records stay the truth: the tally is counted
from them (``count``), and ``stats`` groups them by evening.

A new evening begins by hand (the table between games: END TURN held, then
CONFIRM; ``codenames-board evening --new``), or by itself when a game is dealt
more than ``new_after_hours`` after the one before (the group went home).
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

from .cluewords import clean_name
from .engine import Game, Team
from .files import read_regular
from .record import RecordError, read_record

log = logging.getLogger(__name__)

EVENING_FILE = "evening.json"


@dataclass(frozen=True)
class Tally:
    """What tonight's finished games add up to. No key, no tile: everyone may see it."""

    started: str  # when the evening began: its name in the records
    names: tuple[str, str] = ("", "")  # red's and blue's names tonight; "": the language's "Red" / "Blue"
    wins: tuple[int, int] = (0, 0)  # classic games won tonight: red, blue
    duo_played: int = 0
    duo_won: int = 0
    duo_best: int | None = None  # the best winning duo score tonight
    duo_streak: int = 0  # duo games won in a row, up to the last duo game

    @property
    def games(self) -> int:
        return sum(self.wins) + self.duo_played

    def plus(self, game: Game) -> Tally:
        """This tally with one more finished game (a game not over adds nothing)."""
        outcome = game.outcome
        if outcome is None:
            return self
        if game.variant == "duo":
            won = outcome.winner is game.key.start  # the players' team; the shadow is the other
            best = self.duo_best
            if won and outcome.score is not None:
                best = outcome.score if best is None else max(best, outcome.score)
            return replace(
                self, duo_played=self.duo_played + 1, duo_won=self.duo_won + won, duo_best=best,
                duo_streak=self.duo_streak + 1 if won else 0,
            )
        red, blue = self.wins
        return replace(self, wins=(red + 1, blue) if outcome.winner is Team.RED else (red, blue + 1))

    def to_json(self) -> dict:
        return {
            "started": self.started, "names": list(self.names), "wins": {"red": self.wins[0], "blue": self.wins[1]},
            "duo": {"played": self.duo_played, "won": self.duo_won, "best": self.duo_best, "streak": self.duo_streak},
        }


def team_name(tally: Tally | None, team: Team | str, tr) -> str:
    """A team's name tonight, or the language's word for it."""
    team = Team(team)
    name = tally.names[team is Team.BLUE] if tally is not None else ""
    return name or tr(f"evening.team_{team.value}")


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def parse_time(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def read_evening(folder: Path) -> tuple[str, tuple[str, str]] | None:
    """The evening named in ``folder``'s evening file, with tonight's names; None: none, or unreadable."""
    try:
        saved = json.loads(read_regular(folder / EVENING_FILE, 4096))
        started = saved["started"]
        names = (clean_name(saved.get("red", "")), clean_name(saved.get("blue", "")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    if parse_time(started) is None or None in names:
        return None
    return started, names


def write_evening(folder: Path, started: str, names: tuple[str, str]) -> None:
    """Beside the records, whole or not at all. Raises OSError."""
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / (EVENING_FILE + ".tmp")
    temporary.write_text(json.dumps({"started": started, "red": names[0], "blue": names[1]}, ensure_ascii=False) + "\n")
    os.replace(temporary, folder / EVENING_FILE)


def count(records, started: str, names: tuple[str, str] = ("", "")) -> Tally:
    """The tally of the finished games among ``records`` ((header, game) in the order played) of one evening."""
    tally = Tally(started, names)
    for header, game in records:
        if header.extra.get("evening") == started:
            tally = tally.plus(game)
    return tally


def _records(folder: Path) -> list[Path]:
    try:
        return sorted(folder.glob("*.jsonl"))
    except OSError:
        return []


def _stamp(path: Path) -> datetime | None:
    """When a record's game was dealt, from its name (``shelf.record_path``: the UTC start time)."""
    try:
        return datetime.strptime(path.name[:15], "%Y%m%d-%H%M%S").replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def play_order(path: Path, header) -> tuple:
    """Where a record comes in the evening: by when it was dealt, then by the table's count of its games
    (records dealt within one second), then by its name's number (``-2``, ``-3``: the console's)."""
    number = header.extra.get("number")
    suffix = path.stem.rsplit("-", 1)[-1]
    return (path.name[:15], number if type(number) is int else -1, int(suffix) if suffix.isdigit() else 1)


def records_since(folder: Path, started: str) -> list:
    """(path, header, game) of the readable records dealt since ``started``, in the order played."""
    since = parse_time(started)
    found = []
    for path in _records(folder):
        stamp = _stamp(path)
        if stamp is None or since is None or stamp < since.replace(microsecond=0):
            continue
        try:
            record = read_record(path)
            found.append((path, record.header, record.replay()))
        except (RecordError, OSError):
            continue
    return sorted(found, key=lambda found: play_order(found[0], found[1]))


class Evening:
    """Tonight, for a table or the console: which evening a new game belongs to, and its tally.

    ``base``: the tally of the evening's finished games other than the one on the table;
    ``tally(game, evening)`` adds that one when it is over and of this evening (an undo takes it back).
    """

    def __init__(self, folder: Path, names: tuple[str, str] = ("", ""), new_after_hours: float = 8) -> None:
        self.folder = folder
        self.default_names = names
        self.gap = timedelta(hours=new_after_hours) if new_after_hours > 0 else None
        self.started: str | None = None
        self.names = names
        self.base: Tally | None = None
        self.last_dealt: datetime | None = None
        self.loaded = False

    def load(self, current: Path | None = None) -> None:
        """At start: the saved evening, with its finished games counted from the records (the game
        on the table, ``current``, left out: ``tally`` adds it)."""
        self.loaded = True
        saved = read_evening(self.folder)
        stamps = [stamp for stamp in (_stamp(path) for path in _records(self.folder)) if stamp is not None]
        self.last_dealt = max(stamps, default=None)
        if saved is not None:
            self.started, self.names = saved
            records = [(header, game) for path, header, game in records_since(self.folder, self.started) if path != current]
            self.base = count(records, *saved)

    def next_evening(self, started: datetime) -> str:
        """The evening a game dealt at ``started`` belongs to: tonight's, or a new one after a long pause.
        What ``evening --new`` or ``--names`` changed in the file meanwhile is taken up first."""
        self.follow_file()
        pause = self.gap is not None and self.last_dealt is not None and started - self.last_dealt > self.gap
        return iso(started) if self.started is None or pause else self.started

    def follow_file(self) -> None:
        """Take up the evening file as another process (``codenames-board evening``) left it."""
        saved = read_evening(self.folder)
        if saved is None or saved == (self.started, self.names):
            return
        if saved[0] != self.started:  # a new evening begun elsewhere: its games are counted afresh
            self.started = saved[0]
            self.base = count(((header, game) for _, header, game in records_since(self.folder, saved[0])), saved[0])
        self.names = saved[1]
        self.base = replace(self.base, started=self.started, names=self.names)

    def fields(self, evening: str) -> dict:
        """What a new record's header says of its evening: which, and the teams' names where set."""
        names = self.names if evening == self.started else self.default_names
        return {"evening": evening, "teams": list(names)} if any(names) else {"evening": evening}

    def dealt(self, previous: Game | None, previous_evening: str | None, evening: str, started: datetime) -> OSError | None:
        """A game of ``evening`` was dealt at ``started`` after ``previous``: the tally counts the one before,
        and a new evening begins where ``next_evening`` said so. The error that kept it from being saved."""
        if previous is not None and previous_evening == self.started and self.base is not None:
            self.base = self.base.plus(previous)
        self.last_dealt = started
        return self.begin(started) if evening != self.started else None

    def begin(self, moment: datetime) -> OSError | None:
        """A new evening: nothing won yet, the configured names (never the id of the evening it ends)."""
        started = iso(moment)
        if started == self.started:  # begun again within the second
            started = iso(moment + timedelta(seconds=1))
        self.started, self.names = started, self.default_names
        self.base = Tally(self.started, self.names)
        log.info("a new evening: %s", self.started)
        return self._save()

    def set_names(self, red: str, blue: str) -> OSError | None:
        """Tonight's names; before the first game of an evening they wait for it (``begin`` keeps them)."""
        self.names = (red, blue)
        if self.started is None:
            self.default_names = self.names
            return None
        if self.base is not None:
            self.base = replace(self.base, names=self.names)
        return self._save()

    def _save(self) -> OSError | None:
        try:
            write_evening(self.folder, self.started, self.names)
        except OSError as error:
            log.error("cannot save the evening: %s", error)
            return error
        return None

    def tally(self, game: Game | None, evening: str | None) -> Tally | None:
        if self.base is None:
            return None
        return self.base.plus(game) if game is not None and evening == self.started else self.base


def when(started: str) -> str:
    """When an evening began, in this machine's time zone (2026-11-28 19:02)."""
    moment = parse_time(started)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M") if moment else started


def tally_lines(tally: Tally, tr) -> list[str]:
    """The tally in a few lines of the players' language (``stats``, ``evening``, the console)."""
    lines = [tr("evening.since", time=when(tally.started), games=tally.games)]
    if sum(tally.wins) or not tally.duo_played:
        red, blue = team_name(tally, Team.RED, tr), team_name(tally, Team.BLUE, tr)
        lines.append(tr("evening.classic", red=red, blue=blue, red_wins=tally.wins[0], blue_wins=tally.wins[1]))
    if tally.duo_won:
        lines.append(tr("evening.duo", played=tally.duo_played, won=tally.duo_won, best=tally.duo_best, streak=tally.duo_streak))
    elif tally.duo_played:
        lines.append(tr("evening.duo_none", played=tally.duo_played))
    return lines


def evenings(records) -> list[Tally]:
    """Every evening among ``records`` ((header, game) in the order played), in order; games of no evening left out."""
    found: dict[str, Tally] = {}
    for header, game in records:
        started = header.extra.get("evening")
        if isinstance(started, str) and parse_time(started) is not None:
            tally = found.get(started, Tally(started)).plus(game)
            teams = header.extra.get("teams")
            if isinstance(teams, list) and len(teams) == 2 and all(clean_name(name) == name for name in teams):
                tally = replace(tally, names=tuple(teams))  # the names as the evening's latest game had them
            found[started] = tally
    return [found[started] for started in sorted(found)]
