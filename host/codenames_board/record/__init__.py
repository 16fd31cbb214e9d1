"""Game records: the save game, one JSON object per line (see RECORDS.md beside this package).

Line 1 is the header; every following line is one accepted action, written before the action's
effect is shown, so the record *is* the game: resume is replay, undo is an ``undo`` line.

A package of four modules, each with one job; everything is imported from here
(``from codenames_board.record import RecordWriter, read_record``):

- ``format``: the header, the action lines, the limits, parsing and reading a record (no thread,
  no state); every other module builds on it.
- ``writer``: :class:`RecordWriter`: create, resume, append within the limits, close.
- ``sync``: durability: the fsync thread, the fault state, errors told to ``on_sync_error``.
- ``repair``: the whole record written out anew and renamed over, and at a start
  :func:`finish_rewrites` for a rewrite a restart cut off.

A package rather than modules beside ``record.py``: the table and the console import the writer
from ``record``, so ``record`` cannot be the format the writer imports without an import cycle;
here the format is one module among the others and this file only gathers them.
Imports flow one way: ``writer`` → ``sync``, ``repair`` → ``format``.
"""

from .format import (
    FORMAT,
    FORMAT_PREFIX,
    HEADER_FIELDS,
    MAX_ACTIONS,
    MAX_LINE_BYTES,
    MAX_RECORD_BYTES,
    Header,
    Record,
    RecordError,
    action_from_json,
    action_to_json,
    error_line,
    parse_record,
    read_record,
)
from .repair import finish_rewrites
from .writer import RecordFull, RecordWriter

__all__ = [
    "FORMAT",
    "FORMAT_PREFIX",
    "HEADER_FIELDS",
    "MAX_ACTIONS",
    "MAX_LINE_BYTES",
    "MAX_RECORD_BYTES",
    "Header",
    "Record",
    "RecordError",
    "RecordFull",
    "RecordWriter",
    "action_from_json",
    "action_to_json",
    "error_line",
    "finish_rewrites",
    "parse_record",
    "read_record",
]
