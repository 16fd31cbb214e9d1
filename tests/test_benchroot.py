"""``bench touch --arm64``: the run process in the arm64 root of ``.ci/arm64-install`` (benchroot.py).

The run under emulation itself takes a minute and needs root and the root built: it runs only when
CODENAMES_BOARD_ARM64_BENCH=1 asks for it (not on CI, which stays under 10 minutes)."""

import os
import re
from pathlib import Path

import pytest

from codenames_board import benchroot
from codenames_board.benchroot import PYTHON, RootNotReady, check, default_root, run_command
from codenames_board.cli import build_parser
from codenames_board.i18n import Translator

HOST = Path(__file__).resolve().parent.parent / "host"


def _built_root(folder: Path, *, installed=("gpiozero", "pygame", "serial")) -> Path:
    """A root as .ci/arm64-install leaves it, as far as the checks look: files, no arm64 programs."""
    (folder / ".complete").parent.mkdir(parents=True, exist_ok=True)
    (folder / ".complete").write_text("")
    checkout = folder / "srv" / "codenames-board"
    (checkout / "host" / "codenames_board").mkdir(parents=True)
    python = folder / PYTHON.lstrip("/")
    python.parent.mkdir(parents=True)
    python.write_text("")
    for name in installed:
        (checkout / ".venv" / "lib" / "python3.11" / "site-packages" / name).mkdir(parents=True)
    return folder


def _reason(root: Path) -> tuple[str, dict]:
    with pytest.raises(RootNotReady) as problem:
        check(root)
    return problem.value.msgid, problem.value.params


def test_a_missing_root_is_one_line_naming_the_script_that_builds_it(tmp_path, run_cli):
    missing = tmp_path / "no-root"
    result = run_cli("bench", "touch", "--arm64", missing, "--touches", "5")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"no arm64 root at {missing}: sudo .ci/arm64-install builds it (a script in the repository; "
        "ARM64_ROOT puts it elsewhere)"
    ]
    assert result.stdout == ""


def test_a_root_without_the_package_or_its_dependencies_names_what_is_missing(tmp_path):
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / ".complete").write_text("")  # debootstrap done, the install never ran
    assert _reason(bare) == ("bench.arm64_not_installed", {"root": str(bare), "missing": "codenames-board, gpiozero, pygame, serial"})
    half = _built_root(tmp_path / "half", installed=("gpiozero",))
    assert _reason(half) == ("bench.arm64_not_installed", {"root": str(half), "missing": "pygame, serial"})
    said = Translator("en")(*_reason(half)[:1], **_reason(half)[1])
    assert said == f"{half}: the arm64 root has no pygame, serial installed: sudo .ci/arm64-install installs it"


def test_a_built_root_needs_root_and_arm64_programs_that_run(tmp_path, monkeypatch):
    root = _built_root(tmp_path / "root")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert _reason(root) == ("bench.arm64_not_root", {})
    assert Translator("en")("bench.arm64_not_root").startswith("bench touch --arm64 needs root (mounts and chroot): sudo ")
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(benchroot, "emulated", lambda: False)  # an arm64 machine: no qemu needed
    check(root)


def test_the_option_takes_the_scripts_root_or_a_named_one(monkeypatch, tmp_path):
    monkeypatch.delenv("ARM64_ROOT", raising=False)
    parser = build_parser(Translator("en"))
    assert parser.parse_args(["bench", "touch"]).arm64 is None
    assert parser.parse_args(["bench", "touch", "--arm64"]).arm64 == "/var/tmp/codenames-board-arm64/bookworm"
    assert parser.parse_args(["bench", "touch", "--arm64", str(tmp_path)]).arm64 == str(tmp_path)
    monkeypatch.setenv("ARM64_ROOT", str(tmp_path))  # as .ci/arm64-install reads it
    assert default_root() == tmp_path / "bookworm"
    assert build_parser(Translator("en")).parse_args(["bench", "touch", "--arm64"]).arm64 == str(tmp_path / "bookworm")


def test_the_option_only_goes_with_bench_touch(run_cli):
    for what in ("run", "tiles"):
        result = run_cli("bench", what, "--arm64")
        assert result.returncode == 2
        assert result.stderr.splitlines()[-1].endswith("error: --arm64 only goes with bench touch"), result.stderr


def test_the_run_process_gets_this_trees_code_the_folder_at_its_path_and_only_its_own_environment(tmp_path):
    root, folder = tmp_path / "root", tmp_path / "bench"
    command = run_command(
        root, folder, ["-m", "codenames_board.benchrun", "--config", str(folder / "config.toml")],
        {"GPIOZERO_PIN_FACTORY": "mock", "CODENAMES_BOARD_LOG": "info", "PYTHONPATH": "host", "HOME": "/home/me"},
    )
    assert command[:5] == ["unshare", "--mount", "--propagation", "private", "--"]
    arguments = command[command.index("arm64") + 1 :]
    import codenames_firmware.tileproto

    assert arguments[:4] == [str(root), str(HOST / "codenames_board"), str(Path(codenames_firmware.tileproto.__file__).resolve().parent), str(folder)]
    environment = arguments[4 : arguments.index(PYTHON)]
    assert "GPIOZERO_PIN_FACTORY=mock" in environment and "CODENAMES_BOARD_LOG=info" in environment
    assert "HOME=/root" in environment and not any(item.startswith("PYTHONPATH=") for item in environment)
    assert arguments[arguments.index(PYTHON) + 1 :] == ["-m", "codenames_board.benchrun", "--config", str(folder / "config.toml")]
    script = command[command.index("-c") + 1]
    assert 'mount --bind -o ro "$package" "$root/srv/codenames-board/host/codenames_board"' in script
    assert script.rstrip().endswith('exec chroot "$root" /usr/bin/env -i "$@"')


@pytest.mark.skipif(
    os.environ.get("CODENAMES_BOARD_ARM64_BENCH") != "1",
    reason="a minute under qemu, root and the arm64 root needed: CODENAMES_BOARD_ARM64_BENCH=1 runs it (sudo .ci/arm64-install builds the root)",
)
def test_bench_touch_times_the_run_process_under_emulation(run_cli):
    try:
        check(default_root())
    except RootNotReady as problem:
        pytest.skip(Translator("en")(problem.msgid, **problem.params))
    result = run_cli("bench", "touch", "--arm64", "--touches", "30", env={"CODENAMES_BOARD_LANG": "en"})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"^  run under qemu-aarch64 user emulation in \S+/bookworm, this tree's code", out, re.M), out
    assert re.search(r"TOUCH sent to FRAME read \(host, pty both ways\): +p50 [\d.]+ ms, p99 [\d.]+ ms", out), out
    assert "estimate for a Pi Zero 2 W" not in out
