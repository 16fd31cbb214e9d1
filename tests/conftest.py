import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOST = ROOT / "host"


# A shell starts a background job (`bash .ci/run &`) with Ctrl-C's SIGINT ignored, and every process
# inherits that: the tests' commands would not stop on the Ctrl-C they are sent, as one started from
# a terminal does. Taking SIGINT back here gives them the terminal's default again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _firmware_from_this_tree():
    """``codenames_firmware`` from this tree's ``firmware/``, as ``codenames_board`` comes from ``host/``
    (pyproject's pythonpath), also where the package was installed without ``-e`` (the unpacked sdist's
    ``pip install '.[test]'``): the tests test this tree, never an installed copy of it."""
    import importlib.machinery
    import importlib.util

    firmware = str(ROOT / "firmware")
    found = importlib.util.find_spec("codenames_firmware")
    if found is not None and firmware in list(found.submodule_search_locations or ()):
        return

    def this_tree(name, parent_path):  # asked again whenever sys.path changes: the answer stays
        spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
        spec.submodule_search_locations = [firmware]
        return spec

    loader = importlib.machinery.NamespaceLoader("codenames_firmware", [firmware], this_tree)  # resources work
    spec = importlib.machinery.ModuleSpec("codenames_firmware", loader, is_package=True)
    spec.submodule_search_locations = [firmware]
    sys.modules["codenames_firmware"] = importlib.util.module_from_spec(spec)


_firmware_from_this_tree()


def _need_tool(name, package=None):
    """The tool's path; a skip when it is missing here, a failure on CI (the CI variable set), which installs it."""
    import shutil

    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (apt-get install {package or name})"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: CI must have it")
        pytest.skip(message)
    return path


@pytest.fixture
def need_tool():
    """``need_tool(name, package)``: a system tool's path, or a skip (a failure on CI) when it is missing."""
    return _need_tool


@pytest.fixture(scope="module")
def need_tool_module():
    return _need_tool


def _cli_runner(state):
    def run(*args, input=None, env=None):
        environ = {
            **os.environ,
            "PYTHONPATH": str(HOST),
            "XDG_STATE_HOME": str(state),
            "XDG_CONFIG_HOME": str(state / "config"),  # never the developer's own configuration
            "LANG": "C.UTF-8",
        }
        for name in ("LANGUAGE", "CODENAMES_BOARD_LANG", "CODENAMES_BOARD_CONFIG"):
            environ.pop(name, None)
        environ.update(env or {})
        return subprocess.run(
            [sys.executable, "-m", "codenames_board", *map(str, args)],
            input=input,
            capture_output=True,
            text=True,
            env=environ,
            timeout=60,
        )

    return run


@pytest.fixture
def run_cli(tmp_path):
    """Run `codenames-board ARGS` as a real process; returns the CompletedProcess."""
    return _cli_runner(tmp_path / "state")


@pytest.fixture(scope="module")
def run_cli_module(tmp_path_factory):
    return _cli_runner(tmp_path_factory.mktemp("state"))
