"""The record format: the header, the action lines, the limits, and reading a record back.

Line 1 is the header (format, variant, key, start team, optional words,
language, seed, times). Every following line is one accepted action, written
before the action's effect is shown, so the record *is* the game: resume is
replay, undo is an ``undo`` line. RECORDS.md beside the package says it in
full.

Pure but for reading a file: no thread, no state. The writer (``writer``,
``sync``, ``repair`` beside this module) builds on it; it imports none of them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from dataclasses import dataclass, field

from ..engine import (
    ACTIONS,
    TILES,
    UNLIMITED,
    VARIANTS,
    Action,
    BadKey,
    Clue,
    Game,
    IllegalAction,
    Key,
    Team,
    Touch,
    new_game,
)
from ..files import NotRegular, TooBig, open_regular, read_regular

FORMAT = "codenames-board/1"
FORMAT_PREFIX = "codenames-board/"
HEADER_FIELDS = ("format", "variant", "key", "start", "words", "language", "seed", "created")


class RecordError(ValueError):
    """A file that is not a record, or a line that breaks the format or the rules.

    ``line`` is the 1-based line number, or None for the file as a whole.
    ``msgid`` and ``params`` let the interface say it in the players' language
    (message ids under ``error.`` in the catalogs).
    """

    def __init__(self, msgid: str, line: int | None = None, cause: Exception | None = None, **params: object) -> None:
        self.msgid = msgid
        self.line = line
        self.cause = cause
        self.params = params
        super().__init__(f"line {line}: {msgid} {params}" if line else f"{msgid} {params}")


@dataclass
class Header:
    variant: str
    key: Key
    words: list[str] | None = None
    language: str | None = None
    seed: int | str | None = None
    created: str | None = None
    extra: dict = field(default_factory=dict)  # fields of newer writers, kept when resuming

    def to_json(self) -> dict:
        obj = {"format": FORMAT, "variant": self.variant, "key": self.key.letters, "start": self.key.start.value}
        for name in ("words", "language", "seed", "created"):
            value = getattr(self, name)
            if value is not None:
                obj[name] = value
        obj.update(self.extra)
        return obj

    @classmethod
    def from_json(cls, obj: object, line: int = 1) -> Header:
        if not isinstance(obj, dict) or not isinstance(obj.get("format"), str):
            raise RecordError("not_a_record", line)
        fmt = obj["format"]
        if fmt != FORMAT:
            if fmt.startswith(FORMAT_PREFIX):
                raise RecordError("format_version", line, found=fmt, supported=FORMAT)
            raise RecordError("not_a_record", line)
        variant = obj.get("variant")
        if variant not in VARIANTS:
            raise RecordError("bad_variant", line, variant=variant, variants=", ".join(VARIANTS))
        letters, start = obj.get("key"), obj.get("start")
        if start not in {team.value for team in Team}:
            raise RecordError("bad_start", line, start=start)
        if not isinstance(letters, str):
            raise RecordError("bad_field", line, field="key")
        try:
            key = Key.from_text(f"{letters}:{start}")
        except BadKey as error:
            raise RecordError("bad_key", line, cause=error) from error
        words = obj.get("words")
        if words is not None and (
            not isinstance(words, list) or len(words) != TILES or not all(isinstance(word, str) for word in words)
        ):
            raise RecordError("bad_words", line)
        language = obj.get("language")
        if language is not None and not isinstance(language, str):
            raise RecordError("bad_field", line, field="language")
        created = obj.get("created")
        if created is not None and not isinstance(created, str):
            raise RecordError("bad_field", line, field="created")
        extra = {name: value for name, value in obj.items() if name not in HEADER_FIELDS}
        return cls(variant, key, words, language, obj.get("seed"), created, extra)


def action_to_json(action: Action, **extra: object) -> dict:
    obj: dict = {"action": action.name}
    if isinstance(action, Clue):
        obj["count"] = action.count
        if action.word is not None:
            obj["word"] = action.word
    elif isinstance(action, Touch):
        obj["tile"] = action.tile
    obj.update(extra)
    return obj


def action_from_json(obj: object, line: int) -> Action:
    """An action from its JSON object; range checks are left to the rules."""
    if not isinstance(obj, dict) or not isinstance(obj.get("action"), str):
        raise RecordError("not_an_action", line)
    name = obj["action"]
    if name not in ACTIONS:
        raise RecordError("unknown_action", line, action=name, actions=", ".join(ACTIONS))
    if name == "clue":
        count = obj.get("count")
        if not (type(count) is int or count == UNLIMITED):
            raise RecordError("bad_count", line)
        word = obj.get("word")
        if word is not None and not (isinstance(word, str) and 0 < len(word) <= MAX_WORD and word.isprintable()):
            raise RecordError("bad_word", line, most=MAX_WORD)
        return Clue(count, word)
    if name == "touch":
        tile = obj.get("tile")
        if type(tile) is not int:
            raise RecordError("bad_tile", line)
        return Touch(tile)
    return ACTIONS[name]()


@dataclass
class Record:
    """A record as read from a file: the header and the action lines in order."""

    header: Header
    actions: list[tuple[int, Action]]  # (line number, action), undo lines included
    good_bytes: int  # length of the part made of whole lines
    torn_line: int | None = None  # line number of a torn last line that was dropped
    last_time: str | None = None  # the "time" on the last action line (the table writes one on each)

    def replay(self) -> Game:
        """The game after every action; a line the rules reject raises RecordError naming it."""
        game = new_game(self.header.key, self.header.variant)
        for line, action in self.actions:
            try:
                game.play(action)
            except IllegalAction as error:
                raise RecordError("rejected", line, cause=error) from error
        return game


_HEADER_START = b'{"format": "' + FORMAT_PREFIX.encode()

# What a game can be. A game has a natural size: 25 tiles, a clue and an END TURN a turn, some
# undos; a few hundred lines. Ten thousand lines is an evening of undoing every action; a record
# past either limit is refused before it is read, so no file makes a reader take the memory of
# a small computer.
MAX_WORD = 64  # characters of a clue's word: the table accepts 32 (``cluewords``), an older or newer writer may differ
MAX_LINE_BYTES = 64 * 1024  # a header with 25 long words is under 2 KiB
MAX_ACTIONS = 10_000  # action lines (undo lines included); the writer refuses the next one
MAX_RECORD_BYTES = 2 * 1024 * 1024  # 10,000 of the table's lines are about 560 KiB
_BLANK = b" \t\r\n\x00"


def _parse_line(raw: bytes) -> object:
    """One line's JSON; ValueError for anything a record line cannot be (too long, nested too deep)."""
    if len(raw) > MAX_LINE_BYTES:
        raise ValueError("line too long for a record")
    try:
        return json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError("nested too deep for a record") from None


def parse_record(data: bytes) -> Record:
    """A record from the bytes of a file. A torn last line is dropped (see Record.torn_line)."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError("too_big", size=len(data), most=MAX_RECORD_BYTES)
    return _parse_stream(io.BytesIO(data))


def _parse_stream(file) -> Record:
    """A record read a line at a time from a binary file (whose size is within the limits):
    each line becomes its action at once, so memory holds the actions, never the text."""
    header: Header | None = None
    actions: list[tuple[int, Action]] = []
    position = good_bytes = 0  # where the next line starts; the end of the last whole line read
    number, torn_line, junk_line, last_time = 0, None, None, None
    while True:
        raw = file.readline(MAX_LINE_BYTES + 2)
        if not raw:
            break
        number += 1
        start, position = position, position + len(raw)
        if not raw.strip(_BLANK):
            if junk_line is None and raw.strip(b" \t\r\n"):
                junk_line = number  # zero bytes: what a power cut leaves where a line was being written
            continue
        try:
            obj = _parse_line(raw[:-1] if raw.endswith(b"\n") else raw)
        except (UnicodeDecodeError, ValueError) as error:
            while not raw.endswith(b"\n"):  # a line too long: the rest of it
                raw = file.readline(MAX_LINE_BYTES + 2)
                if not raw:
                    break
            if not file.read(MAX_RECORD_BYTES).strip(_BLANK):
                # A power cut mid-write leaves a partial line (or zero bytes) at the end: drop it.
                torn_line = number
                if header is None:
                    file.seek(start)
                    begin = file.readline(len(_HEADER_START) + 16).strip(_BLANK)
                    if begin and _HEADER_START.startswith(begin[: len(_HEADER_START)]):
                        raise RecordError("torn_header", number) from error
                    raise RecordError("not_a_record", number) from error
                break
            if header is None:
                raise RecordError("not_a_record", number) from error
            raise RecordError("bad_json", number) from error
        if header is None:
            header = Header.from_json(obj, number)
        else:
            if len(actions) == MAX_ACTIONS:
                raise RecordError("too_many_actions", number, most=MAX_ACTIONS)
            actions.append((number, action_from_json(obj, number)))
            time = obj.get("time")
            last_time = time if isinstance(time, str) else last_time
        good_bytes, junk_line = position, None
    if header is None:  # every line with content became the header or raised
        raise RecordError("empty")
    if torn_line is None and junk_line is not None:
        torn_line = junk_line  # zero bytes after the last whole line: that line is gone; say so
    return Record(header, actions, good_bytes, torn_line, last_time)


def error_line(path: str, error: RecordError, tr) -> str:
    """One line naming the file, the line and what is wrong, in ``tr``'s language: ``FILE:LINE: why``."""
    params = dict(error.params)
    if error.cause is not None:
        params["why"] = tr.error(error.cause)
    message = tr(f"error.{error.msgid}", **params)
    return f"{path}:{error.line}: {message}" if error.line else f"{path}: {message}"


def read_record(path: str | os.PathLike) -> Record:
    """Read a record file, a line at a time. Raises RecordError (a ValueError) or OSError."""
    with _as_record_error():
        file = open_regular(path, MAX_RECORD_BYTES)
    with file:
        return _parse_stream(file)


def read_record_bytes(path: str | os.PathLike) -> bytes:
    """The bytes of a record file, at most what a record can be (the writer keeps them to resume).
    Raises RecordError for what cannot be a record (a pipe, a device, too big) or OSError."""
    with _as_record_error():
        return read_regular(path, MAX_RECORD_BYTES)


@contextlib.contextmanager
def _as_record_error():
    """A pipe or a device (a FIFO would hang, /dev/zero fill memory), or a file larger than a record
    can be, refused before it is read, as what it is for a record."""
    try:
        yield
    except NotRegular:
        raise RecordError("not_a_regular_file") from None
    except TooBig as error:
        raise RecordError("too_big", size=error.size, most=error.most) from None
