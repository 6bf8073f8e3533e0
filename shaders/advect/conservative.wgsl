// Conservative flux-form transport of ink (dye grid) and density (flow grid) (seed 001: what
// leaves one cell enters its neighbour). Each face carries, per step, the donor (upwind) cell's
// content times the face's Courant number |u| Δt / h, times the donor's outflow scale:
// `outflow_scale` limits a cell's total outflow to what it holds (fraction ≤ 1 − 1e-6), so no
// cell changes sign. Both cells of a face compute the same transfer from the same numbers, so the
// total in a closed box changes only by rounding. Inflow faces bring in the inflow's ink and
// density; outflow faces let it leave.
//
// On a dye grid k times finer, a dye face's velocity is the flux-consistent (lowest-order
// Raviart-Thomas) interpolation of the flow faces: along its normal, linear between the two flow
// faces of the flow cell it lies in; along the face, constant. The k dye faces on a flow face then
// carry exactly that face's flux, and every dye cell has its flow cell's divergence, so a
// divergence-free flow stays divergence-free on the dye grid. Faces inside a solid cell are zero.
//
// One thread per dye cell; the first nx × ny threads also handle the flow cell of that index.
// Writes ink_out / density_out only for the fields whose scheme is conservative.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> ink: array<f32>;
@group(0) @binding(3) var<storage, read> density: array<f32>;
@group(0) @binding(4) var<storage, read> solid: array<f32>;
@group(0) @binding(5) var<storage, read_write> ink_out: array<f32>;
@group(0) @binding(6) var<storage, read_write> density_out: array<f32>;
// The outflow scales: ink's in the first dye-cell-count floats, density's at `density_tmp_at`
// (a conservative field runs no MacCormack/BFECC, so the scratch is free).
@group(0) @binding(7) var<storage, read_write> transport_tmp: array<f32>;

const SCHEME_CONSERVATIVE: u32 = 3u;

// The normal velocity of the vertical face at the left of cell (a, b) of the lattice k times
// finer than the flow grid (a in 0..=k nx), and of the horizontal face below it.
fn fine_u(a: i32, b: i32, k: i32) -> f32 {
    let i = a / k;
    let r = a - i * k;
    if r == 0 { return u_face_value(i, b / k); }
    return mix(u_face_value(i, b / k), u_face_value(i + 1, b / k), f32(r) / f32(k));
}

fn fine_v(a: i32, b: i32, k: i32) -> f32 {
    let j = b / k;
    let r = b - j * k;
    if r == 0 { return v_face_value(a / k, j); }
    return mix(v_face_value(a / k, j), v_face_value(a / k, j + 1), f32(r) / f32(k));
}

// On the lattice k times finer the step is taken as k sub-steps of Δt / k (the first by
// `transport`, the rest by it with `INK_ONLY`), so a dye cell's Courant number is its flow cell's and
// the ink keeps up with the flow: in one step of Δt, a first-order flux form moves nothing more
// than one cell of its own lattice.
fn sub_dt(k: i32) -> f32 { return params.dt / f32(k); }

fn courant(vel: f32, k: i32) -> f32 { return abs(vel) * sub_dt(k) / (params.h / f32(k)); }

fn outflow_of(a: i32, b: i32, k: i32) -> f32 {
    let out = courant(min(fine_u(a, b, k), 0.0), k) + courant(max(fine_u(a + 1, b, k), 0.0), k) + courant(min(fine_v(a, b, k), 0.0), k)
        + courant(max(fine_v(a, b + 1, k), 0.0), k);
    return select(1.0, min(1.0, 0.999999 / out), out > 0.0);
}

fn ink_conservative() -> bool { return params.schemes.y == SCHEME_CONSERVATIVE; }
fn density_conservative() -> bool { return params.schemes.z == SCHEME_CONSERVATIVE; }

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn outflow_scale(@builtin(global_invocation_id) id: vec3<u32>) {
    let a = i32(id.x);
    let b = i32(id.y);
    if a < dye_nx() && b < dye_ny() && ink_conservative() { transport_tmp[dye_idx(a, b)] = outflow_of(a, b, dye_k()); }
    if a < nx() && b < ny() && density_conservative() { transport_tmp[density_tmp_at(cell_idx(a, b))] = outflow_of(a, b, 1); }
}

// Content and outflow scale of the cell at (a, b) of the lattice k times finer, which may lie
// outside the domain: wrapped on periodic sides, the inflow's values on inflow sides, else
// nothing. Ink (is_ink, on the dye grid) in xyz; density (k = 1) in w.
struct Donor {
    q: vec4<f32>,
    scale: f32,
}

fn donor(a0: i32, b0: i32, k: i32, is_ink: bool) -> Donor {
    var a = a0;
    var b = b0;
    let n = vec2<i32>(nx() * k, ny() * k);
    let side = side_outside(a, b, n.x, n.y);
    if side < 4u {
        let kind = params.bc_kind[side];
        if kind == BC_INFLOW {
            return Donor(vec4<f32>(params.inflow_ink_r[side], params.inflow_ink_g[side], params.inflow_ink_b[side], params.inflow_density[side]), 1.0);
        }
        if kind != BC_PERIODIC { return Donor(vec4<f32>(0.0), 0.0); }
        a = wrap(a, n.x);
        b = wrap(b, n.y);
    }
    if is_ink {
        let d = dye_idx(a, b);
        return Donor(vec4<f32>(ink[3u * d], ink[3u * d + 1u], ink[3u * d + 2u], 0.0), transport_tmp[d]);
    }
    let c = cell_idx(a, b);
    return Donor(vec4<f32>(0.0, 0.0, 0.0, density[c]), transport_tmp[density_tmp_at(c)]);
}

// What crosses a face from the low side (cell p) to the high side (cell q) this sub-step; negative
// when the flow goes the other way.
fn transfer(vel: f32, p: vec2<i32>, q: vec2<i32>, k: i32, is_ink: bool) -> vec4<f32> {
    if vel > 0.0 {
        let d = donor(p.x, p.y, k, is_ink);
        return d.q * (courant(vel, k) * d.scale);
    }
    if vel < 0.0 {
        let d = donor(q.x, q.y, k, is_ink);
        return -(d.q * (courant(vel, k) * d.scale));
    }
    return vec4<f32>(0.0);
}

// The content of cell (a, b) of the lattice k times finer after one step, from `now`.
fn transported(a: i32, b: i32, k: i32, is_ink: bool, now: vec4<f32>) -> vec4<f32> {
    let here = vec2<i32>(a, b);
    var q = now;
    q += transfer(fine_u(a, b, k), vec2<i32>(a - 1, b), here, k, is_ink);
    q -= transfer(fine_u(a + 1, b, k), here, vec2<i32>(a + 1, b), k, is_ink);
    q += transfer(fine_v(a, b, k), vec2<i32>(a, b - 1), here, k, is_ink);
    q -= transfer(fine_v(a, b + 1, k), here, vec2<i32>(a, b + 1), k, is_ink);
    return q;
}

// One sub-step of ink in dye cell (a, b): from `ink` into `ink_out`.
fn transport_ink_cell(a: i32, b: i32) {
    let d = dye_idx(a, b);
    var q = vec4<f32>(0.0);
    if !dye_solid(a, b) {
        q = transported(a, b, dye_k(), true, vec4<f32>(ink[3u * d], ink[3u * d + 1u], ink[3u * d + 2u], 0.0));
    }
    let keep = exp(-params.ink_dissipation * sub_dt(dye_k()));
    ink_out[3u * d] = q.x * keep;
    ink_out[3u * d + 1u] = q.y * keep;
    ink_out[3u * d + 2u] = q.z * keep;
}

// Ink's sub-steps after the first are this kernel built with `INK_ONLY` (src/sim/advect.rs), each
// other one bound with ink and ink_out swapped.
override INK_ONLY: bool = false;

// Ink's first sub-step and density's one step (ink's alone with `INK_ONLY`).
@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn transport(@builtin(global_invocation_id) id: vec3<u32>) {
    let a = i32(id.x);
    let b = i32(id.y);
    if a < dye_nx() && b < dye_ny() && ink_conservative() { transport_ink_cell(a, b); }
    if !INK_ONLY && a < nx() && b < ny() && density_conservative() {
        let c = cell_idx(a, b);
        var q = vec4<f32>(0.0);
        if !is_solid(a, b) { q = transported(a, b, 1, false, vec4<f32>(0.0, 0.0, 0.0, density[c])); }
        density_out[c] = q.w * exp(-params.density_drain * params.dt);
    }
}
