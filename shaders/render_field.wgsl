// Display of the simulation state: ink (bilinear), solids and walls, and the teaching overlays
// (divergence tint, pressure colour map, velocity arrows on MAC edges and at cell centres).
// A full-screen triangle drawn into a viewport that keeps the grid's aspect ratio.
// Output is gamma-encoded for a non-sRGB target (the window surface and headless renders).

// Keep in sync with `RenderParams` in src/render/mod.rs.
struct RenderParams {
    nx: u32,
    ny: u32,
    flags: u32,
    // bit per wall side: 1 left, 2 right, 4 bottom, 8 top
    walls: u32,
    background: vec4<f32>,
    // x: divergence range, y: pressure range (|p| at full colour), z: arrow spacing (cells), w: arrow scale (cells per m/s)
    ranges: vec4<f32>,
    // x: pixels per cell on screen, y: cell size (metres)
    view: vec4<f32>,
}

// The overlay flag bits (SHOW_INK, SHOW_DIVERGENCE, DIVERGENCE_AFTER, SHOW_PRESSURE, ARROWS_MAC,
// ARROWS_CENTRE, GRID_LINES) are put in front of this file at load from src/render/mod.rs `flags`.

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
fn ink_at(i: i32, j: i32) -> vec3<f32> {
    let c = cell(i, j);
    return vec3<f32>(ink[3u * c], ink[3u * c + 1u], ink[3u * c + 2u]);
}

// Bilinear ink between cell centres (g in cell units, origin at the domain's lower-left corner).
fn ink_bilinear(g: vec2<f32>) -> vec3<f32> {
    let q = g - 0.5;
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

// Distance from point q to segment a-b.
fn seg_dist(q: vec2<f32>, a: vec2<f32>, b: vec2<f32>) -> f32 {
    let ab = b - a;
    let t = clamp(dot(q - a, ab) / max(dot(ab, ab), 1e-12), 0.0, 1.0);
    return length(q - a - ab * t);
}

// Distance to an arrow centred at c with direction-and-length d (cell units), head included.
fn arrow_dist(q: vec2<f32>, c: vec2<f32>, d: vec2<f32>) -> f32 {
    let len = length(d);
    if len < 1e-4 { return length(q - c); }
    let a = c - 0.5 * d;
    let b = c + 0.5 * d;
    let dir = d / len;
    let side = vec2<f32>(-dir.y, dir.x);
    let head = min(0.35 * len, 0.3);
    let h1 = b - dir * head + side * head * 0.6;
    let h2 = b - dir * head - side * head * 0.6;
    return min(seg_dist(q, a, b), min(seg_dist(q, b, h1), seg_dist(q, b, h2)));
}

// Blue-white-red diverging map, t in [-1, 1].
fn diverging(t: f32) -> vec3<f32> {
    let blue = vec3<f32>(0.13, 0.32, 0.85);
    let red = vec3<f32>(0.85, 0.15, 0.12);
    let white = vec3<f32>(0.96, 0.96, 0.96);
    if t < 0.0 { return mix(white, blue, clamp(-t, 0.0, 1.0)); }
    return mix(white, red, clamp(t, 0.0, 1.0));
}

fn clamp_len(d: vec2<f32>, m: f32) -> vec2<f32> {
    let l = length(d);
    if l > m { return d * (m / l); }
    return d;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let g = in.uv * vec2<f32>(f32(rp.nx), f32(rp.ny));
    let i = clamp(i32(floor(g.x)), 0, nxi() - 1);
    let j = clamp(i32(floor(g.y)), 0, nyi() - 1);
    let px = 1.0 / max(rp.view.x, 1e-3); // one screen pixel in cell units
    let bg = rp.background.rgb;
    var col = bg;
    if (rp.flags & SHOW_INK) != 0u {
        let k = max(ink_bilinear(g), vec3<f32>(0.0));
        // ink as optical depth: saturates smoothly instead of clipping
        col = bg + (vec3<f32>(1.0) - bg) * (vec3<f32>(1.0) - exp(-k));
    }
    if (rp.flags & SHOW_PRESSURE) != 0u {
        let t = p[cell(i, j)] / max(rp.ranges.y, 1e-20);
        col = mix(col, diverging(t), 0.85);
    }
    if (rp.flags & SHOW_DIVERGENCE) != 0u {
        var d = divergence[cell(i, j)];
        if (rp.flags & DIVERGENCE_AFTER) != 0u { d = divergence_now(i, j); }
        let t = clamp(abs(d) / max(rp.ranges.x, 1e-20), 0.0, 1.0);
        var tint = vec3<f32>(0.95, 0.35, 0.1);
        if d < 0.0 { tint = vec3<f32>(0.1, 0.55, 0.95); }
        col = mix(col, tint, t);
    }
    let solid_here = solid[cell(i, j)] > 0.5;
    if solid_here { col = vec3<f32>(0.35, 0.37, 0.41); }
    if (rp.flags & GRID_LINES) != 0u && rp.view.x >= 12.0 {
        let e = min(fract(g), 1.0 - fract(g)) / px;
        if min(e.x, e.y) < 0.75 { col = mix(col, vec3<f32>(0.5, 0.5, 0.55), 0.35); }
    }
    let width = 1.1 * px;
    if (rp.flags & ARROWS_CENTRE) != 0u && !solid_here {
        let s = max(rp.ranges.z, 1.0);
        let tile = floor(g / s);
        let c = (tile + 0.5) * s;
        let ci = i32(floor(c.x));
        let cj = i32(floor(c.y));
        if ci < nxi() && cj < nyi() {
            let vel = vec2<f32>(0.5 * (u_at(ci, cj) + u_at(ci + 1, cj)), 0.5 * (v_at(ci, cj) + v_at(ci, cj + 1)));
            let d = clamp_len(vel * rp.ranges.w, 0.9 * s);
            if arrow_dist(g, c, d) < width { col = vec3<f32>(1.0, 0.92, 0.3); }
        }
    }
    if (rp.flags & ARROWS_MAC) != 0u {
        // u on the nearest vertical edge, v on the nearest horizontal edge
        let ui = i32(round(g.x));
        let uc = vec2<f32>(f32(ui), f32(j) + 0.5);
        let du = vec2<f32>(clamp(u_at(ui, j) * rp.ranges.w, -0.9, 0.9), 0.0);
        if arrow_dist(g, uc, du) < width { col = vec3<f32>(1.0, 0.45, 0.35); }
        let vj = i32(round(g.y));
        let vc = vec2<f32>(f32(i) + 0.5, f32(vj));
        let dv = vec2<f32>(0.0, clamp(v_at(i, vj) * rp.ranges.w, -0.9, 0.9));
        if arrow_dist(g, vc, dv) < width { col = vec3<f32>(0.35, 0.8, 1.0); }
    }
    // walls: a rim around the domain
    let rim = vec4<f32>(g.x, f32(rp.nx) - g.x, g.y, f32(rp.ny) - g.y) / px;
    for (var side = 0u; side < 4u; side++) {
        if (rp.walls & (1u << side)) != 0u && rim[side] < 2.0 { col = vec3<f32>(0.45, 0.47, 0.52); }
    }
    return vec4<f32>(pow(clamp(col, vec3<f32>(0.0), vec3<f32>(1.0)), vec3<f32>(1.0 / 2.2)), 1.0);
}
