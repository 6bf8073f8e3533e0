// Vorticity confinement (Fedkiw, Stam & Jensen 2001) on the staggered grid, strength
// params.vorticity = ε. `curl` puts ω = ∂v/∂x − ∂u/∂y at every cell centre (from cell-centred
// velocities, central differences) into cell_tmp; `force` forms f = ε h (N × ω ẑ) at every cell
// with N = ∇|ω| / |∇|ω|| into vel_tmp (x, then y); `confine` adds Δt times the mean of the two
// cells' f to each free face. Forming f once a cell, not once for each of its four faces, saves
// three quarters of the ω reads (a CPU adapter's cost is its storage reads).
// Not dispatched at all when ε = 0.

// Bindings (numbers: `slot` in src/sim/kernel.rs).
@group(0) @binding(0) var<storage, read_write> u: array<f32>;
@group(0) @binding(1) var<storage, read_write> v: array<f32>;
@group(0) @binding(2) var<storage, read> solid: array<f32>;
@group(0) @binding(3) var<storage, read_write> cell_tmp: array<f32>;
@group(0) @binding(4) var<storage, read_write> vel_tmp: array<f32>;

// cell_tmp holds ω from `curl` to `force`; vel_tmp holds f from `force` to `confine`: x at c,
// y at nx ny + c (vel_tmp is the velocity corrections' scratch, free until advection).
fn force_y_at(c: u32) -> u32 { return u32(nx() * ny()) + c; }

// A cell index along x (then y) for a neighbour: wrapped on periodic axes, else clamped.
fn nb_x(i: i32) -> i32 { return select(clamp(i, 0, nx() - 1), wrap(i, nx()), periodic_x()); }
fn nb_y(j: i32) -> i32 { return select(clamp(j, 0, ny() - 1), wrap(j, ny()), periodic_y()); }

fn centre_u(i: i32, j: i32) -> f32 { return 0.5 * (u_at(i, j) + u_at(i + 1, j)); }
fn centre_v(i: i32, j: i32) -> f32 { return 0.5 * (v_at(i, j) + v_at(i, j + 1)); }

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn curl(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    var w = 0.0;
    if !is_solid(i, j) {
        let dv = centre_v(nb_x(i + 1), j) - centre_v(nb_x(i - 1), j);
        let du = centre_u(i, nb_y(j + 1)) - centre_u(i, nb_y(j - 1));
        w = (dv - du) / (2.0 * params.h);
    }
    cell_tmp[cell_idx(i, j)] = w;
}

// The confinement force at a fluid cell.
fn confinement(i: i32, j: i32) -> vec2<f32> {
    let w = cell_tmp[cell_idx(i, j)];
    let gx = abs(cell_tmp[cell_idx(nb_x(i + 1), j)]) - abs(cell_tmp[cell_idx(nb_x(i - 1), j)]);
    let gy = abs(cell_tmp[cell_idx(i, nb_y(j + 1))]) - abs(cell_tmp[cell_idx(i, nb_y(j - 1))]);
    let len = sqrt(gx * gx + gy * gy);
    if len <= 1e-20 { return vec2<f32>(0.0); }
    let s = params.vorticity * params.h * w / len;
    return vec2<f32>(gy * s, -gx * s);
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn force(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let f = confinement(i, j);
    let c = cell_idx(i, j);
    vel_tmp[c] = f.x;
    vel_tmp[force_y_at(c)] = f.y;
}

// One component (0: x, 1: y) of the mean force over the cells a and b of a free face that lie in
// the domain (either may lie outside). A face beside a solid is fixed, so these cells are fluid
// (no solid read).
fn face_force(a: vec2<i32>, b: vec2<i32>, axis: u32) -> f32 {
    var sum = 0.0;
    var count = 0.0;
    if a.x >= 0 && a.x < nx() && a.y >= 0 && a.y < ny() {
        let c = cell_idx(a.x, a.y);
        sum += vel_tmp[select(c, force_y_at(c), axis == 1u)];
        count += 1.0;
    }
    if b.x >= 0 && b.x < nx() && b.y >= 0 && b.y < ny() {
        let c = cell_idx(b.x, b.y);
        sum += vel_tmp[select(c, force_y_at(c), axis == 1u)];
        count += 1.0;
    }
    return select(0.0, sum / count, count > 0.0);
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn confine(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i <= nx() && j < ny() && !u_face(i, j).fixed {
        var l = i - 1;
        var r = i;
        if periodic_x() { l = wrap(l, nx()); r = wrap(r, nx()); }
        u[u_idx(i, j)] += params.dt * face_force(vec2<i32>(l, j), vec2<i32>(r, j), 0u);
    }
    if i < nx() && j <= ny() && !v_face(i, j).fixed {
        var b = j - 1;
        var t = j;
        if periodic_y() { b = wrap(b, ny()); t = wrap(t, ny()); }
        v[v_idx(i, j)] += params.dt * face_force(vec2<i32>(i, b), vec2<i32>(i, t), 1u);
    }
}
