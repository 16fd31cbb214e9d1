// codenames-board: the table's top plate, LED board and spymaster display hood.
//
// Parametric OpenSCAD model (OpenSCAD 2021.01 or newer). Every size is a
// parameter below; the Customizer (Window > Customizer) shows them grouped.
// hardware/README.md explains the design and the assembly.
//
// Parts (-D 'part="..."' on the command line):
//   "all"          the assembled table: box (see-through), LED board, top plate, hood, cards
//   "top"          the whole top plate in one piece (a large printer or a CNC router)
//   "top_piece"    one printable piece of the top plate, turned over ready to print (the
//                  top face and the light windows' skin on the bed): piece = [i, j], i counts the
//                  pieces from the left, j from the front (cuts_x/cuts_y say where it is cut)
//   "hood"         the spymaster display hood (print standing on its base, no supports)
//   "ledboard"     the LED board under the top plate (3 mm MDF or hardboard)
//   "ledboard_2d"  the LED board as a 2D drawing: export .svg or .dxf for a laser cutter,
//                  or print it 1:1 as a drilling template
//   "top_2d"       the top plate's outline and through holes as a 2D drawing, for a
//                  4 mm MDF/plywood sheet instead of the printed plate
//   "top_counterbore_2d" the faster route's second drawing: the counterbores from below around the
//                  30 mm buttons' holes in the 4 mm sheet (depth in the console: figure counterbore)
//   "acrylic_2d"   the faster route's opal acrylic: one sheet under the grid, one under the bar
//   "strips_2d"    the faster route's 18 mm strips (15 mm chambers + 3 mm acrylic) under the sheet
//                  where there is no acrylic: the edges, where the edge screws go, and the button strips
//   "tile_coupon"  one tile of the plate with its walls and a rim, turned over ready to print: a
//                  test print of the light frame, the pad's pocket and the touch before the whole plate
//   "mdf_coupon_2d" the faster route's test coupon: one tile of top_2d with its frame windows and a rim
//   "light_boxes"  the faster route's chambers for the sand-timer bar and the turn indicator, printed
//                  upside down (the plate has them; a flat sheet does not)
//   "floor_2d"     the box's floor: its screw holes, the Pi's and the tile board's mounting holes, vents
//   "back_2d"      the box's back wall (the spymasters' side): the cable entries
//
//   openscad -o top.stl hardware/enclosure.scad -D 'part="top_piece"' -D 'piece=[0,0]'
//   openscad -o hood.stl hardware/enclosure.scad -D 'part="hood"'
//   openscad -o ledboard.svg hardware/enclosure.scad -D 'part="ledboard_2d"'
//
// Coordinates: millimetres; x to the right and y away from the operatives
// (they sit at y = 0 and see row A at the far end, column 1 on their left);
// the spymasters sit at the far end (large y), facing them. z = 0 is the top
// of the LED board, the plate's walls stand on it.

/* [What to render] */
part = "all"; // [all, top, top_piece, tile_coupon, hood, ledboard, ledboard_2d, top_2d, top_counterbore_2d, acrylic_2d, strips_2d, mdf_coupon_2d, light_boxes, floor_2d, back_2d, step]
step = 3;                   // part = "step": the build guide's picture of that step (steps.scad)
piece = [0, 0];
coupon = [2, 2];            // the tile_coupon's tile: [row 0-4 = A-E, column 0-4 = 1-5]
coupon_rim = 4;             // plate around its chamber walls
show_cards = true;          // cards in the "all" view

/* [Cards and tiles] */
card = [70, 45];            // a codename card, lying landscape
gap = 18;                   // between neighbouring cards (room for their light frames): the tile pitch is card + gap
card_clearance = 0.5;       // around a card in its recess
recess_depth = 0;           // card recess in the top surface: 0 for a printed plate (printed top side down,
                            // a recess would hang over air); 0.8 for a milled one; the light frame marks each card's place
thumb_notch = 6;            // radius of the scoop at each recess's front edge to lift a card (0: none; only with a recess)
border = 15;                // plate beyond the grid at the sides and around the strips

/* [Touch pads and LEDs] */
pad = [60, 35];             // copper-foil pad under each tile
pad_pocket_depth = 1.4;     // pocket for the pad in the plate's underside: it locates the foil and the white
                            // label over it (bare copper under the LED would tint the light) and thins the plate there
pad_cover = 2;              // plate left between a card and its pad: the MPR121 senses through it (2 mm: every pad
                            // 2.5 times its touch threshold or more, buildkit/touch.py; 3 mm left the far ones marginal)
frame_w = 4;                // the light frame around each card: a window on each side, solid at the corners
frame_gap = 1.5;            // plate between a card's recess and its light frame
diffuser_skin = 0.8;        // plate left over the windows: a printed diffuser (0: through slots for frosted acrylic)
rib_h = 15;                 // height of the light chambers: LED to plate, for an even glow
rib_t = 2.4;                // chamber walls (a cut through a wall leaves 1.2 mm on each piece)
skirt_t = 3;                // the plate's outer wall
notch = [8, 4];             // cable channels (width, height) at the foot of every wall
bar_entry = 8;              // the link from the last tile comes down to the bar this far left of its end

// "boards": a WS2812B on a 10 mm round pixel board glued on each LED mark (soldered links); "strand": a
// pre-wired strand of 12 mm WS2811 "bullet" pixels pushed down through 12 mm holes in the LED board
// (their bodies hang into the box; buildkit/electrical.py says which lead spacing reaches)
leds = "boards";            // [boards, strand]
pixel_hole = 12;            // a 12 mm bullet pixel's hole
pixel_head = 8;             // its dome and flange above the LED board (a 12 mm WS2811 bullet, about 8 mm)
pixel_body = 25;            // its body below a 3 mm panel, the wires leaving its end ...
pixel_turn = 10;            // ... and turning there to run along under the LED board
smd_led_h = 2.6;            // a WS2812B (1.6 mm) on its round board (1 mm): the emitting face above the LED board

/* [Sand-timer bar and turn indicator] */
timer_leds = 10;            // as in firmware/board.py and [tiles] timer_leds
turn_leds = 2;              // as in firmware/board.py and [tiles] turn_leds
led_pitch = 1000 / 60;      // one LED every 16.7 mm: a 60 LEDs/m strip
strip_w = 10;               // width of the LED strip
window_w = 8;               // width of the bar's light windows
front_d = 76;               // the strip between the operatives' edge and the grid

/* [Buttons] */
clue_input = "buttons";     // [buttons, encoder]
button_hole = 30;           // 30 mm arcade buttons: END TURN, clue down/up/confirm, UNDO, NEW GAME
button_nut_d = 38;          // kept free of walls under the plate: the nut and the microswitch
button_panel_max = 3;       // the thickest panel a snap-in 30 mm button clips onto (hardware/bom.csv)
button_panel = 2;           // what a counterbore from below leaves around a button or encoder hole
big_button_hole = 46;       // the 60 mm sand-timer button: check your button's thread
big_button_nut_d = 62;
big_button_panel_max = 10;  // its nut's thread
encoder_hole = 7.5;         // EC11 rotary encoder, M7 bushing
encoder_panel_max = 3;      // its bushing: 5 mm, less the nut
status_led_hole = 8;        // a 5 mm LED in a panel holder
status_led_panel_max = 5;
switch_depth = 45;          // a button's microswitch terminals, below the plate's top: where its wires start
button_depth = 35;          // a snap-in 30 mm button with its microswitch reaches this far below the panel's top
big_button_depth = 60;      // the 60 mm dome button's threaded body, nut and microswitch holder below the panel's top
status_led_depth = 20;      // the 5 mm LED's holder and legs below the panel's top
buzzer_size = [12, 8.5];    // CUI Devices CEM-1203(42): 12 mm across, 8.5 mm tall, pins 7.6 mm apart
buzzer_holes = true;        // sound holes above the piezo

/* [Spymaster display and hood] */
display = "spi35";          // [spi28, spi35, hdmi5, dsi7, custom]
// with display = "custom": module width, height, active area width, height,
// mounting hole spacing x, y (0, 0: no holes), depth behind the glass
custom_display = [85.5, 56, 73.5, 49, 58, 49, 12];
// Low and far back, so a seated spymaster sees every tile over it (tests/buildkit/test_mechanics.py
// checks the sight lines). 45 degrees: low, the face's underside still prints without supports, and
// the spymasters, looking ~38 degrees down, see the face almost square on.
hood_tilt = 45;             // the display face, degrees from the table
hood_lift = 4;              // the face starts this high above the plate
hood_visor = 15;            // the roof runs on past the face at 45 degrees: shade and privacy
hood_wall = 2.4;
hood_margin = 5;            // face around the display module
hood_gap = 90;              // from the grid to the hood's back wall
hood_tab_t = 3;             // its screw tabs
insert = [4.0, 5.7];        // heat-set M3 inserts for the hood's screws: hole diameter, length
insert_hole = 12;           // their holes' depth from the plate's top (a boss under the plate)

/* [Assembly] */
ledboard_t = 3;             // the LED board: 3 mm MDF or hardboard
box_h = 70;                 // the box under the LED board, its floor included: electronics and button switches (its sides box_h - floor_t)
box_wall = 12;              // its plywood sides
floor_t = 3;                // its floor: 3 mm hardboard, screwed on (it comes off to reach the Pi)
mdf_t = 4;                  // the faster route's top sheet ...
acrylic_t = 3;              // ... and the opal acrylic under its grid and bar (the rest lies on 18 mm strips)
// the Pi on the floor, its USB-C side towards the back wall: [x, y] of its centre (-1: centred
// behind the grid), 10 mm standoffs. Seen from above with its header at the front, a Pi 3 B+, 4 or 5 has
// its USB-A sockets on its left end (the operatives' left) and its USB-C socket and pin 1 at its right.
pi_at = [-1, -1];
pi_size = [85, 56];
pi_holes = [58, 49];
standoff_h = 10;
// the panel-mount USB-C extension's socket in the back wall: the round-bodied ones thread M12 (a 12 mm
// hole) with a nut; square-flanged ones screw on and need a rectangle instead (check yours)
usb_c_hole = 12;
// the LED supply's panel jack: a DC-022B style 5.5/2.1 mm jack threads M11 (an 11 mm hole, nut
// inside); a Switchcraft 712A needs 7.9 mm (5/16 in)
dc_jack_hole = 11;
entry_panel = 4;            // panel-mount sockets clamp a few mm: the back wall is thinned to this round each entry,
entry_counterbore = 25;     // from inside, with a Forstner bit this wide (room for the nut, held with pliers or a deep socket)
entry_depth = [40, 30];     // room inside the back wall behind the USB-C socket (its body and plug) and the DC jack (body and solder tabs)
// The tile board (the perfboard of buildkit/electrical.py's perfboard()); with tile_board_mount = "floor" (the variant)
// on standoffs on the floor: [x, y] of its centre (-1: in front of the Pi, under the grid, its long side along y)
tile_board = [80, 120];
tile_board_at = [-1, -1];
tile_board_holes = [28, 44] * 2.54; // its mounting holes' spacing: holes B2, B46, AD2, AD46 of its grid, drilled 2.7 mm
tile_board_standoff = 6;    // M2.5 x 6 mm standoffs: room for its solder side, and for the bullet pixels' bodies over it (leds = "strand")
tile_board_gap = 40;        // between the Pi's header edge and the tile board: the Pico's USB plug and its cable's bend
// Where the tile board is mounted: "ledboard" (the default: hung under the LED board over the grid's middle, its
// parts facing down, reached through a hatch in the floor with the box stood on its back edge: no cable crosses to
// the floor but the Pi's) or "floor" (the variant: on standoffs on the floor, in front of the Pi, reached in the
// service position). Hung, its pad wires' edge (row A) is at its left (x0), the Pico's USB end towards the Pi
// (buildkit/perfboard.py's in_box_hung).
tile_board_mount = "ledboard"; // [ledboard, floor]
tile_board_hung_at = [205, 278];  // its centre, hung: the shortest longest pad wire, clear of the chamber walls
// hung: from the LED board's underside to the board's copper side (its pad wires bend in this gap to its edge);
// with leds = "strand" below the bullet pixels' bodies and their wires' turn instead
tile_board_hang = 15;
hatch_margin = 10;          // the floor's hatch: this much larger than the hung board all round
// the two strips glued across the hatch's short edges, overlapping it by half their width, that its cover screws to:
// [width, height]; 20 mm square batten, the service position's stock, so that the cover's 3 x 16 mm screws end inside
hatch_strip = [20, 20];
// the Pico's micro-USB socket: its middle from the tile board's middle across (x), its mouth in from the board's
// edge at the Pi (buildkit/perfboard.py's layout; the socket stands 1.3 mm past the Pico's edge)
pico_usb = [-11.4, 4.1];
// the three MPR121 breakouts' bodies for the picture, as buildkit/perfboard.py's layout places them along the pad
// wires' edge: [x, y] of each one's corner on the board, and their size (tested against the layout)
tile_board_mpr121 = [[47.62, 79.05], [47.62, 43.49], [47.62, 5.39]];
mpr121_body = [19.05, 33.02];
// a straight micro-USB plug with its boot (20-28 mm), the cable's bend radius and its diameter; a USB-A plug
// with its boot in the Pi's socket (30-40 mm), and a USB-C plug with its boot (20-30 mm), its cable's bend radius
// and diameter (a 3 A cable; a thick 5 A one for a Pi 5 bends wider: a right-angle plug)
pico_plug = [28, 10, 4];
usb_a_plug = 40;
usb_c_plug = [30, 10, 4];
// where 5 V and GND come up through the LED board into the tile chain: [row, column] of each tile
// that buildkit/electrical.py's chain_feeds() names (A1: the chain's start, its only feed)
feed_tiles = [[0, 0]];
// with leds = "strand" a second feed is at the strand's end, tile E5 (buildkit/electrical.py's strand_feeds():
// no splice into the strand's wire; its tail goes on from there up through E5's feed hole to the bar), and a
// third past the last turn LED
strand_feed_tiles = [[0, 0], [4, 4]];
screw_d = 3.4;              // clearance for 3-3.5 mm screws
screw_head_d = 7;           // countersink on the plate's top
pilot_d = 2.5;              // pilot holes for 3 mm self-tapping screws in the bosses
boss_d = 8;
bed = [220, 220];           // printer bed: a piece that does not fit is reported
cuts_x = [2, 4];            // cut the plate along the walls after these columns ...
cuts_y = [2, 5];            // ... and after these rows, counted from the operatives (5: behind the grid)

$fn = 40;
eps = 0.01;

// ------------------------------------------------------------------ derived

pitch = [card[0] + gap, card[1] + gap];
grid = [5 * pitch[0], 5 * pitch[1]];
recess = [card[0] + 2 * card_clearance, card[1] + 2 * card_clearance];
plate_t = recess_depth + pad_cover + pad_pocket_depth;
top_z = rib_h + plate_t;
gx = border;                // the grid's front left corner
gy = border + front_d;

// The display: [module w, h, active w, h, hole dx, dy, depth]. Nominal sizes:
// measure yours (the module's outline and its mounting holes).
function display_spec(name) =
    name == "spi28" ? [86, 50, 58, 44, 0, 0, 10] :        // 2.8" 320x240 SPI TFT (ILI9341)
    name == "spi35" ? [85.5, 56, 73.5, 49, 58, 49, 12] :   // 3.5" 480x320 SPI TFT (Waveshare 3.5" LCD (A) and clones)
    name == "hdmi5" ? [121, 78, 108, 65, 0, 0, 14] :      // 5" 800x480 HDMI
    name == "dsi7" ? [194, 110, 155, 86, 0, 0, 20] :      // the Raspberry Pi 7" Touch Display (DSI, 800x480)
    custom_display;

spec = display_spec(display);
module_size = [spec[0], spec[1]];
view_size = [spec[2], spec[3]];
module_holes = [spec[4], spec[5]];
module_depth = spec[6];

// The hood's side profile in (y, z), y towards the spymasters. A: the face's
// foot; B: its top; the roof runs through B at 45 degrees, from C (over the
// back wall) to E (the visor's edge).
face_w = module_size[0] + 2 * (hood_margin + hood_wall);
face_len = module_size[1] + 2 * (hood_margin + hood_wall);
hood_A = [0, hood_lift];
hood_B = hood_A + face_len * [-cos(hood_tilt), sin(hood_tilt)];
hood_room = module_depth + 8;
hood_C = hood_B - [hood_room, hood_room];
hood_E = hood_B + hood_visor * [cos(45), sin(45)];
hood_back = hood_C[0];
hood_front = max(hood_E[0], 0) + 15;
hood_depth = hood_front - hood_back;
hood_height = hood_E[1];
hood_tab = 12;              // screw tabs beside the cheeks

back_d = ceil(max(hood_gap + hood_depth + border, button_nut_d + 2 * border));
plate = [grid[0] + 2 * border, gy + grid[1] + back_d];

fy = border + front_d / 2;                      // the front strip's centre line
by = gy + grid[1] + back_d / 2;                 // the back strip's centre line
hx = plate[0] / 2;                              // the hood's centre line
hy = gy + grid[1] + hood_gap - hood_back;       // the hood's face foot (its local origin)

// Tile (row 0-4 = A-E, column 0-4 = 1-5 as the operatives see the grid)
function cell(row, column) = [gx + (column + 0.5) * pitch[0], gy + (4 - row + 0.5) * pitch[1]];

// A tile's light frame: four windows ([x0, y0], [x1, y1]) around its card
// recess, the corners left solid to hold the plate under the card (the windows
// never touch: a shared corner would make the model non-manifold); the near
// window parts around the thumb scoop.
frame_in = [recess[0] / 2 + frame_gap, recess[1] / 2 + frame_gap];
frame_out = frame_in + [frame_w, frame_w];
scoop_half = thumb_notch > 0 && recess_depth > 0 ? thumb_notch + 2 : 0;
function frame_windows(p) = concat(
    [[p + [-frame_in[0], frame_in[1]], p + [frame_in[0], frame_out[1]]],       // far side
     [p + [-frame_out[0], 1 - frame_in[1]], p + [-frame_in[0], frame_in[1] - 1]],     // left
     [p + [frame_in[0], 1 - frame_in[1]], p + [frame_out[0], frame_in[1] - 1]]],      // right
    scoop_half > 0
        ? [[p + [-frame_in[0], -frame_out[1]], p + [-scoop_half, -frame_in[1]]],
           [p + [scoop_half, -frame_out[1]], p + [frame_in[0], -frame_in[1]]]]
        : [[p + [-frame_in[0], -frame_out[1]], p + [frame_in[0], -frame_in[1]]]]);

// The bar: one of its walls lines up with the grid wall after column 2 (a
// default cut), then the turn indicator to its right.
bar_x0 = gx + 2 * pitch[0] - 4 * led_pitch;
bar_len = timer_leds * led_pitch;
turn_x0 = bar_x0 + bar_len + 12;
turn_len = turn_leds * led_pitch;
box_in = strip_w + 2;                           // inside width of the bar's light box

// Round features: [name, [x, y], hole diameter, diameter kept free of walls, the thickest
// panel the part fits (a counterbore from below thins a thicker plate around it)]
clue_x = [for (i = [0:2]) border + button_nut_d / 2 + 3 + i * (button_nut_d + 2)];
clue_features = clue_input == "encoder"
    ? [["encoder", [clue_x[1], by], encoder_hole, 26, encoder_panel_max]]
    // seen from the spymasters' seats (facing the operatives): down, up, confirm, left to right
    : [["CONFIRM", [clue_x[0], by], button_hole, button_nut_d, button_panel_max],
       ["UP", [clue_x[1], by], button_hole, button_nut_d, button_panel_max],
       ["DOWN", [clue_x[2], by], button_hole, button_nut_d, button_panel_max]];
features = concat(
    [["END TURN", [gx + button_nut_d / 2 + 3, fy], button_hole, button_nut_d, button_panel_max],
     ["status LED", [bar_x0 - 14, fy], status_led_hole, status_led_hole + 4, status_led_panel_max],
     ["SAND TIMER", [plate[0] - border - big_button_nut_d / 2, fy], big_button_hole, big_button_nut_d, big_button_panel_max]],
    clue_features,
    [["UNDO", [gx + 4 * pitch[0] - button_nut_d / 2 - 6, by], button_hole, button_nut_d, button_panel_max],
     ["NEW GAME", [gx + 4 * pitch[0] + button_nut_d / 2 + 4, by], button_hole, button_nut_d, button_panel_max],
     ["buzzer", [plate[0] - border - 6, by], 0, 16, 99]]);
// the panel left around a feature in a sheet t thick, and the counterbore that leaves it
function panel_at(f, t) = t <= f[4] ? t : min(button_panel, f[4]);
function counterbore_d(f) = f[3] - 3;

// Rectangular features: [name, [x0, y0], [x1, y1]]
hood_slot = [[hx - min(30, face_w / 2 - 10), hy + hood_back + hood_wall + 4],
             [hx + min(30, face_w / 2 - 10), hy - hood_wall - 4]];
rect_features = [
    ["timer bar", [bar_x0 - rib_t, fy - box_in / 2 - rib_t], [bar_x0 + bar_len + rib_t, fy + box_in / 2 + rib_t]],
    ["turn indicator", [turn_x0 - rib_t, fy - box_in / 2 - rib_t], [turn_x0 + turn_len + rib_t, fy + box_in / 2 + rib_t]],
    ["display cable slot", hood_slot[0], hood_slot[1]]];

hood_screws = [for (side = [-1, 1], y = [hood_back + 8, hood_front - 8])
               [hx + side * (face_w / 2 + hood_tab / 2), hy + y]];
// the display's face in the table's frame: a point f along it from the foot, x across
function on_face_at(x, f) = [hx + x, hy + hood_A[0] - f * cos(hood_tilt), top_z + hood_A[1] + f * sin(hood_tilt)];

// Screws along the edges into the box's sides, and bosses at the walls'
// crossings for screws up through the LED board; none on a cut line.
cut_xs = [for (k = cuts_x) gx + k * pitch[0]];
cut_ys = [for (k = cuts_y) gy + k * pitch[1]];
function on_cut(v, cuts) = len([for (c = cuts) if (abs(v - c) < boss_d) c]) > 0;
edge_in = box_wall / 2;
edge_screws = concat(
    [for (k = [0:5], y = [edge_in, plate[1] - edge_in]) let(x = gx + k * pitch[0]) if (!on_cut(x, cut_xs)) [x, y]],
    [for (v = concat([for (k = [0:5]) gy + k * pitch[1]], [fy, by]), x = [edge_in, plate[0] - edge_in])
        if (!on_cut(v, cut_ys)) [x, v]]);
bosses = [for (i = [1:4], j = [1:4]) let(p = [gx + i * pitch[0], gy + j * pitch[1]])
          if (!on_cut(p[0], cut_xs) && !on_cut(p[1], cut_ys)) p];
pilot_depth = rib_h - 1;    // the bosses' pilot holes, from the LED board up
floor_screws = [for (x = [edge_in, plate[0] / 2, plate[0] - edge_in], y = [edge_in, plate[1] / 2, plate[1] - edge_in])
                if (x != plate[0] / 2 || y != plate[1] / 2) [x, y]];

// The Pi on its standoffs and the cable entries in the back wall (y = plate[1])
pi_c = [pi_at[0] < 0 ? hx : pi_at[0], pi_at[1] < 0 ? plate[1] - box_wall - 45 - pi_size[1] / 2 : pi_at[1]];
floor_z = -ledboard_t - box_h + floor_t;
pi_z = floor_z + standoff_h;
// (the Pi's mechanical drawing, header at the front: the USB-A end at x0, so its sizes count from the right end)
pi_header = [pi_c[0] + pi_size[0] / 2 - 32.5, pi_c[1] - pi_size[1] / 2 + 3.5, pi_z + 10];  // its middle; pins 1-26 lie nearer the USB-C corner
pi_usb_c = [pi_c[0] + pi_size[0] / 2 - 11.2, pi_c[1] + pi_size[1] / 2, pi_z + 3];
pi_usb_a = [pi_c[0] - pi_size[0] / 2, pi_c[1], pi_z + 1.6 + 8];  // its USB-A sockets' end, halfway along
entries = [["USB-C", [pi_c[0] + 60, plate[1], -ledboard_t - box_h / 2], usb_c_hole],
           ["DC jack", [pi_c[0] - 70, plate[1], -ledboard_t - box_h / 2], dc_jack_hole]];
pi_mount = [for (sx = [-1, 1], sy = [-1, 1]) pi_c + [sx * pi_holes[0] / 2 + (pi_size[0] / 2 - 3.5 - pi_holes[0] / 2), sy * pi_holes[1] / 2]];
// the tile board in front of the Pi, under the grid (nothing hangs from the LED board there but pad wires)
hung = tile_board_mount == "ledboard";
tb_c = hung ? tile_board_hung_at
     : [tile_board_at[0] < 0 ? pi_c[0] : tile_board_at[0],
        tile_board_at[1] < 0 ? pi_c[1] - pi_size[1] / 2 - tile_board_gap - tile_board[1] / 2 : tile_board_at[1]];
tb_mount = [for (sx = [-1, 1], sy = [-1, 1]) tb_c + [sx * tile_board_holes[0] / 2, sy * tile_board_holes[1] / 2]];
hang = leds == "strand" ? pixel_body + pixel_turn + 5 : tile_board_hang;
// the board's underside: on the floor its copper side, hung its parts' side (the copper side 1.6 mm above)
tb_z = hung ? -ledboard_t - hang - 1.6 : floor_z + tile_board_standoff;
// the hung board's parts hang this far below it (buildkit/electrical.py's tallest part: the 1000 µF standing)
tb_parts = 16 + 2;
hatch = [tb_c - tile_board / 2 - [hatch_margin, hatch_margin], tb_c + tile_board / 2 + [hatch_margin, hatch_margin]];
// the Pico's USB socket (the plug's middle: on the Pico's 1 mm board in its sockets) and where its cable goes
// (hung, the Pico's side faces down: mirrored across, the socket below the board)
pico_usb_at = [tb_c[0] + (hung ? -1 : 1) * pico_usb[0], tb_c[1] + tile_board[1] / 2 - pico_usb[1],
               hung ? tb_z - (8.5 + 2.5 + 1 + 1.5) : tb_z + 1.6 + 8.5 + 2.5 + 1 + 1.5];
// Rooms the plugs need past their sockets: [name, the board it plugs into, [x0, y0], [x1, y1], top z]. The Pico's plug points at the Pi,
// its cable bends there; the Pi's USB-A plug (the Pico's cable) leaves its left end, its USB-C plug its back.
plug_rooms = [
    ["the Pico's USB plug", "tile board", [pico_usb_at[0] - 6, pico_usb_at[1]], [pico_usb_at[0] + 6, pico_usb_at[1] + pico_plug[0] + pico_plug[1] + pico_plug[2] / 2],
     pico_usb_at[2] + 6],
    ["the Pi's USB-A plug", "Pi", [pi_usb_a[0] - usb_a_plug, pi_c[1] - pi_size[1] / 2], [pi_usb_a[0], pi_c[1] + pi_size[1] / 2], pi_usb_a[2] + 8],
    ["the Pi's USB-C plug", "Pi", [pi_usb_c[0] - 6, pi_usb_c[1]], [pi_usb_c[0] + 6, pi_usb_c[1] + usb_c_plug[0] + usb_c_plug[1] + usb_c_plug[2] / 2],
     pi_usb_c[2] + 5]];
box_inner = [[box_wall, box_wall], [plate[0] - box_wall, plate[1] - box_wall]];
// What hangs from the plate and the LED board into the box: [name, [x, y], diameter, its lowest z]
hanging = concat(
    [for (f = features) if (f[0] != "buzzer")
        [f[0], f[1], f[3], top_z - (f[0] == "SAND TIMER" ? big_button_depth : f[0] == "status LED" ? status_led_depth : button_depth)]],
    [["buzzer", features[len(features) - 1][1], buzzer_size[0], rib_h - buzzer_size[1]]],
    leds == "strand" ? [for (r = [0:4], c = [0:4]) [str("pixel ", chr(65 + r), c + 1), cell(r, c), pixel_hole + 2, -ledboard_t - pixel_body - pixel_turn]] : []);
// Rooms kept free on the floor: [name, [x0, y0], [x1, y1], top z] (the entries' bodies inside the back wall)
entry_rooms = [for (i = [0:len(entries) - 1]) let(e = entries[i], w = e[2] + 16)
    [e[0], [e[1][0] - w / 2, plate[1] - box_wall - entry_depth[i]], [e[1][0] + w / 2, plate[1] - box_wall], e[1][2] + w / 2]];

// Piece boundaries for printing
piece_xs = concat([0], cut_xs, [plate[0]]);
piece_ys = concat([0], cut_ys, [plate[1]]);

// ------------------------------------------------------------------ checks

function rect_hits_circle(r, c, d) =
    c[0] + d / 2 > r[1][0] && c[0] - d / 2 < r[2][0] && c[1] + d / 2 > r[1][1] && c[1] - d / 2 < r[2][1];
function on_bar_wall(x, x0, n) = x > x0 - rib_t && x < x0 + n * led_pitch + rib_t
    && abs((x - x0) / led_pitch - round((x - x0) / led_pitch)) * led_pitch < 0.01;

module check(ok, message) { if (!ok) echo(str("WARNING: ", message)); }

module checks() {
    for (f = features) {
        check(f[1][0] - f[3] / 2 >= skirt_t && f[1][0] + f[3] / 2 <= plate[0] - skirt_t,
              str(f[0], " does not fit on the plate (x ", f[1][0], ")"));
        for (x = cut_xs) check(abs(f[1][0] - x) >= f[3] / 2, str(f[0], " lies on the cut at x = ", x, ": move it or the cut"));
        for (y = cut_ys) check(abs(f[1][1] - y) >= f[3] / 2, str(f[0], " lies on the cut at y = ", y, ": move it or the cut"));
        for (r = rect_features) check(!rect_hits_circle(r, f[1], f[3]), str(f[0], " overlaps the ", r[0]));
        for (s = hood_screws) check(norm(f[1] - s) >= f[3] / 2 + 4, str(f[0], " is in the way of a hood screw"));
    }
    for (i = [0:len(features) - 1], j = [0:len(features) - 1]) if (i < j) let(f = features[i], g = features[j])
        check(norm(f[1] - g[1]) >= (f[3] + g[3]) / 2, str(f[0], " and ", g[0], " overlap"));
    for (x = cut_xs) {
        check(x <= hood_slot[0][0] || x >= hood_slot[1][0], str("the cut at x = ", x, " runs through the display cable slot"));
        for (s = hood_screws) check(abs(s[0] - x) > 4, str("the cut at x = ", x, " runs through a hood screw"));
        check(x <= bar_x0 - rib_t || x >= bar_x0 + bar_len + rib_t || on_bar_wall(x, bar_x0, timer_leds),
              str("the cut at x = ", x, " runs through a timer bar window"));
        check(x <= turn_x0 - rib_t || x >= turn_x0 + turn_len + rib_t || on_bar_wall(x, turn_x0, turn_leds),
              str("the cut at x = ", x, " runs through a turn indicator window"));
    }
    check(turn_x0 + turn_len + rib_t <= features[2][1][0] - features[2][3] / 2,
          "the timer bar and turn indicator run into the SAND TIMER button: fewer LEDs or a wider plate");
    check(hood_slot[0][0] < hood_slot[1][0], "the display is too narrow for the cable slot");
    for (e = entries) check(e[1][0] - e[2] / 2 > box_wall && e[1][0] + e[2] / 2 < plate[0] - box_wall,
                            str("the ", e[0], " entry is not in the back wall"));
    check(insert_hole > insert[1] && insert_hole - plate_t < rib_h, "the hood's insert holes are too shallow or too deep");
    check(frame_out[0] + rib_t / 2 + 1 <= pitch[0] / 2 && frame_out[1] + rib_t / 2 + 1 <= pitch[1] / 2,
          "the light frames run into the chamber walls: a larger gap or a narrower frame");
    check(pad[0] < recess[0] && pad[1] < recess[1], "the pad is larger than the card: it would block the light frame");
    for (i = [0:len(piece_xs) - 2], j = [0:len(piece_ys) - 2]) {
        size = [piece_xs[i + 1] - piece_xs[i], piece_ys[j + 1] - piece_ys[j]];
        check((size[0] <= bed[0] && size[1] <= bed[1]) || (size[0] <= bed[1] && size[1] <= bed[0]),
              str("piece [", i, ", ", j, "] is ", size[0], " x ", size[1], " mm: larger than the bed; add a cut"));
    }
    check(face_w + 2 * hood_tab <= bed[0] && hood_depth <= bed[1] + eps, "the hood is larger than the bed");
    check(plug_rooms[0][3][1] + 3 <= pi_c[1] - pi_size[1] / 2 || plug_rooms[0][2][0] >= pi_c[0] + pi_size[0] / 2 + 3
          || plug_rooms[0][3][0] <= pi_c[0] - pi_size[0] / 2 - 3,
          str("the Pico's USB plug and its cable's bend run into the Pi: tile_board_gap ", tile_board_gap, " mm is too small"));
}

checks();
echo(str("plate ", plate[0], " x ", plate[1], " mm, ", top_z, " mm thick (walls ", rib_h, " mm)"));
echo(str("tile pitch ", pitch[0], " x ", pitch[1], " mm, card place ", recess[0], " x ", recess[1], " mm",
         recess_depth > 0 ? str(", recessed ", recess_depth, " mm") : ", flat"));
echo(str("screws: ", len(edge_screws), " along the edges, ", len(bosses), " up through the LED board, ",
         len(hood_screws), " for the hood"));
echo(str("tile coupon ", coupon_box[1][0] - coupon_box[0][0], " x ", coupon_box[1][1] - coupon_box[0][1], " x ", top_z, " mm"));
echo(str("pieces: ", len(piece_xs) - 1, " x ", len(piece_ys) - 1, ", hood ", face_w + 2 * hood_tab, " x ",
         round(hood_depth), " x ", round(hood_height), " mm"));

// Figures the tests compute with (buildkit/mechanics.py reads them): "figure NAME = VALUE",
// VALUE a number, string or list. z = 0 is the LED board's top, as everywhere in this file.
module figure(name, value) { echo(str("figure ", name, " = ", value)); }
// Screwed joints: [name, route, screws, clamped stack (mm), what the thread goes into, thread
// available in it, room past the stack before the screw bottoms out or breaks through]
figure("joints", [
    ["edge", "printed", len(edge_screws), top_z + ledboard_t, "wood", box_h - floor_t, box_h - floor_t],
    ["edge", "mdf", len(edge_screws), mdf_t + rib_h + acrylic_t + ledboard_t, "wood", box_h - floor_t, box_h - floor_t],
    ["boss", "printed", len(bosses), ledboard_t, "plastic", pilot_depth, pilot_depth],
    ["hood", "printed", len(hood_screws), hood_tab_t, "insert", insert[1], insert_hole],
    ["hood", "mdf", len(hood_screws), hood_tab_t + mdf_t, "nut", 2.4, rib_h],
    ["floor", "printed", len(floor_screws), floor_t, "wood", box_h - floor_t, box_h - floor_t],
    ["hatch", "printed", hung ? 2 : 0, floor_t, "wood", hatch_strip[1], hatch_strip[1]]]);
figure("hatch_strip", hatch_strip);
// [name, the thickest panel it fits, the panel at its hole: printed plate, MDF sheet]
figure("panels", [for (f = features) if (f[2] > 0) [f[0], f[4], panel_at(f, plate_t), panel_at(f, mdf_t)]]);
figure("plate_t", plate_t);
// where wires start and end: [name, [x, y, z]]
figure("points", concat(
    [["Pi header", pi_header], ["Pi USB-C", pi_usb_c], ["Pi USB-A", pi_usb_a], ["Pico USB", pico_usb_at],
     ["display socket", on_face_at(0, face_len / 2 + module_size[1] / 2 - 4)]],
    [for (e = entries) [e[0], e[1]]],
    [for (f = features) if (f[2] > 0 && f[0] != "status LED") [f[0], [f[1][0], f[1][1], top_z - switch_depth]]]));
figure("feeds", ledboard_feeds());
// the box's inside: the floor's top and the LED board's underside (z), the walls' inner faces, what stands
// on the floor ([name, [x0, y0], [x1, y1], its board's underside z]), what hangs into the box from above
// ([name, [x, y], diameter, lowest z]) and the rooms behind the cable entries ([name, [x0, y0], [x1, y1], top z])
figure("box_z", [floor_z, -ledboard_t]);
figure("box_inner", box_inner);
figure("floor_boards", concat([["Pi", pi_c - pi_size / 2, pi_c + pi_size / 2, pi_z]],
                               hung ? [] : [["tile board", tb_c - tile_board / 2, tb_c + tile_board / 2, tb_z]]));
figure("floor_holes", [for (h = concat(pi_mount, hung ? [] : tb_mount)) h]);
// hung under the LED board: [name, [x0, y0], [x1, y1], its copper side's z (the top), its parts' lowest z], and
// the floor's hatch under it ([x0, y0], [x1, y1])
figure("hung_boards", hung ? [["tile board", tb_c - tile_board / 2, tb_c + tile_board / 2, tb_z + 1.6, tb_z - tb_parts]] : []);
figure("hatch", hung ? hatch : []);
figure("ledboard_holes", hung ? tb_mount : []);
figure("tile_board_mpr121", [for (m = tile_board_mpr121) [m, mpr121_body]]);
figure("hanging", hanging);
figure("entry_rooms", entry_rooms);
figure("plug_rooms", plug_rooms);
figure("pico_plug", pico_plug);
// the printed plate's pieces: [i, j, x size, y size] (i from the left, j from the operatives), and the bed
figure("pieces", [for (i = [0:len(piece_xs) - 2], j = [0:len(piece_ys) - 2]) [i, j, piece_xs[i + 1] - piece_xs[i], piece_ys[j + 1] - piece_ys[j]]]);
figure("bed", bed);
// the camera for the picture of the whole table (hardware.py's --picture passes it as --camera): from the spymasters'
// corner, so the hood's display and the grid both show. Not set as $vpt/$vpr/$vpd here: OpenSCAD then warns on
// every render, and a WARNING line in this model means two things collide.
figure("camera", [plate[0] / 2, plate[1] / 2, -20, 52, 0, 205, 2.6 * plate[1]]);
// the back wall round each entry: what is left of it, the counterbore from inside, and the entries' holes
figure("entry_panel", [entry_panel, entry_counterbore, box_wall, [for (e = entries) [e[0], e[2]]]]);
// the faster route: [sheet, the counterbore's depth from below, its diameter, how many], the acrylic sheets, the strips' height
figure("counterbore", [mdf_t, mdf_t - button_panel, len(mdf_counterbores) > 0 ? counterbore_d(mdf_counterbores[0]) : 0, len(mdf_counterbores)]);
figure("acrylic", acrylic);
figure("strip_h", rib_h + acrylic_t);
// what lies between a card and its pad: the plate's cover, the MDF route's sheet and acrylic (buildkit/touch.py)
figure("pad_stack", [pad_cover, mdf_t, acrylic_t, pad_wire_hole]);
// the front strip's band [y0, y1] and the gap in it for the link to the bar, [[x0, y0], [x1, y1]]
figure("front_strip", [acrylic[0][0][1] - strip_w_mdf, acrylic[0][0][1]]);
figure("strip_gap", strip_gap);
// the printed plate's notch under the front wall where that link runs into the bar: [x0, x1], and the notches' size
figure("bar_notch", bar_notch);
figure("notch", notch);
figure("bar_x0", bar_x0);
// the LEDs: "boards" or "strand"; the chamber's height, an SMD pixel's emitting face, a bullet pixel's hole, head and body
figure("leds", str("\"", leds, "\""));
figure("chamber", [rib_h, smd_led_h]);
figure("pixel", [pixel_hole, pixel_head, pixel_body]);
figure("frame", [frame_in, frame_out]);
figure("pad", pad);
// the tile coupon: its tile, its size (x, y, z) as printed
figure("coupon", [coupon, concat(coupon_box[1] - coupon_box[0], [top_z])]);
figure("tiles", [for (r = [0:4], c = [0:4]) cell(r, c)]);
figure("card", card);
figure("pitch", pitch);
figure("foam_walls", foam_walls);
figure("foam_t", foam_t);
figure("mdf_coupon", coupon_box[1] - coupon_box[0]);
figure("rib_t", rib_t);
figure("top_z", top_z);
figure("table_z", -ledboard_t - box_h);
figure("plate", plate);
figure("hood_x", [hx - face_w / 2, hx + face_w / 2]);
// the hood's side profile (y, z), convex: its back wall's foot, its front's foot, the visor's edge, the roof over the back wall
figure("hood_profile", [[hy + hood_back, top_z], [hy + hood_front, top_z], [hy + hood_E[0], top_z + hood_E[1]],
                        [hy + hood_C[0], top_z + hood_C[1]]]);
// the display's active area: corners and centre
figure("display_area", [for (x = [-1, 0, 1], f = [-1, 0, 1]) on_face_at(x * view_size[0] / 2, face_len / 2 + f * view_size[1] / 2)]);

// ------------------------------------------------------------------ top plate

module box(p0, p1) { translate(p0) cube(p1 - p0); }

// The tile coupon renders only what lies near its tile (CGAL's time grows with every cutter, near or not)
coupon_c = cell(coupon[0], coupon[1]);
coupon_box = [coupon_c - pitch / 2 - [coupon_rim, coupon_rim], coupon_c + pitch / 2 + [coupon_rim, coupon_rim]];
clip = part == "tile_coupon" || part == "mdf_coupon_2d" || (part == "step" && step == 3) ? coupon_box : undef;
function near(p, r) = clip == undef || (p[0] + r > clip[0][0] && p[0] - r < clip[1][0] && p[1] + r > clip[0][1] && p[1] - r < clip[1][1]);
module clip_2d() {
    if (clip == undef) children();
    else intersection() { translate(clip[0] - [1, 1]) square(clip[1] - clip[0] + [2, 2]); children(); }
}

module light_box(x0, n) {
    // the walls around a row of strip LEDs, one chamber per LED
    y0 = fy - box_in / 2;
    difference() {
        union() {
            for (i = [0:n]) translate([x0 + i * led_pitch - rib_t / 2, y0 - rib_t, 0]) cube([rib_t, box_in + 2 * rib_t, rib_h]);
            for (y = [y0 - rib_t, y0 + box_in]) translate([x0 - rib_t / 2, y, 0]) cube([n * led_pitch + rib_t, rib_t, rib_h]);
        }
        // the strip runs under the inner walls
        translate([x0 - rib_t, fy - (strip_w + 1) / 2, -1]) cube([n * led_pitch + 2 * rib_t, strip_w + 1, 3.5]);
    }
}

module walls() {
    // the grid of light chambers
    for (k = [0:5]) {
        translate([gx + k * pitch[0] - rib_t / 2, gy - rib_t / 2, 0]) cube([rib_t, grid[1] + rib_t, rib_h]);
        translate([gx - rib_t / 2, gy + k * pitch[1] - rib_t / 2, 0]) cube([grid[0] + rib_t, rib_t, rib_h]);
    }
    // the skirt
    difference() {
        cube([plate[0], plate[1], rib_h]);
        translate([skirt_t, skirt_t, -1]) cube([plate[0] - 2 * skirt_t, plate[1] - 2 * skirt_t, rib_h + 2]);
    }
    // stiffening walls under the strips, clear of buttons, bars and the cable slot
    difference() {
        union() {
            for (k = [0:5]) {
                translate([gx + k * pitch[0] - rib_t / 2, 0, 0]) cube([rib_t, gy, rib_h]);
                translate([gx + k * pitch[0] - rib_t / 2, gy + grid[1], 0]) cube([rib_t, back_d, rib_h]);
            }
            for (y = [fy, by]) translate([0, y - rib_t / 2, 0]) cube([plate[0], rib_t, rib_h]);
        }
        for (f = features) if (near(f[1], f[3])) translate([f[1][0], f[1][1], -1]) cylinder(d = f[3], h = rib_h + 2);
        for (r = rect_features) box([r[1][0], r[1][1], -1], [r[2][0], r[2][1], rib_h + 1]);
    }
    if (near([bar_x0, fy], bar_len + turn_len + 30)) {
        light_box(bar_x0, timer_leds);
        light_box(turn_x0, turn_leds);
    }
    for (p = concat(edge_screws, bosses)) if (near(p, boss_d)) translate([p[0], p[1], 0]) cylinder(d = boss_d, h = rib_h);
    // bosses for the hood's threaded inserts
    for (s = hood_screws) if (near(s, insert[0] + 4)) translate([s[0], s[1], top_z - insert_hole - 2]) cylinder(d = insert[0] + 4, h = insert_hole + 2);
}

module cable_channels() {
    // a notch at the foot of every wall, midway along each chamber side
    for (k = [0:5], i = [0:4]) {
        if (near([gx + k * pitch[0], gy + (i + 0.5) * pitch[1]], notch[0]))
            translate([gx + k * pitch[0] - rib_t, gy + (i + 0.5) * pitch[1] - notch[0] / 2, -1])
                cube([2 * rib_t, notch[0], notch[1] + 1]);
        if (near([gx + (i + 0.5) * pitch[0], gy + k * pitch[1]], notch[0]))
            translate([gx + (i + 0.5) * pitch[0] - notch[0] / 2, gy + k * pitch[1] - rib_t, -1])
                cube([notch[0], 2 * rib_t, notch[1] + 1]);
    }
    for (k = [0:4], y = [fy, by]) if (near([gx + (k + 0.5) * pitch[0], y], notch[0]))
        translate([gx + (k + 0.5) * pitch[0] - notch[0] / 2, y - rib_t, -1]) cube([notch[0], 2 * rib_t, notch[1] + 1]);
    for (k = [0:5], y = [(fy + gy) / 2, (by + gy + grid[1]) / 2]) if (near([gx + k * pitch[0], y], notch[0]))
        translate([gx + k * pitch[0] - rib_t, y - notch[0] / 2, -1]) cube([2 * rib_t, notch[0], notch[1] + 1]);
    // the wires coming up through the LED board's feed holes (the chain's end, past the last turn LED, lies
    // under the front strip's wall) pass under whatever wall stands there
    for (feed = ledboard_feeds()) if (near(feed[1], feed[2] + 10))
        translate([feed[1][0], feed[1][1], -1]) cylinder(d = feed[2] + 6, h = notch[1] + 1);
    // the link from the last tile runs along the front strip's wall into the bar's end wall: under it
    if (near([bar_x0, fy], bar_entry + notch[0]))
        translate([bar_notch[0], fy - rib_t, -1]) cube([bar_notch[1] - bar_notch[0], 2 * rib_t, notch[1] + 1]);
}
bar_notch = [bar_x0 - bar_entry - notch[0] / 2, bar_x0];  // x0, x1 of that notch

module holes_2d() {
    // every hole through the plate, seen from above
    for (f = features) if (f[2] > 0) translate(f[1]) circle(d = f[2]);
    // the buzzer's sound holes
    b = features[len(features) - 1][1];
    if (buzzer_holes) for (p = concat([[0, 0]], [for (a = [0:60:300]) 4.5 * [cos(a), sin(a)]]))
        translate(b + p) circle(d = 2, $fn = 12);
    translate(hood_slot[0]) square(hood_slot[1] - hood_slot[0]);
    for (s = edge_screws) translate(s) circle(d = screw_d);
}

module counterbores() {
    // from below, around every hole whose part needs a thinner panel than the plate
    for (f = features) if (f[2] > 0 && panel_at(f, plate_t) < plate_t && near(f[1], f[3]))
        translate([f[1][0], f[1][1], rib_h - 1]) cylinder(d = counterbore_d(f), h = 1 + plate_t - panel_at(f, plate_t));
}

module through_holes() {
    translate([0, 0, -1]) linear_extrude(top_z + 2, convexity = 4) clip_2d() holes_2d();
    // countersinks for the screws into the box's sides
    for (s = edge_screws) if (near(s, screw_head_d)) translate([s[0], s[1], top_z - (screw_head_d - screw_d) / 2])
        cylinder(d1 = screw_d, d2 = screw_head_d, h = (screw_head_d - screw_d) / 2 + eps);
}

module windows_2d() {
    // every light window seen from above: the tiles' frames, the bar's and the turn indicator's
    for (r = [0:4], c = [0:4], w = frame_windows(cell(r, c))) translate(w[0]) square(w[1] - w[0]);
    for (bar = [[bar_x0, timer_leds], [turn_x0, turn_leds]], i = [0:bar[1] - 1])
        translate([bar[0] + i * led_pitch + rib_t / 2, fy - window_w / 2]) square([led_pitch - rib_t, window_w]);
}

module light_windows() {
    // from below, leaving diffuser_skin of plate on top (a printed diffuser); one
    // extrusion of a 2D drawing keeps the CSG tree small enough for previews
    h = plate_t - diffuser_skin + (diffuser_skin > 0 ? 0 : 1);
    translate([0, 0, rib_h - 1]) linear_extrude(1 + h, convexity = 4) clip_2d() windows_2d();
}

module top_plate() {
    difference() {
        intersection() {
            if (clip != undef) box([clip[0][0], clip[0][1], -1], [clip[1][0], clip[1][1], top_z + 1]);
            union() {
                translate([0, 0, rib_h]) cube([plate[0], plate[1], plate_t]);
                difference() { walls(); cable_channels(); }
            }
        }
        for (r = [0:4], c = [0:4]) let(p = cell(r, c)) if (near(p, pitch[0])) {
            // the card recess, with a scoop to lift the card
            if (recess_depth > 0) translate([p[0] - recess[0] / 2, p[1] - recess[1] / 2, top_z - recess_depth]) cube([recess[0], recess[1], 1]);
            if (scoop_half > 0) translate([p[0], p[1] - recess[1] / 2, top_z - recess_depth]) cylinder(r = thumb_notch, h = 1);
            // the pad's pocket underneath
            translate([p[0] - pad[0] / 2 - 0.3, p[1] - pad[1] / 2 - 0.3, rib_h - 1]) cube([pad[0] + 0.6, pad[1] + 0.6, 1 + pad_pocket_depth]);
        }
        light_windows();
        through_holes();
        counterbores();
        for (s = hood_screws) if (near(s, insert[0])) translate([s[0], s[1], top_z - insert_hole]) cylinder(d = insert[0], h = insert_hole + 1);
        // pilot holes for the screws from below
        for (p = bosses) if (near(p, pilot_d)) translate([p[0], p[1], -1]) cylinder(d = pilot_d, h = rib_h + 1 - 1, $fn = 16);
    }
}

module top_piece(i, j) {
    // turned over, ready to print: the plate's top face on the bed
    translate([0, piece_ys[j + 1] - piece_ys[j], top_z]) rotate([180, 0, 0])
        translate([-piece_xs[i], -piece_ys[j], 0]) intersection() {
            top_plate();
            box([piece_xs[i], piece_ys[j], -1], [piece_xs[i + 1], piece_ys[j + 1], top_z + 1]);
        }
}

module top_2d() {
    // a flat top sheet: outline and every hole through it (the light windows
    // open: glue frosted acrylic under them)
    difference() {
        square(plate);
        holes_2d();
        windows_2d();
        for (s = hood_screws) translate(s) circle(d = screw_d);
    }
}

module tile_coupon() {
    // turned over like a piece, the top face on the bed
    size = coupon_box[1] - coupon_box[0];
    translate([0, size[1], top_z]) rotate([180, 0, 0]) translate([-coupon_box[0][0], -coupon_box[0][1], 0]) top_plate();
}

// The faster route: the 4 mm sheet's counterbores from below, around every hole whose part needs a
// thinner panel (snap-in buttons: button_panel left), its opal acrylic, and the 18 mm strips it lies on
// where there is no acrylic.
mdf_counterbores = [for (f = features) if (f[2] > 0 && panel_at(f, mdf_t) < mdf_t) f];
module top_counterbore_2d() {
    for (f = mdf_counterbores) translate(f[1]) circle(d = counterbore_d(f));
}

module mdf_coupon_2d() {
    // one tile of the sheet with its own frame windows and a rim, moved to the origin
    difference() {
        square(coupon_box[1] - coupon_box[0]);
        translate(-coupon_box[0]) for (w = frame_windows(coupon_c)) translate(w[0]) square(w[1] - w[0]);
    }
}

module light_boxes() {
    // both light boxes side by side, upside down: their top edges on the bed, the strip's notches up
    translate([0, 0, rib_h]) rotate([180, 0, 0]) {
        translate([-bar_x0 + rib_t, -fy, 0]) light_box(bar_x0, timer_leds);
        translate([-turn_x0 + rib_t, -fy - box_in - 4 * rib_t - 5, 0]) light_box(turn_x0, turn_leds);
    }
}

// The faster route's grid chambers: foam board walls along the grid lines, slotted halfway where
// they cross (the long walls from the top, the short ones from the foot), each with a cable notch at
// the foot midway along every chamber side. [count, length, height, slots, notches] of each kind.
foam_t = 5;                 // 5 mm foam board
foam_walls = [[6, grid[0] + foam_t, rib_h, 6, 5], [6, grid[1] + foam_t, rib_h, 6, 5]];

acrylic_margin = 4;         // the acrylic runs this far past the grid's outer walls and the bar's light boxes
acrylic = [[[gx - acrylic_margin, gy - acrylic_margin], [gx + grid[0] + acrylic_margin, gy + grid[1] + acrylic_margin]],
           [[bar_x0 - rib_t - acrylic_margin, fy - box_in / 2 - rib_t - acrylic_margin],
            [turn_x0 + turn_len + rib_t + acrylic_margin, fy + box_in / 2 + rib_t + acrylic_margin]]];
// every edge screw goes through a strip, its whole hole and a millimetre round it clear of the acrylic
for (sc = edge_screws, a = acrylic)
    check(sc[0] < a[0][0] - screw_d / 2 - 1 || sc[0] > a[1][0] + screw_d / 2 + 1
          || sc[1] < a[0][1] - screw_d / 2 - 1 || sc[1] > a[1][1] + screw_d / 2 + 1,
          str("the edge screw at ", sc, " goes through the MDF route's acrylic, not a strip"));
// On the MDF route each pad lies between the sheet's card place and the acrylic (a third less between finger and pad
// than under the acrylic, buildkit/touch.py); its wire goes down through a hole in the acrylic under the pad's back
// left corner, where the card place hides it
pad_wire_hole = 4;
module acrylic_2d() {
    difference() {
        for (a = acrylic) translate(a[0]) square(a[1] - a[0]);
        for (r = [0:4], c = [0:4])
            translate(cell(r, c) + [-pad[0] / 2 + pad_wire_hole / 2, pad[1] / 2 - pad_wire_hole / 2]) circle(d = pad_wire_hole);
    }
}

strip_w_mdf = 18;           // the strips' width: 12 mm over the box's sides and 6 mm inside
// The MDF route's link from the last tile to the bar runs along its row's LEDs through the foam walls' notches
// to the chamber in front of the bar's left end, out through that chamber's front notch and across the front
// strip, which has a gap there, then behind the light box to its left end wall's strip channel.
strip_gap_x = gx + (floor((bar_x0 - gx) / pitch[0]) + 0.5) * pitch[0];
strip_gap = [[strip_gap_x - notch[0] / 2, acrylic[0][0][1] - strip_w_mdf - 1],
             [strip_gap_x + notch[0] / 2, acrylic[0][0][1] + 1]];
module strips_2d() {
    // around the edges, across the plate in front of and behind the grid's acrylic and along the
    // spymasters' buttons, clear of the acrylic, every button's nut and the cable slot
    module cut_back() {
        difference() {
            children();
            for (a = acrylic) translate(a[0] - [1, 1]) square(a[1] - a[0] + [2, 2]);
            for (f = features) translate(f[1]) circle(d = f[3]);
            translate(hood_slot[0]) square(hood_slot[1] - hood_slot[0]);
            for (s = hood_screws) translate(s) circle(d = 20);   // room for the hood's nuts and washers
            translate(strip_gap[0]) square(strip_gap[1] - strip_gap[0]);  // the link to the bar
        }
    }
    cut_back() union() {
        difference() { square(plate); translate([strip_w_mdf, strip_w_mdf]) square(plate - 2 * [strip_w_mdf, strip_w_mdf]); }
        for (y = [acrylic[0][0][1] - strip_w_mdf, acrylic[0][1][1]]) translate([0, y]) square([plate[0], strip_w_mdf]);
    }
    // along the spymasters' buttons, where the sheet is pressed 150 mm from the edge and the back strip (the printed
    // plate has a wall there): what is left between the buttons' nuts, less the slivers under 10 mm
    offset(r = 5) offset(delta = -5) cut_back() translate([strip_w_mdf, by - strip_w_mdf / 2]) square([plate[0] - 2 * strip_w_mdf, strip_w_mdf]);
}

// ------------------------------------------------------------------ LED board

module ledboard_2d() {
    difference() {
        square(plate);
        for (s = concat(edge_screws, bosses)) translate(s) circle(d = screw_d);
        if (hung) for (h = tb_mount) translate(h) circle(d = 2.7);  // the hung tile board's standoffs' screws
        for (r = [0:4], c = [0:4]) let(p = cell(r, c)) {
            translate(p) if (leds == "strand") circle(d = pixel_hole); else circle(d = 1.5, $fn = 8);  // LED mark or pixel hole
            translate(p + [-pitch[0] / 2 + rib_t + 6, pitch[1] / 2 - rib_t - 6]) circle(d = 5);  // pad wire
        }
        for (bar = [[bar_x0, timer_leds], [turn_x0, turn_leds]], i = [0:bar[1] - 1])
            translate([bar[0] + (i + 0.5) * led_pitch, fy]) circle(d = 1.5, $fn = 8);
        // the chain's data and power come up beside tile A1; with the strand power at E5 too and
        // past the last LED (the wire goes in under the light box's end wall)
        for (feed = ledboard_feeds()) translate(feed[1]) circle(d = feed[2]);
        for (f = features) translate(f[1]) circle(d = f[2] > 0 ? f[2] + 4 : 6);
        translate(hood_slot[0]) square(hood_slot[1] - hood_slot[0]);
    }
}

// [tile or LED, [x, y], hole diameter]: where 5 V (and at A1 the data) come up through the LED board
function ledboard_feeds() = concat(
    [for (t = leds == "strand" ? strand_feed_tiles : feed_tiles) [str(chr(65 + t[0]), t[1] + 1), cell(t[0], t[1]) + [-20, 0], 8]],
    leds == "strand" ? [["strip end", [turn_x0 + turn_len + 5, fy], 5]] : []);

// ------------------------------------------------------------------ box

module floor_2d() {
    difference() {
        square(plate);
        for (s = floor_screws) translate(s) circle(d = screw_d);
        for (h = concat(pi_mount, hung ? [] : tb_mount)) translate(h) circle(d = 2.7);
        if (hung) translate(hatch[0]) square(hatch[1] - hatch[0]);  // the hatch: its cover is the piece cut out
        for (i = [-2:2]) translate(pi_c + [i * 12 - 3, -20]) square([6, 40]);  // vents under the Pi
    }
}

module back_2d() {
    // the back wall seen from outside (x mirrored: from behind the spymasters' seats), its top at the LED board
    difference() {
        square([plate[0], box_h - floor_t]);  // the plank: the floor is screwed under it
        for (e = entries) translate([plate[0] - e[1][0], e[1][2] + ledboard_t + box_h - floor_t]) circle(d = e[2]);
    }
}

module ledboard() {
    color("BurlyWood") translate([0, 0, -ledboard_t]) linear_extrude(ledboard_t, convexity = 10) ledboard_2d();
}

// ------------------------------------------------------------------ hood

function slab(p, q, normal, t) = [p, q, q + t * normal, p + t * normal];

module hood_profile_body() {
    n_face = [-sin(hood_tilt), -cos(hood_tilt)];   // inwards from the face
    n_roof = [cos(45), -sin(45)];                  // down from the roof
    polygon(slab(hood_A, hood_B, n_face, hood_wall));
    polygon(slab(hood_C, hood_E, n_roof, hood_wall));
    polygon([[-hood_wall, 0], [0, 0], [0, hood_lift + eps], [-hood_wall, hood_lift + eps]]);
    polygon([[hood_back, 0], [hood_back + hood_wall, 0], [hood_back + hood_wall, hood_C[1]], [hood_back, hood_C[1]]]);
}

module hood_cheek_profile() {
    polygon([[hood_back, 0], [hood_front, 0], hood_E, hood_C]);
}

module on_face() {
    // local frame: x across, y up the face from its foot, z into the hood
    translate([0, hood_A[0], hood_A[1]]) rotate([180 - hood_tilt, 0, 0]) children();
}

module hood() {
    difference() {
        union() {
            translate([-face_w / 2, 0, 0]) rotate([90, 0, 90]) linear_extrude(face_w, convexity = 10) hood_profile_body();
            for (side = [-1, 1]) translate([side > 0 ? face_w / 2 - hood_wall : -face_w / 2, 0, 0])
                rotate([90, 0, 90]) linear_extrude(hood_wall, convexity = 4) hood_cheek_profile();
            // screw tabs
            for (side = [-1, 1], y = [hood_back + 8, hood_front - 8])
                translate([side > 0 ? face_w / 2 - eps : -face_w / 2 - hood_tab + eps, y - 7, 0]) cube([hood_tab, 14, hood_tab_t]);
        }
        on_face() {
            translate([-view_size[0] / 2, face_len / 2 - view_size[1] / 2, -1]) cube([view_size[0], view_size[1], hood_wall + 2]);
            // a rabbet for the module from inside
            translate([-module_size[0] / 2 - 0.3, face_len / 2 - module_size[1] / 2 - 0.3, hood_wall - 1])
                cube([module_size[0] + 0.6, module_size[1] + 0.6, 2]);
            if (module_holes[0] > 0) for (sx = [-1, 1], sy = [-1, 1])
                translate([sx * module_holes[0] / 2, face_len / 2 + sy * module_holes[1] / 2, -1]) cylinder(d = 2.8, h = hood_wall + 2);
        }
        for (side = [-1, 1], y = [hood_back + 8, hood_front - 8])
            translate([side * (face_w / 2 + hood_tab / 2), y, -1]) cylinder(d = screw_d, h = 5);
    }
}

// ------------------------------------------------------------------ assembly

module cards() {
    colours = ["Crimson", "RoyalBlue", "Wheat", "Crimson", "Wheat"];
    for (r = [0:4], c = [0:4]) let(p = cell(r, c)) {
        color("Ivory") translate([p[0] - card[0] / 2, p[1] - card[1] / 2, top_z - recess_depth + eps]) cube([card[0], card[1], 0.4]);
        // the glowing frame around each revealed card
        if ((r + 2 * c) % 3 == 0) color(colours[(r + c) % 5]) for (w = frame_windows(p)) box([w[0][0], w[0][1], top_z], [w[1][0], w[1][1], top_z + 0.05]);
    }
    // the sand timer half run, red's turn
    for (bar = [[bar_x0, timer_leds, "LimeGreen"], [turn_x0, turn_leds, "Crimson"]], i = [0:bar[1] - 1])
        if (bar[2] != "LimeGreen" || i < bar[1] / 2)
            color(bar[2]) translate([bar[0] + i * led_pitch + rib_t / 2, fy - window_w / 2, top_z]) cube([led_pitch - rib_t, window_w, 0.05]);
}

module table() {
    color("WhiteSmoke") top_plate();
    ledboard();
    translate([hx, hy, top_z]) {
        color("DimGray") hood();
        // the display behind the hood's window
        color("Black") on_face() translate([-module_size[0] / 2, face_len / 2 - module_size[1] / 2, hood_wall - 1])
            cube([module_size[0], module_size[1], 3]);
        on_face() translate([0, face_len / 2, hood_wall - 1.1]) display_key();
    }
    if (show_cards) cards();
    buttons();
    // the box: four plywood sides and a floor (not part of any print)
    % translate([0, 0, -ledboard_t - box_h]) difference() {
        cube([plate[0], plate[1], box_h]);
        translate([box_wall, box_wall, floor_t]) cube([plate[0] - 2 * box_wall, plate[1] - 2 * box_wall, box_h]);
        for (e = entries) translate([e[1][0], plate[1] + 1, e[1][2] + ledboard_t + box_h]) rotate([90, 0, 0]) cylinder(d = e[2], h = box_wall + 2);
    }
    // the Pi on its standoffs
    color("Green") translate([pi_c[0] - pi_size[0] / 2, pi_c[1] - pi_size[1] / 2, pi_z]) cube([pi_size[0], pi_size[1], 1.6]);
    tile_board();
}

// a key as the spymasters' display shows it: 9 red, 8 blue, 7 bystanders, the assassin (a made-up deal)
module display_key() {
    key = "BNRNNBRABRBRNRBNBRNRRNBRB";
    cell = min(module_size[0], module_size[1]) * 0.8 / 5;
    for (i = [0:24]) color(key[i] == "R" ? "Crimson" : key[i] == "B" ? "RoyalBlue" : key[i] == "N" ? "Wheat" : "DimGray")
        translate([(i % 5 - 2.5) * cell + 0.5, (floor(i / 5) - 2.5) * cell + 0.5, 0]) cube([cell - 1, cell - 1, 0.1]);
}

// the buttons' caps in their holes (the SAND TIMER the big one) and the status LED's lens; only: just these
module buttons(only = undef) {
    for (f = features) if (f[2] > 0 && (is_undef(only) || len([for (o = only) if (o == f[0]) o]) > 0))
        color(f[0] == "SAND TIMER" ? "Gold" : f[0] == "status LED" ? "LimeGreen" : "Crimson")
            translate([f[1][0], f[1][1], top_z]) cylinder(d = f[0] == "status LED" ? f[2] : f[2] + 2, h = f[0] == "SAND TIMER" ? 14 : f[0] == "status LED" ? 3 : 8);
}

module tile_board() {
    // the perfboard on its standoffs: the Pico at the end towards the Pi, the three MPR121 breakouts,
    // the capacitor standing (buildkit/electrical.py gives every part's height)
    // hung: turned over across its width (parts down), its top at the board's underside
    translate([tb_c[0] - tile_board[0] / 2, tb_c[1] - tile_board[1] / 2, tb_z])
    translate(hung ? [tile_board[0], 0, 0] : [0, 0, 0]) mirror(hung ? [1, 0, 0] : [0, 0, 0]) mirror(hung ? [0, 0, 1] : [0, 0, 0])
    translate(hung ? [0, 0, -1.6] : [0, 0, 0]) {
        color("DarkOliveGreen") cube([tile_board[0], tile_board[1], 1.6]);
        color("Black") translate([tile_board[0] / 2 + pico_usb[0] - 10.5, tile_board[1] - pico_usb[1] - 1.3 - 51, 1.6]) cube([21, 51, 12]);
        for (m = tile_board_mpr121) color("Indigo") translate([m[0], m[1], 1.6]) cube([mpr121_body[0], mpr121_body[1], 12]);
        color("SteelBlue") translate([17, 11.7, 1.6]) cylinder(d = 10, h = 16);  // the 1000 µF, standing at its holes (Y42, Y44)
    }
    for (h = tb_mount) color("Gold") translate([h[0], h[1], hung ? -ledboard_t - hang : floor_z]) cylinder(d = 5, h = hung ? hang : tile_board_standoff);
    // the Pico's USB plug, pointing at the Pi
    color("Silver") translate([pico_usb_at[0] - 5, pico_usb_at[1], pico_usb_at[2] - 4]) cube([10, pico_plug[0], 8]);
}


if (part == "all") {
    table();
} else if (part == "top") {
    top_plate();
} else if (part == "top_piece") {
    top_piece(piece[0], piece[1]);
} else if (part == "tile_coupon") {
    tile_coupon();
} else if (part == "top_counterbore_2d") {
    top_counterbore_2d();
} else if (part == "acrylic_2d") {
    acrylic_2d();
} else if (part == "strips_2d") {
    strips_2d();
} else if (part == "hood") {
    hood();
} else if (part == "ledboard") {
    ledboard();
} else if (part == "ledboard_2d") {
    ledboard_2d();
} else if (part == "top_2d") {
    top_2d();
} else if (part == "mdf_coupon_2d") {
    mdf_coupon_2d();
} else if (part == "light_boxes") {
    light_boxes();
} else if (part == "floor_2d") {
    floor_2d();
} else if (part == "back_2d") {
    back_2d();
} else if (part == "step") {
    step_view(step);
} else {
    echo(str("WARNING: unknown part \"", part, "\": all, top, top_piece, tile_coupon, hood, ledboard, ledboard_2d, top_2d, top_counterbore_2d, acrylic_2d, strips_2d, mdf_coupon_2d, light_boxes, floor_2d, back_2d, step"));
}

include <steps.scad>
