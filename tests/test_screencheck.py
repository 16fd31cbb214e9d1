"""Is there a screen? The environment before SDL starts, and the driver SDL chose after."""

import pytest

from codenames_board.screencheck import asked_drivers, no_display, unasked_offscreen


@pytest.fixture
def dri(tmp_path):
    """A /dev/dri without a card (a card is added by the test that wants one)."""
    folder = tmp_path / "dri"
    folder.mkdir()
    return folder


def test_linux_without_display_wayland_or_kms_has_no_display(dri):
    assert no_display({}, "linux", dri)
    assert no_display({"DISPLAY": ""}, "linux", dri)
    assert no_display({}, "linux", dri / "missing")


@pytest.mark.parametrize("environ", [{"DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"}, {"SDL_VIDEODRIVER": "kmsdrm"}])
def test_a_desktop_or_a_chosen_driver_is_a_display(dri, environ):
    assert not no_display(environ, "linux", dri)


def test_a_kms_screen_is_a_display(dri):
    (dri / "card0").touch()
    assert not no_display({}, "linux", dri)


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_macos_and_windows_always_have_their_own_screen(dri, platform):
    assert not no_display({}, platform, dri)


def test_an_off_screen_driver_counts_as_asked_only_when_named():
    assert unasked_offscreen("offscreen", {})
    assert unasked_offscreen("dummy", {"SDL_VIDEODRIVER": "offscreen"})
    assert not unasked_offscreen("offscreen", {"SDL_VIDEODRIVER": "x11, Offscreen"})
    assert not unasked_offscreen("dummy", {"SDL_VIDEODRIVER": "dummy"})
    assert not unasked_offscreen("x11", {})
    assert not unasked_offscreen("KMSDRM", {})
    assert asked_drivers({"SDL_VIDEODRIVER": "wayland,,x11 "}) == ["wayland", "x11"]
