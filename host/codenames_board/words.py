"""Codenames for the tiles: the built-in word packs and a dealer that never repeats a word soon.

Each language ships three packs (``PACKS``), files in ``wordlists/``: ``easy``
(``{language}-easy.txt``), ``standard`` (``{language}.txt``) and ``hard``
(``{language}-hard.txt``).
What a user names in ``[words] pack`` or ``--words`` is a pack's name or the
path of a word file of their own (:func:`choose_words`).

The dealer walks a seeded permutation of the list, 25 words a game, so no
word comes back until the whole list has been used; when the list runs out
it reshuffles, keeping the last game's words out of the next one. Its place
in the walk can be saved, so consecutive games stay fresh across restarts.
"""

from __future__ import annotations

import hashlib
import json
import random
from importlib import resources
from pathlib import Path

from .engine import TILES
from .files import NotRegular, TooBig, read_regular


class WordListError(ValueError):
    def __init__(self, msgid: str, **params: object) -> None:
        self.msgid = msgid
        self.params = params
        super().__init__(f"{msgid} {params}")


def parse_words(text: str) -> list[str]:
    """The usable words of a list: one per line; blanks, #comments and repeats dropped."""
    words, seen = [], set()
    for line in text.splitlines():
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        key = word.casefold()
        if key not in seen:
            seen.add(key)
            words.append(word)
    return words


PACKS = ("easy", "standard", "hard")
STANDARD = "standard"
FILE = "file"  # the pack's label (in the record) for a list of the user's own


def pack_file_name(language: str, pack: str) -> str:
    """The file of a built-in pack in ``wordlists/``: the standard pack keeps its old name."""
    return f"{language}.txt" if pack == STANDARD else f"{language}-{pack}.txt"


def pack_words(language: str, pack: str) -> list[str]:
    """A built-in pack's words. Raises WordListError for a pack this language does not ship."""
    if pack not in PACKS:
        raise WordListError("words.pack_unknown", value=pack, packs=", ".join(PACKS))
    try:
        text = resources.files(__package__).joinpath("wordlists", pack_file_name(language, pack)).read_text("utf-8")
    except FileNotFoundError:
        raise WordListError("words.pack_missing", pack=pack, language=language, packs=", ".join(PACKS)) from None
    return parse_words(text)


def builtin_words(language: str) -> list[str]:
    """The standard pack."""
    return pack_words(language, STANDARD)


def choose_words(choice: str, language: str) -> list[str]:
    """The words a user named: a pack's name (``easy``, ``standard``, ``hard``) or the path of a file
    of their own (``~`` is their home). A pack's name wins over a file of that name in the
    working folder (``./easy`` names the file). Raises WordListError, its message with the fix."""
    if choice in PACKS:
        return pack_words(language, choice)
    if not choice.strip():
        raise WordListError("words.pack_unknown", value=choice, packs=", ".join(PACKS))
    try:
        path = Path(choice).expanduser()
    except RuntimeError:  # ~someone who has no home here: the name as it is
        path = Path(choice)
    try:
        path.lstat()
    except (FileNotFoundError, NotADirectoryError, ValueError):  # a mistyped pack name, a missing file, a NUL in it
        raise WordListError("words.pack_unknown", value=choice, packs=", ".join(PACKS)) from None
    except OSError:  # a name too long, no permission: said by the reading, with the system's reason
        pass
    return load_word_file(path)


def pack_label(choice: str) -> str:
    """What the record keeps of a choice: the pack's name, or ``file`` for a list of one's own."""
    return choice if choice in PACKS else FILE


def place_name(label: str, language: str, words: list[str]) -> str:
    """The name of the file a dealer keeps its place in, one per language and pack (the standard pack
    keeps the name it always had, so its place survives an update); a list of one's own is known by
    its words (a hash of them), so the same list carries on wherever the file lies and an edited
    list starts afresh."""
    if label == STANDARD:
        return f"words-{language}.json"
    if label in PACKS:
        return f"words-{language}-{label}.json"
    digest = hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()[:16]
    return f"words-file-{digest}.json"


def load_word_file(path: str | Path) -> list[str]:
    """A custom list (``--words FILE``). Raises WordListError with the fix in its message."""
    path = Path(path)
    try:
        data = read_regular(path)
    except NotRegular:  # a FIFO would hang, /dev/zero fill memory
        raise WordListError("error.words_not_a_file", path=str(path)) from None
    except IsADirectoryError:
        raise WordListError("words.folder", path=str(path), packs=", ".join(PACKS)) from None
    except TooBig as error:
        raise WordListError("error.file_too_big", path=str(path), size=error.size, most=error.most) from None
    except OSError as error:
        raise WordListError("error.words_unreadable", path=str(path), why=error.strerror or str(error)) from error
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise WordListError("error.words_encoding", path=str(path)) from error
    words = parse_words(text)
    if len(words) < TILES:
        raise WordListError("error.words_too_few", path=str(path), count=len(words), needed=TILES)
    return words


class WordDealer:
    """Deals 25 words a game from a list, walking a seeded permutation."""

    def __init__(self, words: list[str], seed: int, position: int = 0, state_file: Path | None = None) -> None:
        if len(words) < TILES:
            raise WordListError("error.words_too_few", path="", count=len(words), needed=TILES)
        self.words = list(words)
        self.seed = seed
        self.position = position
        self.state_file = state_file
        self._order = self._shuffled(seed)

    @classmethod
    def resume(cls, words: list[str], state_file: Path, seed: int) -> WordDealer:
        """A dealer that carries on where the saved one stopped (if the list is the same)."""
        try:
            saved = json.loads(read_regular(state_file, 4096))
            if saved.get("count") == len(words) and isinstance(saved.get("seed"), int) and isinstance(saved.get("position"), int):
                return cls(words, saved["seed"], saved["position"], state_file)
        except (OSError, ValueError, AttributeError, RecursionError):  # missing or damaged: start afresh
            pass
        return cls(words, seed, 0, state_file)

    def _shuffled(self, seed: int) -> list[str]:
        order = list(self.words)
        random.Random(seed).shuffle(order)
        return order

    def deal(self) -> list[str]:
        """The next game's 25 words."""
        if self.position + TILES > len(self._order):
            last = set(self._order[max(0, self.position - TILES) : self.position])
            self.seed += 1
            order = self._shuffled(self.seed)
            # The words of the game just played go to the end of the new walk.
            self._order = [word for word in order if word not in last] + [word for word in order if word in last]
            self.position = 0
        dealt = self._order[self.position : self.position + TILES]
        self.position += TILES
        self._save()
        return dealt

    def _save(self) -> None:
        if self.state_file is None:
            return
        try:
            self.state_file.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.state_file.with_suffix(".tmp")
            temporary.write_text(json.dumps({"seed": self.seed, "position": self.position, "count": len(self.words)}))
            temporary.replace(self.state_file)
        except OSError:
            pass  # fresh words next time are nice to have, not worth stopping a game for

    def another(self, exclude) -> str | None:
        """One more word, for a tile re-dealt before the first clue: the walk's next word that is not
        in ``exclude`` (the words on the board). The walk goes on past it, so it does not come back
        soon either; at the end of the walk the list is shuffled anew with ``exclude`` put last.
        None when every word of the list is in ``exclude``."""
        taken = {word.casefold() for word in exclude}
        if all(word.casefold() in taken for word in self.words):
            return None
        for _ in range(len(self._order) + 1):  # bounded: a fresh walk starts with a word not taken
            if self.position >= len(self._order):
                self.seed += 1
                order = self._shuffled(self.seed)
                self._order = [w for w in order if w.casefold() not in taken] + [w for w in order if w.casefold() in taken]
                self.position = 0
            word = self._order[self.position]
            self.position += 1
            if word.casefold() not in taken:
                self._save()
                return word
        return None  # not reached: a fresh walk starts with a word not taken
