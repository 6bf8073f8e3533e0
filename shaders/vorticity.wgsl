// Vorticity confinement (Fedkiw, Stam & Jensen 2001) on the staggered grid, strength
// params.vorticity = ε. `curl` puts ω = ∂v/∂x − ∂u/∂y at every cell centre (from cell-centred
// velocities, central differences) into cell_tmp; `confine` forms f = ε h (N × ω ẑ) at the
// cells with N = ∇|ω| / |∇|ω||, and adds Δt times the mean of the two cells' f to each free face.
// Not dispatched at all when ε = 0.

// Bindings (numbers: `slot` in src/sim/kernel.rs).
@group(0) @binding(1) var<storage, read_write> u: array<f32>;
@group(0) @binding(2) var<storage, read_write> v: array<f32>;
@group(0) @binding(7) var<storage, read> solid: array<f32>;
@group(0) @binding(28) var<storage, read_write> cell_tmp: array<f32>;

// cell_tmp holds ω between the two entry points.

// A cell index along x (then y) for a neighbour: wrapped on periodic axes, else clamped.
fn nb_x(i: i32) -> i32 { return select(clamp(i, 0, nx() - 1), wrap(i, nx()), periodic_x()); }
fn nb_y(j: i32) -> i32 { return select(clamp(j, 0, ny() - 1), wrap(j, ny()), periodic_y()); }

fn centre_u(i: i32, j: i32) -> f32 { return 0.5 * (u_at(i, j) + u_at(i + 1, j)); }
fn centre_v(i: i32, j: i32) -> f32 { return 0.5 * (v_at(i, j) + v_at(i, j + 1)); }

@compute @workgroup_size(8, 8)
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

// Mean force over the cells a and b of a free face that lie in the domain (either may lie
// outside). A face beside a solid is fixed, so these cells are fluid (no solid read).
fn face_force(a: vec2<i32>, b: vec2<i32>) -> vec2<f32> {
    var sum = vec2<f32>(0.0);
    var count = 0.0;
    if a.x >= 0 && a.x < nx() && a.y >= 0 && a.y < ny() {
        sum += confinement(a.x, a.y);
        count += 1.0;
    }
    if b.x >= 0 && b.x < nx() && b.y >= 0 && b.y < ny() {
        sum += confinement(b.x, b.y);
        count += 1.0;
    }
    return select(vec2<f32>(0.0), sum / count, count > 0.0);
}

@compute @workgroup_size(8, 8)
fn confine(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i <= nx() && j < ny() && !u_face(i, j).fixed {
        var l = i - 1;
        var r = i;
        if periodic_x() { l = wrap(l, nx()); r = wrap(r, nx()); }
        u[u_idx(i, j)] += params.dt * face_force(vec2<i32>(l, j), vec2<i32>(r, j)).x;
    }
    if i < nx() && j <= ny() && !v_face(i, j).fixed {
        var b = j - 1;
        var t = j;
        if periodic_y() { b = wrap(b, ny()); t = wrap(t, ny()); }
        v[v_idx(i, j)] += params.dt * face_force(vec2<i32>(i, b), vec2<i32>(i, t)).y;
    }
}
