"""The table's mechanics, computed from the OpenSCAD model's figures: screws, panels, cables, feeds, order, sight lines.

Each test reads what ``hardware/enclosure.scad`` echoes (a quick 2D render with
the real openscad) and checks the parts list and the guide against it.
"""

import dataclasses
import math
import re
import subprocess
from pathlib import Path

import pytest
from codenames_firmware import board

from buildkit import cables, electrical, hardware, mechanics, perfboard, power, wiring

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
SCAD = HARDWARE / "enclosure.scad"
README = hardware.guide_text(HARDWARE)  # the guide: its main path and its appendices
GUIDE = " ".join(README.split())
#: the first hood, which hid the middle of row A
OLD_HOOD = ("hood_tilt=60", "hood_lift=10", "hood_visor=25", "hood_gap=8")


def parts():
    return {part.part: part for part in hardware.read_bom((HARDWARE / "bom.csv").read_text("utf-8"))}


@pytest.fixture(scope="module")
def figs(need_tool_module):
    need_tool_module("openscad")
    return mechanics.figures(SCAD)


#: The variant with the tile board on the floor (hardware/appendix-variants.md)
FLOOR = 'tile_board_mount="floor"'


@pytest.fixture(scope="module")
def floor_figs(need_tool_module):
    need_tool_module("openscad")
    return mechanics.figures(SCAD, FLOOR)


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
    # (the M2.5 screws hold the boards on their standoffs: test_the_standoffs_screws_reach_in_from_both_ends...)
    screws = {name for name in bom if "screw" in name and "M2.5" not in name}
    assert screws == set(SCREW_JOINTS), "a screw in bom.csv without a joint here (or the reverse): say which joint it makes"
    joints = mechanics.joints(figs)
    assert {joint.name for joint in joints} == set(SCREW_JOINTS.values()) | {"hatch"}
    for name, joint_name in SCREW_JOINTS.items():
        diameter, length = mechanics.screw_size(name)
        # the hatch's cover takes the floor's screws: two into its strips
        mine = [joint for joint in joints if joint.name == joint_name or joint_name == "floor" and joint.name == "hatch"]
        # one row per joint: the printed route's count; the MDF route uses the same screws
        corners = mechanics.BOX_CORNER_SCREWS if joint_name == "edge" else 0  # the box's corners take the same
        assert bom[name].quantity == sum(joint.screws for joint in mine if joint.route == "printed") + corners, name
        for joint in mine:
            assert mechanics.screw_problems(joint, diameter, length) == [], name
    hatch = next(joint for joint in joints if joint.name == "hatch")
    assert hatch.screws == 2 * bool(figs["hatch"]) and hatch.thread == figs["hatch_strip"][1]
    # the first strips, 12 mm plywood: the screw came through
    assert mechanics.screw_problems(dataclasses.replace(hatch, thread=12, room=12), 3, 16) == [
        "hatch (printed): 16 mm runs 1 mm past the room there"]


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
    hatch = joints["hatch", "printed"]
    assert f"| the hatch's cover, {hatch.stack:g} mm | {16 - hatch.stack:g} mm of the hatch strip's {hatch.thread:g} mm batten |" in GUIDE
    # the edge screws' pilots: as deep as the screw from the top; on the MDF route the stack drilled out to clear
    # the screw first, down to the side's top and no further
    edge = mechanics.screw_size("wood screw 3 x 40 mm")[1]
    assert f"sides, about {edge:g} mm deep from the plate's top" in GUIDE
    assert f"side, about {edge:g} mm deep from the top" in GUIDE
    mdf = joints["edge", "mdf"].stack
    assert f"a depth stop at {mdf:g} mm (4 + 18 + 3 mm: the stack, not the side below)" in GUIDE
    assert 4 + figs["strip_h"] + 3 == mdf


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


def test_a_double_ended_header_in_a_ribbons_socket_mirrors_the_pis_pins():
    # the geometry behind mechanics.through_adapter: pin k of the Pi's header at (column, row), pointing up
    pins = {k: ((k - 1) // 2, (k - 1) % 2) for k in range(1, 27)}
    # a socket made to sit on those pins (the ribbon's, the display's) has hole k over pin k, opening down; the
    # ribbon's far socket is the same part, so a male-male header pushed up into it shows pin k at the same place,
    # pointing down. The display's socket, made to sit on pins pointing up, must turn over to meet it: turning over
    # about the long axis puts its hole k at (column, -row), and then only a turn in the plane (0 or 180 degrees keep
    # the 2 x 13 block) and a shift are left
    def lands(turned: bool, flipped: bool) -> bool:
        holes = {k: (c, -r if flipped else r) for k, (c, r) in pins.items()}
        if turned:
            holes = {k: (-c, -r) for k, (c, r) in holes.items()}
        shift = (pins[1][0] - holes[1][0], pins[1][1] - holes[1][1])
        return all((c + shift[0], r + shift[1]) == pins[k] for k, (c, r) in holes.items())

    assert not lands(False, True) and not lands(True, True)  # a mirrored pin block: no way round fits
    assert lands(False, False)  # a male plug whose pins point up as the Pi's do: the display sits on it as on the Pi
    ribbon = next(c for c in mechanics.CONNECTIONS if c.cable == "display ribbon")
    socket, far_end = ribbon.cable_ends
    assert mechanics.mates(far_end, ribbon.b_connector)
    adapter = mechanics.through_adapter(socket)
    assert adapter.male and adapter.layout == mechanics.MIRRORED and not mechanics.mates(adapter, ribbon.b_connector)
    assert mechanics.header_fits(mechanics.PI_HEADER, socket) and not mechanics.header_fits(mechanics.PI_HEADER, adapter)
    bom = parts()["display ribbon"]
    assert "female to male" in bom.example and "not a female-female ribbon with a double-ended header" in bom.notes


def test_the_buttons_connectors_are_the_parts_lists_tabs():
    bom = parts()
    for c in mechanics.CONNECTIONS:
        if c.b_part.startswith("arcade button"):
            tab = re.search(r"on ([\d.]+) mm tabs", bom[c.b_part].example)[1]
            assert c.b_connector == mechanics.Connector("spade", tab, True), c


def test_every_cable_reaches_its_path_in_the_model_with_slack(floor_figs):
    points = dict(floor_figs["points"])
    for c in mechanics.CONNECTIONS:
        run = mechanics.cable_run(points[c.a], points[c.b])
        assert c.length >= run + mechanics.SLACK_MM, f"{c.a} to {c.b}: {run:.0f} mm + slack > {c.length} mm"
    bom = parts()
    assert f"{mechanics.CONNECTIONS[-2].length // 10} cm" in bom["display ribbon"].example
    assert f"{mechanics.CONNECTIONS[-1].length // 10} cm" in bom["USB-C panel-mount extension"].example
    buttons = [c for c in mechanics.CONNECTIONS if c.cable == "button wire"]
    assert {c.length for c in buttons} == {mechanics.FRONT_WIRE, mechanics.BACK_WIRE}
    assert f"{mechanics.FRONT_WIRE // 10} cm for the operatives' side, {mechanics.BACK_WIRE // 10} cm" in bom["button wire"].notes
    # One signal wire for each button, the status LED and the buzzer (the buzzer's driver on the tile board also
    # gives two to the buzzer under the plate); every ground on one of three harnesses (wiring/README.md).
    assert bom["button wire"].quantity == math.ceil(mechanics.button_wire_mm() / 1000)
    from_pi = sum(count for start, _, count in mechanics.BUZZER_WIRES if start == "Pi header")
    assert from_pi == 2  # GPIO12 and GND (its harness of one wire): the Pi's 5 V pins are under the display's ribbon
    assert bom["Dupont female contact"].quantity == mechanics.dupont_contacts() == len(buttons) + mechanics.STATUS_LED_WIRES + 1 + 3
    (tile_board,) = [(low, high) for name, low, high, _ in floor_figs["floor_boards"] if name == "tile board"]
    nearest = [min(max(p, lo), hi) for p, lo, hi in zip(points["Pi header"], *tile_board)]  # its nearest edge
    assert mechanics.cable_run(points["Pi header"][:2], nearest) + mechanics.SLACK_MM <= mechanics.BACK_WIRE
    # the buzzer's wires from their holes in the layout, the board on the floor as the guide mounts it
    assert [list(corner) for corner in electrical.FLOOR_TILE_BOARD[:2]] == [list(corner) for corner in tile_board]
    j14, j15 = perfboard.in_box_floor(*perfboard.J14_AT), perfboard.in_box_floor(*perfboard.J15_AT)
    assert mechanics.cable_run(points["Pi header"], j14) + mechanics.SLACK_MM <= mechanics.BACK_WIRE
    buzzer = next([x, y, lowest] for name, (x, y), _, lowest in floor_figs["hanging"] if name == "buzzer")
    assert mechanics.cable_run(j15, buzzer) + electrical.RELIEF_LOOP + mechanics.SLACK_MM <= mechanics.BUZZER_WIRE - 30  # its strain-relief loop, both ends' stripping
    assert f"the buzzer's {mechanics.BUZZER_WIRE // 10} cm" in " ".join(README.split())
    assert f"first solder a {mechanics.BUZZER_WIRE // 10} cm red wire to its + pin" in " ".join(README.split())
    # one spade on each tab: a harness's two wires share the spade on a tab it passes (crimped in together)
    # red (0.5-1.5 mm²): a harness's two 0.25 mm² wires fill one; a single wire goes in folded double
    assert all("for 0.5-1.5 mm² wire (red)" in bom[f"female spade crimp terminal {size} mm"].example for size in ("2.8", "4.8"))
    assert "folded double" in bom["female spade crimp terminal 2.8 mm"].notes and "folded double" in README
    assert bom["female spade crimp terminal 2.8 mm"].quantity == 2 * sum(c.b_connector.size == "2.8" for c in buttons)
    assert bom["female spade crimp terminal 4.8 mm"].quantity == 2 * sum(c.b_connector.size == "4.8" for c in buttons)


def _harness_problems(figs, harnesses):
    from itertools import permutations

    points = {name: xyz for name, xyz in figs["points"]}
    for name, (x, y), _, lowest in figs["hanging"]:
        points.setdefault(name, [x, y, lowest])
    # the tile board hung under the LED board (its parts' side), or on the floor in that variant
    (tile_board, z) = ([((low, high), top) for name, low, high, top, _ in figs["hung_boards"]]
                       or [((low, high), points["Pi header"][2]) for name, low, high, _ in figs["floor_boards"] if name == "tile board"])[0]
    points["tile board"] = [min(max(p, lo), hi) for p, lo, hi in zip(points["Pi header"][:2], *tile_board)] + [z]
    pi = points["Pi header"]

    def path(order):
        return mechanics.cable_run(pi, points[order[0]]) + sum(mechanics.cable_run(points[a], points[b]) for a, b in zip(order, order[1:]))

    problems = []
    for harness in harnesses:
        if path(harness.parts) > min(path(order) for order in permutations(harness.parts)) + 1e-6:
            problems.append(f"{harness.name}: not the shortest order")
        if harness.first < mechanics.cable_run(pi, points[harness.parts[0]]) + mechanics.SLACK_MM:
            problems.append(f"{harness.name}: the first wire is short")
        if len(harness.jumpers) != len(harness.parts) - 1:
            problems.append(f"{harness.name}: a jumper too many or too few")
        for (a, b), length in zip(zip(harness.parts, harness.parts[1:]), harness.jumpers):
            if length < mechanics.cable_run(points[a], points[b]) + mechanics.JUMPER_SLACK_MM:
                problems.append(f"{harness.name}: {a} to {b} is short")
    return problems


def test_the_ground_harnesses_take_the_shortest_path_and_reach_with_slack(figs):
    assert len(mechanics.GROUND_HARNESSES) == 3  # the Pi's GND pins outside the display's ribbon: 30, 34, 39
    assert _harness_problems(figs, mechanics.GROUND_HARNESSES) == []
    served = {part for harness in mechanics.GROUND_HARNESSES for part in harness.parts}
    assert served >= {c.b for c in mechanics.CONNECTIONS if c.cable == "button wire"} | {"status LED", "tile board"}


def test_the_encoders_ground_harness_takes_the_shortest_path_and_reaches(need_tool_module):
    need_tool_module("openscad")
    encoder = mechanics.figures(SCAD, 'clue_input="encoder"')
    harnesses = mechanics.ground_harnesses("encoder")
    assert mechanics.ENCODER_HARNESS in harnesses and len(harnesses) == 3
    assert _harness_problems(encoder, harnesses) == []
    assert {"UP", "DOWN", "CONFIRM"}.isdisjoint(part for harness in harnesses for part in harness.parts)
    # a jumper cut to the buttons' lengths would not reach the encoder: the test can tell
    short = mechanics.GroundHarness("spymasters' side", ("NEW GAME", "UNDO", "encoder"), mechanics.BACK_WIRE, (100, 280))
    assert _harness_problems(encoder, [short]) == ["spymasters' side: UNDO to encoder is short"]
    buttons_order = mechanics.GroundHarness("spymasters' side", ("encoder", "UNDO", "NEW GAME"), mechanics.BACK_WIRE, (320, 100))
    assert _harness_problems(encoder, [buttons_order]) == ["spymasters' side: not the shortest order"]


def test_the_black_wire_of_the_harnesses_fits_one_colour_of_the_kit():
    import csv

    costs = {row["part"]: row for row in csv.DictReader((HARDWARE / "costs.csv").open(encoding="utf-8"))}
    kit = costs["button wire"]
    each = float(re.search(r"ten colours, (\d+) m each", kit["sold_as"])[1])
    need = max(mechanics.black_wire_mm(mechanics.ground_harnesses(way)) for way in ("buttons", "encoder"))
    assert need / 1000 * 1.1 <= each
    assert "ten colours" in parts()["button wire"].example


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
    for index in electrical.chain_feeds():
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


def test_each_feed_hole_takes_its_wires(figs):
    # at most 40 % of the hole's area filled (the usual rule for pulling wires through a conduit)
    names = wiring.chain_names(board)
    holes = {name: diameter for name, _, diameter in figs["feeds"]}
    for index in electrical.chain_feeds():
        hole = holes[names[index].removeprefix("tile ")] if names[index].startswith("tile ") else holes["strip end"]
        wires = electrical.feed_hole_wires(index)
        assert wires * electrical.LINK_OD**2 <= 0.4 * hole**2, f"chain index {index}: {wires} wires in a {hole} mm hole"
    assert electrical.feed_hole_wires(18) == 4 and electrical.feed_hole_wires(board.LEDS - 1) == 2


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


def test_the_mdf_route_fits_the_hood_before_the_led_board():
    assert mechanics.order_problems(mechanics.MDF_STEPS, mechanics.MDF_ACCESS) == []
    # the guide's MDF list gives its own steps in the checked order; every other step is the printed route's
    mdf = README.split("**The MDF route, step by step.**")[1].split("The tests render")[0]
    titles = re.findall(r"^\d+\. \*\*([^*]+)\*\*", mdf, re.M)
    assert titles == [title for title, _ in mechanics.MDF_STEPS if title in mechanics.MDF_OWN]
    printed = dict(mechanics.STEPS)
    for title, parts in mechanics.MDF_STEPS:
        assert title in mechanics.MDF_OWN or printed.get(title) == parts, title
    numbers = [index for index, (title, _) in enumerate(mechanics.STEPS, 1) if title in dict(mechanics.MDF_STEPS)
               and title not in mechanics.MDF_OWN]
    assert numbers == [1, 2, 5, 6, 7, 9, 10, 13, 14, 15, 16] and "Steps 1, 2, 5, 6, 7, 9, 10 and 13-16 are as" in " ".join(mdf.split())
    # cutting the sheet before the coupon, or the LED board before the hood, is caught
    early = [(t, ("top sheet",) if t == "The Pi" else tuple(p for p in parts if p != "top sheet")) for t, parts in mechanics.MDF_STEPS]
    assert any(p.startswith("one-tile test (") for p in mechanics.order_problems(early, mechanics.MDF_ACCESS))
    # the printed route's order, the hood's nuts in its step, shuts them in under the LED board
    printed = [(title, (*parts, "hood nuts") if title == "The display and the hood" else parts) for title, parts in mechanics.STEPS]
    problems = mechanics.order_problems(printed, mechanics.MDF_ACCESS)
    assert any(p.startswith("hood nuts (") and "LED board" in p for p in problems)
    section = GUIDE.split("## Assembly, step by step")[1]
    assert "The MDF route has no bosses" in section and "20 edge screws" in section


def test_the_mdf_routes_chambers_coupon_and_light_boxes_come_from_the_model(figs):
    guide = " ".join(README.split())
    foam_t = figs["foam_t"]
    (rows, across) = figs["foam_walls"]
    pitch = figs["pitch"]
    for (count, length, height, slots, notches), step in ((rows, pitch[0]), (across, pitch[1])):
        assert count == slots == 6 and notches == 5 and height == figs["chamber"][0]
        assert length == pytest.approx(5 * step + foam_t)
        assert f"| {count} | {length:g} mm | {height:g} mm | {slots} slots {foam_t:g} mm wide, {height / 2:g} mm deep" in guide
        assert f"{step:g} mm apart" in guide
    # twelve 15 mm strips of the longest wall come out of the foam board sheet
    sheet = [int(n) for n in re.search(r"(\d+) x (\d+) mm", parts()["foam board for the MDF route (optional)"].example).groups()]
    assert max(rows[1], across[1]) <= min(sheet) and (rows[0] + across[0]) * rows[2] <= max(sheet)
    # the coupon: one tile and its rim, the size the guide gives
    size = figs["mdf_coupon"]
    assert f"{size[0]:g} x {size[1]:g} mm" in guide and "`mdf_coupon_2d`" in guide and "part=\"light_boxes\"" in guide


def test_the_mdf_coupons_walls_make_one_chamber_of_the_grid(figs):
    guide = " ".join(README.split())
    pitch, foam_t = figs["pitch"], figs["foam_t"]
    long, short = pitch[0] + foam_t, pitch[1] - foam_t
    assert f"two {long:g} x {figs['chamber'][0]:g} mm and two {short:g} x {figs['chamber'][0]:g} mm" in guide
    assert f"({long - 2 * foam_t:g} x {short:g} mm inside" in guide


def test_the_guide_names_the_pads_wired_corner_as_the_model_puts_its_hole(figs):
    # ledboard_2d's pad wire hole in each chamber and the pad wire's length (electrical) both take the chamber's
    # corner at smaller x (column 1's side: the operatives' left) and larger y (row A's side: the spymasters')
    tile = figs["tiles"][0]
    pitch = figs["pitch"]
    rib = figs["rib_t"]
    hole = (tile[0] - pitch[0] / 2 + rib + 6, tile[1] + pitch[1] / 2 - rib - 6)
    assert hole[0] < tile[0] and hole[1] > tile[1] and figs["tiles"][5][1] < tile[1]  # row B is nearer the operatives
    assert "translate(p + [-pitch[0] / 2 + rib_t + 6, pitch[1] / 2 - rib_t - 6]) circle(d = 5);  // pad wire" in SCAD.read_text()
    assert electrical.RIB_T == rib
    step = " ".join(README.split("8. **Pads**")[1].split("9. **Under the plate**")[0].split())
    assert "the wired corner towards the chamber's corner on row A's side and column 1's side" in step
    # turned top down, x is mirrored: column 1's side is on the right when the spymasters' end is away
    assert "with the plate top down and its spymasters' end away from you, each chamber's far right corner" in step


def test_the_guide_solders_what_the_led_board_shuts_in_before_it_goes_on():
    step = " ".join(README.split("9. **Under the plate**")[1].split("10. **Test the tiles**")[0].split())
    operatives = next(h for h in mechanics.GROUND_HARNESSES if "status LED" in h.parts)
    at = operatives.parts.index("status LED")
    before, after = operatives.parts[at - 1], operatives.parts[at + 1]
    jumpers = operatives.jumpers[at - 1], operatives.jumpers[at]
    assert (f"{jumpers[0] / 10:g} cm to {before} and {jumpers[1] / 10:g} cm to {after}, soldered together under "
            "heat-shrink") in step
    encoder = mechanics.ENCODER_HARNESS
    assert encoder.parts[-1] == "encoder" and f"{mechanics.ENCODER_LINK / 10:g} cm wire from C to the other switch pin" in step
    assert (f"on C the end of the spymasters' ground harness, its {encoder.jumpers[-1] / 10:g} cm jumper from "
            f"{encoder.parts[-2]}, whose other end waits for {encoder.parts[-2]}'s COM tab") in step
    # the cable table names each harness's order as wired
    guide = " ".join(README.split())
    for harness in mechanics.GROUND_HARNESSES[:2]:
        order = " → ".join(("CLUE " + p if p in ("UP", "DOWN") else p) for p in harness.parts)
        assert f"the {harness.name} ({order})" in guide, order
    assert f"{mechanics.BACK_WIRE / 10:g} cm signal wires to A, B" in step
    # the order model knows it: the jumpers and the encoder come before the LED board shuts them in
    steps = dict(mechanics.STEPS)
    assert {"status LED's ground jumpers", "encoder"} <= set(steps["Under the plate"])
    late = [(t, tuple(p for p in parts if p != "encoder") + (("encoder",) if t == "Bring-up" else ())) for t, parts in mechanics.STEPS]
    assert any(p.startswith("encoder (") for p in mechanics.order_problems(late))


def test_the_other_feeds_are_clamped_at_the_jack_only_once_the_top_is_on():
    steps = dict(mechanics.STEPS)
    assert "feeds clamped" in steps["Buttons and wires"]
    for before, unchecked in (("LED wires", True), ("tile test", False)):  # before the top is on; before check 12
        early = [(t, tuple(p for part in parts if part != "feeds clamped"
                           for p in (("feeds clamped", part) if part == before else (part,)))) for t, parts in mechanics.STEPS]
        problems = mechanics.order_problems(early)
        assert any(p.startswith("top (") for p in problems)
        assert any(p.startswith("chain checks (") for p in problems) == unchecked
    guide = " ".join(README.split())
    # one feed (A1's, through J12 and the tile board): step 14 clamps its pair for good
    assert "Clamp the J12 pair into the lever connectors behind the jack for good" in guide
    assert "| 12 | 7 | continuity | the far end of the chain" in guide  # one feed: nothing else bridges a broken link


def test_the_guides_numbers_for_the_coupons_wire_the_box_and_the_mounting_holes_are_the_models(figs):
    guide = " ".join(README.split())
    longest = max(cables.pad_wire_lengths())
    cut = math.ceil(longest / 10)  # cm, rounded up as the touch pads table cuts them
    assert f"about {cut} cm, tile" in guide
    assert f"Solder a {cut} cm wire to a corner of a 60 x 35 mm copper pad" in guide  # the main path's coupon step
    assert f"the one-tile test's {cut} cm wire" in parts()["hook-up wire"].notes
    # the box: front and back the plate's width, the sides between them
    width, depth = figs["plate"]
    wall = figs["box_inner"][0][0]  # the plywood sides
    assert f"the front and the back {width:g} mm long, the two sides {depth - 2 * wall:g} mm between them" in guide
    assert f"the plate's {width:g} x {depth:g} mm" in guide
    # the sides stand from the floor's top to the LED board's underside: the floor is screwed under them
    sides = mechanics.vertical_space(figs)
    floor_t = figs["box_z"][0] - figs["table_z"]
    assert f"four 12 mm plywood sides, {sides:g} mm high (the box stands {sides + floor_t:g} mm with its {floor_t:g} mm floor" in guide
    assert f"{sides:g} mm high" in parts()["box sides"].example
    assert all(joint.thread == sides for joint in mechanics.joints(figs) if joint.into == "wood" and joint.name != "hatch")
    # the back wall's entries, from its left end as seen from inside (x) and below its top edge (the LED board's
    # underside), as the model's back_2d has them
    entries = {name: xyz for name, xyz in figs["points"] if name in ("USB-C", "DC jack")}
    below = {round(figs["box_z"][1] - z) for _, _, z in entries.values()}
    assert "the end that will be on the operatives' left (tile column 1's side" in guide  # x = 0
    assert (f"centred {entries['USB-C'][0]:g} mm (USB-C) and {entries['DC jack'][0]:g} mm (DC jack) from that end "
            f"and {below.pop()} mm below the top edge") in guide and not below
    # the room for the Pico's plug between the boards
    floor = mechanics.figures(SCAD, FLOOR)  # the variant's tile board on the floor
    pi, tile = (next(b for b in mechanics.floor_boards(floor, 0) if b.name == n) for n in ("Pi", "tile board"))
    assert f"the Pico's USB end towards the Pi: the {pi.y0 - tile.y1:g} mm between the boards" in guide
    # the largest printed piece, and so no skirt or brim on the bed
    largest = max(figs["pieces"], key=lambda piece: piece[2] * piece[3])
    bed = figs["bed"]
    assert f"The largest piece is {largest[2]:g} x {largest[3]:g} mm: on a {bed[0]:g} x {bed[1]:g} mm bed" in guide
    assert max(bed) - max(largest[2:]) < 2 * 5  # a brim's 5 mm each side would not fit: the guide's advice holds
    names = ", ".join(perfboard.hole_name(m) for m in perfboard.MOUNTS[:-1]) + " and " + perfboard.hole_name(perfboard.MOUNTS[-1])
    assert guide.count(f"mounting holes {names}") >= 2 and names in parts()["standoff M2.5 x 15 mm"].notes


def test_the_standoffs_screws_reach_in_from_both_ends_without_meeting():
    # a female-female standoff takes a screw through the floor (the hung tile board's: the LED board) and one
    # through the board
    floor = 3.0  # the model's floor_t: 3 mm hardboard; its ledboard_t is 3 mm too
    bom = parts()
    for name, board_t in (("standoff M2.5 x 10 mm", 1.4), ("standoff M2.5 x 15 mm", electrical.PERFBOARD_T)):
        length = mechanics.screw_size(name)[1]
        screws = [float(n) for n in re.findall(r"M2\.5 x (\d+(?:\.\d+)?) mm screws", bom[name].example)]
        floor_side, board_side = screws[0], screws[-1]
        if "M2.5 x 4 mm screws" in bom[name].notes:  # the board's side bought on its own (kits hold one length)
            board_side = mechanics.screw_size("screw M2.5 x 4 mm")[1]
            assert bom["screw M2.5 x 4 mm"].quantity == bom[name].quantity
        into = (floor_side - floor, board_side - board_t)
        assert min(into) >= 2.0 and sum(into) <= length - 0.5, (name, into)


def test_step_7s_led_board_propped_up_at_its_back_leaves_room_over_j13_and_every_wire_reaches(figs):
    # step 7 works inside the box under the LED board (J13, the Pi's plugs) with its back edge propped about 30 cm
    # up, its front edge on the front wall: the board turns about that edge, so a point y mm from it rises y/depth
    lift, depth = 300, figs["plate"][1]
    assert f"lift the LED board's back edge about {lift // 10} cm, its front edge resting on the front wall" in GUIDE
    underside = figs["box_z"][1]

    def raised(x, y):
        return (x, y, underside + lift * y / depth)

    j13 = perfboard.in_box_floor(*perfboard.J13_AT)
    room = raised(*j13[:2])[2] - (j13[2] + electrical.TERMINAL_H)
    assert room > 200 and "J13 has over 20 cm of room over it" in GUIDE
    feeds = {name: at for name, at, _ in figs["feeds"]}
    assert math.dist(raised(*feeds["A1"]), j13) + electrical.FEED_HOLE_TO_LED < cables.first_led_cable()
    # the chain's one feed comes up at A1 from J13: no 18 AWG feed runs from the jack to the LED board
    assert list(feeds) == ["A1"] and [feed.point for feed in cables.feed_paths()] == [0]


def test_the_parts_fitted_from_the_plates_top_face_are_reached_by_sliding_it_out_as_step_9_says(figs):
    # step 9 works with the plate top down across the frame: the parts that go in from its top face are reached by
    # sliding the plate about 10 cm past the frame's front (or back) wall, clear of the wall with the dome's width
    hanging = {name: (at, size) for name, at, size, _ in figs["hanging"]}
    front = {hanging[name][0][1] for name in ("SAND TIMER", "status LED")}
    assert len(front) == 1
    (y,) = front
    assert y + hanging["SAND TIMER"][1] / 2 < 100 - 12  # the whole dome past the 12 mm wall
    assert f"edge stands about 10 cm past the frame's front wall (the SAND TIMER's and the status LED's holes are {y:g} mm from that edge)" in GUIDE
    assert "lift the plate's front edge over the wall (or the whole plate off) and set it back centred and flush, never slide it back" in GUIDE
    wall = figs["box_inner"][0][1]
    encoder = {name: (at, size) for name, at, size, _ in mechanics.figures(SCAD, 'clue_input="encoder"')["hanging"]}["encoder"]
    from_back = figs["plate"][1] - encoder[0][1]
    assert f"the hole is about {from_back:.0f} mm from that edge" in GUIDE
    slide = math.ceil((from_back + encoder[1] / 2 + wall) / 10)  # its nut past the wall's outer face
    assert f"slide the plate's back edge about {slide} cm past the back wall" in GUIDE
    # the buzzer's sound holes: beside NEW GAME, at the spymasters' end's corner
    buzzer = hanging["buzzer"][0]
    nearest = min((name for name in hanging if name != "buzzer"), key=lambda name: math.dist(hanging[name][0], buzzer))
    assert nearest == "NEW GAME" and buzzer[1] > figs["plate"][1] / 2
    assert all(buzzer[0] > at[0] for name, (at, _) in hanging.items() if at[1] == buzzer[1] and name != "buzzer")
    assert "beside NEW GAME, in the corner of the spymasters' end" in GUIDE


def test_the_guide_puts_each_button_in_its_hole_as_the_model_does(figs):
    points = {name: xyz for name, xyz in figs["points"]}
    labels = {"DOWN": "CLUE DOWN", "UP": "CLUE UP"}
    back = [name for name in ("CONFIRM", "UP", "DOWN", "UNDO", "NEW GAME") if name in points]
    # the spymasters look from the back edge: their left is the model's right
    order = [labels.get(name, name) for name in sorted(back, key=lambda name: -points[name][0])]
    hood_x = points["display socket"][0]
    left_of_hood = [labels.get(n, n) for n in back if points[n][0] > hood_x]
    order.insert(len(left_of_hood), "(the hood)")
    guide = " ".join(README.split())
    assert "the spymasters' " + ", ".join(order) + ";" in guide
    front = sorted(("END TURN", "SAND TIMER"), key=lambda name: points[name][0])
    assert front == ["END TURN", "SAND TIMER"] and "the operatives' END TURN on the left" in guide


def test_the_back_walls_entries_are_thinned_to_what_their_sockets_clamp(figs):
    panel, bore, wall, entries = figs["entry_panel"]
    assert panel < wall and all(hole < bore for _, hole in entries)
    guide = " ".join(README.split())
    assert f"bore a {bore:g} mm Forstner hole {wall - panel:g} mm deep, leaving {panel:g} mm of wall; then drill the holes through its middle" in guide
    called = {"USB-C": "USB-C socket", "DC jack": "jack"}
    holes = ", ".join(f"{hole:g} mm for the {called[name]}" for name, hole in entries)
    assert f"({holes}:" in guide
    assert f"**{bore:g} mm Forstner bit** to thin the back wall" in guide


def test_the_checks_and_stages_come_in_the_guides_order():
    parts = dict(mechanics.STEPS)["Build the tile board"]
    assert [p for p in parts if p.startswith("stage") or p == "firmware"] == ["stage 0", "stage 1", "stage 2", "firmware", "stage 3"]
    stages = GUIDE.split("### The first power-on, in stages")[1].split("###")[0]
    assert stages.index("Stage 0,") < stages.index("Stage 1,") < stages.index("Stage 2,") < stages.index("Now flash it") < stages.index("Stage 3,")


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


# --- the box's floor: the Pi and the tile board


def test_the_pi_and_the_tile_board_fit_on_the_floor_clear_of_everything(floor_figs):
    tallest = electrical.tallest_part()
    assert mechanics.vertical_space(floor_figs) == 67  # 70 mm sides, less the 3 mm floor
    assert mechanics.floor_problems(floor_figs, tallest.height) == []
    boards = {board.name: board for board in mechanics.floor_boards(floor_figs, tallest.height)}
    tile = boards["tile board"]
    assert sorted((tile.x1 - tile.x0, tile.y1 - tile.y0)) == sorted(electrical.perfboard())
    # the tallest part on either board stays under the LED board with room to spare
    _, ceiling = floor_figs["box_z"]
    assert max(standing.top for standing in boards.values()) <= ceiling - 25
    # four mounting holes in the floor for each board, inside its outline
    for standing in boards.values():
        inside = [(x, y) for x, y in floor_figs["floor_holes"]
                  if standing.x0 + 2 < x < standing.x1 - 2 and standing.y0 + 2 < y < standing.y1 - 2]
        assert len(inside) == 4, standing.name
    # the tile board's four: the perfboard layout's mounting holes, as far apart (the board turned either way)
    mine = [(x, y) for x, y in floor_figs["floor_holes"] if tile.x0 < x < tile.x1 and tile.y0 < y < tile.y1]
    spans = sorted(max(p[i] for p in mine) - min(p[i] for p in mine) for i in (0, 1))
    drilled = [perfboard.hole(*mount) for mount in perfboard.MOUNTS]
    assert spans == pytest.approx(sorted(max(p[i] for p in drilled) - min(p[i] for p in drilled) for i in (0, 1)), abs=0.01)


def test_the_floor_check_catches_a_board_under_a_button_too_tall_or_on_another(need_tool):
    need_tool("openscad")
    tallest = electrical.tallest_part().height
    under = mechanics.figures(SCAD, FLOOR, "tile_board_at=[400,80]")
    # moved under the SAND TIMER button, the board with its 1000 µF can standing (16 mm and its leads) meets the
    # button's switch; a board of parts no taller than 12 mm would pass under it
    assert tallest == 16 + 2
    assert any("under SAND TIMER" in problem for problem in mechanics.floor_problems(under, tallest))
    assert mechanics.floor_problems(under, 12) == []
    assert any("too tall" in problem for problem in mechanics.floor_problems(under, 70))
    on_pi = mechanics.figures(SCAD, FLOOR, "tile_board_at=[240,520]")
    assert "Pi and tile board overlap" in mechanics.floor_problems(on_pi, tallest)
    # the bullet pixels' bodies over the tile board: 10 mm standoffs were too tall for them
    tall = mechanics.figures(SCAD, FLOOR, 'leds="strand"', "tile_board_standoff=10")
    assert any("under pixel A3" in problem for problem in mechanics.floor_problems(tall, tallest))
    # the first layout's 20 mm between the Pi and the tile board: the Pico's straight plug (28 mm with its boot)
    # and its cable's bend ran into the Pi's header edge
    close = mechanics.figures(SCAD, FLOOR, "tile_board_gap=20")
    assert "the Pico's USB plug runs into the Pi" in mechanics.floor_problems(close, tallest)
    assert "WARNING: the Pico's USB plug and its cable's bend run into the Pi" in hardware.echoes(SCAD, FLOOR, "tile_board_gap=20")


def test_the_pi_lies_as_its_mechanical_drawing_has_it(figs):
    # Raspberry Pi 3 B+, 4 and 5 mechanical drawings (header edge up, USB-A end right): holes 3.5 and 61.5 mm from
    # the left end, the header's middle 32.5 mm, the USB-C (micro-USB on a 3 B+) 11.2 mm (10.6 mm). In the box the
    # header faces the tile board and the USB-C the back wall: turned half round, so those count from the right end
    # and the USB-A sockets face the left wall.
    (pi,) = [(x0, y0, x1, y1) for name, (x0, y0), (x1, y1), _ in figs["floor_boards"] if name == "Pi"]
    x0, y0, x1, y1 = pi
    points = dict(figs["points"])
    assert points["Pi header"][0] == pytest.approx(x1 - 32.5) and points["Pi header"][1] == pytest.approx(y0 + 3.5)
    assert points["Pi USB-C"][:2] == pytest.approx([x1 - 11.2, y1])
    assert points["Pi USB-A"][0] == pytest.approx(x0)
    holes = sorted({round(x, 2) for x, y in figs["floor_holes"] if x0 < x < x1 and y0 < y < y1})
    assert holes == pytest.approx([x1 - 61.5, x1 - 3.5])
    # the USB-C socket's entry lies on its side of the Pi, the extension's plug room clear of the entries' rooms
    entries = {name: xyz for name, xyz in figs["points"] if name in ("USB-C", "DC jack")}
    assert entries["USB-C"][0] > points["Pi USB-C"][0] - 10 and entries["DC jack"][0] < x0


def test_the_picos_plug_is_where_the_layout_puts_the_pico(floor_figs):
    (tile,) = [(x0, y0, x1, y1) for name, (x0, y0), (x1, y1), _ in floor_figs["floor_boards"] if name == "tile board"]
    points = dict(floor_figs["points"])
    from codenames_board.config import parse

    places = {place.ref: place for place in perfboard.placements(perfboard.circuit_build(parse(""), board))}
    left, top, _, bottom = places["J2"].body  # the Pico's body over its sockets: its USB end at `left`
    x, y, _ = perfboard.in_box_floor(left, (top + bottom) / 2)
    # the socket's mouth 1.3 mm past the Pico's edge, its middle across the Pico's
    assert points["Pico USB"][0] == pytest.approx(x, abs=0.2)
    assert points["Pico USB"][1] == pytest.approx(y + 1.3, abs=0.2)
    plug, bend, cable = floor_figs["pico_plug"]
    (room,) = [(y0, y1) for name, _, (_, y0), (_, y1), _ in floor_figs["plug_rooms"] if "Pico" in name]
    assert room[1] - room[0] == plug + bend + cable / 2
    assert f"the micro-USB one no longer than {plug:g} mm with its boot" in parts()["micro-USB cable"].example


def test_the_pictures_mpr121_boards_are_where_the_layout_puts_them(floor_figs):
    # the model's tile board (the picture's) draws the three breakouts where perfboard.py's layout has them
    from codenames_board.config import parse

    (x0, y0, _, _) = next((x0, y0, x1, y1) for name, (x0, y0), (x1, y1), _ in floor_figs["floor_boards"] if name == "tile board")
    places = {place.ref: place for place in perfboard.placements(perfboard.circuit_build(parse(""), board))}
    drawn = floor_figs["tile_board_mpr121"]
    assert len(drawn) == 3
    for ref, ((bx, by), (width, length)) in zip(("J4", "J6", "J8"), drawn):  # each breakout's electrode row: its body
        left, top, right, bottom = places[ref].body
        corners = [perfboard.in_box_floor(c, r)[:2] for c in (left, right) for r in (top, bottom)]
        assert bx + x0 == pytest.approx(min(x for x, _ in corners), abs=0.05), ref
        assert by + y0 == pytest.approx(min(y for _, y in corners), abs=0.05), ref
        assert width == pytest.approx(max(x for x, _ in corners) - min(x for x, _ in corners), abs=0.05), ref
        assert length == pytest.approx(max(y for _, y in corners) - min(y for _, y in corners), abs=0.05), ref


def test_the_mpr121_sockets_are_as_far_apart_as_the_breakouts_pin_rows():
    # the Adafruit 1982's board file: 33.02 x 19.05 mm, its 13-pin row 1.27 mm in from one long edge and its 7-pin
    # row, centred under it, 15.24 mm away (the first layout put them 17.78 mm apart: the breakouts fit no socket)
    from codenames_board.config import parse

    assert perfboard.MPR121_ROWS_APART * perfboard.PITCH == pytest.approx(15.24)
    places = {place.ref: place for place in perfboard.placements(perfboard.circuit_build(parse(""), board))}
    for electrodes, control in (("J4", "J3"), ("J6", "J5"), ("J8", "J7")):
        (e_columns, e_rows), (c_columns, c_rows) = (zip(*places[ref].pins.values()) for ref in (electrodes, control))
        assert len(set(e_rows)) == len(set(c_rows)) == 1 and c_rows[0] - e_rows[0] == perfboard.MPR121_ROWS_APART
        assert (len(e_columns), len(c_columns)) == (13, 7) and sum(c_columns) / 7 == sum(e_columns) / 13  # centred
        x0, y0, x1, y1 = perfboard.body_mm(places[electrodes])
        assert (x1 - x0, y1 - y0) == pytest.approx(perfboard.MPR121_BOARD)
        assert places[electrodes].body[1] == e_rows[0] - 0.5  # the long edge half a pitch past the electrode row
    (footprint,) = [f for f in electrical.TILE_BOARD_PARTS if f.name.startswith("MPR121")]
    assert footprint.size == tuple(round(side) for side in perfboard.MPR121_BOARD)
    assert f"{perfboard.MPR121_ROWS_APART * perfboard.PITCH:g} mm (six holes) apart" in parts()["MPR121 touch controller breakout"].notes


def test_the_models_mpr121_breakouts_are_the_layouts(figs):
    assert all(size == pytest.approx(perfboard.MPR121_BOARD[::-1]) for _, size in figs["tile_board_mpr121"])


# --- the pre-wired option: 12 mm bullet pixels


def test_bullet_pixels_fit_the_chamber_and_the_box(need_tool):
    need_tool("openscad")
    pixel = mechanics.figures(SCAD, 'leds="strand"')
    assert pixel["leds"] == "strand"
    assert mechanics.floor_problems(pixel, electrical.tallest_part().height) == []
    hole, head, body = pixel["pixel"]
    chamber, _ = pixel["chamber"]
    # the head stays clear of the pad and its label under the plate
    assert head <= chamber - 5
    assert sum(name.startswith("pixel ") for name, *_ in pixel["hanging"]) == board.TILES
    # no pixel body sits on a pad wire hole or a feed hole
    pitch_x, _ = pixel["pitch"]
    for name, (x, y), d in pixel["feeds"]:
        for cx, cy in pixel["tiles"]:
            assert math.dist((x, y), (cx, cy)) >= (hole + d) / 2 + 2, name


def test_the_windows_are_off_both_leds_direct_beams_so_the_white_chamber_lights_them(figs):
    chamber, smd = figs["chamber"]
    _, head, _ = figs["pixel"]
    frame_in, frame_out = figs["frame"]
    smd_near, smd_far = electrical.window_angles(smd, chamber, frame_in, frame_out)
    pixel_near, pixel_far = electrical.window_angles(head, chamber, frame_in, frame_out)
    # a WS2812B's beam is 120 degrees wide (60 off its axis): every window lies beyond it, for the
    # bullet's head nearer the plate further still; the light reaches them off the white walls and label
    assert 60 < smd_near < smd_far < 80 and smd_near < pixel_near < pixel_far < 85


def test_the_strand_spacing_reaches_across_a_row_and_the_shorter_ones_do_not():
    need = electrical.strand_needs_mm()
    assert need == 88 + 2 * electrical.STRAND_TURN_MM
    assert electrical.strand_spacing() == 120
    assert all(spacing < need for spacing in electrical.STRAND_SPACINGS_MM if spacing < 120)


def test_a_strand_of_22_awg_holds_the_voltage_with_the_three_feeds_and_not_with_two():
    budget = power.power_budget()
    led_ma = budget.chain_max_ma / budget.leds
    three = cables.strand_drop([0, 18, board.LEDS - 1], led_ma)
    assert three.lowest >= electrical.WS2812_VDD_MIN
    assert max(three.link_amps) <= electrical.WIRES[electrical.STRAND_AWG].max_a
    # at the strand's end instead of D2: its own tail wires, no splice into the strand
    assert electrical.strand_feeds() == [0, board.TILES - 1, board.LEDS - 1]
    tail = cables.strand_drop(electrical.strand_feeds(), led_ma)
    assert tail.lowest >= electrical.WS2812_VDD_MIN and max(tail.link_amps) <= electrical.WIRES[electrical.STRAND_AWG].max_a
    two = cables.strand_drop([0, board.LEDS - 1], led_ma)
    assert max(two.link_amps) > electrical.WIRES[electrical.STRAND_AWG].max_a


# --- renders: the faster route's drawings, the tile coupon, the printed parts' weight


@pytest.fixture(scope="module")
def renders(tmp_path_factory, need_tool_module):
    """The drawings and solids these tests measure, side by side: about 15 s, the plate at $fn = 12
    (its volume within 0.1 % of the $fn = 40 plate's, in a third of the time)."""
    need_tool_module("openscad")
    out = tmp_path_factory.mktemp("mech")
    jobs = {
        "top_counterbore_2d.svg": ['part="top_counterbore_2d"'],
        "acrylic_2d.svg": ['part="acrylic_2d"'],
        "strips_2d.svg": ['part="strips_2d"'],
        "strand_ledboard.svg": ['part="ledboard_2d"', 'leds="strand"'],
        "tile_coupon.stl": ['part="tile_coupon"'],
        "mdf_coupon_2d.svg": ['part="mdf_coupon_2d"'],
        "light_boxes.stl": ['part="light_boxes"'],
        "hood.stl": ['part="hood"'],
        "top.stl": ['part="top"', "$fn=12"],
    }
    running = {
        name: subprocess.Popen(hardware.scad_command(SCAD, out / name, *defines), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        for name, defines in jobs.items()
    }
    logs = {}
    for name, process in running.items():
        logs[name] = process.communicate(timeout=600)[0]
        assert process.returncode == 0, f"{name}: openscad failed:\n{logs[name]}"
        assert "ERROR" not in logs[name] and not re.search(r'ECHO: "WARNING', logs[name]), f"{name}:\n{logs[name]}"
    return out, logs


def contours(svg: Path) -> int:
    return svg.read_text().count("\nM ")


def test_the_faster_routes_drawings_render_with_a_counterbore_per_snap_in_button(renders, figs):
    out, _ = renders
    sheet, depth, diameter, count = figs["counterbore"]
    snap_in = [name for name, most, _, mdf in figs["panels"] if mdf < sheet]
    assert count == len(snap_in) == 6 and contours(out / "top_counterbore_2d.svg") == count
    assert depth == sheet - min(mdf for _, _, _, mdf in figs["panels"] if mdf < sheet) == 2
    assert f"{diameter:g} mm Forstner bit, {depth:g} mm deep" in GUIDE
    # the two sheets, and a hole for each pad's wire (the pads lie on the acrylic, buildkit/touch.py)
    assert contours(out / "acrylic_2d.svg") == len(figs["acrylic"]) + 25 and len(figs["acrylic"]) == 2
    assert contours(out / "strips_2d.svg") >= 3
    # the sheet is pressed at the spymasters' buttons: pieces of strip lie along their line, 150 mm from the others
    points = dict(figs["points"])
    line = points["UNDO"][1]
    pieces = []
    for path in (out / "strips_2d.svg").read_text().split("\nM ")[1:]:
        ys = [-float(y) for y in re.findall(r"[\d.]+,(-?[\d.]+)", path.split("z")[0])]
        if ys and line - 10 < min(ys) and max(ys) < line + 10:
            pieces.append(path)
    assert len(pieces) >= 4
    for part in ("top_2d", "top_counterbore_2d", "acrylic_2d", "strips_2d"):
        assert f"`{part}`" in GUIDE, part
    # the pixel option's LED board: a 12 mm hole for each tile's pixel instead of its mark
    assert contours(out / "strand_ledboard.svg") > board.TILES


def test_the_link_to_the_bar_crosses_the_mdf_routes_front_strip_through_its_gap(figs):
    # the strip lies on the LED board: a wire under it would be crushed, so the link's crossing is cut out of it
    (x0, y0), (x1, y1) = figs["strip_gap"]
    front = figs["front_strip"]
    assert y0 < front[0] and y1 > front[1]  # through the strip's whole width
    entry = electrical.BAR_X0 - electrical.BAR_ENTRY
    assert figs["bar_x0"] == pytest.approx(electrical.BAR_X0, abs=0.01)
    # the gap lies in front of a chamber's front notch (the foam walls' notches are midway along each chamber),
    # the chamber in front of the bar's left end
    centre = (x0 + x1) / 2
    pitch = figs["pitch"][0]
    k = (centre - electrical.FIRST_TILE[0]) / pitch
    assert k == pytest.approx(round(k), abs=0.01) and electrical.FIRST_TILE[0] + (round(k) - 0.5) * pitch < figs["bar_x0"] < centre + pitch / 2
    assert x1 - x0 >= 3 * electrical.LINK_OD  # 5 V, data and GND side by side
    # the MDF route's way (along the row to that chamber, out and across, behind the light box to the bar's
    # left end) is no longer than the link's cut length allows
    where = electrical.led_positions()
    last, first = where[board.TILES - 1], where[board.TILES]
    behind = figs["front_strip"][0] - 3
    mdf_way = abs(last[0] - centre) + abs(last[1] - behind) + abs(centre - entry) + abs(behind - first[1]) + abs(first[0] - entry)
    assert mdf_way <= electrical.link_lengths()[board.TILES - 1] + 2 * electrical.LINK_END
    # on the printed plate the front wall runs on to the bar's end wall there: a notch under it, as tall as the
    # others, from the crossing to the end wall, takes the three wires lying flat
    n0, n1 = figs["bar_notch"]
    width, height = figs["notch"]
    assert n0 <= entry - width / 2 + 0.01 and n1 >= figs["bar_x0"] - figs["rib_t"] / 2 and height >= electrical.LINK_OD
    # the link's length runs by that crossing, not straight to the bar's first LED
    where = electrical.led_positions()
    last, first = where[board.TILES - 1], where[board.TILES]
    assert electrical.link_lengths()[board.TILES - 1] > abs(last[0] - first[0]) + abs(last[1] - first[1])


def test_no_wall_of_the_plate_stands_on_a_feed_hole_in_the_led_board(tmp_path, need_tool_module):
    # the wires coming up through a feed hole (the strand's feed at the chain's end lies under the front strip's wall)
    # must not be pressed flat by the plate's walls: a slice through the walls' feet meets no feed hole
    need_tool_module("openscad")
    slice_ = """
intersection() {
    projection(cut = true) translate([0, 0, -%g]) difference() { walls(); cable_channels(); }
    for (feed = ledboard_feeds()) translate(feed[1]) circle(d = feed[2]);
}
"""
    running = {}
    for name, body in (("model", slice_), ("unnotched", slice_.replace("difference() { walls(); cable_channels(); }", "walls();"))):
        scad = tmp_path / f"{name}.scad"
        scad.write_text(f"include <{SCAD.resolve()}>\n" + body % (electrical.LINK_OD + 0.2))
        running[name] = subprocess.Popen(hardware.scad_command(scad, tmp_path / f"{name}.svg", 'part="slice"', 'leds="strand"'),
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    results = {name: process.communicate(timeout=600)[0] for name, process in running.items()}
    assert "top level object is empty" in results["model"], results["model"][-2000:]
    assert "top level object is empty" not in results["unnotched"]  # the walls alone stand on the chain's end


def test_the_mdf_coupon_and_the_light_boxes_render_as_the_guide_says(renders, figs):
    out, logs = renders
    # the coupon: its outline and the four frame windows of its tile, nothing of the neighbours'
    assert contours(out / "mdf_coupon_2d.svg") == 5
    width, height = (float(n) for n in re.search(r'width="([\d.]+)mm" height="([\d.]+)mm"', (out / "mdf_coupon_2d.svg").read_text()).groups())
    assert [width, height] == pytest.approx(figs["mdf_coupon"])
    # both light boxes, as tall as the chambers, upside down (the strip's notches up) and about 25 g of PLA
    assert re.search(r"Volumes:\s+3\b", logs["light_boxes.stl"])
    mesh = mechanics.read_stl((out / "light_boxes.stl").read_text())
    (_, _), (_, _), (z0, z1) = bounds(mesh)
    assert round(z1 - z0, 1) == figs["chamber"][0]
    grams = mechanics.grams(mechanics.measure(mesh))[0]
    assert 15 < grams < 35 and "about 25 g" in GUIDE


def test_the_tile_coupon_is_one_tile_with_its_walls_printable_in_under_an_hour(renders, figs):
    out, logs = renders
    assert re.search(r"Volumes:\s+2\b", logs["tile_coupon.stl"])
    (x0, x1), (y0, y1), (z0, z1) = bounds(mechanics.read_stl((out / "tile_coupon.stl").read_text()))
    _, size = figs["coupon"]
    assert (round(x1 - x0, 1), round(y1 - y0, 1), round(z1 - z0, 1)) == tuple(size)
    pitch_x, pitch_y = figs["pitch"]
    assert size[0] > pitch_x + figs["rib_t"] and size[1] > pitch_y + figs["rib_t"]
    mesh = mechanics.measure(mechanics.read_stl((out / "tile_coupon.stl").read_text()))
    assert mechanics.print_minutes(mesh) < 60
    # the build guide's figure for it is the model's
    guide = hardware.guide_text(HARDWARE)
    found = re.findall(r"(\d+) g (?:test coupon|of PLA)|about (\d+) g, under an hour", guide)
    stated = {int(grams) for pair in found for grams in pair if grams}
    assert len(found) >= 3  # the step, the prototype's section and the parts table
    assert stated == {round(mechanics.grams(mesh)[0], -1)}, stated


def bounds(triangles):
    points = [point for triangle in triangles for point in triangle]
    return [(min(p[i] for p in points), max(p[i] for p in points)) for i in range(3)]


def test_the_parts_list_gives_the_printed_parts_weight_from_their_volume(renders):
    out, _ = renders
    bom = parts()
    for name, row in (("top.stl", "top plate"), ("hood.stl", "spymaster display hood")):
        estimate, solid = mechanics.grams(mechanics.measure(mechanics.read_stl((out / name).read_text())))
        assert estimate <= solid
        text = mechanics.about(estimate)
        assert text in bom[row].example, (row, text)
        number, unit = re.search(r"about ([\d.]+) (kg|g)", bom[row].example).groups()
        stated = float(number) * (1000 if unit == "kg" else 1)
        step = 100 if unit == "kg" else 10
        assert estimate - step / 2 <= stated <= solid, (row, stated, estimate, solid)


def test_the_volume_of_a_cube_from_its_triangles():
    # a 10 mm cube, two triangles a face, wound outwards
    corners = [(x, y, z) for x in (0, 10) for y in (0, 10) for z in (0, 10)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    triangles = [tri for a, b, c, d in faces for tri in ((corners[a], corners[b], corners[c]), (corners[a], corners[c], corners[d]))]
    mesh = mechanics.measure(triangles)
    assert mesh.volume == pytest.approx(1000) and mesh.flat_area == pytest.approx(200) and mesh.side_area == pytest.approx(400)
    # 400 mm² of sides x 3 perimeters of 0.45 mm, 200 mm² of top and bottom x 4 layers of 0.2 mm: 700 mm³
    # of shell, 15 % of the other 300 mm³
    assert mechanics.grams(mesh) == pytest.approx(((700 + 0.15 * 300) * 1.24 / 1000, 1.24))
    assert mechanics.about(1135) == "about 1.1 kg" and mechanics.about(51.5) == "about 50 g"


# --- the service position: the box tipped back off its floor


def test_every_cable_reaches_with_the_box_tipped_back_as_the_guide_says(figs):
    # the hinge is the model's: the spymasters' bottom edge
    assert electrical.HINGE == (figs["plate"][1], figs["table_z"])
    assert electrical.tipped((10.0, figs["plate"][1], figs["table_z"]), 90) == pytest.approx((10, figs["plate"][1], figs["table_z"]))
    front_top = electrical.tipped((0.0, 0.0, 0.0), 90)
    assert front_top[2] == pytest.approx(figs["plate"][1] + figs["table_z"]) and front_top[1] > figs["plate"][1]
    # hung under the LED board, the tile board takes only the Pi's cables across: the box stands fully on its back
    # edge; the floor variant's tile board on its standoffs lets it tip back 60 degrees
    assert mechanics.tip_problems(figs, mechanics.TIP_HUNG) == []
    floor_figs = mechanics.figures(SCAD, FLOOR)
    assert mechanics.tip_problems(floor_figs, 0, hung=False) == []
    assert mechanics.tip_problems(floor_figs, mechanics.TIP_ON_STANDOFFS, hung=False) == []
    # on its back edge it stands on 20 mm battens (the sockets stand proud): the hinge 20 mm higher, still 5 cm spare
    spare = min(length - math.dist(floor, tuple(c + dz for c, dz in zip(electrical.tipped(box, mechanics.TIP_HUNG), (0, 0, 20))))
                - mechanics.TIP_END_MM for _, floor, box, length in mechanics.crossing_cables(figs, hung=True))
    assert spare > 50 and "every cable still reaches with over 5 cm to spare" in GUIDE
    # the rubber feet (step 6) stay clear of the floor's corner screws, 6 mm in from both edges
    screw_in = figs["box_inner"][0][0] / 2
    foot_at, foot_d = 20, 20
    assert foot_at - foot_d / 2 > screw_in + 7 / 2  # a 3 mm countersunk head is about 6-7 mm across
    assert f"centred about {foot_at} mm in from both edges at a corner, no more than {foot_d} mm across" in GUIDE
    assert f"corner screws' countersinks {screw_in:g} mm in" in GUIDE
    # and not much further: the guide props it 10 degrees short of what the wires are cut for, so none goes taut
    assert any(p.startswith("pad wire") for p in mechanics.tip_problems(floor_figs, mechanics.TIP_ON_STANDOFFS + 5, hung=False))
    assert mechanics.TIP_PROP == mechanics.TIP_ON_STANDOFFS - 10
    # every cable between the floor and the box is counted: the Pi's, the tile board's, the 25 pad wires
    names = [name for name, *_ in mechanics.crossing_cables(floor_figs, hung=False)]
    assert sum(n.startswith("pad wire") for n in names) == board.TILES
    assert {"J12 pair", "J13 cable", "buzzer's wires", "status LED wire"} <= set(names)
    assert len([n for n in names if "ground harness" in n]) == 2  # the third is the buzzer driver's, board to Pi
    # the first procedure set the box beside its floor: the cables were never cut for that
    beside = [(name, a, (b[0] - figs["plate"][0], b[1], b[2]), length) for name, a, b, length in mechanics.crossing_cables(floor_figs, False)]
    assert any(math.dist(a, b) + mechanics.TIP_END_MM > length for _, a, b, length in beside)
    guide = " ".join((HARDWARE / "appendix-variants.md").read_text("utf-8").split())  # the floor variant's section
    assert f"tip it to about {mechanics.TIP_PROP}° and no further (the shortest pad wires are cut for {mechanics.TIP_ON_STANDOFFS}°" in guide
    assert "stand it fully on its back edge" in guide
    assert f"lower the box until it leans back at about {mechanics.TIP_PROP}° and prop it" in guide
    # the operatives' wall's bottom edge at 50 degrees (never over 55: 5 degrees short of what the wires are cut for)
    # stands over the floor's empty front half, where the prop goes
    edge = electrical.tipped((0.0, 0.0, figs["table_z"]), mechanics.TIP_PROP)
    highest = electrical.tipped((0.0, 0.0, figs["table_z"]), mechanics.TIP_PROP + 5)
    height, most = (round((p[2] - figs["table_z"]) / 10) for p in (edge, highest))
    assert f"the operatives' wall's bottom edge then stands about {height} cm above the bench, never more than {most} cm" in guide
    tile = next(b for b in mechanics.floor_boards(floor_figs, 0) if b.name == "tile board")
    assert 0 < edge[1] < tile.y0 and "standing on the floor's front half" in guide
    assert f"about {round((edge[2] - figs['box_z'][0]) / 10)} cm tall standing on the floor's front half" in guide


def test_the_guides_floor_for_a_pi_zero_keeps_the_tile_board_and_fits(figs):
    step = " ".join(README.split("6. **The box**")[1].split("7. **LEDs**")[0].split())
    defines = re.search(r"draw the floor with `-D '(.+?)' -D '(.+?)'`", step).groups()
    zero = mechanics.figures(SCAD, *defines)
    assert mechanics.floor_problems(zero, electrical.tallest_part().height) == []
    assert "WARNING" not in hardware.echoes(SCAD, *defines)
    # the tile board stays where every wire is cut for it; the Zero's four holes are 58 x 23 mm apart
    board_of = lambda f, name: next(b for b in f["floor_boards"] if b[0] == name)
    assert zero["hung_boards"] == figs["hung_boards"] and zero["hatch"] == figs["hatch"]
    (_, (x0, y0), (x1, y1), _) = board_of(zero, "Pi")
    holes = [(x, y) for x, y in zero["floor_holes"] if x0 < x < x1 and y0 < y < y1]
    assert sorted({round(x1 - x0)} | {round(y1 - y0)}) == [30, 65]
    assert {round(max(h[0] for h in holes) - min(h[0] for h in holes)), round(max(h[1] for h in holes) - min(h[1] for h in holes))} == {58, 23}


def test_the_strand_options_feeds_are_where_the_model_puts_its_holes(need_tool):
    need_tool("openscad")
    strand = mechanics.figures(SCAD, 'leds="strand"')
    names = [name for name, _, _ in strand["feeds"]]
    tiles = [f"{chr(65 + point // 5)}{point % 5 + 1}" for point in electrical.strand_feeds() if point < board.TILES]
    assert names == [*tiles, "strip end"] == ["A1", "E5", "strip end"]
    # the link from the strand's end into the bar: up through E5's feed hole, then the boards' route
    (_, (hx, hy), _) = strand["feeds"][1]
    assert (hx, hy) == pytest.approx((strand["tiles"][24][0] - electrical.FEED_HOLE_TO_LED, strand["tiles"][24][1]))
    link = electrical.strand_bar_link()
    boards_link = next(l for l in electrical.wire_links() if l.start == board.TILES - 1).data_cut
    assert link > boards_link - electrical.FEED_HOLE_TO_LED  # it starts under the board, not on the pixel's pads
    wiring_readme = " ".join((ROOT / "wiring" / "README.md").read_text("utf-8").split())
    assert f"**{math.ceil(link / 10)} cm** each, goes up through the hole" in wiring_readme


def _ledboard_holes(tmp_path, *defines):
    """Every hole of the rendered ledboard_2d as its bounding box (x0, y0, x1, y1), the model's mm."""
    out = tmp_path / "ledboard.svg"
    subprocess.run(hardware.scad_command(SCAD, out, 'part="ledboard_2d"', *defines), check=True, capture_output=True)
    holes = []
    for path in out.read_text().split("\nM ")[2:]:  # the first is the board's outline
        points = [(float(x), -float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", path.split("z")[0])]
        holes.append((min(p[0] for p in points), min(p[1] for p in points), max(p[0] for p in points), max(p[1] for p in points)))
    return holes


@pytest.mark.parametrize("leds", ["strand"])  # the pixel boards have one feed, A1's: no lever connectors under the board
def test_the_injection_lever_connectors_sit_where_the_guide_puts_them(need_tool, tmp_path, leds):
    # step 7 sticks a pair of lever connectors under the LED board beside every feed hole but A1's: on the side the
    # guide names, the pair clears every hole of the LED board and every button body hanging under it; the other
    # sides do not all do so (the strip end's right lies under the SAND TIMER), which is why the side is named
    need_tool("openscad")
    defines = (f'leds="{leds}"',)
    holes = _ledboard_holes(tmp_path, *defines)
    figs = mechanics.figures(SCAD, *defines)
    (ix0, iy0), (ix1, iy1) = figs["box_inner"]

    def clear(centre, along):
        w, d = electrical.LEVER_PAIR_MM if along[1] else electrical.LEVER_PAIR_MM[::-1]
        x0, y0, x1, y1 = centre[0] - w / 2, centre[1] - d / 2, centre[0] + w / 2, centre[1] + d / 2
        return (ix0 < x0 and x1 < ix1 and iy0 < y0 and y1 < iy1
                and all(h[2] < x0 - 3 or h[0] > x1 + 3 or h[3] < y0 - 3 or h[1] > y1 + 3 for h in holes)
                and all(math.dist(c, (min(max(c[0], x0), x1), min(max(c[1], y0), y1))) > size / 2
                        for _, c, size, _ in figs["hanging"]))  # fmt: skip

    sides = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    fed = [(name, at) for name, at, _ in figs["feeds"] if name != "A1"]
    assert len(fed) == 2
    for name, at in fed:
        along, words = electrical.INJECTION_SIDE[name]
        reach = electrical.INJECTION_REACH
        assert clear((at[0] + along[0] * reach, at[1] + along[1] * reach), along), name
        wiring_readme = " ".join((ROOT / "wiring" / "README.md").read_text("utf-8").split())
        assert words in wiring_readme and (leds == "strand" or words in GUIDE), name
    # at least one feed has a side that would not do: the naming matters
    assert not all(clear((at[0] + s[0] * electrical.INJECTION_REACH, at[1] + s[1] * electrical.INJECTION_REACH), s)
                   for _, at in fed for s in sides)


# --- the tile board hung under the LED board (tile_board_mount = "ledboard"): reached through the floor's hatch


@pytest.mark.parametrize("leds", ["boards", "strand"])
def test_the_tile_board_hung_under_the_led_board_fits_and_is_reached_through_the_floors_hatch(need_tool, leds):
    need_tool("openscad")
    hung = mechanics.figures(SCAD, 'tile_board_mount="ledboard"', f'leds="{leds}"')
    assert mechanics.hung_problems(hung) == []
    assert "WARNING" not in hardware.echoes(SCAD, 'tile_board_mount="ledboard"', f'leds="{leds}"')
    ((name, low, high, top, lowest),) = hung["hung_boards"]
    assert not [b for b in hung["floor_boards"] if b[0] == "tile board"] and len(hung["floor_holes"]) == 4  # the Pi's
    if leds == "boards":
        assert (low, high, top) == ([*electrical.HUNG_TILE_BOARD[0]], [*electrical.HUNG_TILE_BOARD[1]], electrical.HUNG_TILE_BOARD[2])
    # its parts face the hatch: a finger reaches them from the floor's underside (the box on its back edge)
    assert lowest - hung["table_z"] < 45
    # the layout's mounting holes, through the LED board now, each inside a light chamber clear of its walls
    spans = sorted(max(p[i] for p in hung["ledboard_holes"]) - min(p[i] for p in hung["ledboard_holes"]) for i in (0, 1))
    drilled = [perfboard.hole(*mount) for mount in perfboard.MOUNTS]
    assert spans == pytest.approx(sorted(max(p[i] for p in drilled) - min(p[i] for p in drilled) for i in (0, 1)), abs=0.01)
    walls_x = [15 + k * hung["pitch"][0] for k in range(6)]
    walls_y = [hung["tiles"][20][1] - hung["pitch"][1] / 2 + k * hung["pitch"][1] for k in range(6)]
    head = 5 / 2 + hung["rib_t"] / 2  # an M2.5 pan head beside a chamber wall
    assert all(min(abs(x - w) for w in walls_x) > head and min(abs(y - w) for w in walls_y) > head for x, y in hung["ledboard_holes"])
    # the Pi's cables to it still reach in the service position (the Pi stays on the floor): the Pico's USB cable
    points = dict(hung["points"])
    usb = next(c for c in mechanics.CONNECTIONS if "Pico USB" in (c.a, c.b))
    need = math.dist(points["Pi USB-A"], electrical.tipped(points["Pico USB"], mechanics.TIP_ON_STANDOFFS)) + mechanics.TIP_END_MM
    assert need < usb.length and mechanics.cable_run(points["Pi USB-A"], points["Pico USB"]) + mechanics.SLACK_MM < usb.length


def test_hung_under_the_grid_the_tile_boards_pad_wires_are_shorter():
    # on the floor every pad wire crosses to the box and is cut for the service position; hung, none crosses
    floor, hung = cables.floor_pad_wire_lengths(), cables.pad_wire_lengths()
    assert (round(min(floor) / 10), round(max(floor) / 10)) == (31, 74)
    assert (round(min(hung) / 10), round(max(hung) / 10)) == (24, 49)
    assert max(hung) < max(floor) - 200 and sum(hung) < 0.8 * sum(floor)
    # the hung board's pad holes are where in_box_hung puts them: row A along its left edge
    (x0, _), (x1, _), _ = electrical.HUNG_TILE_BOARD
    assert all(perfboard.in_box_hung(*spot)[0] - x0 < 10 for spot in perfboard.pad_holes())


def test_the_hung_check_catches_a_board_over_the_pi_under_a_button_or_too_deep(need_tool):
    need_tool("openscad")
    mount = 'tile_board_mount="ledboard"'
    assert "tile board is over the Pi" in mechanics.hung_problems(mechanics.figures(SCAD, mount, "tile_board_hung_at=[235,500]"))
    assert any("on SAND TIMER" in p for p in mechanics.hung_problems(mechanics.figures(SCAD, mount, "tile_board_hung_at=[400,80]")))
    assert any("too deep" in p for p in mechanics.hung_problems(mechanics.figures(SCAD, mount, "tile_board_hang=60")))
