"""``codenames-board replay``: a game record told turn by turn, and where it ends."""

from __future__ import annotations

import argparse
import json
import sys

from ..clibase import EXIT_USAGE, add_lang
from .. import story
from ..i18n import Translator
from ..record import RecordError, error_line as record_error_line, read_record
from ..textboard import grid, status
from ..words import FILE, PACKS


def add_parser(commands, tr: Translator) -> None:
    replay = commands.add_parser("replay", help=tr("cli.replay"), description=tr("cli.replay"))
    replay.add_argument("file", metavar="FILE", help=tr("cli.replay_file"))
    replay.add_argument("--json", action="store_true", help=tr("cli.replay_json"))
    add_lang(replay, tr)
    replay.set_defaults(main=main)


def main(args: argparse.Namespace, tr: Translator) -> int:
    path = args.file
    try:
        record = read_record(path)
        if record.torn_line:
            print(tr("warning.torn_line", path=path, line=record.torn_line), file=sys.stderr)
        game, standing = story.standing(record)
    except RecordError as error:
        print(record_error_line(path, error, tr), file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(tr("error.unreadable", path=path, why=error.strerror or error), file=sys.stderr)
        return EXIT_USAGE
    turns = story.turns(standing, record.header.words, record.header.variant)
    pack = record.header.extra.get("pack") if record.header.words else None
    pack = pack if pack in (*PACKS, FILE) else None  # a field of the file's own: only a name this table writes
    if args.json:
        state = game.state()
        if record.header.words:
            state["words"] = record.header.words
        if pack is not None:
            state["pack"] = pack  # where the words came from: a pack's name, or "file"
        state["turns"] = turns  # the story: each turn's clue (its word where given) and what followed it
        print(json.dumps(state, ensure_ascii=False))
    else:
        if pack is not None:
            print(tr("words.replay_file") if pack == FILE else tr("words.replay_pack", pack=pack))
        redealt = record.header.extra.get("redealt")
        if type(redealt) is int and redealt > 0:  # words dealt again before the first clue
            print(tr("words.replay_redealt", count=redealt))
        for line in story.told(turns, tr):
            print(line)
        if turns:
            print()
        print(grid(game, tr, record.header.words, show_key=True))
        print(status(game, tr))
    return 0
