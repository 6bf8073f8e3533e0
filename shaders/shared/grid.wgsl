// Shared prelude of every simulation pass: the parameter block, the fixed binding table,
// MAC-grid indexing, boundary classification and the staggered bilinear samplers.
// Conventions: ../shared/DESIGN.md §1. Cell (i, j): column i from the left, row j from the bottom.
// Over 400 lines on purpose: it is the one place every pass takes its shared definitions from
// (the binding table included), so a pass file holds only its own kernel.

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
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

// A disk that adds (brush) or blends toward (emitter) velocity, ink and density.
// Keep in sync with `Splat` in src/sim/params.rs.
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

// The binding table, the one declaration of every slot: one number per named resource, the same
// in every pass. A pass declares none itself; it uses what it needs, and the Rust side binds by
// reflection only the slots an entry point uses (src/sim/kernel.rs, names in `slot::NAMES`).
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> u: array<f32>;
@group(0) @binding(2) var<storage, read_write> v: array<f32>;
@group(0) @binding(3) var<storage, read_write> p: array<f32>;
@group(0) @binding(4) var<storage, read_write> divergence: array<f32>;
@group(0) @binding(5) var<storage, read_write> ink: array<f32>;
@group(0) @binding(6) var<storage, read_write> density: array<f32>;
@group(0) @binding(7) var<storage, read_write> solid: array<f32>;
@group(0) @binding(8) var<storage, read_write> u_out: array<f32>;
@group(0) @binding(9) var<storage, read_write> v_out: array<f32>;
@group(0) @binding(10) var<storage, read_write> p_out: array<f32>;
@group(0) @binding(11) var<storage, read_write> ink_out: array<f32>;
@group(0) @binding(12) var<storage, read_write> density_out: array<f32>;
@group(0) @binding(13) var<storage, read_write> splats: array<Splat>;
@group(0) @binding(14) var<storage, read_write> partials: array<f32>;
@group(0) @binding(15) var<storage, read_write> stats: array<f32>;
@group(0) @binding(16) var<storage, read_write> scratch: array<f32>;
// Per cell, the pressure stencil packed by `stencil_pack` (pressure.wgsl): bits 0-3 say which of the
// left, right, bottom, top neighbours is a fluid cell; bits 4-6 hold the neighbour count of the
// reduced stencil (fluid plus outflow ghosts; 0 for solid or isolated cells).
@group(0) @binding(17) var<storage, read_write> stencil: array<u32>;

// Slots 18-23, 26, 27: the pressure solvers (multigrid_level.wgsl, src/sim/multigrid.rs). Per
// level arrays live in a few big buffers at per-level offsets; `level` says where this level and
// its neighbours lie. Level 0's x is `p` itself (bound at 19), coarser levels' x live in `mg_x`.
// Keep in sync with `LevelDesc` in src/sim/multigrid.rs.
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

@group(0) @binding(18) var<storage, read> level: Level;
// This level's x: `p` on level 0, `mg_x` below (or, for the passes that read the pre-smoothed
// iterate, the second buffer: `p_out`, `mg_y`).
@group(0) @binding(19) var<storage, read_write> mg_x: array<f32>;
@group(0) @binding(20) var<storage, read_write> mg_rhs: array<f32>;
// Where a tile smoother writes: the level's other buffer.
@group(0) @binding(21) var<storage, read_write> mg_y: array<f32>;
// Convergence control (src/sim/solver_check.rs, `ctl`): tolerance, reductions, indirect dispatch args.
@group(0) @binding(22) var<storage, read_write> mg_control: array<u32>;
// Per level cell: the packed stencil of `stencil` (bits 0-6) plus MG_SOLID (set-up writes it).
@group(0) @binding(23) var<storage, read_write> mg_stencil: array<u32>;
// The x of the levels below level 0 (read by prolongation, zeroed by restriction).
@group(0) @binding(26) var<storage, read_write> mg_xc: array<f32>;
// Every level's descriptor, finest first (the one-workgroup coarse solve).
@group(0) @binding(27) var<storage, read> mg_levels: array<Level>;
// Slots 24-25: the right-hand side of implicit viscosity (viscosity.wgsl).
@group(0) @binding(24) var<storage, read_write> visc_rhs_u: array<f32>;
@group(0) @binding(25) var<storage, read_write> visc_rhs_v: array<f32>;
// Slots 28-31: scratch of the transport schemes and vorticity (advect_*.wgsl, vorticity.wgsl).
@group(0) @binding(28) var<storage, read_write> cell_tmp: array<f32>;
@group(0) @binding(29) var<storage, read_write> ink_tmp: array<f32>;
@group(0) @binding(30) var<storage, read_write> density_tmp: array<f32>;
// u part (ny (nx + 1) values), then v part (nx (ny + 1) values).
@group(0) @binding(31) var<storage, read_write> vel_tmp: array<f32>;
// Slot 32: implicit viscosity's Chebyshev sweep state [k, ω] (viscosity.wgsl).
@group(0) @binding(32) var<storage, read_write> visc_state: array<f32>;

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

fn nx() -> i32 { return i32(params.nx); }
fn ny() -> i32 { return i32(params.ny); }
fn periodic_x() -> bool { return params.bc_kind.x == BC_PERIODIC; }
fn periodic_y() -> bool { return params.bc_kind.z == BC_PERIODIC; }

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

// Solid test for a cell that lies inside the domain.
fn is_solid(i: i32, j: i32) -> bool { return solid[cell_idx(i, j)] > 0.5; }

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

fn neighbour(i: i32, j: i32, di: i32, dj: i32) -> Neighbour {
    let n = across(i + di, j + dj, nx(), ny());
    if n.kind == NB_FLUID && is_solid(n.cell.x, n.cell.y) { return Neighbour(NB_NONE, n.cell); }
    return n;
}

// Edge classification: a face whose normal velocity is prescribed (walls, inflows, faces touching
// a solid cell) reports it; `free` faces are solved for.
struct Face {
    fixed: bool,
    value: f32,
}

fn u_face(i: i32, j: i32) -> Face {
    var side = 4u;
    if i == 0 { side = SIDE_LEFT; }
    if i == nx() { side = SIDE_RIGHT; }
    if side < 4u && !periodic_x() {
        let kind = params.bc_kind[side];
        if kind == BC_WALL { return Face(true, 0.0); }
        if kind == BC_INFLOW { return Face(true, params.inflow_u[side]); }
        // outflow: free, but only the interior cell can be solid
        let c = select(nx() - 1, 0, side == SIDE_LEFT);
        if is_solid(c, j) { return Face(true, 0.0); }
        return Face(false, 0.0);
    }
    let l = wrap(i - 1, nx());
    let r = wrap(i, nx());
    if is_solid(l, j) || is_solid(r, j) { return Face(true, 0.0); }
    return Face(false, 0.0);
}

fn v_face(i: i32, j: i32) -> Face {
    var side = 4u;
    if j == 0 { side = SIDE_BOTTOM; }
    if j == ny() { side = SIDE_TOP; }
    if side < 4u && !periodic_y() {
        let kind = params.bc_kind[side];
        if kind == BC_WALL { return Face(true, 0.0); }
        if kind == BC_INFLOW { return Face(true, params.inflow_v[side]); }
        let c = select(ny() - 1, 0, side == SIDE_BOTTOM);
        if is_solid(i, c) { return Face(true, 0.0); }
        return Face(false, 0.0);
    }
    let b = wrap(j - 1, ny());
    let t = wrap(j, ny());
    if is_solid(i, b) || is_solid(i, t) { return Face(true, 0.0); }
    return Face(false, 0.0);
}

// Reads an edge velocity; on periodic sides the last face is the first one.
fn u_at(i: i32, j: i32) -> f32 {
    var a = i;
    if periodic_x() { a = wrap(i, nx()); }
    return u[u_idx(a, j)];
}

fn v_at(i: i32, j: i32) -> f32 {
    var b = j;
    if periodic_y() { b = wrap(j, ny()); }
    return v[v_idx(i, b)];
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

// u at face column i (already wrapped or clamped), row j, where j may be a ghost row -1 or ny.
fn u_row_ghosted(i: i32, j: i32) -> f32 {
    var g = vec2<f32>(1.0, 0.0);
    g = select(g, ghost_coeffs(SIDE_BOTTOM, params.inflow_u[SIDE_BOTTOM]), j < 0);
    g = select(g, ghost_coeffs(SIDE_TOP, params.inflow_u[SIDE_TOP]), j >= ny());
    return u[u_idx(i, clamp(j, 0, ny() - 1))] * g.x + g.y;
}

// v at column i, which may be a ghost column -1 or nx, face row j.
fn v_col_ghosted(i: i32, j: i32) -> f32 {
    var g = vec2<f32>(1.0, 0.0);
    g = select(g, ghost_coeffs(SIDE_LEFT, params.inflow_v[SIDE_LEFT]), i < 0);
    g = select(g, ghost_coeffs(SIDE_RIGHT, params.inflow_v[SIDE_RIGHT]), i >= nx());
    return v[v_idx(clamp(i, 0, nx() - 1), j)] * g.x + g.y;
}

// Bilinear sample of u at a point (metres), on the u lattice (i h, (j + 1/2) h) — seed 002 step 8:
// u and v use different stencils for the same point. Within half a cell of a bottom or top side
// it blends with the ghost row, so a no-slip wall reads its own speed at the wall.
fn sample_u(pos: vec2<f32>) -> f32 {
    let gx = pos.x / params.h;
    let gy = pos.y / params.h - 0.5;
    var sx: Span;
    var sy: Span;
    if periodic_x() { sx = span_wrapped(gx, nx()); } else { sx = span_clamped(gx, nx()); }
    if periodic_y() { sy = span_wrapped(gy, ny()); } else { sy = span_ghosted(gy, ny() - 1); }
    let a = mix(u_row_ghosted(sx.i0, sy.i0), u_row_ghosted(sx.i1, sy.i0), sx.t);
    let b = mix(u_row_ghosted(sx.i0, sy.i1), u_row_ghosted(sx.i1, sy.i1), sx.t);
    return mix(a, b, sy.t);
}

// Bilinear sample of v on the v lattice ((i + 1/2) h, j h), with ghost columns beyond the left
// and right sides.
fn sample_v(pos: vec2<f32>) -> f32 {
    let gx = pos.x / params.h - 0.5;
    let gy = pos.y / params.h;
    var sx: Span;
    var sy: Span;
    if periodic_x() { sx = span_wrapped(gx, nx()); } else { sx = span_ghosted(gx, nx() - 1); }
    if periodic_y() { sy = span_wrapped(gy, ny()); } else { sy = span_clamped(gy, ny()); }
    let a = mix(v_col_ghosted(sx.i0, sy.i0), v_col_ghosted(sx.i1, sy.i0), sx.t);
    let b = mix(v_col_ghosted(sx.i0, sy.i1), v_col_ghosted(sx.i1, sy.i1), sx.t);
    return mix(a, b, sy.t);
}

fn velocity_at(pos: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(sample_u(pos), sample_v(pos));
}

// Keeps a point inside the domain (or wraps it on periodic axes, where samplers wrap anyway).
fn clamp_to_domain(pos: vec2<f32>) -> vec2<f32> {
    let size = vec2<f32>(f32(params.nx), f32(params.ny)) * params.h;
    var q = pos;
    if !periodic_x() { q.x = clamp(q.x, 0.0, size.x); }
    if !periodic_y() { q.y = clamp(q.y, 0.0, size.y); }
    return q;
}

// The non-periodic side a back-traced point left the domain through (4: none).
fn side_crossed(back: vec2<f32>) -> u32 {
    let size = vec2<f32>(f32(params.nx), f32(params.ny)) * params.h;
    if back.y > size.y && !periodic_y() { return SIDE_TOP; }
    if back.y < 0.0 && !periodic_y() { return SIDE_BOTTOM; }
    if back.x > size.x && !periodic_x() { return SIDE_RIGHT; }
    if back.x < 0.0 && !periodic_x() { return SIDE_LEFT; }
    return 4u;
}

// The one midpoint (RK2) trace, over a signed step (dt > 0: back in time). The end point is left
// unclamped so `side_crossed` can tell which side it left through. CPU twin: Grid::trace_raw.
fn trace_raw(pos: vec2<f32>, dt: f32) -> vec2<f32> {
    let mid = clamp_to_domain(pos - 0.5 * dt * velocity_at(pos));
    return pos - dt * velocity_at(mid);
}

// Where the fluid at `pos` came from one step ago, inside the domain.
fn trace_back(pos: vec2<f32>) -> vec2<f32> {
    return clamp_to_domain(trace_raw(pos, params.dt));
}

// A face's normal velocity, prescribed faces (walls, inflows, solids) read as their value.
fn u_face_value(i: i32, j: i32) -> f32 {
    let f = u_face(i, j);
    return select(u_at(i, j), f.value, f.fixed);
}

fn v_face_value(i: i32, j: i32) -> f32 {
    let f = v_face(i, j);
    return select(v_at(i, j), f.value, f.fixed);
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

fn cell_stencil(pos: vec2<f32>) -> CellStencil { return lattice_stencil(pos, 1); }

// The same stencil on the dye grid (cells dye_k() times smaller); (c.x, c.y) are dye cells.
fn dye_stencil(pos: vec2<f32>) -> CellStencil { return lattice_stencil(pos, dye_k()); }

// Cell-centred bilinear stencil on the lattice k times finer than the flow grid; a fine cell is
// solid when the flow cell it lies in is.
fn lattice_stencil(pos: vec2<f32>, k: i32) -> CellStencil {
    let fh = params.h / f32(k);
    let gx = pos.x / fh - 0.5;
    let gy = pos.y / fh - 0.5;
    let n = vec2<i32>(nx() * k, ny() * k);
    var sx: Span;
    var sy: Span;
    if periodic_x() { sx = span_wrapped(gx, n.x); } else { sx = span_clamped(gx, n.x - 1); }
    if periodic_y() { sy = span_wrapped(gy, n.y); } else { sy = span_clamped(gy, n.y - 1); }
    var w = vec4<f32>((1.0 - sx.t) * (1.0 - sy.t), sx.t * (1.0 - sy.t), (1.0 - sx.t) * sy.t, sx.t * sy.t);
    let s = CellStencil(vec2<i32>(sx.i0, sy.i0), vec2<i32>(sx.i1, sy.i0), vec2<i32>(sx.i0, sy.i1), vec2<i32>(sx.i1, sy.i1), w);
    let open = vec4<f32>(
        select(1.0, 0.0, is_solid(s.c00.x / k, s.c00.y / k)),
        select(1.0, 0.0, is_solid(s.c10.x / k, s.c10.y / k)),
        select(1.0, 0.0, is_solid(s.c01.x / k, s.c01.y / k)),
        select(1.0, 0.0, is_solid(s.c11.x / k, s.c11.y / k)),
    );
    let total = dot(w, open);
    if total > 0.0 { w = w * open / total; } else { w = vec4<f32>(0.0); }
    return CellStencil(s.c00, s.c10, s.c01, s.c11, w);
}

// ---- the dye grid: ink lives on cells dye_k() times smaller than the flow cells ----

fn dye_k() -> i32 { return i32(max(params.dye_scale, 1u)); }
fn dye_nx() -> i32 { return nx() * dye_k(); }
fn dye_ny() -> i32 { return ny() * dye_k(); }
fn dye_h() -> f32 { return params.h / f32(dye_k()); }
fn dye_idx(a: i32, b: i32) -> u32 { return u32(b * dye_nx() + a); }
fn dye_centre(a: i32, b: i32) -> vec2<f32> { return vec2<f32>((f32(a) + 0.5) * dye_h(), (f32(b) + 0.5) * dye_h()); }
// Whether dye cell (a, b) lies in a solid flow cell.
fn dye_solid(a: i32, b: i32) -> bool { return is_solid(a / dye_k(), b / dye_k()); }

// Smooth falloff of a splat: 1 at the centre, 0 at the rim, with zero slope there.
fn falloff(d: f32, radius: f32) -> f32 {
    let x = clamp(1.0 - (d * d) / (radius * radius), 0.0, 1.0);
    return x * x;
}
