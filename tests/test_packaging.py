"""What people install: the sdist is the repository and its tests run from it; the wheel, installed
into a fresh virtual environment outside the checkout, plays without anything of the checkout.

Slow (a minute or two, mostly pip): marked ``packaging``. CI runs it; ``-m 'not packaging'``
leaves it out. The real pip fetches the dependencies from the index, or takes them from its cache.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from codenames_board import __version__

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[1]
# The tests the sdist runs here, a quick cross-section (the whole suite runs from it as well): the
# rules, the record format and its document, the command line and the headless simulator, the
# firmware under MicroPython, the wiring checked against the pin tables. Every test is collected.
SDIST_TESTS = [
    "tests/engine",
    "tests/test_docs.py",
    "tests/test_record.py",
    "tests/test_cli.py",
    "tests/sim/test_sim.py",
    "tests/firmware/test_tileproto.py",
    "tests/buildkit/test_wiring.py",
]
SIM_SCRIPT = "clue 2\ntouch C3\nwait 1\nscreenshot table.png 480x320\n"
RUN_CONFIG = """\
state_dir = "{state}"
[tiles]
driver = "virtual"
[display]
output = "png"
png = "{png}"
"""


def run(command, cwd=None, env=None, timeout=600):
    result = subprocess.run(list(map(str, command)), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return result


def said(result):
    return f"exit code {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"


def fresh_venv(path: Path) -> Path:
    """A new virtual environment at ``path`` (from the interpreter running the tests); its scripts folder."""
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    return path / ("Scripts" if os.name == "nt" else "bin")


def pip_install(scripts: Path, *what, cwd=None):
    result = run([scripts / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *what], cwd=cwd)
    assert result.returncode == 0, said(result)


def outside_env(home: Path, **extra) -> dict:
    """This process's environment less anything pointing into the checkout or at the developer's own settings."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTHON", "VIRTUAL_ENV", "CODENAMES_BOARD", "XDG_", "LC_", "LANG"))
    }
    env.update(
        HOME=str(home), XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"), LANG="C.UTF-8",
        SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
    )
    env.update(extra)
    return env


def tracked_files() -> set[str] | None:
    """The repository's files as git tracks them (None outside a git clone, e.g. in the unpacked sdist)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    result = run(["git", "ls-files", "-z"], cwd=ROOT)
    if result.returncode != 0:
        return None
    return {name for name in result.stdout.split("\0") if name and (ROOT / name).is_file()}


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    """(sdist, wheel, build output): `python -m build` makes the sdist, then the wheel from the unpacked sdist."""
    out = tmp_path_factory.mktemp("dist")
    result = run([sys.executable, "-m", "build", "--outdir", out, ROOT])
    assert result.returncode == 0, said(result)
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel, result.stdout + result.stderr


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory):
    """(scripts folder, home): the wheel installed with pip into a fresh venv, and an empty folder to run in."""
    place = tmp_path_factory.mktemp("installed")
    scripts = fresh_venv(place / "venv")
    pip_install(scripts, dists[1])
    home = place / "home"
    home.mkdir()
    return scripts, home


def run_installed(installed, *args, env=None, timeout=120):
    scripts, home = installed
    return run([scripts / "codenames-board", *args], cwd=home, env=outside_env(home, **(env or {})), timeout=timeout)


# --- what the files hold


def test_the_build_says_nothing_deprecated_or_ambiguous(dists):
    output = dists[2]
    assert "SetuptoolsDeprecationWarning" not in output and "deprecated" not in output.lower(), output
    assert "absent from the `packages` configuration" not in output, output


def test_the_sdist_holds_every_tracked_file_and_no_leftovers(dists):
    tracked = tracked_files()
    if tracked is None:
        pytest.skip("not a git clone: no list of tracked files to compare with")
    with tarfile.open(dists[0]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert tracked - names == set(), "add them to MANIFEST.in"
    leftovers = [n for n in names if n.endswith((".pyc", ".pyo")) or {".venv", ".hypothesis", ".pytest_cache", "__pycache__"} & set(n.split("/"))]
    assert leftovers == []


def test_the_wheel_holds_the_packages_with_their_data_the_license_and_the_version(dists):
    sdist, wheel, _ = dists
    assert f"-{__version__}-" in wheel.name and sdist.name.endswith(f"-{__version__}.tar.gz")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"codenames_board-{__version__}.dist-info/METADATA").decode()
    assert {name.split("/")[0] for name in names} == {"codenames_board", "codenames_firmware", f"codenames_board-{__version__}.dist-info"}
    assert [name for name in names if "buildkit" in name.lower()] == []  # the build kit is the repository's tool
    assert f"codenames_board-{__version__}.dist-info/licenses/LICENSE" in names
    assert "License-Expression: MIT" in metadata and f"Version: {__version__}" in metadata
    package = ROOT / "host" / "codenames_board"
    shipped = {
        path.relative_to(ROOT / "host").as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    shipped |= {f"codenames_firmware/{path.name}" for path in (ROOT / "firmware").iterdir() if path.is_file()}
    tracked = tracked_files()
    if tracked is not None:  # files someone is still writing are not yet the package's
        shipped = {name for name in shipped if f"host/{name}" in tracked or f"firmware/{name.split('/', 1)[1]}" in tracked}
    assert "codenames_board/RECORDS.md" in shipped
    assert shipped - names == set()


# --- the wheel, installed outside the checkout


def test_installed_version_is_the_packages(installed):
    result = run_installed(installed, "--version")
    assert result.returncode == 0, said(result)
    assert result.stdout.strip() == f"codenames-board {__version__}"


def test_installed_package_runs_from_the_venv_and_carries_its_documents(installed):
    scripts, home = installed
    probe = (
        "import json, importlib.metadata, importlib.resources, codenames_board, codenames_firmware\n"
        "files = importlib.resources.files('codenames_board')\n"
        "print(json.dumps({'file': codenames_board.__file__, 'firmware': list(codenames_firmware.__path__)[0],\n"
        "  'version': importlib.metadata.version('codenames-board'),\n"
        "  'records': files.joinpath('RECORDS.md').read_text('utf-8')[:200]}))\n"
    )
    result = run([scripts / "python", "-c", probe], cwd=home, env=outside_env(home))
    assert result.returncode == 0, said(result)
    found = json.loads(result.stdout)
    venv = scripts.parent.resolve()
    assert Path(found["file"]).resolve().is_relative_to(venv) and Path(found["firmware"]).resolve().is_relative_to(venv)
    assert found["version"] == __version__
    assert found["records"].startswith("# ")


def test_installed_config_check_passes_on_the_default_config(installed):
    result = run_installed(installed, "config", "--check")
    assert result.returncode == 0, said(result)
    default = run_installed(installed, "config", "--default")
    assert default.returncode == 0 and "[tiles]" in default.stdout, said(default)


def test_installed_sim_plays_a_scripted_game_headless(installed):
    home = installed[1]
    script = home / "game.txt"
    script.write_text(SIM_SCRIPT, "utf-8")
    result = run_installed(installed, "sim", "--headless", "--seed", "7", "--json", "--script", script)
    assert result.returncode == 0, said(result)
    state = json.loads(result.stdout)
    assert state["actions"] == 2 and len(state["revealed"]) == 1 and len(state["words"]) == 25
    assert (home / "table.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_installed_run_deals_a_game_on_mock_pins_and_stops_on_sigterm(installed):
    scripts, home = installed
    state, png = home / "run-state", home / "spymaster.png"
    config = home / "run.toml"
    config.write_text(RUN_CONFIG.format(state=state.as_posix(), png=png.as_posix()), "utf-8")
    log = home / "run.log"
    with open(log, "w") as stderr:
        table = subprocess.Popen(
            [str(scripts / "codenames-board"), "run", "--config", str(config)],
            cwd=home, env=outside_env(home, GPIOZERO_PIN_FACTORY="mock"), stdout=subprocess.DEVNULL, stderr=stderr,
        )
        try:
            deadline = time.monotonic() + 60
            while "ready" not in log.read_text() and table.poll() is None and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(2)  # a table that is up stays up
            assert table.poll() is None, log.read_text()
            table.send_signal(signal.SIGTERM)
            assert table.wait(timeout=30) == 0, log.read_text()
        finally:
            if table.poll() is None:
                table.kill()
                table.wait()
    assert "Traceback" not in log.read_text()
    assert len(list((state / "games").glob("*.jsonl"))) == 1, log.read_text()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_installed_package_has_no_build_kit_and_a_kit_away_from_a_checkout_says_in_one_line_it_checks_one(installed):
    scripts, home = installed
    for command in (["-m", "buildkit", "hardware", "--check"], ["-m", "codenames_board.buildkit.hardware", "--check"]):
        absent = run([scripts / "python", *command], cwd=home, env=outside_env(home))
        assert absent.returncode == 1 and "No module named" in absent.stderr, said(absent)
    # The build kit is a checkout's: a copy of it run with the installed package, no checkout around either.
    kit = home / "copy" / "host" / "buildkit"
    shutil.copytree(ROOT / "host" / "buildkit", kit, ignore=shutil.ignore_patterns("__pycache__"))
    result = run([scripts / "python", kit, "hardware", "--check"], cwd=home, env=outside_env(home))
    assert result.returncode == 2, said(result)
    assert result.stderr.count("\n") == 1 and "no hardware/ folder here" in result.stderr and "git clone" in result.stderr


# --- the sdist, unpacked: its tests run


def test_the_sdists_tests_run_from_it(dists, tmp_path):
    with tarfile.open(dists[0]) as sdist:
        sdist.extractall(tmp_path, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    (source,) = tmp_path.iterdir()
    scripts = fresh_venv(tmp_path / "venv")
    pip_install(scripts, ".[test]", cwd=source)
    env = {name: value for name, value in os.environ.items() if not name.startswith(("PYTHON", "VIRTUAL_ENV"))}
    pytest_command = [scripts / "python", "-m", "pytest", "-p", "no:cacheprovider", "-m", "not packaging"]
    collected = run([*pytest_command, "--collect-only", "-q"], cwd=source, env=env)
    assert collected.returncode == 0, said(collected)
    assert "error" not in collected.stdout.lower().split("\n")[-2], said(collected)
    result = run([*pytest_command, "-q", "-x", *SDIST_TESTS], cwd=source, env=env)
    assert result.returncode == 0, said(result)
    assert " passed" in result.stdout.splitlines()[-1] and " failed" not in result.stdout.splitlines()[-1]
