// The build guide's step pictures (hardware/README.md, "The build, step by step"): what each step should look
// like, drawn from the model. Included by enclosure.scad; `part = "step"` with `step = N` shows one, and
// `python host/buildkit hardware --steps` renders them all into hardware/steps/. Only a picture: nothing here
// is printed or cut, and the LEDs, pads, buttons and wires are drawn as simple shapes where the model has none.

// the chain's tiles in order (rows snake: A left to right, B back, ...), as wiring/README.md's "LED chain"
chain_cells = [for (r = [0:4], k = [0:4]) cell(r, r % 2 == 0 ? k : 4 - k)];
strip_leds = concat([for (i = [0:timer_leds - 1]) [bar_x0 + (i + 0.5) * led_pitch, fy]],
                    [for (i = [0:turn_leds - 1]) [turn_x0 + (i + 0.5) * led_pitch, fy]]);
label = [70, 37];

module wire(p, q, d = 1.6) { hull() { translate(p) sphere(d = d, $fn = 8); translate(q) sphere(d = d, $fn = 8); } }

// turned over as it lies for steps 8-11: the plate's top face down on the box frame
module flipped() { translate([0, plate[1], top_z]) rotate([180, 0, 0]) children(); }

module pad_labels() {
    for (r = [0:4], c = [0:4]) let(p = cell(r, c), corner = p + [-pad[0] / 2 + 3, pad[1] / 2 - 3]) {
        color("White") translate([p[0] - label[0] / 2, p[1] - label[1] / 2, rib_h - 0.4]) cube([label[0], label[1], 0.3]);
        color("Orange") translate([p[0] - pad[0] / 2, p[1] - pad[1] / 2, rib_h - 0.2]) cube([pad[0], pad[1], 0.1]);
        // its wire from the wired corner, hanging loose until step 10
        color("Blue") wire([corner[0], corner[1], rib_h - 0.5], [corner[0] - 4, corner[1] + 4, rib_h - 40]);
    }
}

// wires: true draws the wires step 9 solders on, hanging free until step 10 threads them (red signal, black grounds)
module under_plate_parts(wires = false) {
    for (f = features) {
        if (f[0] == "SAND TIMER") color("Gold") translate([f[1][0], f[1][1], top_z - big_button_depth]) cylinder(d = 40, h = big_button_depth - plate_t);
        if (f[0] == "status LED") {
            color("Lime") translate([f[1][0], f[1][1], top_z - status_led_depth]) cylinder(d = 10, h = status_led_depth - plate_t);
            if (wires) for (w = [["Red", 0], ["Black", 4], ["Black", -4]])
                color(w[0]) wire([f[1][0] + w[1], f[1][1], top_z - status_led_depth], [f[1][0] + 3 * w[1], f[1][1] - 12, top_z - status_led_depth - 45], 2);
        }
        if (f[0] == "buzzer") {
            color("DeepSkyBlue") translate([f[1][0], f[1][1], rib_h - buzzer_size[1]]) cylinder(d = buzzer_size[0] + 2, h = buzzer_size[1]);
            if (wires) for (w = [["Red", 3], ["White", -3]])
                color(w[0]) wire([f[1][0] + w[1], f[1][1], rib_h - buzzer_size[1]], [f[1][0] + 3 * w[1], f[1][1] - 12, rib_h - buzzer_size[1] - 45], 2.5);
        }
    }
}

module led_boards() {
    for (p = chain_cells) color("Black") translate([p[0], p[1], 0]) cylinder(d = 10, h = 1.6);
    for (p = strip_leds) color("Black") translate([p[0] - led_pitch / 2 + 0.5, p[1] - strip_w / 2, 0]) cube([led_pitch - 1, strip_w, 1]);
    // the links, straight from LED to LED across a wall's notch; along a strip piece its copper carries the chain
    // (drawn 2 mm thick: a pixel or more in the picture)
    for (i = [0:len(chain_cells) - 2]) color("Red") wire([chain_cells[i][0], chain_cells[i][1], 1.5], [chain_cells[i + 1][0], chain_cells[i + 1][1], 1.5], 2);
    color("Red") wire([strip_leds[timer_leds - 1][0], fy, 1.5], [strip_leds[timer_leds][0], fy, 1.5], 2);
    // the last tile's link to the bar (highlighted): out of its chamber at the front, left between the grid and the
    // light boxes through the walls' notches, into the bar's light box through its left end wall
    last = chain_cells[len(chain_cells) - 1];
    route = [last, [last[0], (gy + fy + strip_w / 2) / 2], [bar_x0 - 8, (gy + fy + strip_w / 2) / 2], [bar_x0 - 8, fy], strip_leds[0]];
    for (i = [0:len(route) - 2]) color("Yellow") wire([route[i][0], route[i][1], 1.5], [route[i + 1][0], route[i + 1][1], 1.5], 2.4);
}

// the tile board riding on the LED board's back (steps 10-14), between row A's pad holes and the display slot
tb_ride = [hx, (gy + grid[1] + hood_slot[0][1]) / 2];
module riding_tile_board() {
    translate([tb_ride[0] - tile_board[1] / 2, tb_ride[1] - tile_board[0] / 2, -ledboard_t - 1.6]) {
        color("DarkOliveGreen") cube([tile_board[1], tile_board[0], 1.6]);
        color("Indigo") for (i = [0:2]) translate([8 + i * 38, 8, -12]) cube([30, 20, 12]);
        color("Black") translate([8, 40, -12]) cube([51, 21, 12]);
    }
}

// the hatch's two strips across its short edges, half over it, standing on z: its cover rests on them
module hatch_strips(z) {
    color("Peru") for (y = [hatch[0][1], hatch[1][1]])
        translate([hatch[0][0] - 20, y - hatch_strip[0] / 2, z]) cube([hatch[1][0] - hatch[0][0] + 40, hatch_strip[0], hatch_strip[1]]);
}

module step_view(n) {
    if (n == 3) color("WhiteSmoke") tile_coupon();
    else if (n == 4) color("WhiteSmoke") flipped() top_plate();
    else if (n == 5) ledboard();
    else if (n == 6) {
        color("Tan") translate([0, 0, -ledboard_t - box_h]) difference() {
            cube([plate[0], plate[1], box_h]);
            translate([box_wall, box_wall, -1]) cube([plate[0] - 2 * box_wall, plate[1] - 2 * box_wall, box_h + 2]);
            for (e = entries) translate([e[1][0], plate[1] + 1, e[1][2] + ledboard_t + box_h]) rotate([90, 0, 0]) cylinder(d = e[2], h = box_wall + 2);
        }
        color("BurlyWood") translate([0, 0, floor_z - floor_t]) linear_extrude(floor_t) floor_2d();
        color("Green") translate([pi_c[0] - pi_size[0] / 2, pi_c[1] - pi_size[1] / 2, pi_z]) cube([pi_size[0], pi_size[1], 1.6]);
        // which way round: the USB-A sockets at its end towards the operatives' left, its USB-C on the back wall's side
        color("Silver") for (y = [-18, 0, 18]) translate([pi_c[0] - pi_size[0] / 2 - 2, pi_c[1] + y - 7, pi_z + 1.6]) cube([20, 14, 15]);
        color("Silver") translate([pi_c[0] + pi_size[0] / 2 - 14.7 - 4.5, pi_c[1] + pi_size[1] / 2 - 6, pi_z + 1.6]) cube([9, 7.5, 3.2]);
        // the sockets in the back wall and the lever connectors beside the jack (away from the USB-C socket)
        for (e = entries) color(e[0] == "USB-C" ? "Silver" : "Black") translate([e[1][0], plate[1] - box_wall - 6, e[1][2]]) rotate([-90, 0, 0]) cylinder(d = e[2] + 6, h = 6);
        color("Orange") for (i = [0:2]) translate([entries[1][1][0] - 40 - i * 22, plate[1] - box_wall - 8, -ledboard_t - box_h / 2 - 10]) cube([20, 8, 20]);
        if (hung) hatch_strips(floor_z);
        else tile_board();
    }
    else if (n == 7) {
        ledboard();
        led_boards();
        // the J13 cable from A1's input pads down its feed hole (red 5 V, green data, black GND)
        feed = ledboard_feeds()[0][1];
        for (w = [["Red", 2.5], ["Green", 0], ["Black", -2.5]]) color(w[0]) wire([chain_cells[0][0], chain_cells[0][1] + w[1], 1.5], [feed[0], feed[1] + w[1], 1.5], 2);
        // the tile board's four standoffs' screws, down through their holes from the top (highlighted)
        if (hung) for (h = tb_mount) color("OrangeRed") translate([h[0], h[1], 0]) cylinder(d = 7, h = 2);
    }
    else if (n == 8) flipped() { color("DarkGray") top_plate(); pad_labels(); }  // grey: the white labels show on it
    else if (n == 9) flipped() { color("DarkGray") top_plate(); under_plate_parts(wires = true); }
    else if (n == 10 || n == 11) flipped() {
        color("WhiteSmoke") top_plate();
        under_plate_parts();
        ledboard();
        if (hung) tile_board(); else riding_tile_board();
        // step 10: each pad wire up through its hole to the tile board (row A along its edge at column 1's side);
        // step 11: the six screws into the bosses
        if (n == 10) for (r = [0:4], c = [0:4]) let(h = cell(r, c) + [-pitch[0] / 2 + rib_t + 6, pitch[1] / 2 - rib_t - 6])
            color("Blue") wire([h[0], h[1], -ledboard_t - 1], hung
                ? [tb_c[0] - tile_board[0] / 2 + 3, tb_c[1] + tile_board[1] / 2 - 10 - 4 * (5 * r + c), tb_z]
                : [tb_ride[0] - 50 + 4 * (5 * r + c), tb_ride[1] - tile_board[0] / 2 + 3, -ledboard_t - 3]);
        if (n == 11) for (b = bosses) color("OrangeRed") {
            translate([b[0], b[1], -ledboard_t - 3]) cylinder(d = 12, h = 3);  // the screw heads, highlighted
            translate([b[0], b[1], -ledboard_t - 40]) cylinder(d1 = 14, d2 = 0, h = 30);  // an arrow down onto each
        }
    }
    else if (n == 12 || n == 13) {
        color("WhiteSmoke") top_plate();
        ledboard();
        translate([hx, hy, top_z]) {
            color("DimGray") hood();
            color("Black") on_face() translate([-module_size[0] / 2, face_len / 2 - module_size[1] / 2, hood_wall - 1])
                cube([module_size[0], module_size[1], 3]);
        }
        if (n == 12) buttons(["SAND TIMER", "status LED"]);  // fitted in step 9
        if (n == 13) {
            color("Tan") translate([0, 0, -ledboard_t - box_h]) difference() {
                cube([plate[0], plate[1], box_h]);
                translate([box_wall, box_wall, -1]) cube([plate[0] - 2 * box_wall, plate[1] - 2 * box_wall, box_h + 2]);
            }
            buttons();
            for (s = edge_screws) color("DimGray") translate([s[0], s[1], top_z]) cylinder(d = screw_head_d, h = 0.3);
        }
    }
    else if (n == 16) {
        color("BurlyWood") linear_extrude(floor_t) floor_2d();
        // the eight screws up through the floor into the sides (highlighted: the sides stand over them)
        for (s = floor_screws) color("OrangeRed") translate(s) cylinder(d = 2 * edge_in - 1, h = floor_t + 1, $fn = 16);
        if (hung) {  // the hatch's cover in it under its two strips, a screw up into each
            color("Tan") translate(hatch[0]) cube([hatch[1][0] - hatch[0][0], hatch[1][1] - hatch[0][1], floor_t]);
            hatch_strips(floor_t);
            for (y = [hatch[0][1], hatch[1][1]])  // the screws drawn through their strip, so the picture shows them
                color("OrangeRed") translate([(hatch[0][0] + hatch[1][0]) / 2, y + (y == hatch[0][1] ? 5 : -5), 0]) cylinder(d = 8, h = floor_t + hatch_strip[1] + 1, $fn = 16);
        }
        for (x = [20, plate[0] - 20], y = [20, plate[1] - 20]) color("Black") translate([x, y, -3]) cylinder(d = 20, h = 3);
    }
}
