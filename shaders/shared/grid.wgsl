// Shared prelude of every simulation pass: the parameter block, MAC-grid indexing, boundary
// classification and lattice spans. What reads a field lives in shared/solid.wgsl and
// shared/velocity.wgsl, taken by the passes that declare those fields.
// Conventions: ../shared/DESIGN.md §1. Cell (i, j): column i from the left, row j from the bottom.

// Keep in sync with `Params` in src/sim/params.rs (a test compares the layouts).
struct Params {
    nx: u32,
    ny: u32,
    h: f32,
    dt: f32,
    rho: f32,
    viscosity: f32,
    jacobi_weight: f32,
    sor_omega: f32,
    gravity_x: f32,
    gravity_y: f32,
    vorticity: f32,
    damping: f32,
    ink_dissipation: f32,
    density_drain: f32,
    time: f32,
    splat_count: u32,
    // Per side, in the order left, right, bottom, top.
    bc_kind: vec4<u32>,
    bc_slip: vec4<u32>,
    bc_speed: vec4<f32>,
    inflow_u: vec4<f32>,
    inflow_v: vec4<f32>,
    inflow_density: vec4<f32>,
    inflow_ink_r: vec4<f32>,
    inflow_ink_g: vec4<f32>,
    inflow_ink_b: vec4<f32>,
    // advection scheme of velocity, ink, density; x = velocity, y = ink, z = density, w = flags
    schemes: vec4<u32>,
    // Spare slots for passes that need a per-step constant (kept zero when unused).
    extra: vec4<f32>,
    // The dye (ink) grid is dye_scale times finer than the flow grid (DESIGN.md §1).
    dye_scale: u32,
    // Flow threads (faces and cells) this step's splats can reach, from extra.xy on
    // (src/sim/sources.rs `reach`; shaders/shared/splats.wgsl `in_reach`).
    reach_w: u32,
    reach_h: u32,
    // Bit s set: side s's inflow has a parabolic profile (`inflow_profile`).
    inflow_parabolic: u32,
    // The dragged body's velocity (m/s), imposed on its faces (shared/solid.wgsl `face_speed`).
    body_velocity: vec2<f32>,
    // move_body.wgsl: what this step does (BODY_*) and the body's shape (SHAPE_*): a circle's
    // centre and radius (x, y, r, 0) or a rectangle's centre and half sides (x, y, w/2, h/2).
    body_stage: u32,
    body_kind: u32,
    body_shape: vec4<f32>,
}

// A disk that adds (brush) or blends toward (emitter) velocity, ink and density.
// Keep in sync with `Splat` and `MAX_SPLATS` in src/sim/params.rs.
const MAX_SPLATS: u32 = 256u;
struct Splat {
    x: f32,
    y: f32,
    radius: f32,
    // 0: add the values times the falloff (brush); 1: blend toward them by the falloff (emitter);
    // 2: paint solid cells; 3: erase solid cells (obstacle brush, see sources.wgsl).
    mode: u32,
    vx: f32,
    vy: f32,
    density: f32,
    ink_r: f32,
    ink_g: f32,
    ink_b: f32,
    // emitters (mode 1): relaxation rate toward the values at the centre, 1/s
    rate: f32,
    _pad1: f32,
}

// The one binding every pass shares. Each pass declares its own storage buffers at the top of its
// file, `read` where none of its entry points writes, numbered from 0 in each file; composing a
// pass numbers them again in order (src/sim/kernel/compose.rs `number_bindings`), and the Rust
// side binds by name only the bindings an entry point uses. tests/bindings.rs checks them against
// WebGPU's rules.
@group(0) @binding(0) var<uniform> params: Params;

// Where a multigrid level and its neighbours lie in the level buffers (multigrid/level.wgsl,
// src/sim/multigrid.rs). Keep in sync with `LevelDesc` in src/sim/levels.rs.
struct Level {
    nx: u32,
    ny: u32,
    off: u32,
    index: u32,
    fine_nx: u32,
    fine_ny: u32,
    fine_off: u32,
    x_off: u32,
    coarse_nx: u32,
    coarse_ny: u32,
    coarse_off: u32,
    coarse_x_off: u32,
}

const SIDE_LEFT: u32 = 0u;
const SIDE_RIGHT: u32 = 1u;
const SIDE_BOTTOM: u32 = 2u;
const SIDE_TOP: u32 = 3u;

const BC_WALL: u32 = 0u;
const BC_INFLOW: u32 = 1u;
const BC_OUTFLOW: u32 = 2u;
const BC_PERIODIC: u32 = 3u;

const SLIP_NO_SLIP: u32 = 0u;
const SLIP_FREE: u32 = 1u;

// The flow grid's size and the dye scale are constants of each kernel (GRID_NX, GRID_NY, GRID_K,
// put in front by src/sim/kernel/compose.rs `source_with`); params.nx, ny and dye_scale hold the same.
fn nx() -> i32 { return GRID_NX; }
fn ny() -> i32 { return GRID_NY; }
// Cells of the flow grid.
fn cell_count() -> u32 { return u32(nx() * ny()); }
// Whether an axis may be periodic: a simulation without runs variants built with false
// (src/sim/kernel/pipelines.rs `Switches`), which leave the wrapped paths out. A CPU adapter runs both sides
// of a branch on a uniform value.
override PERIODIC_X: bool = true;
override PERIODIC_Y: bool = true;
fn periodic_x() -> bool { return PERIODIC_X && params.bc_kind.x == BC_PERIODIC; }
fn periodic_y() -> bool { return PERIODIC_Y && params.bc_kind.z == BC_PERIODIC; }

// The share of an inflow's normal velocity at cell k of the n along side `side`: 1, or
// 4 s (1 − s) at s = (k + ½) / n where its profile is parabolic (boundary.SIDE.profile; the
// velocity is then the centre's, the mean two thirds of it). CPU twin: `Params::inflow_profile`.
fn inflow_profile(side: u32, k: i32, n: i32) -> f32 {
    if (params.inflow_parabolic & (1u << side)) == 0u { return 1.0; }
    let s = (f32(k) + 0.5) / f32(n);
    return 4.0 * s * (1.0 - s);
}

fn cell_idx(i: i32, j: i32) -> u32 { return u32(j * nx() + i); }
fn u_idx(i: i32, j: i32) -> u32 { return u32(j * (nx() + 1) + i); }
fn v_idx(i: i32, j: i32) -> u32 { return u32(j * nx() + i); }

// Wraps an index onto 0..n.
fn wrap(i: i32, n: i32) -> i32 { return ((i % n) + n) % n; }

const STENCIL_LEFT: u32 = 1u;
const STENCIL_RIGHT: u32 = 2u;
const STENCIL_BOTTOM: u32 = 4u;
const STENCIL_TOP: u32 = 8u;

// The side a cell index outside a w × h grid lies beyond (4: inside). A corner counts as its top
// or bottom side.
fn side_outside(a: i32, b: i32, w: i32, h: i32) -> u32 {
    if b >= h { return SIDE_TOP; }
    if b < 0 { return SIDE_BOTTOM; }
    if a >= w { return SIDE_RIGHT; }
    if a < 0 { return SIDE_LEFT; }
    return 4u;
}

// A cell's neighbour across one side, as the pressure stencil sees it.
const NB_NONE: u32 = 0u;      // wall, inflow or solid cell: no fluid neighbour (Neumann)
const NB_FLUID: u32 = 1u;     // a fluid cell, at `cell`
const NB_DIRICHLET: u32 = 2u; // outflow: a ghost cell held at p = 0

struct Neighbour {
    kind: u32,
    cell: vec2<i32>,
}

// Where cell (a, b) of a w × h grid lies: itself, wrapped across a periodic side, or a ghost
// behind a wall or inflow (NB_NONE) or an outflow (NB_DIRICHLET). Solids are the caller's.
fn across(a: i32, b: i32, w: i32, h: i32) -> Neighbour {
    let side = side_outside(a, b, w, h);
    if side < 4u {
        let kind = params.bc_kind[side];
        if kind == BC_OUTFLOW { return Neighbour(NB_DIRICHLET, vec2<i32>(0, 0)); }
        if kind != BC_PERIODIC { return Neighbour(NB_NONE, vec2<i32>(0, 0)); }
        return Neighbour(NB_FLUID, vec2<i32>(wrap(a, w), wrap(b, h)));
    }
    return Neighbour(NB_FLUID, vec2<i32>(a, b));
}

// Edge classification: a face whose normal velocity is prescribed (walls, inflows, faces touching
// a solid cell) reports it; `free` faces are solved for.
struct Face {
    fixed: bool,
    value: f32,
}

// Lattice coordinate along one axis of `n` samples: wraps on a periodic axis, otherwise clamps.
// Returns (i0, i1, fraction).
struct Span {
    i0: i32,
    i1: i32,
    t: f32,
}

fn span_clamped(g: f32, last: i32) -> Span {
    let c = clamp(g, 0.0, f32(last));
    let i0 = min(i32(floor(c)), max(last - 1, 0));
    let i1 = min(i0 + 1, last);
    return Span(i0, i1, c - f32(i0));
}

fn span_wrapped(g: f32, n: i32) -> Span {
    let f = floor(g);
    let i0 = wrap(i32(f), n);
    return Span(i0, wrap(i0 + 1, n), g - f);
}

// Lattice coordinate along a non-periodic axis whose first and last samples lie half a cell
// inside the sides (u along y, v along x): reaches half a cell beyond them, into the ghost
// samples at -1 and last + 1.
fn span_ghosted(g: f32, last: i32) -> Span {
    let c = clamp(g, -0.5, f32(last) + 0.5);
    let i0 = clamp(i32(floor(c)), -1, last);
    return Span(i0, i0 + 1, c - f32(i0));
}

// The ghost value beyond a side as `inside * g.x + g.y`: (-1, 2 U) for no-slip walls and inflows
// (U their tangential speed), (1, 0) otherwise. Arithmetic rather than branches: lavapipe runs
// both arms of a branch, and every bilinear sample passes through here.
fn ghost_coeffs(side: u32, tangential_in: f32) -> vec2<f32> {
    let kind = params.bc_kind[side];
    if kind == BC_WALL && params.bc_slip[side] == SLIP_NO_SLIP { return vec2<f32>(-1.0, 2.0 * params.bc_speed[side]); }
    if kind == BC_INFLOW { return vec2<f32>(-1.0, 2.0 * tangential_in); }
    return vec2<f32>(1.0, 0.0);
}

// Keeps a point inside the domain (or wraps it on periodic axes, where samplers wrap anyway).
fn clamp_to_domain(pos: vec2<f32>) -> vec2<f32> {
    let size = vec2<f32>(f32(nx()), f32(ny())) * params.h;
    var q = pos;
    if !periodic_x() { q.x = clamp(q.x, 0.0, size.x); }
    if !periodic_y() { q.y = clamp(q.y, 0.0, size.y); }
    return q;
}

// The non-periodic side a back-traced point left the domain through (4: none).
fn side_crossed(back: vec2<f32>) -> u32 {
    let size = vec2<f32>(f32(nx()), f32(ny())) * params.h;
    if back.y > size.y && !periodic_y() { return SIDE_TOP; }
    if back.y < 0.0 && !periodic_y() { return SIDE_BOTTOM; }
    if back.x > size.x && !periodic_x() { return SIDE_RIGHT; }
    if back.x < 0.0 && !periodic_x() { return SIDE_LEFT; }
    return 4u;
}

// Cell-centred bilinear weights at a point: the four cells and their weights, with solid cells
// given weight zero and the rest renormalised, so nothing is ever sampled from inside a solid.
struct CellStencil {
    c00: vec2<i32>,
    c10: vec2<i32>,
    c01: vec2<i32>,
    c11: vec2<i32>,
    w: vec4<f32>,
}

// ---- the dye grid: ink lives on cells dye_k() times smaller than the flow cells ----

fn dye_k() -> i32 { return GRID_K; }
fn dye_nx() -> i32 { return nx() * dye_k(); }
fn dye_ny() -> i32 { return ny() * dye_k(); }
fn dye_h() -> f32 { return params.h / f32(dye_k()); }
fn dye_idx(a: i32, b: i32) -> u32 { return u32(b * dye_nx() + a); }
fn dye_centre(a: i32, b: i32) -> vec2<f32> { return vec2<f32>((f32(a) + 0.5) * dye_h(), (f32(b) + 0.5) * dye_h()); }
// Where flow cell c's density lies in the transport schemes' scratch, after ink's 3 channels.
fn density_tmp_at(c: u32) -> u32 { return 3u * u32(dye_nx() * dye_ny()) + c; }

// Smooth falloff of a splat: 1 at the centre, 0 at the rim, with zero slope there.
fn falloff(d: f32, radius: f32) -> f32 {
    let x = clamp(1.0 - (d * d) / (radius * radius), 0.0, 1.0);
    return x * x;
}
