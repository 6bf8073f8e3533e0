// Body forces on the edge velocities, after the splats' velocity (shaders/shared/splats.wgsl: the
// sources pass, run just before, leaves the velocity to this one): Boussinesq buoyancy (seed 004:
// density is the deviation from the ambient density, so a = (density / rho_ambient) g, heavy
// fluid falls along g) and momentum damping (seed 001: momentum *= factor, here
// exp(-damping dt) so it is independent of dt). Prescribed faces keep their value.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read_write> u: array<f32>;
@group(0) @binding(1) var<storage, read_write> v: array<f32>;
@group(0) @binding(2) var<storage, read> density: array<f32>;
@group(0) @binding(3) var<storage, read> solid: array<f32>;
@group(0) @binding(4) var<uniform> splats: array<Splat, MAX_SPLATS>;

// Density deviation at a free face: the mean of the cells on its two sides that lie in the
// domain. A face between a cell and a solid is fixed, so those cells are fluid (no solid read).
fn face_density(a: vec2<i32>, b: vec2<i32>) -> f32 {
    var sum = 0.0;
    var count = 0.0;
    if a.x >= 0 && a.x < nx() && a.y >= 0 && a.y < ny() {
        sum += density[cell_idx(a.x, a.y)];
        count += 1.0;
    }
    if b.x >= 0 && b.x < nx() && b.y >= 0 && b.y < ny() {
        sum += density[cell_idx(b.x, b.y)];
        count += 1.0;
    }
    return select(0.0, sum / count, count > 0.0);
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    let keep = exp(-params.damping * params.dt);
    // only faces the splats can reach run their loop (and a fixed face among them is set)
    let reached = in_reach(i, j);
    if i <= nx() && j < ny() {
        let f = u_face(i, j);
        var value = u[u_idx(i, j)];
        if reached { value = sourced_u(i, j, f, value); }
        if !f.fixed {
            var l = i - 1;
            var r = i;
            if periodic_x() { l = wrap(l, nx()); r = wrap(r, nx()); }
            let a = params.dt * face_density(vec2<i32>(l, j), vec2<i32>(r, j)) / params.rho * params.gravity_x;
            value = (value + a) * keep;
        }
        if reached || !f.fixed { u[u_idx(i, j)] = value; }
    }
    if i < nx() && j <= ny() {
        let f = v_face(i, j);
        var value = v[v_idx(i, j)];
        if reached { value = sourced_v(i, j, f, value); }
        if !f.fixed {
            var b = j - 1;
            var t = j;
            if periodic_y() { b = wrap(b, ny()); t = wrap(t, ny()); }
            let a = params.dt * face_density(vec2<i32>(i, b), vec2<i32>(i, t)) / params.rho * params.gravity_y;
            value = (value + a) * keep;
        }
        if reached || !f.fixed { v[v_idx(i, j)] = value; }
    }
}
