// Edge-velocity correction (seed 002, step 7): u -= dt/(rho h) * (p_right - p_left), and likewise
// v with the top and bottom pressures. Prescribed faces get exactly their prescribed value, so the
// normal velocity is 0 on every face touching a solid cell or a wall. Each thread reads only its
// own face (in place); on periodic sides the duplicated last face computes the same value.
//
// The pressure is p + dp: a solve other than Jacobi's leaves its correction to p in dp, added to
// p after this pass (warm_start.wgsl `correct`). The two differences are taken apart, p's
// exact and dp's small, so the divergence left is the solve's: the rounding of p + dp, at |p|,
// would leave 1.4e-4 of max |b| at 1024^2 (zero dp: p's difference).

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read_write> u: array<f32>;
@group(0) @binding(1) var<storage, read_write> v: array<f32>;
@group(0) @binding(2) var<storage, read> p: array<f32>;
@group(0) @binding(3) var<storage, read> solid: array<f32>;
@group(0) @binding(4) var<storage, read> dp: array<f32>;

// (p, dp) at cell (i, j), wrapped on periodic sides: outside an outflow side the ghost is 0.
fn pressure_or_ghost(i: i32, j: i32) -> vec2<f32> {
    var a = i;
    var b = j;
    if periodic_x() { a = wrap(a, nx()); }
    if periodic_y() { b = wrap(b, ny()); }
    if a < 0 || a >= nx() || b < 0 || b >= ny() { return vec2<f32>(0.0); }
    let c = cell_idx(a, b);
    return vec2<f32>(p[c], dp[c]);
}

// The pressure's difference across a face, p's and dp's apart, then summed.
fn pressure_step(low: vec2<f32>, high: vec2<f32>) -> f32 {
    let d = high - low;
    return d.x + d.y;
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
            u[u_idx(i, j)] = u[u_idx(i, j)] - k * pressure_step(pressure_or_ghost(i - 1, j), pressure_or_ghost(i, j));
        }
    }
    if i < nx() && j <= ny() {
        let f = v_face(i, j);
        if f.fixed {
            v[v_idx(i, j)] = f.value;
        } else {
            v[v_idx(i, j)] = v[v_idx(i, j)] - k * pressure_step(pressure_or_ghost(i, j - 1), pressure_or_ghost(i, j));
        }
    }
}
