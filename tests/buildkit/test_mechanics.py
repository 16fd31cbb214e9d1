"""The table's mechanics, computed from the OpenSCAD model's figures: screws, panels, cables, feeds, order, sight lines.

Each test reads what ``hardware/enclosure.scad`` echoes (a quick 2D render with
the real openscad) and checks the parts list and the guide against it.
"""

import math
import re
from pathlib import Path

import pytest
from codenames_firmware import board

from codenames_board.buildkit import hardware, mechanics, wiring

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
SCAD = HARDWARE / "enclosure.scad"
README = (HARDWARE / "README.md").read_text("utf-8")
GUIDE = " ".join(README.split())
#: the first hood, which hid the middle of row A
OLD_HOOD = ("hood_tilt=60", "hood_lift=10", "hood_visor=25", "hood_gap=8")


def parts():
    return {part.part: part for part in hardware.read_bom((HARDWARE / "bom.csv").read_text("utf-8"))}


@pytest.fixture(scope="module")
def figs(need_tool_module):
    need_tool_module("openscad")
    return mechanics.figures(SCAD)


@pytest.fixture(scope="module")
def old_hood(need_tool_module):
    need_tool_module("openscad")
    return mechanics.figures(SCAD, *OLD_HOOD)


# --- screws

#: which joint of the model each screw of the parts list makes
SCREW_JOINTS = {
    "wood screw 3 x 40 mm": "edge",
    "self-tapping screw 3 x 16 mm": "boss",
    "screw M3 x 12 mm": "hood",
    "wood screw 3 x 16 mm": "floor",
}


def test_every_screw_in_the_parts_list_reaches_through_its_stack_into_enough_thread(figs):
    bom = parts()
    screws = {name for name in bom if "screw" in name}
    assert screws == set(SCREW_JOINTS), "a screw in bom.csv without a joint here (or the reverse): say which joint it makes"
    joints = mechanics.joints(figs)
    assert {joint.name for joint in joints} == set(SCREW_JOINTS.values())
    for name, joint_name in SCREW_JOINTS.items():
        diameter, length = mechanics.screw_size(name)
        mine = [joint for joint in joints if joint.name == joint_name]
        # one row per joint: the printed route's count; the MDF route uses the same screws
        assert bom[name].quantity == next(joint.screws for joint in mine if joint.route == "printed"), name
        for joint in mine:
            assert mechanics.screw_problems(joint, diameter, length) == [], name


def test_the_first_edge_screws_would_not_have_reached_the_box(figs):
    edge = next(joint for joint in mechanics.joints(figs) if joint.name == "edge" and joint.route == "printed")
    assert edge.stack == pytest.approx(figs["top_z"] + 3) == pytest.approx(21.4)
    assert mechanics.screw_problems(edge, 3, 16) == [
        "edge (printed): 3 x 16 mm reaches -5.4 mm past the 21.4 mm stack; wood needs 12 mm"
    ]


def test_the_guides_screw_table_gives_the_models_stacks(figs):
    joints = {(joint.name, joint.route): joint for joint in mechanics.joints(figs)}
    assert f"the LED board, {joints['edge', 'printed'].stack - figs['top_z']:g} mm" in GUIDE
    assert f"plate and its boss, {figs['top_z']:g} mm" in GUIDE
    assert f"{40 - joints['edge', 'printed'].stack:g} mm ({40 - joints['edge', 'mdf'].stack:g} mm) of plywood" in GUIDE
    assert f"of the plate's {joints['boss', 'printed'].thread:g} mm pilot holes" in GUIDE
    assert f"the whole {joints['hood', 'printed'].thread:g} mm insert" in GUIDE


# --- panels


def test_every_panel_part_fits_the_panel_at_its_hole_in_both_routes(figs):
    bom = parts()
    low, high = (float(n) for n in re.search(r"for ([\d.]+)-([\d.]+) mm panels", bom["arcade button 30 mm"].example).groups())
    big = float(re.search(r"panels up to ([\d.]+) mm", bom["arcade button 60 mm"].example)[1])
    panels = {name: (most, printed, mdf) for name, most, printed, mdf in figs["panels"]}
    assert figs["plate_t"] > high, "the plate is thin enough for snap-in buttons: no counterbore needed"
    for name, (most, printed, mdf) in panels.items():
        assert printed <= most and mdf <= most, name
        if name == "SAND TIMER":
            assert most == big
        elif name != "status LED":
            assert most == high and low <= printed and low <= mdf, name


# --- cables


def test_every_connection_mates_at_both_ends(figs):
    bom = parts()
    for c in mechanics.CONNECTIONS:
        cable = bom[c.cable]
        text = f"{cable.example} {cable.notes}"
        end_a, end_b = c.cable_ends
        if c.a_connector.size == "2 x 20":  # one end onto some of the Pi's 40 pins
            assert mechanics.header_fits(c.a_connector, end_a), c
        else:
            assert mechanics.mates(c.a_connector, end_a), c
        assert mechanics.mates(end_b, c.b_connector), c
        if c.cable == "button wire":  # the wire's ends are its terminals' rows
            terminal = bom[f"female spade crimp terminal {end_b.size} mm"]
            assert str(end_b) in terminal.example and "2.54 mm female socket" in bom["Dupont female contact"].example
        else:
            assert str(end_a) in text and str(end_b) in text, c.cable


def test_the_buttons_connectors_are_the_parts_lists_tabs():
    bom = parts()
    for c in mechanics.CONNECTIONS:
        if c.b_part.startswith("arcade button"):
            tab = re.search(r"on ([\d.]+) mm tabs", bom[c.b_part].example)[1]
            assert c.b_connector == mechanics.Connector("spade", tab, True), c


def test_every_cable_reaches_its_path_in_the_model_with_slack(figs):
    points = dict(figs["points"])
    for c in mechanics.CONNECTIONS:
        run = mechanics.cable_run(points[c.a], points[c.b])
        assert c.length >= run + mechanics.SLACK_MM, f"{c.a} to {c.b}: {run:.0f} mm + slack > {c.length} mm"
    bom = parts()
    assert f"{mechanics.CONNECTIONS[-2].length // 10} cm" in bom["display ribbon"].example
    assert f"{mechanics.CONNECTIONS[-1].length // 10} cm" in bom["USB-C panel-mount extension"].example
    buttons = [c for c in mechanics.CONNECTIONS if c.cable == "button wire"]
    assert {c.length for c in buttons} == {mechanics.FRONT_WIRE, mechanics.BACK_WIRE}
    assert f"{mechanics.FRONT_WIRE // 10} cm for the operatives' side, {mechanics.BACK_WIRE // 10} cm" in bom["button wire"].notes
    # Two wires for each button and the status LED (at the front); the buzzer's driver on the tile
    # board takes three from the Pi (GPIO12, 5 V, GND) and gives two to the buzzer under the plate
    # (wiring/README.md, the buzzer's driver), counted as a back-side run each.
    wire = 2 * (sum(c.length for c in buttons) + mechanics.FRONT_WIRE) + 3 * mechanics.BACK_WIRE + 2 * mechanics.BACK_WIRE
    assert bom["button wire"].quantity * 1000 >= wire
    assert bom["Dupont female contact"].quantity >= 2 * (len(buttons) + 1) + 3
    assert bom["female spade crimp terminal 2.8 mm"].quantity == 2 * sum(c.b_connector.size == "2.8" for c in buttons)
    assert bom["female spade crimp terminal 4.8 mm"].quantity == 2 * sum(c.b_connector.size == "4.8" for c in buttons)


def test_the_first_jumpers_would_have_been_caught(figs):
    points = dict(figs["points"])
    jumper = mechanics.Connector("2.54 mm", "1 x 1", False)
    assert not mechanics.mates(jumper, mechanics.TAB_28) and not mechanics.mates(jumper, mechanics.SOCKET_2X13)
    assert mechanics.cable_run(points["Pi header"], points["END TURN"]) > 200


# --- the LED board's feed holes


def test_the_led_board_has_a_feed_hole_at_every_injection_point(figs):
    names = wiring.chain_names(board)
    feeds = {name: (x, y) for name, (x, y), _ in figs["feeds"]}
    pitch_x, pitch_y = figs["pitch"]
    for index in wiring.injection_points(board.LEDS):
        name = names[index]
        if name.startswith("tile "):
            tile = name.removeprefix("tile ")
            assert tile in feeds, f"chain index {index} ({name}) has no feed hole in the LED board: add it to feed_tiles in enclosure.scad"
            row, column = "ABCDE".index(tile[0]), int(tile[1]) - 1
            cx, cy = figs["tiles"][row * 5 + column]
            x, y = feeds[tile]
            # inside its own light chamber, clear of the walls
            assert abs(x - cx) < pitch_x / 2 - figs["rib_t"] - 4 and abs(y - cy) < pitch_y / 2 - figs["rib_t"] - 4, name
        else:
            assert index == board.LEDS - 1 and "strip end" in feeds, f"chain index {index} ({name}) has no feed hole"


# --- the pads


def test_every_pad_has_a_white_label_over_it():
    assert parts()["white label"].quantity == board.TILES
    assert "bare copper" in GUIDE and "white label" in GUIDE


# --- the assembly order


def test_no_step_fits_a_part_after_the_part_that_blocks_its_access():
    assert mechanics.order_problems() == []


def test_the_order_check_catches_the_first_guides_order():
    steps = dict(mechanics.STEPS)
    # the first guide: a glued floor in "the box", then buttons, then "close it", the hood on nuts
    first = [("Print", ("plate", "hood")), ("The box", ("box sides", "floor", "USB-C socket", "DC jack")),
             ("LEDs", steps["LEDs"]), ("Pads", steps["Pads"]), ("Test", ("tile test",)),
             ("Buttons", ("30 mm buttons", "SAND TIMER button", "status LED", "buzzer", "button wires")),
             ("Close it", ("LED board", "top", "display", "display ribbon", "hood nuts", "hood")),
             ("The Pi", ("Pi", "Pi cables", "ribbon on the Pi", "bring-up"))]
    access = [*mechanics.ACCESS, ("hood nuts", "under the plate", "LED board")]
    problems = mechanics.order_problems(first, [a for a in access if a[0] != "inserts"])
    assert any(p.startswith("button wires (") and "floor" in p for p in problems)
    assert any(p.startswith("Pi cables (") and "floor" in p for p in problems)
    assert any(p.startswith("hood nuts (") and "LED board" in p for p in problems)


def test_the_guides_steps_are_the_checked_order():
    section = README.split("## Assembly, step by step")[1]
    titles = re.findall(r"^\d+\. \*\*([^*]+)\*\*", section, re.M)
    assert titles == [title for title, _ in mechanics.STEPS]
    assert "USB-C panel-mount extension" in parts() and "floor_2d" in parts()["box floor"].notes
    assert all(part in mechanics.REMOVABLE for _, _, part in mechanics.ACCESS if part in ("floor", "top"))


# --- sight lines


def test_a_seated_spymaster_sees_every_card_over_the_hood(figs):
    hidden = {
        tile for eye in mechanics.spymaster_eyes(figs) for tile, point in mechanics.card_points(figs)
        if mechanics.hood_hides(eye, point, figs)
    }
    assert hidden == set(), f"the hood hides tiles {sorted(hidden)}"


def test_the_spymasters_see_all_of_the_display(figs):
    for eye in mechanics.spymaster_eyes(figs):
        for point in figs["display_area"]:
            assert mechanics.display_seen(eye, point, figs), (eye, point)


def test_the_operatives_never_see_the_display_but_every_card(figs):
    for eye in mechanics.operative_eyes(figs):
        for point in figs["display_area"]:
            assert not mechanics.display_seen(eye, point, figs), (eye, point)
        assert not any(mechanics.hood_hides(eye, point, figs) for _, point in mechanics.card_points(figs))


def test_the_first_hood_hid_the_middle_of_row_a(old_hood):
    hidden = {
        tile for eye in mechanics.spymaster_eyes(old_hood) for tile, point in mechanics.card_points(old_hood)
        if mechanics.hood_hides(eye, point, old_hood)
    }
    assert {1, 2, 3} <= hidden  # the middle of row A (and more, from further back)
    assert math.isclose(old_hood["hood_profile"][2][1] - old_hood["top_z"], 89, abs_tol=0.5)


def test_a_flatter_face_under_a_short_visor_shows_the_key_to_a_standing_operative(need_tool):
    need_tool("openscad")
    bare = mechanics.figures(SCAD, "hood_tilt=30", "hood_visor=5")
    assert any(mechanics.display_seen(eye, point, bare) for eye in mechanics.operative_eyes(bare) for point in bare["display_area"])


def test_the_guide_gives_the_hoods_figures(figs):
    height = figs["hood_profile"][2][1] - figs["top_z"]
    behind = figs["hood_profile"][0][0] - (figs["tiles"][0][1] + figs["pitch"][1] / 2)
    assert f"The hood is low ({round(height)} mm) and {round(behind)} mm behind the grid" in GUIDE
    assert "400-450 mm above the table" in GUIDE and "300-400 mm back" in GUIDE and "250 mm either side" in GUIDE
    assert mechanics.EYE_HEIGHTS == (400, 450) and mechanics.EYE_BACK == (300, 350, 400) and max(mechanics.EYE_SIDE) == 250
