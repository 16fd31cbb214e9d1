"""What an intention does at the table, where the rules allow it.

The buttons' gestures (``gestures.Gestures``) and the other inputs (``gestures.Intent``: a
paired phone) say what the players mean, by name: ``("confirm",)``, ``("step", 1)``,
``("give_clue", 2, "river")``, ``("redeal", 7)`` ... ``Intentions`` weighs each against the
game and the open question and acts through the table's parts; an intention the rules do
not allow does nothing (or is refused visibly where a player would wonder why).
"""

from __future__ import annotations

from .engine import Clue, EndTurn, Penalty, Phase, Undo
from .published import Refused, Unpair
from .ui import Confirm, Notice
from .words import PACKS, WordListError


NAMES = frozenset({
    "start_timer", "confirm", "dismiss", "step", "give_clue", "ask_undo", "end_turn", "new_game", "ask_penalty",
    "ask_unpair", "set_words", "set_names", "redeal", "choose_pack",
})


class Intentions:
    """One method per intention's name (``NAMES``); ``table`` is the ``Table`` they act on."""

    def __init__(self, table) -> None:
        self.table = table

    def __call__(self, intention: tuple, now: float) -> None:
        if intention[0] in NAMES:
            getattr(self, f"_{intention[0]}")(now, *intention[1:])

    def _start_timer(self, now: float) -> None:
        self.table.timer.start(self.table.game.phase, now)

    def _confirm(self, now: float) -> None:
        table = self.table
        question = table.prompts.question
        table.prompts.ask(None, now)
        if question is Confirm.NEW_GAME:
            table.deal(now)
        elif question is Confirm.NEW_EVENING:
            table.evening_saved(table.evening.begin(table.wall_clock()), now)
        elif question is Confirm.UNPAIR:  # the new PIN and code stay up for the phones to pair again
            table.publisher.events.append(Unpair())
            table.prompts.ask(Confirm.UNPAIR, now)
        elif question is not None:
            table.play({Confirm.UNDO: Undo(), Confirm.PENALTY: Penalty()}[question], now)

    def _dismiss(self, now: float) -> None:
        self.table.prompts.ask(None, now)

    def _clue_entry_open(self) -> bool:
        return self.table.game.phase is Phase.CLUE and self.table.config.game.clue_entry

    def _step(self, now: float, steps: int) -> None:
        if self._clue_entry_open():
            self.table.dial.step(steps)

    def _give_clue(self, now: float, count=None, word: str | None = None) -> None:
        """The dial's number (the buttons), or a phone's number and word."""
        if self._clue_entry_open():
            self.table.play(Clue(self.table.dial.count if count is None else count, word), now)

    def _ask_undo(self, now: float) -> None:
        if self.table.game.actions:
            self.table.prompts.ask(Confirm.UNDO, now)

    def _end_turn(self, now: float) -> None:
        table, game = self.table, self.table.game
        if table.play(EndTurn(), now) is None:
            table.publisher.events.append(Refused())  # a buzz and a blink; the display and the page say why
            if game.phase is Phase.GUESS and not game.guesses_made:
                table.prompts.notice(Notice("notice.guess_first"), now)

    def _new_game(self, now: float) -> None:
        game = self.table.game
        if game.is_over or not game.actions:
            self.table.deal(now)  # nothing to lose: no question
        else:
            self.table.prompts.ask(Confirm.NEW_GAME, now)

    def _ask_penalty(self, now: float) -> None:
        """END TURN held: during a turn, was the clue illegal? Between games, a new evening?"""
        game = self.table.game
        if game.phase in (Phase.CLUE, Phase.GUESS):
            self.table.prompts.ask(Confirm.PENALTY, now)
        elif game.is_over:
            self.table.prompts.ask(Confirm.NEW_EVENING, now)

    def _ask_unpair(self, now: float) -> None:
        self.table.prompts.ask(Confirm.UNPAIR, now)

    def _set_words(self, now: float, words) -> None:
        """The words on the cards, typed in once on a phone."""
        table = self.table
        if table.shelf.words is None and not table.game.is_over:
            table.shelf.set_words(words, now)

    def _set_names(self, now: float, red: str, blue: str) -> None:
        """Tonight's team names, from a paired phone."""
        self.table.evening_saved(self.table.evening.set_names(red, blue), now)

    def _redeal(self, now: float, tile: int) -> None:
        if not self.table.redeal.word(self.table.game, tile, now):
            self.table.publisher.events.append(Refused())  # a buzz and a blink; the display and the page say why

    def _choose_pack(self, now: float, pack: str) -> None:
        """The word pack of the next games, from a paired phone; the game on the table keeps its words."""
        table = self.table
        if table.choose_pack is None or pack not in PACKS or pack == table.word_pack:
            return
        try:
            table.choose_pack(pack)
        except WordListError as error:  # a pack this language does not ship
            table.prompts.notice(Notice(error.msgid, tuple(error.params.items())), now)
            return
        table.word_pack = pack
        table.prompts.notice(Notice("words.next_pack", (("pack", pack),)), now)
