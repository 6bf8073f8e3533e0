// Implicit viscosity: Chebyshev-accelerated Jacobi sweeps of (I − νΔt∇²) u = u* on the edge
// velocities, with a = νΔt/h². Reads the right-hand side u* from visc_rhs_u / visc_rhs_v (a copy
// taken before the first sweep), the current iterate x_k from u, v, and the one before, x_{k−1},
// from u_out, v_out, which it overwrites in place with x_{k+1} = x_{k−1} + ω_k (J(x_k) − x_{k−1})
// (each face reads only its own old value there). The Rust side swaps u <-> u_out between sweeps
// and runs `chebyshev_advance` after each (src/sim/viscosity.rs). CPU twin: src/sim/cpu/viscosity.rs.
//
// Why Chebyshev: plain Jacobi's error shrinks by ρ = 4a/(1 + 4a) a sweep at worst, so at a ≫ 1
// (fine grids) a fixed handful of sweeps gives a few percent of the diffusion asked for. The
// Jacobi matrix is symmetric with spectrum in [−ρ, ρ] (Gershgorin), so the Chebyshev weights
// ω_1 = 1, ω_2 = 2/(2 − ρ²), ω_{k+1} = 1/(1 − ρ² ω_k / 4) shrink the error by 1/T_k(1/ρ): about
// ½√(8a) sweeps per factor e instead of 4a. The Rust side picks the sweep count from that bound.
//
// Each neighbour of a free face adds to the diagonal and the known sum:
// - a free face: a·u_n (this sweep's iterate);
// - a prescribed face in line (wall, inflow, solid face): a·value (Dirichlet at one cell);
// - across a side, tangentially: the ghost 2·U − u (no-slip wall at speed U, inflow carrying U)
//   adds 2a to the diagonal and 2a·U to the sum; free-slip walls and outflows (zero gradient) add nothing;
// - in line beyond an outflow side: zero gradient, nothing;
// - tangentially, a face closed by a solid cell: a still no-slip wall half a cell away (2a, 0).
// Prescribed faces keep the value they hold.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> solid: array<f32>;
@group(0) @binding(3) var<storage, read_write> u_out: array<f32>;
@group(0) @binding(4) var<storage, read_write> v_out: array<f32>;
@group(0) @binding(5) var<storage, read> visc_rhs_u: array<f32>;
@group(0) @binding(6) var<storage, read> visc_rhs_v: array<f32>;
@group(0) @binding(7) var<storage, read_write> visc_state: array<f32>;

// visc_state = [k, ω_{k+1}]: the sweep index and the weight of the next sweep, advanced
// on the GPU so that each step's count and weights follow its own params (no per-sweep upload).

// The bound ρ on the Jacobi matrix's spectral radius. Keep in sync with `jacobi_bound` in
// src/sim/viscosity.rs.
fn jacobi_bound() -> f32 {
    let a = visc_a();
    return 4.0 * a / (1.0 + 4.0 * a);
}

@compute @workgroup_size(1)
fn chebyshev_reset() {
    visc_state[0] = 0.0;
    visc_state[1] = 1.0;
}

@compute @workgroup_size(1)
fn chebyshev_advance() {
    let r2 = jacobi_bound() * jacobi_bound();
    let k = visc_state[0] + 1.0;
    var w = 1.0 / (1.0 - 0.25 * r2 * visc_state[1]);
    if k == 1.0 { w = 2.0 / (2.0 - r2); }
    visc_state[0] = k;
    visc_state[1] = w;
}

// x_{k+1} from the Jacobi value `jacobi` and x_{k−1} = `before` (the first sweep is plain Jacobi).
fn chebyshev(jacobi: f32, before: f32) -> f32 {
    if visc_state[0] == 0.0 { return jacobi; }
    return before + visc_state[1] * (jacobi - before);
}

// diag and sum of the Jacobi update of one face: next = sum / diag.
struct Acc {
    diag: f32,
    sum: f32,
}

fn visc_a() -> f32 { return params.viscosity * params.dt / (params.h * params.h); }

// A neighbour face in line with the velocity component (same component, next face along it).
fn in_line(acc: Acc, face: Face, value: f32) -> Acc {
    let a = visc_a();
    if face.fixed { return Acc(acc.diag + a, acc.sum + a * face.value); }
    return Acc(acc.diag + a, acc.sum + a * value);
}

// A tangential neighbour beyond a non-periodic side.
fn across_side(acc: Acc, side: u32, tangential_in: f32) -> Acc {
    let a = visc_a();
    let kind = params.bc_kind[side];
    if kind == BC_WALL && params.bc_slip[side] == SLIP_NO_SLIP { return Acc(acc.diag + 2.0 * a, acc.sum + 2.0 * a * params.bc_speed[side]); }
    if kind == BC_INFLOW { return Acc(acc.diag + 2.0 * a, acc.sum + 2.0 * a * tangential_in); }
    return acc;
}

// A tangential neighbour inside the domain: a solid-closed face is a still no-slip wall.
fn beside(acc: Acc, face: Face, value: f32) -> Acc {
    let a = visc_a();
    if face.fixed { return Acc(acc.diag + 2.0 * a, acc.sum); }
    return Acc(acc.diag + a, acc.sum + a * value);
}

fn viscous_u(i: i32, j: i32) -> f32 {
    var fi = i;
    if periodic_x() { fi = wrap(i, nx()); }
    var acc = Acc(1.0, visc_rhs_u[u_idx(fi, j)]);
    for (var d = -1; d <= 1; d += 2) {
        let n = fi + d;
        if periodic_x() || (n >= 0 && n <= nx()) {
            acc = in_line(acc, u_face(n, j), u_at(n, j));
        }
        let m = j + d;
        if !periodic_y() && m < 0 {
            acc = across_side(acc, SIDE_BOTTOM, params.inflow_u[SIDE_BOTTOM]);
        } else if !periodic_y() && m >= ny() {
            acc = across_side(acc, SIDE_TOP, params.inflow_u[SIDE_TOP]);
        } else {
            let w = wrap(m, ny());
            acc = beside(acc, u_face(fi, w), u_at(fi, w));
        }
    }
    return acc.sum / acc.diag;
}

fn viscous_v(i: i32, j: i32) -> f32 {
    var fj = j;
    if periodic_y() { fj = wrap(j, ny()); }
    var acc = Acc(1.0, visc_rhs_v[v_idx(i, fj)]);
    for (var d = -1; d <= 1; d += 2) {
        let m = fj + d;
        if periodic_y() || (m >= 0 && m <= ny()) {
            acc = in_line(acc, v_face(i, m), v_at(i, m));
        }
        let n = i + d;
        if !periodic_x() && n < 0 {
            acc = across_side(acc, SIDE_LEFT, params.inflow_v[SIDE_LEFT]);
        } else if !periodic_x() && n >= nx() {
            acc = across_side(acc, SIDE_RIGHT, params.inflow_v[SIDE_RIGHT]);
        } else {
            let w = wrap(n, nx());
            acc = beside(acc, v_face(w, fj), v_at(w, fj));
        }
    }
    return acc.sum / acc.diag;
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i <= nx() && j < ny() {
        var value = visc_rhs_u[u_idx(i, j)];
        if !u_face(i, j).fixed { value = chebyshev(viscous_u(i, j), u_out[u_idx(i, j)]); }
        u_out[u_idx(i, j)] = value;
    }
    if i < nx() && j <= ny() {
        var value = visc_rhs_v[v_idx(i, j)];
        if !v_face(i, j).fixed { value = chebyshev(viscous_v(i, j), v_out[v_idx(i, j)]); }
        v_out[v_idx(i, j)] = value;
    }
}
