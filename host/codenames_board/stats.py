"""``codenames-board stats``: what the game records in the state folder say about an evening (or a year)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from .evening import Tally, evenings, parse_time, play_order, read_evening, tally_lines
from .record import RecordError, read_record


@dataclass
class Stats:
    finished: int = 0
    unfinished: int = 0
    unreadable: list[str] = field(default_factory=list)
    wins: dict[str, int] = field(default_factory=lambda: {"red": 0, "blue": 0})
    assassin: int = 0  # classic games lost on the assassin
    duo_played: int = 0
    duo_scores: list[int] = field(default_factory=list)  # one per duo win
    minutes: list[float] = field(default_factory=list)  # finished games with times
    evenings: list[Tally] = field(default_factory=list)  # each evening's tally, in order

    def to_json(self) -> dict:
        return {
            "finished": self.finished,
            "unfinished": self.unfinished,
            "unreadable": self.unreadable,
            "wins": self.wins,
            "assassin": self.assassin,
            "duo_played": self.duo_played,
            "duo_won": len(self.duo_scores),
            "duo_scores": self.duo_scores,
            "minutes": [round(minutes, 1) for minutes in self.minutes],
            "evenings": [tally.to_json() for tally in self.evenings],
        }


def count_records(folder: Path) -> int:
    """How many game records a folder holds (none where it does not exist)."""
    try:
        return sum(1 for _ in folder.glob("*.jsonl"))
    except OSError:
        return 0


def collect(folder: Path) -> Stats:
    stats, played = Stats(), []
    for path in sorted(folder.glob("*.jsonl")):
        try:
            record = read_record(path)
            game = record.replay()
        except (RecordError, OSError):
            stats.unreadable.append(path.name)
            continue
        played.append((play_order(path, record.header), record.header, game))
        if not game.is_over:
            stats.unfinished += 1
            continue
        stats.finished += 1
        outcome = game.outcome
        if game.variant == "duo":
            stats.duo_played += 1
            if outcome.winner is game.key.start:
                stats.duo_scores.append(outcome.score)
        else:
            stats.wins[outcome.winner.value] += 1
            if outcome.reason.value == "assassin":
                stats.assassin += 1
        started, ended = parse_time(record.header.created), parse_time(record.last_time)
        if started and ended and ended >= started:
            stats.minutes.append((ended - started).total_seconds() / 60)
    stats.evenings = evenings((header, game) for _, header, game in sorted(played, key=lambda entry: entry[0]))
    tonight = read_evening(folder)  # tonight's names are in the evening file, not the records
    if tonight is not None and stats.evenings and stats.evenings[-1].started == tonight[0]:
        stats.evenings[-1] = replace(stats.evenings[-1], names=tonight[1])
    return stats


EVENINGS_SHOWN = 5  # the newest evenings in the report (--json has them all)


def report(stats: Stats, tr, folder: Path) -> list[str]:
    lines = [tr("stats.folder", path=str(folder))]
    if not (stats.finished or stats.unfinished or stats.unreadable):
        return [*lines, tr("stats.none")]
    lines.append(tr("stats.games", finished=stats.finished, unfinished=stats.unfinished))
    if stats.unreadable:
        lines.append(tr("stats.unreadable", count=len(stats.unreadable), names=", ".join(stats.unreadable)))
    classic = stats.wins["red"] + stats.wins["blue"]
    if classic:
        lines.append(tr("stats.classic", red=stats.wins["red"], blue=stats.wins["blue"], assassin=stats.assassin))
    if stats.duo_played:
        lines.append(tr("stats.duo", played=stats.duo_played, won=len(stats.duo_scores)))
        if stats.duo_scores:
            best = max(stats.duo_scores)
            scores = ", ".join(str(score) for score in stats.duo_scores)
            lines.append(tr("stats.duo_scores", scores=scores, best=best, title=tr(f"duo.title_{best}")))
    if stats.minutes:
        average = sum(stats.minutes) / len(stats.minutes)
        lines.append(
            tr(
                "stats.minutes",
                average=round(average),
                shortest=round(min(stats.minutes)),
                longest=round(max(stats.minutes)),
            )
        )
    shown = stats.evenings[-EVENINGS_SHOWN:]
    if shown:
        lines.append(tr("evening.stats_header", shown=len(shown), count=len(stats.evenings)))
        for tally in shown:
            lines += ["  " + line for line in tally_lines(tally, tr)]
    return lines
