"""The simulator's window: clicks and keys in, the table drawn whenever something changed."""

from __future__ import annotations

import signal
import socket
import threading

import pygame

from ..display import NoScreen
from ..screencheck import unasked_offscreen
from .scene import BUTTONS, QUIT, SHORTCUTS, TOGGLE_HELP, TOGGLE_SPYMASTER
from .view import draw

INPUT_EVENTS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.KEYUP, pygame.QUIT)


class QuitOnInterrupt:
    """Ctrl-C (SIGINT) closes the window as Esc does; ``received`` says whether it came.

    The window's thread waits inside SDL for the next event, where Python runs no
    signal handler (and SDL leaves SIGINT to Python). So the signal's wakeup byte
    (``signal.set_wakeup_fd``) is read on a thread of its own, which posts a QUIT
    event: the loop ends at once and closes everything on its way out. SIGTERM
    (``kill``, a session's logout) wakes the loop the same way, and its own handler
    (``clibase.stop_on_sigterm``) then ends the command with 143. Outside the main
    thread (tests) it does nothing: signals go to the main thread only.
    """

    def __init__(self) -> None:
        self.received = False
        self._quit = pygame.event.Event(pygame.QUIT)  # made once: see run_window on posted events
        self._sockets: tuple[socket.socket, socket.socket] | None = None
        self._previous = None
        self._previous_fd = -1
        self._thread: threading.Thread | None = None

    def __enter__(self) -> QuitOnInterrupt:
        if threading.current_thread() is not threading.main_thread():
            return self
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        self._sockets = (reader, writer)
        self._previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        self._previous = signal.signal(signal.SIGINT, self._handler)
        self._thread = threading.Thread(target=self._watch, args=(reader,), name="sigint-watch", daemon=True)
        self._thread.start()
        return self

    def _handler(self, signum, frame) -> None:  # runs once the window's loop is back in Python
        self.received = True

    def _watch(self, reader: socket.socket) -> None:
        while True:
            try:
                data = reader.recv(64)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data or signal.SIGTERM in data:
                self.received = self.received or signal.SIGINT in data
                if pygame.display.get_init():
                    pygame.event.post(self._quit)

    def __exit__(self, *exc) -> None:
        if self._sockets is None:
            return
        signal.set_wakeup_fd(self._previous_fd)
        signal.signal(signal.SIGINT, self._previous)
        reader, writer = self._sockets
        writer.close()
        reader.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=1)
        reader.close()
        self._sockets = None


class SpymasterWindow:
    """The spymaster display in a window of its own (pygame 2's SDL2 windows), e.g. on a second screen."""

    def __init__(self, title: str, size: tuple[int, int]) -> None:
        from pygame._sdl2.video import Renderer, Window

        self.window = Window(title, size=size, resizable=True)
        self.renderer = Renderer(self.window)
        self.visible = True

    def owns(self, event) -> bool:
        return getattr(event, "window", None) is self.window

    def toggle(self) -> None:
        self.visible = not self.visible
        self.window.show() if self.visible else self.window.hide()

    def draw(self, surface: pygame.Surface) -> None:
        from pygame._sdl2.video import Texture

        width, height = self.window.size
        scale = min(width / surface.get_width(), height / surface.get_height())
        shown = (round(surface.get_width() * scale), round(surface.get_height() * scale))
        self.renderer.draw_color = (0, 0, 0, 255)
        self.renderer.clear()
        Texture.from_surface(self.renderer, surface).draw(
            dstrect=((width - shown[0]) // 2, (height - shown[1]) // 2, *shown)
        )
        self.renderer.present()

    def close(self) -> None:
        self.window.destroy()


def open_spymaster_window(title: str, size: tuple[int, int]) -> SpymasterWindow | None:
    try:
        return SpymasterWindow(title, size)
    except (ImportError, pygame.error):
        return None


def run_window(sim, size: tuple[int, int], title: str, spymaster_window: SpymasterWindow | bool | None = None) -> bool:
    """Show the simulator until the window is closed (Esc) or Ctrl-C; True after a Ctrl-C.

    ``spymaster_window``: True opens the spymaster display in a window of its own
    (the main window then keeps it hooded); a SpymasterWindow uses that one.
    Raises NoScreen when SDL could only open its window off screen (no display here).
    """
    try:
        pygame.display.init()
        pygame.display.set_mode(size, pygame.RESIZABLE)
    except pygame.error as error:  # SDL_VIDEODRIVER names a driver that cannot open here
        pygame.display.quit()
        raise NoScreen("sdl_error", why=str(error)) from None
    driver = pygame.display.get_driver()
    if unasked_offscreen(driver):
        pygame.display.quit()
        raise NoScreen("no_display", driver=driver)
    pygame.display.set_caption(title)
    with QuitOnInterrupt() as interrupt:
        _run_loop(sim, spymaster_window)
    return interrupt.received


def _run_loop(sim, spymaster_window) -> None:
    if spymaster_window is True:
        spymaster_window = open_spymaster_window(sim.tr("sim.spymaster_display"), (960, 640))
        if spymaster_window is None:
            print(sim.tr("sim.no_second_window"))
    if spymaster_window:
        sim.show_spymaster = False
    key_buttons = {pygame.key.key_code(key): name for name, key in SHORTCUTS.items()}
    # One event object for every post from the controller's thread, alive as long as the window:
    # pygame keeps a posted event's attributes by reference, so a collected one could come back wrong.
    changed = pygame.event.Event(pygame.event.custom_type())

    def post_change() -> None:
        if pygame.display.get_init():
            pygame.event.post(changed)

    sim.board.on_show = post_change
    sim.output.on_change = post_change
    controller = threading.Thread(target=sim.controller.run, name="controller", daemon=True)
    controller.start()
    # The table is drawn before the first event is waited for: the window is never blank, and a
    # click that comes before anything else happened finds its tile or button.
    regions: dict[str, pygame.Rect] = draw(pygame.display.get_surface(), sim.scene(), sim.tr)
    pygame.display.flip()
    mouse_down: str | None = None
    running = True
    try:
        while running:
            events = [pygame.event.wait()] + pygame.event.get()
            sim.inputs_handled += sum(event.type in INPUT_EVENTS for event in events)
            for event in events:
                if event.type == pygame.QUIT:
                    running = False
                elif event.type == pygame.WINDOWCLOSE and spymaster_window:
                    if spymaster_window.owns(event):
                        if spymaster_window.visible:
                            spymaster_window.toggle()  # closing the spymasters' window only hides it
                    else:
                        running = False
                elif event.type == pygame.KEYDOWN:
                    if event.key == pygame.key.key_code(QUIT):
                        running = False
                    elif event.key == pygame.key.key_code(TOGGLE_SPYMASTER):
                        if spymaster_window:
                            spymaster_window.toggle()
                        else:
                            sim.show_spymaster = not sim.show_spymaster
                    elif event.key == pygame.key.key_code(TOGGLE_HELP):
                        sim.help = not sim.help
                    elif event.key in key_buttons:
                        sim.press(key_buttons[event.key])
                elif event.type == pygame.KEYUP and event.key in key_buttons:
                    sim.release(key_buttons[event.key])
                elif event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
                    mouse_down = next((name for name, rect in regions.items() if rect.collidepoint(event.pos)), None)
                    if mouse_down is None:
                        continue
                    if mouse_down.startswith("tile:"):
                        sim.touch(int(mouse_down[5:]))
                    elif mouse_down in BUTTONS:
                        sim.press(mouse_down)
                    elif mouse_down == "toggle_spymaster":
                        if spymaster_window:
                            spymaster_window.toggle()
                        else:
                            sim.show_spymaster = not sim.show_spymaster
                    elif mouse_down == "toggle_help":
                        sim.help = not sim.help
                elif event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 3:  # a right click
                    tile = next((name for name, rect in regions.items() if rect.collidepoint(event.pos)), "")
                    if tile.startswith("tile:"):
                        sim.redeal(int(tile[5:]))  # another word, before the first clue
                elif event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 1) == 1 and mouse_down is not None:
                    if mouse_down.startswith("tile:"):
                        sim.lift(int(mouse_down[5:]))
                    elif mouse_down in BUTTONS:
                        sim.release(mouse_down)
                    mouse_down = None
            window = pygame.display.get_surface()
            regions = draw(window, sim.scene(), sim.tr)
            pygame.display.flip()
            if spymaster_window and spymaster_window.visible:
                spymaster_window.draw(sim.output.front())
    finally:
        if spymaster_window:
            spymaster_window.close()
        sim.board.on_show = None
        sim.output.on_change = None
        sim.controller.stop()
        controller.join(timeout=5)
        pygame.display.quit()
