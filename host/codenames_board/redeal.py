"""A word the group dislikes, dealt again before the first clue.

Before the first clue of a game (nothing played yet; without clue entry, the table's own
first clue aside) a tile's word may be swapped for the dealer's next word that is not on the
board (``deal.Deal.another``), at most ``MAX_REDEALS`` times a game, on any tiles. The new
words go into the record's header, with the count (``redealt``) so that a restart does not
start the count again; written as ``Shelf.set_words`` writes typed-in words
(``RecordWriter.update_header``): a disk that refuses changes nothing, and a notice says so.
Every refusal is a notice the room may read (the display and the web page show it).

Called on the table's thread only, like the rest of the table.
"""

from __future__ import annotations

import logging
from typing import Callable, Collection

from .engine import TILES, tile_name
from .prompts import Prompts
from .ui import Notice

log = logging.getLogger(__name__)

#: A game's re-deals: a word or two nobody likes, not a hunt for an easy board.
MAX_REDEALS = 5


class Redeal:
    """Re-deals for the table's current game (``shelf``: its words and record).

    :param another: gives a word not in the collection passed (the words on the board), or None
        when the list has no other; None for a table that deals no words (cards on the table).
    :param clue_entry: the table takes clues (else its own first clue is played at once).
    """

    def __init__(self, shelf, prompts: Prompts, tr, another: Callable[[Collection[str]], str | None] | None,
                 clue_entry: bool) -> None:
        self.shelf = shelf
        self.prompts = prompts
        self.tr = tr
        self.another = another
        self.clue_entry = clue_entry
        self._writer = None  # whose header ``_done`` was read from
        self._done = 0
        self._dropped: list[str] = []  # this game's words dealt away: they do not come back in it

    def done(self) -> int:
        """This game's re-deals so far, as its record's header counts them (read once a game)."""
        writer = self.shelf.recorded.writer
        if writer is not self._writer:
            self._writer = writer
            count = writer.header.extra.get("redealt", 0) if writer is not None else 0
            self._done = count if type(count) is int and count >= 0 else MAX_REDEALS  # unreadable: no more
            self._dropped = []
        return self._done

    def before_first_clue(self, game) -> bool:
        if game.is_over:
            return False
        return game.version == 0 or (not self.clue_entry and game.version == 1 and len(game.actions) == 1)

    def left(self, game) -> int:
        """How many words may be re-dealt now: 0 after the first clue, without a word list, or all used."""
        if self.another is None or self.shelf.words is None or not self.before_first_clue(game):
            return 0
        return max(0, MAX_REDEALS - self.done())

    def word(self, game, tile: object, now: float) -> bool:
        """Deal ``tile`` another word; False, with a notice saying why, where it may not be."""
        words = self.shelf.words
        if not (type(tile) is int and 0 <= tile < TILES):
            log.warning("re-deal of %r refused: not a tile", tile)
            return False
        if self.another is None or words is None:
            return self._refused("notice.redeal_no_word", now)
        if not self.before_first_clue(game):
            return self._refused("notice.redeal_too_late", now)
        done = self.done()
        if done >= MAX_REDEALS:
            return self._refused("notice.redeal_used_up", now, most=MAX_REDEALS)
        new = self.another([*words, *self._dropped])
        if new is None:
            return self._refused("notice.redeal_no_word", now)
        changed = list(words)
        changed[tile] = new
        writer = self.shelf.recorded.writer
        try:
            writer.update_header(words=changed, extra={**writer.header.extra, "redealt": done + 1})
        except (OSError, ValueError) as error:
            log.error("cannot write the re-dealt word into the record: %s", error)
            why = self.tr.disk(error) if isinstance(error, OSError) else str(error)
            return self._refused("notice.redeal_unsaved", now, why=why)
        self.shelf.words, self._done = changed, done + 1
        self._dropped.append(words[tile])
        said = (("name", tile_name(tile)), ("old", words[tile]), ("word", new), ("left", MAX_REDEALS - done - 1))
        self.prompts.notice(Notice("notice.redeal_done", said), now)  # the room sees what changed, not only the tile
        log.info("game %s: %s re-dealt (%d of %d)", self.shelf.number, tile_name(tile), done + 1, MAX_REDEALS)
        return True

    def _refused(self, msgid: str, now: float, **params: object) -> bool:
        self.prompts.notice(Notice(msgid, tuple(params.items())), now)
        return False
