// Display of the simulation state: ink (bilinear), solids and walls, and the teaching overlays
// (divergence tint, pressure colour map, velocity arrows on MAC edges and at cell centres).
// A full-screen triangle drawn into a viewport that keeps the grid's aspect ratio.
// Output is gamma-encoded for a non-sRGB target (the window surface and headless renders).

// Keep in sync with `RenderParams` in src/render/mod.rs.
struct RenderParams {
    nx: u32,
    ny: u32,
    // the overlays' bits, which the pipeline is built for (FLAGS below); the shader reads FLAGS
    flags: u32,
    // bit per wall side: 1 left, 2 right, 4 bottom, 8 top
    walls: u32,
    // rgb: the colour where there is no ink; a: its opacity (below 1 the output is premultiplied
    // and what lies under the window shows through)
    background: vec4<f32>,
    // x: divergence range, y: pressure range (|p| at full colour), z: spacing of the cell arrows
    // (cells, at least 1: src/render turns the screen spacing into cells), w: arrow scale (cells
    // per m/s)
    ranges: vec4<f32>,
    // x: pixels per cell on screen, y: cell size (metres), z: dye grid scale k (ink is k nx × k ny),
    // w: opacity of the divergence and pressure tints over the ink
    view: vec4<f32>,
    // the part of the grid the field image shows, in uv (0..1, y up): origin xy, size zw (all of
    // it unless the field reaches past the window: src/render `Viewport::clipped`)
    window: vec4<f32>,
    // x: curl range (|ω| at full tint, 1/s); y: streamline seed spacing (cells); z: streamline
    // segments (shaders/marks.wgsl); w: target pixels a screen pixel (0 reads as 1)
    tints: vec4<f32>,
}

// The overlay flag bits (SHOW_INK, SHOW_DIVERGENCE, DIVERGENCE_AFTER, SHOW_PRESSURE, ARROWS_MAC,
// ARROWS_CENTRE, GRID_LINES, SHADING, ARROW_SPEED_COLOUR, SHOW_CURL), DYE_PIXELS (an image of one pixel a dye
// cell) and ARROW_CAP are put in front of this file at load from src/render/mod.rs `flags`.

// The overlays shown, compiled in: one pipeline per combination (src/render/mod.rs `Renderer`).
// A CPU adapter runs both sides of a branch on a uniform value under a mask, so with the bits in
// the uniform every pixel paid for every overlay and for the shading's four extra ink samples:
// the default plume's 256 x 256 field image took about 14 ms on lavapipe, 3.5 ms built this way.
override FLAGS: u32 = 0u;
fn shown(bit: u32) -> bool { return (FLAGS & bit) != 0u; }

@group(0) @binding(0) var<uniform> rp: RenderParams;
@group(0) @binding(1) var<storage, read> u: array<f32>;
@group(0) @binding(2) var<storage, read> v: array<f32>;
@group(0) @binding(3) var<storage, read> p: array<f32>;
@group(0) @binding(4) var<storage, read> divergence: array<f32>;
@group(0) @binding(5) var<storage, read> ink: array<f32>;
@group(0) @binding(6) var<storage, read> solid: array<f32>;

struct VsOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) k: u32) -> VsOut {
    let xy = vec2<f32>(f32((k << 1u) & 2u), f32(k & 2u));
    var out: VsOut;
    out.pos = vec4<f32>(xy * 2.0 - 1.0, 0.0, 1.0);
    // uv.y grows upward, like the grid's y
    out.uv = xy;
    return out;
}

fn nxi() -> i32 { return i32(rp.nx); }
fn nyi() -> i32 { return i32(rp.ny); }
fn cell(i: i32, j: i32) -> u32 { return u32(clamp(j, 0, nyi() - 1) * nxi() + clamp(i, 0, nxi() - 1)); }
fn u_at(i: i32, j: i32) -> f32 { return u[u32(clamp(j, 0, nyi() - 1) * (nxi() + 1) + clamp(i, 0, nxi()))]; }
fn v_at(i: i32, j: i32) -> f32 { return v[u32(clamp(j, 0, nyi()) * nxi() + clamp(i, 0, nxi() - 1))]; }
fn dye_k() -> i32 { return max(i32(rp.view.z), 1); }
// Ink of dye cell (a, b), clamped to the dye grid.
fn ink_at(a: i32, b: i32) -> vec3<f32> {
    let w = nxi() * dye_k();
    let c = u32(clamp(b, 0, nyi() * dye_k() - 1) * w + clamp(a, 0, w - 1));
    return vec3<f32>(ink[3u * c], ink[3u * c + 1u], ink[3u * c + 2u]);
}

// Bilinear ink between dye cell centres (g in flow cell units, origin at the domain's lower-left
// corner).
fn ink_bilinear(g: vec2<f32>) -> vec3<f32> {
    let q = g * f32(dye_k()) - 0.5;
    let b = floor(q);
    let f = q - b;
    let i = i32(b.x);
    let j = i32(b.y);
    let a = mix(ink_at(i, j), ink_at(i + 1, j), f.x);
    let c = mix(ink_at(i, j + 1), ink_at(i + 1, j + 1), f.x);
    return mix(a, c, f.y);
}

fn divergence_now(i: i32, j: i32) -> f32 {
    return (u_at(i + 1, j) - u_at(i, j) + v_at(i, j + 1) - v_at(i, j)) / rp.view.y;
}

// ω = ∂v/∂x − ∂u/∂y of cell (i, j): the mean of the curls at its four corners, where the MAC
// edges give it compactly (src/render/curl.rs `corner_curl`; faces beyond the domain clamp to the
// nearest). The faces the corners share cancel in the sum: eight reads, not sixteen (a CPU
// adapter's cost is its storage reads; CPU twin: `cell_curl`).
fn curl_at(i: i32, j: i32) -> f32 {
    let dv = v_at(i + 1, j) + v_at(i + 1, j + 1) - v_at(i - 1, j) - v_at(i - 1, j + 1);
    let du = u_at(i, j + 1) + u_at(i + 1, j + 1) - u_at(i, j - 1) - u_at(i + 1, j - 1);
    return (dv - du) / (4.0 * rp.view.y);
}

// Distance from point q to segment a-b.
fn seg_dist(q: vec2<f32>, a: vec2<f32>, b: vec2<f32>) -> f32 {
    let ab = b - a;
    let t = clamp(dot(q - a, ab) / max(dot(ab, ab), 1e-12), 0.0, 1.0);
    return length(q - a - ab * t);
}

// Distance to an arrow centred at c with direction-and-length d (cell units), head included; `px`
// is one screen pixel in cell units, so heads stay visible however small the cells are.
fn arrow_dist(q: vec2<f32>, c: vec2<f32>, d: vec2<f32>, px: f32) -> f32 {
    let len = length(d);
    // no arrow shorter than 1.5 screen pixels: a dot would read as a value, and has no head
    if len < 1.5 * px { return 1e9; }
    let a = c - 0.5 * d;
    let b = c + 0.5 * d;
    let dir = d / len;
    let side = vec2<f32>(-dir.y, dir.x);
    let head = min(max(0.3 * len, 5.0 * px), 0.5 * len);
    let h1 = b - dir * head + side * head * 0.6;
    let h2 = b - dir * head - side * head * 0.6;
    return min(seg_dist(q, a, b), min(seg_dist(q, b, h1), seg_dist(q, b, h2)));
}

// An arrow's extent for a velocity: `scale` cells per m/s, in proportion to the speed (no floor,
// which made every slow arrow one length), at most `cap` cells.
fn arrow_vector(vel: vec2<f32>, cap: f32) -> vec2<f32> {
    let speed = length(vel);
    if speed < 1e-9 { return vec2<f32>(0.0); }
    return vel / speed * min(speed * rp.ranges.w, cap);
}

// The velocity at point q (cell units) from the two staggered lattices, each bilinear on its own
// (u at (i, j + 1/2), v at (i + 1/2, j)).
fn velocity_at(q: vec2<f32>) -> vec2<f32> {
    let qu = q - vec2<f32>(0.0, 0.5);
    let bu = floor(qu);
    let fu = qu - bu;
    let iu = i32(bu.x);
    let ju = i32(bu.y);
    let u0 = mix(u_at(iu, ju), u_at(iu + 1, ju), fu.x);
    let u1 = mix(u_at(iu, ju + 1), u_at(iu + 1, ju + 1), fu.x);
    let qv = q - vec2<f32>(0.5, 0.0);
    let bv = floor(qv);
    let fv = qv - bv;
    let iv = i32(bv.x);
    let jv = i32(bv.y);
    let v0 = mix(v_at(iv, jv), v_at(iv + 1, jv), fv.x);
    let v1 = mix(v_at(iv, jv + 1), v_at(iv + 1, jv + 1), fv.x);
    return vec2<f32>(mix(u0, u1, fu.y), mix(v0, v1, fv.y));
}

// Arrow colour by speed, t = length / cap in [0, 1]: deep blue (slow) through teal to yellow.
fn speed_colour(t: f32) -> vec3<f32> {
    let slow = vec3<f32>(0.25, 0.35, 1.0);
    let mid = vec3<f32>(0.1, 0.85, 0.7);
    let fast = vec3<f32>(1.0, 0.92, 0.3);
    if t < 0.5 { return mix(slow, mid, t * 2.0); }
    return mix(mid, fast, t * 2.0 - 1.0);
}

// Draws an arrow with a dark outline, so it reads over bright ink and dark background alike.
fn over_arrow(col: vec3<f32>, dist: f32, width: f32, colour: vec3<f32>) -> vec3<f32> {
    if dist < width { return colour; }
    if dist < width + 1.2 * width { return mix(col, vec3<f32>(0.0), 0.7); }
    return col;
}

// How strongly a tint covers the ink at t = value / range: the square root of |t|, so a tenth of
// the range still shows at a third of full strength (linear, the many small values of a fine
// grid vanished beside a few large ones).
fn tint_weight(t: f32) -> f32 {
    return sqrt(clamp(abs(t), 0.0, 1.0));
}

// Blue-white-red diverging map, t in [-1, 1].
fn diverging(t: f32) -> vec3<f32> {
    let blue = vec3<f32>(0.13, 0.32, 0.85);
    let red = vec3<f32>(0.85, 0.15, 0.12);
    let white = vec3<f32>(0.96, 0.96, 0.96);
    if t < 0.0 { return mix(white, blue, clamp(-t, 0.0, 1.0)); }
    return mix(white, red, clamp(t, 0.0, 1.0));
}

// The ink's optical depth at g; with shading, lit from the upper left by its gradient, as if the
// dye were a thin relief (display only).
fn ink_colour(g: vec2<f32>, bg: vec3<f32>, shaded: bool) -> vec3<f32> {
    var k: vec3<f32>;
    if shown(DYE_PIXELS) {
        // g is a dye cell's centre, where the blend's weights are 1 and 0: that cell alone
        let d = floor(g * f32(dye_k()));
        k = ink_at(i32(d.x), i32(d.y));
    } else {
        k = ink_bilinear(g);
    }
    k = max(k, vec3<f32>(0.0));
    // ink as optical depth: saturates smoothly instead of clipping
    var col = bg + (vec3<f32>(1.0) - bg) * (vec3<f32>(1.0) - exp(-k));
    if shaded {
        let e = 0.5 / f32(dye_k());
        let dx = dot(ink_bilinear(g + vec2<f32>(e, 0.0)) - ink_bilinear(g - vec2<f32>(e, 0.0)), vec3<f32>(1.0));
        let dy = dot(ink_bilinear(g + vec2<f32>(0.0, e)) - ink_bilinear(g - vec2<f32>(0.0, e)), vec3<f32>(1.0));
        let n = normalize(vec3<f32>(-dx, -dy, 0.35));
        let light = clamp(dot(n, normalize(vec3<f32>(-0.5, 0.6, 0.62))), 0.0, 1.0);
        col = col * (0.55 + 0.6 * light);
    }
    return col;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    return shade(in.uv);
}

// The field image of the window (src/render/cached.rs) by a compute pass instead: the same colour
// at each pixel's centre. On lavapipe a fragment shader that reads storage buffers cost about 15 ms
// a draw whatever the image's size (8 x 8 pixels as much as 256 x 256), as much as the step;
// a compute pass reads them as the simulation's own passes do.
@group(1) @binding(0) var image: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(image);
    if id.x >= size.x || id.y >= size.y { return; }
    // the fragment path's uv at the pixel's centre: x across, y up from the bottom row
    let uv = vec2<f32>((f32(id.x) + 0.5) / f32(size.x), 1.0 - (f32(id.y) + 0.5) / f32(size.y));
    textureStore(image, vec2<i32>(id.xy), shade(rp.window.xy + uv * rp.window.zw));
}

// The colour at uv (0..1 over the grid, y up).
fn shade(uv: vec2<f32>) -> vec4<f32> {
    let g = uv * vec2<f32>(f32(rp.nx), f32(rp.ny));
    let i = clamp(i32(floor(g.x)), 0, nxi() - 1);
    let j = clamp(i32(floor(g.y)), 0, nyi() - 1);
    let px = 1.0 / max(rp.view.x, 1e-3); // one screen pixel in cell units
    // a see-through background is premultiplied: at opacity 0 the picture is the ink over black
    let bg_alpha = clamp(rp.background.a, 0.0, 1.0);
    let bg = rp.background.rgb * bg_alpha;
    var col = bg;
    if shown(SHOW_INK) { col = ink_colour(g, bg, shown(SHADING)); }
    // tints go over the ink at the chosen opacity, so the ink still shows through
    let opacity = clamp(rp.view.w, 0.0, 1.0);
    if shown(SHOW_PRESSURE) {
        // blue (low) or red (high) with an opacity growing with |p|: zero pressure shows the ink
        let t = clamp(p[cell(i, j)] / max(rp.ranges.y, 1e-20), -1.0, 1.0);
        col = mix(col, diverging(sign(t)), tint_weight(t) * opacity);
    }
    if shown(SHOW_DIVERGENCE) {
        var d = divergence[cell(i, j)];
        if shown(DIVERGENCE_AFTER) { d = divergence_now(i, j); }
        let t = tint_weight(d / max(rp.ranges.x, 1e-20));
        var tint = vec3<f32>(0.95, 0.35, 0.1);
        if d < 0.0 { tint = vec3<f32>(0.1, 0.55, 0.95); }
        col = mix(col, tint, t * opacity);
    }
    if shown(SHOW_CURL) {
        // counter-clockwise (ω > 0) purple, clockwise green (src/render/overlays.rs `curl_tint`)
        let w = curl_at(i, j);
        let t = tint_weight(w / max(rp.tints.x, 1e-20));
        var tint = vec3<f32>(0.62, 0.2, 0.85);
        if w < 0.0 { tint = vec3<f32>(0.15, 0.75, 0.3); }
        col = mix(col, tint, t * opacity);
    }
    let solid_here = solid[cell(i, j)] > 0.5;
    if solid_here { col = vec3<f32>(0.35, 0.37, 0.41); }
    // src/render offers grid lines only at GRID_MIN_PIXELS or more a cell, and the window then
    // draws its image at the screen's resolution (src/render/cached.rs): a line one pixel wide,
    // the pixel just above and right of each cell edge (both sides made them two pixels wide,
    // and a coarser image turned them into dots)
    if shown(GRID_LINES) {
        let e = fract(g) / px;
        if min(e.x, e.y) < 1.0 { col = mix(col, vec3<f32>(0.55, 0.55, 0.6), 0.4); }
    }
    let width = 1.0 * px;
    // cell arrows at the centres of s × s tiles, s the screen spacing in cells (at least 1, where
    // they sit at the cell centres); the velocity interpolated there
    let s = max(rp.ranges.z, 1.0);
    if shown(ARROWS_CENTRE) && !solid_here {
        let c = (floor(g / s) + 0.5) * s;
        if c.x < f32(rp.nx) && c.y < f32(rp.ny) {
            let d = arrow_vector(velocity_at(c), ARROW_CAP * s);
            var colour = vec3<f32>(1.0, 0.92, 0.3);
            if shown(ARROW_SPEED_COLOUR) { colour = speed_colour(length(d) / (ARROW_CAP * s)); }
            col = over_arrow(col, arrow_dist(g, c, d, px), width, colour);
        }
    }
    if shown(ARROWS_MAC) {
        // one arrow per edge (src/render turns this off where cells are too small): u on the
        // vertical edges left and right of this cell, v on the horizontal edges below and above
        // (short beside the numbers printed in the cells, which they must not cross)
        var cap = ARROW_CAP;
        if shown(SHORT_EDGE_ARROWS) { cap = EDGE_ARROW_CAP_BESIDE_NUMBERS; }
        var dist_u = 1e9;
        var dist_v = 1e9;
        for (var k = 0; k < 2; k++) {
            let du = arrow_vector(vec2<f32>(u_at(i + k, j), 0.0), cap);
            dist_u = min(dist_u, arrow_dist(g, vec2<f32>(f32(i + k), f32(j) + 0.5), du, px));
            let dv = arrow_vector(vec2<f32>(0.0, v_at(i, j + k)), cap);
            dist_v = min(dist_v, arrow_dist(g, vec2<f32>(f32(i) + 0.5, f32(j + k)), dv, px));
        }
        col = over_arrow(col, dist_u, width, vec3<f32>(1.0, 0.45, 0.35));
        col = over_arrow(col, dist_v, width, vec3<f32>(0.35, 0.8, 1.0));
    }
    // walls: a rim around the domain
    let rim = vec4<f32>(g.x, f32(rp.nx) - g.x, g.y, f32(rp.ny) - g.y) / px;
    for (var side = 0u; side < 4u; side++) {
        if (rp.walls & (1u << side)) != 0u && rim[side] < 2.0 { col = vec3<f32>(0.45, 0.47, 0.52); }
    }
    // coverage: the background's opacity, or the brightest channel where more is painted (1 and
    // the colour as it is where the background is opaque)
    let c = clamp(col, vec3<f32>(0.0), vec3<f32>(1.0));
    let alpha = max(bg_alpha, max(c.r, max(c.g, c.b)));
    return vec4<f32>(pow(c / max(alpha, 1e-6), vec3<f32>(1.0 / 2.2)) * alpha, alpha);
}
