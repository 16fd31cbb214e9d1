"""The simulator's window: clicks and keys in, the table drawn whenever something changed."""

from __future__ import annotations

import threading

import pygame

from .scene import BUTTONS, QUIT, SHORTCUTS, TOGGLE_HELP, TOGGLE_SPYMASTER
from .view import draw

INPUT_EVENTS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.KEYUP, pygame.QUIT)

def run_window(sim, size: tuple[int, int], title: str) -> None:
    """Show the simulator until the window is closed (or Esc)."""
    pygame.display.init()
    window = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.display.set_caption(title)
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
    regions: dict[str, pygame.Rect] = {}
    mouse_down: str | None = None
    running = True
    try:
        while running:
            events = [pygame.event.wait()] + pygame.event.get()
            sim.inputs_handled += sum(event.type in INPUT_EVENTS for event in events)
            for event in events:
                if event.type == pygame.QUIT:
                    running = False
                elif event.type == pygame.KEYDOWN:
                    if event.key == pygame.key.key_code(QUIT):
                        running = False
                    elif event.key == pygame.key.key_code(TOGGLE_SPYMASTER):
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
                        sim.show_spymaster = not sim.show_spymaster
                    elif mouse_down == "toggle_help":
                        sim.help = not sim.help
                elif event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 1) == 1 and mouse_down is not None:
                    if mouse_down.startswith("tile:"):
                        sim.lift(int(mouse_down[5:]))
                    elif mouse_down in BUTTONS:
                        sim.release(mouse_down)
                    mouse_down = None
            window = pygame.display.get_surface()
            regions = draw(window, sim.scene(), sim.tr)
            pygame.display.flip()
    finally:
        sim.board.on_show = None
        sim.output.on_change = None
        sim.controller.stop()
        controller.join(timeout=5)
        pygame.display.quit()
