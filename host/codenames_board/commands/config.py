"""``codenames-board config``: check the configuration, print the defaults, or write a starting point."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path

from ..clibase import EXIT_FAILURE, EXIT_USAGE, add_config, add_lang, config_error_lines, load_config
from ..i18n import Translator


def add_parser(commands, tr: Translator) -> None:
    config = commands.add_parser("config", help=tr("cli.config"), description=tr("cli.config"))
    what = config.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help=tr("cli.config_check"))
    what.add_argument("--default", action="store_true", help=tr("cli.config_default"))
    what.add_argument("--init", nargs="?", const="", metavar="FILE", help=tr("cli.config_init"))
    add_config(config, tr)
    add_lang(config, tr)
    config.set_defaults(main=main)


def main(args: argparse.Namespace, tr: Translator) -> int:
    from ..config import default_text, user_config_file

    if args.default:
        print(default_text(), end="")
        return 0
    if args.init is not None:
        return _config_init(Path(args.init) if args.init else user_config_file(), tr)
    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    from ..config import pin_warnings

    for line in config_error_lines(config.source, pin_warnings(config), tr):  # warnings: the config still runs
        print(line, file=sys.stderr)
    if config.display.output == "png":  # what `run` would refuse before "ready"
        from ..display.outputs import png_frame_path, png_problem

        problem = png_problem(png_frame_path(str(config.display.png), 0), make=False)
        if problem is not None:
            print(f"{config.source}: [display] png: {tr.error(problem)}", file=sys.stderr)
            return EXIT_USAGE
    if config.source == "defaults":
        print(tr("config.ok_defaults"))
    else:
        print(tr("config.ok", path=config.source))
    return 0


def _config_init(path: Path, tr: Translator) -> int:
    """Write the default config to ``path`` (making its folder), never over an existing file."""
    from ..config import default_text, find_config

    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file where a folder of the path should be
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path.parent)) from None
        with open(path, "x", encoding="utf-8") as file:  # "x": an existing file is never replaced
            file.write(default_text())
    except FileExistsError:
        print(tr("config.init_exists", path=str(path)), file=sys.stderr)
        return EXIT_FAILURE
    except OSError as error:
        print(tr("config.init_unwritable", path=str(error.filename or path), why=error.strerror or error), file=sys.stderr)
        return EXIT_FAILURE
    found = find_config()
    if found is not None and found.resolve() == path.resolve():
        print(tr("config.init_written", path=str(path)))
    else:  # not where the commands look: the check names it
        print(tr("config.init_written_elsewhere", path=str(path)))
    return 0
