"""The keys and words of an evening's games, from one seed or from chance.

``--seed N`` deals the same games in ``sim``, ``console`` and ``run``: the
evening's game n (0, 1, 2, ...) gets the key ``Key.generate(N + n)`` (the
record's header keeps ``N + n`` as its seed, so ``--seed`` with that number
deals that game again), and its words come from a dealer seeded with N.
Without a seed the keys come from the system's randomness, and the dealer
keeps its place in a state file so that no word comes back across restarts
until the whole list has been used.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from .engine import Key
from .words import WordDealer, pack_words, place_name


class Deal:
    """Where each new game's key and words come from.

    :param seed: the evening's seed, or None for chance.
    :param words: the word list to deal from, or None for a table whose cards
        lie on it (then :meth:`words` is None).
    :param state_file: where an unseeded dealer keeps its place (None: nowhere).
    :raises WordListError: a list of fewer than 25 words.
    """

    def __init__(self, seed: int | None = None, words: list[str] | None = None, state_file: Path | None = None) -> None:
        self.seed = seed
        self._next = seed
        self.folder = state_file.parent if state_file is not None else None  # where each pack keeps its place
        self._chosen: WordDealer | None = None  # the pack of the next games, while this one keeps its own
        if words is None:
            self.dealer = None
        elif seed is None and state_file is not None:
            self.dealer = WordDealer.resume(words, state_file, secrets.randbits(32))
        else:
            self.dealer = WordDealer(words, secrets.randbits(32) if seed is None else seed)

    @property
    def seeded(self) -> bool:
        return self.seed is not None

    def key_seed(self) -> int:
        """The seed of the next game's key (each call is the next game)."""
        if self._next is None:
            return secrets.randbits(32)
        seed, self._next = self._next, self._next + 1
        return seed

    def key(self) -> tuple[int, Key]:
        """The next game's key and the seed it came from."""
        seed = self.key_seed()
        return seed, Key.generate(seed)

    def words(self) -> list[str] | None:
        """The next game's 25 words, or None without a word list."""
        if self._chosen is not None:  # a pack chosen during the last game: from this game on
            self.dealer, self._chosen = self._chosen, None
        return self.dealer.deal() if self.dealer is not None else None

    def another(self, exclude) -> str | None:
        """One word to re-deal a tile with (before the first clue): the dealer's next word not in ``exclude``
        (the words on the board); None without a word list, or when the list has no other word."""
        return self.dealer.another(exclude) if self.dealer is not None else None

    def choose(self, pack: str, language: str) -> None:
        """The next games' words from another built-in pack, carrying on where that pack's dealer stopped
        (a phone's choice). Raises WordListError (a pack this language does not ship)."""
        words = pack_words(language, pack)
        if self.seed is None and self.folder is not None:
            self._chosen = WordDealer.resume(words, self.folder / place_name(pack, language, words), secrets.randbits(32))
        else:
            self._chosen = WordDealer(words, secrets.randbits(32) if self.seed is None else self.seed)

    def __repr__(self) -> str:
        return f"<Deal seed={self.seed!r} next={self._next!r} words={'yes' if self.dealer else 'no'}>"
