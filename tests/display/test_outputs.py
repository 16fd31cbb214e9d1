"""Display outputs: a framebuffer (a regular file plus a fake sysfs tree), PNG files and a window (SDL dummy)."""

from __future__ import annotations

import sys

import pygame
import pytest

from codenames_board.display import (
    DisplayError,
    FramebufferOutput,
    NoScreen,
    PngOutput,
    SpymasterScreen,
    WindowOutput,
    open_output,
    render,
)
from codenames_board.engine import new_game
from codenames_board.ui import UiState

# An odd colour: each channel loses different low bits in RGB565.
COLOUR = (16, 32, 48)
RGB565 = (16 >> 3) << 11 | (32 >> 2) << 5 | (48 >> 3)  # 0x1106


def fake_framebuffer(tmp_path, size, bits, stride=None, name="fb1"):
    """A framebuffer device as a regular file, and its /sys/class/graphics entry."""
    sysfs = tmp_path / "sys" / "class" / "graphics"
    info = sysfs / name
    info.mkdir(parents=True)
    (info / "virtual_size").write_text(f"{size[0]},{size[1]}\n")
    (info / "bits_per_pixel").write_text(f"{bits}\n")
    if stride is not None:
        (info / "stride").write_text(f"{stride}\n")
    device = tmp_path / name
    device.write_bytes(bytes((stride or size[0] * bits // 8) * size[1]))
    return device, sysfs


def frame(size, colour=COLOUR, corner=(255, 0, 0)) -> pygame.Surface:
    surface = pygame.Surface(size)
    surface.fill(colour)
    surface.set_at((0, 0), corner)
    return surface


def test_a_16_bit_framebuffer_gets_rgb565_pixels(tmp_path):
    device, sysfs = fake_framebuffer(tmp_path, (4, 2), 16)
    with FramebufferOutput(device=device, sysfs=sysfs) as output:
        assert output.size == (4, 2)
        output.show(frame((4, 2)))
    data = device.read_bytes()
    assert len(data) == 4 * 2 * 2
    assert data[0:2] == (0xF800).to_bytes(2, sys.byteorder)  # the red corner
    assert data[2:] == RGB565.to_bytes(2, sys.byteorder) * 7


def test_a_32_bit_framebuffer_gets_xrgb8888_pixels(tmp_path):
    device, sysfs = fake_framebuffer(tmp_path, (4, 2), 32)
    with FramebufferOutput(device=device, sysfs=sysfs) as output:
        output.show(frame((4, 2)))
    data = device.read_bytes()
    assert len(data) == 4 * 2 * 4
    pixels = [data[i : i + 4] for i in range(0, len(data), 4)]
    assert pixels[0][:3] == bytes((0, 0, 255))  # blue, green, red in memory: XRGB8888 little-endian
    assert all(pixel[:3] == bytes((48, 32, 16)) for pixel in pixels[1:])


@pytest.mark.parametrize("bits, stride", [(16, None), (16, 10), (32, 16)])
def test_rows_follow_the_framebuffers_stride(tmp_path, bits, stride):
    # 3 pixels wide: pygame pads a 16-bit row of 6 bytes to 8, the device may pad differently.
    device, sysfs = fake_framebuffer(tmp_path, (3, 2), bits, stride)
    with FramebufferOutput(device=device, sysfs=sysfs) as output:
        output.show(frame((3, 2)))
    row = 3 * bits // 8
    pitch = stride or row
    data = device.read_bytes()
    assert len(data) == pitch * 2
    second_row = data[pitch : pitch + row]
    pixel = RGB565.to_bytes(2, sys.byteorder) if bits == 16 else bytes((48, 32, 16, 255))
    assert second_row == pixel * 3


def test_a_frame_of_another_size_is_scaled_to_the_screen(tmp_path):
    device, sysfs = fake_framebuffer(tmp_path, (8, 6), 32)
    with FramebufferOutput(device=device, sysfs=sysfs) as output:
        output.show(frame((16, 12), corner=COLOUR))
    assert device.read_bytes()[:4][:3] == bytes((48, 32, 16))
    assert len(device.read_bytes()) == 8 * 6 * 4


def test_the_display_renders_straight_into_a_framebuffer(tmp_path, tiles, tr):
    device, sysfs = fake_framebuffer(tmp_path, (320, 240), 16)
    output = FramebufferOutput(device=device, sysfs=sysfs)
    render(output.surface, new_game(tiles.key), UiState(), tr)
    output.show()
    assert output.frames == 1
    assert len(set(device.read_bytes())) > 10
    output.close()


def test_an_unsupported_depth_is_a_clear_error(tmp_path):
    device, sysfs = fake_framebuffer(tmp_path, (4, 2), 24)
    with pytest.raises(DisplayError) as error:
        FramebufferOutput(device=device, sysfs=sysfs)
    assert error.value.msgid == "framebuffer_depth" and "24 bits per pixel" in str(error.value)


def test_a_missing_framebuffer_is_a_clear_error(tmp_path):
    device, sysfs = fake_framebuffer(tmp_path, (4, 2), 16)
    device.unlink()
    with pytest.raises(DisplayError) as error:
        FramebufferOutput(device=device, sysfs=sysfs)
    assert error.value.msgid == "framebuffer_missing"
    with pytest.raises(DisplayError) as error:
        FramebufferOutput(device=tmp_path / "fb7", sysfs=sysfs)
    assert error.value.msgid == "framebuffer_geometry" and "fb7" in str(error.value)


def test_close_is_safe_twice_and_a_closed_output_says_so(tmp_path):
    device, sysfs = fake_framebuffer(tmp_path, (4, 2), 16)
    output = FramebufferOutput(device=device, sysfs=sysfs)
    assert "4x2" in repr(output)
    output.close()
    output.close()
    assert output.closed and "closed" in repr(output)
    with pytest.raises(DisplayError):
        output.show(frame((4, 2)))


def test_png_output_saves_each_frame(tmp_path, tiles, tr):
    with PngOutput(tmp_path / "shots" / "display-{frame:03d}.png", size=(320, 240)) as output:
        for draft in (1, 2):
            render(output.surface, new_game(tiles.key), UiState(clue_draft=draft), tr)
            output.show()
    first, second = (pygame.image.load(str(tmp_path / "shots" / f"display-{n:03d}.png")) for n in (0, 1))
    assert first.get_size() == (320, 240)
    assert pygame.image.tobytes(first, "RGB") != pygame.image.tobytes(second, "RGB")
    output.close()


def test_png_output_to_one_file_keeps_the_latest_frame(tmp_path):
    output = PngOutput(tmp_path / "display.png", size=(4, 2))
    output.show(frame((4, 2), corner=(0, 255, 0)))
    output.show(frame((4, 2), corner=(0, 0, 255)))
    assert tuple(pygame.image.load(str(tmp_path / "display.png")).get_at((0, 0)))[:3] == (0, 0, 255)
    output.close()
    output.close()


def test_a_window_shows_the_display(tiles, tr):
    output = WindowOutput((480, 320))
    try:
        assert output.size == (480, 320)
        render(output.surface, new_game(tiles.key), UiState(), tr)
        output.show()
        elsewhere = pygame.Surface((480, 320))
        elsewhere.fill(COLOUR)
        output.show(elsewhere)
        assert tuple(output.surface.get_at((5, 5)))[:3] == COLOUR
    finally:
        output.close()
    output.close()
    assert output.closed


def test_the_spymaster_screen_renders_and_shows_each_update(tmp_path, state, tr):
    game, ui = state("classic_guess")
    with SpymasterScreen(open_output("png", (320, 240), png=tmp_path / "screen-{frame}.png"), tr, rotate=False) as screen:
        screen.update(game, ui)
        screen.update(game, UiState(board_connected=False))
        assert screen.output.frames == 2 and "PngOutput" in repr(screen)
    assert screen.output.closed
    shown = pygame.image.load(str(tmp_path / "screen-0.png"))
    expected = pygame.Surface((320, 240))
    render(expected, game, ui, tr, rotate=False)
    assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(expected, "RGB")


def test_open_output_follows_the_display_settings(tmp_path):
    window = open_output("window", (320, 240))
    try:
        assert isinstance(window, WindowOutput) and window.size == (320, 240)
    finally:
        window.close()
    png = open_output("png", (200, 100), png=tmp_path / "x.png")
    assert isinstance(png, PngOutput) and png.size == (200, 100)
    with pytest.raises(DisplayError):
        open_output("framebuffer", framebuffer=tmp_path / "fb9")  # no such framebuffer here


# --- a window or full screen that SDL can only draw off screen


@pytest.mark.parametrize("fullscreen, msgid", [(True, "no_kmsdrm"), (False, "no_display")])
def test_an_off_screen_driver_nobody_asked_for_is_refused(monkeypatch, fullscreen, msgid):
    """Real pygame opens the window (SDL's dummy driver, which the tests ask for); SDL is made to
    report the driver it falls back to without a screen, as pygame's wheels do on Raspberry Pi OS Lite."""
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    with pytest.raises(NoScreen) as caught:
        WindowOutput((320, 240), fullscreen=fullscreen)
    assert (caught.value.msgid, caught.value.params["driver"]) == (msgid, "offscreen")
    assert not pygame.display.get_init()  # nothing left open


@pytest.mark.parametrize("asked, driver", [("x11,offscreen", "offscreen"), ("dummy", "dummy")])
def test_an_off_screen_driver_asked_for_is_used(monkeypatch, asked, driver):
    monkeypatch.setenv("SDL_VIDEODRIVER", asked)  # SDL tries a list in turn (its dummy driver only alone)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: driver)
    with WindowOutput((320, 240), fullscreen=True) as output:
        output.show(frame((320, 240)))
        assert output.frames == 1


@pytest.mark.parametrize("driver", ["x11", "wayland", "KMSDRM", "windows", "cocoa"])
def test_a_driver_with_a_screen_is_used(monkeypatch, driver):
    monkeypatch.setattr(pygame.display, "get_driver", lambda: driver)
    with WindowOutput((320, 240), fullscreen=True) as output:
        output.show(frame((320, 240)))
        assert output.frames == 1


def test_a_video_driver_sdl_cannot_open_is_one_error(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    with pytest.raises(NoScreen) as caught:
        WindowOutput((320, 240))
    assert caught.value.msgid == "sdl_error" and caught.value.params["why"]
