#!/usr/bin/env python3
"""Set up a virtual environment in .venv and run codenames-board or its tests.

    python3 host/quickstart.py            open the simulated table
    python3 host/quickstart.py test       run every test
    python3 host/quickstart.py ARGS...    run `codenames-board ARGS...`

Needs only Python 3.11 or newer with its venv module. The environment is made
once and brought up to date whenever pyproject.toml changes; the test tools
(pytest and the MicroPython interpreter where it exists) are installed only
for `test`.
"""

import hashlib
import os
import shlex
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / "codenames-board.stamp"
DEFAULT_COMMAND = ["sim"]


def fail(message: str) -> None:
    print(f"quickstart: {message}", file=sys.stderr)
    sys.exit(2)


def venv_bin(name: str) -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / f"{name}.exe"
    return VENV / "bin" / name


def ensure_environment(extras: str) -> None:
    """A .venv with codenames-board installed, and ``extras`` ("test" for the test tools, "" for none)."""
    if sys.version_info < (3, 11):
        fail(f"codenames-board needs Python 3.11 or newer, this is {sys.version.split()[0]}: install a newer python3 and run this again")
    python = venv_bin("python")
    if not python.exists():
        print("quickstart: creating .venv (once) ...", file=sys.stderr)
        try:
            venv.EnvBuilder(with_pip=True, clear=VENV.exists()).create(VENV)
        except (subprocess.CalledProcessError, OSError) as error:
            fail(f"cannot create the virtual environment ({error}); on Debian, Ubuntu or Raspberry Pi OS: sudo apt install python3-venv")
    project = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    made = STAMP.read_text().split() if STAMP.exists() else []
    # The stamp: the pyproject.toml it was made from, then the extras installed ("test" or none).
    if made[:1] == [project] and (not extras or extras in made[1:]):
        return
    what = "codenames-board and its test tools" if extras else "codenames-board"
    print(f"quickstart: installing {what} into .venv ...", file=sys.stderr)
    target = f"{ROOT}[{extras}]" if extras else str(ROOT)
    command = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", target]
    if subprocess.call(command) != 0:
        fail("pip could not install the packages (see above): its last lines say why (no network, or a package without a build for this machine)")
    STAMP.write_text(" ".join([project, *([extras] if extras else [])]) + "\n")


def run(command: list[str]) -> None:
    if os.name == "nt":
        sys.exit(subprocess.call(command))
    os.execv(command[0], command)


def main() -> None:
    args = sys.argv[1:]
    ensure_environment("test" if args[:1] == ["test"] else "")
    if args[:1] == ["test"]:
        os.chdir(ROOT)
        # every core (pytest-xdist); a later `-n 0` after `test` runs them one at a time
        run([str(venv_bin("python")), "-m", "pytest", "-n", "auto", *args[1:]])
    # The command's hints ("play without one: ... sim --headless") name the way it was started here.
    os.environ["CODENAMES_BOARD_COMMAND"] = this_command()
    run([str(venv_bin("codenames-board")), *(args or DEFAULT_COMMAND)])


def this_command() -> str:
    """How this script was started (``python3 host/quickstart.py``), to be typed again."""
    python = os.path.basename(sys.orig_argv[0]).removesuffix(".exe") or "python3"  # as typed: python3, python3.12
    script = sys.argv[0]
    return f"{python} {script}" if os.name == "nt" else shlex.join([python, script])


if __name__ == "__main__":
    main()
