"""What every command shares, below the commands themselves (``cli.py``, ``commands/`` and the
command modules beside them import this, never each other): exit codes, the configuration loaded
with its one-line messages, the language chosen, the lock on a folder of games, the one line for
a display with no screen, and output that survives a reader who stops reading.

Exit codes: 0 done; 1 a failure at run time; 2 a mistake to fix first; 130 stopped by Ctrl-C.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys

from .i18n import LANGUAGES, Translator

EXIT_FAILURE = 1  # it went wrong at run time: a device, a screen
EXIT_USAGE = 2  # bad input the user can fix: bad file, bad option
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it


def add_lang(parser: argparse.ArgumentParser, tr: Translator, top: bool = False) -> None:
    """``--lang`` before the command or after it, the same option: a command's own ``--lang`` only
    sets the language when it is given (a default there would undo the one given before it)."""
    default = None if top else argparse.SUPPRESS
    parser.add_argument("--lang", choices=LANGUAGES, default=default, help=tr("cli.lang"))


def add_config(parser: argparse.ArgumentParser, tr: Translator):
    return parser.add_argument("--config", dest="config_file", metavar="FILE", help=tr("cli.config_file"))


def add_words(parser: argparse.ArgumentParser, tr: Translator, msgid: str = "words.cli"):
    """``--words PACK|FILE``: a word pack's name or a word file of one's own (checked by :func:`chosen_words`)."""
    from .words import PACKS

    return parser.add_argument("--words", metavar="PACK|FILE", help=tr(msgid, packs=", ".join(PACKS)))


def chosen_words(choice: str, tr: Translator) -> tuple[str, list[str]] | None:
    """The pack's label (its name, or ``file``) and the words of ``--words`` or ``[words] pack``, in
    the table's language; None after one line that says what is wrong (the caller exits with 2)."""
    from .words import WordListError, choose_words, pack_label

    try:
        return pack_label(choice), choose_words(choice, tr.language)
    except WordListError as error:
        print(tr(error.msgid, **error.params), file=sys.stderr)
        return None


def configured_translator(tr: Translator, args: argparse.Namespace, config) -> Translator:
    """The language once the configuration is read: ``--lang``, then ``$CODENAMES_BOARD_LANG``, then
    the configuration's ``language``, then the system's locale. Whatever is said on the command
    line or in the environment of this one run wins over a file."""
    if getattr(args, "lang", None) or os.environ.get("CODENAMES_BOARD_LANG", "").lower() in LANGUAGES:
        return tr
    if config is not None and config.language != "auto":
        return Translator(config.language)
    return tr


def config_error_lines(source: str, errors, tr: Translator) -> list[str]:
    """One line per problem: ``FILE: [table] key: what is wrong and the fix``."""
    return [f"{source}: {tr(error.msgid, **error.params)}" for error in errors]


def load_config(explicit: str | None, tr: Translator):
    """The checked config, or None after printing every problem (the caller exits with 2)."""
    from .config import ConfigErrors, find_config, load

    path = find_config(explicit)
    if path is not None and path.exists() and not path.is_file():  # a FIFO or /dev/zero would hang the read
        print(tr("error.not_a_file", path=str(path)), file=sys.stderr)
        return None
    try:
        return load(explicit)
    except ConfigErrors as problems:
        source = str(find_config(explicit))
        for line in config_error_lines(source, problems.errors, tr):
            print(line, file=sys.stderr)
    except OSError as error:
        print(tr("error.unreadable", path=str(find_config(explicit)), why=error.strerror or error), file=sys.stderr)
    return None


class OutputLost(Exception):
    """Standard output could not be written (its reader gone, a full disk behind it). Not an
    OSError on purpose: a command's own ``except OSError`` (a record it cannot write) must not
    take it for its own failure."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class GuardedOutput:
    """``sys.stdout`` as the commands use it, except that a failed write raises :class:`OutputLost`."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as error:
            raise OutputLost(error) from error

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise OutputLost(error) from error

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class ClosedOutput:
    """Standard output closed before the command started (``codenames-board stats >&-``): what is
    written to it fails as a write to a closed descriptor would. ``run`` writes nothing there."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def guard_standard_streams():
    """``sys.stdout`` guarded (:class:`GuardedOutput`), a closed stdin read as an empty one; the
    streams as they were, to put back."""
    streams = sys.stdin, sys.stdout
    sys.stdout = GuardedOutput(sys.stdout if sys.stdout is not None else ClosedOutput())
    if sys.stdin is None:  # `codenames-board console <&-`: no input, as at the end of a file
        sys.stdin = open(os.devnull, encoding="utf-8")
    return streams


def output_lost(error: OSError, tr: Translator) -> int:
    """Standard output failed: its reader went away (``codenames-board replay --json FILE | head
    -c 10``: it has what it wanted, nothing is said) or it cannot be written (a full disk: one
    line says so). No traceback; Python's last flush at exit goes nowhere instead of failing again."""
    if error.errno != errno.EPIPE:
        print(tr("cli.output_lost", why=error.strerror or error), file=sys.stderr)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no descriptor behind stdout: closed, or an embedding program's
        pass
    return EXIT_FAILURE


def run_guarded(main, tr: Translator | None = None) -> int:
    """``main()`` of a command (``codenames-board`` or the build kit, ``python host/buildkit ...``) with the
    standard streams guarded: a reader gone or a full disk is one line at most and exit 1, argparse's
    exits and Ctrl-C become exit codes, what could not be written shows before the exit, not at it."""
    from .i18n import detect_language

    tr = tr or Translator(detect_language())
    streams = guard_standard_streams()
    try:
        try:
            code = main()
        except SystemExit as done:  # argparse's --help, --version and usage errors; SIGTERM (stop_on_sigterm)
            code = done.code if isinstance(done.code, int) else int(done.code is not None)
        sys.stdout.flush()  # under the guard
        return code
    except KeyboardInterrupt:  # Ctrl-C before a command set up its own stop: what it had open closed on the way
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except OutputLost as lost:  # `codenames-board replay --json FILE | head -c 10`, or `> /dev/full`
        return output_lost(lost.error, tr)
    except BrokenPipeError as error:  # written past the guard (a library's own print)
        return output_lost(error, tr)
    finally:
        sys.stdin, sys.stdout = streams


def stop_on_sigterm() -> None:
    """SIGTERM ends a command as an exception would (what it opened is closed, its temporary files
    go, its child processes are stopped), with 128 + 15; ``run`` and the others that wait for
    signals put their own handler in place."""
    import signal

    def terminated(signum, frame):
        raise SystemExit(128 + signum)

    try:
        signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread: an embedding program's choice
        pass


# Options that only mean something beside another one: given where they would be ignored, they are
# refused. (command, option, its value when not given, message, the other option, whether it fits)
_CONTRADICTIONS = (
    ("sim", "--json", False, "cli.only_with", "--headless", lambda args: args.headless),
    ("sim", "--screenshots", None, "cli.only_with", "--headless", lambda args: args.headless),
    ("sim", "--spymaster-window", False, "cli.not_with", "--headless", lambda args: not args.headless),
    ("bench", "--touches", None, "cli.only_with", "bench touch, bench tiles", lambda args: args.what != "run"),
    ("bench", "--seconds", None, "cli.only_with", "bench run, bench tiles", lambda args: args.what != "touch"),
    ("bench", "--arm64", None, "cli.only_with", "bench touch", lambda args: args.what == "touch"),
    ("firmware", "--force", False, "cli.only_with", "firmware install", lambda args: args.action == "install"),
    ("firmware", "--port", None, "cli.not_with", "firmware path", lambda args: args.action != "path"),
    ("firmware", "--config", None, "cli.not_with", "firmware path", lambda args: args.action != "path"),
    ("selftest", "--yes", False, "cli.not_with", "--pads", lambda args: not args.pads),
    ("config", "--config", None, "cli.not_with", "--default, --init", lambda args: not args.default and args.init is None),
)


def refuse_contradictions(args: argparse.Namespace, parser: argparse.ArgumentParser, tr: Translator) -> None:
    """argparse's own error (usage, one line, exit code 2) for an option its command would ignore."""
    for command, option, absent, msgid, other, fits in _CONTRADICTIONS:
        name = "config_file" if option == "--config" else option.lstrip("-").replace("-", "_")
        if args.command == command and getattr(args, name) != absent and not fits(args):
            parser.command_parsers[command].error(tr(msgid, option=option, other=other))


def positive(kind, tr: Translator, most):
    """An argparse type: a number above 0 and at most ``most`` (``--touches 0``, ``--timeout -1`` and
    a timeout past what a clock can count are refused)."""

    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not 0 < value <= most:  # nan fails both comparisons
            raise argparse.ArgumentTypeError(tr("cli.positive", value=text, most=most))
        return value

    convert.__name__ = kind.__name__  # argparse names the type in its messages
    return convert


SEED_MOST = 2**63 - 1  # any seed a person types; the record keeps it as a JSON number every reader takes


def seed(tr: Translator):
    """An argparse type: a whole number from 0 to SEED_MOST (a seed)."""

    def convert(text: str) -> int:
        value = int(text) if text.isascii() and text.isdigit() and len(text) <= 19 else -1
        if not 0 <= value <= SEED_MOST:
            raise argparse.ArgumentTypeError(tr("cli.seed_range", value=text[:40], most=SEED_MOST))
        return value

    convert.__name__ = "int"
    return convert


def hold_folder(folder, command: str, tr: Translator, unusable: str, make: bool = True):
    """The lock on a folder of game records for this command (see statelock), or the exit code after
    one line: another table holds it (1: that one may end, the service tries again), or the folder
    cannot be used (2, with the ``unusable`` message: ``path`` and ``why``)."""
    from .statelock import FolderInUse, hold

    try:
        return hold(folder, command, make)
    except FolderInUse as error:
        holder = error.holder
        if holder.pid is None:
            print(tr("state.in_use_unknown", path=str(folder)), file=sys.stderr)
        else:
            print(tr("state.in_use", path=str(folder), pid=holder.pid, command=holder.command, since=holder.since), file=sys.stderr)
        return EXIT_FAILURE
    except OSError as error:
        print(tr(unusable, path=str(error.filename or folder), why=error.strerror or error), file=sys.stderr)
        return EXIT_USAGE


def no_screen(error, tr: Translator) -> int:
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
