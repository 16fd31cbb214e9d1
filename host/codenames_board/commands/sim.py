"""``codenames-board sim``: the simulated table, in a window or scripted without one."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from pathlib import Path

from ..clibase import (
    EXIT_INTERRUPTED, EXIT_USAGE, add_config, add_lang, add_words, chosen_words, configured_translator, hold_folder, load_config, seed,
)
from ..config import games_folder
from ..engine import VARIANTS
from ..i18n import Translator


def add_parser(commands, tr: Translator) -> None:
    sim = commands.add_parser("sim", help=tr("cli.sim"), description=tr("cli.sim"))
    add_config(sim, tr)
    sim.add_argument("--variant", choices=list(VARIANTS), help=tr("cli.variant"))
    sim.add_argument("--seed", type=seed(tr), metavar="N", help=tr("cli.seed"))
    add_words(sim, tr)
    sim.add_argument("--headless", action="store_true", help=tr("cli.sim_headless"))
    sim.add_argument("--script", type=Path, metavar="FILE", help=tr("cli.sim_script"))
    sim.add_argument("--screenshots", type=Path, metavar="DIR", help=tr("cli.sim_screenshots"))
    sim.add_argument("--keep", type=Path, metavar="DIR", help=tr("evening.cli_keep"))
    sim.add_argument("--size", default="1280x720", metavar="WIDTHxHEIGHT", help=tr("cli.sim_size"))
    sim.add_argument("--json", action="store_true", help=tr("cli.sim_json"))
    sim.add_argument("--spymaster-window", action="store_true", help=tr("cli.sim_spymaster_window"))
    sim.add_argument("--web", nargs="?", const=8080, type=web_port(tr), metavar="PORT", help=tr("cli.sim_web"))
    add_lang(sim, tr)
    sim.set_defaults(main=main)


def web_port(tr: Translator):
    def port(text: str) -> int:
        if not text.isdigit() or not (int(text) == 0 or 1024 <= int(text) <= 65535):
            raise argparse.ArgumentTypeError(tr("cli.web_port", value=text))
        return int(text)

    return port


def main(args: argparse.Namespace, tr: Translator) -> int:
    import dataclasses

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    if args.variant:
        config = dataclasses.replace(config, variant=args.variant)
    if args.web is not None:  # this machine only: a laptop's page is for trying it, not for the network
        from ..config import Section

        web = {**config.web.as_dict(), "enabled": True, "address": "127.0.0.1", "port": args.web, "url": "auto"}
        config = dataclasses.replace(config, web=Section("web", web))
    try:
        width, height = (int(part) for part in args.size.lower().split("x"))
        if not (320 <= width <= 7680 and 240 <= height <= 4320):
            raise ValueError
    except ValueError:
        print(tr("error.sim_size", size=args.size), file=sys.stderr)
        return EXIT_USAGE
    if args.screenshots is not None and args.screenshots.exists() and not args.screenshots.is_dir():
        print(tr("error.screenshots_not_a_folder", path=str(args.screenshots)), file=sys.stderr)
        return EXIT_USAGE
    if args.keep is not None and (args.script is None or (args.keep.exists() and not args.keep.is_dir())):
        print(tr("evening.keep_folder", path=str(args.keep)), file=sys.stderr)
        return EXIT_USAGE
    if args.headless != (args.script is not None):
        print(tr("error.sim_headless_script"), file=sys.stderr)
        return EXIT_USAGE
    chosen = chosen_words(config.words.pack if args.words is None else args.words, tr)
    if chosen is None:
        return EXIT_USAGE
    pack, words = chosen
    if not args.headless:
        from ..screencheck import no_display

        if no_display():
            print(tr("display.no_display_sim"), file=sys.stderr)
            return EXIT_USAGE
    steps = None
    if args.script is not None:
        from ..sim.script import ScriptError, parse_script

        from ..files import NotRegular, TooBig, read_regular

        try:
            steps = parse_script(read_regular(args.script).decode("utf-8"))
        except NotRegular:  # a FIFO would hang, /dev/zero fill memory
            print(f"{args.script}: {tr('error.not_a_regular_file')}", file=sys.stderr)
            return EXIT_USAGE
        except TooBig as error:
            print(tr("error.file_too_big", path=str(args.script), size=error.size, most=error.most), file=sys.stderr)
            return EXIT_USAGE
        except UnicodeDecodeError:
            print(tr("error.unreadable", path=str(args.script), why=tr("config.encoding")), file=sys.stderr)
            return EXIT_USAGE
        except OSError as error:
            print(tr("error.unreadable", path=str(args.script), why=error.strerror or error), file=sys.stderr)
            return EXIT_USAGE
        except ScriptError as error:
            print(f"{args.script}:{error.line}: {tr(error.msgid, **error.params)}", file=sys.stderr)
            return EXIT_USAGE
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import tempfile

    import pygame

    from ..sim.app import FakeClock, Simulator

    pygame.font.init()  # only what is needed: pygame.init() would open the sound device too
    if args.headless:
        clock = FakeClock()
        with tempfile.TemporaryDirectory() as folder:
            # A scripted run starts from nothing and leaves nothing behind but what it was asked for (--keep).
            state = Path(folder) if args.keep is None else args.keep
            sim = Simulator(
                dataclasses.replace(config, state_dir=state), tr, seed=args.seed, words=words, pack=pack, clock=clock, sound=False
            )
            return _run_script(sim, steps, clock, args, (width, height), tr)
    from ..display import NoScreen
    from ..sim.window import run_window

    lock = hold_folder(games_folder(config.state_dir, "sim"), "sim", tr, "state.sim_unusable")
    if isinstance(lock, int):
        return lock
    with lock:
        from ..web import CannotListen

        try:
            sim = Simulator(config, tr, seed=args.seed, words=words, pack=pack)
        except CannotListen as error:
            print(tr("run.web_unusable", address=error.address, port=error.port, why=error.why), file=sys.stderr)
            return EXIT_USAGE
        if sim.runtime.web is not None:
            print(tr("sim.web_url", url=sim.runtime.web.url + "/"), flush=True)
        try:
            sim.start()
            interrupted = run_window(sim, (width, height), tr("sim.title"), spymaster_window=args.spymaster_window or None)
        except NoScreen:
            print(tr("display.no_display_sim"), file=sys.stderr)
            return EXIT_USAGE
        except OSError as error:  # no game can be kept there: a full, read-only or missing folder
            print(tr("state.sim_unusable", path=str(error.filename or config.state_dir), why=error.strerror or error), file=sys.stderr)
            return EXIT_USAGE
        finally:
            sim.close()
    return EXIT_INTERRUPTED if interrupted else 0


def _run_script(sim, steps, clock, args, size, tr) -> int:
    import pygame

    from ..sim.script import run_script
    from ..sim.view import draw

    def screenshot(path: Path, size) -> None:
        surface = pygame.Surface(size)
        draw(surface, sim.scene(), sim.tr)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            pygame.image.save(surface, str(path))
        except pygame.error as error:  # SDL says only that it could not open the file
            raise OSError(errno.EACCES, str(error)) from None

    from ..sim.script import ScriptError

    sim.start()
    try:
        try:
            run_script(sim, steps, clock, args.screenshots or args.script.parent, size, screenshot)
        except ScriptError as error:
            print(f"{args.script}:{error.line}: {tr(error.msgid, **error.params)}", file=sys.stderr)
            return 1
        if args.json:
            state = sim.table.game.state()
            state["words"] = sim.table.words
            print(json.dumps(state, ensure_ascii=False))
    finally:
        sim.close()
    return 0
