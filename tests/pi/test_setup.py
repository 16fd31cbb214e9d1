"""The Pi setup (host/pi/setup.sh), its udev rule and the systemd unit, tested off a Pi.

Real tools, real runs: shellcheck on the script, systemd-analyze on the unit,
and the script itself installing into a staging root (--root) twice. Where
shellcheck or systemd-analyze is missing the test is skipped, except on CI
(the CI variable set), which must have them.

Two things a test machine does not have are handed in by the script's test
hooks: the Pi's model (CODENAMES_SETUP_MODEL_FILE instead of
/proc/device-tree/model; a machine without one counts as no Pi) and a running
udev (CODENAMES_SETUP_UDEV_UNDER_ROOT=1 with a udevadm on PATH that records
its calls and answers the ping as told).
"""

import os
import re
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
COMMAND_LINK = "/usr/local/bin/codenames-board"
STATUSES = ("ok", "changed", "planned", "skipped")
STEPS = 15  # the lines a run reports, one per step
NO_PI = "/nonexistent/device-tree/model"  # what a test run sees unless it names a model


def run_setup(*args, env=None, script=SETUP, user_prefix=()):
    """The script as the README runs it: PYTHON unset (python3 from PATH), unless ``env`` sets it."""
    environ = {**os.environ, "CODENAMES_SETUP_MODEL_FILE": NO_PI}
    environ.pop("PYTHON", None)
    environ.update(env or {})
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


def step_line(output, step):
    """The one status line of the step whose message starts with step: (status, message)."""
    (line,) = [(status, message) for status, message in status_lines(output) if message.startswith(step)]
    return line


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


def udev_answers():
    """Does a udev daemon run on this machine?"""
    udevadm = shutil.which("udevadm")
    return udevadm is not None and subprocess.run([udevadm, "control", "--ping", "--timeout=5"], capture_output=True).returncode == 0


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
    if udev_answers():
        assert "would run: udevadm control --reload" in out
    else:
        # The bug this guards against: the run failed at `udevadm control --reload`.
        status, message = step_line(out, "udev rule")
        assert status == "planned" and "udev is not running here" in message and "reboot" in message
        assert "udevadm control --reload" not in out
    assert "would run: systemctl enable codenames-board" in out
    assert f"would run: ln -s {BINARY} {COMMAND_LINK}" in out
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
    for step in ("udev rule", "config folder", "state folder", "config /", "systemd unit", "enabled", "command"):
        assert [status for status, message in statuses if message.startswith(step)] == ["changed"], step

    unit = tmp_path / "etc/systemd/system/codenames-board.service"
    assert unit.read_bytes() == UNIT.read_bytes()
    assert stat.S_IMODE(unit.stat().st_mode) == 0o644
    assert (tmp_path / "etc/udev/rules.d/99-codenames-tiles.rules").read_bytes() == UDEV_RULE.read_bytes()
    assert (tmp_path / "etc/codenames-board/config.toml").read_text() == default_config_text()
    link = tmp_path / "etc/systemd/system/multi-user.target.wants/codenames-board.service"
    assert os.readlink(link) == "/etc/systemd/system/codenames-board.service"
    # codenames-board on PATH: a link into the venv, which the Pi's own run makes.
    assert os.readlink(tmp_path / COMMAND_LINK.lstrip("/")) == BINARY
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


def test_a_starter_config_that_cannot_be_written_fails_and_leaves_nothing_half_written(tmp_path):
    source = tmp_path / "checkout"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "*.egg-info", "__pycache__", "tests"))
    starter = source / "host/codenames_board/default_config.toml"
    starter.unlink()
    starter.mkdir()  # cat cannot read it: the write fails halfway, as on a full disk
    root = tmp_path / "root"
    root.mkdir()
    completed = run_setup("--root", root, "--config", "--source", source)
    assert completed.returncode == 1
    assert "failed   config" in completed.stderr
    folder = root / "etc/codenames-board"
    assert sorted(path.name for path in folder.iterdir()) == []  # no config.toml, no config.toml.XXXXXX


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
    on_path = tmp_path / COMMAND_LINK.lstrip("/")
    assert (tmp_path / os.readlink(on_path).lstrip("/")).samefile(command)
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


# --- the web page: the service's network, opened by a drop-in ---------------------------

WEB_CONF = PI / "web.conf"
WEB_DROP_IN = "etc/systemd/system/codenames-board.service.d/20-web.conf"


def web_root(tmp_path, web=None):
    """A staging root set up once, with a config whose [web] is ``web`` (TOML lines; None: the starter config)."""
    root = tmp_path / "root"
    root.mkdir()
    assert run_setup("--root", root, "--config").returncode == 0
    if web is not None:
        set_web(root, web)
    return root


def set_web(root, web):
    (root / "etc/codenames-board/config.toml").write_text(f"[web]\n{web}\n")


def written_drop_in(root):
    """The drop-in's settings without its first line (which says where it came from), and that line."""
    head, _, body = (root / WEB_DROP_IN).read_text().partition("\n")
    return head, body


def setting_lines(text):
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_the_web_drop_in_follows_the_config_and_a_second_run_changes_nothing(tmp_path):
    root = web_root(tmp_path)
    off = run_setup("--root", root)
    assert step_line(off.stdout, "web page") == ("ok", "web page: off ([web] enabled = false): the service has no network")
    assert not (root / WEB_DROP_IN).exists()

    set_web(root, "enabled = true")
    on = run_setup("--root", root)
    assert on.returncode == 0, on.stdout + on.stderr
    status, message = step_line(on.stdout, "web page")
    assert status == "changed" and "listen on TCP port 8080 and reach the local network only" in message, message
    assert [message for status, message in status_lines(on.stdout) if status == "changed"] == [message]
    head, body = written_drop_in(root)
    # The default port: the repository's file itself, under a line saying where it came from.
    assert body == WEB_CONF.read_text()
    assert head == "# Written by host/pi/setup.sh from host/pi/web.conf for [web] port = 8080, address = 0.0.0.0"
    assert stat.S_IMODE((root / WEB_DROP_IN).stat().st_mode) == 0o644

    before = snapshot(root)
    again = run_setup("--root", root)
    assert step_line(again.stdout, "web page")[0] == "ok"
    assert "done: 0 changed" in again.stdout
    assert snapshot(root) == before

    set_web(root, "enabled = false\nport = 9000")
    closed = run_setup("--root", root)
    status, message = step_line(closed.stdout, "web page")
    assert status == "changed" and "removed, the service has no network again" in message
    assert not (root / WEB_DROP_IN).exists()


def test_the_web_drop_in_opens_the_configured_port_only(tmp_path):
    root = web_root(tmp_path, "enabled = true\nport = 9000")
    completed = run_setup("--root", root)
    assert "listen on TCP port 9000 " in step_line(completed.stdout, "web page")[1]
    _, body = written_drop_in(root)
    assert setting_lines(body) == [line.replace("tcp:8080", "tcp:9000") for line in setting_lines(WEB_CONF.read_text())]

    set_web(root, "enabled = true\nport = 9001")
    moved = run_setup("--root", root)
    assert step_line(moved.stdout, "web page")[0] == "changed"
    assert "SocketBindAllow=tcp:9001\n" in written_drop_in(root)[1]


def test_port_0_may_listen_on_any_tcp_port_and_the_loopback_reaches_this_machine_only(tmp_path):
    root = web_root(tmp_path, 'enabled = true\nport = 0\naddress = "127.0.0.1"')
    completed = run_setup("--root", root)
    message = step_line(completed.stdout, "web page")[1]
    assert "any TCP port ([web] port = 0)" in message and "this machine only ([web] address = 127.0.0.1)" in message
    lines = setting_lines(written_drop_in(root)[1])
    assert [line for line in lines if line.startswith("SocketBind")] == ["SocketBindAllow=tcp", "SocketBindDeny=any"]
    assert [line for line in lines if line.startswith("IPAddressAllow")] == ["IPAddressAllow=127.0.0.0/8 ::1/128"]
    assert "PrivateNetwork=no" in lines  # the host's loopback, not one of its own

    set_web(root, 'enabled = true\naddress = "::"')
    everywhere = run_setup("--root", root)
    assert "reach the local network only" in step_line(everywhere.stdout, "web page")[1]
    assert setting_lines(written_drop_in(root)[1]) == setting_lines(WEB_CONF.read_text())


def test_web_and_no_web_override_the_config_for_one_run(tmp_path):
    root = web_root(tmp_path)
    forced = run_setup("--root", root, "--web")
    status, message = step_line(forced.stdout, "web page")
    assert status == "changed" and message.startswith("web page: on (--web)")
    assert "the page stays off" in forced.stdout  # the config still says enabled = false
    assert written_drop_in(root)[1] == WEB_CONF.read_text()

    set_web(root, "enabled = true")
    closed = run_setup("--root", root, "--no-web")
    status, message = step_line(closed.stdout, "web page")
    assert status == "changed" and message.startswith("web page: off (--no-web)")
    assert "the table will not start" in closed.stdout
    assert not (root / WEB_DROP_IN).exists()

    following = run_setup("--root", root)  # no option: the config decides again
    assert step_line(following.stdout, "web page")[0] == "changed"
    assert (root / WEB_DROP_IN).exists()


def test_a_config_with_mistakes_leaves_the_web_drop_in_as_it_is(tmp_path):
    root = web_root(tmp_path, "enabled = true")
    assert run_setup("--root", root).returncode == 0
    before = (root / WEB_DROP_IN).read_bytes()
    set_web(root, "enabled = true\nport = 80")  # below 1024: config --check refuses it, and so does the table
    completed = run_setup("--root", root)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    status, message = step_line(completed.stdout, "web page")
    assert status == "skipped" and "has mistakes" in message and "left as it is" in message
    assert (root / WEB_DROP_IN).read_bytes() == before


def test_without_a_config_the_web_step_is_skipped_and_the_service_keeps_no_network(tmp_path):
    completed = run_setup("--root", tmp_path)
    status, message = step_line(completed.stdout, "web page")
    assert status == "skipped" and "no config" in message and "has no network" in message
    assert not (tmp_path / WEB_DROP_IN).exists()


def test_a_dry_run_plans_the_web_drop_in_and_writes_nothing(tmp_path):
    root = web_root(tmp_path, "enabled = true")
    before = snapshot(root)
    completed = run_setup("--root", root, "--dry-run")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert f"would write: {root / WEB_DROP_IN} (from {WEB_CONF}, tcp:8080)" in completed.stdout
    assert step_line(completed.stdout, "web page")[0] == "planned"
    assert snapshot(root) == before


# --- udev: the rule, and a udev that is not running ------------------------------

RULE_KEY = re.compile(r'\s*([A-Z_]+(?:\{[^}]*\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')


def parse_rule(line):
    """A udev rule line as [(key, operator, value)]; every character must belong to a key."""
    pairs, position = [], 0
    while position < len(line):
        match = RULE_KEY.match(line, position)
        assert match, f"not a udev key at {line[position:]!r}"
        pairs.append(match.groups())
        position = match.end()
    return pairs


def test_the_udev_rule_names_the_pico_and_keeps_modemmanager_off_it():
    rules = [line for line in UDEV_RULE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert len(rules) == 1
    pairs = parse_rule(rules[0])
    matches = {key: value for key, operator, value in pairs if operator == "=="}
    assigned = {key: (operator, value) for key, operator, value in pairs if operator != "=="}
    assert matches == {"SUBSYSTEM": "tty", "ATTRS{idVendor}": "2e8a", "ATTRS{idProduct}": "0005"}
    assert assigned == {
        "SYMLINK": ("+=", "codenames-tiles"),
        "GROUP": ("=", "dialout"),
        "MODE": ("=", "0660"),
        # ModemManager probes every new USB serial port with AT commands unless told not to.
        "ENV{ID_MM_DEVICE_IGNORE}": ("=", "1"),
    }


def test_udevadm_verify_accepts_the_rule():
    udevadm = shutil.which("udevadm")
    if udevadm is None or subprocess.run([udevadm, "verify", "--help"], capture_output=True).returncode != 0:
        pytest.skip("no `udevadm verify` here (systemd 254 or later)")
    completed = subprocess.run([udevadm, "verify", str(UDEV_RULE)], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def fake_udev(folder):
    """A udevadm that records its calls and answers the ping while folder/running exists:
    (environment for run_setup, the calls since the last look, a switch)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    log = folder / "udevadm.log"
    udevadm = bin_dir / "udevadm"
    udevadm.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$*" >>"{log}"\n'
        f'if [ "$1 $2" = "control --ping" ] && [ ! -e "{folder}/running" ]; then\n'
        '    echo "Failed to send a ping message: No such file or directory" >&2\n'
        "    exit 1\n"
        "fi\n"
    )
    udevadm.chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "CODENAMES_SETUP_UDEV_UNDER_ROOT": "1"}

    def calls():
        lines = log.read_text().splitlines() if log.exists() else []
        log.unlink(missing_ok=True)
        return lines

    def running(on):
        if on:
            (folder / "running").touch()
        else:
            (folder / "running").unlink(missing_ok=True)

    return env, calls, running


def test_without_udev_the_rule_step_is_one_line_and_a_later_run_applies_the_rule(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    env, calls, running = fake_udev(tmp_path)

    first = run_setup("--root", root, env=env)
    assert first.returncode == 0, first.stdout + first.stderr  # it stopped here before
    status, message = step_line(first.stdout, "udev rule")
    assert status == "changed"
    assert "udev is not running here" in message and "a reboot does it" in message
    assert calls() == ["control --ping --timeout=5"]
    # One line says it all: no udevadm command, no other "not running".
    said = [line for line in first.stdout.splitlines() if "udevadm" in line or "not running" in line]
    assert said == [f"changed  {message}"]

    # The rule is up to date now: a run with udev running applies it all the same.
    running(True)
    second = run_setup("--root", root, env=env)
    assert second.returncode == 0, second.stdout + second.stderr
    status, message = step_line(second.stdout, "udev rule")
    assert status == "ok" and "up to date, applied" in message
    assert calls() == [
        "control --ping --timeout=5",
        "control --reload",
        "trigger --action=change --subsystem-match=tty --sysname-match=ttyACM*",
    ]
    assert "done: 0 changed" in second.stdout

    running(False)
    third = run_setup("--root", root, env=env)
    assert step_line(third.stdout, "udev rule")[0] == "ok"
    assert calls() == ["control --ping --timeout=5"]


def test_a_dry_run_with_udev_running_plans_the_reload_and_runs_nothing(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    env, calls, running = fake_udev(tmp_path)
    running(True)
    completed = run_setup("--root", root, "--dry-run", env=env)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "would run: udevadm control --reload" in completed.stdout
    assert "would run: udevadm trigger --action=change --subsystem-match=tty '--sysname-match=ttyACM*'" in completed.stdout
    assert calls() == ["control --ping --timeout=5"]  # the question only
    assert list(root.iterdir()) == []


# --- codenames-board on PATH ---------------------------------------------------------


def test_codenames_board_goes_on_path_once_and_a_file_of_the_same_name_is_left_alone(tmp_path):
    first = run_setup("--root", tmp_path)
    link = tmp_path / COMMAND_LINK.lstrip("/")
    assert os.readlink(link) == BINARY
    assert step_line(first.stdout, "command")[0] == "changed"
    again = run_setup("--root", tmp_path)
    assert step_line(again.stdout, "command") == ("ok", f"command {link}: links to {BINARY}")

    link.unlink()
    link.write_text("#!/bin/sh\necho my own codenames-board\n")
    mine = run_setup("--root", tmp_path)
    assert mine.returncode == 0
    status, message = step_line(mine.stdout, "command")
    assert status == "skipped" and "left alone" in message
    assert link.read_text() == "#!/bin/sh\necho my own codenames-board\n"


# --- which GPIO packages for which Pi -------------------------------------------------

RPI_GPIO_WORKS = [
    "Raspberry Pi Model B Rev 2",
    "Raspberry Pi Model B Plus Rev 1.2",
    "Raspberry Pi 2 Model B Rev 1.1",
    "Raspberry Pi 3 Model B Plus Rev 1.3",
    "Raspberry Pi 3 Model A Plus Rev 1.0",
    "Raspberry Pi 4 Model B Rev 1.4",
    "Raspberry Pi 400 Rev 1.0",
    "Raspberry Pi Zero Rev 1.3",
    "Raspberry Pi Zero W Rev 1.1",
    "Raspberry Pi Zero 2 W Rev 1.0",
    "Raspberry Pi Compute Module 3 Plus Rev 1.0",
    "Raspberry Pi Compute Module 4 Rev 1.0",
]
RPI_GPIO_FAILS = [
    "Raspberry Pi 5 Model B Rev 1.0",
    "Raspberry Pi 500 Rev 1.0",
    "Raspberry Pi Compute Module 5 Rev 1.0",
]


def gpio_plan(tmp_path, model, *args):
    """A staging-root dry run on a Pi of that model: (the apt packages it needs, the GPIO step's message)."""
    model_file = tmp_path / "model"
    model_file.write_bytes(model.encode() + b"\0")  # as /proc/device-tree/model: NUL-terminated
    root = tmp_path / "root"
    root.mkdir()
    completed = run_setup("--root", root, "--dry-run", *args, env={"CODENAMES_SETUP_MODEL_FILE": str(model_file)})
    assert completed.returncode == 0, completed.stdout + completed.stderr
    apt = step_line(completed.stdout, "apt packages")[1]
    return apt.split(" needs ", 1)[1].split(), step_line(completed.stdout, "GPIO packages")[1]


@pytest.mark.parametrize("model", RPI_GPIO_WORKS + RPI_GPIO_FAILS)
def test_every_pi_gets_lgpio_and_no_rpi_gpio_unless_asked_for(tmp_path, model):
    packages, gpio = gpio_plan(tmp_path, model)
    assert "python3-lgpio" in packages
    assert not any("rpi" in package for package in packages)
    assert f"{model.split(' Rev ')[0]} gets lgpio" in gpio and "no RPi.GPIO" in gpio


@pytest.mark.parametrize("model", RPI_GPIO_WORKS)
def test_rpi_gpio_when_asked_for_on_a_pi_where_it_works(tmp_path, model):
    packages, gpio = gpio_plan(tmp_path, model, "--rpi-gpio")
    assert packages[-2:] == ["python3-lgpio", "python3-rpi.gpio"]
    assert "and RPi.GPIO" in gpio


@pytest.mark.parametrize("model", RPI_GPIO_FAILS)
def test_no_rpi_gpio_on_a_pi_5_even_when_asked_for(tmp_path, model):
    packages, gpio = gpio_plan(tmp_path, model, "--rpi-gpio")
    assert packages[-1] == "python3-lgpio"
    assert f"no RPi.GPIO: it does not work on a {model.split(' Rev ')[0]}" in gpio


def test_off_a_pi_there_is_no_gpio_package(tmp_path):
    completed = run_setup("--root", tmp_path, "--with-venv", "--dry-run", "--rpi-gpio")
    status, message = step_line(completed.stdout, "GPIO packages")
    assert status == "skipped" and "not a Raspberry Pi" in message and "GPIOZERO_PIN_FACTORY=mock" in message


# --- the system's pygame -----------------------------------------------------------------


def test_system_pygame_installs_debians_pygame_and_keeps_pip_off_it(tmp_path):
    completed = run_setup("--root", tmp_path, "--with-venv", "--dry-run", "--system-pygame")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "python3-pygame" in step_line(completed.stdout, "apt packages")[1].split()
    planned = [line.split("would run: ", 1)[1] for line in completed.stdout.splitlines() if "-m pip install" in line]
    package, others = planned
    assert "--no-deps" in package and package.endswith("<that folder>")
    requirements = others.split("--upgrade ", 1)[1]
    assert "gpiozero" in requirements and "pyserial" in requirements
    assert "pygame" not in requirements and "--no-deps" not in others
    assert step_line(completed.stdout, "codenames-board ")[1].endswith("with the system's pygame")


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
        (["--dry-run", "--system-pygame", "--pygame-from-source"], "choose one"),
        (["--dry-run", "--web", "--no-web"], "choose one"),
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
    for option in (
        "--config",
        "--start",
        "--user",
        "--source",
        "--dry-run",
        "--root",
        "--with-venv",
        "--pygame-from-source",
        "--system-pygame",
        "--rpi-gpio",
        "--web",
        "--no-web",
    ):
        assert option in completed.stdout
