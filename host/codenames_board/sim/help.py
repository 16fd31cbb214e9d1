"""The simulator's help overlay: every keyboard shortcut and mouse action, over the window.

Key names are pygame's (``scene.SHORTCUTS``); ``key_label`` says them the way
a keyboard's caps do, in the players' language.
"""

from __future__ import annotations

import pygame

from ..display.layout import fit, mix
from .scene import QUIT, SHORTCUTS, TOGGLE_HELP, TOGGLE_SPYMASTER

_PANEL = (30, 35, 45)
_EDGE = (92, 102, 124)
_TEXT = (236, 236, 236)
_CAPTION = (146, 154, 170)
_CAP = (58, 64, 78)


def key_label(tr, key: str) -> str:
    """A pygame key name as its key cap reads: ``sim.key_space`` and friends, else the letter in capitals."""
    msgid = f"sim.key_{key}"
    has = getattr(tr, "has", None)  # a Translator knows; any other tr(msgid) callable is asked
    if has is not None and not has(msgid):
        return key.upper()
    try:
        return tr(msgid)
    except KeyError:
        return key.upper()


def help_rows(tr, clue_input: str = "buttons") -> list[tuple[str, str] | None]:
    """(key cap, what it does) for each line of the help; None between the groups: mouse, buttons, window."""
    click = tr("sim.help_click")
    clue = "knob_" if clue_input == "encoder" else "clue_"
    rows = [(click, tr("sim.help_tile")), (tr("sim.help_right_click"), tr("sim.help_redeal")), (click, tr("sim.help_buttons")), None]
    for name, msgid in (
        ("sand_timer", "sim.help_sand_timer"),
        ("end_turn", "sim.help_end_turn"),
        ("clue_down", f"sim.help_{clue}down"),
        ("clue_up", f"sim.help_{clue}up"),
        ("clue_confirm", f"sim.help_{clue}confirm"),
        ("undo", "sim.help_undo"),
        ("new_game", "sim.help_new_game"),
    ):
        rows.append((key_label(tr, SHORTCUTS[name]), tr(msgid)))
    rows += [
        None,
        (key_label(tr, TOGGLE_SPYMASTER), tr("sim.help_spymaster")),
        (key_label(tr, TOGGLE_HELP), tr("sim.help_help")),
        (key_label(tr, QUIT), tr("sim.help_quit")),
    ]
    return rows


def draw_help(surface: pygame.Surface, scale: float, clue_input: str, tr) -> None:
    """Dim the window and list the shortcuts in a panel sized to them, in the middle."""
    width, height = surface.get_size()
    veil = pygame.Surface((width, height), pygame.SRCALPHA)
    veil.fill((6, 8, 12, 190))
    surface.blit(veil, (0, 0))
    rows = help_rows(tr, clue_input)
    lines = sum(1 if row else 0.35 for row in rows) + 3.2  # the title and the closing line too
    line = max(14, min(round(38 * scale), int(height * 0.88 / lines)))
    pad = round(line * 0.9)
    size = max(10, round(line * 0.56))
    caps = [fit(row[0], size, width // 8, 10) if row else None for row in rows]
    cap_width = max(cap.width for cap in caps if cap) + 2 * round(size * 0.5)
    room = round(width * 0.8) - 3 * pad - cap_width  # the most the descriptions may take
    texts = [fit(row[1], size, room, 10) if row else None for row in rows]
    panel = pygame.Rect(0, 0, cap_width + max(text.width for text in texts if text) + 3 * pad, round(lines * line) + pad)
    panel.center = (width // 2, height // 2)
    radius = max(6, round(16 * scale))
    pygame.draw.rect(surface, _PANEL, panel, border_radius=radius)
    pygame.draw.rect(surface, _EDGE, panel, width=max(1, round(2 * scale)), border_radius=radius)
    title = fit(tr("sim.help_title"), round(line * 0.85), panel.width - 2 * pad, 10)
    title.draw(surface, panel.x, panel.y + pad // 2 + round(line * 0.2), _TEXT, panel.width, "center")
    left, y = panel.x + pad, panel.y + pad // 2 + round(line * 1.6)
    for cap, text in zip(caps, texts):
        if cap is None or text is None:
            y += round(line * 0.35)
            continue
        box = pygame.Rect(left, y + round(line * 0.1), cap_width, round(line * 0.8))
        pygame.draw.rect(surface, _CAP, box, border_radius=max(3, box.height // 4))
        pygame.draw.rect(surface, mix(_CAP, (255, 255, 255), 0.25), box, width=1, border_radius=max(3, box.height // 4))
        cap.draw(surface, box.x, box.centery - cap.height // 2 + 1, _TEXT, box.width, "center")
        text.draw(surface, box.right + pad, box.centery - text.height // 2 + 1, _TEXT)
        y += line
    close = fit(tr("sim.help_close", key=key_label(tr, TOGGLE_HELP)), round(size * 0.9), panel.width - 2 * pad, 10)
    close.draw(surface, panel.x, panel.bottom - pad // 2 - round(line * 0.2) - close.height, _CAPTION, panel.width, "center")
