// Edge-velocity correction (seed 002, step 7): u -= dt/(rho h) * (p_right - p_left), and likewise
// v with the top and bottom pressures. Prescribed faces get exactly their prescribed value, so the
// normal velocity is 0 on every face touching a solid cell or a wall. Each thread reads only its
// own face (in place); on periodic sides the duplicated last face computes the same value.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read_write> u: array<f32>;
@group(0) @binding(1) var<storage, read_write> v: array<f32>;
@group(0) @binding(2) var<storage, read> p: array<f32>;
@group(0) @binding(3) var<storage, read> solid: array<f32>;

// Pressure across a face from the cell at (i, j): outside an outflow side the ghost is p = 0.
fn pressure_or_ghost(i: i32, j: i32) -> f32 {
    var a = i;
    var b = j;
    if periodic_x() { a = wrap(a, nx()); }
    if periodic_y() { b = wrap(b, ny()); }
    if a < 0 || a >= nx() || b < 0 || b >= ny() { return 0.0; }
    return p[cell_idx(a, b)];
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    let k = params.dt / (params.rho * params.h);
    if i <= nx() && j < ny() {
        let f = u_face(i, j);
        if f.fixed {
            u[u_idx(i, j)] = f.value;
        } else {
            u[u_idx(i, j)] = u[u_idx(i, j)] - k * (pressure_or_ghost(i, j) - pressure_or_ghost(i - 1, j));
        }
    }
    if i < nx() && j <= ny() {
        let f = v_face(i, j);
        if f.fixed {
            v[v_idx(i, j)] = f.value;
        } else {
            v[v_idx(i, j)] = v[v_idx(i, j)] - k * (pressure_or_ghost(i, j) - pressure_or_ghost(i, j - 1));
        }
    }
}
