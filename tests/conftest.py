import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOST = ROOT / "host"

@pytest.fixture
def run_cli(tmp_path):
    """Run `codenames-board ARGS` as a real process; returns the CompletedProcess."""

    def run(*args, input=None, env=None):
        environ = {**os.environ, "PYTHONPATH": str(HOST), "XDG_STATE_HOME": str(tmp_path / "state"), "LANG": "C.UTF-8"}
        environ.pop("LANGUAGE", None)
        environ.pop("CODENAMES_BOARD_LANG", None)
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
