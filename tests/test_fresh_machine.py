"""The README's test command on a fresh machine: Python and nothing else.

Some tests use system tools that pip cannot install (openscad renders the enclosure, shellcheck
reads the Pi's setup script, mkfs.ext4 makes a file system to fill up, ...). On a machine without
them those tests skip, each naming the tool and how to get it, and nothing fails; on CI (the CI
variable set, .ci/run installs the tools) a missing tool fails instead. This runs every test file
that names such a tool in a pytest of its own whose PATH lacks them all, as a newcomer's would.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Every system tool a test runs; a test that starts using another one adds it here (the last test checks).
SYSTEM_TOOLS = (
    "openscad", "xvfb-run", "shellcheck", "mkfs.ext4", "e2fsck", "losetup", "mount", "umount", "findmnt",
    "systemd-analyze", "udevadm", "setpriv", "chromium", "qemu-aarch64-static", "debootstrap",
)
NAMED = re.compile(r"""["'](%s)["']""" % "|".join(re.escape(tool) for tool in SYSTEM_TOOLS))


def files_naming_a_tool() -> list[Path]:
    return sorted(
        path for path in (ROOT / "tests").rglob("test_*.py")
        if path.name != Path(__file__).name and NAMED.search(path.read_text("utf-8"))
    )


def path_without(tools, folder: Path) -> str:
    """A PATH with every command of this one except ``tools``: one folder of links, first found first."""
    folder.mkdir()
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        try:
            entries = list(os.scandir(directory or "."))
        except OSError:
            continue
        for entry in entries:
            link = folder / entry.name
            if entry.name in tools or link.exists() or link.is_symlink():
                continue
            if entry.is_file() and os.access(entry.path, os.X_OK):
                link.symlink_to(entry.path)
    return str(folder)


def test_tests_that_need_a_system_tool_skip_without_it_and_say_which(tmp_path):
    files = files_naming_a_tool()
    assert {"test_mechanics.py", "test_hardware.py", "test_setup.py", "test_record_disk.py"} <= {path.name for path in files}
    environ = {**os.environ, "PATH": path_without(SYSTEM_TOOLS, tmp_path / "bin")}
    environ.pop("CI", None)  # a newcomer's machine: a missing tool is a skip there
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs", "-m", "not packaging",
         *map(str, files)],
        capture_output=True, text=True, cwd=ROOT, env=environ, timeout=900,
    )
    summary = completed.stdout.strip().splitlines()[-1]
    assert completed.returncode == 0, completed.stdout[-6000:]
    assert re.search(r"\d+ passed", summary) and "failed" not in summary and "error" not in summary, summary
    reasons = [line.split(": ", 1)[1] for line in completed.stdout.splitlines() if line.startswith("SKIPPED")]
    assert all(len(reason.split()) >= 3 for reason in reasons), reasons  # every skip says why
    for tool in ("openscad", "shellcheck", "mkfs.ext4", "systemd-analyze"):
        assert any(f"{tool} is not installed" in reason for reason in reasons), (tool, reasons)


def test_every_system_tool_the_tests_run_is_listed():
    # A subprocess call whose first word is a literal program name must be Python, this project's
    # own command, or one of SYSTEM_TOOLS (which the test above hides).
    started = re.compile(r"""(?:subprocess\.(?:run|Popen|call|check_output|check_call)|need_tool(?:_module)?)\(\s*\[?\s*["']([\w.+-]+)["']""")
    found = {
        name
        for path in (ROOT / "tests").rglob("*.py")
        for name in started.findall(path.read_text("utf-8"))
    }
    allowed = set(SYSTEM_TOOLS) | {"bash", "git", "python3", "id", "true"}  # a clone's: bash, git, python3; coreutils': id, true
    assert found - allowed == set()
