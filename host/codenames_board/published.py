"""The table's published state: one immutable snapshot after every change, for any number of outputs.

After each change the table builds a ``TableState``: the game as it stood
(``engine.GameView``, the key included), the spymaster panel's state
(``ui.UiState``), the words where known, and what just happened (``events``:
the engine's events and the table's cues, for animations and sounds). It hands it
to its ``Outputs``; it does not know which outputs there are.

Two kinds of output:

- a **private** output (``Outputs.add``: the LEDs, the spymaster display, sounds)
  gets the whole ``TableState``, key included;
- a **public** output (``Outputs.add_public``: a page for the operatives and
  onlookers) gets only ``state.public``, a ``PublicState``: built by
  ``public_state``, the one function that reads the key for it, and only for
  revealed tiles (the whole key once the game is over, as the tiles then show
  it). No key is reachable from a ``PublicState`` (tests/test_published.py).

An output has ``show(state, now)`` (a new snapshot) and may have ``update(now)``
(time passing: animations, a sound's next note), ``next_wake(now)`` (when its
``update`` next has something to do) and ``close()``: the ``Output`` base class
gives all four.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .engine import ClueCount, GameView, Identity, Outcome, Phase, Team
from .evening import Tally
from .ui import Notice, SandTimer, UiState

#: The notices the whole room may read (message id prefixes); every other one is the spymasters' alone
#: (``notice.cover_own`` would tell which tile is not the covering team's agent).
PUBLIC_NOTICES = (
    "notice.clue_first", "notice.guess_first", "notice.time_up", "notice.record_", "notice.board_", "notice.redeal_",
    "words.next_pack",
)


# --- the table's cues: events besides the engine's


@dataclass(frozen=True)
class TouchRefused:
    """A touch the rules refused (the tile was revealed, no clue yet, ...): the tile blinks."""

    tile: int


@dataclass(frozen=True)
class TimerExpired:
    """The sand timer ran out: the bar flashes."""


@dataclass(frozen=True)
class Refused:
    """A button whose action the rules refused (END TURN before a guess)."""


@dataclass(frozen=True)
class Unpair:
    """The spymasters asked the table to unpair every phone (the web page's listener acts on it)."""


# --- the snapshots


@dataclass(frozen=True)
class ClueEntry:
    """One line of the clue log. ``kind``: ``clue`` (a clue and the tiles touched after it), ``no_clue`` (a turn
    that ended before its clue: an illegal one, the time up) or ``cover`` (a spymaster covering agents after a
    turn: the classic penalty's, the duo's). ``ended``: why the turn ended where the tiles do not say it
    (``end_turn``, ``timeout``, ``penalty``), else None."""

    team: Team
    count: ClueCount | None
    word: str | None
    touched: tuple[tuple[int, Identity, bool], ...]  # (tile, what it was, covered rather than guessed)
    kind: str = "clue"
    ended: str | None = None


SAID_ENDS = ("end_turn", "timeout", "penalty")  # why a turn ended where its tiles do not show it


def clue_log(game: GameView) -> tuple[ClueEntry, ...]:
    """The game's clues, turns and covers in order, from the engine's records of them (``clues``, ``ends``).
    Reads the key of revealed tiles only."""
    key, revealed, covered = game.key, game.revealed, set(game.covered)

    def tiles(start: int, stop: int) -> tuple:
        return tuple((tile, key[tile], tile in covered) for tile in revealed[start:stop])

    marks = sorted([(clue[4], 0, clue) for clue in game.clues] + [(end[2], 1, end) for end in game.ends],
                   key=lambda mark: (mark[0], mark[1]))
    starts = [mark[2][3] for mark in marks] + [len(revealed)]  # tiles revealed by each mark
    entries: list[ClueEntry] = []
    open_clue = None  # the clue whose turn goes on, and where its tiles start
    for index, (_, kind, mark) in enumerate(marks):
        if kind == 0:
            open_clue = mark
            continue
        team, why, _, stop = mark
        why = why.value if why.value in SAID_ENDS else None
        if open_clue is not None and open_clue[0] is team:
            entries.append(ClueEntry(team, open_clue[1], open_clue[2], tiles(open_clue[3], stop), "clue", why))
        else:  # the turn ended before a clue was given
            entries.append(ClueEntry(team, None, None, (), "no_clue", why))
        open_clue = None
        cover_stop = starts[index + 1]
        if cover_stop > stop:  # the tiles revealed after a turn's end and before the next clue: covers
            entries.append(ClueEntry(team.other, None, None, tiles(stop, cover_stop), "cover"))
    if open_clue is not None:
        entries.append(ClueEntry(open_clue[0], open_clue[1], open_clue[2], tiles(open_clue[3], len(revealed))))
    return tuple(entries)


@dataclass(frozen=True)
class PublicState:
    """What everyone at the table may know: nothing about an unrevealed tile while the game runs."""

    variant: str
    number: int | None  # the table's count of its games
    words: tuple[str, ...] | None  # row-major, where the table knows them
    start: Team
    turn: Team
    phase: Phase
    revealed: tuple[tuple[int, Identity], ...]  # (tile, what it was), in reveal order; covers included
    covered: tuple[int, ...]
    clue: ClueCount | None
    guesses_made: int
    guesses_left: int | None
    agents_left: tuple[int, int]  # red, blue
    outcome: Outcome | None
    key_after_game: str | None  # the 25 identity letters, once the game is over
    timer: SandTimer | None
    board_connected: bool
    version: int
    clue_word: str | None = None  # the current clue's word, where one was entered
    clues: tuple[ClueEntry, ...] = ()  # the clue log
    notices: tuple[Notice, ...] = ()  # the public ones (PUBLIC_NOTICES), newest last
    evening: Tally | None = None  # the evening's tally: names and games won, nothing of the key


def public_state(
    game: GameView, ui: UiState, words: tuple[str, ...] | None, number: int | None, evening: Tally | None = None
) -> PublicState:
    """The public part of a snapshot. The only reader of the key for public outputs: revealed tiles only,
    and the whole key once the game is over."""
    key = game.key
    return PublicState(
        variant=game.variant,
        number=number,
        words=words,
        start=key.start,
        turn=game.turn,
        phase=game.phase,
        revealed=tuple((tile, key[tile]) for tile in game.revealed),
        covered=game.covered,
        clue=game.clue,
        guesses_made=game.guesses_made,
        guesses_left=game.guesses_left,
        agents_left=game.left,
        outcome=game.outcome,
        key_after_game=key.letters if game.is_over else None,
        timer=ui.timer,
        board_connected=ui.board_connected,
        version=game.version,
        clue_word=game.clues[-1][2] if game.clue is not None and game.clues else None,
        clues=clue_log(game),
        notices=tuple(notice for notice in ui.notices if notice.msgid.startswith(PUBLIC_NOTICES)),
        evening=evening,
    )


@dataclass(frozen=True)
class TableState:
    """Everything any output may show, as it stood after one change. Private outputs only."""

    game: GameView
    ui: UiState
    words: tuple[str, ...] | None
    number: int | None
    dealt: int  # counts the games this table dealt or resumed: a new one starts its outputs afresh
    events: tuple = ()  # what just happened, in order: engine events and the cues above
    evening: Tally | None = None  # tonight's tally, the game on the table counted once it is over
    redeals: int = 0  # words that may be re-dealt now (before the first clue: ``redeal``), else 0
    word_pack: str | None = None  # the pack the next games are dealt from, where a phone may choose it

    @cached_property
    def public(self) -> PublicState:
        return public_state(self.game, self.ui, self.words, self.number, self.evening)


# --- outputs


class Output:
    """One output of the table; every method optional but ``show``."""

    def show(self, state, now: float) -> None:
        raise NotImplementedError

    def update(self, now: float) -> None:
        pass

    def next_wake(self, now: float) -> float | None:
        return None

    def close(self) -> None:
        pass


class Outputs:
    """The table's outputs, private first (in the order added: the LEDs first), then public ones."""

    def __init__(self, private=(), public=()) -> None:
        self._private = list(private)
        self._public = list(public)

    def add(self, output: Output) -> None:
        """An output that may see the key (the spymasters' side)."""
        self._private.append(output)

    def add_public(self, output: Output) -> None:
        """An output for everyone: its ``show`` gets ``PublicState`` only."""
        self._public.append(output)

    def __iter__(self):
        return iter(self._private + self._public)

    def show(self, state: TableState, now: float) -> None:
        for output in self._private:
            output.show(state, now)
        if self._public:
            public = state.public
            for output in self._public:
                output.show(public, now)

    def update(self, now: float) -> None:
        for output in self:
            output.update(now)

    def next_wake(self, now: float) -> float | None:
        times = [time for time in (output.next_wake(now) for output in self) if time is not None]
        return min(times) if times else None

    def close(self) -> None:
        for output in self:
            output.close()


class Publisher:
    """Builds a ``TableState`` when something changed and hands it to the outputs; otherwise only time passes
    for them. ``events``: what happened since the last state (the table adds to it)."""

    def __init__(self, outputs: Outputs) -> None:
        self.outputs = outputs
        self.events: list = []
        self.dealt = 0
        self._last: tuple | None = None

    def new_game(self) -> None:
        self.dealt += 1
        self.events.clear()  # the last game's: nothing to show of them now

    def publish(
        self, game, ui: UiState, words, number: int | None, now: float, evening: Tally | None = None, redeals: int = 0,
        word_pack: str | None = None,
    ) -> None:
        # words: the same list until dealt, typed in, re-dealt
        last = (self.dealt, game.version, ui, id(words), evening, redeals, word_pack)
        if self.events or last != self._last:
            self._last = last
            events, self.events = tuple(self.events), []
            words = tuple(words) if words is not None else None
            self.outputs.show(TableState(GameView.of(game), ui, words, number, self.dealt, events, evening, redeals, word_pack), now)
        else:
            self.outputs.update(now)
