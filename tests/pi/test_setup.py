"""The Pi setup (host/pi/setup.sh) and the systemd unit, tested off a Pi.

Real tools, real runs: shellcheck on the script, systemd-analyze on the unit,
and the script itself installing into a staging root (--root) twice. Where
shellcheck or systemd-analyze is missing the test is skipped, except on CI
(the CI variable set), which must have them.
"""

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PI = ROOT / "host" / "pi"
SETUP = PI / "setup.sh"
UNIT = PI / "codenames-board.service"
UDEV_RULE = PI / "99-codenames-tiles.rules"
BINARY = "/opt/codenames-board/venv/bin/codenames-board"
STATUSES = ("ok", "changed", "planned", "skipped")
STEPS = 12  # the lines a run reports, one per step


def run_setup(*args, env=None, script=SETUP, user_prefix=()):
    environ = {**os.environ, "PYTHON": sys.executable, **(env or {})}
    return subprocess.run(
        [*user_prefix, "bash", str(script), *map(str, args)],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
    )


def status_lines(output):
    """The one-line status of every step: [(status, message)]."""
    lines = []
    for line in output.splitlines():
        word, _, rest = line.partition(" ")
        if word in STATUSES:
            lines.append((word, rest.strip()))
    return lines


def snapshot(folder):
    """Every file, folder and link under folder: kind, mode, mtime and content."""
    result = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            content = os.readlink(path)
        elif stat.S_ISREG(info.st_mode):
            content = path.read_bytes()
        else:
            content = None
        result[str(path.relative_to(folder))] = (stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode), info.st_mtime_ns, content)
    return result


def default_config_text():
    completed = subprocess.run(
        [sys.executable, "-m", "codenames_board", "config", "--default"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "host")},
        check=True,
    )
    return completed.stdout


def unit_settings(text):
    """The unit's settings as {(section, key): [values]}."""
    settings, section = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault((section, key), []).append(value)
    return settings


# --- static checks -----------------------------------------------------------------


def test_shellcheck_finds_nothing_in_the_setup_script(need_tool):
    shellcheck = need_tool("shellcheck")
    completed = subprocess.run([shellcheck, "--shell=bash", str(SETUP)], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout == ""


def verify_unit(systemd_analyze, text, folder):
    """systemd-analyze verify on a copy of the unit named as installed: (exit code, its complaints)."""
    unit = folder / "codenames-board.service"
    unit.write_text(text)
    completed = subprocess.run(
        [systemd_analyze, "verify", str(unit)],
        capture_output=True,
        text=True,
        env={**os.environ, "SYSTEMD_LOG_COLOR": "0", "SYSTEMD_PAGER": ""},
    )
    output = completed.stdout + completed.stderr
    # verify also loads the units this one orders itself after; only what it
    # says about ours counts.
    complaints = [line for line in output.splitlines() if "codenames-board" in line]
    return completed.returncode, complaints


def test_the_unit_passes_systemd_analyze_verify(tmp_path, need_tool):
    text = UNIT.read_text()
    assert text.count(BINARY) == 2  # ExecStartPre and ExecStart
    # The venv's command does not exist here: an existing binary stands in for it.
    returncode, complaints = verify_unit(need_tool("systemd-analyze", "systemd"), text.replace(BINARY, shutil.which("true")), tmp_path)
    assert complaints == []
    assert returncode == 0


def test_systemd_analyze_verify_does_find_mistakes(tmp_path, need_tool):
    """The check above is live: a misspelt setting and the missing binary are both reported."""
    text = UNIT.read_text().replace("NoNewPrivileges=yes", "NoNewPrivilege=yes")
    returncode, complaints = verify_unit(need_tool("systemd-analyze", "systemd"), text, tmp_path)
    assert any("NoNewPrivilege" in line for line in complaints), complaints
    assert any(BINARY in line for line in complaints), complaints


def test_the_unit_runs_the_table_unprivileged_and_hardened():
    settings = unit_settings(UNIT.read_text())
    service = {key: values for (section, key), values in settings.items() if section == "Service"}
    assert service["User"] == ["codenames"] and service["Group"] == ["codenames"]
    assert service["SupplementaryGroups"] == ["gpio dialout video render input"]
    assert service["ExecStartPre"] == [f"{BINARY} config --check --config /etc/codenames-board/config.toml"]
    assert service["ExecStart"] == [f"{BINARY} run --config /etc/codenames-board/config.toml"]
    environment = dict(value.split("=", 1) for value in service["Environment"])
    assert environment["CODENAMES_BOARD_LOG"] == "info"
    # Games go to $XDG_STATE_HOME/codenames-board: the StateDirectory, writable under ProtectSystem=strict.
    assert environment["XDG_STATE_HOME"] == "/var/lib"
    assert service["StateDirectory"] == ["codenames-board"]
    assert service["ReadWritePaths"] == ["/var/lib/codenames-board"]
    assert service["WorkingDirectory"] == ["/var/lib/codenames-board"]
    for key, value in {
        "Restart": "on-failure",
        "RestartSec": "2",
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes",
        "ProtectControlGroups": "yes",
        "RestrictSUIDSGID": "yes",
        "LockPersonality": "yes",
        "StandardOutput": "journal",
    }.items():
        assert service[key] == [value], key
    # The table needs its devices: PrivateDevices= would hide them. DeviceAllow=
    # lists them, which test_service_hardening.py checks.
    assert "PrivateDevices" not in service
    assert "root" not in service["User"]
    assert settings[("Unit", "After")][0] == "multi-user.target"
    assert settings[("Install", "WantedBy")] == ["multi-user.target"]


# --- the script, run for real into a staging root -----------------------------------


def test_dry_run_prints_the_plan_and_changes_nothing(tmp_path):
    completed = run_setup("--dry-run", "--root", tmp_path, "--config")
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout
    assert f"would install: {UNIT} -> {tmp_path}/etc/systemd/system/codenames-board.service" in out
    assert f"would install: {UDEV_RULE} -> {tmp_path}/etc/udev/rules.d/99-codenames-tiles.rules" in out
    assert f"> {tmp_path}/etc/codenames-board/config.toml" in out
    assert f"would run: mkdir -p {tmp_path}/var/lib/codenames-board" in out
    statuses = status_lines(out)
    assert len(statuses) == STEPS
    assert {status for status, _ in statuses} == {"planned", "skipped"}
    assert "nothing was changed" in out
    assert list(tmp_path.iterdir()) == []


INSTALLED = [
    Path("/opt/codenames-board"),
    Path("/etc/codenames-board"),
    Path("/var/lib/codenames-board"),
    Path("/etc/systemd/system/codenames-board.service"),
    Path("/etc/udev/rules.d/99-codenames-tiles.rules"),
]


def test_dry_run_on_this_system_plans_every_step_and_changes_nothing():
    """Without --root: the apt, user, udev and systemd steps look at this very system."""
    if shutil.which("apt-get") is None or shutil.which("dpkg-query") is None:
        pytest.skip("no apt here: the setup is for Raspberry Pi OS (Debian)")
    if any(path.exists() for path in INSTALLED):
        pytest.skip("this system has the table set up: its dry run plans less")
    user_before = subprocess.run(["id", "codenames"], capture_output=True).returncode
    completed = run_setup("--dry-run", "--config")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    statuses = status_lines(completed.stdout)
    assert len(statuses) == STEPS
    planned = " ".join(message for status, message in statuses if status == "planned")
    for step in ("virtual environment /opt/codenames-board/venv", "codenames-board ", "udev rule", "systemd unit", "service codenames-board: enabled"):
        assert step in planned, step
    out = completed.stdout
    assert "would run: udevadm control --reload" in out
    assert "would run: systemctl enable codenames-board" in out
    assert "-m venv --system-site-packages /opt/codenames-board/venv" in out
    if user_before != 0:
        assert "would run: useradd --system" in out
    assert not any(path.exists() for path in INSTALLED)
    assert subprocess.run(["id", "codenames"], capture_output=True).returncode == user_before


def test_a_run_installs_and_a_second_run_changes_nothing(tmp_path):
    first = run_setup("--root", tmp_path, "--config")
    assert first.returncode == 0, first.stdout + first.stderr
    statuses = status_lines(first.stdout)
    assert len(statuses) == STEPS
    for step in ("udev rule", "config folder", "state folder", "config /", "systemd unit", "enabled"):
        assert [status for status, message in statuses if message.startswith(step)] == ["changed"], step

    unit = tmp_path / "etc/systemd/system/codenames-board.service"
    assert unit.read_bytes() == UNIT.read_bytes()
    assert stat.S_IMODE(unit.stat().st_mode) == 0o644
    assert (tmp_path / "etc/udev/rules.d/99-codenames-tiles.rules").read_bytes() == UDEV_RULE.read_bytes()
    assert (tmp_path / "etc/codenames-board/config.toml").read_text() == default_config_text()
    link = tmp_path / "etc/systemd/system/multi-user.target.wants/codenames-board.service"
    assert os.readlink(link) == "/etc/systemd/system/codenames-board.service"
    state = tmp_path / "var/lib/codenames-board"
    assert state.is_dir() and stat.S_IMODE(state.stat().st_mode) == 0o750
    assert not (tmp_path / "opt").exists()  # no venv without --with-venv
    assert not (tmp_path / "etc/systemd/system/codenames-board.service.d").exists()

    before = snapshot(tmp_path)
    second = run_setup("--root", tmp_path, "--config")
    assert second.returncode == 0, second.stdout + second.stderr
    statuses = status_lines(second.stdout)
    assert len(statuses) == STEPS
    assert [message for status, message in statuses if status not in ("ok", "skipped")] == []
    assert "done: 0 changed" in second.stdout
    assert snapshot(tmp_path) == before  # contents, modes and mtimes untouched


def test_only_what_differs_is_put_back_and_a_config_is_never_overwritten(tmp_path):
    assert run_setup("--root", tmp_path).returncode == 0
    unit = tmp_path / "etc/systemd/system/codenames-board.service"
    unit.write_text(UNIT.read_text() + "# edited by hand\n")
    config = tmp_path / "etc/codenames-board/config.toml"
    config.write_text('language = "de"\n')
    rule = tmp_path / "etc/udev/rules.d/99-codenames-tiles.rules"
    rule_before = rule.stat().st_mtime_ns

    completed = run_setup("--root", tmp_path, "--config")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    changed = [message for status, message in status_lines(completed.stdout) if status == "changed"]
    assert len(changed) == 1 and changed[0].startswith("systemd unit"), changed
    assert unit.read_bytes() == UNIT.read_bytes()
    assert config.read_text() == 'language = "de"\n'
    assert "never overwritten" in completed.stdout
    assert rule.stat().st_mtime_ns == rule_before


def test_another_user_is_a_drop_in_and_the_unit_stays_as_it_is(tmp_path):
    completed = run_setup("--root", tmp_path, "--user", "tablepi")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert (tmp_path / "etc/systemd/system/codenames-board.service").read_bytes() == UNIT.read_bytes()
    drop_in = tmp_path / "etc/systemd/system/codenames-board.service.d/10-user.conf"
    settings = unit_settings(drop_in.read_text())
    assert settings[("Service", "User")] == ["tablepi"]
    again = run_setup("--root", tmp_path, "--user", "tablepi")
    assert "changed" not in {status for status, _ in status_lines(again.stdout)}
    back = run_setup("--root", tmp_path)
    assert not drop_in.exists()
    assert [m for s, m in status_lines(back.stdout) if s == "changed"][0].startswith("systemd unit")


def frozen_source(folder):
    """A copy of the checkout's parts the setup uses: it cannot change between two runs."""
    folder.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, folder / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT / "firmware", folder / "firmware", ignore=ignore)
    shutil.copytree(ROOT / "host" / "codenames_board", folder / "host" / "codenames_board", ignore=ignore)
    shutil.copytree(PI, folder / "host" / "pi", ignore=ignore)
    return folder


def test_with_venv_installs_the_package_once(tmp_path):
    """A real virtual environment and pip install (from the package index, as on the Pi)."""
    source = frozen_source(tmp_path / "source")
    tmp_path = tmp_path / "root"
    tmp_path.mkdir()
    first = run_setup("--root", tmp_path, "--with-venv", "--config", "--source", source)
    assert first.returncode == 0, first.stdout + first.stderr
    venv = tmp_path / "opt/codenames-board/venv"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    command = venv / "bin" / "codenames-board"
    config = tmp_path / "etc/codenames-board/config.toml"
    assert config.read_text() == default_config_text()
    checked = subprocess.run([command, "config", "--check", "--config", config], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    stamp = tmp_path / "opt/codenames-board/installed-source.sha256"
    assert len(stamp.read_text().strip()) == 64

    before = snapshot(tmp_path / "etc") | {"stamp": stamp.stat().st_mtime_ns, "command": command.stat().st_mtime_ns}
    second = run_setup("--root", tmp_path, "--with-venv", "--config", "--source", source)
    assert second.returncode == 0, second.stdout + second.stderr
    statuses = status_lines(second.stdout)
    assert [message for status, message in statuses if status == "changed"] == []
    assert any(status == "ok" and message.startswith("codenames-board ") for status, message in statuses)
    # Whether pygame's SDL has KMS/DRM depends on the wheel: either way the run says so, and changes nothing.
    (display,) = [(status, message) for status, message in statuses if message.startswith("display driver")]
    assert display[0] in ("ok", "skipped") and "KMS/DRM" in display[1], display
    assert snapshot(tmp_path / "etc") | {"stamp": stamp.stat().st_mtime_ns, "command": command.stat().st_mtime_ns} == before


# --- refusals ----------------------------------------------------------------------


def test_refuses_to_set_up_the_system_without_root(tmp_path):
    if os.geteuid() == 0:
        # Run it as nobody: from a copy anyone can read (the checkout and
        # pytest's folders may be root's alone).
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root and setpriv (util-linux) is missing: cannot drop root")
        folder = Path(tempfile.mkdtemp(prefix="codenames-setup-"))
        try:
            folder.chmod(0o755)
            script = folder / "setup.sh"
            shutil.copy(SETUP, script)
            script.chmod(0o755)
            completed = run_setup(
                "--config", script=script, user_prefix=(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
            )
        finally:
            shutil.rmtree(folder)
    else:
        completed = run_setup("--config")
    assert completed.returncode == 2
    assert "needs root" in completed.stderr and "sudo" in completed.stderr
    assert status_lines(completed.stdout) == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--frobnicate"], "unknown option: --frobnicate"),
        (["--dry-run", "--user", "root"], "never runs as root"),
        (["--dry-run", "--with-venv"], "--with-venv goes with --root"),
        (["--dry-run", "--root", "/nonexistent/staging"], "no such folder"),
        (["--dry-run", "--source", "/"], "not a codenames-board checkout"),
    ],
)
def test_wrong_usage_is_one_line_and_exit_code_2(args, message):
    completed = run_setup(*args)
    assert completed.returncode == 2
    assert message in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1
    assert status_lines(completed.stdout) == []


def test_help_lists_every_option():
    completed = run_setup("--help")
    assert completed.returncode == 0
    for option in ("--config", "--start", "--user", "--source", "--dry-run", "--root", "--with-venv", "--pygame-from-source"):
        assert option in completed.stdout
