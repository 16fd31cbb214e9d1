"""What a clue's word may be, wherever one is typed (a spymaster's phone, the console).

One word as the rulebook means it: letters (with their accents), digits, and a
hyphen or an apostrophe inside; no spaces; at most ``MAX_CLUE_WORD`` characters;
not one of the words on the board (compared as the players would: case and
accents' encoding ignored). Whether it is a fair clue is the other spymaster's call.
"""

from __future__ import annotations

import unicodedata

MAX_CLUE_WORD = 32
MAX_CARD_WORD = 24  # a word on a card, typed in at the table
MAX_TEAM_NAME = 16  # a team's name for the evening: it shares a line with the score on a 320 px display
_JOINERS = "-'’"


def normal(word: str) -> str:
    """A word as compared with the board's: NFKC (full-width letters as plain ones), case folded, outer spaces gone."""
    return unicodedata.normalize("NFKC", word).strip().casefold()


def clue_word_problem(word: object, board: tuple[str, ...] | list[str] | None) -> str | None:
    """None if ``word`` may be a clue's word, else the message id (``web.*``) of what is wrong with it."""
    if not isinstance(word, str):
        return "web.clue_bad_word"
    word = unicodedata.normalize("NFC", word).strip()
    if len(word) > MAX_CLUE_WORD:
        return "web.clue_too_long"
    if not word or not word[0].isalnum() or not word[-1].isalnum() or not any(char.isalpha() for char in word):
        return "web.clue_bad_word"  # a word has a letter: "6 6" is a tile, not a clue
    for char in word:
        if not (char.isalnum() or char in _JOINERS or unicodedata.category(char).startswith("M")):
            return "web.clue_bad_word"
    if board and normal(word) in {normal(tile) for tile in board}:
        return "web.clue_on_board"
    return None


def clean(word: str) -> str:
    """The word as recorded: NFC, no outer spaces (the case as typed)."""
    return unicodedata.normalize("NFC", word).strip()


def card_words_problem(words: object) -> str | None:
    """None if ``words`` may be the 25 words on the cards (row-major, as the operatives see the grid),
    else the message id of what is wrong: not 25 texts, one empty, too long or unprintable, or two alike."""
    if not isinstance(words, list) or len(words) != 25 or not all(isinstance(word, str) for word in words):
        return "web.words_bad"
    cleaned = [clean(word) for word in words]
    if any(not word or len(word) > MAX_CARD_WORD or not word.isprintable() for word in cleaned):
        return "web.words_bad"
    if len({normal(word) for word in cleaned}) != 25:
        return "web.words_twice"
    return None


def clean_name(text: object) -> str | None:
    """A team's name as typed (NFKC, spaces squeezed), or None: not usable. "" names the team by its colour."""
    if not isinstance(text, str):
        return None
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if len(name) > MAX_TEAM_NAME or any(unicodedata.category(char)[0] == "C" for char in name):
        return None
    return name


def same_names(red: str, blue: str) -> bool:
    """Two team names the room could not tell apart (case and width ignored); two empty ones are the colours."""
    return bool(red) and normal(red) == normal(blue)
