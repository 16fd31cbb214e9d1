"""Where a rendered spymaster display goes: a window, a Linux framebuffer, or PNG files.

Each output has a ``surface`` of its size to render into and ``show(surface)``
to put a frame on screen; ``close()`` is safe to call twice and ``with`` works.
``SpymasterScreen`` joins ``render`` and an output for the controller:
``update(game, ui)`` draws one frame and shows it. Full screen on the Pi (KMS/DRM) is just a ``WindowOutput`` with
``fullscreen=True``: SDL picks the driver, and an off-screen one nobody asked
for (no desktop, a pygame without KMS/DRM) is refused with ``NoScreen``. Small SPI screens with an fbtft
driver appear as ``/dev/fbN`` and take raw pixels, which ``FramebufferOutput``
writes without numpy.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pygame

from ..screencheck import unasked_offscreen
from .pngfile import png_bytes
from .render import render


class DisplayError(ValueError):
    """A display that cannot be used, with a message id for the players' language."""

    MESSAGES = {
        "framebuffer_missing": (
            "{device}: no such framebuffer device: check the screen's driver (dtoverlay) and the device name"
        ),
        "framebuffer_geometry": "{path}: cannot read the framebuffer's geometry: is {device} a framebuffer device?",
        "framebuffer_depth": (
            "{device}: {bits} bits per pixel is not supported: the display writes 16 (RGB565) or 32 (XRGB8888)"
        ),
        "output_closed": "the display output is closed",
        "png_unwritable": "{path}: the display's picture cannot be written there: {why}; set [display] png to a file in a folder it can write",
    }

    def __init__(self, msgid: str, **params: object) -> None:
        self.msgid = msgid
        self.params = params
        super().__init__(self.MESSAGES[msgid].format(**params))


class NoScreen(DisplayError):
    """No screen to show a window on: SDL drew off screen (``driver``) although nobody asked it
    to, or could open no screen at all (``why``).

    ``no_display`` for a window (there is no desktop here), ``no_kmsdrm`` for full screen (pygame's
    SDL cannot draw without a desktop), ``sdl_error`` when SDL could open nothing at all. The command line says each in the players' language
    (``display.`` messages) with the ways out.
    """

    MESSAGES = {
        "no_display": "no display here: a window cannot be seen",
        "no_kmsdrm": "fullscreen: SDL found no screen and drew off screen ({driver}): this pygame's SDL has no KMS/DRM",
        "sdl_error": "SDL cannot open the screen: {why}",
    }


class DisplayOutput:
    """A place to show rendered frames. ``surface`` is where to render; ``show`` puts it on screen."""

    def __init__(self, size: tuple[int, int]) -> None:
        self._surface: pygame.Surface | None = pygame.Surface(size)
        self.frames = 0  # frames shown so far

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    @property
    def surface(self) -> pygame.Surface:
        if self._surface is None:
            raise DisplayError("output_closed")
        return self._surface

    @property
    def closed(self) -> bool:
        return self._surface is None

    def show(self, surface: pygame.Surface | None = None) -> None:
        """Show a frame: ``surface`` (scaled if its size differs), by default this output's own surface."""
        frame = self.surface if surface is None else surface
        if frame.get_size() != self.size:
            if frame.get_bitsize() < 24:  # smoothscale takes 24 and 32 bit surfaces only
                deep = pygame.Surface(frame.get_size(), 0, 32)
                deep.blit(frame, (0, 0))
                frame = deep
            frame = pygame.transform.smoothscale(frame, self.size)
        self._show(frame)
        self.frames += 1

    def _show(self, frame: pygame.Surface) -> None:
        raise NotImplementedError

    def close(self) -> None:
        if self._surface is not None:
            self._close()
            self._surface = None

    def _close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return f"<{type(self).__name__} closed>"
        width, height = self.size
        return f"<{type(self).__name__} {width}x{height} frames={self.frames}>"


class WindowOutput(DisplayOutput):
    """A pygame window; ``fullscreen`` on the Pi's HDMI or DSI screen (size None: the screen's own)."""

    def __init__(
        self, size: tuple[int, int] | None = (800, 480), fullscreen: bool = False, title: str = "codenames-board"
    ) -> None:
        flags = pygame.FULLSCREEN if fullscreen else 0
        try:
            pygame.display.init()
            screen = pygame.display.set_mode(size or (0, 0), flags)
        except pygame.error as error:  # the driver SDL_VIDEODRIVER names is missing, /dev/dri not allowed, ...
            pygame.display.quit()
            raise NoScreen("sdl_error", why=str(error)) from None
        driver = pygame.display.get_driver()
        if unasked_offscreen(driver):
            pygame.display.quit()
            raise NoScreen("no_kmsdrm" if fullscreen else "no_display", driver=driver)
        pygame.display.set_caption(title)
        if fullscreen:
            pygame.mouse.set_visible(False)
        self._surface = screen  # render straight into the window
        self.frames = 0

    def _show(self, frame: pygame.Surface) -> None:
        if frame is not self._surface:
            self.surface.blit(frame, (0, 0))
        pygame.display.flip()

    def pump(self) -> bool:
        """Keep the window responsive; False once someone closed it."""
        return not any(event.type == pygame.QUIT for event in pygame.event.get())

    def _close(self) -> None:
        pygame.display.quit()


class FramebufferOutput(DisplayOutput):
    """A Linux framebuffer device such as ``/dev/fb1`` (an SPI TFT): raw pixels written at offset 0.

    The geometry comes from sysfs (``/sys/class/graphics/fbN``, or ``sysfs`` for
    tests): ``virtual_size``, ``bits_per_pixel`` and ``stride`` when present.
    16 bits per pixel is RGB565, 32 is XRGB8888, both in the machine's byte order.
    """

    def __init__(self, device: str | os.PathLike = "/dev/fb1", sysfs: str | os.PathLike = "/sys/class/graphics") -> None:
        self.device = str(device)
        info = Path(sysfs) / Path(self.device).name
        width, height = (int(part) for part in self._read(info / "virtual_size").split(","))
        self.bits = int(self._read(info / "bits_per_pixel"))
        if self.bits not in (16, 32):
            raise DisplayError("framebuffer_depth", device=self.device, bits=self.bits)
        self.row_bytes = width * self.bits // 8
        stride = info / "stride"
        self.stride = int(stride.read_text().strip()) if stride.exists() else self.row_bytes
        try:
            self._fd: int | None = os.open(self.device, os.O_WRONLY)
        except FileNotFoundError:
            raise DisplayError("framebuffer_missing", device=self.device) from None
        super().__init__((width, height))

    def _read(self, path: Path) -> str:
        try:
            return path.read_text().strip()
        except OSError:
            raise DisplayError("framebuffer_geometry", path=str(path), device=self.device) from None

    def pixels(self, frame: pygame.Surface) -> bytes:
        """The frame as the framebuffer's bytes, rows padded to its stride."""
        width, height = frame.get_size()
        # pygame converts the pixels itself when blitting onto a surface with the framebuffer's
        # masks: XRGB8888 (BGRA in little-endian memory) or RGB565. (Not image.tobytes: pygame
        # 2.1.2, Debian Bookworm's, has no "BGRA" format.)
        if self.bits == 32:
            packed = pygame.Surface((width, height), pygame.SRCALPHA, 32, (0xFF0000, 0x00FF00, 0x0000FF, 0xFF000000))
        else:
            packed = pygame.Surface((width, height), 0, 16, (0xF800, 0x07E0, 0x001F, 0))
        packed.blit(frame, (0, 0))
        data, pitch = packed.get_buffer().raw, packed.get_pitch()
        if pitch == self.stride == self.row_bytes:
            return bytes(data)
        padding = bytes(self.stride - self.row_bytes)
        return b"".join(data[row * pitch : row * pitch + self.row_bytes] + padding for row in range(height))

    def _show(self, frame: pygame.Surface) -> None:
        data = self.pixels(frame)
        written = 0
        while written < len(data):
            written += os.pwrite(self._fd, data[written:], written)

    def _close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def png_frame_path(setting: str, frame: int) -> Path:
    """Where ``[display] png`` puts a frame: the one file, or numbered where it says ``{frame}``."""
    return Path(setting.format(frame=frame)) if "{frame" in setting else Path(setting)


def png_problem(path: Path, make: bool = True) -> DisplayError | None:
    """Why a picture cannot be written to ``path`` (its folder made first unless ``make`` is False), or None."""
    try:
        folder = path.parent
        if make:
            folder.mkdir(parents=True, exist_ok=True)
        else:
            while not folder.exists():  # the nearest folder that is there: the rest would be made
                folder = folder.parent
            if not folder.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not os.access(folder, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(folder))
    except OSError as error:
        return DisplayError("png_unwritable", path=str(path), why=error.strerror or error)
    return None


class PngOutput(DisplayOutput):
    """Each frame saved as a PNG: one file overwritten, or numbered if ``path`` has ``{frame}`` in it."""

    def __init__(self, path: str | os.PathLike, size: tuple[int, int] = (800, 480)) -> None:
        self.path = str(path)
        problem = png_problem(self.frame_path(0))  # found now, before "ready", not at the first frame
        if problem is not None:
            raise problem
        super().__init__(size)

    def frame_path(self, frame: int) -> Path:
        return png_frame_path(self.path, frame)

    def _show(self, frame: pygame.Surface) -> None:
        path = self.frame_path(self.frames)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png_bytes(frame))  # not pygame.image.save: it holds the interpreter (pngfile)


def open_output(
    output: str = "window",
    size: tuple[int, int] | None = (480, 320),
    framebuffer: str | os.PathLike = "/dev/fb1",
    png: str | os.PathLike = "spymaster.png",
) -> DisplayOutput:
    """The output the ``[display]`` settings name: window, fullscreen, framebuffer or png."""
    if output == "fullscreen":
        return WindowOutput(None, fullscreen=True)  # the screen's own size
    if output == "framebuffer":
        # CODENAMES_BOARD_FB_SYSFS: where the geometry is read (the benchmark's framebuffer-like file).
        return FramebufferOutput(framebuffer, os.environ.get("CODENAMES_BOARD_FB_SYSFS", "/sys/class/graphics"))
    if output == "png":
        return PngOutput(png, tuple(size or (480, 320)))
    return WindowOutput(tuple(size or (480, 320)))


class SpymasterScreen:
    """The spymaster display on an output: ``update(game, ui)`` renders and shows one frame.

    The controller calls it only when something changed, so it keeps no state
    beyond its output and options.
    """

    def __init__(self, output: DisplayOutput, tr, *, rotate: bool = True, colour_blind_marks: bool = True) -> None:
        self.output = output
        self.tr = tr
        self.rotate = rotate
        self.colour_blind_marks = colour_blind_marks

    def update(self, game, ui) -> None:
        render(self.output.surface, game, ui, self.tr, rotate=self.rotate, colour_blind_marks=self.colour_blind_marks)
        self.output.show()

    @property
    def needs_pumping(self) -> bool:
        """A window must handle its events now and then (the others need nothing)."""
        return hasattr(self.output, "pump")

    def pump(self) -> bool:
        return self.output.pump() if self.needs_pumping else True

    def close(self) -> None:
        self.output.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SpymasterScreen on {self.output!r}>"
